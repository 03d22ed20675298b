"""`engine.view`: one view of the game for every screen. Its choices are exactly the legal
actions, each applies, and the round is told as facts (who won what and why)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from hypothesis import given, settings

from engine.actions import FLIP_CHOICE, Abandon, Action, Flip, Forfeit, Timeout, TimeUp
from engine.config import GameConfig, Mode
from engine.dealer import Dealer
from engine.facts import Play, Why
from engine.game import apply, legal_actions, new_game
from engine.intervallkrig import BET, Bet, Pass
from engine.intervallkrig_story import IntervalPlay
from engine.registry import GAMES
from engine.regnekrig import ANSWER, RANDOM_TARGET_CHOICE, TARGET, TARGET_CHOICE, Answer, NameTarget
from engine.regnekrig_story import AnswerPlay
from engine.state import GameState
from engine.view import Now, Status, view
from tests.engine.strategies import game_configs, seeds


def _player_actions(state: GameState) -> set[Action]:
    """What a player may choose: every legal action but time running out, giving up and
    abandoning (they end the game, by command or by the bot: RULES §1.5), and a decision
    running out of time (letting the engine draw the target is a choice of its own,
    `RandomTarget`: RULES §2.5)."""
    return {
        a for a in legal_actions(state) if not isinstance(a, TimeUp | Forfeit | Abandon | Timeout)
    }


def _play(config: GameConfig, seed: int, steps: int) -> list[GameState]:
    rnd = random.Random(seed)
    state, _ = new_game(config, seed)
    states = [state]
    for _ in range(steps):
        if state.is_over:
            break
        state, _ = apply(state, rnd.choice(sorted(_player_actions(state), key=repr)))
        states.append(state)
    return states


@settings(max_examples=40)
@given(config=game_configs(max_rounds=30), seed=seeds)
def test_the_choices_are_exactly_the_legal_actions_and_each_applies(
    config: GameConfig, seed: int
) -> None:
    """DESIGN: screens build their buttons from the view only, so the view offers exactly what
    `legal_actions` allows each side, and every offered choice is accepted."""
    for state in _play(config, seed, 60):
        table = view(state, None)
        assert {c.action for c in table.choices} == _player_actions(state)
        for side in range(config.sides):
            own = view(state, side)
            assert own.choices == table.choices_of(side)
        for choice in table.choices:
            apply(state, choice.action)  # raises if refused


def test_a_stale_choice_is_refused_once_its_window_closed() -> None:
    """A choice from an earlier decision window is refused by the engine, not guessed at."""
    config = GameConfig("regnekrig", level=5, mode=Mode.REGN)
    state, _ = new_game(config, 1)
    old = view(state, 0).choices
    assert {c.kind for c in old} == {TARGET_CHOICE, RANDOM_TARGET_CHOICE}
    state, _ = apply(state, NameTarget(0, 3))
    refused = [c for c in old if c.kind is TARGET_CHOICE]
    for choice in refused[:3]:
        try:
            apply(state, choice.action)
        except ValueError as error:
            assert getattr(error, "code", None) == "wrong_phase"
        else:  # pragma: no cover - the assertion names the failure
            raise AssertionError("a stale target was accepted")


def test_in_auto_mode_the_only_choice_is_to_flip() -> None:
    """SCENARIOS: in auto mode the engine makes the decisions; players flip to go on."""
    state, _ = new_game(GameConfig("regnekrig", level=5, mode=Mode.AUTO), 3)
    seen = view(state, None)
    assert seen.now is TARGET and seen.auto
    assert {c.kind for c in seen.choices} == {FLIP_CHOICE}
    assert all(s.status is None for s in seen.sides)  # nobody is "thinking" in auto mode


def test_the_table_sees_no_secret_and_a_side_sees_its_own() -> None:
    """RULES §2.2: answers are revealed together; until then only the side itself sees its own."""
    state, _ = new_game(
        GameConfig("regnekrig", level=1, mode=Mode.REGN), piles=[[3, 4, 1], [2, 2, 1]]
    )
    state, _ = apply(state, Answer(0, "7"))
    assert view(state, 0).own_answer == "7"
    assert view(state, 1).own_answer is None and view(state, None).own_answer is None
    statuses = [s.status for s in view(state, None).sides]
    assert statuses == [Status.DECIDED, Status.AWAITED]
    assert view(state, None).awaited == (1,)


def answers(plays: tuple[Play, ...]) -> list[AnswerPlay]:
    """Regnekrig's plays, each told with its answer."""
    assert all(isinstance(p, AnswerPlay) for p in plays)
    return [p for p in plays if isinstance(p, AnswerPlay)]


def intervals(plays: tuple[Play, ...]) -> list[IntervalPlay]:
    """Intervallkrig's and satsing's plays, each told with its interval."""
    assert all(isinstance(p, IntervalPlay) for p in plays)
    return [p for p in plays if isinstance(p, IntervalPlay)]


def _stacked(game: str, piles: list[list[int]], **keys: object) -> GameState:
    config = GameConfig(game, mode=Mode.REGN, **keys)  # type: ignore[arg-type]
    state, _ = new_game(config, piles=piles)
    return state


