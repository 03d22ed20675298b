"""Helpers for the end-to-end tests: users act only through Discord (slash commands, buttons,
selects, modals sent by the fake's driver); the tests *look* at the bot's game state and
storage to know what a pupil sees on the board (their cards) and to prove what was stored.

`Table` wraps the running bot, the fake Discord and the driver. Every action method returns
the `FakeInteraction`(s) so a test can assert how it was answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import MattekrigBot
from bot.config import Config
from bot.custom_ids import Verb, build, parse
from bot.services.live import LiveGame
from classroom.i18n import Lang, t
from engine.intervallkrig import BET
from engine.regnekrig import ANSWER, TARGET, part_of
from engine.solver import best, reachable
from engine.state import GameState, Phase
from storage import StoredGame
from tests.bot.clock import FakeClock
from tests.fakediscord.driver import Driver
from tests.fakediscord.harness import BotHarness, ClientFactory
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import FakeInteraction, FakeMessage, FakeUser

ANSWER_FIELD = "answer_text"

# Code whose pending tasks mean the bot is still at work: the bot's own packages and discord.py's
# dispatch (an interaction's command, button, modal or event handler).
_BOT_CODE = tuple(
    str(folder)
    for folder in (
        Path(__file__).resolve().parents[2] / "bot",
        Path(__file__).resolve().parents[2] / "cogs",
        Path(discord.__file__).resolve().parent,
    )
)
# Tasks that live as long as the bot does (its gateway connection, daily loops, the scheduler):
# they never finish, so they never count as work in progress.
_RUNS_FOR_EVER = (
    "fake-discord-client",
    "discord-ext-tasks: ",
    "mattekrig-scheduler",
    "mattekrig-client",
    "mattekrig-signals",
)
# Work the bot has put off until later (a board edit Discord refused, tried again after a
# delay): waiting for its turn, it is not work in progress.
_PUT_OFF = ("._retry",)


def bot_at_work() -> list[str]:
    """The bot's tasks still running on this loop: a handler that has not returned yet, a result
    being recorded, a board being refreshed. Empty when the bot has nothing left to do.

    Waiting for silence on the wire alone is not enough: on a busy machine a handler can spend
    longer than any quiet period in its database write before its next request."""
    current = asyncio.current_task()
    busy = []
    for task in asyncio.all_tasks():
        if task is current or task.done() or task.get_name().startswith(_RUNS_FOR_EVER):
            continue
        code = getattr(task.get_coro(), "cr_code", None)
        if code is None or code.co_qualname.endswith(_PUT_OFF):
            continue
        if code.co_filename.startswith(_BOT_CODE):
            busy.append(f"{task.get_name()} ({code.co_qualname})")
    return busy


async def settle_bot(
    fake: FakeDiscord, quiet: float = 0.05, drawing: Callable[[], int] = bool
) -> None:
    """Let the bot finish what it does after answering (followups, board edits, records): wait
    until none of its tasks is running, it has made no REST call for ``quiet`` seconds and
    ``drawing()`` says no picture is on its way. A bot still at work after 30 s is a hang, named
    with the tasks that keep it busy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30.0
    while True:
        before = len(fake.requests)
        await asyncio.sleep(quiet)
        busy = bot_at_work()
        if len(fake.requests) == before and not busy and not drawing():
            return
        if loop.time() > deadline:
            raise TimeoutError(f"the bot is still at work: {busy or 'drawing'}")


Decider = Callable[["Table", int, int], Any]  # (table, game id, side) -> decision


