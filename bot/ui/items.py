# mypy: disable-error-code="override"
# (discord.py types item callbacks for any client; these items are only ever added to the App)
"""The buttons and selects of boards, challenges and lobbies as `DynamicItem`s: each is built
from the pressed custom_id alone (`bot.ui.presses`), so they keep working on old messages and
after a restart. Each one answers every press: its result, or a short private explanation
(an exception that escaped an item would leave the press unanswered, so each catches its
own)."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import discord

from bot.app import App
from bot.custom_ids import TEMPLATE, CustomId, Verb, parse, template, templates
from bot.render.board import render_answer_modal, render_hint
from bot.render.buttons import CHOICE_VERBS, choice_of, value_of
from bot.render.invitations import render_challenge, render_lobby
from bot.render.summary import render_summary
from bot.replies import lang_of, reply_lang, report_error, send_private
from bot.services.invitations import Invitation
from bot.services.live import GameUpdate
from bot.ui.flow import post_board, send_challenge, thread_from, thread_name
from bot.ui.modals import AnswerModal
from classroom.errors import UserFacingError
from classroom.i18n import t
from engine.actions import ChoiceKind, Shape
from engine.view import view

ItemT = discord.ui.Item[discord.ui.View]
STALE_KEYS = frozenset({"error.round_over", "error.game_over"})  # what a board behind says


def selected_values(interaction: discord.Interaction[App]) -> list[str]:
    """The values a select sent (an empty list for anything else)."""
    data: Any = interaction.data or {}
    values = data.get("values")
    return [str(v) for v in values] if isinstance(values, list) else []


class MattekrigItem(discord.ui.DynamicItem[ItemT], template=TEMPLATE):
    """Base: parse the id, run `act`, route every error to `report_error`. Each subclass
    matches its own verb's template only (two templates matching one id would race)."""

    def __init__(self, item: ItemT, cid: CustomId | None) -> None:
        super().__init__(item)
        self._cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[App], item: ItemT, match: re.Match[str], /
    ) -> MattekrigItem:
        # Never raises: discord.py would log the error and leave the press unanswered. An id
        # the template matches but `parse` refuses (a number past 2**63) is answered instead.
        return cls(item, parse(match.string))

    @property
    def cid(self) -> CustomId:
        assert self._cid is not None  # `callback` answers a press without one
        return self._cid

    async def callback(self, interaction: discord.Interaction[App]) -> None:
        if self._cid is None:
            await send_private(interaction, t("error.unknown_button", lang_of(interaction)))
            return
        try:
            await self.act(interaction)
        except UserFacingError as error:
            if error.key in STALE_KEYS and self._cid.game_id is not None:
                # The board may be behind its game (a crash between a commit and its edit):
                # the refusal is true, and the board is brought up to date for the next press.
                interaction.client.boards.heal(self._cid.game_id, interaction.message)
            await report_error(interaction, error)
        except Exception as error:
            await report_error(interaction, error)

    async def act(self, interaction: discord.Interaction[App]) -> None:
        raise NotImplementedError

    @property
    def game_id(self) -> int:
        assert self.cid.game_id is not None
        return self.cid.game_id

    @property
    def invitation_id(self) -> int:
        assert self.cid.invitation_id is not None
        return self.cid.invitation_id


# -- the board ----------


class ChoiceItem(MattekrigItem, template=templates(CHOICE_VERBS)):
    """Any control of any game's choices (`bot.render.buttons`): a button, a select, or the
    button that opens the answer form. Which choice it makes is read from the game's own
    kinds, so a game with a decision of its own needs no item of its own."""

    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        games = bot.games
        cid = self.cid
        game = games.live(self.game_id)
        kind = choice_of(game.state.config.game, cid.verb, cid.arg)
        if kind is None:
            raise UserFacingError("error.unknown_button")
        if kind.shape is Shape.TYPE:
            await self._open_form(interaction, kind)
            return
        value = value_of(cid.verb, cid.arg)
        if kind.shape is Shape.PICK:
            try:
                value = int(selected_values(interaction)[0])
            except (IndexError, ValueError, TypeError):
                value = None  # the engine refuses a pick without its value
        update = await games.choose(self.game_id, interaction.user.id, cid.window, kind, value)
        # Quiet: the board's ✓ beside the side is the acknowledgement: no private message piles up.
        await bot.boards.respond(interaction, update)

    async def _open_form(self, interaction: discord.Interaction[App], kind: ChoiceKind) -> None:
        """The answer form for the presser's side (checked first, so a spectator or a side that
        already answered is told at once instead of typing in vain)."""
        games = interaction.client.games
        side = games.check(self.game_id, interaction.user.id, self.cid.window, kind)
        game = games.live(self.game_id)
        seen = view(game.state, side)
        text = render_answer_modal(seen, side, reply_lang(interaction, game.settings.locale))
        modal = AnswerModal(self.cid.to_custom_id(), text)
        await interaction.response.send_modal(modal)


