"""RULES.md §3 — Intervallkrig and Satsing, rule by rule, with stacked piles (top card first)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Flip
from engine.config import GameConfig, Mode
from engine.errors import IllegalActionError
from engine.events import RoundWon, Swapped, ThirdDrawn
from engine.game import apply, new_game, waiting_for
from engine.intervallkrig import BET, PASS, Bet, Pass
from engine.state import GameState, Phase
from engine.view import view as observe
from tests.engine.support import events, kinds, scenario

FILL = [0, 0, 0, 0]  # extra cards so a round is not an endgame round (§3.4)


def first_round(out: dict[str, Any]) -> list[dict[str, Any]]:
    k = kinds(out)
    end = next(i for i, t in enumerate(k) if t in ("round_won", "pot_returned", "game_over"))
    played: list[dict[str, Any]] = out["events"]
    return played[: end + 1]


# -- §3.1 a round ----------


def test_third_card_inside_the_interval_wins() -> None:
    """§3.1: exactly one side's third card lies in its interval → it takes every card."""
    out = scenario("intervallkrig", piles=[[1, 5, 3, *FILL], [2, 3, 6, *FILL]])
    thirds = events(out, "third")[:2]
    assert [(t["side"], t["card"], t["inside"]) for t in thirds] == [(0, 3, True), (1, 6, False)]
    assert events(out, "round_won")[0] == {**events(out, "round_won")[0], "side": 0, "cards": 6}


def test_equal_to_an_end_counts_as_inside() -> None:
    """§3.1: "ett kort med lika värde som det på bordet är giltigt" — the interval is closed."""
    out = scenario("intervallkrig", piles=[[1, 5, 5, *FILL], [-2, 3, 4, *FILL]])
    assert events(out, "third")[0]["inside"] is True
    assert events(out, "round_won")[0]["side"] == 0


@pytest.mark.parametrize(
    ("piles", "warring"),
    [
        ([[1, 5, 3, 0, 1, *FILL], [2, 6, 4, 0, -3, *FILL]], [0, 1]),  # both succeed
        ([[1, 2, 6, 0, 1, *FILL], [2, 3, 6, 0, -3, *FILL]], [0, 1]),  # neither succeeds
    ],
)
def test_both_or_neither_make_war(piles: list[list[int]], warring: list[int]) -> None:
    """§3.1: otherwise → war."""
    out = scenario("intervallkrig", piles=piles)
    assert events(out, "war")[0]["sides"] == warring


def test_war_is_among_the_succeeding_sides_when_two_or_more_succeed() -> None:
    """§3.1: war among the succeeding sides if two or more succeeded."""
    out = scenario(
        "intervallkrig",
        sides=3,
        piles=[[1, 5, 3, 0, 1, *FILL], [2, 6, 4, 0, -3, *FILL], [0, 1, 6, 0, 0, *FILL]],
    )
    assert events(out, "war")[0]["sides"] == [0, 1]
    assert events(out, "round_won")[0] == {**events(out, "round_won")[0], "side": 0, "cards": 13}


# -- §3.2 war ----------


def test_war_closest_to_zero_wins() -> None:
    """§3.2: one card face down, one face up; the face-up card closest to zero wins."""
    out = scenario("intervallkrig", piles=[[1, 5, 3, 6, 1, *FILL], [2, 6, 4, 6, -3, *FILL]])
    war_lays = [e for e in first_round(out) if e["type"] == "laid"][2:]
    assert [(e["down"], e["up"]) for e in war_lays] == [(1, [1]), (1, [-3])]
    assert events(out, "round_won")[0]["side"] == 0


def test_war_highest_value_option() -> None:
    """§3.2: option — highest value wins (chosen at start)."""
    out = scenario(
        "intervallkrig",
        war_rule="highest",
        piles=[[1, 5, 3, 6, 1, *FILL], [2, 6, 4, 6, 4, *FILL]],
    )
    assert events(out, "round_won")[0]["side"] == 1


