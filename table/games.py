"""The games this server is playing, in memory: each one configuration + seed + action list
(RULES §1.6), so "download this game" is the replay file `python -m engine.replay` plays back.

A table knows only what the page needs to show a game: the names typed at the start, which
side the computer plays, the time limit's deadline. Nothing about the players outlives the
game: a game nobody touches for `EXPIRY_SECONDS` is dropped, and at most `CAP` are kept.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.services.settings import GameSettings
from engine.actions import Action, TimeUp, action_to_json
from engine.computer import Strength, choose
from engine.config import Mode
from engine.game import apply, new_game
from engine.state import GameState

CAP = 64  # games kept at once; the least recently played one goes first
EXPIRY_SECONDS = 6 * 3600  # a game untouched this long is forgotten
COMPUTER_SIDE = 1  # one player against the computer: the player is side 0

Clock = Callable[[], float]
# A sentence to put into words in the page's language: (lang) -> text.
Text = Callable[[str], str]


Told = tuple[int, Text]  # a sentence for one side (its name comes first)


@dataclass(frozen=True, slots=True)
class Note:
    number: int
    told: tuple[Told, ...]


@dataclass
class TableGame:
    """One game at the table. `names` are the sides' names as typed (a team's two names
    joined); the computer's side has no typed name and is named in the page's language."""

    id: str
    settings: GameSettings
    names: tuple[str, ...]
    seed: int
    state: GameState
    deadline: float | None  # the time limit runs out (clock seconds), None: no limit
    touched: float
    actions: list[Action] = field(default_factory=list)
    # The computer's own randomness (engine.computer), seeded from the game's seed so a game
    # is reproducible; never the engine's RNG, which deals the cards.
    rng: random.Random = field(default_factory=random.Random)
    note: Note | None = None  # the message for the next page, with its number
    # Hot-seat: what an answer counted as is told when the comparison is revealed, not
    # while the others still answer at the same screen (RULES §2.2: revealed together).
    held: list[Told] = field(default_factory=list)

    @property
    def computer(self) -> Strength | None:
        return self.settings.computer

    @property
    def humans(self) -> frozenset[int]:
        """The sides people play (every side but the computer's)."""
        sides = range(self.state.config.sides)
        return frozenset(s for s in sides if self.computer is None or s != COMPUTER_SIDE)

    def play(self, action: Action) -> None:
        """Apply a player's action (an illegal one raises the engine's error and changes
        nothing), then let the computer make every decision that is now its own."""
        self.state, _ = apply(self.state, action)
        self.actions.append(action)
        self.computer_moves()

    def computer_moves(self) -> None:
        """The computer decides as soon as the game waits for it (regn mode; in auto mode
        the engine decides everything at a flip)."""
        strength = self.computer
        if strength is None or self.state.config.mode is Mode.AUTO:
            return
        while (move := choose(self.state, COMPUTER_SIDE, strength, self.rng)) is not None:
            self.state, _ = apply(self.state, move)
            self.actions.append(move)

    def tick(self, now: float) -> None:
        """RULES §1.5: when the time limit has run out, the game is told so (it ends between
        rounds, or after the round in play)."""
        self.touched = now
        due = self.deadline is not None and now >= self.deadline
        if due and not self.state.time_up and self.state.outcome is None:
            self.play(TimeUp())

    @property
    def hot_seat(self) -> bool:
        """More than one side is played at this screen, so decisions are made in view of
        the others."""
        return len(self.humans) > 1

    def add_note(self, *told: Told) -> int:
        """Keep a message for the next page (an answer's feedback), by the side it is for;
        returns its number, which the redirect names (a later page does not show it)."""
        number = (self.note.number if self.note is not None else 0) + 1
        self.note = Note(number, told)
        return number

    def take_note(self, number: int | None) -> Note | None:
        """The note the redirect names, once."""
        note = self.note
        if note is None or number != note.number:
            return None
        self.note = None
        return note

    def replay(self) -> dict[str, Any]:
        """The game as a SCENARIOS.md replay file: configuration, seed and every action."""
        return {
            **self.state.config.to_json(),
            "seed": self.seed,
            "actions": [action_to_json(a) for a in self.actions],
        }


class Games:
    """The games in memory, by id (an unguessable token, so a stale tab cannot reach a
    newer game by counting)."""

    def __init__(self, clock: Clock, seeds: Callable[[], int] | None = None) -> None:
        self.clock = clock
        self._seeds = seeds or (lambda: secrets.randbits(32))
        self._games: dict[str, TableGame] = {}

    def __len__(self) -> int:
        return len(self._games)

    def start(self, settings: GameSettings, names: tuple[str, ...]) -> TableGame:
        now = self.clock()
        self._forget(now)
        while len(self._games) >= CAP:
            oldest = min(self._games.values(), key=lambda g: g.touched)
            del self._games[oldest.id]
        seed = self._seeds()
        state, _ = new_game(settings.engine, seed)
        deadline = now + settings.minutes * 60 if settings.minutes else None
        game = TableGame(
            id=secrets.token_urlsafe(9),
            settings=settings,
            names=names,
            seed=seed,
            state=state,
            deadline=deadline,
            touched=now,
            rng=random.Random(seed),
        )
        game.computer_moves()
        self._games[game.id] = game
        return game

    def get(self, game_id: str) -> TableGame | None:
        now = self.clock()
        self._forget(now)
        game = self._games.get(game_id)
        if game is not None:
            game.tick(now)
        return game

    def _forget(self, now: float) -> None:
        for gid in [g.id for g in self._games.values() if now - g.touched > EXPIRY_SECONDS]:
            del self._games[gid]
