"""A level path for years 4–10: which deck and levels suit a year group, and the curriculum aim
each level serves (LK20 in Norway, Lgr22 in Sweden), for the help, the teacher's setup and the
report.

The ladder of levels follows the rule book's order (+, ·, ÷, −), while Norwegian and Swedish
classes meet subtraction with negative numbers (years 6–7) before products and quotients of
negative numbers (years 7–8); the path puts the levels in the school's order instead. The aims
are paraphrases, not quotations (docs/for-schools.md says which texts they paraphrase).
"""

from __future__ import annotations

from dataclasses import dataclass

from classroom.i18n import Lang, t

__all__ = ["LEVEL_PATH", "PathStep", "aim_text", "path_lines", "path_text"]


@dataclass(frozen=True, slots=True)
class PathStep:
    """A year group's suggestion: the deck and the levels, in the order to play them."""

    years: str  # Norwegian years ("trinn"), as the English text counts them: "4–5"
    swedish: str  # the same pupils' Swedish years ("årskurs"), which start a year later
    deck: str  # an `engine.cards.DeckProfile` value
    levels: tuple[int, ...]


LEVEL_PATH = (
    PathStep("4\u20135", "3\u20134", "vanlig", (1, 2, 3)),
    PathStep("6\u20137", "5\u20136", "heltall", (1, 4, 5)),
    PathStep("7\u20138", "6\u20137", "heltall", (2, 3)),
    PathStep("8\u201310", "7\u20139", "heltall", (6, 7)),
)


def path_lines(lang: Lang) -> list[str]:
    """The path as lines: "Years 6–7: Whole numbers, levels 1 → 4 → 5"."""
    return [
        t(
            "path.step",
            lang,
            years=_years(step, lang),
            deck=t(f"deck.{step.deck}.name", lang),
            levels=" \u2192 ".join(str(level) for level in step.levels),
        )
        for step in LEVEL_PATH
    ]


def _years(step: PathStep, lang: Lang) -> str:
    """The year group as the reader's schools write it: "4.–5." in Norwegian."""
    if lang == "sv":
        return step.swedish
    return step.years.replace("\u2013", ".\u2013") if lang in ("nb", "nn") else step.years


def path_text(lang: Lang) -> str:
    """The path and why its order is the school's, as one block for a help or setup field."""
    return "\n".join([*(f"• {line}" for line in path_lines(lang)), t("path.note", lang)])


def aim_text(level: int, lang: Lang) -> str:
    """The curriculum aim a level serves, in the reader's language (LK20 in nb and nn, Lgr22
    in sv, both in en)."""
    return t(f"path.aim.{level}", lang)
