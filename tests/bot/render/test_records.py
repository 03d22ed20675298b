"""Leaderboards, statistics and the privacy and teacher screens: every one within Discord's
limits in nb, sv and en (the widest names, the longest lists), every custom_id parses back to
what drew it, and every catalogue key the record commands use exists."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot.custom_ids import MAX_LENGTH, Verb, parse
from bot.render.admin import render_season_confirm, render_settings
from bot.render.board import Board
from bot.render.leaderboard import LeaderboardOptions, render_leaderboard
from bot.render.privacy import render_forget_confirm
from bot.render.records import render_done
from bot.render.stats import render_stats, trend_text
from bot.services.figures import (
    GAMES,
    PERIODS,
    Leaderboard,
    LevelSuggestion,
    Period,
    PlayerStats,
)
from classroom.i18n import LANGS, catalogue, is_key, t
from storage import (
    BOARD_SORTS,
    BOARD_VISIBILITIES,
    BoardRow,
    BoardSort,
    GuildSettings,
    OperationTally,
    RatingLine,
    Season,
)
from tests.bot.render.support import custom_ids, limit_problems

ROOT = Path(__file__).resolve().parents[3]
GUILD = 987_654_321_098_765_432  # snowflake-sized: the longest ids
USER = 123_456_789_012_345_678
LONG = "W" * 32
T0 = 1_767_225_600_000
RUNNING = Season(GUILD, 12, T0, None)


def rows(n: int, *, start: int = 1, long: bool = True) -> tuple[BoardRow, ...]:
    return tuple(
        BoardRow(
            rank=start + i,
            user_id=USER + i,
            display_name=(LONG[:-3] + f"{i:03d}") if long else f"*Pupil* {i} @everyone",
            games=9_999,
            wins=9_999,
            draws=0,
            answers=99_999,
            correct=88_888,
            rating=2_999,
            rated_games=9_999,
        )
        for i in range(n)
    )


def leaderboard(
    *,
    sort: str = "rating",
    period: str = "season",
    page: int = 0,
    pages: int = 3,
    n: int = 10,
    own: bool = True,
    visibility: str = "visible",
    season: Season | None = RUNNING,
    game: str | None = "regnekrig",
    level: int | None = 7,
) -> Leaderboard:
    shown = rows(n, start=page * 10 + 1)
    return Leaderboard(
        guild_id=GUILD,
        game=game,
        level=level,
        period=period,  # type: ignore[arg-type]
        sort=sort,  # type: ignore[arg-type]
        page=page,
        pages=pages,
        total=pages * 10,
        rows=() if visibility == "own_rank" else shown,
        own=rows(1, start=999_999)[0] if own else None,
        visibility=visibility,  # type: ignore[arg-type]
        season=season,
        week_start_ms=T0 if period == "week" else None,
    )


def _no_problems(board: Board) -> None:
    assert limit_problems(board) == {}
    ids = custom_ids(board.view)
    assert len(ids) == len(set(ids))
    for custom_id in ids:
        assert len(custom_id) <= MAX_LENGTH
        cid = parse(custom_id)
        assert cid is not None and cid.to_custom_id() == custom_id


# -- leaderboards --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("sort", BOARD_SORTS)
@pytest.mark.parametrize("period", PERIODS)
def test_every_board_fits_in_every_language(lang: str, sort: BoardSort, period: Period) -> None:
    for shared, page in itertools.product((False, True), (0, 1, 2)):
        board = leaderboard(sort=sort, period=period, page=page)
        drawn = render_leaderboard(board, lang, USER + 3, shared=shared, archived=None)
        _no_problems(drawn)
        ids = custom_ids(drawn.view)
        assert len(ids) == 2  # ◀ ▶
        for custom_id in ids:
            cid = parse(custom_id)
            assert cid is not None and cid.verb is Verb.PAGE and cid.guild_id == GUILD
            options = LeaderboardOptions.from_arg(cid.arg)
            assert options == LeaderboardOptions(
                "regnekrig",
                7,
                period,
                sort,
                None,
                shared,
                lang if shared else None,
            )
        pressed = [parse(c).number for c in ids]  # type: ignore[union-attr]
        assert pressed == [max(page - 1, 0), min(page + 1, 2)]
        buttons = [c for row in drawn.view.to_components() for c in row["components"]]
        assert [b.get("disabled", False) for b in buttons] == [page == 0, page == 2]
        marked = t("leaderboard.you", lang) in (drawn.embed.description or "")
        assert marked is not shared  # a shared board marks nobody
        own_field = [f for f in drawn.embed.fields if f.name == t("leaderboard.own.title", lang)]
        assert bool(own_field) is not shared


@pytest.mark.parametrize("lang", LANGS)
def test_board_shapes(lang: str) -> None:
    one_page = render_leaderboard(leaderboard(pages=1), lang, USER)
    assert custom_ids(one_page.view) == []  # nothing to page
    empty = render_leaderboard(leaderboard(n=0, pages=1, own=False), lang, USER)
    assert t("leaderboard.empty", lang) in (empty.embed.description or "")
    assert empty.embed.fields[0].value == t("leaderboard.own.none", lang)
    own_only = render_leaderboard(leaderboard(visibility="own_rank", pages=1), lang, USER)
    assert t("leaderboard.own_only", lang) in (own_only.embed.description or "")
    assert custom_ids(own_only.view) == []
    ended = Season(GUILD, 3, T0, T0 + 86_400_000)
    archived = render_leaderboard(leaderboard(season=ended), lang, USER, archived=3)
    assert "<t:1767225600:D>" in (archived.embed.description or "")
    options = LeaderboardOptions.from_arg(parse(custom_ids(archived.view)[0]).arg)  # type: ignore[union-attr]
    assert options is not None and options.season == 3 and options.period == "season"
    for board in (one_page, empty, own_only, archived):
        _no_problems(board)


def test_names_are_escaped_and_never_ping() -> None:
    board = replace(leaderboard(), rows=rows(3, long=False))
    text = render_leaderboard(board, "en", USER).embed.description or ""
    assert "\\*Pupil\\*" in text and "@\u200beveryone" in text
    nameless = replace(board, rows=(BoardRow(1, USER, None, games=1, wins=1, rating=1016),))
    assert f"<@{USER}>" in (render_leaderboard(nameless, "nb", 1).embed.description or "")


def test_leaderboard_options_round_trip() -> None:
    for game, level, period, sort, season, lang in itertools.product(
        (None, *GAMES), (None, 1, 7), PERIODS, BOARD_SORTS, (None, 1, 999_999), (None, *LANGS)
    ):
        if season is not None and period != "season":
            continue
        options = LeaderboardOptions(game, level, period, sort, season, lang is not None, lang)
        arg = options.to_arg()
        assert re.fullmatch(r"[A-Za-z0-9_.,+\-]+", arg) and len(arg) <= 40
        assert LeaderboardOptions.from_arg(arg) == options
    for bad in (
        "",
        "x",
        "chess.0.all.wins.p",
        "any.8.all.wins.p",
        "any.0.s0.wins.p",
        "any.0.all.x.p",
    ):
        assert LeaderboardOptions.from_arg(bad) is None


# -- statistics ------------------------------------------------------------------------------

OPS = ("add", "multiply", "divide", "subtract", "target", "square", "root")


def full_stats() -> PlayerStats:
    tally = OperationTally("all", 99_999, 88_888, 77_777, 10**9, 999)
    return PlayerStats(
        guild_id=GUILD,
        user_id=USER,
        display_name=LONG,
        games=9_999,
        finished=9_000,
        wins=5_000,
        draws=1_000,
        losses=3_000,
        rated_games=8_000,
        answers=tally,
        missed=999,
        exact_hits=99,
        rounds_won=9_999,
        wars_won=999,
        operations={op: OperationTally(op, 99_999, 88_888, 77_777, 10**9) for op in OPS},
        levels={n: OperationTally(f"level{n}", 99_999, 88_888, 7, 10**9) for n in range(1, 8)},
        ratings=tuple(
            RatingLine(game, scope, 2_999, 9_999, tuple([-32, 16, 0] * 4)[:10])
            for game in GAMES
            for scope in ("s12", "all")
        ),
        best_streak=99,
        current_streak=3,
        suggestion=LevelSuggestion(4, 3, "next"),
    )


@pytest.mark.parametrize("lang", LANGS)
def test_stats_fit_and_say_everything(lang: str) -> None:
    stats = full_stats()
    embed = render_stats(stats, lang)
    _no_problems(Board(None, embed, _empty_view()))
    text = "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)
    for op in ("target", "square", "root"):
        assert t(f"records.op.{op}", lang) in text
    for n in (1, 7):
        assert t(f"level.{n}.name", lang) in text
    assert t("stats.next.next", lang, current=3, level=4, name=t("level.4.name", lang)) in text
    # Best moves of the rounds asked (77,777 of 100,998), not legal answers (88 %).
    assert "▼▲•" in text and t("records.percent", lang, percent=77) in text
    assert t("stats.tally.missed", lang, missed=999) in text
    for rule in ("start", "stay", "previous"):
        other = replace(stats, suggestion=LevelSuggestion(2, 3, rule))
        advice = render_stats(other, lang).fields[-1].value
        assert advice is not None and advice.startswith(
            t(f"stats.next.{rule}", lang, level=2, current=3, name=t("level.2.name", lang))[:8]
        )


@pytest.mark.parametrize("lang", LANGS)
def test_a_season_rating_equal_to_all_time_is_shown_once(lang: str) -> None:
    """In the first season the season's rating is the all-time one; the
    same number twice only confuses."""
    same = (RatingLine("regnekrig", "s1", 1016, 1), RatingLine("regnekrig", "all", 1016, 1))
    differs = (RatingLine("regnekrig", "s2", 1000, 0), RatingLine("regnekrig", "all", 1016, 1))
    for ratings, lines in ((same, 1), (differs, 2)):
        embed = render_stats(replace(full_stats(), ratings=ratings), lang)
        field = next(f for f in embed.fields if f.name == t("stats.rating.title", lang))
        assert len((field.value or "").splitlines()) == lines


@pytest.mark.parametrize("lang", LANGS)
def test_stats_for_a_new_pupil(lang: str) -> None:
    empty = PlayerStats(
        guild_id=GUILD,
        user_id=USER,
        display_name=None,
        games=0,
        finished=0,
        wins=0,
        draws=0,
        losses=0,
        rated_games=0,
        answers=OperationTally("all"),
        missed=0,
        exact_hits=0,
        rounds_won=0,
        wars_won=0,
    )
    embed = render_stats(empty, lang, "Ada")
    assert embed.description == t("stats.nothing", lang)
    assert embed.title == t("stats.title", lang, name="Ada")
    _no_problems(Board(None, embed, _empty_view()))


def test_trend() -> None:
    assert trend_text(()) == ""
    assert trend_text((16, -8, 0, 16)) == "▲▼•▲ +24"
    assert trend_text((-16, -8)) == "▼▼ −24"
    assert trend_text((16, -16)) == "▲▼ ±0"


# -- privacy and teacher screens --------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_confirmations_fit_and_carry_their_ids(lang: str) -> None:
    forget = render_forget_confirm(USER, lang)
    _no_problems(forget)
    assert custom_ids(forget.view) == [f"mk:forget:u{USER}::yes", f"mk:forget:u{USER}::no"]
    for current, round_ in ((None, 0), (Season(GUILD, 41, T0), 41)):
        season = render_season_confirm(GUILD, current, lang)
        _no_problems(season)
        assert custom_ids(season.view) == [
            f"mk:season:g{GUILD}:{round_}:new",
            f"mk:season:g{GUILD}:{round_}:no",
        ]
        label = season.view.to_components()[0]["components"][0]["label"]
        assert label == t("button.season_new", lang, season=round_ + 1)
    _no_problems(render_done(t("privacy.forget.done", lang)))


@pytest.mark.parametrize("lang", LANGS)
def test_settings_fit(lang: str) -> None:
    for board, language, threads in itertools.product(
        BOARD_VISIBILITIES, (None, "nb", "sv", "en"), (True, False)
    ):
        settings = GuildSettings(
            GUILD,
            board=board,
            channels=tuple(GUILD + i for i in range(60)),
            language=language,
            threads=threads,
        )
        embed = render_settings(settings, lang, "sv-SE", saved=True)
        _no_problems(Board(None, embed, _empty_view()))
        text = "\n".join(f.value or "" for f in embed.fields)
        assert t(f"admin.settings.board.{board}", lang) in text
    plain = render_settings(GuildSettings(GUILD), lang, "no")
    values = [f.value or "" for f in plain.fields]
    assert values[1] == t("admin.settings.channels.all", lang)
    assert t("choice.language.nb", lang) in values[2]
    assert plain.description is None


def _empty_view() -> discord.ui.View:
    return discord.ui.View(timeout=None)


# -- catalogue keys ----------------------------------------------------------------------------

SOURCES = (
    "bot/render/records.py",
    "bot/ui/guild.py",
    *(f"bot/render/{name}.py" for name in ("leaderboard", "stats", "privacy", "admin")),
    *(f"bot/ui/{name}.py" for name in ("leaderboard", "privacy", "admin")),
    *(f"cogs/{name}.py" for name in ("leaderboard", "stats", "privacy", "admin")),
)


def test_every_literal_key_of_the_record_commands_exists() -> None:
    text = "\n".join((ROOT / p).read_text("utf-8") for p in SOURCES)
    keys = set(re.findall(r'\b(?:t|ls|UserFacingError)\(\s*"([a-z0-9_.]+)"', text))
    assert len(keys) > 30
    assert sorted(k for k in keys if k not in catalogue("en")) == []


def test_every_key_the_services_raise_exists() -> None:
    text = "\n".join(p.read_text("utf-8") for p in (ROOT / "bot/services").glob("*.py"))
    keys = set(re.findall(r'UserFacingError\(\s*"([a-z0-9_.]+)"', text))
    assert {
        "board.hidden",
        "stats.private",
        "admin.not_allowed",
        "privacy.forget.live_game",
    } <= keys
    assert sorted(k for k in keys if not is_key(k)) == []  # the key tests hold every language
