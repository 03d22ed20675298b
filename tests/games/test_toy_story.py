"""A game writes its own round story: the toy's decision (which card each side kept) is told in
the round summary of every screen, the Discord board and the browser table, from the toy's
module alone (its event, its `play`, its catalogue words); no product file names the toy.

The issue's requirement: "a new game's decision can be told in the round summary without
touching shared files"."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from bot.render.board import dump_board
from bot.render.pictures.scene import scene
from classroom.i18n import LANGS, t
from engine.actions import Flip
from engine.config import GameConfig
from engine.game import apply, new_game
from engine.state import GameState
from engine.view import view
from tests.bot.render.support import live, render_board
from tests.games.support import every_game
from tests.games.toy import KEY, Keep
from tests.table.support import serve

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "classroom", "storage", "table", "bot", "cogs")


_CONTROL = re.compile(r'<form method="post" action="[^"]*/act"[^>]*>(.*?)</form>', re.DOTALL)


def _press(page: str, choice: str) -> dict[str, str] | None:
    """The page's form that offers `choice`, with its hidden fields, as its button sends it."""
    for form in _CONTROL.findall(page):
        if f'name="choice" value="{choice}"' in form:
            fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
            return {**fields, "choice": choice}
    return None


def _kept_round(seed: int) -> tuple[GameState, dict[int, int]]:
    """A toy game after its first round's decisions: side 0 keeps its right card, side 1 its
    left; returns the state and each side's kept card."""
    state, _ = new_game(GameConfig(KEY, sides=2), seed)
    state, _ = apply(state, Flip(0))  # the round's cards are laid
    kept = {0: state.up[0][1].value, 1: state.up[1][0].value}
    state, _ = apply(state, Keep(0, 1))
    state, _ = apply(state, Keep(1, 0))
    return state, kept


def test_the_toys_decision_is_in_its_round_story(monkeypatch: pytest.MonkeyPatch) -> None:
    with every_game(monkeypatch):
        state, kept = _kept_round(5)
        facts = view(state, None).result
        assert facts is not None
        plays = {p.side: p for p in facts.comparisons[0].plays}
        for side, card in kept.items():
            assert plays[side].revealed
            assert plays[side].told[0][-1].key == "toy.play.kept"
            assert dict(plays[side].told[0][-1].values) == {"card": card}


@pytest.mark.parametrize("lang", LANGS)
def test_the_discord_board_tells_which_card_each_side_kept(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with every_game(monkeypatch):
        state, kept = _kept_round(5)
        text = dump_board(render_board(live(state.config, state, []), lang, 0))
        for card in kept.values():
            number = str(card).replace("-", "\u2212")
            assert t("toy.play.kept", lang, card=number) in text


def test_the_card_picture_tells_which_card_each_side_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The picture's row for a side says its play in a few words (`Play.brief`): the toy's
    too, in its own words, with both cards it laid drawn."""
    with every_game(monkeypatch):
        state, kept = _kept_round(5)
        rows = scene(view(state, None), {0: "Ada", 1: "Bo"}, "en").rows
        for row in rows:
            number = str(kept[row.side]).replace("-", "\u2212")
            assert row.play == t("toy.play.kept", "en", card=number)
            assert len(row.cards) == 2


async def test_the_browser_table_tells_which_card_each_side_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with every_game(monkeypatch):
        async for table in serve(seeds=[5]):
            form = {"game": KEY, "player1": "Ada", "player2": "Bo", "lang": "en"}
            response = await table.client.post("/games", data=form, allow_redirects=False)
            assert response.status == 303, await response.text()
            location = response.headers["Location"]
            found = re.search(r"/game/([\w-]+)", location)
            assert found is not None
            gid = found.group(1)
            game = table.game(gid)
            kept: dict[int, int] = {}
            while len(kept) < 2:  # a flip, then at one screen each side keeps its right card
                page = await (await table.client.get(location)).text()
                data = _press(page, "keep:1") or _press(page, "flip")
                assert data is not None, page
                if data["choice"] == "keep:1":
                    side = int(data["side"])
                    kept[side] = game.state.up[side][1].value
                response = await table.client.post(f"/game/{gid}/act", data=data)
                assert response.status == 200, await response.text()
            page = html.unescape(await (await table.client.get(location)).text())
            for card in kept.values():
                number = str(card).replace("-", "\u2212")
                assert t("toy.play.kept", "en", card=number) in page


def test_no_product_file_names_the_toy() -> None:
    """The toy's story is its module's and its catalogues' (beside it in tests/games): the
    product's code and catalogues never name it, so the count of product files it touches is
    0 beyond the registry line a product game adds."""
    named = [
        str(path.relative_to(ROOT))
        for top in PRODUCT
        for path in (ROOT / top).rglob("*")
        if path.suffix in (".py", ".json") and re.search(r"\btoy\b", path.read_text("utf-8"))
    ]
    assert named == []
