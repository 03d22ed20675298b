"""Challenge and lobby messages: who invites whom to what, who has answered, and the buttons.

An invitation's message is edited in place like a board, so the same `Board` carries it. A
closed invitation (declined, withdrawn, expired, started, cancelled) keeps its text, says
why it closed, and has no buttons left to press.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.custom_ids import Verb, build
from bot.render.board import ENDED_COLOUR, Board, clip, game_title, when
from bot.render.display_names import user_name
from classroom.i18n import Lang, t
from classroom.settings import DEFAULT_ANSWER_SECONDS, team_order
from classroom.text.locale import as_lang
from classroom.text.naming import computer_name, join_names
from engine.descriptor import GameDescriptor
from engine.levels import RESULT_LEVELS
from engine.options import SIDES, TEAM_SIDES
from engine.registry import GAMES
from engine.regnekrig import REGNEKRIG
from storage.records import Invitation

LOBBY_MAX = SIDES[-1]
_MEMBER_MARKS = {"accepted": "✅", "invited": "⏳", "declined": "❌", "joined": "✅"}


def _kind(options: Mapping[str, Any]) -> GameDescriptor:
    return GAMES.get(str(options.get("game", "")), REGNEKRIG)


def _int(options: Mapping[str, Any], key: str, default: int) -> int:
    value = options.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def options_lines(options: Mapping[str, Any], lang: Lang) -> list[str]:
    """The agreed table rules, one short line each (the keys of `settings_from_options`)."""
    kind = _kind(options)
    lines: list[str] = []
    deck = kind.option("deck")
    if deck is not None and deck.allows(options.get("deck", deck.default)):
        name = t(f"deck.{options.get('deck', deck.default)}.name", lang)
        lines.append(t("invite.option.deck", lang, deck=name))
    mode = kind.option("mode")
    mode_value = options.get("mode", mode.default if mode else None)
    if mode is not None and mode.allows(mode_value):
        lines.append(t("invite.option.mode", lang, mode=t(f"mode.{mode_value}.name", lang)))
    war_size = kind.option("war_size")
    if war_size is not None:
        count = _int(options, "war_size", int(war_size.default))
        lines.append(t("invite.option.war_size", lang, count=count))
    rule = kind.option("war_rule")
    if rule is not None and rule.allows(options.get("war_rule", rule.default)):
        name = t(f"war_rule.{options.get('war_rule', rule.default)}.name", lang)
        lines.append(t("invite.option.war_rule", lang, rule=name))
    # An answer time matters only where the game waits for decisions (not in auto mode).
    asks = mode is None or mode_value != "auto"
    form = kind.option("answer_form")
    if asks and form is not None and _int(options, "level", 1) not in RESULT_LEVELS:
        value = options.get("answer_form", form.default)
        if form.allows(value):
            # The form's name says it all ("Svar med tallet"): no "Svar:" in front of it.
            lines.append(t(f"answer_form.{value}.name", lang))
    if asks and kind.option("answer_seconds") is not None:
        seconds = _int(options, "answer_seconds", DEFAULT_ANSWER_SECONDS)
        if seconds > 0:
            lines.append(t("invite.option.answer_seconds", lang, count=seconds))
        else:
            lines.append(t("invite.option.no_answer_limit", lang))
    minutes = _int(options, "minutes", 0)
    if minutes > 0:
        lines.append(t("invite.option.minutes", lang, count=minutes))
    if options.get("teams"):
        lines.append(t("invite.option.teams", lang))
    computer = options.get("computer")
    if computer:
        lines.append(t("invite.option.computer", lang, name=computer_name(str(computer), lang)))
    if options.get("preset"):
        lines.append(t("board.preset", lang))
    return [f"• {line}" for line in lines]


def _game_name(options: Mapping[str, Any], lang: Lang) -> str:
    return game_title(_kind(options), _int(options, "level", 1), lang)


def _options(inv: Invitation) -> Mapping[str, Any]:
    return inv.options if isinstance(inv.options, Mapping) else {}


def _embed(inv: Invitation, title: str, lines: list[str]) -> discord.Embed:
    colour = discord.Colour(_kind(_options(inv)).colour) if inv.status == "open" else ENDED_COLOUR
    return discord.Embed(
        title=clip(title, 256), description=clip("\n".join(lines), 4096), colour=colour
    )


def _partner_select(
    inv: Invitation, mates: list[int], names: Mapping[int, str], lang: Lang
) -> discord.ui.Select[discord.ui.View]:
    """The host's choice of team-mate (RULES §1.2: four players play two teams of two)."""
    partner = _options(inv).get("partner")
    return discord.ui.Select(
        custom_id=build(Verb.TEAMS, inv.id),
        placeholder=t("select.partner", lang),
        options=[
            discord.SelectOption(
                label=user_name(uid, names)[:100], value=str(uid), default=uid == partner
            )
            for uid in mates
        ],
        row=1,
    )


