"""RULES.md §2 — Regnekrig, rule by rule, with stacked piles (top card first)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Timeout
from engine.config import GameConfig, Mode
from engine.errors import ExpressionError, IllegalActionError
from engine.events import RoundWon, ValueShown
from engine.game import apply, choices, new_game
from engine.registry import action_from_json, action_to_json
from engine.regnekrig import (
    ANSWER,
    RANDOM_TARGET_CHOICE,
    TARGET,
    Answer,
    NameTarget,
    RandomTarget,
    closeness,
    part_of,
)
from engine.state import GameState
from tests.engine.support import events, kinds, scenario


def values(out: dict[str, Any], round_events: int = 0) -> dict[int, str | None]:
    return {e["side"]: e["value"] for e in events(out, "value")}


# -- §2.1 a round ----------


def test_highest_value_wins_every_card_on_the_table() -> None:
    """§2.1: each side turns its two top cards; the highest value takes every card."""
    out = scenario(level=1, piles=[[5, 6], [1, 2]])
    assert events(out, "laid") == [
        {"seq": 2 + 1, "type": "laid", "side": 0, "up": [5, 6], "down": 0},
        {"seq": 2 + 2, "type": "laid", "side": 1, "up": [1, 2], "down": 0},
    ]
    assert events(out, "round_won") == [events(out, "round_won")[0]]
    assert events(out, "round_won")[0]["side"] == 0
    assert events(out, "round_won")[0]["cards"] == 4
    assert out["status"] == "over" and out["winner"] == 0 and out["counts"] == [4, 0]


def test_equal_best_values_make_war() -> None:
    """§2.1: equal best values → war (§2.3)."""
    out = scenario(level=1, piles=[[3, 3, 1, 1], [4, 2, 0, 0]])
    assert events(out, "war")[0]["sides"] == [0, 1]


# -- §2.2 levels ----------


@pytest.mark.parametrize(
    ("level", "cards", "value"),
    [
        (1, [-4, 6], "2"),  # Addisjon: a + b
        (2, [-4, -3], "12"),  # Multiplikasjon: a · b
        (3, [7, 2], "7/2"),  # Divisjon: the side chooses the order
        (3, [2, 7], "7/2"),
        (4, [-4, 6], "10"),  # Subtraksjon: a − b or b − a
        (4, [6, -4], "10"),
    ],
)
def test_level_values(level: int, cards: list[int], value: str) -> None:
    """§2.2: the value of a side at levels 1–4 (auto mode plays the best order)."""
    out = scenario(level=level, piles=[cards, [0, 0]])
    assert values(out)[0] == value


def test_fractions_are_compared_exactly() -> None:
    """§2.2: arithmetic is exact — 7 ÷ 2 = 7/2 beats 10 ÷ 3 = 10/3."""
    out = scenario(level=3, piles=[[7, 2], [10, 3]])
    assert values(out) == {0: "7/2", 1: "10/3"}
    assert out["winner"] == 0


def test_no_value_loses_to_any_value() -> None:
    """§2.2 [decision]: 0 and 0 at level 3 has no value and loses to any value (here −1)."""
    out = scenario(level=3, piles=[[0, 0], [-6, 6]])
    assert values(out) == {0: None, 1: "-1"}
    assert out["winner"] == 1


def test_two_sides_without_value_tie() -> None:
    """§2.2 [decision]: two sides with no value tie → war."""
    out = scenario(level=3, piles=[[0, 0, 6, 3], [0, 0, 1, 1]])
    assert events(out, "war")[0]["sides"] == [0, 1]
    assert out["winner"] == 0


@pytest.mark.parametrize(
    ("level", "cards", "target", "value"),
    [
        (5, [3, -2], 7, "5"),  # 3 − (−2)
        (5, [4, 2], 2, "2"),  # 4 ÷ 2 or 4 − 2
        (6, [3, 2], 7, "7"),  # 3² − 2
        (6, [-3, 2], 11, "11"),  # (−3)² + 2
        (7, [9, 2], 5, "5"),  # √9 + 2
        (7, [9, 4], 1, "1"),  # √9 − √4
        (7, [5, 6], 14, "11"),  # no perfect square: 6 + 5 = 11 beats 5² − 6 = 19
    ],
)
def test_target_levels_play_closest_to_target(
    level: int, cards: list[int], target: int, value: str
) -> None:
    """§2.2 levels 5–7: closest to the target with + − · ÷, a square (6+) and roots (7)."""
    out = scenario(
        level=level,
        piles=[cards, [0, 0]],
        actions=[{"side": 0, "type": "target", "value": target}],
    )
    assert values(out)[0] == value


def test_after_each_round_the_best_move_is_reported() -> None:
    """§2.2: after each round the engine reports, per side, the best legal expression."""
    out = scenario(
        level=5,
        mode="regn",
        piles=[[3, 4, 0], [1, 1, 0]],
        actions=[
            {"side": 0, "type": "target", "value": 12},
            {"side": 0, "type": "answer", "text": "3+4=7"},
            {"side": 1, "type": "answer", "text": "1+1=2"},
        ],
    )
    shown = {e["side"]: e for e in events(out, "value")}
    assert shown[0]["expr"] == "3 + 4" and shown[0]["best"] == "3 · 4"
    assert shown[0]["value"] == "7" and shown[0]["best_value"] == "12"
    assert shown[1]["best"] in ("1 + 1",)


# -- §2.2 regn mode: answers ----------


def regn(level: int, piles: list[list[int]], target: int | None = None) -> GameState:
    config = GameConfig("regnekrig", level=level, mode=Mode.REGN)
    state, _ = new_game(config, 0, piles)
    if target is not None:
        state, _ = apply(state, NameTarget(0, target))
    return state


def test_regn_mode_waits_for_every_sides_answer_and_reveals_together() -> None:
    """§2.2: in regn mode each side submits its own answer; all are shown together."""
    state = regn(4, [[2, 7, 0], [5, 1, 0]])
    assert state.phase is ANSWER and state.pending == (0, 1)
    state, first = apply(state, Answer(0, "7-2=5"))
    assert [e.type for e in first] == ["answered"]  # nothing revealed yet
    state, second = apply(state, Answer(1, "5-1=4"))
    assert [e.type for e in second][:3] == ["answered", "value", "value"]
    assert state.counts == (5, 0) or state.is_over


def test_wrong_answer_counts_as_no_value() -> None:
    """§2.2: a wrong or illegal answer counts as no value (and loses to any value); the
    reason names the slip (the cards give 2 + 3 = 5)."""
    state = regn(1, [[2, 3, 0], [1, 1, 0]])
    state, _ = apply(state, Answer(0, "4"))  # 2 + 3 is 5, not 4
    state, evs = apply(state, Answer(1, "2"))
    shown = {e.side: e for e in evs if isinstance(e, ValueShown)}
    assert shown[0].value is None and shown[0].reason == "arithmetic_slip"
    assert shown[1].value == "2"
    assert any(isinstance(e, RoundWon) and e.side == 1 for e in evs)


def test_levels_one_and_two_ask_for_the_result() -> None:
    """§2.2: levels 1–2 in regn mode ask for the sum or product and check it."""
    state = regn(2, [[-3, 4, 0], [2, 2, 0]])
    state, _ = apply(state, Answer(0, "-12"))
    state, evs = apply(state, Answer(1, "4"))
    shown = {e.side: e.value for e in evs if isinstance(e, ValueShown)}
    assert shown == {0: "-12", 1: "4"}


def test_no_answer_in_time_counts_as_no_value() -> None:
    """§2.2: none before the answer time runs out counts as no value."""
    state = regn(3, [[6, 3, 0], [1, 1, 0]])
    state, _ = apply(state, Timeout(0))
    state, evs = apply(state, Answer(1, "1"))
    shown = {e.side: e for e in evs if isinstance(e, ValueShown)}
    assert shown[0].value is None and shown[0].reason == "timeout"
    assert shown[0].best == "6 ÷ 3"


def test_malformed_answer_is_refused_and_changes_nothing() -> None:
    """Bad input gets a clear error and changes nothing (it can be typed again)."""
    state = regn(5, [[3, 4, 0], [1, 1, 0]], target=7)
    with pytest.raises(ExpressionError) as refused:
        apply(state, Answer(0, "3 + % 4"))
    assert refused.value.code == "unknown_symbol"
    assert state.pending == (0, 1)
    state, _ = apply(state, Answer(0, "3+4=7"))
    assert state.pending == (1,)


def test_an_expression_without_its_result_is_refused_and_may_be_typed_again() -> None:
    """§2.2 levels 1–2: "An expression without its result (`3+4`) is not an answer: the pupil
    is asked to type the result, and nothing is counted"; the same in the `number` form."""
    for level in (1, 5):
        state = regn(level, [[3, 4, 0], [1, 1, 0]], target=7 if level == 5 else None)
        with pytest.raises(ExpressionError) as refused:
            apply(state, Answer(0, "3+4"))
        assert refused.value.code == "result_missing"
        state, _ = apply(state, Answer(0, "3+4=7"))
        assert state.pending == (1,)