def test_equal_war_cards_fight_another_war() -> None:
    """§3.2: equal → another war."""
    out = scenario(
        "intervallkrig", piles=[[1, 5, 3, 0, 2, 0, 0, *FILL], [2, 6, 4, 0, -2, 0, 3, *FILL]]
    )
    assert [e["type"] for e in first_round(out)].count("war") == 2
    assert events(out, "round_won")[0] == {**events(out, "round_won")[0], "side": 0, "cards": 14}


# -- §3.3 swap bets ----------


def satsing(piles: list[list[int]], mode: Mode = Mode.REGN) -> GameState:
    config = GameConfig("satsing", mode=mode)
    state, _ = new_game(config, 0, piles)
    return state


def test_bet_lays_two_cards_and_swaps_one_interval_card() -> None:
    """§3.3: a side that bets lays two cards face down into the pot, then replaces one interval
    card with its next card; the replaced card goes to its own collection pile."""
    state = satsing([[1, 2, 0, 0, 6, 4, 0, 0, 0, 0], [-3, 3, 5, 0, 0, 0, 0, 0, 0, 0]])
    assert state.phase is BET and [d.kind for d in waiting_for(state)] == ["bet", "bet"]
    state, first = apply(state, Bet(0, 1))
    assert [e.type for e in first] == ["decided"]  # secret until every side has decided
    state, evs = apply(state, Pass(1))
    types = [e.type for e in evs]
    assert types[:4] == ["decided", "bet", "swap", "pass"]
    swap = next(e for e in evs if isinstance(e, Swapped))
    assert (swap.out, swap.in_) == (2, 6)
    thirds = [(e.side, e.card, e.inside) for e in evs if isinstance(e, ThirdDrawn)]
    assert thirds == [(0, 4, True), (1, 5, False)]
    won = next(e for e in evs if isinstance(e, RoundWon))
    assert (won.side, won.cards) == (0, 8)
    # 13 and 7 after the round (the swapped-out 2 is in side 0's collection pile); a satsing
    # round opens its betting window at once, so the next two cards each are already laid.
    assert state.round == 2 and state.counts == (11, 5)


def test_bets_are_decided_before_any_swap_and_only_once() -> None:
    """§3.3: all sides decide before any swap is made; at most one bet per side per round."""
    state = satsing([[1, 2, *[0] * 8], [-3, 3, *[0] * 8]])
    state, _ = apply(state, Bet(0, 0))
    with pytest.raises(IllegalActionError) as refused:
        apply(state, Bet(0, 1))
    assert refused.value.code == "already_decided"
    seen = observe(state, 1)
    assert seen.sides[0].decided and seen.own_bet is None  # side 1 sees that, not what
    assert observe(state, 0).own_bet == 0
    assert state.up[0][0].value == 1  # nothing swapped yet


def test_only_sides_with_four_cards_left_may_bet() -> None:
    """§3.3 [decision]: a side may bet only with at least four cards after laying its two."""
    state = satsing([[1, 2, 0, 0, 0], [-3, 3, *[0] * 8]])
    assert state.pending == (1,)
    with pytest.raises(IllegalActionError) as refused:
        apply(state, Bet(0, 0))
    assert refused.value.code == "cannot_bet"


def test_bad_swap_index_is_refused() -> None:
    state = satsing([[1, 2, *[0] * 8], [-3, 3, *[0] * 8]])
    with pytest.raises(IllegalActionError) as refused:
        apply(state, Bet(0, 2))
    assert refused.value.code == "bad_swap"


def test_auto_mode_makes_no_bet() -> None:
    """SCENARIOS.md: in auto mode the engine decides what the actions do not: no bet."""
    out = scenario("satsing", piles=[[1, 2, *[0] * 8], [-3, 3, *[0] * 8]])
    assert events(out, "bet") == [] and len(events(out, "pass")) >= 2


def test_bet_actions_in_a_scenario_are_applied() -> None:
    out = scenario(
        "satsing",
        mode="regn",
        piles=[[1, 2, 0, 0, 6, 4, 0, 0, 0, 0], [-3, 3, 5, 0, 0, 0, 0, 0, 0, 0]],
        actions=[{"side": 0, "type": "bet", "swap": 1}, {"side": 1, "type": "pass"}],
    )
    assert events(out, "bet") == [{**events(out, "bet")[0], "side": 0, "swap": 1}]


