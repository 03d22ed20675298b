"""Leaderboards, statistics, the pupil's privacy confirmations and the teacher's screens,
rendered: pure functions of what the services return (no awaits, no storage), so a test can
render any board in every language and check it against Discord's limits.

A leaderboard's paging buttons carry the whole board in their custom_id
(``mk:page:g<guild>:<page>:<arg>``), so a press works on any message, after a restart too:
`BoardOptions` is that ``arg`` (game, level, period or archived season, sort, and whether the
message is shared), written and read back here and nowhere else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import discord

from bot.i18n import Lang, t
from bot.render.board import Board, clip
from bot.render.locale import as_lang
from bot.render.names import clean_name
from bot.services.leaderboard import GAMES, PERIODS, Leaderboard, Period
from bot.services.stats import PlayerStats
from bot.storage import BOARD_SORTS, BoardRow, BoardSort, GuildSettings, OperationTally, Season
from bot.ui.custom_ids import Verb, build

BOARD_COLOUR = discord.Colour(0xEAB308)  # gold
STATS_COLOUR = discord.Colour(0x3B82F6)  # blue
ADMIN_COLOUR = discord.Colour(0x6B7280)  # grey
DANGER_COLOUR = discord.Colour(0xDC2626)  # red
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
LEVEL_OPS = ("add", "multiply", "divide", "subtract")  # levels 1-4, named like the levels
DESCRIPTION_MAX = 4096
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048


# -- what a leaderboard shows, as a custom_id arg ------------------------------------------------

_ARG = re.compile(
    r"(?P<game>any|[a-z]+)\.(?P<level>[0-7])\."
    r"(?:(?P<period>[a-z]+)|s(?P<season>[1-9][0-9]{0,5}))"
    r"\.(?P<sort>[a-z_]+)\.(?P<view>p|nb|sv|en)"
)


@dataclass(frozen=True, slots=True)
class BoardOptions:
    """The options of one leaderboard message: everything but the page and the viewer.

    ``season`` is an archived season's number (then ``period`` is "season"). ``shared``: the
    message is public, so it shows no "your place" line and a press edits it for everyone, in
    ``lang``, the language it was shared in (a public board does not switch language with
    whoever pages it; a private one is always in its owner's).
    """

    game: str | None = None
    level: int | None = None
    period: Period = "season"
    sort: BoardSort = "rating"
    season: int | None = None
    shared: bool = False
    lang: str | None = None

    def to_arg(self) -> str:
        """``regnekrig.3.week.wins.p`` (private) or ``any.0.s2.rating.nb`` (shared in nb):
        letters, digits, dots and underscores only (the arg grammar)."""
        period = f"s{self.season}" if self.season is not None else self.period
        view = as_lang(self.lang or "en") if self.shared else "p"
        return f"{self.game or 'any'}.{self.level or 0}.{period}.{self.sort}.{view}"

    @classmethod
    def from_arg(cls, arg: str | None) -> BoardOptions | None:
        """The options in ``arg``, or None when it is not one `to_arg` could have written."""
        match = _ARG.fullmatch(arg or "")
        if match is None:
            return None
        game = None if match["game"] == "any" else match["game"]
        season = int(match["season"]) if match["season"] else None
        period = "season" if season is not None else match["period"]
        sort = match["sort"]
        if (game is not None and game not in GAMES) or period not in PERIODS:
            return None
        if sort not in BOARD_SORTS:
            return None
        return cls(
            game=game,
            level=int(match["level"]) or None,
            period=period,
            sort=sort,
            season=season,
            shared=match["view"] != "p",
            lang=None if match["view"] == "p" else match["view"],
        )


# -- small pieces ----------------------------------------------------------------------------


def percent(value: float | None, lang: Lang) -> str:
    """A whole percentage in the language's own style (``85 %`` in nb/sv, ``85%`` in en)."""
    return t("records.percent", lang, percent=0 if value is None else round(value * 100))


def date(ms: int) -> str:
    """A date every client shows in its own format and time zone."""
    return discord.utils.format_dt(datetime.fromtimestamp(ms / 1000, UTC), "D")


def display(user_id: int, name: str | None) -> str:
    """A stored display name made safe, or a mention (shown as the name, never a ping: every
    message here is sent with no allowed mentions)."""
    return clean_name(name) if name else f"<@{user_id}>"


def _rank(rank: int) -> str:
    return MEDALS.get(rank, f"**{rank}.**")


def _game_name(game: str | None, lang: Lang) -> str:
    return t(f"game.{game}.name", lang) if game else t("leaderboard.all_games", lang)


# -- the leaderboard -----------------------------------------------------------------------


def board_options(
    board: Leaderboard, *, shared: bool, archived: int | None, lang: Lang = "en"
) -> BoardOptions:
    """The options a page of ``board`` was drawn with (for its buttons)."""
    return BoardOptions(
        game=board.game,
        level=board.level,
        period=board.period,
        sort=board.sort,
        season=archived,
        shared=shared,
        lang=lang if shared else None,
    )


def _scope_line(board: Leaderboard, lang: Lang) -> str:
    if board.period == "week" and board.week_start_ms is not None:
        return t("leaderboard.period.week", lang, date=date(board.week_start_ms))
    if board.period == "all":
        return t("leaderboard.period.all", lang)
    season = board.season
    if season is None:
        return t("leaderboard.period.season_none", lang)
    if season.ended_at is not None:
        return t(
            "leaderboard.period.season_ended",
            lang,
            season=season.season,
            start=date(season.started_at),
            end=date(season.ended_at),
        )
    return t("leaderboard.period.season", lang, season=season.season, date=date(season.started_at))


def _what_line(board: Leaderboard, lang: Lang) -> str:
    game = _game_name(board.game, lang)
    if board.level is not None:
        name = t(f"level.{board.level}.name", lang)
        return t("leaderboard.game_level", lang, game=game, level=board.level, name=name)
    return game


def board_row(row: BoardRow, sort: BoardSort, lang: Lang, *, you: bool = False) -> str:
    """One line of a board: rank, name and the number it is sorted by."""
    line = t(
        f"leaderboard.row.{sort}",
        lang,
        rank=_rank(row.rank),
        name=display(row.user_id, row.display_name),
        rating=row.rating if row.rating is not None else "–",
        games=row.games,
        wins=row.wins,
        answers=row.answers,
        percent=percent(row.win_rate if sort == "win_rate" else row.accuracy, lang),
    )
    return f"{line} {t('leaderboard.you', lang)}" if you else line


def render_leaderboard(
    board: Leaderboard,
    lang: str,
    viewer_id: int,
    *,
    shared: bool = False,
    archived: int | None = None,
) -> Board:
    """One page: what it counts, the top rows, the viewer's own place (private boards only)
    and ◀ ▶ buttons when there is more than one page. ``archived``: the season number the
    viewer asked for (kept in the buttons so paging stays in that season)."""
    lang = as_lang(lang)
    options = board_options(board, shared=shared, archived=archived, lang=lang)
    lines = [f"**{_what_line(board, lang)}** · {_scope_line(board, lang)}", ""]
    if board.own_only:
        lines.append(t("leaderboard.own_only", lang))
    elif board.rows:
        lines.extend(
            board_row(row, board.sort, lang, you=not shared and row.user_id == viewer_id)
            for row in board.rows
        )
    else:
        lines.append(t("leaderboard.empty", lang))
    embed = discord.Embed(
        title=t("leaderboard.title", lang),
        description=clip("\n".join(lines), DESCRIPTION_MAX),
        colour=BOARD_COLOUR,
    )
    if not shared:
        if board.own is not None:
            own = board_row(board.own, board.sort, lang)
        else:
            own = t("leaderboard.own.none", lang)
        embed.add_field(name=t("leaderboard.own.title", lang), value=own, inline=False)
    explain = t(
        f"leaderboard.sort.{board.sort}",
        lang,
        min_games=board.min_games,
        min_answers=board.min_answers,
    )
    footer = [explain, t("leaderboard.legend", lang)]
    if board.pages > 1 and not board.own_only:
        footer.append(t("leaderboard.page", lang, page=board.page + 1, pages=board.pages))
    embed.set_footer(text=clip("\n".join(footer), FOOTER_MAX))
    view = discord.ui.View(timeout=None)
    if board.pages > 1 and not board.own_only:
        arg = options.to_arg()
        previous = max(board.page - 1, 0)
        following = min(board.page + 1, board.pages - 1)
        view.add_item(
            discord.ui.Button(
                emoji="◀️",
                custom_id=build(Verb.PAGE, board.guild_id, previous, arg),
                disabled=board.page == 0,
                style=discord.ButtonStyle.secondary,
            )
        )
        view.add_item(
            discord.ui.Button(
                emoji="▶️",
                custom_id=build(Verb.PAGE, board.guild_id, following, arg),
                disabled=board.page >= board.pages - 1,
                style=discord.ButtonStyle.secondary,
            )
        )
    return Board(content=None, embed=embed, view=view)


# -- statistics ------------------------------------------------------------------------------


def _op_name(op: str, lang: Lang) -> str:
    if op in LEVEL_OPS:
        return t(f"level.{LEVEL_OPS.index(op) + 1}.name", lang)
    return t(f"records.op.{op}", lang)


def _tally_line(key: str, tally: OperationTally, lang: Lang, **values: object) -> str:
    return t(
        key,
        lang,
        percent=percent(tally.accuracy, lang),
        correct=tally.correct,
        answers=tally.answers,
        **values,
    )


def trend_text(deltas: Sequence[int]) -> str:
    """The last rating changes as arrows and their sum: ``▲▲▼ +21``."""
    if not deltas:
        return ""
    arrows = "".join("▲" if d > 0 else "▼" if d < 0 else "•" for d in deltas)
    total = sum(deltas)
    sign = "+" if total > 0 else "−" if total < 0 else "±"
    return f"{arrows} {sign}{abs(total)}"


def render_stats(stats: PlayerStats, lang: str, name: str | None = None) -> discord.Embed:
    """`/mattekrig stats`: games, rating and trend, correct answers per operation and level,
    best streak and the level to try next. ``name`` overrides the stored display name (the
    member as Discord shows them now)."""
    lang = as_lang(lang)
    who = display(stats.user_id, name or stats.display_name)
    embed = discord.Embed(title=clip(t("stats.title", lang, name=who), 256), colour=STATS_COLOUR)
    if not stats.games:
        embed.description = t("stats.nothing", lang)
        embed.add_field(name=t("stats.next.title", lang), value=_suggestion(stats, lang))
        return embed
    games = t(
        "stats.games.value",
        lang,
        games=stats.games,
        wins=stats.wins,
        draws=stats.draws,
        losses=stats.losses,
    )
    if stats.win_rate is not None:
        games += "\n" + t("stats.games.win_rate", lang, percent=percent(stats.win_rate, lang))
    embed.add_field(name=t("stats.games.title", lang), value=games, inline=False)

    ratings = [
        t(
            "stats.rating.line",
            lang,
            game=t(f"game.{line.game}.name", lang),
            scope=t("stats.scope.all" if line.scope == "all" else "stats.scope.season", lang),
            rating=line.rating,
            trend=trend_text(line.trend),
        ).rstrip()
        for line in stats.ratings
    ]
    embed.add_field(
        name=t("stats.rating.title", lang),
        value=clip("\n".join(ratings) or t("stats.rating.none", lang), FIELD_VALUE_MAX),
        inline=False,
    )

    if stats.answers.answers:
        accuracy = [_tally_line("stats.accuracy.all", stats.answers, lang)]
        accuracy.extend(
            _tally_line("stats.accuracy.op", tally, lang, name=_op_name(op, lang))
            for op, tally in stats.operations.items()
        )
    else:
        accuracy = [t("stats.accuracy.none", lang)]
    if stats.missed:
        accuracy.append(t("stats.accuracy.missed", lang, missed=stats.missed))
    embed.add_field(
        name=t("stats.accuracy.title", lang),
        value=clip("\n".join(accuracy), FIELD_VALUE_MAX),
        inline=False,
    )
    if stats.levels:
        levels = [
            _tally_line(
                "stats.level", tally, lang, level=level, name=t(f"level.{level}.name", lang)
            )
            for level, tally in stats.levels.items()
        ]
        embed.add_field(
            name=t("stats.levels.title", lang),
            value=clip("\n".join(levels), FIELD_VALUE_MAX),
            inline=False,
        )
    embed.add_field(
        name=t("stats.streak.title", lang),
        value=t("stats.streak.value", lang, best=stats.best_streak, current=stats.current_streak),
        inline=False,
    )
    embed.add_field(name=t("stats.next.title", lang), value=_suggestion(stats, lang), inline=False)
    embed.set_footer(text=t("stats.footer", lang))
    return embed


def _suggestion(stats: PlayerStats, lang: Lang) -> str:
    s = stats.suggestion
    return t(
        f"stats.next.{s.rule}",
        lang,
        level=s.level,
        name=t(f"level.{s.level}.name", lang),
        current=s.current if s.current is not None else s.level,
    )


# -- my data and forget me -------------------------------------------------------------------


def render_forget_confirm(user_id: int, lang: str) -> Board:
    """The one chance to change one's mind: a red button only the asker can press."""
    lang = as_lang(lang)
    embed = discord.Embed(
        title=t("privacy.forget.title", lang),
        description=t("privacy.forget.text", lang),
        colour=DANGER_COLOUR,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t("button.forget_yes", lang),
            custom_id=build(Verb.FORGET, user_id, None, "yes"),
            style=discord.ButtonStyle.danger,
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t("button.forget_no", lang),
            custom_id=build(Verb.FORGET, user_id, None, "no"),
            style=discord.ButtonStyle.secondary,
        )
    )
    return Board(content=None, embed=embed, view=view)


