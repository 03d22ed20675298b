"""Teacher controls (`/mattekrig admin …`, Manage Server): one call per command.

Discord hides the commands from members without Manage Server (``default_member_permissions``)
but a server's admins can change that per command, so every method here also takes
``manager`` (the caller's actual permission) and refuses with ``admin.not_allowed``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Unpack

from bot.services.clock import Clock
from bot.services.figures import ClassReport
from bot.services.report import class_report, day_bounds, parse_day
from bot.services.results import ResultsService
from bot.services.stats import summarize
from classroom.errors import UserFacingError
from classroom.i18n import DEFAULT_LANG, LANGS, lang_of, t
from classroom.operations import OPERATIONS
from classroom.spreadsheet import spreadsheet, spreadsheet_cell
from classroom.summary import notes_text
from classroom.tally import ranked
from engine.options import LEVELS
from storage import ANSWER_FORMS as ANSWER_FORMS  # the setting's choices, for the UI
from storage import BOARD_SORTS, BOARD_VISIBILITIES, GameResult, PlayerGame, Season
from storage import GuildSettings as GuildSettings  # the service's own type, for the UI
from storage import SettingsChange as SettingsChange  # what the UI asks to change
from storage.contract import Store
from storage.records import PracticeNote

VISIBILITIES = BOARD_VISIBILITIES  # what the leaderboard setting may be


@dataclass(frozen=True, slots=True)
class SeasonChange:
    archived: Season | None  # the season that ended (its leaderboard stays viewable)
    started: Season


class AdminService:
    def __init__(self, storage: Store, clock: Clock, results: ResultsService) -> None:
        self.storage = storage
        self.clock = clock
        self.results = results
        self._languages: dict[int, str | None] = {}

    async def settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (also read by the Discord layer: channels, language,
        threads)."""
        return self._remember(await self.storage.guild_settings(guild_id))

    def known_language(self, guild_id: int | None) -> str | None:
        """The server's language setting as last read or saved here, without a database
        read: for the sentences that are answered before any settings are loaded (a refused
        option, a stale button). Nynorsk has no Discord locale, so without this a pupil of
        a nynorsk class would get those in bokmål."""
        return None if guild_id is None else self._languages.get(guild_id)

    def _remember(self, settings: GuildSettings) -> GuildSettings:
        self._languages[settings.guild_id] = settings.language
        return settings

    async def current_season(self, guild_id: int) -> Season | None:
        """The running season (None before the server's first result), shown before asking
        to start the next one."""
        return await self.storage.current_season(guild_id)

    async def update_settings(
        self, guild_id: int, *, manager: bool, **change: Unpack[SettingsChange]
    ) -> GuildSettings:
        """`/mattekrig admin settings`: change what is given, keep the rest (`SettingsChange`).
        ``board`` is who sees the leaderboard (the command's ``leaderboard`` option);
        ``answer_form`` is new Regnekrig games' answer form unless their starter picks one
        (RULES §2.2); ``public_board`` the leaderboard members see first and may share;
        ``pictures`` False makes the server's boards text only."""
        _require(manager)
        public_board, board = change.get("public_board"), change.get("board")
        language, answer_form = change.get("language"), change.get("answer_form")
        if public_board is not None and public_board not in BOARD_SORTS:
            raise UserFacingError("error.bad_option", option="public_board")
        if board is not None and board not in VISIBILITIES:
            raise UserFacingError("error.bad_option", option="leaderboard")
        if language is not None and language not in LANGS:
            raise UserFacingError("error.bad_option", option="language")
        if answer_form is not None and answer_form not in ANSWER_FORMS:
            raise UserFacingError("error.bad_option", option="answer_form")
        return self._remember(
            await self.storage.update_guild_settings(guild_id, self.clock.now_ms(), **change)
        )

    async def new_season(self, guild_id: int, *, manager: bool) -> SeasonChange:
        """`/mattekrig admin season new` (after the Discord layer's confirmation): archive the
        running season's leaderboard and ratings, start a fresh one."""
        _require(manager)
        archived, started = await self.storage.new_season(guild_id, self.clock.now_ms())
        return SeasonChange(archived, started)

    async def void(self, guild_id: int, game_id: int, *, manager: bool) -> GameResult:
        """`/mattekrig admin void <game>`: remove a result and its rating change."""
        _require(manager)
        return await self.results.void(guild_id, game_id)

    async def report_csv(
        self,
        guild_id: int,
        *,
        manager: bool,
        mistake_name: Callable[[str], str],
        lang: str = "en",
    ) -> str:
        """`/mattekrig admin report`: one line per pupil (games, wins, answers, misses, the
        best-move rate of the rounds asked overall, per operation and per level with each
        level's misses, suggested level). Percentages are whole numbers, empty when the pupil
        was never asked such a round. Semicolon-separated for nb/nn/sv (what a Norwegian or
        Swedish spreadsheet expects), comma for en; starts with a BOM so names with æøå
        open correctly."""
        _require(manager)
        games = await self.storage.guild_player_games(guild_id)
        notes = await self.storage.practice_notes(guild_id)
        return report_csv(games, mistake_name=mistake_name, lang=lang, notes=notes)

    def report_days(self, start: str | None, end: str | None) -> tuple[int | None, int | None]:
        """The report's dates as the teacher typed them, as [start, end) in milliseconds:
        checked before anything is loaded, so a date it cannot read is refused at once."""
        return day_bounds(parse_day(start, "start"), parse_day(end, "end"))

    async def class_report(
        self,
        guild_id: int,
        *,
        manager: bool,
        days: tuple[int | None, int | None] = (None, None),
        user_id: int | None = None,
    ) -> ClassReport:
        """`/mattekrig admin report [from] [to] [pupil]`: per pupil, level and operation, from
        the games that ended in ``days`` (`report_days`)."""
        _require(manager)
        start_ms, end_ms = days
        games = await self.storage.guild_player_games(guild_id)
        notes = await self.storage.practice_notes(guild_id, user_id)
        return class_report(games, start_ms=start_ms, end_ms=end_ms, user_id=user_id, notes=notes)


