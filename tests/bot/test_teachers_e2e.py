"""Issue 15: the teacher in charge, end to end through the fake Discord: class presets (locked
and not), shown in `/mattekrig help` and on the board's footer, an accommodation that
doubles one pupil's answer time and is invisible to the others, and a class session from
start to summary, assignments met and not, and the report in Discord and CSV; in nb (alice,
the teacher), sv (bob) and en (carol)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from bot.i18n import t
from bot.render.board import when
from engine.state import Phase
from tests.bot.e2e import (
    Table,
    assert_all_answered,
    assert_game_over,
    assert_refused,
    best_answer,
    seed_deals,
    strong_vs_weak,
)


def _texts(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(parts)


def _channel(table: Table, name: str) -> Any:
    world = table.fake.world
    existing = [c for c in world.channels.values() if c.name == name]
    return existing[0] if existing else world.add_channel(name)


async def _teacher(table: Table, command: str, **options: Any) -> Any:
    asked = await table.driver.slash("teacher", f"mattekrig admin {command}", **options)
    assert asked.answered and not asked.rejected, asked
    await table.settle()
    return asked


async def test_an_unlocked_preset_fills_what_pupils_leave_out(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 1: the server's preset gives level, answer time and time limit to every game a
    pupil starts without choosing them; a pupil's own choice still counts; the board's footer
    says "the teacher's setup" (in the server's language, as every board) and `/mattekrig
    help` lists it in each pupil's own language."""
    seed_deals(monkeypatch, 4)
    set_up = await _teacher(
        table,
        "preset",
        level=3,
        answer_seconds=30,
        minutes=5,
        answer_form="expression",
        server=True,
    )
    assert set_up.original is not None and set_up.original.ephemeral
    assert t("preset.server", "nb") in _texts(set_up.original)

    for who, locale, lang, channel in (
        ("alice", None, "nb", "matte-a"),
        ("bob", None, "sv", "matte-b"),
        ("carol", "en-US", "en", "matte-c"),
    ):
        gid, _ = await table.start_computer(who, channel=_channel(table, channel), locale=locale)
        settings = table.game(gid).settings
        assert settings.engine.level == 3 and settings.answer_seconds == 30
        assert settings.minutes == 5 and settings.preset
        assert settings.engine.answer_form.value == "expression"
        footer = table.board(gid).embeds[0]["footer"]["text"]
        assert t("board.preset", "nb") in footer  # a board speaks the server's language
        helped = await table.driver.slash(
            who, "mattekrig help", channel=_channel(table, channel), locale=locale
        )
        await table.settle()
        assert helped.original is not None and helped.original.ephemeral
        shown = _texts(helped.original)
        assert t("preset.help_title", lang) in shown
        assert t("preset.option.answer_seconds", lang) in shown

    # the pupil's own choice wins over an unlocked preset
    gid, _ = await table.start_computer("alice", level=5, channel=_channel(table, "matte-d"))
    assert table.game(gid).settings.engine.level == 5
    assert table.game(gid).settings.answer_seconds == 30
    assert_all_answered(table.fake)


