"""The teacher in charge, end to end through the fake Discord: class presets (locked
and not, and named ones picked by name), an accommodation that doubles one pupil's answer
time and is invisible to the others, a class session from start to summary with several
games ending together (the class's mistakes in words, each pupil's own line privately),
assignments met and not, the report in Discord and CSV against a scripted game whose figures
are worked out by hand, and the gentle leaderboard's defaults.

Every test runs in each of the server's languages (nb, nn, sv, en): the teacher's setting, the
server's Discord locale and every member's own Discord language are set to it, so every text
the bot sends is in it, and every assertion reads its text from the catalogue with
``t(key, lang, …)``."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from bot.custom_ids import Verb, build
from bot.render.board import when
from classroom.i18n import Lang, option_name, t
from engine.regnekrig import ANSWER
from engine.state import Phase
from storage import OperationTally
from tests.bot.class_results import record_duels
from tests.bot.e2e import (
    Table,
    assert_all_answered,
    assert_game_over,
    assert_refused,
    best_answer,
    message_text,
    seed_deals,
    strong_vs_weak,
)

# our language -> its Discord locale: nynorsk has none, so a nynorsk class is the teacher's
# setting over Discord's Norwegian (bokmål) everywhere else
LANGS = {"nb": "no", "nn": "no", "sv": "sv-SE", "en": "en-US"}
# RULES §2.2: a wrong value is diagnosed (engine/diagnosis.py): at level 1, "99" is no sign
# slip and no other operation of two cards, so it is an arithmetic slip (regnefeil), the mistake
# kind counted for it.
WRONG = "99"
WRONG_KIND = "arithmetic_slip"


@pytest.fixture(params=sorted(LANGS))
async def lang(request: pytest.FixtureRequest, table: Table) -> Lang:
    """The server's language: the teacher's setting, the server's locale and every member's."""
    chosen: Lang = request.param
    world = table.fake.world
    table.fake.guild.preferred_locale = LANGS[chosen]
    for user in world.users.values():
        user.locale = LANGS[chosen]
    await table.bot.admin.update_settings(table.fake.guild.id, manager=True, language=chosen)
    return chosen


_texts = message_text  # everything a message says in words


def _channel(table: Table, name: str) -> Any:
    world = table.fake.world
    existing = [c for c in world.channels.values() if c.name == name]
    return existing[0] if existing else world.add_channel(name)


def _op_words(lang: Lang, level: int = 1) -> str:
    """An operation in running text, as `mistake.in_op` takes it ("addisjon")."""
    name = t(f"level.{level}.name", lang)
    return name[:1].lower() + name[1:]


def _mistake_in(lang: Lang, code: str = WRONG_KIND) -> str:
    return t("mistake.in_op", lang, kind=t(f"mistake.{code}", lang), op=_op_words(lang))


async def _teacher(table: Table, command: str, **options: Any) -> Any:
    asked = await table.driver.slash("teacher", f"mattekrig admin {command}", **options)
    assert asked.answered and not asked.rejected, asked
    await table.settle()
    return asked


# -- class presets --------------------------------------------------------------------------------


async def test_an_unlocked_preset_fills_what_pupils_leave_out(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's preset gives level, answer time and time limit to every game a
    pupil starts without choosing them; a pupil's own choice still counts; the board's footer
    says "the teacher's setup" and `/mattekrig help` lists it."""
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
    assert t("preset.server", lang) in _texts(set_up.original)

    for who, channel in (("alice", "matte-a"), ("bob", "matte-b"), ("carol", "matte-c")):
        gid, _ = await table.start_computer(who, channel=_channel(table, channel))
        settings = table.game(gid).settings
        assert settings.engine.level == 3 and settings.answer_seconds == 30
        assert settings.minutes == 5 and settings.preset
        assert settings.engine.answer_form.value == "expression"
        assert t("board.preset", lang) in table.board(gid).embeds[0]["footer"]["text"]
        helped = await table.driver.slash(who, "mattekrig help", channel=_channel(table, channel))
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
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A locked preset: any game option a pupil types is refused and nothing starts; with only
    an opponent (here: the computer) the game gets the preset, the computer's strength too. A
    channel's own preset wins over the server's; a pupil may not set presets."""
    seed_deals(monkeypatch, 4)
    await _teacher(table, "preset", level=2, server=True)
    await _teacher(table, "preset", level=4, computer="hard", war_size=3, locked=True)
    for who in ("alice", "bob", "carol"):
        before = set(table.bot.games.games)
        asked = await table.driver.slash(
            who, "mattekrig start", level=2, computer="easy", thread=False
        )
        await assert_refused(
            table.fake, asked, "preset.locked", lang, option=option_name("level", lang)
        )
        assert set(table.bot.games.games) == before

    gid, _ = await table.start_computer("carol")
    game = table.game(gid)
    assert game.settings.engine.level == 4 and game.settings.engine.war_size == 3
    assert [p.computer for p in game.players if p.computer] == ["hard"]
    assert t("board.preset", lang) in table.board(gid).embeds[0]["footer"]["text"]
    gid2, _ = await table.start_computer("bob", channel=_channel(table, "matte-2"))
    assert table.game(gid2).settings.engine.level == 2  # elsewhere the server's preset holds
    refused = await table.driver.slash("alice", "mattekrig admin preset", level=1)
    await assert_refused(table.fake, refused, "admin.not_allowed", lang)
    assert_all_answered(table.fake)


async def test_named_presets_saved_picked_by_name_for_a_channel_and_a_session_then_deleted(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session's ``[preset]``: the teacher saves "Brøk uke 12" (level 3, locked) and
    "Addisjon" (level 1); the autocomplete offers them by what is typed (a pupil is offered
    none); a channel gets a copy of one by name; a class session opened with the other gives
    it to every game started while it runs, in any channel, locked as saved; a name nobody
    saved is refused; a deleted preset is gone from the list and the autocomplete."""
    seed_deals(monkeypatch, 4)
    saved = await _teacher(table, "preset", level=3, locked=True, save_as="Brøk uke 12")
    assert t("preset.saved_named", lang, name="Brøk uke 12") in _texts(saved.original)
    await _teacher(table, "preset", level=1, minutes=10, save_as="Addisjon")
    empty = await table.driver.slash("teacher", "mattekrig admin preset", save_as="Tom")
    await assert_refused(table.fake, empty, "preset.save_empty", lang)
    listed = await _teacher(table, "preset")
    shown = _texts(listed.original)
    assert t("preset.named", lang, name="Brøk uke 12") in shown
    assert t("preset.named", lang, name="Addisjon") in shown

    offered = await table.driver.autocomplete("teacher", "mattekrig admin session", "preset", "uke")
    assert [c["value"] for c in offered] == ["Brøk uke 12"]
    for option in ("name", "delete"):
        offered = await table.driver.autocomplete("teacher", "mattekrig admin preset", option, "")
        assert [c["value"] for c in offered] == ["Addisjon", "Brøk uke 12"]
    assert await table.driver.autocomplete("alice", "mattekrig admin session", "preset", "") == []

    # a channel's preset from a named one: a copy, unlocked as saved
    await _teacher(table, "preset", name="addisjon", channel=_channel(table, "matte-a"))
    gid, _ = await table.start_computer("alice", channel=_channel(table, "matte-a"))
    assert table.game(gid).settings.engine.level == 1 and table.game(gid).settings.minutes == 10
    await table.bot.games.stop(gid, table.user("alice").id)

    unknown = await table.driver.slash("teacher", "mattekrig admin session", minutes=5, preset="x")
    await assert_refused(table.fake, unknown, "preset.unknown", lang, name="x")
    opened = await _teacher(table, "session", minutes=5, preset="brøk UKE 12")
    assert t("session.started_preset", lang, name="Brøk uke 12") in _texts(opened.original)
    for who, channel in (("bob", "matte-b"), ("carol", "matte-a")):  # even over a channel's
        asked = await table.driver.slash(
            who, "mattekrig start", level=2, computer="easy", channel=_channel(table, channel)
        )
        await assert_refused(
            table.fake, asked, "preset.locked", lang, option=option_name("level", lang)
        )
        gid, _ = await table.start_computer(who, channel=_channel(table, channel))
        assert table.game(gid).settings.engine.level == 3 and table.game(gid).settings.preset
    helped = await table.driver.slash("bob", "mattekrig help", channel=_channel(table, "matte-b"))
    await table.settle()
    assert t("preset.session_named", lang, name="Brøk uke 12") in _texts(helped.original)

    deleted = await _teacher(table, "preset", delete="Brøk uke 12")
    assert t("preset.deleted", lang, name="Brøk uke 12") in _texts(deleted.original)
    assert t("preset.named", lang, name="Brøk uke 12") not in _texts(deleted.original)
    offered = await table.driver.autocomplete("teacher", "mattekrig admin session", "preset", "")
    assert [c["value"] for c in offered] == ["Addisjon"]
    # the running session keeps its copy
    gid, _ = await table.start_computer("alice", channel=_channel(table, "matte-c"))
    assert table.game(gid).settings.engine.level == 3
    assert_all_answered(table.fake)


