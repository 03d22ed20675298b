"""Results and leaderboards through Discord: the real bot on the fake Discord, driven only by slash
commands and button presses. Results come from real games played through the bot's services (auto
mode) or, where a test needs many players, are recorded straight into storage (the same call the
results service makes). Leaderboard, paging, the teacher's visibility settings, statistics, my-data,
forget-me, and the teacher's admin commands (refused for pupils)."""

from __future__ import annotations

import csv
import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.client import MattekrigBot
from bot.custom_ids import Verb, build, parse
from bot.render.leaderboard import LeaderboardOptions
from bot.ui.leaderboard import MemberCheck
from classroom.i18n import t
from classroom.settings import settings_from_options
from engine.actions import FLIP_CHOICE
from storage import Player
from tests.bot.class_results import record_duels
from tests.bot.clock import FakeClock
from tests.bot.db_scan import scan
from tests.bot.e2e import settle_bot
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import FakeInteraction, FakeMessage, FakeUser

NB_SV_EN = ("nb", "sv", "en")


# -- helpers -------------------------------------------------------------------------------


@pytest.fixture
def bot(bot_harness: BotHarness) -> MattekrigBot:
    client = bot_harness.client
    assert isinstance(client, MattekrigBot)
    return client


async def season_now(bot: MattekrigBot, guild: int) -> int:
    """The number of the season the server is in (the tests here have one running)."""
    season = await bot.storage.current_season(guild)
    assert season is not None
    return season.season


@pytest.fixture
def no_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Nothing may be logged at ERROR: a traceback in these flows is a bug."""
    caplog.set_level(logging.INFO)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, "\n".join(f"{r.name}: {r.getMessage()}" for r in errors)


def user(fake: FakeDiscord, name: str) -> FakeUser:
    return fake.user(name)


async def play_auto_game(
    bot: MattekrigBot, clock: FakeClock, players: list[FakeUser], *, names: list[str] | None = None
) -> int:
    """A real regnekrig game (auto mode) between two members, flipped to its end through the
    bot's game service; its result is recorded by the bot as after any game."""
    seats = [
        Player(seat=i, side=i, display_name=(names or [])[i] if names else p.username, user_id=p.id)
        for i, p in enumerate(players)
    ]
    update = await bot.games.start(
        guild_id=bot.config.dev_guild_id,
        channel_id=0,
        settings=settings_from_options(game="regnekrig", level=1, mode="auto"),
        players=seats,
        seed=7,
    )
    game = update.game
    while not game.is_finished:
        clock.advance(1)
        game = (await bot.games.choose(game.id, players[0].id, None, FLIP_CHOICE)).game
    gid = game.id
    await bot.results.drain()
    assert await bot.storage.load_result(gid) is not None
    return gid


def embed(message: FakeMessage | None) -> dict[str, Any]:
    assert message is not None and message.embeds, message
    return message.embeds[0]