def render_done(text: str, *, colour: discord.Colour = ADMIN_COLOUR) -> Board:
    """A confirmation message after its button was pressed: the sentence, no buttons."""
    return Board(
        content=None,
        embed=discord.Embed(description=text, colour=colour),
        view=discord.ui.View(timeout=None),
    )


# -- the teacher's screens -------------------------------------------------------------------


def render_season_confirm(guild_id: int, current: Season | None, lang: str) -> Board:
    """What a new season does, with a red button (Manage Server only) and Cancel. The round
    slot of both ids holds the season running now (0: none), so a second press, or a press
    after someone else started a season, is refused instead of starting yet another."""
    lang = as_lang(lang)
    running = current.season if current is not None else 0
    if current is None:
        now = t("admin.season.none", lang)
        number = 1
    else:
        now = t("admin.season.current", lang, season=current.season, date=date(current.started_at))
        number = current.season + 1
    embed = discord.Embed(
        title=t("admin.season.title", lang),
        description=f"{now}\n\n{t('admin.season.confirm', lang)}",
        colour=DANGER_COLOUR,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t("button.season_new", lang, season=number),
            custom_id=build(Verb.SEASON, guild_id, running, "new"),
            style=discord.ButtonStyle.danger,
        )
    )
    view.add_item(
        discord.ui.Button(
            label=t("button.cancel", lang),
            custom_id=build(Verb.SEASON, guild_id, running, "no"),
            style=discord.ButtonStyle.secondary,
        )
    )
    return Board(content=None, embed=embed, view=view)


