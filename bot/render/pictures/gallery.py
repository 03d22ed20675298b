"""Positions of every kind of round, played through the engine: for the gallery, the tests
and the benchmark. Seeded deals show real suits; stacked piles (no suits) set up the rare
moments (an exact hit, a war, the endgame) exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.actions import Action, Flip
from engine.cards import DeckProfile
from engine.config import GameConfig, Mode
from engine.game import apply, new_game
from engine.intervallkrig import BET, BET_CHOICE, Bet, Pass
from engine.regnekrig import TARGET, TARGET_CHOICE, Answer, NameTarget
from engine.state import GameState
from engine.view import View, view

NAMES = {0: "Åse", 1: "Björn", 2: "Sølvi", 3: "Märta"}


@dataclass(frozen=True, slots=True)
class Position:
    name: str  # a file name: what the picture shows
    view: View


def _table(state: GameState) -> View:
    return view(state, None)


def _stacked(game: str, piles: Sequence[Sequence[int]], **options: object) -> GameState:
    config = GameConfig(game, mode=Mode.REGN, **options)  # type: ignore[arg-type]
    return new_game(config, piles=piles)[0]


def _run(state: GameState, actions: Sequence[Action]) -> GameState:
    for action in actions:
        state = apply(state, action)[0]
    return state


def best_step(state: GameState) -> GameState:
    """One step of a good game: name a middling target, answer the best expression, pass a
    bet, or flip; what a table does when everyone plays well."""
    seen = _table(state)
    choices = seen.choices
    if seen.now is TARGET:
        named = [c for c in choices if c.kind is TARGET_CHOICE]
        if named:
            return apply(state, named[len(named) // 2 + 3].action)[0]
    if seen.now is BET:
        side = seen.awaited[0]
        bets = [c for c in choices if c.side == side and c.kind is BET_CHOICE]
        if bets and side % 2:  # odd sides bet on their first card, even sides keep theirs
            return apply(state, bets[0].action)[0]
        return apply(state, Pass(side))[0]
    return apply(state, choices[0].action)[0]


def played(config: GameConfig, seed: int, steps: int) -> Iterator[GameState]:
    """The states of a seeded game played well, `steps` at most."""
    state = new_game(config, seed)[0]
    yield state
    for _ in range(steps):
        if state.is_over:
            return
        state = best_step(state)
        yield state


def _until(config: GameConfig, seed: int, wanted: Callable[[View], bool]) -> GameState:
    last = None
    for state in played(config, seed, 400):
        last = state
        if wanted(_table(state)):
            return state
    assert last is not None
    return last


def _decided(seen: View) -> bool:
    return seen.result is not None and seen.result.winner is not None


def positions(deck: DeckProfile = DeckProfile.FORTEGN) -> list[Position]:
    """One position of each kind of round (`deck` for the dealt ones)."""
    out: list[Position] = []

    def add(name: str, state: GameState) -> None:
        out.append(Position(name, _table(state)))

    d = deck.value
    regn1 = GameConfig("regnekrig", level=1, deck=deck, mode=Mode.REGN)
    add(f"regnekrig-1-answer-{d}", new_game(regn1, 7)[0])
    first = new_game(regn1, 7)[0]
    answered = _run(first, [Answer(0, _best(first, 0))])
    add(f"regnekrig-1-answered-{d}", answered)
    add(f"regnekrig-1-result-{d}", _run(answered, [Answer(1, _best(answered, 1))]))
    regn5 = GameConfig("regnekrig", level=5, deck=deck, mode=Mode.REGN)
    add(
        f"regnekrig-5-result-{d}",
        _until(regn5, 3, lambda v: _decided(v) and v.now is TARGET),
    )
    regn7 = GameConfig("regnekrig", level=7, deck=deck, mode=Mode.AUTO, sides=4)
    add(f"regnekrig-7-four-sides-{d}", _until(regn7, 5, _decided))
    interval = GameConfig("intervallkrig", deck=deck)
    add(f"intervallkrig-result-{d}", _until(interval, 2, _decided))
    satsing = GameConfig("satsing", deck=deck, mode=Mode.REGN, sides=3)
    add(f"satsing-bet-{d}", _until(satsing, 4, lambda v: v.now is BET))
    add(f"satsing-result-{d}", _until(satsing, 4, lambda v: _decided(v) and v.now is BET))
    add(f"intervallkrig-over-{d}", _until(interval, 9, lambda v: v.outcome is not None))
    out.extend(_moments())
    return out


def every_position() -> list[Position]:
    """Every kind of round with every deck (the set-up moments once)."""
    out: list[Position] = []
    seen: set[str] = set()
    for deck in DeckProfile:
        for position in positions(deck):
            if position.name not in seen:
                seen.add(position.name)
                out.append(position)
    return out


def _best(state: GameState, side: int) -> str:
    for choice in _table(state).choices_of(side):
        if isinstance(choice.action, Answer):
            return choice.action.text
    raise LookupError(f"side {side} has no answer to give")


def _moments() -> list[Position]:
    """The rare rounds, set up with stacked piles (RULES §2.3, §2.5, §3.3, §3.4)."""
    out: list[Position] = []
    exact = _stacked("regnekrig", [[3, 4, 9, 9, 9, 1], [1, 1, 9, 9, 9, 1]], level=5)
    exact = _run(exact, [NameTarget(0, 7), Answer(0, "3 + 4 = 7"), Answer(1, "1 + 1 = 2")])
    out.append(Position("regnekrig-5-exact-hit", _table(exact)))
    roots = _stacked("regnekrig", [[9, 2, 5, 5, 1, 1], [3, 5, 5, 5, 1, 1]], level=7)
    roots = _run(roots, [NameTarget(0, 6), Answer(0, "√9 · 2 = 6"), Answer(1, "3 + 5 = 8")])
    out.append(Position("regnekrig-7-roots", _table(roots)))
    war = _stacked(
        "regnekrig", [[2, 3, 0, 0, 5, 6, 1, 2], [1, 4, 0, 0, 1, 1, 2, 2]], level=1, war_size=2
    )
    war = _run(war, [Answer(0, "2 + 3 = 5"), Answer(1, "1 + 4 = 5")])
    out.append(Position("regnekrig-1-war", _table(war)))
    won = _run(war, [Answer(0, "5 + 6 = 11"), Answer(1, "1 · 1 = 1")])
    out.append(Position("regnekrig-1-war-won", _table(won)))
    four = _stacked(
        "regnekrig",
        [[6, 2, 1, 1, 2, 2], [-3, -3, 1, 1, 2, 2], [5, -1, 1, 1, 2, 2], [0, 4, 1, 1, 2, 2]],
        level=6,
        sides=4,
        deck=DeckProfile.HELTALL,
    )
    four = _run(
        four,
        [
            NameTarget(0, 9),
            Answer(0, "6 + 2 = 8"),
            Answer(1, "(−3) · (−3) = 9"),
            Answer(2, "5 + (−1) = 4"),
            Answer(3, "0 + 4 = 4"),
        ],
    )
    out.append(Position("regnekrig-6-four-sides-exact-hit", _table(four)))
    bet = _stacked("satsing", [[-2, 3, 9, 9, 1, 0, 0, 0], [5, 6, 1, 1, -6, 0, 0, 0]])
    out.append(Position("satsing-bet-stacked", _table(bet)))
    out.append(Position("satsing-swap", _table(_run(bet, [Pass(0), Bet(1, 1)]))))
    endgame = _stacked("intervallkrig", [[1, 2], [3, 4, 5, 6]])
    out.append(Position("intervallkrig-endgame", _table(endgame)))
    out.append(Position("intervallkrig-endgame-played", _table(_run(endgame, [Flip(0)]))))
    interval_war = _stacked("intervallkrig", [[1, 5, 3, 2, 4, 1, 1, 1], [2, 6, 4, 3, 5, 1, 1, 1]])
    interval_war = _run(interval_war, [Flip(0)])
    out.append(Position("intervallkrig-war", _table(interval_war)))
    out.append(Position("intervallkrig-war-flipped", _table(_run(interval_war, [Flip(0)]))))
    return out