# -- §3.4 endgame ----------


def test_exactly_three_plays_normally_then_a_three_card_war() -> None:
    """§3.4 exactly three: the round is played normally; a war is fought with each warring
    side's three played cards, shuffled, two face down and the third turned."""
    out = scenario("intervallkrig", seed=4, piles=[[1, 5, 3], [2, 6, 4, 0, 0, 0]])
    war = events(out, "war")[0]
    assert war["kind"] == "three_card" and war["sides"] == [0, 1]
    shuffles = events(out, "endgame_shuffle")
    assert sorted(shuffles[0]["order"]) == [0, 1, 2]  # side 0's own three cards
    assert sorted(shuffles[1]["order"]) == [3, 4, 5]
    turned = [e for e in events(out, "laid") if e["down"] == 2]
    assert len(turned) >= 2 and all(len(e["up"]) == 1 for e in turned)


def test_three_ties_in_a_row_split_the_pot_back() -> None:
    """§3.4 [decision]: after three ties in a row the pot goes back to its owners."""
    out = scenario("intervallkrig", max_rounds=1, piles=[[2, 2, 2], [2, 2, 2, 2, 2]])
    assert [e["kind"] for e in events(out, "war")] == ["three_card"] * 3
    assert events(out, "pot_returned")[0]["cards"] == [3, 3]
    assert out["counts"] == [3, 5]


def test_two_or_one_card_left_is_one_card_each() -> None:
    """§3.4 two or one: the round is just one card each, face up; closest to zero wins."""
    out = scenario("intervallkrig", piles=[[3, 1], [2, 5, 5, 5]])
    assert events(out, "laid")[:2] == [
        {**events(out, "laid")[0], "side": 0, "up": [3], "down": 0},
        {**events(out, "laid")[1], "side": 1, "up": [2], "down": 0},
    ]
    assert events(out, "round_won")[0] == {**events(out, "round_won")[0], "side": 1, "cards": 2}
    assert "third" not in [e["type"] for e in first_round(out)]


def test_one_card_ties_lay_another_card_each() -> None:
    """§3.4: ties — another card each."""
    out = scenario("intervallkrig", piles=[[2, 1], [-2, 4, 9]])
    assert events(out, "war")[0]["kind"] == "one_card"
    assert events(out, "round_won")[0] == {**events(out, "round_won")[0], "side": 0, "cards": 4}


# -- §3.5 a side with no card to lay ----------


def test_a_side_without_cards_keeps_its_last_face_up_card() -> None:
    """§3.5: it lays nothing; its last face-up card stays its card, only the others lay."""
    out = scenario("intervallkrig", piles=[[2], [-2, 3, 5]])
    assert events(out, "laid")[2] == {**events(out, "laid")[2], "side": 0, "up": []}
    assert events(out, "laid")[3]["up"] == [3]
    assert events(out, "round_won")[0] == {**events(out, "round_won")[0], "side": 0, "cards": 3}


def test_no_side_can_lay_and_the_tie_remains_ends_the_game() -> None:
    """§3.5: when no side can lay a new card and the tie remains, the game ends as when time
    runs out [decision: the pot goes back to its owners, as in §2.4]."""
    out = scenario("intervallkrig", piles=[[2], [-2]])
    assert events(out, "game_over")[0] == {
        **events(out, "game_over")[0],
        "winner": None,
        "reason": "stalemate",
    }
    assert out["counts"] == [1, 1]


def test_intervallkrig_rounds_wait_for_a_flip() -> None:
    """Every intervallkrig round and war waits for a player's flip, so each result is seen."""
    config = GameConfig("intervallkrig", mode=Mode.REGN)
    state, _ = new_game(config, 0, [[1, 5, 3, 6, 1, *FILL], [2, 6, 4, 6, -3, *FILL]])
    assert state.phase is Phase.FLIP and waiting_for(state) == []
    state, evs = apply(state, Flip(1))
    assert [e.type for e in evs][-1] == "war" and state.phase is Phase.FLIP
    state, evs = apply(state, Flip(0))
    assert any(e.type == "round_won" for e in evs)
    assert PASS == -1