def text_of(message: FakeMessage | None) -> str:
    """Everything a reader sees in a message: content, embed title, description, fields."""
    assert message is not None
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [e.get("title", ""), e.get("description", ""), e.get("footer", {}).get("text", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in e.get("fields", [])]
    return "\n".join(parts)


async def reply_of(fake: FakeDiscord, interaction: FakeInteraction) -> FakeMessage:
    """The message that answers a command: the response, once it is no longer loading."""
    assert interaction.answered, interaction

    def ready() -> bool:
        original = interaction.original
        return original is not None and not original.loading

    await fake.wait_until(ready, what="a finished reply")
    assert interaction.original is not None
    return interaction.original


async def refused(fake: FakeDiscord, interaction: FakeInteraction, key: str, lang: str) -> None:
    """Answered privately with exactly the catalogue sentence."""
    assert interaction.answered and not interaction.rejected, interaction
    await fake.wait_until(
        lambda: any(
            m is not None and m.ephemeral and m.content
            for m in [interaction.original, *interaction.followups]
        ),
        what="a private refusal",
    )
    texts = [m.content for m in [interaction.original, *interaction.followups] if m and m.ephemeral]
    assert t(key, lang) in texts, (texts, key)


def buttons(message: FakeMessage) -> dict[str, dict[str, Any]]:
    return {b["custom_id"]: b for b in message.buttons()}


async def settle(fake: FakeDiscord, quiet: float = 0.05) -> None:
    """Wait until the bot has finished its work and made no REST call for ``quiet`` seconds."""
    await settle_bot(fake, quiet)


# -- the leaderboard ---------------------------------------------------------------------------


async def test_leaderboard_after_real_games(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, bot_clock: FakeClock, no_errors: None
) -> None:
    alice, bob, carol = (user(fake_discord, n) for n in ("alice", "bob", "carol"))
    await play_auto_game(bot, bot_clock, [alice, bob], names=["Alice", "*Bob* @everyone"])
    await play_auto_game(bot, bot_clock, [alice, carol], names=["Alice", "Carol"])

    # Auto-mode games count but are not rated (luck): the board by wins.
    asked = await driver.slash("alice", "mattekrig leaderboard", sort="wins")  # alice: `no`
    message = await reply_of(fake_discord, asked)
    assert message.ephemeral
    shown = text_of(message)
    assert t("leaderboard.title", "nb") in shown
    assert "Alice" in shown and "Carol" in shown
    # A gentle leaderboard shows the top half (here ranks 1 and 2 of three: Bob and
    # Carol share the second place, so both are listed), names escaped, never a ping.
    assert "\\*Bob\\*" in shown and "@\u200beveryone" in shown
    assert t("leaderboard.you", "nb") in shown
    fields = {f["name"]: f["value"] for f in embed(message)["fields"]}
    assert "Alice" in fields[t("leaderboard.own.title", "nb")]
    assert message.buttons() == []  # one page: no paging buttons
    sent = [r for r in fake_discord.requests if r.interaction_id == asked.id and r.json]
    assert all(
        r.json.get("allowed_mentions", {"parse": []}) == {"parse": []} for r in sent if r.json
    )

    for lang, who in (("sv", "bob"), ("en", "carol")):
        asked = await driver.slash(who, "mattekrig leaderboard", sort="wins")
        reply = await reply_of(fake_discord, asked)
        assert t("leaderboard.title", lang) in text_of(reply)
        if who == "bob":
            own = {f["name"]: f["value"] for f in embed(reply)["fields"]}
            mine = own[t("leaderboard.own.title", lang)]
            assert "\\*Bob\\*" in mine and "@\u200beveryone" in mine


async def test_paging_private_and_shared(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, bot_clock: FakeClock, no_errors: None
) -> None:
    alice = user(fake_discord, "alice")
    pairs = [(5_000 + i, 6_000 + i) for i in range(11)] + [(alice.id, 6_100)]
    await record_duels(bot, bot_clock, pairs)
    # The teacher pages through everyone (a member sees one gentle page: see below).
    asked = await driver.slash("teacher", "mattekrig leaderboard", sort="wins", period="all")
    first = await reply_of(fake_discord, asked)
    assert first.ephemeral
    ids = list(buttons(first))
    options = LeaderboardOptions(period="all", sort="wins")
    guild = fake_discord.guild.id
    assert ids == [
        build(Verb.PAGE, guild, 0, options.to_arg()),
        build(Verb.PAGE, guild, 1, options.to_arg()),
    ]
    assert buttons(first)[ids[0]].get("disabled") and not buttons(first)[ids[1]].get("disabled")
    for custom_id in ids:
        cid = parse(custom_id)
        assert cid is not None and cid.guild_id == guild
        assert LeaderboardOptions.from_arg(cid.arg) == options
    assert t("leaderboard.page", "nb", page=1, pages=3) in text_of(first)

    press = await driver.click("teacher", first, ids[1])
    assert press.answered and not press.rejected
    await settle(fake_discord)
    second = fake_discord.message(first.id)
    assert t("leaderboard.page", "nb", page=2, pages=3) in text_of(second)
    assert "**13.** P6000" in embed(second)["description"]  # ties share a rank (1, 1, …, 13)
    back = [c for c in buttons(second) if c.split(":")[3] == "0"]
    await driver.click("teacher", second, back[0])
    await settle(fake_discord)
    assert t("leaderboard.page", "nb", page=1, pages=3) in text_of(fake_discord.message(first.id))

    # shared by the teacher: everyone sees it, nobody's own place; the teacher pages it
    shared = await reply_of(
        fake_discord,
        await driver.slash("teacher", "mattekrig leaderboard", sort="wins", share=True),
    )
    assert not shared.ephemeral
    assert t("leaderboard.own.title", "nb") not in text_of(shared)
    forward = [c for c, b in buttons(shared).items() if not b.get("disabled")]
    ref = parse(forward[0])
    assert ref is not None
    forwarded = LeaderboardOptions.from_arg(ref.arg)
    assert forwarded is not None and forwarded.shared
    press = await driver.click("teacher", shared, forward[0])
    assert press.answered and not press.rejected
    await settle(fake_discord)
    assert t("leaderboard.page", "nb", page=2, pages=3) in text_of(fake_discord.message(shared.id))

    # a member: one page, the top 10 only (of 24 ranked), with their own place below it
    mine = await reply_of(
        fake_discord,
        await driver.slash("alice", "mattekrig leaderboard", sort="wins", period="all"),
    )
    assert mine.buttons() == []
    assert "**13.**" not in embed(mine)["description"]
    own = {f["name"]: f["value"] for f in embed(mine)["fields"]}[t("leaderboard.own.title", "nb")]
    assert "🥇" in own  # alice won her duel: tied first
    assert embed(mine)["description"].count("🥇") == 10


async def test_visibility_hidden_and_own_rank(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, bot_clock: FakeClock, no_errors: None
) -> None:
    alice, bob = user(fake_discord, "alice"), user(fake_discord, "bob")
    await record_duels(bot, bot_clock, [(alice.id, bob.id), (bob.id, 7_001), (7_002, 7_003)])

    set_hidden = await driver.slash("teacher", "mattekrig admin settings", leaderboard="hidden")
    assert t("admin.settings.board.hidden", "nb") in text_of(
        await reply_of(fake_discord, set_hidden)
    )
    await refused(
        fake_discord, await driver.slash("alice", "mattekrig leaderboard"), "board.hidden", "nb"
    )
    teacher_view = await reply_of(
        fake_discord, await driver.slash("teacher", "mattekrig leaderboard")
    )
    assert "P7002" in text_of(teacher_view)  # teachers still see it

    await driver.slash("teacher", "mattekrig admin settings", leaderboard="own_rank")
    own = await reply_of(
        fake_discord, await driver.slash("bob", "mattekrig leaderboard", sort="wins", share=True)
    )
    assert own.ephemeral  # asked to share, but own place only is private by nature
    shown = text_of(own)
    assert t("leaderboard.own_only", "sv") in shown
    assert f"P{bob.id}" in shown and "P7002" not in shown and f"P{alice.id}" not in shown
    assert own.buttons() == []
    # another member's statistics are private now
    await refused(
        fake_discord,
        await driver.slash("bob", "mattekrig stats", options={"user": alice}),
        "stats.private",
        "sv",
    )


# -- statistics, my data, forget me ------------------------------------------------------------


async def test_stats_private_unless_shared(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, bot_clock: FakeClock, no_errors: None
) -> None:
    alice, bob = user(fake_discord, "alice"), user(fake_discord, "bob")
    await play_auto_game(bot, bot_clock, [alice, bob])
    await record_duels(bot, bot_clock, [(alice.id, bob.id)])
    mine = await reply_of(fake_discord, await driver.slash("alice", "mattekrig stats"))
    assert mine.ephemeral
    shown = text_of(mine)
    for key in (
        "stats.games.title",
        "stats.rating.title",
        "stats.accuracy.title",
        "stats.next.title",
    ):
        assert t(key, "nb") in shown
    assert "Alice" in shown  # the member's name as Discord shows it now

    shared = await reply_of(fake_discord, await driver.slash("bob", "mattekrig stats", share=True))
    assert not shared.ephemeral and t("stats.title", "sv", name="Bob") in text_of(shared)
    other = await reply_of(
        fake_discord, await driver.slash("carol", "mattekrig stats", options={"user": alice})
    )
    assert other.ephemeral and t("stats.title", "en", name="Alice") in text_of(other)
    nothing = await reply_of(fake_discord, await driver.slash("carol", "mattekrig stats"))
    assert t("stats.nothing", "en") in text_of(nothing)


async def test_my_data_is_a_private_json_file(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, bot_clock: FakeClock, no_errors: None
) -> None:
    alice, bob = user(fake_discord, "alice"), user(fake_discord, "bob")
    gid = await play_auto_game(bot, bot_clock, [alice, bob])
    reply = await reply_of(fake_discord, await driver.slash("alice", "mattekrig my-data"))
    assert reply.ephemeral and reply.content == t("privacy.my_data.reply", "nb")
    assert [a.filename for a in reply.attachments] == [f"mattekrig-data-{alice.id}.json"]
    data = json.loads(reply.attachments[0].data)
    assert data["user_id"] == str(alice.id)
    tables = data["tables"]
    players = tables["result_players"]
    assert any(row["user_id"] == alice.id and row["game_id"] == gid for row in players)
    assert not any(row.get("user_id") == bob.id for row in players)  # only her own seat


async def test_forget_me_asks_then_leaves_no_trace(
    bot: MattekrigBot,
    fake_discord: FakeDiscord,
    driver: Any,
    bot_clock: FakeClock,
    tmp_database: Path,
    no_errors: None,
) -> None:
    alice, bob = user(fake_discord, "alice"), user(fake_discord, "bob")
    await play_auto_game(bot, bot_clock, [alice, bob])
    await record_duels(bot, bot_clock, [(alice.id, bob.id)])
    assert scan(tmp_database, alice.id)

    ask = await reply_of(fake_discord, await driver.slash("alice", "mattekrig forget-me"))
    assert ask.ephemeral and t("privacy.forget.title", "nb") in text_of(ask)
    yes, no = build(Verb.FORGET, alice.id, None, "yes"), build(Verb.FORGET, alice.id, None, "no")
    assert list(buttons(ask)) == [yes, no]
    assert buttons(ask)[yes]["style"] == discord.ButtonStyle.danger.value
    with pytest.raises(LookupError):  # nobody else even sees the button
        await driver.click("bob", ask, yes)

    await driver.click("alice", ask, no)  # changing one's mind deletes nothing
    await settle(fake_discord)
    assert t("privacy.forget.kept", "nb") in text_of(fake_discord.message(ask.id))
    assert scan(tmp_database, alice.id)

    ask = await reply_of(fake_discord, await driver.slash("alice", "mattekrig forget-me"))
    press = await driver.click("alice", ask, yes)
    assert press.answered and not press.rejected
    await settle(fake_discord)
    done = fake_discord.message(ask.id)
    assert t("privacy.forget.done", "nb") in text_of(done) and done.buttons() == []
    await bot.results.drain()
    assert scan(tmp_database, alice.id, "alice") == []
    assert scan(tmp_database, bob.id)  # bob keeps his results
    stats = await reply_of(fake_discord, await driver.slash("bob", "mattekrig stats"))
    assert "**2**" in text_of(stats)  # both of bob's games still count


async def test_forget_me_waits_for_a_live_game(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, no_errors: None
) -> None:
    start = await driver.slash(
        "alice", "mattekrig start", game="regnekrig", computer="easy", thread=False
    )
    assert start.answered
    ask = await reply_of(fake_discord, await driver.slash("alice", "mattekrig forget-me"))
    press = await driver.click(
        "alice", ask, build(Verb.FORGET, user(fake_discord, "alice").id, None, "yes")
    )
    await refused(fake_discord, press, "privacy.forget.live_game", "nb")


# -- the teacher -------------------------------------------------------------------------------


ADMIN_COMMANDS: list[tuple[str, dict[str, Any]]] = [
    ("mattekrig admin season", {}),
    ("mattekrig admin settings", {}),
    ("mattekrig admin settings", {"leaderboard": "hidden"}),
    ("mattekrig admin void", {"game": 1}),
    ("mattekrig admin report", {}),
]


async def test_admin_commands_refused_for_pupils(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, no_errors: None
) -> None:
    for command, options in ADMIN_COMMANDS:
        press = await driver.slash("bob", command, **options)
        await refused(fake_discord, press, "admin.not_allowed", "sv")
    assert (await bot.admin.settings(fake_discord.guild.id)).board == "visible"  # unchanged
    # the subgroup is there with its translations; Discord has no per-subcommand permission
    synced = fake_discord.command("mattekrig", guild=fake_discord.guild).data
    admin = next(o for o in synced["options"] if o["name"] == "admin")
    assert admin["name_localizations"]["sv-SE"] == "admin"
    assert {o["name"] for o in admin["options"]} == {
        "season",
        "settings",
        "void",
        "report",
        "end",
        "preset",
        "accommodation",
        "session",
        "assignment",
    }
    names = {o["name"]: o for o in synced["options"]}
    assert names["forget-me"]["name_localizations"] == {"no": "glem-meg", "sv-SE": "glöm-mig"}
    assert names["my-data"]["name_localizations"] == {"no": "mine-data", "sv-SE": "mina-data"}


async def test_report_is_a_csv_file(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, bot_clock: FakeClock, no_errors: None
) -> None:
    alice, bob = user(fake_discord, "alice"), user(fake_discord, "bob")
    await play_auto_game(bot, bot_clock, [alice, bob], names=["Alice", "=Bob"])
    reply = await reply_of(fake_discord, await driver.slash("teacher", "mattekrig admin report"))
    assert reply.ephemeral and reply.content == t("admin.report.reply", "nb")
    # the summary, one line per level and operation, and the class's kinds by week
    file, detail, trend = reply.attachments
    assert file.filename.endswith(".csv") and detail.filename.endswith("-detail.csv")
    assert trend.filename.endswith("-trend.csv")
    assert trend.data.decode("utf-8").startswith("\ufeff" + t("report.csv.trend.kind", "nb"))
    text = file.data.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))
    assert rows[0][:3] == ["Elev", "Spill", "Seire"]  # the teacher's Discord is Norwegian
    assert sorted(r[0] for r in rows[1:]) == ["'=Bob", "Alice"]  # no spreadsheet formula
    assert all(r[1] == "1" for r in rows[1:])


