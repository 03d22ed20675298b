"""The answer tally both screens count with (RULES §2.1, §2.5, §2.6): a best move, the
best-move rate, and one count per wrong answer, played through the engine itself."""

from __future__ import annotations

from fractions import Fraction

from classroom.settings import settings_from_options
from classroom.tally import AnswerTally, best_rate, disjoint, figures, is_best
from engine.actions import Action, Timeout
from engine.game import apply, choices, new_game
from engine.regnekrig import ANSWER, Answer
from engine.state import GameState

SLIPS = 6


def _best(state: GameState, side: int) -> Action:
    return next(c.action for c in choices(state, side) if isinstance(c.action, Answer))


def _slip(state: GameState, side: int) -> Action:
    """A square worked one too high: the pupil's own calculation with a slip in it."""
    a, b = (card.value for card in state.up[side])
    return Answer(side, f"({a})^2+({b})={a * a + b + 1}")


def _late(state: GameState, side: int) -> Action:
    return Timeout(side)


def _play(level: int, ada: str, rounds: int, seed: int = 7) -> AnswerTally[str]:
    """Ada (side 0) answers as ``ada`` says (slip, best, late), Bo (side 1) with his best
    move, for ``rounds`` rounds; the tally reads every step, as a screen feeds it."""
    settings = settings_from_options(game="regnekrig", level=level, answer_seconds=0)
    state, events = new_game(settings.engine, seed)
    tally: AnswerTally[str] = AnswerTally(level, level >= 5, members={0: ["ada"], 1: ["bo"]})
    tally.add(None, events, None)
    while state.outcome is None and sum(r.seat == "ada" for r in tally.records) < rounds:
        who: str | None = None
        if state.phase is ANSWER:
            side = state.pending[0]
            who = ("ada", "bo")[side]
            if side == 0:
                moves = {"slip": _slip, "best": _best, "late": _late}
                action = moves[ada](state, side)
            else:
                action = _best(state, side)
        else:
            action = choices(state, state.pending[0] if state.pending else None)[0].action
        state, events = apply(state, action)
        tally.add(action, events, who)
    return tally


def test_six_slips_at_level_6_are_six_mistakes_not_twelve() -> None:
    """RULES §2.6 "One wrong answer, one mistake": a square worked wrong practises the target
    and the square; both group it, and it is counted once, under the square."""
    tally = _play(6, "slip", SLIPS)
    ada = [r for r in tally.records if r.seat == "ada"]
    assert len(ada) == SLIPS and all(r.operations == ("target", "square") for r in ada)
    assert {r.area for r in ada} == {"square"}
    done = figures(ada)
    assert done.mistakes == (("arithmetic_slip", SLIPS),) and done.rate == 0
    # Stored sums kept an answer under each operation it practised: read, each counts once.
    kept = {"target": [("arithmetic_slip", SLIPS)], "square": [("arithmetic_slip", SLIPS)]}
    once = disjoint(6, kept)
    assert once == {"square": (("arithmetic_slip", SLIPS),), "target": ()}
    assert sum(n for kinds in once.values() for _, n in kinds) == SLIPS


def test_a_best_move_at_a_target_level_is_as_close_as_the_best() -> None:
    """RULES §2.1: levels 5–7, the value closest to the target wins: a value as far from it
    as the best value, on the other side, is a best move too."""
    assert is_best(Fraction(7), Fraction(13), target=10)
    assert not is_best(Fraction(8), Fraction(13), target=10)
    assert is_best(Fraction(5), Fraction(5), target=None) and not is_best(None, Fraction(5), None)


def test_a_round_left_to_run_out_counts_against_the_best_move_rate() -> None:
    """RULES §2.2: no answer in time counts as no value; the best-move rate is best moves of
    the rounds asked, so a miss counts against it and is no mistake kind."""
    tally = _play(1, "late", 3)
    ada = figures(r for r in tally.records if r.seat == "ada")
    bo = figures(r for r in tally.records if r.seat == "bo")
    assert (ada.answers, ada.missed, ada.mistakes, ada.rate) == (0, 3, (), Fraction(0))
    assert bo.rate == 1 and bo.best == bo.asked
    assert best_rate(2, 4) == Fraction(1, 2) and best_rate(0, 0) is None
    best = _play(1, "best", 3)
    assert figures(r for r in best.records if r.seat == "ada").rate == 1
    assert best.found[0] == 6
