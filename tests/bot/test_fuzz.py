"""Hostile input: thousands of custom_ids, command option values and modal texts that Discord itself
would never send (over 100 characters, numbers past 2**63, unknown verbs and markers, wrong option
types, unknown users and subcommands, answers of any length and alphabet) reach the real bot through
the fake Discord. Every one of ours is answered, none leaves a traceback or an ERROR in the log, and
none changes the event log (DESIGN "Errors": bad input gets a clear private message and changes
nothing)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import string
from typing import Any

import pytest

from bot.custom_ids import TEMPLATE, Verb, parse
from tests.bot.e2e import Table, ref_of, seed_deals
from tests.fakediscord.state import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeInteraction,
    FakeMessage,
)

IDS, OPTIONS, TEXTS = 3_000, 1_000, 1_000  # 5,000 inputs in all
BATCH = 100  # sent together, as a burst of presses would come
USERS = ("alice", "bob", "carol")  # never the teacher: the only one who could accept or begin
HUGE = (2**63 - 1, 2**63, 2**64, 10**30, int("9" * 95))
VERBS = [v.value for v in Verb] + ["flop", "", "MK", "accept2", "x" * 40]
MARKERS = ("", "c", "l", "g", "u", "x", "cc", "0")
ARGS = ("random", "lo", "hi", "0", "1", "-1", "yes", "no", "new", "abc", "9" * 30, "-0", "+1")
WEIRD = ("\x00", "🃏", "−", "٣", "²", "√", "ß", "\u202e", "\n", "\t", " ", ":", "::", "/", "%s")


def number(rng: random.Random, real: list[int]) -> str:
    pick = rng.random()
    if pick < 0.4:
        return str(rng.choice(real))
    if pick < 0.6:
        return str(rng.choice(HUGE))
    if pick < 0.7:
        return rng.choice(("-1", "01", "00", "1e9", "0x10", "", "٣"))
    return str(rng.randrange(0, 10 ** rng.randint(1, 19)))


def noise(rng: random.Random, length: int) -> str:
    alphabet = string.printable + "".join(WEIRD)
    return "".join(rng.choice(alphabet) for _ in range(length))


def custom_id(rng: random.Random, real: list[int], windows: list[int]) -> str:
    """One hostile custom_id: mostly our grammar bent one way or another, some pure noise."""
    shape = rng.random()
    if shape < 0.1:
        return noise(rng, rng.randint(0, 150))
    if shape < 0.2:
        return "mk:" + noise(rng, rng.randint(0, 120))
    parts = ["mk", rng.choice(VERBS), rng.choice(MARKERS) + number(rng, real)]
    if rng.random() < 0.7:
        wrong = [w + d for w in windows for d in (1, 2, 7)]  # never the current window
        parts.append(str(rng.choice(wrong + list(HUGE))) if rng.random() < 0.9 else "")
        if rng.random() < 0.6:
            parts.append(rng.choice(ARGS) if rng.random() < 0.8 else noise(rng, 5))
    text = ":".join(parts)
    if rng.random() < 0.05:
        text += "9" * rng.randint(60, 200)  # past Discord's 100 characters
    return text


POISON: list[dict[str, Any]] = [  # one of these in every /start: the command must refuse it
    {"name": "level", "type": 4, "value": "abc"},
    {"name": "level", "type": 4, "value": 2**70},
    {"name": "level", "type": 4, "value": -3},
    {"name": "level", "type": 3, "value": "7"},
    {"name": "game", "type": 3, "value": "chess"},
    {"name": "game", "type": 4, "value": 3},
    {"name": "minutes", "type": 4, "value": 10**6},
    {"name": "answer_seconds", "type": 4, "value": -1},
    {"name": "war_size", "type": 4, "value": 2**63},
    {"name": "mode", "type": 3, "value": "x" * 200},
    {"name": "deck", "type": 3, "value": "\x00"},
    {"name": "computer", "type": 3, "value": "godlike"},
    {"name": "opponent", "type": 6, "value": "123"},
    {"name": "opponent", "type": 6, "value": "not-a-snowflake"},
    {"name": "teams", "type": 5, "value": "yes"},
]
SUBCOMMANDS = ("start", "stop", "rules", "help", "stats", "leaderboard", "nonsense", "", "🃏")


def command_options(rng: random.Random) -> list[dict[str, Any]]:
    """Options of `/mattekrig <sub>`: a start always carries a poisoned value; the other
    subcommands get random, wrongly typed or unknown options (or an unknown name)."""
    sub = rng.choice(SUBCOMMANDS)
    inner: list[dict[str, Any]] = []
    if sub == "start":
        inner = [{"name": "game", "type": 3, "value": rng.choice(("regnekrig", "satsing"))}]
        inner.append({"name": "thread", "type": 5, "value": True})
        inner.append({"name": "computer", "type": 3, "value": "easy"})
        inner.append(dict(rng.choice(POISON)))
    for _ in range(rng.randint(0 if sub == "start" else 1, 3)):  # a bare /stop would stop
        value: Any = rng.choice((noise(rng, rng.randint(0, 40)), rng.choice(HUGE), -1, None, []))
        inner.append(
            {"name": rng.choice(("game", "level", "user", "page", "x")), "type": 3, "value": value}
        )
    if rng.random() < 0.1:
        return [
            {"type": 2, "name": "admin", "options": [{"type": 1, "name": sub, "options": inner}]}
        ]
    return [{"type": 1, "name": sub, "options": inner}]


def modal_text(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.3:
        return noise(rng, rng.randint(0, 60))
    if shape < 0.5:
        return "(" * rng.randint(1, 500) + "1" + ")" * rng.randint(0, 500)
    if shape < 0.6:
        return "9" * rng.randint(20, 5000)
    if shape < 0.7:
        return "9**9**9**9" if rng.random() < 0.5 else "1/0"
    return " ".join(
        rng.choice(("3", "+", "-", "*", "/", "(", ")", "−", "×", "÷", "²", "√"))
        for _ in range(rng.randint(1, 40))
    )


def ours(interaction: FakeInteraction) -> bool:
    """Whether the bot must answer it: every command, every component id of our grammar's
    shape, every modal that parses as an answer (the rest belong to nobody)."""
    custom_id = str(interaction.payload["data"].get("custom_id"))
    if interaction.type == MESSAGE_COMPONENT:
        return TEMPLATE.fullmatch(custom_id) is not None
    if interaction.type == MODAL_SUBMIT:
        cid = parse(custom_id)
        return cid is not None and cid.verb is Verb.ANSWER
    return True


async def test_five_thousand_hostile_inputs_change_nothing_and_log_no_traceback(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    seed_deals(monkeypatch, 11)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=3)
    board = table.board(gid)
    challenge_channel = table.fake.world.add_channel("matte-5")
    _, challenge = await table.challenge(
        "carol", ["teacher"], game="regnekrig", channel=challenge_channel
    )
    real = [gid, ref_of(challenge, Verb.ACCEPT), table.fake.guild.id, 0, 1]
    windows = [table.state(gid).window]
    before = [await table.events(gid)]
    rng = random.Random(17)
    sent = []

    async def burst(make: Any, count: int) -> None:
        for start in range(0, count, BATCH):
            batch = [make() for _ in range(min(BATCH, count - start))]
            done = await asyncio.gather(*batch)
            sent.extend(done)
            await all_answered(done)

    async def all_answered(batch: list[FakeInteraction]) -> None:
        waiting = [i for i in batch if ours(i)]
        with contextlib.suppress(TimeoutError):  # an unanswered one fails below
            await table.fake.wait_until(
                lambda: all(i.answered or i.rejected for i in waiting), timeout=5.0
            )

    def press() -> Any:
        cid = custom_id(rng, real, windows)
        data: dict[str, Any] = {"custom_id": cid, "component_type": 2}
        if rng.random() < 0.3:
            data = {
                "custom_id": cid,
                "component_type": 3,
                "values": [noise(rng, rng.randint(0, 30))],
            }
        return table.driver.hostile(
            rng.choice(USERS), MESSAGE_COMPONENT, data, message=carrying(data), wait=False
        )

    def carrying(data: dict[str, Any]) -> FakeMessage:
        """A bot message with exactly this component (discord.py only routes a press to a
        dynamic item when the pressed message has it), beside the board or the challenge."""
        home = board if rng.random() < 0.7 else challenge
        world = table.fake.world
        message = world.new_message(world.channel_by_id(home.channel_id), world.bot_user)
        component: dict[str, Any] = {"type": 2, "style": 1, "label": "x"}
        if data["component_type"] == 3:
            component = {"type": 3, "options": [{"label": "x", "value": "x"}]}
        component["custom_id"] = data["custom_id"]
        message.components = [{"type": 1, "components": [component]}]
        message.embeds, message.application_id = list(home.embeds), home.application_id
        return message

    def command() -> Any:
        data = {"options": command_options(rng)}
        return table.driver.hostile(
            rng.choice(USERS), APPLICATION_COMMAND, data, command="mattekrig", wait=False
        )

    def submit() -> Any:
        cid = (
            custom_id(rng, real, windows) if rng.random() < 0.8 else f"mk:answer:{gid}:{windows[0]}"
        )
        field = {"type": 4, "custom_id": "answer_text", "value": modal_text(rng)}
        data = {"custom_id": cid, "components": [{"type": 18, "component": field}]}
        user = (
            "carol" if cid.endswith(f":{windows[0]}") else rng.choice(USERS)
        )  # carol plays no side
        return table.driver.hostile(user, MODAL_SUBMIT, data, message=board, wait=False)

    await burst(press, IDS)
    await burst(command, OPTIONS)
    await burst(submit, TEXTS)
    await table.settle(0.2)

    assert len(sent) == IDS + OPTIONS + TEXTS >= 5_000
    unanswered = [i.payload["data"] for i in sent if ours(i) and not i.answered]
    assert not unanswered, unanswered[:5]
    troubles = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR or r.exc_info]
    assert not troubles, "\n".join(
        f"{r.name}: {r.getMessage()}\n{r.exc_text or ''}" for r in troubles[:5]
    )
    assert [await table.events(gid)] == before
    assert set(table.bot.games.games) == {gid}  # no game was started by any of them
