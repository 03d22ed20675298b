"""Who plays each side, as a short, safe piece of text.

Display names come from Discord and may be 32 characters of anything, including Markdown
that would bold half the board or break a line; every name is clipped and escaped here, once,
so no other renderer has to think about it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from discord.utils import escape_markdown, escape_mentions

from bot.services.live import LiveGame
from classroom.i18n import Lang, t
from classroom.text.naming import computer_name
from storage.records import Player

MAX_NAME = 32  # Discord's own display-name limit; longer names are clipped with "…"
NAMES_KEPT = 2048  # games' side names remembered: two per live game (board and picture)


def clean_name(name: str, *, plain: bool = False) -> str:
    """A display name made safe for an embed: one line, clipped, Markdown and mentions escaped
    (`plain`: not escaped, for a picture, which prints every character as it is)."""
    flat = " ".join(name.split()) or "?"
    if len(flat) > MAX_NAME:
        flat = flat[: MAX_NAME - 1] + "…"
    return flat if plain else escape_mentions(escape_markdown(flat))


def player_name(player: Player, lang: Lang, *, plain: bool = False) -> str:
    if player.computer is not None:
        return computer_name(player.computer, lang)
    return clean_name(player.display_name, plain=plain)


def side_names(game: LiveGame, lang: Lang, *, plain: bool = False) -> dict[int, str]:
    """Everyone on each side (a team shows both members), or ``Side 2`` when nobody is
    seated there."""
    return dict(_side_names(game.players, game.state.config.sides, lang, plain))


# Every board's render and picture names the sides, and a game's players do not change
# between presses: escaping them again was ~2 % of the bot's CPU on the flood.
@lru_cache(maxsize=NAMES_KEPT)
def _side_names(
    players: tuple[Player, ...], sides: int, lang: Lang, plain: bool
) -> tuple[tuple[int, str], ...]:
    return tuple((side, _side_name(players, side, lang, plain)) for side in range(sides))


def _side_name(players: tuple[Player, ...], side: int, lang: Lang, plain: bool) -> str:
    seated = sorted((p for p in players if p.side == side), key=lambda p: p.seat)
    if not seated:
        return t("side.fallback", lang, number=side + 1)
    return " & ".join(player_name(p, lang, plain=plain) for p in seated)


def user_name(user_id: int, names: Mapping[int, str]) -> str:
    """A user by the name we were given, else a mention (renders as the name, never pings in an
    embed)."""
    name = names.get(user_id)
    return clean_name(name) if name else f"<@{user_id}>"
