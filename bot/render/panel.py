"""One message's worth of text and controls — a game's board, a challenge, a leaderboard page —
as one value, so what a message carries (its picture) is decided here and not at every place
that sends one. Render never talks to Discord: `bot.replies` sends, edits and answers with
a panel's fields."""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.render.pictures import Picture


@dataclass(frozen=True, slots=True)
class Panel:
    content: str | None
    embed: discord.Embed
    view: discord.ui.View
    picture: Picture | None = None  # shown as the embed's image; its alt text describes it
    # The picture already on the message, left in place by an edit (no new upload): Discord
    # keeps a file an edit's `attachments` list names by id, with its own description.
    kept: discord.Attachment | None = None

    def __post_init__(self) -> None:
        # Every press is handled by the items in bot/ui (bot/ui/presses.py), which work on
        # any message, old or new. A stopped view is still sent, but discord.py does not keep
        # it in memory for each message forever (and does not dispatch presses to it twice).
        self.view.stop()

    def with_picture(self, picture: Picture) -> Panel:
        """The same panel with the picture as its embed's image."""
        embed = self.embed.copy()
        embed.set_image(url=picture.url)
        return replace(self, embed=embed, picture=picture, kept=None)

    def keeping(self, attachment: discord.Attachment) -> Panel:
        """The same panel over the picture the message already carries: an edit that sends
        no file, so the text changes at once and the picture (with the alt text that
        describes it) stays until a newer one replaces it."""
        embed = self.embed.copy()
        embed.set_image(url=f"attachment://{attachment.filename}")
        return replace(self, embed=embed, picture=None, kept=attachment)

    def _file(self) -> discord.File | None:
        """A fresh file each time: discord.py reads a file once when it sends it."""
        if self.picture is None:
            return None
        png = io.BytesIO(self.picture.png)
        return discord.File(png, filename=self.picture.filename, description=self.picture.alt)

    def fields(self) -> dict[str, Any]:
        """The fields of a new message."""
        out: dict[str, Any] = {"content": self.content, "embed": self.embed, "view": self.view}
        file = self._file()
        if file is not None:
            out["file"] = file
        return out

    def edit_fields(self) -> dict[str, Any]:
        """The fields of an edit: the attachments are replaced, so an edit with a picture
        leaves exactly its one file, an edit keeping one leaves that file, and an edit
        without either removes an earlier picture."""
        file = self._file()
        attachments: list[discord.File | discord.Attachment] = []
        if file is not None:
            attachments.append(file)
        elif self.kept is not None:
            attachments.append(self.kept)
        return {
            "content": self.content,
            "embed": self.embed,
            "view": self.view,
            "attachments": attachments,
        }
