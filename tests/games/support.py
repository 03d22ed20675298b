"""Every game the conformance suite runs: the registered games and the toy (`tests.games.toy`),
registered with its words for as long as a test runs, as a product game would be."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType

import pytest

import bot.replies
import classroom.i18n
from bot import translator
from classroom.i18n import Lang, messages
from engine.actions import Abandon, Action, Forfeit, Timeout, TimeUp
from engine.config import GameConfig, Mode
from engine.descriptor import GameDescriptor
from engine.game import apply, choices, legal_actions, new_game
from engine.registry import GAMES
from engine.state import GameState
from tests.games.toy import TOY, toy_registered

HERE = Path(__file__).resolve().parent
# Every game the suite runs, the toy last.
GAME_KEYS = (*GAMES, TOY.key)
# The modules that read a catalogue by the name `catalogue`.
_READERS = (messages, classroom.i18n, translator, bot.replies)


def toy_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's catalogues (``toy.<lang>.json`` beside it) beside the product's, as a game's
    ``<game>.<lang>.json`` would be read from ``classroom/i18n/catalogues``."""
    original: Callable[[Lang], Mapping[str, str]] = messages.catalogue

    @functools.cache
    def merged(lang: Lang) -> Mapping[str, str]:
        base = original(lang)
        own = json.loads((HERE / f"toy.{lang}.json").read_text("utf-8"))
        assert not base.keys() & own.keys(), "the toy repeats a product key"
        return MappingProxyType({**base, **own})

    for module in _READERS:
        monkeypatch.setattr(module, "catalogue", merged)


@contextmanager
def every_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with toy_registered():
        toy_words(monkeypatch)
        yield


def configs(game: GameDescriptor, max_rounds: int = 30) -> list[GameConfig]:
    """The game with two to four sides, in each of its modes, at its lowest and highest level
    and its first target level."""
    levels = sorted({game.levels[0], game.levels[-1], *game.target_levels[:1]})
    modes = game.modes or (Mode.REGN,)
    return [
        GameConfig(game.key, level=level, sides=sides, mode=mode, max_rounds=max_rounds)
        for level in levels
        for mode in modes
        for sides in (2, 3, 4)
    ]


def is_player_choice(action: Action) -> bool:
    """What a player presses, as opposed to a deadline (`Timeout`, `TimeUp`) or the bot's
    ending of a game (`Forfeit`, `Abandon`)."""
    return not isinstance(action, Timeout | TimeUp | Forfeit | Abandon)


def played(config: GameConfig, seed: int, limit: int = 600) -> Iterator[tuple[GameState, Action]]:
    """A game played by random players: each step a choice a screen offers, now and then a
    decision running out of time or the time limit; yields each state and the action played
    on it (the last state is yielded with no action after it by `final`)."""
    rng = random.Random(seed)
    state, _ = new_game(config, seed)
    for _ in range(limit):
        if state.outcome is not None:
            return
        offered = [c.action for c in choices(state)]
        timed = [a for a in legal_actions(state) if isinstance(a, Timeout)]
        roll = rng.random()
        action: Action
        if timed and roll < 0.1:
            action = rng.choice(timed)
        elif roll < 0.005 and not state.time_up:
            action = TimeUp()
        else:
            action = rng.choice(offered)
        yield state, action
        state, _ = apply(state, action)


def all_cards(state: GameState) -> list[int]:
    """Every card's id, wherever it lies: piles, pot, set aside."""
    ids = [c.id for s in state.sides for c in (*s.draw, *s.collection)]
    ids += [c.id for laid in state.pot for c in laid]
    ids += [c.id for c in state.set_aside]
    return sorted(ids)
