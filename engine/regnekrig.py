"""Regnekrig (RULES.md §2): two cards each, a value by the level's rule, best value wins."""

from __future__ import annotations

from fractions import Fraction

from engine.dealer import Dealer, ranked
from engine.events import (
    Answered,
    BonusPaid,
    CardsLaid,
    RoundStarted,
    ValueShown,
    WarDeclared,
)
from engine.judge import Verdict
from engine.solver import TARGETS, Play, best
from engine.state import Phase

EXACT_HIT_BONUS = 3  # RULES §2.5: the other sides give three extra cards
TARGET_LEVELS = range(5, 8)  # RULES §2.2: levels 5–7 play to a target …
TARGET_MIN, TARGET_MAX = TARGETS[0], TARGETS[-1]  # … a whole number from −15 to 15 (§2.5)


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
    __slots__ = ()

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
            self.open_window(Phase.TARGET, [self.namer])
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
            self.open_window(Phase.ANSWER, list(contenders))
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