# -- accommodations -------------------------------------------------------------------------------


async def test_an_accommodation_doubles_one_pupils_answer_time_unseen_by_the_others(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob gets twice the answer time. When the table's 20 seconds run out Alice's
    side times out and Bob may still answer; after 40 seconds his side times out too. The
    board only ever shows the table's deadline, and no public message names the
    accommodation; the teacher's confirmation is private."""
    seed_deals(monkeypatch, 4)
    bob = table.user("bob")
    set_it = await _teacher(table, "accommodation", pupil=bob, answer_time="x2")
    assert set_it.original is not None and set_it.original.ephemeral
    assert t("choice.accommodation.x2", lang) in set_it.original.content
    refused = await table.driver.slash(
        "carol", "mattekrig admin accommodation", pupil=bob, answer_time="no_timer"
    )
    await assert_refused(table.fake, refused, "admin.not_allowed", lang)

    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=1, answer_seconds=20)
    game = table.game(gid)
    bob_side = game.side_of(bob.id)
    alice_side = game.side_of(table.user("alice").id)
    assert bob_side is not None and alice_side is not None
    assert game.settings.answer_seconds == 20 and game.settings.side_seconds == {bob_side: 40}
    assert table.state(gid).phase is ANSWER
    opened = game.answer_opened_ms
    assert opened is not None
    table_deadline, bob_deadline = when(opened + 20_000), when(opened + 40_000)
    assert table_deadline in _texts(table.board(gid))

    table.clock.advance(20)
    await table.bot.scheduler.run_due()
    await table.settle()
    assert table.state(gid).pending == (bob_side,)  # Alice timed out, Bob still has time
    assert bob_deadline not in _texts(table.board(gid))

    table.clock.advance(20)
    await table.bot.scheduler.run_due()
    await table.settle()
    timed_out = [a for _, a, _ in await table.events(gid) if a.get("type") == "timeout"]
    assert [a["side"] for a in timed_out[:2]] == [alice_side, bob_side]

    for message in table.fake.world.messages.values():  # nothing public names it
        if not message.ephemeral:
            shown = _texts(message)
            assert bob_deadline not in shown
            assert t("choice.accommodation.x2", lang) not in shown
    await table.bot.games.stop(gid, table.user("alice").id)
    assert_all_answered(table.fake)


