"""The seam for card pictures: a drawer turns the table's view into a PNG and its alt text
(`bot.render.pictures.draw_table`, from the card-pictures work). When one is installed, the
page shows the table as an <img> (fed by ``/game/{id}/table.png``) above the text, which stays
as the picture's text alternative; without one, the page is text only."""

from __future__ import annotations

import importlib
from typing import Protocol

from engine.view import View


class Drawn(Protocol):
    @property
    def png(self) -> bytes: ...

    @property
    def alt(self) -> str: ...


class Drawer(Protocol):
    def __call__(self, view: View, names: dict[int, str], lang: str, /) -> Drawn: ...


PICTURES_MODULE = "bot.render.pictures"


def installed_drawer() -> Drawer | None:
    """The card pictures' `draw_table`, when that module is installed (else None)."""
    try:
        module = importlib.import_module(PICTURES_MODULE)
    except ImportError:
        return None
    draw = getattr(module, "draw_table", None)
    return draw if callable(draw) else None
