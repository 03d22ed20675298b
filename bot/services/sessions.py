"""Class sessions (`/mattekrig admin session minutes:…`): a timed class round.

Every game started in the server while a session runs gets the session's end as its time
limit, so all of them end together (time up, RULES §1.5: the round in progress is the last).
Once the time is up and every one of its games has ended and been recorded, the summary is
made once: games played, the class's accuracy per operation, the class's most common
mistake kinds (per operation: "sign slip in subtraction"; each wrong answer once, under its
most particular area), the most improved pupil (session
accuracy against their own accuracy before it), and each pupil's line, which only that pupil
is shown (the summary's button, `bot/ui/sessions.py`). A session opened with a named preset
gives every game started in it that preset (`TeacherService.preset_for`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from bot.services.base import StoredService
from bot.services.figures import ClassMistake, ClassNote, SessionLine, SessionSummary
from classroom.errors import UserFacingError
from classroom.operations import OPERATIONS
from classroom.tally import disjoint, ranked
from storage import OperationTally, PlayerGame
from storage.contract import Store
from storage.records import ClassSession, PracticeNote

SESSION_MINUTES = range(1, 121)
TOP_MISTAKES = 3  # the class's most common mistake kinds shown in the summary


class SessionService(StoredService[Store]):
    async def start(
        self,
        guild_id: int,
        channel_id: int,
        minutes: int,
        lang: str,
        *,
        manager: bool,
        preset: str | None = None,
    ) -> ClassSession:
        """Open a session of ``minutes``; its summary will be posted in ``channel_id``.
        ``preset``: the name of the server's named preset every game in it gets."""
        if not manager:
            raise UserFacingError("admin.not_allowed")
        if minutes not in SESSION_MINUTES:
            raise UserFacingError("error.bad_option", option="minutes")
        named = None
        if preset is not None and preset.strip():
            named = await self.storage.named_preset(guild_id, " ".join(preset.split()))
            if named is None:
                raise UserFacingError("preset.unknown", name=preset.strip()[:50])
        now = self.clock.now_ms()
        session = await self.storage.start_session(
            guild_id, channel_id, lang, now, now + minutes * 60_000, named
        )
        if session is None:
            raise UserFacingError("session.running")
        return session

    async def my_last(self, guild_id: int, user_id: int) -> tuple[ClassSession, SessionLine] | None:
        """The pupil's own line of the server's last session (shown only to them, under
        `/mattekrig stats`), or None when they did not play in it."""
        session = await self.storage.last_session(guild_id)
        if session is None:
            return None
        return await self._line_of(session, user_id)

    async def my_line(
        self, session_id: int, guild_id: int, user_id: int
    ) -> tuple[ClassSession, SessionLine | None]:
        """The presser's own line of a summarised session (the summary's button): None when
        they played no game in it. A session of another server, or not over, is refused."""
        session = await self.storage.session(session_id)
        if session is None or session.guild_id != guild_id:
            raise UserFacingError("error.unknown_button")
        if session.summarized_at is None:
            raise UserFacingError("session.not_over")
        found = await self._line_of(session, user_id)
        return session, None if found is None else found[1]

    async def _line_of(
        self, session: ClassSession, user_id: int
    ) -> tuple[ClassSession, SessionLine] | None:
        played = await self.storage.player_games(session.guild_id, user_id)
        during = [g for g in played if _in(session, g)]
        before = [g for g in played if g.result.started_at < session.started_at]
        notes = await self.storage.practice_notes(session.guild_id, user_id)
        lines = session_summary(session, during, before, notes).pupils
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
            notes = await self.storage.practice_notes(session.guild_id)
            out.append(session_summary(session, during, before, notes))
        return out


def _in(session: ClassSession, game: PlayerGame) -> bool:
    return session.started_at <= game.result.started_at < session.ends_at


