"""Every kind of round renders on the board in nb, sv and en within Discord's limits
(`tests.fakediscord.message_checks.check_message`), with no line of the result block over 120
characters — each level, a war, an exact hit, too few cards, each endgame, a swap,
and two to four sides with the longest names Discord allows."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from bot.render.board import Board
from classroom.text.results import LINE_MAX
from engine.actions import Action, Flip, Timeout
from engine.computer import Strength, choose
from engine.config import GameConfig, Mode
from engine.facts import Why
from engine.game import apply, awaited
from engine.intervallkrig import BET, Bet, Pass
from engine.intervallkrig_story import IntervalPlay
from engine.registry import GAMES
from engine.regnekrig import ANSWER, TARGET, NameTarget
from engine.state import GameState, Phase
from engine.view import view
from tests.bot.render.support import LANGS, T0, limit_problems, live, players_for, render_board

# (game, level, sides): every level of regnekrig, both intervallkrig games, 2–4 sides.
TABLES = [
    *(("regnekrig", level, sides) for level in range(1, 8) for sides in (2, 3, 4)),
    *((game, 1, sides) for game in ("intervallkrig", "satsing") for sides in (2, 3, 4)),
]
STEPS = 160


def _decision(state: GameState, rng: random.Random) -> Action:
    """A class's mix of moves: mostly good answers, some wrong or missing, bets and passes,
    random targets."""
    if state.phase is TARGET:
        return NameTarget(state.pending[0], rng.randint(-15, 15))
    side = state.pending[0]
    if state.phase is BET:
        return rng.choice([Bet(side, 0), Bet(side, 1), Pass(side)])
    if rng.random() < 0.15:
        return Timeout(side)
    strength = rng.choice(list(Strength))
    action = choose(state, side, strength, rng)
    return action if action is not None else Timeout(side)


def _boards(game: str, level: int, sides: int, seed: int) -> Iterator[tuple[GameState, Board]]:
    config = GameConfig(game=game, level=level, mode=Mode.REGN, sides=sides, war_size=2)
    players = players_for(sides, long=True)
    rng = random.Random(f"{game}:{level}:{sides}:{seed}")
    state, events = apply(*_new(config, seed))
    for _ in range(STEPS):
        if state.is_over:
            break
        if awaited(state) or state.phase in (TARGET, ANSWER, BET):
            state, events = apply(state, _decision(state, rng))
        else:
            state, events = apply(state, Flip(0))
        lang = LANGS[rng.randrange(len(LANGS))]
        yield state, render_board(live(config, state, events, players), lang, T0)


def _new(config: GameConfig, seed: int) -> tuple[GameState, Action]:
    from engine.game import new_game

    state, _ = new_game(config, seed=seed)
    return state, Flip(0) if state.phase is Phase.FLIP else _first(state)


def _first(state: GameState) -> Action:
    if state.phase is TARGET:
        return NameTarget(state.pending[0], 0)
    return Timeout(state.pending[0])


def _lines(board: Board) -> list[str]:
    """The lines a player reads: the description's, and each side field's."""
    embed = board.embed
    lines = (embed.description or "").splitlines()
    for f in embed.fields:
        lines.extend((f.value or "").splitlines())
    return lines


def _result_lines(board: Board) -> list[str]:
    """The round block's lines on the board: its numbered outcome lines (from the 📋 title
    to the prompt) and every side's lines from its "Round n:" line on."""
    embed = board.embed
    lines: list[str] = []
    description = (embed.description or "").splitlines()
    start = next((n for n, line in enumerate(description) if line.startswith("📋")), None)
    if start is not None:
        lines.append(description[start])
        lines.extend(line for line in description[start + 1 :] if line.startswith(RESULT_MARKS))
    for f in embed.fields:
        value = (f.value or "").splitlines()
        first = next((n for n, line in enumerate(value) if ROUND_LABEL.match(line)), None)
        if first is not None:
            lines.extend(value[first:])
    return lines


RESULT_MARKS = ("🏆", "🎯", "⚔️", "🔀", "💤", "⏰", "Endgame", "Sluttspill", "Slutspel")
ROUND_LABEL = re.compile(r"^(Round|Runde|Omgång) \d+:")


@pytest.mark.parametrize(("game", "level", "sides"), TABLES)
def test_every_round_renders_within_discords_limits(game: str, level: int, sides: int) -> None:
    seen: set[str] = set()
    for seed in range(2):
        for state, board in _boards(game, level, sides, seed):
            assert limit_problems(board) == {}, board
            result = _result_lines(board)
            long = [line for line in result if len(line) > LINE_MAX]
            assert long == [], long
            if view(state, None).result is not None and result:
                assert all(line in _lines(board) for line in result)
            facts = view(state, None).result
            if facts is not None and facts.why is not None:
                seen.add(str(facts.why))  # a `Why` or a reason of the game's own
            if facts is not None:
                seen.update(f"war:{c.war_kind}" for c in facts.comparisons if c.war_kind)
                seen.update(f"kind:{c.kind}" for c in facts.comparisons)
                if any(
                    isinstance(p, IntervalPlay) and p.swap
                    for c in facts.comparisons
                    for p in c.plays
                ):
                    seen.add("swap")
    KINDS_SEEN[(game, level, sides)] = seen


KINDS_SEEN: dict[tuple[str, int, int], set[str]] = {}


def test_the_tables_cover_every_kind_of_round() -> None:
    """Guards the generator above: together the tables played every reason a round is won,
    every war and endgame, and a swap (run after the parametrised test; alone it replays)."""
    if len(KINDS_SEEN) < len(TABLES):
        for table in TABLES:
            test_every_round_renders_within_discords_limits(*table)
    seen = set().union(*KINDS_SEEN.values())
    wanted = {w.value for w in Why} | {"war:war", "war:three_card", "war:one_card", "swap"}
    wanted |= {"kind:three_card", "kind:one_card"}
    assert wanted <= seen, wanted - seen
    assert set(GAMES) == {game for game, _, _ in TABLES}