def test_an_answer_counts_once() -> None:
    """RULES §1.2: the first valid action counts; a second answer by the side is refused."""
    state = regn(1, [[2, 3, 0], [1, 1, 0]])
    state, _ = apply(state, Answer(0, "5"))
    with pytest.raises(IllegalActionError) as refused:
        apply(state, Answer(0, "5"))
    assert refused.value.code == "already_decided"


def test_expression_answers_use_the_sides_cards_at_its_level() -> None:
    """§2.2: the expression must use exactly the side's two cards and what the level allows."""
    state = regn(6, [[3, 2, 0], [1, 1, 0]], target=7)
    state, _ = apply(state, Answer(0, "3^2-2=7"))
    state, evs = apply(state, Answer(1, "1+1^2=2"))
    shown = {e.side: e for e in evs if isinstance(e, ValueShown)}
    assert shown[0].value == "7" and shown[0].expr == "3² − 2"
    assert shown[1].value == "2"


# -- §2.3 war ----------


def test_seven_cards_sacrifice_five() -> None:
    """§2.3, the sheet's own example: "har man totalt sju kort vil hver spiller måtte ofre fem
    kort" — with seven cards left, each warring side lays five face down."""
    seven_left = [3, 3, 0, 0, 0, 0, 0, 6, 6]  # after turning 3, 3: seven cards
    out = scenario(level=1, piles=[seven_left, [4, 2] + [0] * 10])
    war_lays = [e for e in events(out, "laid") if e["down"] > 0]
    assert [e["down"] for e in war_lays] == [5, 5]
    assert [e["up"] for e in war_lays] == [[6, 6], [0, 0]]


