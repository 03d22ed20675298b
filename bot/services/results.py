"""A finished game's result: computed from its stored actions and events, then recorded.

`compute_result` is pure: it reads a `StoredGame` (config, players, and every stored action
with the events it produced, its time and who pressed) and returns the result rows. The
stored events are the only source: what the players saw is what is counted.

* **Answer time** is the answer's ``created_at`` minus the ``created_at`` of the action that
  turned the cards being answered (the last earlier action whose events include a ``laid``
  event): the moment the decision window opened for everyone, however many teammates or
  opponents answered in between.
* **Answers** are read by the answer tally (`classroom.tally`), the one the lesson's summary
  counts with: levels 1–4 count under their operation, levels 5–7 under ``target`` and also
  ``square`` / ``root`` when the pupil's expression used one (each wrong answer's kind goes
  with it, and readers count it once, `classroom.tally.disjoint`); a best move and the
  best-move rate are the tally's. A timed-out answer is a *miss*, not an answer.
* **Side facts** (rounds won, wars won, exact hits, cards at the end) belong to the side and
  are shared by a team's members; answers belong to whoever pressed.
* Cards at the end come from replaying the game with the engine (exact, and the same code
  the bot plays with); a game that cannot be replayed keeps ``cards_end`` empty.

`ResultsService.record` runs in the background after a game ends (``schedule``), so the board
update is never delayed: the replay runs in a worker thread and the write is one short
transaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from datetime import tzinfo

from bot.services.clock import Clock
from bot.services.games import DEAL_ACTION
from bot.services.live import GameUpdate
from bot.services.ratings import plan
from classroom.errors import UserFacingError
from classroom.periods import SCHOOL_TZ, day_key, week_key
from classroom.settings import GameSettings
from classroom.tally import AnswerRecord, AnswerTally, BestMove, SideFacts, by_seat, figures
from engine.actions import Action
from engine.events import Dealt, Event, GameOver, event_from_json
from engine.game import restore
from engine.registry import action_from_json, descriptor
from storage import (
    GameResult,
    OperationTally,
    Player,
    PlayerOutcome,
    PlayerResult,
    ResultReason,
    StoredEvent,
    StoredGame,
)
from storage.contract import Store

log = logging.getLogger(__name__)

# RULES §1.5: a forfeit ends the game by the rules (the others win); an abandoned game, a
# cancel (a stop before the first round was finished) and a manager's end are no result.
_RULE_ENDINGS: tuple[ResultReason, ...] = (
    "all_cards",
    "time_up",
    "max_rounds",
    "stalemate",
    "forfeit",
)


class NotFinishedError(ValueError):
    """The game is still live (or never ended by the rules nor by stop / idle)."""


@dataclass(frozen=True, slots=True)
class _Step:
    """One stored action (None for the deal) with the events it produced, typed."""

    stored: StoredEvent
    action: Action | None
    events: tuple[Event, ...]


def _steps(stored: StoredGame) -> list[_Step]:
    """The stored game read back into the engine's actions and events (raises on a row the
    engine cannot read: such a game keeps no result rather than a wrong one)."""
    return [
        _Step(
            s,
            None if s.action == DEAL_ACTION else action_from_json(s.action),
            tuple(event_from_json(e) for e in s.events),
        )
        for s in stored.events
    ]


Mistakes = tuple[tuple[str, int], ...]  # reason codes with their counts, most frequent first


def compute_result(stored: StoredGame) -> GameResult:
    """The result rows of a finished game (pure; see the module docstring).

    Raises NotFinishedError for a live game and ValueError for a game outside a server.
    ``day``, ``week``, ``season`` and the rating fields are left for `ResultsService`.
    """
    return compute_result_with_mistakes(stored)[0]


def compute_result_with_mistakes(stored: StoredGame) -> tuple[GameResult, dict[int, Mistakes]]:
    """`compute_result`, and each user's mistake kinds (the engine's reason codes of their
    answers that counted as no value, RULES §2.2) from the same reading of the game."""
    if stored.guild_id is None:
        raise ValueError("results are kept for games in a server only")
    settings = GameSettings.from_json(stored.config)
    config = settings.engine
    tally = read_answers(stored)
    reason, winner, ended_at = _ending(stored, tally.game_over)
    counts = final_counts(stored, settings)
    mine = by_seat(tally.records)
    side_sizes = Counter(p.side for p in stored.players)
    players = []
    for p in stored.players:
        records = mine.get(p.user_id, []) if p.user_id is not None else []
        end = counts[p.side] if counts and p.side < len(counts) else None
        team = p.side if side_sizes[p.side] > 1 else None
        outcome = _outcome(reason, winner, p.side)
        players.append(_player_result(p, records, tally.sides, outcome, team, end))
    mistakes = {user: figures(records).mistakes for user, records in mine.items()}
    return GameResult(
        game_id=stored.id,
        guild_id=stored.guild_id,
        channel_id=stored.channel_id,
        game=stored.game,
        level=config.level,
        deck=config.deck.value,
        mode=config.mode.value,
        sides=config.sides,
        teams=any(size > 1 for size in side_sizes.values()),
        computer=any(p.computer is not None for p in stored.players),
        winner=winner,
        reason=reason,
        rounds=tally.rounds,
        started_at=stored.created_at,
        ended_at=ended_at,
        players=tuple(players),
    ), mistakes


def _ending(stored: StoredGame, game_over: GameOver | None) -> tuple[ResultReason, int | None, int]:
    """How the game ended (reason, winner, when): by the rules, or stopped / abandoned."""
    last_event_at = max((s.created_at for s in stored.events), default=stored.created_at)
    last_event_at = max(last_event_at, stored.created_at)
    if stored.status == "over" and game_over is not None:
        reason: ResultReason = next(
            (r for r in _RULE_ENDINGS if r == game_over.reason), "all_cards"
        )
        return reason, game_over.winner, last_event_at
    if stored.status == "stopped":
        return "stopped", None, max(stored.updated_at, last_event_at)
    if stored.status == "abandoned":
        return "abandoned", None, max(stored.updated_at, last_event_at)
    raise NotFinishedError(f"game {stored.id} is {stored.status}")


def _player_result(
    p: Player,
    records: list[AnswerRecord[int]],
    sides: SideFacts,
    outcome: PlayerOutcome,
    team: int | None,
    cards_end: int | None,
) -> PlayerResult:
    """One seat's row: the side's facts, and the answers its user gave (the tally's)."""
    done = figures(records)
    return PlayerResult(
        seat=p.seat,
        side=p.side,
        kind="user" if p.user_id is not None else "computer",
        display_name=p.display_name,
        outcome=outcome,
        user_id=p.user_id,
        computer=p.computer,
        team=team,
        cards_end=cards_end,
        rounds_won=sides.rounds_won[p.side],
        wars_won=sides.wars_won[p.side],
        exact_hits=sides.exact_hits[p.side],
        answers=done.answers,
        correct=done.correct,
        best=done.best,
        missed=done.missed,
        answer_ms=sum(r.ms or 0 for r in records if r.answered),
        operations=_operations(records),
    )


def read_answers(stored: StoredGame) -> AnswerTally[int]:
    """The stored game folded by the answer tally (`classroom.tally`), by user id."""
    config = GameSettings.from_json(stored.config).engine
    members: defaultdict[int, list[int]] = defaultdict(list)
    for p in stored.players:
        if p.user_id is not None:
            members[p.side].append(p.user_id)
    tally: AnswerTally[int] = AnswerTally(
        config.level,
        descriptor(config.game).has_targets(config.level),
        members=members,
        opened_at=stored.created_at,
    )
    for step in _steps(stored):
        tally.add(step.action, step.events, step.stored.user_id, step.stored.created_at)
    return tally


def _operations(records: list[AnswerRecord[int]]) -> tuple[OperationTally, ...]:
    """Each answer under every operation it practised (the rates of an area), its mistake
    with it: the stored rows keep this shape, and readers count a mistake once (`disjoint`)."""
    ops: dict[str, OperationTally] = {}
    for r in records:
        if not r.answered:
            continue
        ms = r.ms or 0
        kinds = ((r.mistake, 1),) if r.mistake is not None else ()
        for op in r.operations:
            one = OperationTally(
                op, 1, int(r.correct), int(r.best), ms, mistakes=kinds, times=(ms,)
            )
            ops[op] = ops[op] + one if op in ops else one
    return tuple(sorted(ops.values(), key=lambda o: o.op))  # as loaded


def final_counts(stored: StoredGame, settings: GameSettings) -> tuple[int, ...] | None:
    """Each side's cards at the end, by replaying the stored actions (None if impossible)."""
    try:
        steps = _steps(stored)
        dealt = next((e for step in steps for e in step.events if isinstance(e, Dealt)), None)
        if dealt is None or dealt.stacked:
            return None  # stacked piles (tests, scenarios) are not replayable from the seed
        actions = [step.action for step in steps if step.action is not None]
        recorded = [e for s in stored.events for e in s.events]  # the chance outcomes
        return restore(settings.engine, stored.seed, actions, recorded).counts
    except Exception:  # an old game the engine can no longer replay keeps its other facts
        log.warning("game %s could not be replayed for its card counts", stored.id)
        return None


def best_moves_missed(stored: StoredGame) -> dict[int, tuple[BestMove, ...]]:
    """Each user's answers that were not a best move, with the best move of that round (RULES
    §2.5): what a pupil reads in their own summary, never on the public board."""
    return best_moves_of(read_answers(stored))


def best_moves_of(tally: AnswerTally[int]) -> dict[int, tuple[BestMove, ...]]:
    missed: defaultdict[int, list[BestMove]] = defaultdict(list)
    for record in tally.records:
        if record.missed_best is not None:
            missed[record.seat].append(record.missed_best)
    return {user: tuple(moves) for user, moves in missed.items()}


def _outcome(reason: str, winner: int | None, side: int) -> PlayerOutcome:
    if reason not in _RULE_ENDINGS:
        return "none"
    if winner is None:
        return "draw"
    return "win" if winner == side else "loss"


class ResultsService:
    """Records results (once per game), voids them, and runs the recording in the background."""

    def __init__(self, storage: Store, clock: Clock, *, tz: tzinfo = SCHOOL_TZ) -> None:
        self.storage = storage
        self.clock = clock
        self.tz = tz
        self._tasks: set[asyncio.Task[GameResult | None]] = set()

    async def record(self, game_id: int) -> GameResult | None:
        """Compute and store a finished game's result with its rating changes, in one
        transaction. Idempotent: None when it was recorded before (or voided), or when the
        game is live or outside a server."""
        if await self.storage.load_result(game_id) is not None:
            return None
        stored = await self.storage.load_game(game_id)
        if stored.status != "over" or stored.guild_id is None:
            return None  # RULES §1.5: a cancelled, ended or abandoned game counts for nobody
        # The replay is CPU work: keep it off the event loop so boards keep updating.
        result = await asyncio.to_thread(compute_result, stored)
        result = replace(
            result, day=day_key(result.ended_at, self.tz), week=week_key(result.ended_at, self.tz)
        )
        return await self.storage.record_result(result, at=self.clock.now_ms(), rate=plan)

    def schedule(self, game_id: int) -> asyncio.Task[GameResult | None]:
        """Record in the background; a failure is logged, never raised into the game."""
        task = asyncio.create_task(self._record_logged(game_id), name=f"record-result-{game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def on_update(self, update: GameUpdate) -> None:
        """A `GameService` listener: schedules the record when an update finished the game."""
        if update.game.is_finished:
            self.schedule(update.game.id)

    async def drain(self) -> None:
        """Wait for every scheduled record (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def record_pending(self, limit: int = 100) -> list[GameResult]:
        """Record finished games that have no result yet (run at start-up and before purges:
        a crash between a game's end and its record loses nothing)."""
        recorded = []
        for game_id in await self.storage.unrecorded_games(limit):
            result = await self._record_logged(game_id)
            if result is not None:
                recorded.append(result)
        return recorded

    async def void(self, guild_id: int, game_id: int) -> GameResult:
        """Remove a result from the boards and subtract its rating change (teacher's void).
        Refused with ``admin.void.unknown_game`` when the server has no such result."""
        result = await self.storage.void_result(guild_id, game_id, self.clock.now_ms())
        if result is None:
            raise UserFacingError("admin.void.unknown_game", game=game_id)
        return result

    async def _record_logged(self, game_id: int) -> GameResult | None:
        try:
            return await self.record(game_id)
        except Exception:
            log.exception("recording the result of game %s failed", game_id)
            return None