async def test_new_season_asks_first(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, bot_clock: FakeClock, no_errors: None
) -> None:
    alice, bob = user(fake_discord, "alice"), user(fake_discord, "bob")
    await record_duels(bot, bot_clock, [(alice.id, bob.id)])
    guild = fake_discord.guild.id
    ask = await reply_of(fake_discord, await driver.slash("teacher", "mattekrig admin season"))
    stale = await reply_of(fake_discord, await driver.slash("teacher", "mattekrig admin season"))
    new = build(Verb.SEASON, guild, 1, "new")
    assert ask.ephemeral and list(buttons(ask)) == [new, build(Verb.SEASON, guild, 1, "no")]
    assert await season_now(bot, guild) == 1

    press = await driver.click("teacher", ask, new)
    assert press.answered and not press.rejected
    await settle(fake_discord)
    assert t("admin.season.started", "nb", season=2) in text_of(fake_discord.message(ask.id))
    assert await season_now(bot, guild) == 2
    # the second question was asked in season 1: pressing it now starts nothing
    await driver.click("teacher", stale, new)
    await settle(fake_discord)
    assert t("admin.season.stale", "nb") in text_of(fake_discord.message(stale.id))
    assert await season_now(bot, guild) == 2

    now = await reply_of(fake_discord, await driver.slash("alice", "mattekrig leaderboard"))
    assert t("leaderboard.empty", "nb") in text_of(now)
    old = await reply_of(
        fake_discord, await driver.slash("alice", "mattekrig leaderboard", season=1)
    )
    assert f"P{alice.id}" in text_of(old)
    missing = await driver.slash("alice", "mattekrig leaderboard", season=9)
    await fake_discord.wait_until(lambda: missing.original is not None)
    assert missing.original.content == t("board.unknown_season", "nb", season=9)