def test_an_exact_hit_is_told_with_its_bonus() -> None:
    """RULES §2.5: an exact hit wins the round and the other side gives three extra cards."""
    state = _stacked("regnekrig", [[3, 4, 9, 9, 9, 1], [1, 1, 9, 9, 9, 1]], level=5)
    state, _ = apply(state, NameTarget(0, 7))
    state, _ = apply(state, Answer(0, "7"))
    state, _ = apply(state, Answer(1, "2"))
    facts = view(state, None).result
    assert facts is not None and facts.decided
    assert facts.round == 1 and facts.target == 7 and facts.named_by == 0
    assert facts.winner == 0 and facts.why is Why.EXACT_HIT
    assert [(b.giver, b.taker, b.cards) for b in facts.bonus] == [(1, 0, 3)]
    assert facts.cards == 7  # both sides' two cards and the bonus of three
    plays = answers(facts.comparisons[0].plays)
    assert plays[0].up == (3, 4) and plays[0].value == 7 and plays[0].distance == 0
    assert plays[1].value == 2 and plays[1].distance == 5


def test_a_war_is_told_with_its_face_down_count_and_its_second_comparison() -> None:
    """RULES §2.3: equal values → war; k = min(war size, fewest − 2) cards face down."""
    state = _stacked("regnekrig", [[2, 3, 0, 0, 5, 6], [1, 4, 0, 0, 1, 1]], level=1, war_size=2)
    state, _ = apply(state, Answer(0, "5"))
    state, _ = apply(state, Answer(1, "5"))
    during = view(state, None)
    assert during.now is ANSWER
    assert during.war is not None and during.war.sides == (0, 1) and during.war.face_down == 2
    assert during.result is not None and during.result.comparisons[0].war == (0, 1)
    state, _ = apply(state, Answer(0, "11"))
    state, _ = apply(state, Answer(1, "2"))
    facts = view(state, None).result
    assert facts is not None and facts.winner == 0 and facts.why is Why.HIGHER
    assert [c.kind for c in facts.comparisons] == ["round", "war"]
    assert facts.comparisons[1].plays[0].down == 2


def test_a_side_that_cannot_turn_two_loses_the_round_with_that_reason() -> None:
    """RULES §2.4: a side that cannot turn two cards has lost the round."""
    state = _stacked("regnekrig", [[2, 3, 1, 1], [4]], level=1)
    facts = view(state, None).result
    assert facts is not None and facts.winner == 0 and facts.why is Why.TOO_FEW_CARDS


def test_a_third_card_inside_and_a_swap_with_its_new_interval() -> None:
    """RULES §3.1 inside the closed interval wins; §3.3 a bet swaps a card, the new interval
    is what the third card is compared with."""
    state = _stacked(
        "satsing",
        [[-2, 3, 9, 9, 1, 0, 0, 0], [5, 6, 1, 1, -6, 0, 0, 0]],
    )
    assert view(state, None).now is BET
    state, _ = apply(state, Pass(0))
    state, _ = apply(state, Bet(1, 1))
    facts = view(state, None).result
    assert facts is not None
    first, second = intervals(facts.comparisons[0].plays)
    assert first.passed and first.interval == (-2, 3)
    assert first.third == 9 and first.inside is False
    # Two cards face down as the bet, the next card replaces the 6 (index 1).
    assert second.swap == (6, -6) and second.interval == (-6, 5)
    assert second.third == 0 and second.inside is True
    assert facts.winner == 1 and facts.why is Why.INSIDE


def test_the_one_card_endgame_is_announced_before_its_round() -> None:
    """RULES §3.4: with two or one card left, the round is played one card each."""
    state = _stacked("intervallkrig", [[1, 2], [3, 4, 5, 6]])
    seen = view(state, None)
    assert seen.now is Now.FLIP and seen.endgame == "one_card"
    state, _ = apply(state, Flip(0))
    facts = view(state, None).result
    assert facts is not None and facts.comparisons[0].kind == "one_card"


def test_the_dealer_copies_every_field_of_the_state_in_and_out() -> None:
    """`Dealer` derives its slots from the state's fields; freezing an untouched dealer gives
    the same state back (no field is forgotten on the way)."""
    for game in GAMES:
        for state in _play(GameConfig(game, mode=Mode.REGN, level=5), 5, 40):
            assert Dealer(state).freeze() == state
    names = {f.name for f in dataclasses.fields(GameState)}
    assert names <= set(Dealer.__slots__)


def test_distances_are_exact_fractions() -> None:
    """RULES §2.1 levels 5–7: closeness is exact (a fraction's distance is a fraction)."""
    state = _stacked("regnekrig", [[3, 2, 1, 1], [6, 3, 1, 1]], level=5)
    state, _ = apply(state, NameTarget(0, 1))
    state, _ = apply(state, Answer(0, "3/2"))
    state, _ = apply(state, Answer(1, "2"))  # §2.6: 6/3 is an expression
    facts = view(state, None).result
    assert facts is not None
    plays = answers(facts.comparisons[0].plays)
    assert plays[0].distance == Fraction(1, 2)
    assert plays[1].distance == 1
