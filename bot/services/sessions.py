"""Class sessions (`/mattekrig admin session minutes:…`): a timed class round.

Every game started in the server while a session runs gets the session's end as its time
limit, so all of them end together (time up, RULES §1.5: the round in progress is the last).
Once the time is up and every one of its games has ended and been recorded, the summary is
made once: games played, the class's accuracy per operation, each pupil's line, and the most
improved pupil (session accuracy against their own accuracy before it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from bot.reports import PupilLine, SessionSummary
from bot.services.clock import Clock
from bot.services.errors import UserFacingError
from bot.services.results import OPERATIONS
from bot.storage import OperationTally, PlayerGame
from bot.storage.contract import Store
from bot.storage.records import ClassSession

SESSION_MINUTES = range(1, 121)


class SessionService:
    def __init__(self, storage: Store, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock

    async def start(
        self, guild_id: int, channel_id: int, minutes: int, lang: str, *, manager: bool
    ) -> ClassSession:
        """Open a session of ``minutes``; its summary will be posted in ``channel_id``."""
        if not manager:
            raise UserFacingError("admin.not_allowed")
        if minutes not in SESSION_MINUTES:
            raise UserFacingError("error.bad_option", option="minutes")
        now = self.clock.now_ms()
        session = await self.storage.start_session(
            guild_id, channel_id, lang, now, now + minutes * 60_000
        )
        if session is None:
            raise UserFacingError("session.running")
        return session

    async def my_last(self, guild_id: int, user_id: int) -> tuple[ClassSession, PupilLine] | None:
        """The pupil's own line of the server's last session (shown only to them, under
        `/mattekrig stats`), or None when they did not play in it."""
        session = await self.storage.last_session(guild_id)
        if session is None:
            return None
        played = await self.storage.player_games(guild_id, user_id)
        during = [g for g in played if _in(session, g)]
        before = [g for g in played if g.result.started_at < session.started_at]
        lines = session_summary(session, during, before).pupils
        return (session, lines[0]) if lines else None

    async def next_end_ms(self) -> int | None:
        return await self.storage.next_session_end()

    async def summaries_due(
        self, live_guild_games: Sequence[tuple[int, int]]
    ) -> list[SessionSummary]:
        """The summaries of sessions whose time is up and whose games are all over and
        recorded. ``live_guild_games``: (guild id, started at) of every live game."""
        out = []
        pending = set(await self.storage.unrecorded_games())
        for session in await self.storage.ended_sessions(self.clock.now_ms()):
            if any(
                guild == session.guild_id and session.started_at <= started < session.ends_at
                for guild, started in live_guild_games
            ):
                continue  # a last round is still being played
            played = await self.storage.guild_player_games(session.guild_id)
            during = [g for g in played if _in(session, g)]
            if pending & {g.result.game_id for g in during} or (pending and not during):
                continue  # its results are being recorded
            if not await self.storage.mark_summarized(session.id, self.clock.now_ms()):
                continue
            before = [g for g in played if g.result.started_at < session.started_at]
            out.append(session_summary(session, during, before))
        return out


def _in(session: ClassSession, game: PlayerGame) -> bool:
    return session.started_at <= game.result.started_at < session.ends_at


def session_summary(
    session: ClassSession, during: Sequence[PlayerGame], before: Sequence[PlayerGame]
) -> SessionSummary:
    """A session's summary from its pupils' games and their games before it (pure)."""
    operations: dict[str, OperationTally] = {}
    mine: defaultdict[int, list[PlayerGame]] = defaultdict(list)
    for game in during:
        for tally in game.player.operations:
            operations[tally.op] = operations.get(tally.op, OperationTally(tally.op)) + tally
        if game.player.user_id is not None:
            mine[game.player.user_id].append(game)
    earlier: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
    for game in before:
        if game.player.user_id is not None:
            earlier[game.player.user_id][0] += game.player.answers
            earlier[game.player.user_id][1] += game.player.correct
    pupils = []
    for user_id, games in mine.items():
        answers = sum(g.player.answers for g in games)
        correct = sum(g.player.correct for g in games)
        old_answers, old_correct = earlier.get(user_id, [0, 0])
        gain = correct / answers - old_correct / old_answers if answers and old_answers else None
        pupils.append(
            PupilLine(
                user_id=user_id,
                name=games[-1].player.display_name or str(user_id),
                games=len(games),
                wins=sum(g.player.outcome == "win" for g in games),
                answers=answers,
                correct=correct,
                best=sum(g.player.best for g in games),
                missed=sum(g.player.missed for g in games),
                exact_hits=sum(g.player.exact_hits for g in games),
                gain=gain,
            )
        )
    pupils.sort(key=lambda p: (p.name.casefold(), p.user_id))
    improved = [p for p in pupils if p.gain is not None and p.gain > 0]
    best = max(improved, key=lambda p: (p.gain, p.answers), default=None)
    return SessionSummary(
        session=session,
        games=len({g.result.game_id for g in during}),
        operations=tuple(operations[op] for op in OPERATIONS if op in operations),
        pupils=tuple(pupils),
        most_improved=best,
    )
