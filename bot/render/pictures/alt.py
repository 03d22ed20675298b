"""The picture's alternative text: the same scene in words, for screen readers and for anyone
whose client does not show images (Discord's attachment description, at most 1024 characters).
"""

from __future__ import annotations

from bot.render.pictures.scene import Row, Scene
from bot.render.pictures.tiles import Face, signed
from classroom.i18n import t

ALT_MAX = 1024  # Discord's limit on an attachment's description
_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _card(face: Face) -> str:
    suit = _SUITS.get(face.suit or "")
    return f"{signed(face.value)} {suit}" if suit else signed(face.value)


def _row(row: Row, scene: Scene) -> str:
    lang = scene.lang
    details: list[str] = []
    shown = [*row.cards, *([row.third] if row.third is not None else [])]
    if shown:
        details.append(t("picture.alt.up", lang, cards=", ".join(_card(f) for f in shown)))
    if row.stack:
        details.append(t("picture.alt.down", lang, count=row.stack))
    details.extend(line for line in (row.play, row.note) if line)
    if not details:
        return _sentence(t("picture.alt.side_only", lang, name=row.name, cards=row.count))
    return _sentence(
        t("picture.alt.side", lang, name=row.name, cards=row.count, details="; ".join(details))
    )


def _sentence(text: str) -> str:
    """A full stop, unless the text already ends a sentence (`!`, `…`)."""
    return text if text[-1:] in ".!?…" else text + "."


def alt_text(scene: Scene) -> str:
    """`Regnekrig · Level 5, Round 3. The target is 7. Ada won 4 cards. Ada, 24 cards: …`"""
    lang = scene.lang
    parts = [t("picture.alt.table", lang, game=scene.title, round=scene.round)]
    if scene.target is not None:
        parts.append(t("picture.alt.target", lang, target=scene.target))
    if scene.pot_count:
        parts.append(t("picture.alt.pot", lang, count=scene.pot_count))
    if scene.banner:
        parts.append(_sentence(scene.banner))
    parts.extend(_row(row, scene) for row in scene.rows)
    text = " ".join(parts)
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 1] + "…"
