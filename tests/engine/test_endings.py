"""RULES §1.5: a game given up (forfeit) and a game nobody plays (abandoned)."""

from __future__ import annotations

from engine.actions import Abandon, Flip, Forfeit, Timeout
from engine.config import GameConfig, Mode
from engine.game import MISSES_TO_ABANDON, apply, idle_ending, new_game, rounds_finished
from engine.intervallkrig import Bet, Pass
from engine.regnekrig import Answer
from engine.replay import run
from engine.state import GameState, Termination


def _regn(level: int = 1, sides: int = 2, piles: list[list[int]] | None = None) -> GameState:
    state, _ = new_game(GameConfig("regnekrig", level=level, mode=Mode.REGN, sides=sides), 3, piles)
    return state


def test_with_two_sides_the_other_side_wins_a_forfeit() -> None:
    """§1.5 Forfeit: "with two sides the other side wins" — even when it has fewer cards."""
    state = _regn(piles=[[5, 6, 1, 1, 1, 1], [1, 1]])
    state, events = apply(state, Forfeit(0))
    assert state.outcome is not None
    assert state.outcome.winner == 1 and state.outcome.reason is Termination.FORFEIT
    assert events[-1].to_json() == {
        "seq": events[-1].seq,
        "type": "game_over",
        "winner": 1,
        "reason": "forfeit",
        "side": 0,
    }


def test_with_more_sides_the_most_cards_among_the_others_wins() -> None:
    """§1.5: "with more the side with the most cards among the others wins (equal most →
    draw). The cards on the table stay where they are (the counts are taken without them)"."""
    state = _regn(sides=3, piles=[[9, 9, 9, 9, 9, 9, 9, 9], [1, 1, 1, 1], [2, 2, 2]])
    table_before = state.table_count
    state, _ = apply(state, Forfeit(0))
    assert (
        state.outcome is not None and state.outcome.winner == 1
    )  # 2 + 0 on the table: 1 has 4 − 2
    assert state.table_count == table_before  # the cards on the table stay where they are
    even = _regn(sides=3, piles=[[9, 9, 9, 9], [1, 1, 1, 1], [2, 2, 2, 2]])
    even, _ = apply(even, Forfeit(0))
    assert even.outcome is not None and even.outcome.winner is None  # equal most: a draw


def test_an_abandoned_game_has_no_winner() -> None:
    """§1.5 Abandoned: "no winner, counted for nobody"."""
    state, _ = apply(_regn(), Abandon())
    assert state.outcome is not None
    assert state.outcome.winner is None and state.outcome.reason is Termination.ABANDONED


def test_three_answers_run_out_in_a_row_abandon_a_game_nobody_plays() -> None:
    """§1.5: "when every human side has let its last three decisions run out of time"."""
    state = _regn(piles=[[1, 2] * 10, [2, 1] * 10])
    humans = frozenset({0, 1})
    for _ in range(MISSES_TO_ABANDON):
        assert idle_ending(state, humans) is None
        state, _ = apply(state, Timeout(0))
        state, _ = apply(state, Timeout(1))
    assert state.misses == (MISSES_TO_ABANDON, MISSES_TO_ABANDON)
    assert idle_ending(state, humans) == Abandon()


def test_a_side_that_misses_three_while_another_plays_forfeits() -> None:
    """§1.5: "a side that lets three in a row run out while another side keeps playing
    forfeits"; a decision of its own starts the count again."""
    state = _regn(piles=[[1, 2] * 10, [2, 1] * 10])
    humans = frozenset({0, 1})
    state, _ = apply(state, Timeout(0))
    state, _ = apply(state, Answer(1, "3"))
    state, _ = apply(state, Answer(0, "3"))  # side 0 answers: its count starts over
    state, _ = apply(state, Answer(1, "3"))
    assert state.misses[0] == 0
    for _ in range(MISSES_TO_ABANDON):
        state, _ = apply(state, Timeout(0))
        state, _ = apply(state, Answer(1, "3"))
    assert idle_ending(state, humans) == Forfeit(0)
    assert idle_ending(state, frozenset({0})) == Abandon()  # side 1 the computer: nobody plays


def test_a_bet_that_runs_out_is_a_miss_and_a_pass_is_not() -> None:
    """§1.5 with §3.3: a betting decision is a decision like an answer."""
    state, _ = new_game(GameConfig("satsing", mode=Mode.REGN), 1)
    state, _ = apply(state, Timeout(0))
    state, _ = apply(state, Pass(1))
    assert state.misses == (1, 0)
    while state.outcome is None and 0 not in state.pending:
        state, _ = apply(state, Flip(0))
    if state.outcome is None:
        state, _ = apply(state, Bet(0, 0))
        assert state.misses[0] == 0


def test_naming_the_target_is_never_a_miss() -> None:
    """[decision] Letting the engine draw the target is a choice the board offers (RULES §2.5),
    so a target never counts as a missed decision."""
    state = _regn(level=5, piles=[[1, 2] * 10, [2, 1] * 10])
    state, _ = apply(state, Timeout(0))  # the target ran out: the engine draws it
    assert state.misses == (0, 0)
    state, _ = apply(state, Timeout(0))  # the answer ran out: a miss
    state, _ = apply(state, Answer(1, "3"))
    assert state.misses == (1, 0)
    state, _ = apply(state, Timeout(1))  # side 1 names the next target: drawn, no miss
    assert state.misses == (1, 0)
    state, _ = apply(state, Answer(0, "3"))  # an answer of its own starts the count again
    assert state.misses == (0, 0)


def test_a_stop_before_the_first_round_is_finished_is_a_cancel() -> None:
    """§1.5: "A stop before the first round is finished cancels the game" — the bot asks
    `rounds_finished` before it applies a forfeit."""
    state = _regn(piles=[[1, 2] * 10, [2, 1] * 10])
    assert rounds_finished(state) == 0  # round 1 is being answered
    state, _ = apply(state, Answer(0, "3"))
    state, _ = apply(state, Answer(1, "3"))  # a war: the round is still not finished
    assert rounds_finished(state) == 0
    state, _ = apply(state, Answer(0, "3"))
    state, _ = apply(state, Answer(1, "2"))
    assert rounds_finished(state) == 1


def test_the_replay_format_takes_forfeit_and_abandon() -> None:
    """SCENARIOS: `forfeit` names its side, `abandon` none; both end the game at once."""
    out = run(
        {
            "game": "intervallkrig",
            "piles": [[1, 5, 3, 0], [1, 5, 9, 0]],
            "actions": [{"type": "flip", "side": 0}, {"type": "forfeit", "side": 0}],
        }
    )
    assert out["status"] == "over" and out["winner"] == 1
    assert out["events"][-1]["reason"] == "forfeit"
    out = run({"game": "satsing", "mode": "regn", "seed": 2, "actions": [{"type": "abandon"}]})
    assert out["status"] == "over" and out["winner"] is None
    assert out["events"][-1]["reason"] == "abandoned"