def test_default_war_size_is_six() -> None:
    """§2.3: k = the agreed war size (default 6) when every warring side has enough cards."""
    out = scenario(level=1, piles=[[3, 3] + [0] * 8, [4, 2] + [0] * 8])
    assert [e["down"] for e in events(out, "laid")[2:4]] == [6, 6]


@pytest.mark.parametrize("war_size", [1, 2, 3, 4, 5, 6])
def test_war_size_can_be_agreed(war_size: int) -> None:
    """§2.3: the starter may choose 1–6."""
    out = scenario(level=1, war_size=war_size, piles=[[3, 3] + [0] * 10, [4, 2] + [0] * 10])
    first_war = events(out, "laid")[2:4]
    assert [e["down"] for e in first_war] == [war_size, war_size]


def test_war_count_is_taken_over_the_cards_still_held() -> None:
    """§2.3: the count is taken when the war starts, over the cards the side still holds (not
    those on the table): two cards left → nothing face down, turn the two."""
    out = scenario(level=1, piles=[[3, 3, 5, 5], [4, 2, 1, 1, 0, 0]])
    war_lay = events(out, "laid")[2:4]
    assert [e["down"] for e in war_lay] == [0, 0]
    assert war_lay[0]["up"] == [5, 5]


def test_a_war_that_ties_again_is_fought_again() -> None:
    """§1.4: a war that ties again is fought again; the winner takes the whole pot."""
    out = scenario(level=1, war_size=1, piles=[[3, 3, 0, 2, 2, 0, 9, 9], [4, 2, 0, 1, 3, 0, 1, 1]])
    assert len(events(out, "war")) == 2
    assert events(out, "round_won")[0] == {**events(out, "round_won")[0], "side": 0, "cards": 16}