async def test_void_takes_a_result_back(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, bot_clock: FakeClock, no_errors: None
) -> None:
    alice, bob = user(fake_discord, "alice"), user(fake_discord, "bob")
    gid = await play_auto_game(bot, bot_clock, [alice, bob], names=["Alice", "Bob"])
    reply = await reply_of(
        fake_discord, await driver.slash("teacher", "mattekrig admin void", game=gid)
    )
    assert reply.ephemeral and reply.content == t("admin.void.done", "nb", game=gid)
    board = await reply_of(fake_discord, await driver.slash("carol", "mattekrig leaderboard"))
    assert t("leaderboard.empty", "en") in text_of(board)
    again = await driver.slash("teacher", "mattekrig admin void", game=gid)
    await fake_discord.wait_until(lambda: again.original is not None)
    assert again.original.content == t("admin.void.unknown_game", "nb", game=gid)


async def test_settings_channels_language_threads(
    bot: MattekrigBot, fake_discord: FakeDiscord, driver: Any, no_errors: None
) -> None:
    world = fake_discord.world
    classroom = fake_discord.channel
    hallway = world.add_channel("gang")
    shown = await reply_of(fake_discord, await driver.slash("teacher", "mattekrig admin settings"))
    assert t("admin.settings.channels.all", "nb") in text_of(shown)
    assert t("admin.settings.saved", "nb") not in text_of(shown)
    assert t("admin.settings.pings.on", "nb") in text_of(shown)  # every setting is shown

    saved = await reply_of(
        fake_discord,
        await driver.slash(
            "teacher",
            "mattekrig admin settings",
            allow_channel=classroom,
            language="sv",
            threads=False,
        ),
    )
    said = text_of(saved)
    assert t("admin.settings.saved", "nb") in said and f"<#{classroom.id}>" in said
    assert t("admin.settings.threads.off", "nb") in said
    assert t("admin.settings.pings.on", "nb") in said  # what was not given is kept
    settings = await bot.admin.settings(fake_discord.guild.id)
    assert (settings.channels, settings.language, settings.threads) == (
        (classroom.id,),
        "sv",
        False,
    )

    elsewhere = await driver.slash(
        "alice", "mattekrig start", channel=hallway, game="regnekrig", computer="easy"
    )
    await fake_discord.wait_until(lambda: elsewhere.original is not None)
    assert elsewhere.original.content == t(
        "start.channel_not_allowed", "nb", channels=f"<#{classroom.id}>"
    )
    assert bot.games.games == {}
    here = await driver.slash("alice", "mattekrig start", game="regnekrig", computer="easy")
    assert here.answered and not here.rejected
    await fake_discord.wait_until(lambda: len(bot.games.games) == 1)
    (game,) = bot.games.games.values()
    assert game.record.thread_id is None  # threads are off by default now

    # a Discord in a language Mattekrig lacks: the teacher's language, not the server's (no)
    german = await reply_of(
        fake_discord, await driver.slash("carol", "mattekrig leaderboard", locale="de")
    )
    assert t("leaderboard.title", "sv") in text_of(german)
    norwegian = await reply_of(fake_discord, await driver.slash("alice", "mattekrig leaderboard"))
    assert t("leaderboard.title", "nb") in text_of(norwegian)  # her own Discord language wins

    back = await reply_of(
        fake_discord,
        await driver.slash(
            "teacher", "mattekrig admin settings", all_channels=True, language="server"
        ),
    )
    assert t("admin.settings.channels.all", "nb") in text_of(back)
    assert (await bot.admin.settings(fake_discord.guild.id)).channels == ()