async def test_a_locked_channel_preset_lets_pupils_choose_only_opponents(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 1, locked: any game option a pupil types is refused (in their language) and
    nothing starts; with only an opponent (here: the computer) the game gets the preset, the
    computer's strength too. A channel's own preset wins over the server's."""
    seed_deals(monkeypatch, 4)
    await _teacher(table, "preset", level=2, server=True)
    await _teacher(table, "preset", level=4, computer="hard", war_size=3, locked=True)
    for who, locale, lang in (("alice", None, "nb"), ("bob", None, "sv"), ("carol", "en-US", "en")):
        before = set(table.bot.games.games)
        asked = await table.driver.slash(
            who, "mattekrig start", level=2, computer="easy", thread=False, locale=locale
        )
        await assert_refused(table.fake, asked, "preset.locked", lang, option="level")
        assert set(table.bot.games.games) == before

    gid, _ = await table.start_computer("carol", locale="en-US")
    game = table.game(gid)
    assert game.settings.engine.level == 4 and game.settings.engine.war_size == 3
    assert [p.computer for p in game.players if p.computer] == ["hard"]
    assert t("board.preset", "nb") in table.board(gid).embeds[0]["footer"]["text"]
    # elsewhere the server's preset holds
    other = _channel(table, "matte-2")
    gid2, _ = await table.start_computer("bob", channel=other)
    assert table.game(gid2).settings.engine.level == 2
    # a pupil may not set presets
    refused = await table.driver.slash("alice", "mattekrig admin preset", level=1)
    await assert_refused(table.fake, refused, "admin.not_allowed", "nb")
    assert_all_answered(table.fake)


async def test_an_accommodation_doubles_one_pupils_answer_time_unseen_by_the_others(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 4: Bob gets twice the answer time. When the table's 20 seconds run out Alice's
    side times out and Bob may still answer; after 40 seconds his side times out too. The
    board only ever shows the table's deadline, and nothing Alice is sent names the
    accommodation; the teacher's confirmation is private."""
    seed_deals(monkeypatch, 4)
    bob = table.user("bob")
    set_it = await _teacher(table, "accommodation", pupil=bob, answer_time="x2")
    assert set_it.original is not None and set_it.original.ephemeral
    assert t("choice.accommodation.x2", "nb") in set_it.original.content
    refused = await table.driver.slash(
        "carol", "mattekrig admin accommodation", pupil=bob, answer_time="no_timer", locale="en-US"
    )
    await assert_refused(table.fake, refused, "admin.not_allowed", "en")

    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=1, answer_seconds=20)
    game = table.game(gid)
    bob_side = game.side_of(bob.id)
    alice_side = game.side_of(table.user("alice").id)
    assert bob_side is not None and alice_side is not None
    assert game.settings.answer_seconds == 20 and game.settings.side_seconds == {bob_side: 40}
    assert table.state(gid).phase is Phase.ANSWER
    opened = game.answer_opened_ms
    assert opened is not None
    table_deadline, bob_deadline = when(opened + 20_000), when(opened + 40_000)
    assert table_deadline in _texts(table.board(gid))

    table.bot.clock.advance(20)  # type: ignore[attr-defined]
    await table.bot.scheduler.run_due()
    await table.settle()
    assert table.state(gid).pending == (bob_side,)  # Alice timed out, Bob still has time
    assert bob_deadline not in _texts(table.board(gid))

    table.bot.clock.advance(20)  # type: ignore[attr-defined]
    await table.bot.scheduler.run_due()
    await table.settle()
    timed_out = [a for _, a, _ in await table.events(gid) if a.get("type") == "timeout"]
    assert [a["side"] for a in timed_out[:2]] == [alice_side, bob_side]

    for message in table.fake.world.messages.values():  # nothing public names it
        if not message.ephemeral:
            shown = _texts(message)
            assert bob_deadline not in shown
            for lang in ("nb", "sv", "en"):
                assert t("choice.accommodation.x2", lang) not in shown
    await table.bot.games.stop(gid, table.user("alice").id)
    assert_all_answered(table.fake)


async def test_a_class_session_ends_every_game_together_then_posts_its_summary(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 2: the teacher opens a 1-minute session; three pupils (nb, sv, en) start games
    against the computer in three channels, each getting the session's end as its time limit;
    when it runs out every game plays its last round (RULES §1.5: time up) and, once all are
    over and recorded, the summary is posted where the session was started: games played,
    the class's correct answers per operation, everyone's line; each pupil sees their own
    line privately under `/mattekrig stats`."""
    seed_deals(monkeypatch, 4)
    refused = await table.driver.slash("alice", "mattekrig admin session", minutes=1)
    await assert_refused(table.fake, refused, "admin.not_allowed", "nb")
    opened = await _teacher(table, "session", minutes=1)
    assert opened.original is not None and not opened.original.ephemeral
    again = await table.driver.slash("teacher", "mattekrig admin session", minutes=5)
    await assert_refused(table.fake, again, "session.running", "nb")
    session = await table.bot.storage.running_session(
        table.fake.guild.id,
        table.bot.clock.now_ms(),  # type: ignore[attr-defined]
    )
    assert session is not None

    games = []
    for who, locale, channel in (
        ("alice", None, "matte-a"),
        ("bob", None, "matte-b"),
        ("carol", "en-US", "matte-c"),
    ):
        gid, _ = await table.start_computer(
            who, channel=_channel(table, channel), locale=locale, game="regnekrig", level=1
        )
        assert table.game(gid).time_limit_due_ms == session.ends_at
        games.append((who, locale, gid))
    for who, locale, gid in games:  # a round each before the bell
        await table.answer(who, gid, best_answer(table.state(gid), 0), locale=locale)

    table.bot.clock.advance(60)  # type: ignore[attr-defined]
    await table.bot.scheduler.run_due()
    await table.settle()
    for _, _, gid in games:
        assert table.state(gid).time_up
    for _, _, gid in games:
        await table.play(gid, strong_vs_weak(weak_side=-1))
        await assert_game_over(table, gid, "nb", "time_up")  # boards: the server's language
    await table.bot.results.drain()
    await table.bot.scheduler.run_due()
    await table.settle()

    title = t("session.summary.title", "nb")
    posted = [
        m
        for m in table.fake.world.messages.values()
        if m.channel_id == table.fake.channel.id and m.embeds and m.embeds[0].get("title") == title
    ]
    assert len(posted) == 1
    shown = _texts(posted[0])
    assert t("session.summary.games", "nb", games=3) in shown
    assert t("level.1.name", "nb") in shown  # addition: the class's accuracy per operation
    for name in ("Alice", "Bob", "Carol"):
        assert name in shown
    for who, locale, lang in (("alice", None, "nb"), ("bob", None, "sv"), ("carol", "en-US", "en")):
        mine = await table.driver.slash(who, "mattekrig stats", locale=locale)
        await table.settle()
        assert mine.original is not None and mine.original.ephemeral  # each pupil's own line
        titles = [e.get("title") or "" for e in mine.original.embeds]
        assert any(t("session.mine.title", lang, date="").split("(")[0] in x for x in titles)
    await table.bot.scheduler.run_due()  # posted once
    assert (
        len(
            [
                m
                for m in table.fake.world.messages.values()
                if m.embeds and m.embeds[0].get("title") == title
            ]
        )
        == 1
    )
    assert_all_answered(table.fake)


async def test_an_assignment_met_and_not_met(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 3: "2 rounds at level 1 with at least 50 % best moves". Alice answers three
    rounds with the best move and meets it; Bob answers one and does not yet. Each sees their
    own progress (privately) in `/mattekrig stats`; the teacher sees who has met it."""
    seed_deals(monkeypatch, 4)
    set_it = await _teacher(table, "assignment", level=1, rounds=2, best_percent=50, days=7)
    assert set_it.original is not None and set_it.original.ephemeral
    assert t("assignment.met_by", "nb", names="–") in _texts(set_it.original)

    for who, locale, channel, answers in (
        ("alice", None, "matte-a", 3),
        ("bob", None, "matte-b", 1),
    ):
        gid, _ = await table.start_computer(
            who, channel=_channel(table, channel), locale=locale, game="regnekrig", level=1
        )
        for _ in range(answers):
            await table.answer(who, gid, best_answer(table.state(gid), 0), locale=locale)
        await table.bot.games.stop(gid, table.user(who).id)
    await table.bot.results.drain()

    for who, lang, met in (("alice", "nb", True), ("bob", "sv", False)):
        asked = await table.driver.slash(who, "mattekrig stats")
        await table.settle()
        assert asked.original is not None and asked.original.ephemeral
        shown = _texts(asked.original)
        assert t("assignment.mine.title", lang) in shown
        done = t("assignment.met", lang, rounds=2, goal=2, percent="X").split("2")[0]
        assert (done in shown) is met

    overview = await _teacher(table, "assignment")
    shown = _texts(overview.original)
    assert t("assignment.met_by", "nb", names="Alice") in shown
    assert "Bob (" in shown.split(t("assignment.met_by", "nb", names="Alice"))[1]
    assert_all_answered(table.fake)


async def test_the_report_in_discord_and_csv_from_games_with_known_answers(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 5: Alice answers six level-1 rounds, the first two right and the best move, the
    other four wrong (a value no two cards make); the report's CSV line for her addition says
    6 answers, 33,3 % correct and best, and that she needs help; the overview in Discord names
    her; dates outside her games give an empty report; a date it cannot read is refused."""
    seed_deals(monkeypatch, 4)
    gid, _ = await table.start_computer("alice", game="regnekrig", level=1)
    for n in range(6):
        text = best_answer(table.state(gid), 0) if n < 2 else "99"
        await table.answer("alice", gid, text)
    await table.bot.games.stop(gid, table.user("alice").id)
    await table.bot.results.drain()

    asked = await _teacher(table, "report")
    reply = asked.original
    assert reply is not None and reply.ephemeral
    _, detail = reply.attachments  # the per-pupil summary, and this one
    text = detail.data.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))
    assert rows[0][:4] == ["Elev", "Nivå", "Regneart", "Svar"]
    (alice,) = [r for r in rows[1:] if r[0] == "Alice"]
    assert alice[1:6] == ["1", t("level.1.name", "nb"), "6", "33,3", "33,3"]
    assert alice[-1] == "ja"
    shown = _texts(reply)
    assert (
        t("report.overview.line", "nb", count=1, level=1, op=t("level.1.name", "nb"), names="Alice")
        in shown
    )

    for who, locale, lang in (("teacher", "en-US", "en"), ("teacher", "sv-SE", "sv")):
        english = await table.driver.slash(
            who,
            "mattekrig admin report",
            locale=locale,
            options={"from": "2020-01-01", "to": "2020-01-31"},
        )
        await table.settle()
        assert english.original is not None
        assert t("report.overview.none", lang) in _texts(english.original)
        bad = await table.driver.slash(
            who, "mattekrig admin report", locale=locale, options={"from": "yesterday"}
        )
        await assert_refused(table.fake, bad, "report.bad_date", lang, option="from")
    assert_all_answered(table.fake)