def _view(items: list[discord.ui.Item[discord.ui.View]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def _button(
    label: str, custom_id: str, style: discord.ButtonStyle
) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=label, custom_id=custom_id, style=style)


def _render_challenge(inv: Invitation, lang: Lang, names: Mapping[int, str]) -> Board:
    """A challenge: the host, the invited players and their answers, the rules, the expiry."""
    options = _options(inv)
    host = user_name(inv.host_id, names)
    invited = [user_name(uid, names) for uid in inv.user_ids()]
    lines = [
        t(
            "invite.challenge.text",
            lang,
            host=host,
            names=join_names([f"**{n}**" for n in invited], lang) or "—",
            game=_game_name(options, lang),
        ),
        *options_lines(options, lang),
        "",
    ]
    for member in inv.members:
        mark = _MEMBER_MARKS.get(member.state, "⏳")
        state = t(f"invite.member.{member.state}", lang)
        lines.append(f"{mark} {user_name(member.user_id, names)} — {state}")
    content: str | None = None
    items: list[discord.ui.Item[discord.ui.View]] = []
    if inv.status == "open":
        lines.append("")
        lines.append(t("invite.challenge.how", lang, host=host))
        lines.append(t("invite.challenge.expires", lang, when=when(inv.expires_at)))
        waiting = inv.user_ids("invited")
        content = " ".join(f"<@{uid}>" for uid in waiting) or None
        items = [
            _button(
                t("button.accept", lang), build(Verb.ACCEPT, inv.id), discord.ButtonStyle.success
            ),
            _button(
                t("button.decline", lang), build(Verb.DECLINE, inv.id), discord.ButtonStyle.danger
            ),
            _button(
                t("button.withdraw", lang),
                build(Verb.WITHDRAW, inv.id),
                discord.ButtonStyle.secondary,
            ),
        ]
    else:
        declined = [user_name(uid, names) for uid in inv.user_ids("declined")]
        lines.append("")
        lines.append(
            t(
                f"invite.closed.{inv.status}",
                lang,
                host=host,
                names=join_names(declined, lang) or "—",
            )
        )
    title = t("invite.challenge.title", lang)
    return Board(content=content, embed=_embed(inv, title, lines), view=_view(items))


def _render_lobby(inv: Invitation, lang: Lang, names: Mapping[int, str]) -> Board:
    """A lobby: an open table anyone may join until the host starts it (2–4 players)."""
    options = _options(inv)
    host = user_name(inv.host_id, names)
    joined = inv.user_ids("joined")
    players = [("👑 " if uid == inv.host_id else "") + user_name(uid, names) for uid in joined] or [
        t("invite.lobby.empty", lang)
    ]
    lines = [
        t("invite.lobby.text", lang, host=host, game=_game_name(options, lang)),
        *options_lines(options, lang),
        "",
        t("invite.lobby.players", lang, count=len(joined), max=LOBBY_MAX),
        *(f"• {p}" for p in players),
    ]
    teams = bool(options.get("teams"))
    if teams and len(joined) == TEAM_SIDES:
        order = team_order(list(joined), options.get("partner"))
        lines.append(
            t(
                "invite.lobby.teams",
                lang,
                team_a=f"{user_name(order[0], names)} + {user_name(order[2], names)}",
                team_b=f"{user_name(order[1], names)} + {user_name(order[3], names)}",
            )
        )
    items: list[discord.ui.Item[discord.ui.View]] = []
    if inv.status == "open":
        lines.append("")
        need = "invite.lobby.need_teams" if teams else "invite.lobby.need"
        lines.append(t(need, lang, host=host))
        lines.append(t("invite.lobby.expires", lang, when=when(inv.expires_at)))
        items = [
            _button(t("button.join", lang), build(Verb.JOIN, inv.id), discord.ButtonStyle.success),
            _button(
                t("button.leave", lang), build(Verb.LEAVE, inv.id), discord.ButtonStyle.secondary
            ),
            _button(
                t("button.begin", lang), build(Verb.BEGIN, inv.id), discord.ButtonStyle.primary
            ),
            _button(
                t("button.cancel", lang), build(Verb.CANCEL, inv.id), discord.ButtonStyle.danger
            ),
        ]
        mates = [uid for uid in joined if uid != inv.host_id]
        if teams and mates:
            items.append(_partner_select(inv, mates, names, lang))
    else:
        lines.append("")
        lines.append(t(f"invite.lobby_closed.{inv.status}", lang, host=host))
    title = t("invite.lobby.title", lang)
    return Board(content=None, embed=_embed(inv, title, lines), view=_view(items))


def render_challenge(inv: Invitation, lang: str, names: Mapping[int, str]) -> Board:
    """A challenge: the host, the invited players and their answers, the rules, the expiry."""
    return _render_challenge(inv, as_lang(lang), names)


def render_lobby(inv: Invitation, lang: str, names: Mapping[int, str]) -> Board:
    """A lobby: an open table anyone may join until the host starts it (2–4 players)."""
    return _render_lobby(inv, as_lang(lang), names)
