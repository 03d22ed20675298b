# mypy: disable-error-code="override"
# (discord.py types item callbacks for any client; these items are only ever added to the App)
"""The class session summary's button (`bot/render/sessions.py` draws it): each pupil who
presses it is shown their own line of the session, privately. The project chose, as for the
"📋 My summary" of a game, a private answer to a button on the public message
over a DM: a DM needs data the bot does not ask for, and a pupil's DMs may be closed. The id
names only the session (``mk:myline:s<id>``), so the button works for every pupil and after a
restart; the line comes from the presser's own records, so nobody sees another's."""

from __future__ import annotations

import discord

from bot.app import App
from bot.custom_ids import Verb, template
from bot.render.sessions import render_my_session
from bot.replies import send_private
from bot.ui.guild import house_rules, require_guild
from bot.ui.items import MattekrigItem
from classroom.i18n import t


class MyLineItem(MattekrigItem, template=template(Verb.MY_LINE)):
    """The "📋 My session" button: the presser's own line of the session, or a kind word
    that they did not play in it."""

    async def act(self, interaction: discord.Interaction[App]) -> None:
        guild_id = require_guild(interaction)
        _, lang = await house_rules(interaction)  # the pupil's own language first
        session_id = self.cid.session_id
        assert session_id is not None  # the template takes session ids only
        session, line = await interaction.client.sessions.my_line(
            session_id, guild_id, interaction.user.id
        )
        if line is None:
            await send_private(interaction, t("session.mine.not_in", lang))
            return
        embed = render_my_session(session, line, lang)
        await interaction.response.send_message(embed=embed, ephemeral=True)
