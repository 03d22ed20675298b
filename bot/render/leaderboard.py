"""The leaderboard, rendered: one page with its rows, the viewer's own place and ◀ ▶ buttons.

A leaderboard's paging buttons carry the whole leaderboard in their custom_id
(``mk:page:g<guild>:<page>:<arg>``), so a press works on any message, after a restart too:
`LeaderboardOptions` is that ``arg`` (game, level, period or archived season, sort, and whether
the message is shared), written and read back here and nowhere else. The command is
`cogs/leaderboard.py`, the buttons `bot/ui/leaderboard.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord

from bot.custom_ids import Verb
from bot.render.board import clip
from bot.render.panel import Panel
from bot.render.records import (
    DESCRIPTION_MAX,
    FOOTER_MAX,
    LEADERBOARD_COLOUR,
    date,
    display,
    page_turner,
    percent,
)
from bot.services.figures import GAMES, PERIODS, SORTS, Leaderboard, Period
from classroom.i18n import LANGS, Lang, t
from classroom.text.locale import as_lang
from storage.records import BoardRow, BoardSort

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}

_ARG = re.compile(
    r"(?P<game>any|[a-z]+)\.(?P<level>[0-7])\."
    r"(?:(?P<period>[a-z]+)|s(?P<season>[1-9][0-9]{0,5}))"
    rf"\.(?P<sort>[a-z_]+)\.(?P<view>p|{'|'.join(LANGS)})"
)


@dataclass(frozen=True, slots=True)
class LeaderboardOptions:
    """The options of one leaderboard message: everything but the page and the viewer.

    ``season`` is an archived season's number (then ``period`` is "season"). ``shared``: the
    message is public, so it shows no "your place" line and a press edits it for everyone, in
    ``lang``, the language it was shared in (a public leaderboard does not switch language with
    whoever pages it; a private one is always in its owner's).
    """

    game: str | None = None
    level: int | None = None
    period: Period = "season"
    sort: BoardSort | None = None  # None: the leaderboard the teacher made public
    season: int | None = None
    shared: bool = False
    lang: str | None = None

    def to_arg(self) -> str:
        """``regnekrig.3.week.wins.p`` (private) or ``any.0.s2.rating.nb`` (shared in nb):
        letters, digits, dots and underscores only (the arg grammar)."""
        period = f"s{self.season}" if self.season is not None else self.period
        view = as_lang(self.lang or "en") if self.shared else "p"
        sort = self.sort or "public"
        return f"{self.game or 'any'}.{self.level or 0}.{period}.{sort}.{view}"

    @classmethod
    def from_arg(cls, arg: str | None) -> LeaderboardOptions | None:
        """The options in ``arg``, or None when it is not one `to_arg` could have written."""
        match = _ARG.fullmatch(arg or "")
        if match is None:
            return None
        game = None if match["game"] == "any" else match["game"]
        season = int(match["season"]) if match["season"] else None
        period = "season" if season is not None else match["period"]
        sort: str = match["sort"]
        if (game is not None and game not in GAMES) or period not in PERIODS:
            return None
        if sort not in SORTS and sort != "public":
            return None
        return cls(
            game=game,
            level=int(match["level"]) or None,
            period=period,
            sort=next((s for s in SORTS if s == sort), None),
            season=season,
            shared=match["view"] != "p",
            lang=None if match["view"] == "p" else match["view"],
        )


def _rank(rank: int) -> str:
    return MEDALS.get(rank, f"**{rank}.**")


def _game_name(game: str | None, lang: Lang) -> str:
    return t(f"game.{game}.name", lang) if game else t("leaderboard.all_games", lang)


def leaderboard_options(
    leaderboard: Leaderboard, *, shared: bool, archived: int | None, lang: Lang = "en"
) -> LeaderboardOptions:
    """The options a page was drawn with (for its buttons)."""
    return LeaderboardOptions(
        game=leaderboard.game,
        level=leaderboard.level,
        period=leaderboard.period,
        sort=leaderboard.sort,
        season=archived,
        shared=shared,
        lang=lang if shared else None,
    )


def _scope_line(leaderboard: Leaderboard, lang: Lang) -> str:
    if leaderboard.period == "week" and leaderboard.week_start_ms is not None:
        return t("leaderboard.period.week", lang, date=date(leaderboard.week_start_ms))
    if leaderboard.period == "all":
        return t("leaderboard.period.all", lang)
    season = leaderboard.season
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


def _what_line(leaderboard: Leaderboard, lang: Lang) -> str:
    game = _game_name(leaderboard.game, lang)
    if leaderboard.level is not None:
        name = t(f"level.{leaderboard.level}.name", lang)
        return t("leaderboard.game_level", lang, game=game, level=leaderboard.level, name=name)
    return game


def leaderboard_row(row: BoardRow, sort: BoardSort, lang: Lang, *, you: bool = False) -> str:
    """One line of a leaderboard: rank, name and the number it is sorted by."""
    points = round((row.improvement or 0) * 100)
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
        points=f"{points:+d}",
        count=abs(points) if sort == "improved" else row.answers,  # what the row's noun counts
    )
    return f"{line} {t('leaderboard.you', lang)}" if you else line


def render_leaderboard(
    leaderboard: Leaderboard,
    lang: str,
    viewer_id: int,
    *,
    shared: bool = False,
    archived: int | None = None,
) -> Panel:
    """One page: what it counts, the top rows, the viewer's own place (private leaderboards only)
    and ◀ ▶ buttons when there is more than one page. ``archived``: the season number the
    viewer asked for (kept in the buttons so paging stays in that season)."""
    lang = as_lang(lang)
    options = leaderboard_options(leaderboard, shared=shared, archived=archived, lang=lang)
    lines = [f"**{_what_line(leaderboard, lang)}** · {_scope_line(leaderboard, lang)}", ""]
    if leaderboard.own_only:
        lines.append(t("leaderboard.own_only", lang))
    elif leaderboard.rows:
        lines.extend(
            leaderboard_row(
                row, leaderboard.sort, lang, you=not shared and row.user_id == viewer_id
            )
            for row in leaderboard.rows
        )
    else:
        lines.append(t("leaderboard.empty", lang))
    embed = discord.Embed(
        title=t("leaderboard.title", lang),
        description=clip("\n".join(lines), DESCRIPTION_MAX),
        colour=LEADERBOARD_COLOUR,
    )
    if not shared:
        if leaderboard.own is not None:
            own = leaderboard_row(leaderboard.own, leaderboard.sort, lang)
        else:
            own = t("leaderboard.own.none", lang)
        embed.add_field(name=t("leaderboard.own.title", lang), value=own, inline=False)
    explain = t(
        f"leaderboard.sort.{leaderboard.sort}",
        lang,
        count=leaderboard.min_games if leaderboard.sort == "win_rate" else leaderboard.min_answers,
    )
    footer = [explain, t("leaderboard.legend", lang)]
    if leaderboard.pages > 1 and not leaderboard.own_only:
        footer.append(
            t("leaderboard.page", lang, page=leaderboard.page + 1, pages=leaderboard.pages)
        )
    embed.set_footer(text=clip("\n".join(footer), FOOTER_MAX))
    if leaderboard.pages > 1 and not leaderboard.own_only:
        view = page_turner(
            Verb.PAGE, leaderboard.guild_id, leaderboard.page, leaderboard.pages, options.to_arg()
        )
    else:
        view = discord.ui.View(timeout=None)
    return Panel(content=None, embed=embed, view=view)
