"""Regnekrig (RULES.md §2): two cards each, a value by the level's rule, best value wins.

The game as one unit: its actions and decisions (naming the target, answering), its part of
the state, its dealer, how the computer decides, its view facts and its descriptor.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from types import MappingProxyType
from typing import ClassVar

from engine.actions import (
    Action,
    Choice,
    ChoiceKind,
    Shape,
    SideAction,
    Timeout,
    Tone,
    needs_value,
)
from engine.cards import DeckProfile, profile_values
from engine.dealer import Dealer, ranked
from engine.decision import Decision
from engine.descriptor import GameDescriptor
from engine.diagnosis import flipped_cards
from engine.errors import IllegalActionError, Reason, Refusal
from engine.events import (
    Answered,
    BonusPaid,
    CardsLaid,
    RoundStarted,
    ValueShown,
    WarDeclared,
)
from engine.facts import GameFacts, War
from engine.judge import Verdict, judge
from engine.levels import Reading
from engine.options import (
    ANSWER_FORM,
    ANSWER_TIME,
    DECK,
    LEVEL,
    LEVELS,
    MODE,
    SIDES_OPTION,
    TEAMS,
    TIME_LIMIT,
    WAR_SIZE,
    Mode,
)
from engine.regnekrig_story import answer_play, answer_why
from engine.solver import TARGETS, Play, answer_text, best, number_answer, reachable
from engine.state import GamePart, GameState
from engine.strength import Strength, Style, happens, style_of

EXACT_HIT_BONUS = 3  # RULES §2.5: the other sides give three extra cards
TARGET_LEVELS = range(5, 8)  # RULES §2.2: levels 5–7 play to a target …
TARGET_MIN, TARGET_MAX = TARGETS[0], TARGETS[-1]  # … a whole number from −15 to 15 (§2.5)
TIMEOUT_REASON = Reason.TIMEOUT.value


# -- the actions ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NameTarget(SideAction):
    """RULES §2.5: the naming side names the round's target."""

    kind: ClassVar[str] = "target"
    value: int


@dataclass(frozen=True, slots=True)
class RandomTarget(SideAction):
    """RULES §2.5: the naming side lets the engine draw the target (uniformly at random)."""

    kind: ClassVar[str] = "random_target"


@dataclass(frozen=True, slots=True)
class Answer(SideAction):
    """RULES §2.2: a side's typed answer (a value, or an expression with or without it)."""

    kind: ClassVar[str] = "answer"
    text: str
    # The edition of the rule book it was typed under (`Reading`): a stored answer without
    # one was typed under the first, and is judged by it whenever the game is replayed.
    reading: int = field(
        default=int(Reading.AS_SCHOOL_WRITES),
        metadata={"absent": int(Reading.EACH_CARD_WITH_ITS_SIGN)},
    )

    def __post_init__(self) -> None:
        if self.reading not in set(Reading):
            raise IllegalActionError(
                f"an answer's reading is one of {[int(r) for r in Reading]}",
                code=Refusal.MALFORMED_ACTION,
            )


TARGET_CHOICE = ChoiceKind(
    "target",
    Shape.PICK,
    lambda side, value, text: NameTarget(side, needs_value(value, "target")),
    label="select.target",
)
RANDOM_TARGET_CHOICE = ChoiceKind(
    "random_target",
    Shape.PRESS,
    lambda side, value, text: RandomTarget(side),
    label="button.random_target",
    control="target",
    token="random",
    emoji="🎲",
)
ANSWER_CHOICE = ChoiceKind(
    "answer",
    Shape.TYPE,
    lambda side, value, text: Answer(side, text),
    label="button.answer",
    tone=Tone.MAIN,
    emoji="✏️",
)


# -- the game's own part of the state ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RegnekrigPart(GamePart):
    answers: tuple[Verdict | None, ...]  # each side's answer in the comparison in play
    target: int | None = None  # the comparison's target (levels 5–7)
    namer: int = 0  # the side that names the next target (§2.5: the starter names the first)


def part_of(state: GameState) -> RegnekrigPart:
    part = state.part
    assert isinstance(part, RegnekrigPart)
    return part


