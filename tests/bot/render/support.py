"""Real engine positions for the renderer tests: stacked piles driven through `engine.game`,
wrapped in `LiveGame`s built by hand (no storage, no Discord)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import discord

from bot import render
from bot.board_state import screen_of
from bot.render.board import AnswerModalText, Board
from bot.services.live import Ending, LiveGame
from classroom.settings import GameSettings
from engine.actions import Abandon, Action, Flip, Forfeit, Timeout, TimeUp
from engine.config import GameConfig, Mode, WarRule
from engine.events import Event
from engine.game import apply, new_game
from engine.intervallkrig import Bet, Pass
from engine.regnekrig import Answer, NameTarget
from engine.state import GameState
from engine.view import view
from storage import GameRecord, GameStatus, Player
from tests.fakediscord.message_checks import check_message
from tests.fakediscord.problems import Problems

T0 = 1_700_000_000_000
GAME_ID = 4321
LANGS = ("nb", "sv", "en")

ADA = Player(seat=0, side=0, display_name="Ada", user_id=101)
BO = Player(seat=1, side=1, display_name="Bo", user_id=102)
CPU = Player(seat=1, side=1, display_name="Datamaskin", computer="medium")
LONG = "W" * 32  # the widest 32-character display name


def two_players() -> tuple[Player, ...]:
    return (ADA, BO)


def players_for(sides: int, *, teams: bool = False, long: bool = False) -> tuple[Player, ...]:
    """One player per side (or two per side with teams), optionally with maximal names."""
    out: list[Player] = []
    per_side = 2 if teams else 1
    for side in range(sides):
        for k in range(per_side):
            seat = side * per_side + k
            name = (LONG[:-2] + f"{seat:02d}") if long else f"P{seat}"
            out.append(Player(seat=seat, side=side, display_name=name, user_id=1000 + seat))
    return tuple(out)


def drive(
    config: GameConfig,
    actions: Sequence[Action] = (),
    *,
    piles: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
) -> tuple[GameState, list[Event]]:
    """Play `actions` from a new game; returns the state and the last change's events."""
    state, events = new_game(config, seed=seed, piles=piles)
    for action in actions:
        state, events = apply(state, action)
    return state, events


def until_over(
    config: GameConfig, *, seed: int = 0, limit: int = 500
) -> tuple[GameState, list[Event]]:
    """Flip an auto game (or intervallkrig) to its end."""
    state, events = new_game(config, seed=seed)
    for _ in range(limit):
        if state.is_over:
            break
        state, events = apply(state, Flip(0))
    assert state.is_over
    return state, events


def _status(state: GameState, ended: Ending | None) -> GameStatus:
    """The stored status of a game so drawn, as the bot stores it (`GameService.end_game`):
    a game a server manager ended is stored as stopped."""
    if ended is None:
        return "over" if state.is_over else "live"
    return "abandoned" if ended == "abandoned" else "stopped"


def live(
    config: GameConfig,
    state: GameState,
    events: Sequence[Event],
    players: tuple[Player, ...] | None = None,
    *,
    autoplay: bool = False,
    ended: Ending | None = None,
    answer_due_ms: int | None = T0 + 45_000,
    time_limit_due_ms: int | None = T0 + 20 * 60_000,
) -> LiveGame:
    record = GameRecord(
        id=GAME_ID,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        message_id=3,
        game=config.game,
        config=config.to_json(),
        seed=0,
        status=_status(state, ended),
        created_at=T0,
        updated_at=T0,
        players=players or players_for(config.sides),
    )
    return LiveGame(
        record=record,
        settings=GameSettings(engine=config, minutes=20),
        state=state,
        next_seq=1,
        recent=list(events),
        autoplay=autoplay,
        ended=ended,
        answer_due_ms=answer_due_ms,
        time_limit_due_ms=time_limit_due_ms,
    )


def payload(board: Board) -> dict[str, Any]:
    """The message body discord.py would send for this board."""
    return {
        "content": board.content,
        "embeds": [board.embed.to_dict()],
        "components": board.view.to_components(),
    }


def limit_problems(board: Board) -> dict[str, Any]:
    """Every Discord limit the board breaks (empty when it would be accepted)."""
    problems = Problems()
    check_message(payload(board), problems)
    embed = board.embed
    if len(embed) > 6000:
        problems.add(("embeds",), "SIZE", f"{len(embed)} characters")
    return problems.errors


def custom_ids(view: discord.ui.View) -> list[str]:
    return [
        component["custom_id"]
        for row in view.to_components()
        for component in row["components"]
        if "custom_id" in component
    ]


# -- named positions, for parametrised tests ----------------------------------------------------

REGN = Mode.REGN
AUTO = Mode.AUTO
RK = "regnekrig"
IK = "intervallkrig"
SK = "satsing"
L5_PILES = [[3, -2, 1, 1, 4, 4, 5, 5, 6, 6], [1, 1, 2, 2, 4, 4, 5, 5, 6, 6]]
BONUS_PILES = [[3, 4, 1, 1, 2, 2, 5, 5], [1, 1, 0, 0, 2, 2, 5, 5]]
WAR_PILES = [[2, 3, 0, 0, 0, 1, 1, 1, 1, 1, 5, 6], [1, 4, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2]]