# -- departed members (the fake serves no member look-up, so a stub guild answers) -------------


class _Response:
    status = 404
    reason = "Not Found"


# discord.py types an error's response as aiohttp's or requests' (requests comes with the test
# tools): this stand-in has what the error reads of either.
NOT_FOUND: Any = _Response()


class _Guild:
    def __init__(self, gone: set[int], broken: set[int]) -> None:
        self.id = 1
        self.gone, self.broken = gone, broken
        self.asked: list[int] = []

    def get_member(self, user_id: int) -> None:
        return None

    async def fetch_member(self, user_id: int) -> object:
        self.asked.append(user_id)
        if user_id in self.gone:
            raise discord.NotFound(NOT_FOUND, {"code": 10007, "message": "Unknown Member"})
        if user_id in self.broken:
            raise discord.NotFound(NOT_FOUND, {"code": 0, "message": "404: Not Found"})
        return SimpleNamespace(id=user_id)


async def test_only_unknown_members_count_as_gone_and_present_ones_are_remembered() -> None:
    guild = _Guild(gone={2}, broken={3})
    check = MemberCheck()
    assert await check.departed(guild, [1, 2, 3, 1]) == [2]  # type: ignore[arg-type]
    assert sorted(guild.asked) == [1, 2, 3]
    assert await check.departed(guild, [1, 2, 3]) == [2]  # type: ignore[arg-type]
    assert sorted(guild.asked) == [1, 2, 2, 3]  # 1 and 3 were not asked again


async def test_departed_members_leave_the_board(
    bot: MattekrigBot,
    fake_discord: FakeDiscord,
    driver: Any,
    bot_clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    no_errors: None,
) -> None:
    alice = user(fake_discord, "alice")
    await record_duels(bot, bot_clock, [(8_001, alice.id), (8_002, 8_003)])

    async def fetch_member(self: discord.Guild, user_id: int) -> object:
        if user_id == 8_001:
            raise discord.NotFound(NOT_FOUND, {"code": 10007, "message": "Unknown Member"})
        return SimpleNamespace(id=user_id)

    monkeypatch.setattr(discord.Guild, "fetch_member", fetch_member)
    reply = await reply_of(
        fake_discord, await driver.slash("alice", "mattekrig leaderboard", sort="wins")
    )
    shown = text_of(reply)
    assert "P8002" in shown and "P8001" not in shown
    assert 8_001 in await bot.storage.departed(fake_discord.guild.id)