def value_text(value: Fraction | None) -> str | None:
    """SCENARIOS.md: exact, in lowest terms, as a string ("12", "-7/2"); None for no value."""
    return None if value is None else str(value)


def closeness(value: Fraction, target: int) -> Fraction | int:
    """−|value − target|: the bigger, the closer (§2.1, levels 5–7). Exact, computed on the
    numerator and denominator, and a plain int for a whole value (the usual case): Fraction
    subtraction cost about 2 µs a side per round. Ints and Fractions compare exactly."""
    numerator, denominator = value.numerator, value.denominator
    if denominator == 1:
        return -abs(numerator - target)
    # value − target = (n − t·d)/d is already in lowest terms, as n/d is.
    return Fraction(-abs(numerator - target * denominator), denominator)


class RegnekrigDealer(Dealer):
    __slots__ = ("answers", "namer", "target")

    @classmethod
    def new_part(cls, sides: int) -> RegnekrigPart:
        return RegnekrigPart((None,) * sides)

    def thaw(self, part: GamePart) -> None:
        assert isinstance(part, RegnekrigPart)
        self.answers: list[Verdict | None] = list(part.answers)
        self.target: int | None = part.target
        self.namer: int = part.namer

    def freeze_part(self) -> RegnekrigPart:
        return RegnekrigPart(tuple(self.answers), self.target, self.namer)

    def clear_part(self) -> None:
        self.answers = [None] * self.sides

    @property
    def has_targets(self) -> bool:
        """RULES §2.5: a side names the target at the levels that have one."""
        return self.config.level in TARGET_LEVELS

    def best_play(self, side: int) -> Play:
        a, b = self.up[side]
        return best(a.value, b.value, self.config.level, self.target)

    # -- the flow of a round ----------------------------------------------------------------

    def schedule_round(self) -> None:
        self.pending = []
        self.answers = [None] * self.sides
        if self.round > 0:
            # §2.5: after each round the next side in turn (still in play) names the target.
            live = self.live()
            self.namer = next((s for s in live if s > self.namer), live[0])
        if self.has_targets:
            # §2.5: the naming side names the target before the cards are turned.
            self.open_window(TARGET, [self.namer])
        else:
            self.begin_round(None, None)

    def play_flip(self) -> None:
        """Regnekrig always pauses at a decision (target or answers), never at a flip."""
        raise AssertionError("regnekrig has no flip phase")

    def name_target(self, side: int, value: int | None) -> None:
        self.begin_round(value, side if value is not None else None)

    def begin_round(self, target: int | None, named_by: int | None) -> None:
        self.clear_comparison()
        self.round += 1
        self.target = None
        if self.has_targets:
            if target is None:
                # RULES §2.5: in auto mode, or when the naming side does not answer in time.
                self.rng, target = self.rng.randint(TARGET_MIN, TARGET_MAX)
            self.target = target
        self.emit(RoundStarted, round=self.round, target=self.target, named_by=named_by)
        self.battle = tuple(self.live())
        self.turn_cards(0)

    def turn_cards(self, down: int) -> None:
        """Every side in the comparison lays `down` cards face down, then turns two. A side that
        cannot turn two has lost this round or war; its last cards go into the pot (§2.4)."""
        contenders: list[int] = []
        for side in self.battle:
            face_down = self.lay(side, down) if down else []
            face_up = self.lay(side, 2)
            self.up[side] = tuple(face_up)
            self.emit(
                CardsLaid, side=side, up=tuple([c.value for c in face_up]), down=len(face_down)
            )
            if len(face_up) == 2:
                contenders.append(side)
        self.battle = tuple(contenders)
        if not contenders:
            self.stalemate()  # §2.4: no side can turn two
        elif len(contenders) == 1:
            self.take_round(contenders[0])
        else:
            self.open_window(ANSWER, list(contenders))
            self.answers = [None] * self.sides

    def answer(self, side: int, verdict: Verdict | None) -> None:
        """Record a side's answer (None: the engine plays its best value, as in auto mode);
        once every side has answered, all values are revealed together."""
        self.answers[side] = verdict
        self.pending.remove(side)
        if verdict is not None:  # the engine's own choice (a flip) is no one's answer
            self.emit(Answered, side=side)
        if not self.pending:
            self.reveal({s: self.answers[s] for s in self.battle})

    def reveal(self, verdicts: dict[int, Verdict | None]) -> None:
        """Show every side's value together with the best it could have played, then compare.
        A `None` verdict means the engine plays the side's best value (auto mode)."""
        values: dict[int, Fraction | None] = {}
        for side, verdict in verdicts.items():
            best_play = self.best_play(side)
            best_text = value_text(best_play.value)
            if verdict is None:
                value, text, expr, reason = best_play.value, best_text, best_play.text, None
            else:
                value, expr, reason = verdict.value, verdict.text, verdict.reason
                text = value_text(value)
            values[side] = value
            self.emit(
                ValueShown,
                side=side,
                value=text,
                expr=expr,
                best=best_play.text,
                best_value=best_text,
                reason=reason,
            )
        self.compare(values)

    def compare(self, values: dict[int, Fraction | None]) -> None:
        """§2.1: highest value (levels 1–4) or closest to the target (5–7) wins; a side with no
        value loses to any value, two without a value tie; equal best → war among them."""
        target = self.target

        def key(value: Fraction | None) -> tuple[int, Fraction | int]:
            if value is None:
                return (0, 0)
            if target is None:
                return (1, value)
            return (1, closeness(value, target))

        winners = ranked((side, key(value)) for side, value in values.items())
        if len(winners) > 1:
            self.declare_war(tuple(winners))
            return
        winner = winners[0]
        if target is not None and values[winner] == target:
            self.pay_bonus(winner)
        self.take_round(winner)

    def pay_bonus(self, winner: int) -> None:
        """§2.5 exact hit: every other side in the comparison gives three extra cards from the
        top of its pile (fewer if it has fewer) onto the pot."""
        for side in self.battle:
            if side != winner:
                given = self.lay(side, EXACT_HIT_BONUS)
                self.emit(BonusPaid, from_=side, to=winner, cards=len(given))

    def take_round(self, winner: int) -> None:
        self.pending = []
        self.take_pot(winner)

    # -- war (§2.3) ----------------------------------------------------------------------

    def declare_war(self, sides: tuple[int, ...]) -> None:
        self.emit(WarDeclared, sides=sides)
        self.battle = sides
        self.answers = [None] * self.sides
        self.fight_war()

    def fight_war(self) -> None:
        """k = min(war size, fewest − 2), never below 0, counted over the cards the warring
        sides still hold when the war starts ("har man totalt sju kort … ofre fem kort")."""
        fewest = min(self.count(side) for side in self.battle)
        self.turn_cards(max(0, min(self.config.war_size, fewest - 2)))