class Table:
    """One test's bot + fake Discord + driver, with the moves pupils make."""

    def __init__(self, harness: BotHarness, fake: FakeDiscord, driver: Driver) -> None:
        self.harness = harness
        self.fake = fake
        self.driver = driver
        self._seen: dict[int, LiveGame] = {}

    # -- looking --------------------------------------------------------------------------

    @property
    def bot(self) -> MattekrigBot:
        client = self.harness.client
        assert isinstance(client, MattekrigBot)
        return client

    @property
    def clock(self) -> FakeClock:
        """The bot's clock: the fake one (`bot_clock`) a test moves on."""
        clock = self.bot.clock
        assert isinstance(clock, FakeClock)
        return clock

    def user(self, name: str | FakeUser) -> FakeUser:
        return name if isinstance(name, FakeUser) else self.fake.user(name)

    def game(self, gid: int) -> LiveGame:
        """The game as the running bot holds it (the last one seen once it has finished)."""
        live = self.bot.games.games.get(gid)
        if live is not None:
            self._seen[gid] = live
            return live
        return self._seen[gid]

    def state(self, gid: int) -> GameState:
        return self.game(gid).state

    def board(self, gid: int) -> FakeMessage:
        message_id = self.game(gid).record.message_id
        assert message_id is not None, f"game {gid} has no board"
        return self.fake.message(message_id)

    async def stored(self, gid: int) -> StoredGame:
        return await self.bot.storage.load_game(gid)

    async def events(self, gid: int) -> list[tuple[int, Any, list[Any]]]:
        return [(e.seq, e.action, e.events) for e in (await self.stored(gid)).events]

    def players_of(self, gid: int, side: int) -> list[FakeUser]:
        game = self.game(gid)
        return [
            self.fake.world.users[p.user_id] for p in game.players_of(side) if p.user_id is not None
        ]

    def human_pending(self, gid: int) -> list[int]:
        game = self.game(gid)
        return [s for s in game.state.pending if s not in game.computer_sides()]

    async def settle(self, quiet: float = 0.05) -> None:
        """Let the bot finish what it does after answering (`settle_bot`); a picture on its way
        counts as work too (the first one waits for the worker to start, which can take longer
        than `quiet`)."""
        await settle_bot(self.fake, quiet, self.bot.boards.drawer.waiting)

    # -- starting games -------------------------------------------------------------------

    async def new_game(self, before: set[int]) -> int:
        def posted() -> bool:
            return any(
                gid not in before and g.record.message_id is not None
                for gid, g in self.bot.games.games.items()
            )

        await self.fake.wait_until(posted, what="a new game with a board")
        gid = next(
            gid
            for gid, g in self.bot.games.games.items()
            if gid not in before and g.record.message_id is not None
        )
        self.game(gid)
        return gid

    async def start_computer(
        self, user: str, *, locale: str | None = None, **options: Any
    ) -> tuple[int, FakeInteraction]:
        before = set(self.bot.games.games)
        options.setdefault("thread", False)
        options.setdefault("computer", "easy")
        start = await self.driver.slash(user, "mattekrig start", locale=locale, **options)
        assert start.answered and not start.rejected, start
        return await self.new_game(before), start

    async def challenge(
        self, host: str, opponents: list[str], *, locale: str | None = None, **options: Any
    ) -> tuple[FakeInteraction, FakeMessage]:
        names = ("opponent", "opponent2", "opponent3")
        for name, who in zip(names, opponents, strict=False):
            options[name] = self.user(who)
        options.setdefault("thread", False)
        start = await self.driver.slash(host, "mattekrig start", locale=locale, **options)
        assert start.answered and not start.rejected, start
        assert start.original is not None
        return start, start.original

    async def challenge_game(self, host: str, opponents: list[str], **options: Any) -> int:
        """A challenge every opponent accepts: the game id once its board is posted."""
        before = set(self.bot.games.games)
        _, message = await self.challenge(host, opponents, **options)
        invitation = ref_of(message, Verb.ACCEPT)
        for who in opponents:
            press = await self.driver.click(who, message, build(Verb.ACCEPT, invitation))
            assert press.answered and not press.rejected, press
        return await self.new_game(before)

    # -- moves ------------------------------------------------------------------------------

    def _cid(self, verb: Verb, gid: int, arg: str | None = None) -> str:
        return build(verb, gid, self.state(gid).window, arg)

    async def flip(self, user: str | FakeUser, gid: int, **kw: Any) -> FakeInteraction:
        return await self.driver.click(user, self.board(gid), self._cid(Verb.FLIP, gid), **kw)

    async def autoplay(self, user: str | FakeUser, gid: int) -> FakeInteraction:
        return await self.driver.click(user, self.board(gid), self._cid(Verb.AUTO, gid))

    async def open_answer(self, user: str | FakeUser, gid: int, **kw: Any) -> FakeInteraction:
        return await self.driver.click(user, self.board(gid), self._cid(Verb.ANSWER, gid), **kw)

    async def answer(
        self, user: str | FakeUser, gid: int, text: str, **kw: Any
    ) -> tuple[FakeInteraction, FakeInteraction | None]:
        """Press Answer, then type `text` into the modal and send it."""
        opened = await self.open_answer(user, gid, locale=kw.get("locale"))
        assert opened.answered and not opened.rejected, opened
        if opened.modal is None:
            return opened, None
        sent = await self.driver.submit_modal(user, opened, {ANSWER_FIELD: text}, **kw)
        return opened, sent

    async def target(
        self, user: str | FakeUser, gid: int, value: int | None, **kw: Any
    ) -> FakeInteraction:
        board = self.board(gid)
        if value is None:
            cid = self._cid(Verb.TARGET, gid, "random")
            return await self.driver.click(user, board, cid, **kw)
        cid = self._cid(Verb.TARGET, gid, "lo" if value <= 0 else "hi")
        return await self.driver.select(user, board, cid, [str(value)], **kw)

    async def bet(
        self, user: str | FakeUser, gid: int, swap: int | None, **kw: Any
    ) -> FakeInteraction:
        if swap is None:
            return await self.driver.click(user, self.board(gid), self._cid(Verb.PASS, gid), **kw)
        return await self.driver.click(
            user, self.board(gid), self._cid(Verb.BET, gid, str(swap)), **kw
        )

    async def hint(self, user: str | FakeUser, gid: int) -> FakeInteraction:
        return await self.driver.click(user, self.board(gid), self._cid(Verb.HINT, gid))

    # -- playing whole games ----------------------------------------------------------------

    async def step(self, gid: int, decide: Decider, *, player: int = 0) -> list[FakeInteraction]:
        """One decision step: every human side the game waits for decides (through Discord),
        or a flip when nothing is to be decided. `player` picks which teammate acts."""
        state = self.state(gid)
        presses: list[FakeInteraction] = []
        if state.phase is Phase.FLIP:
            side = state.live_sides[0]
            people = self.players_of(gid, side) or self.players_of(gid, 0)
            presses.append(await self.flip(people[player % len(people)], gid))
            return presses
        for side in self.human_pending(gid):
            if self.state(gid).is_over or side not in self.state(gid).pending:
                continue
            people = self.players_of(gid, side)
            who = people[player % len(people)]
            decision = decide(self, gid, side)
            phase = self.state(gid).phase
            if phase is TARGET:
                presses.append(await self.target(who, gid, decision))
            elif phase is ANSWER:
                presses.extend(p for p in await self.answer(who, gid, decision) if p is not None)
            elif phase is BET:
                presses.append(await self.bet(who, gid, decision))
        return presses

    async def play(
        self, gid: int, decide: Decider, *, max_steps: int = 2_000
    ) -> list[FakeInteraction]:
        """Step until the game is over, checking every press was answered; returns them."""
        presses: list[FakeInteraction] = []
        for n in range(max_steps):
            if self.state(gid).is_over:
                return presses
            step = await self.step(gid, decide, player=n)
            for press in step:
                assert press.answered and not press.rejected, (press, press.rejected)
            presses.extend(step)
        raise AssertionError(f"game {gid} did not end within {max_steps} steps")


