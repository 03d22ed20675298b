"""The command tree checked when a bot syncs it, as Discord checks it: what is accepted at the
edge, and the rules beyond the single-field limits (names across locales, nesting, autocomplete
beside choices, the 8,000-character budget)."""

from __future__ import annotations

from typing import Any

import pytest

from .limits import COMMAND_CHARACTERS_MAX
from .raw import RawApi
from .sample_bot import SampleBot
from .server import FakeDiscord


def option(name: str, kind: int = 3, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": "d", **fields}


async def sync(fake: FakeDiscord, commands: list[dict[str, Any]]) -> tuple[int, Any]:
    path = f"/applications/{fake.application_id}/guilds/{fake.guild.id}/commands"
    async with RawApi(fake) as api:
        answer = await api.call("PUT", path, commands)
    return answer.status, answer.body


async def test_names_in_any_script_and_the_limits_themselves_are_accepted(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    choices = [{"name": "x" * 100, "value": f"{n:02d}" + "v" * 98} for n in range(25)]
    command = {
        "name": "mattekrig-øving",
        "description": "d" * 100,
        "name_localizations": {"no": "øving", "sv-SE": "övning", "hi": "अभ्यास"},
        "options": [option("nivå", required=True, choices=choices), option("tid")],
    }

    status, body = await sync(fake_discord, [command])

    assert status == 200, body


@pytest.mark.discord_refuses
@pytest.mark.parametrize(
    ("options", "path"),
    [
        (
            [
                option("modus", name_localizations={"no": "tid"}),
                option("tid"),
            ],
            ["0", "options", "0", "name_localizations", "no"],
        ),
        (
            [
                option("a", name_localizations={"sv-SE": "samma"}),
                option("b", name_localizations={"sv-SE": "samma"}),
            ],
            ["0", "options", "1", "name_localizations", "sv-SE"],
        ),
        (
            [option("start", kind=1), option("nivå")],
            ["0", "options"],
        ),
        (
            [option("gruppe", kind=2, options=[option("indre", kind=2)])],
            ["0", "options", "0", "options", "0", "type"],
        ),
        (
            [option("nivå", autocomplete=True, choices=[{"name": "1", "value": "1"}])],
            ["0", "options", "0", "autocomplete"],
        ),
        (
            [option("nivå"), option("nivå")],
            ["0", "options", "1", "name"],
        ),
    ],
    ids=[
        "a localised name equal to another option's name",
        "two options with one localised name",
        "subcommands beside options",
        "a group inside a group",
        "autocomplete beside choices",
        "two options of one name",
    ],
)
async def test_option_lists_are_refused(
    fake_discord: FakeDiscord, bot: SampleBot, options: list[dict[str, Any]], path: list[str]
) -> None:
    status, body = await sync(
        fake_discord, [{"name": "mattekrig", "description": "d", "options": options}]
    )

    assert status == 400 and body["code"] == 50035
    node = body["errors"]
    for part in path:
        node = node[part]
    assert node["_errors"]


@pytest.mark.discord_refuses
async def test_a_command_over_eight_thousand_characters_is_refused(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    """The longest localisation of each field counts: 25 options whose Swedish descriptions
    are 100 characters and 3 choices each of 100-character names pass 8,000."""
    choices = [{"name": f"{n}" + "c" * 99, "value": str(n)} for n in range(3)]
    options = [
        option(f"o{n}", description_localizations={"sv-SE": "s" * 100}, choices=choices)
        for n in range(25)
    ]
    command = {"name": "mattekrig", "description": "d", "options": options}

    status, body = await sync(fake_discord, [command])

    assert status == 400 and body["errors"]["0"]["_errors"][0]["code"] == (
        "APPLICATION_COMMAND_TOO_LARGE"
    )
    assert str(COMMAND_CHARACTERS_MAX) in body["errors"]["0"]["_errors"][0]["message"]