def render_settings(
    settings: GuildSettings, lang: str, server_lang: str, *, saved: bool = False
) -> discord.Embed:
    """The teacher's settings as they are now. ``server_lang``: the language Discord reports
    for the server (what "the server's language" means today)."""
    lang = as_lang(lang)
    if settings.channels:
        channels = ", ".join(f"<#{c}>" for c in settings.channels)
    else:
        channels = t("admin.settings.channels.all", lang)
    if settings.language is None:
        language = t(
            "admin.settings.language.server",
            lang,
            language=t(f"choice.language.{as_lang(server_lang)}", lang),
        )
    else:
        language = t(f"choice.language.{as_lang(settings.language)}", lang)
    language += "\n" + t("admin.settings.language.note", lang)
    embed = discord.Embed(
        title=t("admin.settings.title", lang),
        description=t("admin.settings.saved", lang) if saved else None,
        colour=ADMIN_COLOUR,
    )
    threads = "admin.settings.threads.on" if settings.threads else "admin.settings.threads.off"
    for name, value in (
        ("admin.settings.board", t(f"admin.settings.board.{settings.board}", lang)),
        ("admin.settings.channels", clip(channels, FIELD_VALUE_MAX)),
        ("admin.settings.language", language),
        ("admin.settings.threads", t(threads, lang)),
    ):
        embed.add_field(name=t(name, lang), value=value, inline=False)
    return embed