def report_csv(
    games: Sequence[PlayerGame],
    *,
    mistake_name: Callable[[str], str],
    lang: str = "en",
    notes: Iterable[PracticeNote] = (),
) -> str:
    """The teacher's report from every pupil's games (pure); the commonest mistake in words
    (``mistake_name``: a reason code in the teacher's language, never the code itself), and
    each pupil's practice notes of those games in the lesson summary's words (RULES §2.6:
    never a mistake)."""
    lang = lang_of(lang) or DEFAULT_LANG
    by_user: defaultdict[int, list[PlayerGame]] = defaultdict(list)
    for g in games:
        if g.player.user_id is not None:
            by_user[g.player.user_id].append(g)
    noted: defaultdict[tuple[int, int], Counter[str]] = defaultdict(Counter)
    for note in notes:
        noted[(note.user_id, note.game_id)][note.code] += note.n
    header = [
        t(f"report.csv.{column}", lang)
        for column in (
            "pupil",
            "pupils.games",
            "pupils.wins",
            "answers",
            "missed",
            "best",
            "median",
            "pupils.mistake",
        )
    ]
    for op in OPERATIONS:  # each by its sign, division as the language's schools write it
        header.append(t("report.csv.pupils.best_op", lang, op=t(f"report.csv.op.{op}", lang)))
    for level in LEVELS:
        header.extend(
            (
                t("report.csv.pupils.best_level", lang, level=level),
                t("report.csv.pupils.missed_level", lang, level=level),
            )
        )
    header.extend((t("report.csv.pupils.suggested", lang), t("report.csv.notes", lang)))
    lines = []
    for user_id, mine in by_user.items():
        stats = summarize(0, user_id, mine[-1].player.display_name, mine)
        row = [
            spreadsheet_cell(stats.display_name or str(user_id)),
            str(stats.games),
            str(stats.wins),
            str(stats.answers.answers),
            str(stats.missed),
            _percent(stats.answers.best_rate),
            _seconds(stats.answers.median_ms),
            mistake_name(stats.answers.mistakes[0][0]) if stats.answers.mistakes else "",
        ]
        row.extend(
            _percent(stats.operations[op].best_rate) if op in stats.operations else ""
            for op in OPERATIONS
        )
        for level in LEVELS:
            tally = stats.levels.get(level)
            row.extend(
                ("", "") if tally is None else (_percent(tally.best_rate), str(tally.missed))
            )
        row.append(str(stats.suggestion.level))
        mine_noted: Counter[str] = Counter()
        for g in mine:
            mine_noted.update(noted.get((user_id, g.result.game_id), Counter()))
        row.append(notes_text(ranked(mine_noted), lang))
        lines.append(row)
    lines.sort(key=lambda r: r[0].casefold())
    return spreadsheet([header, *lines], lang)


def _percent(value: float | None) -> str:
    return "" if value is None else str(round(value * 100))


def _seconds(ms: int | None) -> str:
    return "" if ms is None else str(round(ms / 1000))


def _require(manager: bool) -> None:
    if not manager:
        raise UserFacingError("admin.not_allowed")