def session_summary(
    session: ClassSession,
    during: Sequence[PlayerGame],
    before: Sequence[PlayerGame],
    notes: Iterable[PracticeNote] = (),
) -> SessionSummary:
    """A session's summary from its pupils' games and their games before it, with the
    practice notes of its games (RULES §2.6: never mistakes) (pure)."""
    operations: dict[str, OperationTally] = {}
    mine: defaultdict[int, list[PlayerGame]] = defaultdict(list)
    for game in during:
        for tally in game.player.operations:
            operations[tally.op] = operations.get(tally.op, OperationTally(tally.op)) + tally
        if game.player.user_id is not None:
            mine[game.player.user_id].append(game)
    kinds: Counter[tuple[str, str]] = Counter()  # (operation, reason code) -> answers
    pupils_by_kind: defaultdict[tuple[str, str], set[int]] = defaultdict(set)
    for game in during:
        for op, code, count in _mistakes(game):
            kinds[(op, code)] += count
            if game.player.user_id is not None:
                pupils_by_kind[(op, code)].add(game.player.user_id)
    earlier: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
    for game in before:
        if game.player.user_id is not None:
            earlier[game.player.user_id][0] += game.player.answers
            earlier[game.player.user_id][1] += game.player.correct
    ids = {g.result.game_id for g in during}
    noted: defaultdict[int, Counter[str]] = defaultdict(Counter)
    for note in notes:
        if note.game_id in ids:
            noted[note.user_id][note.code] += note.n
    pupils = []
    for user_id, games in mine.items():
        answers = sum(g.player.answers for g in games)
        correct = sum(g.player.correct for g in games)
        old_answers, old_correct = earlier.get(user_id, [0, 0])
        gain = correct / answers - old_correct / old_answers if answers and old_answers else None
        pupils.append(
            SessionLine(
                user_id=user_id,
                name=games[-1].player.display_name or str(user_id),
                games=len(games),
                # a voided game's win is taken back; its answers stay the pupil's practice
                wins=sum(g.player.outcome == "win" and g.result.voided_at is None for g in games),
                answers=answers,
                correct=correct,
                best=sum(g.player.best for g in games),
                missed=sum(g.player.missed for g in games),
                exact_hits=sum(g.player.exact_hits for g in games),
                gain=gain,
                mistakes=top_mistakes((op, code, n) for g in games for op, code, n in _mistakes(g)),
                notes=ranked(noted.get(user_id, Counter())),
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
        mistakes=tuple(
            ClassMistake(op, code, count, len(pupils_by_kind[(op, code)]))
            for (op, code), count in sorted(kinds.items(), key=lambda k: (-k[1], k[0]))[
                :TOP_MISTAKES
            ]
        ),
        notes=_class_notes(noted),
    )


def _class_notes(noted: dict[int, Counter[str]]) -> tuple[ClassNote, ...]:
    """The class's practice notes: each code's count and how many pupils it came to."""
    counts: Counter[str] = Counter()
    pupils: Counter[str] = Counter()
    for mine in noted.values():
        counts.update(mine)
        pupils.update(code for code, n in mine.items() if n)
    return tuple(ClassNote(code, n, pupils[code]) for code, n in ranked(counts))


def _mistakes(game: PlayerGame) -> Iterable[tuple[str, str, int]]:
    """(operation, reason code, count) of every mistake kind in a pupil's game, each wrong
    answer once, under its most particular area (RULES §2.6: areas group, never count
    twice)."""
    kept = {t.op: t.mistakes for t in game.player.operations}
    once = disjoint(game.result.level, kept)
    return ((op, code, n) for op, kinds in once.items() for code, n in kinds)


def top_mistakes(
    found: Iterable[tuple[str, str, int]], limit: int = TOP_MISTAKES
) -> tuple[tuple[str, str, int], ...]:
    """The most frequent (operation, reason code) pairs with their counts, summed; ties by
    operation and code, so the order is the same on every run."""
    counts: Counter[tuple[str, str]] = Counter()
    for op, code, n in found:
        counts[(op, code)] += n
    ranked = sorted(counts.items(), key=lambda k: (-k[1], k[0]))
    return tuple((op, code, n) for (op, code), n in ranked[:limit])
