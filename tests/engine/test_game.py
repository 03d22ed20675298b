"""RULES.md §1 (common to all games) and §4 (what a game records), through the game API."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.actions import Action, Flip, TimeUp
from engine.cards import DeckProfile, new_deck
from engine.config import GameConfig, Mode
from engine.errors import ConfigurationError, IllegalActionError
from engine.game import apply, legal_actions, new_game, restore, waiting_for
from engine.options import LEVEL, SIDES_OPTION, WAR_SIZE, Option
from engine.registry import GAMES
from engine.regnekrig import TARGET, Answer, NameTarget
from engine.state import Termination
from tests.engine.support import events, scenario


def test_two_sides_get_26_cards_each() -> None:
    """§1.2: two sides: each gets 26 cards."""
    state, _ = new_game(GameConfig("intervallkrig"), seed=1)
    assert [len(s.draw) for s in state.sides] == [26, 26] and state.set_aside == ()


@pytest.mark.parametrize(("sides", "each", "aside"), [(3, 17, 1), (4, 13, 0)])
def test_dealt_evenly_leftovers_set_aside(sides: int, each: int, aside: int) -> None:
    """§1.2 [decision]: dealt evenly between sides; 52 mod sides set aside face down."""
    state, evs = new_game(GameConfig("intervallkrig", sides=sides), seed=2)
    assert [len(s.draw) for s in state.sides] == [each] * sides
    assert len(state.set_aside) == aside
    assert evs[0].type == "dealt"


@pytest.mark.parametrize("deck", list(DeckProfile))
def test_the_deal_uses_the_chosen_deck(deck: DeckProfile) -> None:
    """§1.1: deck profiles are chosen when a game is started."""
    state, _ = new_game(GameConfig("regnekrig", deck=deck), seed=3)
    assert Counter(c.value for c in state.all_cards()) == Counter(c.value for c in new_deck(deck))


def test_collection_pile_is_shuffled_in_when_the_draw_pile_is_empty() -> None:
    """§1.3: when a side must lay a card and its draw pile is empty, its collection pile is
    shuffled and becomes its draw pile."""
    out = scenario(level=1, piles=[[5, 6], [1, 1, 2, 2]])
    reshuffle = events(out, "reshuffle")[0]
    assert reshuffle["side"] == 0 and reshuffle["cards"] == 4
    assert sorted(reshuffle["order"]) == [0, 1, 2, 3]
    seqs = [e["seq"] for e in events(out, "laid", side=0)]
    assert seqs[0] < reshuffle["seq"] < seqs[1]


def test_a_side_with_no_cards_is_out_and_the_last_side_wins() -> None:
    """§1.5: a side with count 0 when a round ends is out; one side holding all cards wins."""
    out = scenario(level=1, sides=3, piles=[[5, 5, 1, 1], [1, 1], [2, 2, 6, 6]])
    assert events(out, "side_out")[0]["side"] == 1
    assert out["status"] == "over" and out["winner"] in (0, 2)
    assert sum(out["counts"]) == 10 and out["counts"].count(0) == 2


def test_time_up_finishes_the_round_then_most_cards_win() -> None:
    """§1.5 [decision]: when time runs out the round in progress is finished, then the side
    with the most cards wins."""
    out = scenario(level=1, piles=[[5, 5, 1, 1], [1, 1, 6, 6]], actions=[{"type": "time_up"}])
    assert [e["type"] for e in out["events"]][-3:] == ["value", "round_won", "game_over"]
    assert out["events"][-1]["reason"] == "time_up" and out["winner"] == 0
    assert out["rounds"] == 1


def test_time_up_with_equal_most_is_a_draw() -> None:
    """§1.5: equal most → draw."""
    out = scenario(
        level=1, piles=[[5, 5, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]], actions=[{"type": "time_up"}]
    )
    assert out["counts"] == [6, 6] and out["winner"] is None
    assert out["events"][-1]["reason"] == "time_up"


def test_time_up_between_rounds_ends_at_once() -> None:
    """SCENARIOS.md: time_up is applied before the next round starts."""
    config = GameConfig("regnekrig", level=5, mode=Mode.REGN)
    state, _ = new_game(config, 0, [[1, 2, 3, 4], [1, 1, 0, 0]])
    assert state.phase is TARGET
    state, evs = apply(state, TimeUp())
    assert state.outcome is not None and state.outcome.reason is Termination.TIME_UP
    assert state.round == 0 and [e.type for e in evs] == ["time_up", "game_over"]
    with pytest.raises(IllegalActionError) as refused:
        apply(state, NameTarget(0, 3))
    assert refused.value.code == "game_over"


def test_time_up_once() -> None:
    config = GameConfig("regnekrig", mode=Mode.REGN)
    state, _ = new_game(config, 0, [[1, 2, 3, 4], [1, 1, 0, 0]])
    state, _ = apply(state, TimeUp())
    assert not state.is_over  # the round in progress is finished first
    with pytest.raises(IllegalActionError) as refused:
        apply(state, TimeUp())
    assert refused.value.code == "time_already_up"
    state, _ = apply(state, Answer(0, "3"))
    state, _ = apply(state, Answer(1, "2"))
    assert state.outcome is not None and state.outcome.reason is Termination.TIME_UP


def test_round_cap_ends_the_game_like_a_time_limit() -> None:
    """§1.5 [decision]: a safety cap on rounds ends an endless game like a time limit does."""
    out = scenario(level=1, max_rounds=3, piles=[[1] * 12, [2] * 12])
    assert out["rounds"] == 3 and out["counts"] == [6, 18] and out["winner"] == 1
    assert out["events"][-1]["reason"] == "max_rounds"


@pytest.mark.parametrize(
    "keys",
    [{"level": 0}, {"level": 8}, {"sides": 1}, {"sides": 5}, {"war_size": 0}, {"war_size": 7}],
)
def test_bad_configuration_is_refused(keys: dict[str, int]) -> None:
    with pytest.raises(ConfigurationError):
        GameConfig.from_json({"game": "regnekrig", **keys})


def test_an_unknown_game_is_refused_before_anything_is_dealt() -> None:
    """A configuration is plain data; the registry says which games exist (SCENARIOS.md `game`)."""
    with pytest.raises(ConfigurationError, match="unknown game 'chess'"):
        new_game(GameConfig("chess"), 0)


def test_stacked_piles_must_match_the_sides() -> None:
    with pytest.raises(ConfigurationError):
        new_game(GameConfig("regnekrig"), 0, [[1, 2]])


def test_illegal_actions_are_refused_with_a_code_and_change_nothing() -> None:
    """Bad input gets a clear error and changes nothing."""
    config = GameConfig("regnekrig", level=5, mode=Mode.REGN)
    state, _ = new_game(config, 0, [[1, 2, 3, 4], [1, 1, 0, 0]])
    before = state
    cases = [
        (Answer(0, "3"), "wrong_phase"),
        (NameTarget(7, 3), "not_a_side"),
        (Flip(0), "wrong_phase"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalActionError) as refused:
            apply(state, action)
        assert refused.value.code == code
        assert state == before


def test_legal_actions_are_the_ones_apply_accepts() -> None:
    """DESIGN: legal_actions is enumerable, so the UI never offers an illegal move."""
    config = GameConfig("regnekrig", level=5, mode=Mode.REGN)
    state, _ = new_game(config, 0, [[1, 2, 3, 4], [1, 1, 0, 0]])
    targets = [a for a in legal_actions(state) if isinstance(a, NameTarget)]
    assert [a.value for a in targets] == list(range(-15, 16))
    for action in legal_actions(state):
        apply(state, action)  # none raises
    assert [d.to_json() for d in waiting_for(state)] == [{"side": 0, "action": "target"}]


def test_restore_from_actions_and_recorded_outcomes() -> None:
    """§1.6: configuration + seed + actions reproduce the game; with the recorded events the
    chance outcomes are taken from the record, not from re-running the RNG."""
    config = GameConfig("regnekrig", level=6, mode=Mode.AUTO)
    state, recorded = new_game(config, 99)
    actions: list[Action] = []
    while not state.is_over and len(actions) < 40:
        action = Flip(0)
        actions.append(action)
        state, evs = apply(state, action)
        recorded.extend(evs)
    assert restore(config, 99, actions) == state
    as_json = [e.to_json() for e in recorded]
    assert restore(config, 99, actions, as_json) == state
    # A different seed with the recorded outcomes still gives the recorded game.
    restored = restore(config, 12345, actions, as_json)
    assert restored.sides == state.sides and restored.round == state.round


def test_card_conservation_in_a_whole_game() -> None:
    """§4: draw piles + collection piles + table + set-aside = the cards dealt, each once."""
    config = GameConfig("satsing", sides=3, mode=Mode.AUTO)
    state, _ = new_game(config, 5)
    dealt = sorted(c.id for c in state.all_cards())
    while not state.is_over:
        state, _ = apply(state, Flip(0))
        assert sorted(c.id for c in state.all_cards()) == dealt


def configured(key: str, value: int) -> GameConfig:
    """A regnekrig configuration with one option set by its key, as a screen sets it: the key
    is known only when the test runs, so the keyword cannot be checked before."""
    option: dict[str, Any] = {key: value}
    return GameConfig("regnekrig", **option)


@pytest.mark.parametrize("option", [LEVEL, SIDES_OPTION, WAR_SIZE], ids=lambda o: o.key)
def test_a_configuration_is_checked_by_the_options_a_screen_offers(option: Option) -> None:
    """§1.2 (2–4 sides), §2.2 (levels 1–7), §2.3 (war size 1–6): one range each, said once
    (`engine.options`): the values a screen offers are exactly those a configuration takes, and
    a refusal names the option."""
    for value in range(option.low - 2, option.high + 3):
        if option.allows(value):
            configured(option.key, value)
            continue
        with pytest.raises(ConfigurationError) as refused:
            configured(option.key, value)
        assert refused.value.details["field"] == option.key
    assert all(option in g.options for g in GAMES.values() if g.option(option.key))
