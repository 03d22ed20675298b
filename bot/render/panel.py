"""One message's worth of text and controls — a game's board, a challenge, a leaderboard page —
sent, edited and answered as one value, so what a message carries (a picture, later) is
decided here and not at every place that sends one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

NO_MENTIONS = discord.AllowedMentions.none()


@dataclass(frozen=True, slots=True)
class Panel:
    content: str | None
    embed: discord.Embed
    view: discord.ui.View

    def __post_init__(self) -> None:
        # Every press is handled by the DynamicItems in bot/ui, which work on any message, old
        # or new. A stopped view is still sent, but discord.py does not keep it in memory for
        # each message forever (and does not dispatch presses to it twice).
        self.view.stop()

    def fields(self) -> dict[str, Any]:
        """The message fields, as every send and edit takes them."""
        return {"content": self.content, "embed": self.embed, "view": self.view}

    async def send(self, channel: discord.abc.Messageable) -> discord.Message:
        return await channel.send(**self.fields(), allowed_mentions=NO_MENTIONS)

    async def edit(self, message: discord.Message | discord.PartialMessage) -> None:
        await message.edit(**self.fields())

    async def show_in(self, interaction: discord.Interaction[Any]) -> None:
        """The pressed message becomes this panel (the interaction's own answer)."""
        await interaction.response.edit_message(**self.fields())

    async def reply(self, interaction: discord.Interaction[Any], *, private: bool = False) -> None:
        """A new message answering the interaction (private: only the presser sees it)."""
        await interaction.response.send_message(
            **self.fields(), ephemeral=private, allowed_mentions=NO_MENTIONS
        )

    async def edit_reply(self, interaction: discord.Interaction[Any]) -> None:
        """Replace the interaction's deferred or earlier answer."""
        await interaction.edit_original_response(**self.fields())
