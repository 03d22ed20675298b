"""Card pictures of the table: `draw_table(view, names, lang)` → a PNG and its alternative text.

Pure: no discord, no storage, no I/O but reading the shipped font. Drawn from the view only.
A picture is cached by the view itself and by its scene (what it shows, derived from the
view), so drawing the same state again costs a dictionary look-up. Safe to call from worker
threads. The bot draws in a worker process of its own (`bot.drawing`, sending it the `Scene`
and caching the pictures it gets back): drawing is CPU work that must stay off the event
loop and out of its interpreter lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.render.pictures.alt import ALT_MAX, alt_text
from bot.render.pictures.compose import render
from bot.render.pictures.scene import Scene, scene
from engine.view import View

FILENAME = "table.png"  # the embed refers to it as attachment://table.png
PICTURES_KEPT = 256  # pictures remembered (a board's every state for a few dozen games)


@dataclass(frozen=True, slots=True)
class Picture:
    png: bytes
    alt: str  # the attachment's description: the round in words
    filename: str = FILENAME

    @property
    def url(self) -> str:
        """What an embed's image points at."""
        return f"attachment://{self.filename}"


def draw_table(view: View, names: dict[int, str], lang: str) -> Picture:
    """The table as `view` shows it, names printed as given (plain text, not Markdown)."""
    return _drawn(view, tuple(sorted(names.items())), lang)


@lru_cache(maxsize=PICTURES_KEPT)
def _drawn(view: View, names: tuple[tuple[int, str], ...], lang: str) -> Picture:
    """The same view again (a frozen, hashable value) is a look-up, without building its
    scene; a different view with the same scene still shares the picture below."""
    return picture(scene(view, dict(names), lang))


@lru_cache(maxsize=PICTURES_KEPT)
def picture(shown: Scene) -> Picture:
    """The picture of a scene, drawn once."""
    return Picture(render(shown), alt_text(shown))


def forget() -> None:
    """Empty the picture caches (tests and benchmarks measure a first drawing)."""
    _drawn.cache_clear()
    picture.cache_clear()


__all__ = ["ALT_MAX", "FILENAME", "Picture", "Scene", "draw_table", "forget", "picture", "scene"]