class AutoplayItem(MattekrigItem, template=template(Verb.AUTO)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        update = await bot.games.toggle_autoplay(self.game_id, interaction.user.id, None)
        await bot.boards.respond(interaction, update)


class HintItem(MattekrigItem, template=template(Verb.HINT)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        chances = await bot.games.hint(self.game_id, interaction.user.id, self.cid.window)
        lang = reply_lang(interaction, bot.games.live(self.game_id).settings.locale)
        await send_private(interaction, render_hint(chances, lang))


class SummaryItem(MattekrigItem, template=template(Verb.SUMMARY)):
    """The presser's own end-of-game summary, privately."""

    async def act(self, interaction: discord.Interaction[App]) -> None:
        summary = await interaction.client.summaries.summary(self.game_id, interaction.user.id)
        await send_private(interaction, render_summary(summary, lang_of(interaction)))


class RematchItem(MattekrigItem, template=template(Verb.REMATCH)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        made = await bot.invitations.rematch(self.game_id, interaction.user.id)
        if isinstance(made, GameUpdate):  # the computer accepts at once
            await interaction.response.defer()
            await post_board(bot, made, None, made.game.channel_id)
            return
        lang = made.options.get("locale", "en")
        if made.host_id != interaction.user.id:  # accepted the other player's rematch
            await interaction.response.defer()
            await _show_invitation(interaction, made)
            if made.all_accepted:
                invitation, update = await bot.invitations.begin(made.id, None)
                await _show_invitation(interaction, invitation)
                await post_board(bot, update, None, invitation.channel_id)
            return
        await send_challenge(interaction, made, lang)


# -- challenges and lobbies ----------


async def _show_invitation(interaction: discord.Interaction[App], invitation: Invitation) -> None:
    bot = interaction.client
    names = {int(k): v for k, v in invitation.options.get("names", {}).items()}
    lang = invitation.options.get("locale", "en")
    render = render_challenge if invitation.kind == "challenge" else render_lobby
    board = render(invitation, lang, names)
    if interaction.response.is_done():
        if invitation.message_id is not None:
            message = bot.get_partial_messageable(invitation.channel_id).get_partial_message(
                invitation.message_id
            )
            with contextlib.suppress(discord.NotFound):  # deleted: nothing to show it on
                await message.edit(content=board.content, embed=board.embed, view=board.view)
    else:
        await interaction.response.edit_message(
            content=board.content, embed=board.embed, view=board.view
        )


async def _begin(
    interaction: discord.Interaction[App], invitation: Invitation, user_id: int | None
) -> None:
    """Turn an accepted challenge or a full lobby into a game, in a thread when chosen."""
    bot = interaction.client
    options = invitation.options
    thread = None
    if options.get("thread") and interaction.message is not None:
        names = list(options.get("names", {}).values())
        lang = options.get("locale", "en")
        thread = await thread_from(interaction.message, thread_name(options, names, lang))
    invitation, update = await bot.invitations.begin(
        invitation.id, user_id, thread_id=thread.id if thread else None
    )
    await _show_invitation(interaction, invitation)
    await post_board(bot, update, thread, invitation.channel_id)


class AcceptItem(MattekrigItem, template=template(Verb.ACCEPT)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        invitation = await bot.invitations.answer(
            self.invitation_id, interaction.user.id, accept=True
        )
        if invitation.all_accepted:
            await _begin(interaction, invitation, None)
        else:
            await _show_invitation(interaction, invitation)


class DeclineItem(MattekrigItem, template=template(Verb.DECLINE)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        invitation = await bot.invitations.answer(
            self.invitation_id, interaction.user.id, accept=False
        )
        await _show_invitation(interaction, invitation)


class WithdrawItem(MattekrigItem, template=template(Verb.WITHDRAW)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        invitation = await bot.invitations.withdraw(self.invitation_id, interaction.user.id)
        await _show_invitation(interaction, invitation)


class JoinItem(MattekrigItem, template=template(Verb.JOIN)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        invitation = await bot.invitations.join(
            self.invitation_id, interaction.user.id, interaction.user.display_name
        )
        await _show_invitation(interaction, invitation)


class LeaveItem(MattekrigItem, template=template(Verb.LEAVE)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        invitation = await bot.invitations.leave(self.invitation_id, interaction.user.id)
        await _show_invitation(interaction, invitation)


class BeginItem(MattekrigItem, template=template(Verb.BEGIN)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        invitation = await bot.invitations.invitation(self.invitation_id)
        if invitation.host_id != interaction.user.id:
            raise UserFacingError("error.not_host")
        await _begin(interaction, invitation, interaction.user.id)


class TeamsItem(MattekrigItem, template=template(Verb.TEAMS)):
    """The host picks their team-mate in a teams lobby."""

    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        try:
            partner = int(selected_values(interaction)[0])
        except (IndexError, ValueError, TypeError):
            raise UserFacingError("error.not_joined") from None
        invitation = await bot.invitations.choose_partner(
            self.invitation_id, interaction.user.id, partner
        )
        await _show_invitation(interaction, invitation)


class CancelItem(MattekrigItem, template=template(Verb.CANCEL)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        invitation = await bot.invitations.cancel(self.invitation_id, interaction.user.id)
        await _show_invitation(interaction, invitation)


# The items of boards, challenges and lobbies (bot/ui/presses.py runs every press).
BOARD_ITEMS: tuple[type[MattekrigItem], ...] = (
    ChoiceItem,
    AutoplayItem,
    HintItem,
    SummaryItem,
    RematchItem,
    AcceptItem,
    DeclineItem,
    WithdrawItem,
    JoinItem,
    LeaveItem,
    BeginItem,
    CancelItem,
    TeamsItem,
)