def ref_of(message: FakeMessage, verb: Verb) -> int:
    """The game or invitation id behind the `verb` button on a message."""
    for custom_id in message.custom_ids():
        cid = parse(custom_id)
        if cid is not None and cid.verb is verb:
            return cid.ref
    raise LookupError(f"{verb} not on message {message.custom_ids()}")


# -- deciders: what a pupil would choose, from the cards on the board ------------------------


def text_of(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def cards(state: GameState, side: int) -> tuple[int, int]:
    a, b = state.up[side]
    return a.value, b.value


def best_answer(state: GameState, side: int) -> str:
    a, b = cards(state, side)
    play = best(a, b, state.config.level, part_of(state).target)
    return play.answer if play.value is not None else "0"  # RULES §2.2: with its value


def weak_answer(state: GameState, side: int, rng: random.Random) -> str:
    """A legal value (as a plain number) picked at random: a pupil still learning."""
    a, b = cards(state, side)
    options = sorted(reachable(a, b, state.config.level))
    if not options:
        return "0"
    return text_of(rng.choice(options))


def strong_vs_weak(seed: int = 7, *, weak_side: int = 1) -> Decider:
    """Side `weak_side` answers a random legal value and bets at random; the others play best
    answers and targets; so games end in a reasonable number of rounds."""
    rng = random.Random(seed)

    def decide(table: Table, gid: int, side: int) -> Any:
        state = table.state(gid)
        if state.phase is TARGET:
            return rng.randint(-15, 15)
        if state.phase is BET:
            return rng.choice([0, 1, None]) if side == weak_side else None
        if side == weak_side:
            return weak_answer(state, side, rng)
        return best_answer(state, side)

    return decide


# -- the server's language ----------------------------------------------------------------------

# Our language -> a Discord locale that speaks it (Discord has no nynorsk: a nynorsk server's
# members use Discord in Norwegian)
DISCORD_LOCALES = {"nb": "no", "nn": "no", "sv": "sv-SE", "en": "en-US"}


async def speak(table: Table, lang: str) -> None:
    """The whole server speaks ``lang``: the teacher's setting, the server's Discord locale and
    every member's own Discord language."""
    table.fake.guild.preferred_locale = DISCORD_LOCALES[lang]
    for user in table.fake.world.users.values():
        user.locale = DISCORD_LOCALES[lang]
    await table.bot.admin.update_settings(table.fake.guild.id, manager=True, language=lang)


def message_text(message: Any) -> str:
    """Everything a message says in words: its content and its embeds' titles, descriptions,
    fields and footers."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(parts)


# -- checking answers -------------------------------------------------------------------------


def private_texts(interaction: FakeInteraction) -> list[str]:
    """Every ephemeral text the bot sent for this interaction (response and followups)."""
    messages = [interaction.original, *interaction.followups]
    return [m.content for m in messages if m is not None and m.ephemeral]


async def private_reply(fake: FakeDiscord, interaction: FakeInteraction) -> str:
    """The (last) ephemeral text of an interaction, waiting briefly for a followup."""
    with contextlib.suppress(TimeoutError):
        await fake.wait_until(lambda: bool(private_texts(interaction)), timeout=2.0)
    texts = private_texts(interaction)
    assert texts, f"no private reply to {interaction} (type {interaction.response_type})"
    return texts[-1]


async def assert_quiet(fake: FakeDiscord, interaction: FakeInteraction) -> None:
    """An accepted decision is acknowledged by the board (its ✓), with no private message:
    nothing piles up in a pupil's view."""
    with contextlib.suppress(TimeoutError):
        await fake.wait_until(lambda: bool(private_texts(interaction)), timeout=0.3)
    assert interaction.answered and private_texts(interaction) == [], interaction


async def assert_refused(
    fake: FakeDiscord, interaction: FakeInteraction, key: str, lang: str, **values: Any
) -> None:
    """Answered in time, privately, with exactly the catalogue text in the user's language."""
    assert interaction.answered, f"{interaction} was not answered"
    assert not interaction.rejected, interaction.rejected
    text = await private_reply(fake, interaction)
    assert text == t(key, lang, **values), (text, key, lang)


def assert_all_answered(fake: FakeDiscord, *, allow: tuple[tuple[str, int], ...] = ()) -> None:
    """Every interaction the driver sent was answered once, in time, without a refused call,
    and no REST call of the bot failed (but for the `allow`ed (method, status) pairs)."""
    for interaction in fake.interactions:
        assert interaction.answered, f"interaction {interaction.id} was never answered"
        assert not interaction.rejected, (interaction.id, interaction.rejected)
        latency = interaction.answer_latency
        assert latency is not None and latency < 3.0, (interaction.id, latency)
    failed = [
        (r.method, r.path, r.status, r.error_code)
        for r in failed_requests(fake)
        if (r.method, r.status) not in allow
    ]
    assert not failed, failed  # no refused edit, no double response (40060), no 404


def failed_requests(fake: FakeDiscord) -> list[Any]:
    return [r for r in fake.requests if r.status is not None and r.status >= 400]


class _Seeds:
    """Stands in for `secrets` in the game service: the deals of a test are reproducible."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self.rng.getrandbits(k)


def seed_deals(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    import bot.services.games

    monkeypatch.setattr(bot.services.games, "secrets", _Seeds(seed))


@pytest.fixture(name="bot_clock")
def bot_clock_fixture() -> FakeClock:
    """The bot's clock: tests advance it and call `bot.scheduler.run_due()` for timers."""
    return FakeClock()


@pytest.fixture(name="bot_pictures")
def bot_pictures_fixture() -> bool:
    """Whether the bot draws its boards' pictures (a test module may say no)."""
    return True


@pytest.fixture(name="bot_factory")
def bot_factory_fixture(
    fake_discord: FakeDiscord, tmp_database: Path, bot_clock: FakeClock, bot_pictures: bool
) -> ClientFactory:
    config = Config(
        token="fake-token",
        database_path=tmp_database,
        dev_guild_id=fake_discord.guild.id,
        log_level="INFO",
    )
    return lambda: MattekrigBot(
        config, clock=bot_clock, guild_ready_timeout=0, pictures=bot_pictures
    )


@pytest.fixture(name="table")
def table_fixture(bot_harness: BotHarness, fake_discord: FakeDiscord, driver: Driver) -> Table:
    return Table(bot_harness, fake_discord, driver)


@pytest.fixture(name="no_errors")
def no_errors_fixture(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Fails the test if anything logged at ERROR (a traceback in a normal flow is a bug)."""
    caplog.set_level(logging.INFO)
    yield caplog
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, "\n".join(f"{r.name}: {r.getMessage()}\n{r.exc_text or ''}" for r in errors)


# -- checking a finished game -------------------------------------------------------------------


def final_controls(table: Table, gid: int) -> list[str]:
    """A finished board's controls: Rematch, and where pupils answered (regn mode) each
    pupil's own summary."""
    from engine.config import Mode

    config = table.state(gid).config
    ids = [build(Verb.REMATCH, gid)]
    if config.game == "regnekrig" and config.mode is Mode.REGN:
        ids.append(build(Verb.SUMMARY, gid))
    return ids


async def assert_game_over(table: Table, gid: int, lang: Lang, reason: str) -> GameState:
    """The board says who won and why and offers only Rematch (and a summary); the game is
    stored as over, and replaying its stored actions gives the very state the players saw."""
    from bot.render.display_names import side_names
    from classroom.settings import GameSettings
    from engine.game import restore
    from engine.registry import action_from_json

    game = table.game(gid)
    state = game.state
    assert state.outcome is not None and state.outcome.reason.value == reason, state.outcome
    await table.settle()
    board = table.board(gid)
    description = board.embeds[0]["description"]
    assert t("over.title", lang) in description
    assert t(f"over.reason.{reason}", lang) in description
    names = side_names(game, lang)
    if state.outcome.winner is None:
        assert t("over.draw", lang) in description
    else:
        assert t("over.winner", lang, name=names[state.outcome.winner]) in description
    assert board.custom_ids() == final_controls(table, gid)
    stored = await table.stored(gid)
    assert stored.status == "over"
    assert stored.events[-1].events[-1]["type"] == "game_over"
    settings = GameSettings.from_json(stored.config)
    actions = [action_from_json(e.action) for e in stored.events[1:]]
    recorded = [event for e in stored.events for event in e.events]
    replayed = restore(settings.engine, stored.seed, actions, recorded)
    assert replayed.outcome == state.outcome and replayed.counts == state.counts
    return state
