"""The conformance suite: what every registered game, and the toy a test registers
(`tests.games.toy`), must keep, through the shared engine and every screen, without a line
of its own in either (docs/architecture.md, "How to add a game"):

* RULES §1.6 replay: configuration, seed and actions rebuild the game exactly, from the
  actions as stored (SCENARIOS.md JSON), with or without the recorded events, and the replay
  tool reaches the same end;
* RULES §4 conservation: every card dealt is in exactly one place after every action;
* the view and the choices agree: a screen offers what `engine.game.choices` says and
  nothing else, every choice applies, and a kind rebuilds its action from its value;
* its controls on Discord: the board has a control for every choice of the sides people
  play and none for anything else, each press reads back to its choice, in every language,
  within Discord's limits, and the card picture of every state is drawn with its words;
* its controls on the table (the browser): a game started from the setup form at one screen,
  and a class lesson's game on each pupil's own device, are played to their end with the
  buttons and boxes their pages offer.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence

import pytest

from bot.custom_ids import parse
from bot.render.buttons import SELECT_MAX, choice_of, value_of
from bot.render.pictures import ALT_MAX, draw_table
from classroom.i18n import LANGS, t
from engine.actions import Action, Shape
from engine.config import GameConfig
from engine.descriptor import GameDescriptor
from engine.events import Event
from engine.game import apply, choices, legal_actions, new_game, restore
from engine.registry import action_from_json, action_to_json, descriptor
from engine.replay import run
from engine.state import GameState
from engine.view import view
from tests.bot.render.support import limit_problems, live, render_board
from tests.games.support import (
    GAME_KEYS,
    all_cards,
    configs,
    every_game,
    is_player_choice,
    played,
)
from tests.games.toy import TOY
from tests.table.lessons import Device, join, teacher
from tests.table.support import Table, message_of, serve

SEEDS = (1, 2)


@pytest.fixture(params=GAME_KEYS)
def game(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[GameDescriptor]:
    with every_game(monkeypatch):
        yield descriptor(request.param)


def _games(game: GameDescriptor) -> Iterator[tuple[GameConfig, int, list[GameState], list[Action]]]:
    for config in configs(game):
        for seed in SEEDS:
            steps = list(played(config, seed))
            states = [s for s, _ in steps]
            actions = [a for _, a in steps]
            final = apply(states[-1], actions[-1])[0] if steps else new_game(config, seed)[0]
            yield config, seed, [*states, final], actions


def typed_text(action: Action) -> str:
    """The text a typed choice's action carries: any game's typed action has one (`text`)."""
    text = getattr(action, "text", None)
    assert isinstance(text, str), action
    return text


def game_id(location: str) -> str:
    """The game's id in the address the table sends a new game's players to."""
    found = re.search(r"/game/([\w-]+)", location)
    assert found is not None, location
    return found.group(1)


def test_the_toy_is_a_game_of_its_own() -> None:
    """The suite measures a game that is not in the product: the toy is registered only
    while a test runs."""
    assert TOY.key not in GAME_KEYS[:-1] and GAME_KEYS[-1] == TOY.key
    assert TOY.decisions and all(d.kinds for d in TOY.decisions)


def test_a_game_replays_bit_for_bit(game: GameDescriptor) -> None:
    """RULES §1.6: configuration + seed + actions is the game, from its stored form too."""
    for config, seed, states, actions in _games(game):
        final = states[-1]
        assert restore(config, seed, actions) == final
        stored = json.loads(json.dumps([action_to_json(a) for a in actions]))
        read = [action_from_json(a) for a in stored]
        assert read == actions
        events: list[Event] = new_game(config, seed)[1]
        state = states[0]
        for action in actions:
            state, new = apply(state, action)
            events += new
        recorded = json.loads(json.dumps([e.to_json() for e in events]))
        assert restore(config, seed, read, recorded) == final
        if final.outcome is not None:
            report = run({**config.to_json(), "seed": seed, "actions": stored})
            assert report["status"] == "over", report.get("error")
            assert report["counts"] == list(final.counts)
            assert report["winner"] == final.outcome.winner


def test_every_card_is_in_exactly_one_place(game: GameDescriptor) -> None:
    """RULES §4: piles, pot and set-aside cards are the cards dealt, each once."""
    for _, _, states, _ in _games(game):
        dealt = all_cards(states[0])
        assert len(set(dealt)) == len(dealt)
        for state in states:
            assert all_cards(state) == dealt


def _agree(state: GameState, game: GameDescriptor) -> None:
    legal = set(legal_actions(state))
    table = view(state, None)
    assert table.choices == choices(state)
    for viewer in range(len(state.sides)):
        own = view(state, viewer).choices
        assert own == choices(state, viewer)
        assert {c.action for c in own} <= {c.action for c in table.choices}
    offered = {c.action for c in table.choices}
    assert offered <= legal  # every choice applies ...
    assert {a for a in legal if is_player_choice(a)} <= offered  # ... and none is hidden
    for choice in table.choices:
        assert choice.kind in game.kinds
        text = typed_text(choice.action) if choice.kind.shape is Shape.TYPE else ""
        assert choice.kind.make(choice.side, choice.value, text) == choice.action
    if state.outcome is None and table.decision is not None and not table.auto:
        assert table.awaited == state.pending
        for side in state.pending:  # an awaited side always has something to choose
            assert choices(state, side)


def test_the_view_offers_exactly_the_choices(game: GameDescriptor) -> None:
    for _, _, states, _ in _games(game):
        for state in states:
            _agree(state, game)
            if state.outcome is None:
                for choice in choices(state):
                    apply(state, choice.action)


def _board_controls(state: GameState, lang: str) -> dict[tuple[str, str | None], list[str]]:
    """The board's controls: (verb, argument) → the values a select lists (a button: [])."""
    config = state.config
    board = render_board(live(config, state, []), lang, 0)
    assert limit_problems(board) == {}
    controls: dict[tuple[str, str | None], list[str]] = {}
    for row in board.view.to_components():
        for component in row["components"]:
            ref = parse(component["custom_id"])
            assert ref is not None
            values = [o["value"] for o in component.get("options", [])]
            assert len(values) <= SELECT_MAX
            controls[(ref.verb.value, ref.arg)] = values
    return controls


