"""Names as every screen says them: several names joined with the language's own word for
*and*, and the computer with its strength. No discord import, so the Discord board and the
browser table name sides the same way."""

from __future__ import annotations

from classroom.i18n import Lang, t


def join_names(names: list[str], lang: Lang) -> str:
    """``Ada``, ``Ada and Bo``, ``Ada, Bo and Cy`` in the language's own word for *and*."""
    if len(names) <= 1:
        return "".join(names)
    return t("list.and", lang, first=", ".join(names[:-1]), last=names[-1])


def computer_name(strength: str | None, lang: Lang) -> str:
    """The computer in the board's language, with its strength: ``🤖 Datamaskin (middels)``."""
    name = t("computer.name", lang)
    if strength in ("easy", "medium", "hard"):
        level = t(f"computer.{strength}.name", lang)
        return t("side.computer", lang, name=name, strength=level)
    return t("side.computer_plain", lang, name=name)