def test_war_is_among_the_tied_sides_only() -> None:
    """§1.4: a tie leads to war among the tied sides only; the other sides' cards stay in the
    pot, and the war's winner takes every card on the table."""
    out = scenario(
        level=1,
        sides=3,
        war_size=1,
        piles=[[3, 3, 0, 5, 5], [4, 2, 0, 1, 1], [1, 1, 6, 6, 6]],
    )
    assert events(out, "war")[0]["sides"] == [0, 1]
    assert [e["side"] for e in events(out, "laid")[3:5]] == [0, 1]
    assert events(out, "laid")[3]["down"] == 1
    assert events(out, "round_won")[0]["side"] == 0
    assert events(out, "round_won")[0]["cards"] == 12  # 2 + 2 + 2, then 3 + 3 in the war


# -- §2.4 too few cards ----------


def test_a_side_that_cannot_turn_two_loses_the_round() -> None:
    """§2.4: a side that cannot turn the two cards a round needs has lost it; its last cards
    go into the pot."""
    out = scenario(level=1, piles=[[6], [1, 1, 2, 2]])
    assert events(out, "laid")[0]["up"] == [6]
    won = events(out, "round_won")[0]
    assert won["side"] == 1 and won["cards"] == 3
    assert out["winner"] == 1 and events(out, "side_out") == [events(out, "side_out")[0]]


def test_stalemate_returns_the_pot_and_ends_the_game() -> None:
    """§2.4 [decision]: when no side of a war can turn two, each side takes back the cards it
    put into the pot and the game ends as when time runs out (equal counts: a draw)."""
    out = scenario(level=1, piles=[[1, 2, 9, 9], [2, 1, 9, 9]])
    assert "pot_returned" in kinds(out)
    assert out["counts"] == [4, 4] and out["table"] == 0
    assert out["winner"] is None
    assert events(out, "game_over")[0]["reason"] == "stalemate"


# -- §2.5 targets ----------


def test_targets_rotate_through_the_sides() -> None:
    """§2.5: the side that started names the first target; after each round the next side."""
    state = regn(5, [[1, 2, 3, 4, 0, 0], [1, 2, 1, 1, 0, 0]])
    assert state.phase is TARGET and state.pending == (0,)
    with pytest.raises(IllegalActionError) as refused:
        apply(state, NameTarget(1, 3))
    assert refused.value.code == "not_your_turn"
    state, _ = apply(state, NameTarget(0, 3))
    state, _ = apply(state, Answer(0, "1+2=3"))
    state, _ = apply(state, Answer(1, "2-1=1"))
    assert state.phase is TARGET and state.pending == (1,)


@pytest.mark.parametrize("value", [-16, 16, 100])
def test_target_out_of_range_is_refused(value: int) -> None:
    """§2.5: a whole-number target from −15 to 15."""
    state = regn(5, [[1, 2], [1, 2]])
    with pytest.raises(IllegalActionError) as refused:
        apply(state, NameTarget(0, value))
    assert refused.value.code == "target_out_of_range"