def _pressed(game: str, verb: str, arg: str | None, value: str | None) -> tuple[object, int | None]:
    from bot.custom_ids import Verb

    kind = choice_of(game, Verb(verb), arg)
    if value is not None:
        return kind, int(value)
    return kind, value_of(Verb(verb), arg)


def test_the_discord_board_offers_every_choice_and_reads_every_press_back(
    game: GameDescriptor,
) -> None:
    """Every choice of a side people play has its control on the board, in every language;
    every control reads back (through the game's own kinds) to a choice on offer."""
    from engine.actions import FLIP_CHOICE

    seen_kinds = set()
    for config, _, states, _ in _games(game):
        if config.sides != 2:
            continue
        for state in states[::3]:
            table = view(state, None)
            if state.outcome is not None or any(c.kind is FLIP_CHOICE for c in table.choices):
                continue
            for lang in LANGS:
                controls = _board_controls(state, lang)
            offered = {(c.kind, c.value) for c in table.choices if c.side in range(config.sides)}
            pressed = set()
            for (verb, arg), values in controls.items():
                if verb in ("hint", "auto"):
                    continue
                pressed_values: Sequence[str | None] = values or [None]
                for value in pressed_values:
                    kind, number = _pressed(config.game, verb, arg, value)
                    assert kind is not None, (verb, arg)
                    pressed.add((kind, number))
            # A typed choice's control opens the form: it carries no value.
            assert {(k, v if k.shape is not Shape.TYPE else None) for k, v in offered} == pressed
            seen_kinds |= {k for k, _ in pressed}
    assert {k for d in game.decisions for k in d.kinds} <= seen_kinds