# -- a class session ------------------------------------------------------------------------------


def _summaries(table: Table, lang: Lang) -> list[Any]:
    title = t("session.summary.title", lang)
    return [
        m
        for m in table.fake.world.messages.values()
        if not m.ephemeral and m.embeds and m.embeds[0].get("title") == title
    ]


async def test_a_class_session_ends_every_game_together_then_each_pupil_sees_their_own_line(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The teacher opens a 1-minute session; three pupils start games against the
    computer in three channels, each getting the session's end as its time limit. Alice
    answers her first round with a value her cards do not make, the others with the best
    move. When the time runs out every game plays its last round (RULES §1.5: time up) and,
    once all are over and recorded, the summary is posted once where the session was
    started: games played, the class's correct answers per operation, the most common
    mistake kind in words ("wrong value in addition", once, by one pupil), and no pupil's
    line. Its button shows each pupil their own line only (and their mistake), a member who
    did not play is told so kindly, and it still works after a restart."""
    seed_deals(monkeypatch, 4)
    refused = await table.driver.slash("alice", "mattekrig admin session", minutes=1)
    await assert_refused(table.fake, refused, "admin.not_allowed", lang)
    opened = await _teacher(table, "session", minutes=1)
    assert opened.original is not None and not opened.original.ephemeral
    again = await table.driver.slash("teacher", "mattekrig admin session", minutes=5)
    await assert_refused(table.fake, again, "session.running", lang)
    clock = table.clock
    session = await table.bot.storage.running_session(table.fake.guild.id, clock.now_ms())
    assert session is not None

    games = []
    for who, channel in (("alice", "matte-a"), ("bob", "matte-b"), ("carol", "matte-c")):
        gid, _ = await table.start_computer(
            who, channel=_channel(table, channel), game="regnekrig", level=1
        )
        assert table.game(gid).time_limit_due_ms == session.ends_at
        games.append((who, gid))
    for who, gid in games:  # a round each before the bell
        text = WRONG if who == "alice" else best_answer(table.state(gid), 0)
        await table.answer(who, gid, text)

    clock.advance(60)
    await table.bot.scheduler.run_due()
    await table.settle()
    for _, gid in games:
        assert table.state(gid).time_up
    for _, gid in games:
        await table.play(gid, strong_vs_weak(weak_side=-1))
        await assert_game_over(table, gid, lang, "time_up")
    await table.bot.results.drain()
    await table.bot.scheduler.run_due()
    await table.settle()

    (posted,) = _summaries(table, lang)
    assert posted.channel_id == table.fake.channel.id
    shown = _texts(posted)
    assert t("session.summary.games", lang, games=3) in shown
    assert t("level.1.name", lang) in shown  # addition: the class's accuracy per operation
    assert t("session.summary.mistakes", lang) in shown
    assert t("session.summary.mistake", lang, kind=_mistake_in(lang), count=1, pupils=1) in shown
    for pupil in ("Alice", "Bob", "Carol"):  # nobody's line in the public summary
        assert pupil not in shown
    button = build(Verb.MY_LINE, session.id)
    assert posted.custom_ids() == [button]

    for who in ("alice", "bob", "carol"):
        pressed = await table.driver.click(who, posted, button)
        await table.settle()
        assert pressed.original is not None and pressed.original.ephemeral
        mine = _texts(pressed.original)
        name = table.user(who).global_name
        assert name is not None and name in mine
        assert all(other not in mine for other in ("Alice", "Bob", "Carol") if other != name)
        made = t("summary.mistakes", lang, kinds=f"{_mistake_in(lang)} (1)")
        assert (made in mine) is (who == "alice")
    table.fake.world.add_user("dave", locale=LANGS[lang])
    outsider = await table.driver.click("dave", posted, button)
    await table.settle()
    assert outsider.original is not None and outsider.original.ephemeral
    assert outsider.original.content == t("session.mine.not_in", lang)

    await table.harness.restart()  # the button is a DynamicItem: it survives a restart
    pressed = await table.driver.click("bob", posted, button)
    await table.settle()
    assert pressed.original is not None and pressed.original.ephemeral
    assert "Bob" in _texts(pressed.original)
    stats = await table.driver.slash("carol", "mattekrig stats")  # and under stats, too
    await table.settle()
    assert stats.original is not None and stats.original.ephemeral
    titles = [e.get("title") or "" for e in stats.original.embeds]
    assert any(t("session.mine.title", lang, date="").split("(")[0] in x for x in titles)

    await table.bot.scheduler.run_due()  # posted once
    assert len(_summaries(table, lang)) == 1
    assert_all_answered(table.fake)


# -- assignments ----------------------------------------------------------------------------------


async def test_an_assignment_met_and_not_met(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An assignment: "2 rounds at level 1 with at least 50 % best moves". Alice answers three
    rounds with the best move and meets it; Bob answers one and does not yet. Each sees their
    own progress (privately) in `/mattekrig stats`; the teacher sees who has met it."""
    seed_deals(monkeypatch, 4)
    set_it = await _teacher(table, "assignment", level=1, rounds=2, best_percent=50, days=7)
    assert set_it.original is not None and set_it.original.ephemeral
    assert t("assignment.met_by", lang, names="–") in _texts(set_it.original)

    for who, channel, answers in (("alice", "matte-a", 3), ("bob", "matte-b", 1)):
        gid, _ = await table.start_computer(
            who, channel=_channel(table, channel), game="regnekrig", level=1
        )
        for _ in range(answers):
            await table.answer(who, gid, best_answer(table.state(gid), 0))
        await table.bot.games.stop(gid, table.user(who).id)
    await table.bot.results.drain()

    for who, met in (("alice", True), ("bob", False)):
        asked = await table.driver.slash(who, "mattekrig stats")
        await table.settle()
        assert asked.original is not None and asked.original.ephemeral
        shown = _texts(asked.original)
        assert t("assignment.mine.title", lang) in shown
        done = t("assignment.met", lang, rounds=2, count=2, percent="X").split("2")[0]
        assert (done in shown) is met

    overview = await _teacher(table, "assignment")
    shown = _texts(overview.original)
    assert t("assignment.met_by", lang, names="Alice") in shown
    assert "Bob (" in shown.split(t("assignment.met_by", lang, names="Alice"))[1]
    assert_all_answered(table.fake)


# -- the report -----------------------------------------------------------------------------------

# Alice's scripted level-1 game: seconds she waits before each round's answer, and what she
# types (None: she lets the round run out: a miss).
SCRIPT: tuple[tuple[int, str | None], ...] = (
    (2, "best"),
    (3, "best"),
    (4, WRONG),
    (10, WRONG),
    (16, WRONG),
    (30, None),
)


async def test_the_report_in_discord_and_csv_from_a_game_with_known_answers(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report, worked out by hand from `SCRIPT`: 5 answers (the miss is no answer), 2 of them
    accepted → 40,0 % correct; 2 best moves of the 6 rounds asked → 33,3 %; 1 miss, no exact
    hit (level 1 has no target); the median of 2, 3, 4, 10 and 16 seconds is 4,0 s (not the
    game's mean time, 7,0 s, which one slow answer pulls up; the miss's 30 s count nowhere); the
    commonest mistake is the arithmetic slip, 3 times, and 3 of 6 rounds asked is over a
    quarter, so she needs help with it (the one miss is under `HELP_MIN_MISTAKES`).
    The overview in Discord names her under that kind; dates outside her games give an empty
    report; a date it cannot read is refused."""
    seed_deals(monkeypatch, 4)
    gid, _ = await table.start_computer(
        "alice", game="regnekrig", level=1, answer_seconds=20, minutes=30
    )
    clock = table.clock
    for wait, text in SCRIPT:
        assert table.state(gid).phase is ANSWER
        if text is None:
            clock.advance(wait)
            await table.bot.scheduler.run_due()
            await table.settle()
            if table.state(gid).phase is Phase.FLIP:
                await table.flip("alice", gid)
            continue
        clock.advance(wait)
        await table.answer(
            "alice", gid, best_answer(table.state(gid), 0) if text == "best" else text
        )
    await table.bot.games.stop(gid, table.user("alice").id)
    await table.bot.results.drain()

    asked = await _teacher(table, "report")
    reply = asked.original
    assert reply is not None and reply.ephemeral
    _, detail, _ = reply.attachments  # the per-pupil summary, this one, and the trend
    text = detail.data.decode("utf-8")
    assert text.startswith("\ufeff")
    separator = "," if lang == "en" else ";"
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=separator))
    (alice,) = [r for r in rows[1:] if r[0] == "Alice"]

    def decimal(figure: str) -> str:
        return figure if lang == "en" else figure.replace(".", ",")

    wrong = t(f"mistake.{WRONG_KIND}", lang)
    assert alice == [
        "Alice",
        "1",
        t("level.1.name", lang),
        "5",
        decimal("40.0"),
        decimal("33.3"),
        "1",
        "0",
        decimal("4.0"),
        alice[9],  # the week's best moves: checked below
        f"{wrong} (3)",
        wrong,
        "",  # no practice note
    ]
    assert alice[9].endswith(f"{decimal('33')} %")  # 2 best of 6 asked this week

    shown = _texts(reply)
    overview = t(
        "report.overview.kind", lang, count=1, kind=_mistake_in(lang), level=1, names="Alice"
    )
    assert overview in shown
    assert t("report.help_with", lang, kinds=wrong) in shown
    assert t("summary.mistakes", lang, kinds=f"{wrong} (3)") in shown

    outside = await table.driver.slash(
        "teacher", "mattekrig admin report", options={"from": "2020-01-01", "to": "2020-01-31"}
    )
    await table.settle()
    assert outside.original is not None
    assert t("report.overview.none", lang) in _texts(outside.original)
    bad = await table.driver.slash("teacher", "mattekrig admin report", options={"from": "igår"})
    await assert_refused(
        table.fake, bad, "report.bad_date", lang, option=option_name("start", lang)
    )
    assert_all_answered(table.fake)


# -- gentle leaderboards --------------------------------------------------------------------------


async def test_the_gentle_leaderboard_never_lists_the_bottom_half_by_name(
    table: Table, lang: Lang, no_errors: Any
) -> None:
    """By default a member sees the teacher's public board, the top of the class (at
    most 10, never the bottom half) and their own place below it. Six duels: six winners
    share the top, Alice and the other losers share the bottom half."""
    alice = table.user("alice")
    pairs = [(7_000 + i, 8_000 + i) for i in range(5)] + [(7_100, alice.id)]
    await record_duels(table.bot, table.clock, pairs)
    asked = await table.driver.slash("alice", "mattekrig leaderboard")
    await table.settle()
    board = asked.original
    assert board is not None and board.ephemeral
    shown = board.embeds[0]["description"]
    assert t("leaderboard.title", lang) in _texts(board)
    for winner, loser in pairs:
        assert f"P{winner}" in shown
        assert f"P{loser}" not in shown
    fields = {f["name"]: f["value"] for f in board.embeds[0].get("fields", [])}
    assert f"P{alice.id}" in fields[t("leaderboard.own.title", lang)]
    assert board.buttons() == []  # one gentle page, no paging through the others
    assert_all_answered(table.fake, allow=(("GET", 404),))  # the duels' players are no members


async def test_the_report_pages_through_a_class_of_more_than_nine(
    table: Table, lang: Lang, no_errors: Any
) -> None:
    """The report as "a private embed with pages": a message holds the overview and nine pupils,
    so a class of 24 is three pages; ◀ ▶ turn them in place (the CSV files stay attached),
    every pupil is on exactly one page, and a pupil pressing a copied page button is refused."""
    pairs = [(7_000 + i, 8_000 + i) for i in range(12)]
    await _class_of(table, pairs)
    asked = await _teacher(table, "report")
    reply = asked.original
    assert reply is not None and reply.ephemeral and len(reply.attachments) == 3
    seen: list[str] = []
    for page in range(3):
        head, *pupils = reply.embeds
        assert head["footer"]["text"] == t("report.page", lang, page=page + 1, pages=3)
        assert len(pupils) == (9 if page < 2 else 6)
        seen += [p["title"] for p in pupils]
        back, on = reply.buttons()
        assert back.get("disabled", False) is (page == 0)
        assert on.get("disabled", False) is (page == 2)
        if page < 2:
            turned = await table.driver.click("teacher", reply, on["custom_id"])
            assert turned.answered and turned.response_type == 7  # the same message, edited
            await table.settle()
            assert len(reply.attachments) == 3
    assert sorted(seen) == sorted(f"P{u}" for pair in pairs for u in pair)

    again = await table.driver.click("teacher", reply, back["custom_id"])
    assert again.answered
    assert reply.embeds[0]["footer"]["text"] == t("report.page", lang, page=2, pages=3)
    # Discord shows the private report to the teacher only; a pupil pressing a copy of its
    # button (on a message they can see) is refused.
    world = table.fake.world
    copy = world.new_message(world.channel_by_id(reply.channel_id), world.bot_user)
    copy.components, copy.application_id = reply.components, reply.application_id
    stranger = await table.driver.click("alice", copy, reply.buttons()[0]["custom_id"])
    await assert_refused(table.fake, stranger, "admin.not_allowed", lang)
    forged = build(Verb.REPORT, table.fake.guild.id + 1, 0, "0.0")  # another server's
    copy.components = [{"type": 1, "components": [{"type": 2, "style": 2, "custom_id": forged}]}]
    elsewhere = await table.driver.click("teacher", copy, forged)
    await assert_refused(table.fake, elsewhere, "error.not_allowed", lang)
    assert reply.embeds[0]["footer"]["text"] == t("report.page", lang, page=2, pages=3)
    assert_all_answered(table.fake, allow=(("GET", 404),))


async def _class_of(table: Table, pairs: list[tuple[int, int]]) -> None:
    """Level-1 duels recorded straight into storage, each pupil with ten additions (8 right):
    a report line each, without playing 24 games through Discord."""
    tally = OperationTally("add", answers=10, correct=8, best=6, times=(4000,) * 10)
    clock = table.clock
    await record_duels(
        table.bot,
        clock,
        pairs,
        first_game=960_000,
        answers=((10, 8), (10, 8)),
        operations=(tally,),
    )