def test_random_target_in_auto_mode_and_on_timeout() -> None:
    """§2.5 [decision]: in auto mode, or when the naming side does not answer in time, the engine
    picks a uniformly random target."""
    out = scenario(level=6, seed=11, piles=[[1, 2], [3, 4]])
    start = events(out, "round_start")[0]
    assert -15 <= start["target"] <= 15 and "named_by" not in start
    state = regn(5, [[1, 2], [3, 4]])
    state, _ = apply(state, Timeout(0))
    target = part_of(state).target
    assert target is not None and -15 <= target <= 15


def test_exact_hit_bonus_three_cards() -> None:
    """§2.5: exactly one side hits the target → every other side gives it three extra cards on
    top of the pot ("motparten skal gi fra ytterligere tre kort")."""
    out = scenario(
        level=5,
        piles=[[3, 4], [1, 1, 0, 0, 0, 5]],
        actions=[{"side": 0, "type": "target", "value": 7}],
    )
    assert events(out, "bonus") == [
        {**events(out, "bonus")[0], "from": 1, "to": 0, "cards": 3},
    ]
    assert events(out, "round_won")[0]["cards"] == 7


def test_exact_hit_bonus_fewer_if_fewer() -> None:
    """§2.5: fewer if it has fewer."""
    out = scenario(
        level=5, piles=[[3, 4], [1, 1, 0]], actions=[{"side": 0, "type": "target", "value": 7}]
    )
    assert events(out, "bonus")[0]["cards"] == 1


def test_two_exact_hits_are_an_ordinary_war_with_the_same_target() -> None:
    """§2.5: two or more exact hits → ordinary war, same target; the bonus also applies when
    an exact hit decides a war [decision]."""
    out = scenario(
        level=5,
        war_size=1,
        piles=[[3, 4, 0, 5, 2, 0, 0, 0, 0], [5, 2, 0, 1, 1, 0, 0, 0, 0]],
        actions=[{"side": 0, "type": "target", "value": 7}],
    )
    assert events(out, "war")[0]["sides"] == [0, 1]
    first_round = kinds(out)[: kinds(out).index("round_won")]
    assert first_round.count("round_start") == 1  # the war keeps the round's target
    assert events(out, "bonus")[0]["from"] == 1
    assert events(out, "round_won")[0]["cards"] == 4 + 6 + 3


def test_value_strings_are_lowest_terms() -> None:
    """SCENARIOS.md: a value is the exact fraction in lowest terms, as a string."""
    out = scenario(level=3, piles=[[-6, 4], [1, 1]])
    assert values(out)[0] == str(Fraction(-2, 3))


@given(
    numerator=st.integers(-400, 400),
    denominator=st.integers(1, 40),
    target=st.integers(-15, 15),
)
def test_closeness_is_exactly_minus_the_distance(
    numerator: int, denominator: int, target: int
) -> None:
    """§2.1 levels 5–7: the integer shortcut ranks exactly as −|value − target| in Fractions."""
    value = Fraction(numerator, denominator)
    key = closeness(value, target)
    assert key == -abs(value - target)
    assert isinstance(key, int) == (value.denominator == 1)


def test_a_random_target_is_a_choice_of_its_own_and_a_stored_timeout_still_means_it() -> None:
    """§2.5: the naming side may let the engine draw the target. That choice is stored as
    `random_target`; a game stored before it existed has it as the naming side's `timeout`, and
    replays exactly the same (and both count as a decision of the side's own, RULES §1.5)."""
    state = regn(5, [[1, 2, 5, 5, 1, 1], [3, 4, 5, 5, 1, 1]])
    [random_choice] = [c for c in choices(state) if c.kind is RANDOM_TARGET_CHOICE]
    assert random_choice.action == RandomTarget(0)
    assert action_to_json(RandomTarget(0)) == {"type": "random_target", "side": 0}
    chosen, chosen_events = apply(state, action_from_json({"type": "random_target", "side": 0}))
    stored, stored_events = apply(state, action_from_json({"type": "timeout", "side": 0}))
    assert chosen == stored and chosen_events == stored_events
    assert part_of(chosen).target is not None and chosen.misses == (0, 0)
