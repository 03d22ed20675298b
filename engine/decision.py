"""A decision a game waits for: the one place a game says what its players may decide.

A `Decision` is named by its key ("target", "answer", "bet") and *is* that string, so the
state's `phase` holds the decision itself while the game waits for it, and a screen, a replay
or a stored scenario reads the same key. A game module declares one instance per decision it
has, as a subclass that says:

* which actions make it (`actions`) and which choices a screen offers for it (`kinds`,
  `choices`), so `engine.game.apply`, `choices` and `legal_actions` need no branch per game;
* what checks a value (`check`), what the action does (`apply`), what running out of time does
  (`timeout`, and whether that counts as a miss, RULES §1.5), and what the engine decides in
  auto mode (`default`);
* why a side that is not asked is refused (`refuse`), which sides were asked (`asked`), and
  whether it is taken before a round's cards are laid (`between_rounds`);
* how the computer decides (`computer`), and the narration keys a screen says it with
  (`prompt`, `statuses`, and `war_prompt` for a war it decides).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Self, TypeVar

from engine.actions import Action, Choice, ChoiceKind, SideAction
from engine.dealer import Dealer
from engine.errors import IllegalActionError, Refusal
from engine.state import GameState
from engine.strength import Strength

D = TypeVar("D", bound=Dealer)


class Decision(str, Generic[D]):
    """One decision of a game (a subclass per decision, one instance each)."""

    actions: ClassVar[tuple[type[SideAction], ...]] = ()  # the actions that make it
    kinds: ClassVar[tuple[ChoiceKind, ...]] = ()  # the choices a screen offers for it
    between_rounds: ClassVar[bool] = False  # taken before the round's cards are laid
    alone: ClassVar[bool] = False  # one side decides for every side (it names the target)
    misses: ClassVar[bool] = True  # running out of time is a miss (RULES §1.5)
    # Narration keys: what a screen says while the game waits for it (`{round}`, `{how}` the
    # level's rule, and `{name}` for the side that decides alone), and in auto mode (the
    # engine decides, a flip goes on); how a player is told it is their turn (`{players}`,
    # `{round}`), and the mark beside the side that decides alone.
    prompt: ClassVar[str] = ""
    prompt_auto: ClassVar[str] = ""
    # What a war decided by it is, told while it waits for the war's decision (none: the war
    # is told by who is in it alone).
    war_prompt: ClassVar[str] = ""
    ping: ClassVar[str] = "board.ping.turn"
    mark: ClassVar[str] = ""
    # Each side's status while it is open (`engine.view.Status` values) → its catalogue key,
    # on the board. (The picture shows none of them: it changes only when the table does.)
    statuses: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __new__(cls, key: str) -> Self:
        return super().__new__(cls, key)

    @property
    def key(self) -> str:
        return str(self)

    def accepts(self, action: Action) -> bool:
        return isinstance(action, self.actions)

    # -- the rules ------------------------------------------------------------------------

    def check(self, state: GameState, action: SideAction) -> None:
        """Refuse a value the rules do not allow (raise an `IllegalActionError`)."""

    def apply(self, dealer: D, action: SideAction) -> None:
        """Make the decision: `action` is one of `actions`, by a side that is asked."""
        raise NotImplementedError

    def timeout(self, dealer: D, side: int) -> None:
        """The side's time ran out: what the rules make of it."""
        raise NotImplementedError

    def default(self, dealer: D, side: int) -> None:
        """The engine decides for the side (auto mode's flip); by default as on a time-out."""
        self.timeout(dealer, side)

    def choices(self, state: GameState, side: int) -> tuple[Choice, ...]:
        """What the asked `side` may choose now, each accepted by `apply`."""
        raise NotImplementedError

    def asked(self, state: GameState, side: int) -> bool:
        """Whether the side was asked this time (asked and no longer pending: decided)."""
        return side in state.battle

    def refuse(self, state: GameState, side: int) -> IllegalActionError:
        """Why a side that is not pending may not make it now."""
        if side in state.battle:
            return IllegalActionError(
                f"side {side} has already decided", code=Refusal.ALREADY_DECIDED, side=side
            )
        return IllegalActionError(
            f"side {side} is not in this comparison", code=Refusal.NOT_IN_COMPARISON, side=side
        )

    # -- the computer ------------------------------------------------------------------------

    def computer(
        self,
        state: GameState,
        side: int,
        strength: Strength,
        rng: random.Random,
        best_rate: Fraction | None,
    ) -> Action | None:
        """The computer's decision for the asked `side` (None: it has none to make)."""
        return None


AnyDecision = Decision[Any]