def judge_answer(
    state: GameState, side: int, text: str, reading: int = Reading.AS_SCHOOL_WRITES
) -> Verdict:
    """What an answer would count as for this side now (RULES §2.2); raises for unreadable text."""
    a, b = state.up[side]
    config = state.config
    return judge(text, (a.value, b.value), config.level, config.answer_form, Reading(reading))


# -- the decisions ---------------------------------------------------------------------------


class TargetDecision(Decision[RegnekrigDealer]):
    """RULES §2.5: before the round's cards are turned, the naming side names the target (or
    lets the engine draw it, as when its time runs out). Not a miss when it runs out: the
    engine's draw is as good a target as any."""

    actions = (NameTarget, RandomTarget)
    kinds = (TARGET_CHOICE, RANDOM_TARGET_CHOICE)
    between_rounds = True
    alone = True
    misses = False
    prompt = "board.prompt.target"
    prompt_auto = "board.prompt.target_auto"
    ping = "board.ping.target"
    mark = "🎯 "
    statuses = MappingProxyType({"naming": "board.status.naming"})

    def check(self, state: GameState, action: SideAction) -> None:
        if isinstance(action, NameTarget) and not TARGET_MIN <= action.value <= TARGET_MAX:
            raise IllegalActionError(
                f"a target is a whole number from {TARGET_MIN} to {TARGET_MAX}",
                code=Refusal.TARGET_OUT_OF_RANGE,
                value=action.value,
            )

    def apply(self, dealer: RegnekrigDealer, action: SideAction) -> None:
        value = action.value if isinstance(action, NameTarget) else None
        dealer.name_target(action.side, value)

    def timeout(self, dealer: RegnekrigDealer, side: int) -> None:
        dealer.name_target(side, None)

    def choices(self, state: GameState, side: int) -> tuple[Choice, ...]:
        return _targets(side)

    def refuse(self, state: GameState, side: int) -> IllegalActionError:
        namer = part_of(state).namer
        return IllegalActionError(
            f"side {namer} names this target", code=Refusal.NOT_YOUR_TURN, side=side
        )

    def computer(
        self,
        state: GameState,
        side: int,
        strength: Strength,
        rng: random.Random,
        best_rate: Fraction | None,
    ) -> Action:
        return NameTarget(side, _computer_target(state, strength, rng))