def test_the_card_picture_of_a_game_is_drawn_in_every_language(game: GameDescriptor) -> None:
    """The board's picture (`bot.render.pictures`) is drawn from the view alone, with the
    decision's own picture statuses, and its alternative text fits Discord's limit."""
    drawn = 0
    for config, _, states, _ in _games(game):
        if config.sides != 2 or config.level != game.levels[0]:
            continue
        for state in states[:: max(1, len(states) // 6)]:
            for lang in LANGS:
                picture = draw_table(view(state, None), {0: "Ada", 1: "Bo"}, lang)
                assert picture.png.startswith(b"\x89PNG") and 0 < len(picture.alt) <= ALT_MAX
                drawn += 1
    assert drawn


_CONTROL = re.compile(r'<form method="post" action="[^"]*/act"[^>]*>(.*?)</form>', re.DOTALL)


def _pressable(page: str) -> list[dict[str, str]]:
    """The presses a page offers: each act form's hidden fields with one of its buttons."""
    found = []
    for form in _CONTROL.findall(page):
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
        for value in re.findall(r'<button[^>]*name="choice" value="([^"]+)"', form):
            found.append({**fields, "choice": value})
    return found


async def _play_on_the_table(table: Table, game: GameDescriptor, rng: random.Random) -> None:
    form = {"game": game.key, "player1": "Ada", "player2": "Bo", "lang": "en"}
    response = await table.client.post("/games", data=form, allow_redirects=False)
    assert response.status == 303, await response.text()
    location = response.headers["Location"]
    gid = game_id(location)
    live_game = table.game(gid)
    kinds_pressed = set()
    for _ in range(3000):
        if live_game.over:
            break
        page = await (await table.client.get(location)).text()
        presses = _pressable(page)
        state = live_game.state
        offered = {(c.kind.name, c.value) for c in choices(state) if c.side in live_game.humans}
        drawn = set()
        for press in presses:
            name, _, value = press["choice"].partition(":")
            drawn.add((name, int(value) if value else None))
        # The page draws the first awaited side's choices (at one screen, one side at a time).
        assert drawn and drawn <= offered, (drawn, offered)
        press = rng.choice(presses)
        data = dict(press)
        kind = game.kind(press["choice"].partition(":")[0])
        assert kind is not None
        if kind.shape is Shape.TYPE:
            side = int(data["side"])
            typed = next(c for c in choices(state, side) if c.kind is kind)
            data["answer"] = typed_text(typed.action)
        kinds_pressed.add(kind)
        response = await table.client.post(f"/game/{gid}/act", data=data)
        assert response.status == 200, await response.text()
    assert live_game.over
    assert {k for d in game.decisions for k in d.kinds if k.shape is not Shape.PICK} <= {
        k for k in kinds_pressed
    } | {k for d in game.decisions for k in d.kinds if k.token is not None}


async def test_a_game_is_played_to_its_end_on_the_table(game: GameDescriptor) -> None:
    """The one-screen table: the setup form starts the game, and the buttons its pages draw
    play it to the end (every press accepted)."""
    async for table in serve(seeds=[3]):
        await _play_on_the_table(table, game, random.Random(3))


async def _play_a_lesson(table: Table, game: GameDescriptor, rng: random.Random) -> None:
    boss = await teacher(table)
    form = {"game": game.key, "lang": "en"}
    if game.option("answer_seconds") is not None:
        form["answer_seconds"] = "0"
    status, page = await boss.post("/teacher/settings", **form)
    assert status == 200, page
    pupils = [await join(table, name) for name in ("Ada", "Bo")]
    await boss.post("/teacher/pair", how="random", lang="en")
    (live_game,) = table.lesson.live_games()
    assert live_game.state.config.game == game.key and live_game.computer is None
    devices: dict[int, Device] = {}
    for device, seat in pupils:
        side = next(s for s, held in enumerate(live_game.seats) if seat.id in held)
        devices[side] = device
    for _ in range(3000):
        if live_game.over:
            break
        moved = False
        for side, device in sorted(devices.items()):
            if live_game.over:
                break
            state = live_game.state
            status, page = await device.get("/table")
            assert status == 200
            presses = _pressable(page)
            offered = {(c.kind.name, c.value) for c in choices(state, side)}
            drawn = set()
            for press in presses:
                name, _, value = press["choice"].partition(":")
                drawn.add((name, int(value) if value else None))
            assert drawn <= offered, (side, drawn, offered)  # only its own side's choices
            if presses and not moved:
                data = dict(rng.choice(presses))
                kind = game.kind(data["choice"].partition(":")[0])
                assert kind is not None
                if kind.shape is Shape.TYPE:
                    typed = next(c for c in choices(state, side) if c.kind is kind)
                    data["answer"] = typed_text(typed.action)
                status, page = await device.post("/table/act", **data)
                assert status == 200, page
                moved = True
        assert moved, "no device had anything to press"
    assert live_game.over
    for device, _ in pupils:
        await device.close()
    await boss.close()


async def test_a_class_lessons_game_is_played_to_its_end_on_the_pupils_devices(
    game: GameDescriptor,
) -> None:
    """The class lesson: the teacher picks the game, two pupils are paired, and each plays
    its own side on its own device with the controls its page draws (and no other side's)."""
    async for table in serve(seeds=[3], kind="class"):
        table.lesson.rng = random.Random(3)
        await _play_a_lesson(table, game, random.Random(5))


async def test_at_a_shared_screen_a_decision_made_together_is_only_in(
    game: GameDescriptor,
) -> None:
    """RULES §3.3 for bets, and the same for any game's own decision that the sides make
    together: at one screen, a side's press is told only as made, so the others cannot read
    it before they decide."""
    together = [k for d in game.decisions if not d.alone for k in d.kinds if k.shape is Shape.PRESS]
    if not together:
        pytest.skip(f"{game.key} has no decision the sides make together with a press")
    async for table in serve(seeds=[3]):
        form = {"game": game.key, "player1": "Ada", "player2": "Bo", "lang": "en"}
        response = await table.client.post("/games", data=form, allow_redirects=False)
        gid = game_id(response.headers["Location"])
        live_game = table.game(gid)
        for _ in range(50):
            state = live_game.state
            if state.pending == (0, 1) and any(c.kind in together for c in choices(state, 0)):
                break
            flip = next(c for c in choices(state) if c.kind.name == "flip")
            data = {"window": str(state.window), "side": str(flip.side), "choice": "flip"}
            await table.client.post(f"/game/{gid}/act", data={**data, "lang": "en"})
        else:
            raise AssertionError("the decision never came up")
        choice = next(c for c in choices(state, 0) if c.kind in together)
        value = (
            f"{choice.kind.name}:{choice.value}" if choice.value is not None else choice.kind.name
        )
        data = {"window": str(state.window), "side": "0", "choice": value, "lang": "en"}
        response = await table.client.post(f"/game/{gid}/act", data=data)
        assert response.status == 200
        page = await response.text()
        decided = t("table.note.side", "en", name="Ada", text=t("table.note.decided", "en"))
        assert message_of(page) == decided
