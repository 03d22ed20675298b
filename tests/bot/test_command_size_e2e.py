"""The slash command's size: every subcommand lives under `/mattekrig`, and Discord limits
what one command may say in each locale."""

from __future__ import annotations

from typing import Any

from tests.fakediscord.harness import BotHarness
from tests.fakediscord.server import FakeDiscord


def _characters(node: dict[str, Any], locale: str | None) -> int:
    """Name, description and choices of a command and everything under it, in one locale."""

    def text(item: dict[str, Any], key: str) -> str:
        localised = (item.get(f"{key}_localizations") or {}).get(locale) if locale else None
        return str(localised or item.get(key) or "")

    size = len(text(node, "name")) + len(text(node, "description"))
    size += sum(len(text(c, "name")) + len(str(c["value"])) for c in node.get("choices") or [])
    return size + sum(_characters(o, locale) for o in node.get("options") or [])


async def test_the_command_stays_well_within_discords_size_limit(
    bot_harness: BotHarness, fake_discord: FakeDiscord
) -> None:
    """Every subcommand lives under one top-level command, whose names, descriptions and
    choices together may not exceed Discord's per-locale limit (8000 characters; 4000 in
    older documentation): keep a quarter of it free (the teacher's presets and accommodations
    took the command past 4000)."""
    data = fake_discord.command("mattekrig", guild=fake_discord.guild).data
    for locale in (None, "no", "sv-SE"):
        assert _characters(data, locale) < 6000, locale