class AnswerDecision(Decision[RegnekrigDealer]):
    """RULES §2.2: every side in the comparison answers; the values are revealed together.
    Running out of time counts as no value; in auto mode the engine plays the best value."""

    actions = (Answer,)
    kinds = (ANSWER_CHOICE,)
    prompt = "board.prompt.answer"
    prompt_auto = "board.prompt.answer_auto"
    war_prompt = "board.war_explain.regnekrig"  # §2.3: a war is answered like a round
    statuses = MappingProxyType(
        {
            "awaited": "board.status.thinking",
            "decided": "board.status.answered",
            "watching": "board.status.watching",
        }
    )

    def apply(self, dealer: RegnekrigDealer, action: SideAction) -> None:
        assert isinstance(action, Answer)
        verdict = judge_answer(dealer.state, action.side, action.text, action.reading)
        dealer.answer(action.side, verdict)

    def timeout(self, dealer: RegnekrigDealer, side: int) -> None:
        dealer.answer(side, Verdict(None, "", TIMEOUT_REASON, {}))

    def default(self, dealer: RegnekrigDealer, side: int) -> None:
        dealer.answer(side, None)  # the engine plays the side's best value

    def choices(self, state: GameState, side: int) -> tuple[Choice, ...]:
        # Answers are free text: the choice carries the side's best legal expression with its
        # value, or a readable number when it has no value; any readable answer is accepted.
        a, b = state.up[side]
        play = best(a.value, b.value, state.config.level, part_of(state).target)
        answer = Answer(side, play.answer if play.value is not None else "0")
        return (Choice(ANSWER_CHOICE, side, answer),)

    def computer(
        self,
        state: GameState,
        side: int,
        strength: Strength,
        rng: random.Random,
        best_rate: Fraction | None,
    ) -> Action:
        return _computer_answer(state, side, style_of(strength, best_rate), rng)


TARGET = TargetDecision("target")
ANSWER = AnswerDecision("answer")


@cache
def _targets(namer: int) -> tuple[Choice, ...]:
    """The same frozen values every time: a board's target window does not build 31 actions
    on every look."""
    named = tuple(
        Choice(TARGET_CHOICE, namer, NameTarget(namer, v), v)
        for v in range(TARGET_MIN, TARGET_MAX + 1)
    )
    return (*named, Choice(RANDOM_TARGET_CHOICE, namer, RandomTarget(namer)))


# -- the computer (`engine.computer`): it plays like a pupil ---------------------------------


@lru_cache(maxsize=64)
def _hit_counts(deck: DeckProfile, level: int) -> tuple[tuple[int, int], ...]:
    """(target, how many value pairs of the deck can hit it exactly), most often hit first."""
    values = profile_values(deck)
    hits = {t: 0 for t in range(TARGET_MIN, TARGET_MAX + 1)}
    for a in values:
        for b in values:
            for value in reachable(a, b, level):
                if value.denominator == 1 and int(value) in hits:
                    hits[int(value)] += 1
    return tuple(sorted(hits.items(), key=lambda item: (-item[1], abs(item[0]), item[0])))


def _computer_target(state: GameState, strength: Strength, rng: random.Random) -> int:
    if strength is Strength.EASY:
        return rng.randint(TARGET_MIN, TARGET_MAX)
    ranked = _hit_counts(state.config.deck, state.config.level)
    if strength is Strength.MEDIUM:
        return rng.choice(ranked[:8])[0]
    return ranked[0][0]