def _rk(level: int, mode: Mode = REGN, **keys: Any) -> GameConfig:
    return GameConfig(game=RK, level=level, mode=mode, **keys)


def _positions() -> dict[str, Callable[[], LiveGame]]:
    """Every phase of every game, as a factory per name."""
    l1 = _rk(1)
    l5 = _rk(5)
    l5_auto = _rk(5, AUTO)
    ik = GameConfig(game=IK)
    ik_high = GameConfig(game=IK, war_rule=WarRule.HIGHEST)
    sk = GameConfig(game=SK, mode=REGN)
    ik_one = replace(ik, max_rounds=1)
    return {
        "rk1_answer": lambda: live(l1, *drive(l1, piles=WAR_PILES)),
        "rk1_answered_one": lambda: live(l1, *drive(l1, [Answer(0, "2+3=5")], piles=WAR_PILES)),
        "rk1_war": lambda: live(
            l1, *drive(l1, [Answer(0, "5"), Answer(1, "1+4=5")], piles=WAR_PILES)
        ),
        "rk5_target": lambda: live(l5, *drive(l5, piles=L5_PILES)),
        "rk5_answer": lambda: live(l5, *drive(l5, [NameTarget(0, 7)], piles=L5_PILES)),
        "rk5_next_target": lambda: live(
            l5, *drive(l5, [NameTarget(0, 7), Answer(0, "3--2=5"), Timeout(1)], piles=L5_PILES)
        ),
        "rk5_auto_target": lambda: live(l5_auto, *drive(l5_auto, piles=L5_PILES)),
        "rk5_auto_answer": lambda: live(l5_auto, *drive(l5_auto, [Flip(0)], piles=L5_PILES)),
        "rk7_answer": lambda: live(_rk(7), *drive(_rk(7), [NameTarget(0, -15)], seed=5)),
        "rk_computer_target": lambda: live(
            l5,
            *drive(l5, [NameTarget(0, 7), Answer(0, "3--2=5"), Timeout(1)], piles=L5_PILES),
            (ADA, CPU),
        ),
        "rk5_war": lambda: live(
            l5, *drive(l5, [NameTarget(0, 3), Timeout(0), Timeout(1)], piles=L5_PILES)
        ),
        "rk_bonus": lambda: live(
            l5,
            *drive(l5, [NameTarget(0, 7), Answer(0, "3+4=7"), Answer(1, "2")], piles=BONUS_PILES),
        ),
        "ik_flip_first": lambda: live(ik, *drive(ik, seed=1)),
        "ik_flip_after_round": lambda: live(ik, *drive(ik, [Flip(0)], seed=1)),
        "ik_war": lambda: live(
            ik, *drive(ik, [Flip(0)], piles=[[1, 5, 3, 0, 2, 9], [1, 5, 2, 0, 4, 9]])
        ),
        "ik_three_card_war": lambda: live(
            ik, *drive(ik, [Flip(0)], piles=[[1, 5, 3], [1, 5, 2, 0, 4, 6]])
        ),
        "ik_endgame_one": lambda: live(ik_high, *drive(ik_high, piles=[[1, 5], [1, 5, 2, 3]])),
        "ik_one_card_war": lambda: live(ik, *drive(ik, [Flip(0)], piles=[[2, 5], [-2, 5, 2, 3]])),
        "sk_bet": lambda: live(sk, *drive(sk, seed=3)),
        "sk_bet_decided": lambda: live(sk, *drive(sk, [Bet(0, 1)], seed=3)),
        "sk_after_bets": lambda: live(sk, *drive(sk, [Bet(0, 1), Pass(1)], seed=3)),
        "over_all_cards": lambda: live(
            _rk(1, AUTO), *drive(_rk(1, AUTO), [Flip(0)], piles=[[5, 6], [1, 1]])
        ),
        "time_up_in_war": lambda: live(ik, *drive(ik, [Flip(0), TimeUp()], seed=1)),
        "over_time_up": lambda: live(ik, *drive(ik, [TimeUp()], seed=1)),
        "over_max_rounds": lambda: live(ik_one, *until_over(ik_one, seed=2)),
        "over_stalemate": lambda: live(ik, *drive(ik, [Flip(0), Flip(0)], piles=[[1], [1]])),
        "over_forfeit": lambda: live(
            l5, *drive(l5, [NameTarget(0, 7), Forfeit(1)], piles=L5_PILES)
        ),
        "over_no_answers": lambda: live(sk, *drive(sk, [Abandon()], seed=3)),
        "stopped": lambda: live(
            l5, *drive(l5, [NameTarget(0, 7)], piles=L5_PILES), ended="stopped"
        ),
        "abandoned": lambda: live(sk, *drive(sk, seed=3), ended="abandoned"),
    }


POSITIONS = _positions()


# -- the renderers, fed the way the bot feeds them (`bot.board_state.screen_of`) -----------------


def render_board(game: LiveGame, lang: str, now_ms: int) -> Board:
    return render.board.render_board(screen_of(game, lang), lang, now_ms)


def render_answer_modal(game: LiveGame, side: int, lang: str) -> AnswerModalText:
    return render.board.render_answer_modal(view(game.state, side), side, lang)


def render_modal_title(game: LiveGame, lang: str) -> str:
    return render.board.render_modal_title(view(game.state, None), lang)