def _computer_answer(state: GameState, side: int, style: Style, rng: random.Random) -> Action:
    """The best move at the style's rate; otherwise a pupil's mistake: a weaker legal value, a
    sign slip (no value), or a late answer."""
    a, b = (c.value for c in state.up[side])
    level = state.config.level
    target = part_of(state).target
    play = best(a, b, level, target)
    if play.value is None:
        return Timeout(side)
    if happens(style.best, rng):
        return Answer(side, play.answer)
    kinds = ["weaker"] * style.weaker + ["slip"] * style.slip + ["late"] * style.late
    kind = rng.choice(kinds)
    if kind == "late":
        return Timeout(side)
    if kind == "weaker":
        weaker = _weaker(a, b, level, target, play.value)
        if weaker:
            value = rng.choice(weaker)
            return Answer(side, answer_text(reachable(a, b, level)[value], value))
    return Answer(side, _slip(a, b, level, play.value, rng))


def _weaker(a: int, b: int, level: int, target: int | None, best_value: Fraction) -> list[Fraction]:
    """Up to three legal values just worse than the best (the other order at levels 3–4)."""
    options = [v for v in reachable(a, b, level) if v != best_value]
    if target is None:
        options.sort(reverse=True)
    else:
        options.sort(key=lambda v: (-closeness(v, target), v))
    return options[:3]


def _slip(a: int, b: int, level: int, best_value: Fraction, rng: random.Random) -> str:
    """A wrong number a pupil would type: the best play's value with a card's sign flipped,
    or one off the right value when no flip changes it."""
    legal = reachable(a, b, level)
    slips = sorted(
        {
            value
            for _, (x, y) in flipped_cards((a, b))
            for value in reachable(x, y, level)
            if value not in legal
        }
    )
    if slips:
        return number_answer(rng.choice(slips))
    return number_answer(best_value + rng.choice((-1, 1)))


# -- what a screen shows of it -----------------------------------------------------------------


def regnekrig_facts(state: GameState, viewer: int | None) -> GameFacts:
    """The target (while it is played to), who names it, a war being answered, and the
    viewer's own answer before the reveal (nobody else's)."""
    part = part_of(state)
    answering = state.phase is ANSWER
    own = None
    if answering and viewer is not None and (verdict := part.answers[viewer]) is not None:
        own = verdict.text
    return GameFacts(
        target=part.target if answering else None,
        namer=part.namer if state.config.level in TARGET_LEVELS else None,
        war=_war_answered(state) if answering else None,
        own_answer=own,
    )


def _war_answered(state: GameState) -> War | None:
    """§2.3: a war is answered like a round; it began at the story's last war declared."""
    declared = None
    down = 0
    for event in state.story:
        if isinstance(event, WarDeclared):
            declared = event
            down = 0
        elif isinstance(event, CardsLaid) and declared is not None and event.side in state.battle:
            down = event.down
    if declared is None:
        return None
    return War("war", state.battle, down)


REGNEKRIG = GameDescriptor(
    key="regnekrig",
    dealer=RegnekrigDealer,
    emoji="🧮",
    colour=0x3B82F6,  # blue
    options=(
        LEVEL,
        DECK,
        MODE,
        SIDES_OPTION,
        TEAMS,
        WAR_SIZE,
        TIME_LIMIT,
        ANSWER_TIME,
        ANSWER_FORM,
    ),
    decisions=(TARGET, ANSWER),
    modes=(Mode.REGN, Mode.AUTO),
    rated_modes=(Mode.REGN,),  # auto mode: the engine plays every side's best value
    levels=LEVELS,
    rules=(
        ("rules.heading.round", "rules.regnekrig.round"),
        ("rules.heading.target", "rules.regnekrig.target"),
        ("rules.heading.answer", "rules.regnekrig.answer"),
        ("rules.heading.example", "rules.regnekrig.example"),
        ("rules.heading.war", "rules.regnekrig.war"),
        ("rules.heading.bonus", "rules.regnekrig.bonus"),
        ("rules.heading.end", "rules.common.end"),
    ),
    target_levels=TARGET_LEVELS,
    facts=regnekrig_facts,
    why=answer_why,
    story=(ValueShown,),  # the answers, revealed together (§2.2)
    play=answer_play,
)
