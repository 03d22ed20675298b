"""The board's buttons and selects, chosen from the engine phase.

The handlers are `DynamicItem`s in `bot.ui` that match on custom_id alone, so these are plain
`discord.ui.Button`/`Select` objects whose only job is to carry the right id: the verb, the
game id and the engine's decision *window* in the round slot, which makes a button from an
earlier window harmless (`bot.ui.custom_ids`). A control is only shown when a human can use it
now: the engine would refuse anything else, and a button that always says "not now" teaches
pupils to ignore buttons.
"""

from __future__ import annotations

import discord

from bot.i18n import Lang, t
from bot.render.cards import number_text
from bot.services.live import LiveGame
from bot.ui.custom_ids import Verb, build
from engine.config import TARGET_MAX, TARGET_MIN, Mode
from engine.state import Phase


def _button(
    label: str,
    custom_id: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    row: int = 0,
) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=label, custom_id=custom_id, style=style, emoji=emoji, row=row)


def _target_select(
    gid: int, window: int, arg: str, low: int, high: int, lang: Lang, row: int
) -> discord.ui.Select[discord.ui.View]:
    options = [
        discord.SelectOption(label=number_text(value), value=str(value))
        for value in range(low, high + 1)
    ]
    return discord.ui.Select(
        custom_id=build(Verb.TARGET, gid, window, arg),
        placeholder=t(f"select.target_{arg}", lang),
        options=options,
        min_values=1,
        max_values=1,
        row=row,
    )


def _flip_row(game: LiveGame, lang: Lang) -> list[discord.ui.Item[discord.ui.View]]:
    gid, window = game.id, game.state.window
    auto_key = "button.autoplay_on" if game.autoplay else "button.autoplay_off"
    return [
        _button(
            t("button.flip", lang),
            build(Verb.FLIP, gid, window),
            style=discord.ButtonStyle.primary,
            emoji="🔄",
        ),
        _button(
            t(auto_key, lang),
            build(Verb.AUTO, gid, window),
            style=discord.ButtonStyle.success if game.autoplay else discord.ButtonStyle.secondary,
            emoji="⏩",
        ),
    ]


def _humans_pending(game: LiveGame) -> bool:
    computers = game.computer_sides()
    return any(side not in computers for side in game.state.pending)


def game_items(game: LiveGame, lang: Lang) -> list[discord.ui.Item[discord.ui.View]]:
    """The controls for the game as it stands, in display order."""
    gid, window = game.id, game.state.window
    state = game.state
    if game.is_finished:
        return [
            _button(
                t("button.rematch", lang),
                build(Verb.REMATCH, gid),
                style=discord.ButtonStyle.primary,
                emoji="🔁",
            )
        ]
    auto = state.config.mode is Mode.AUTO and not state.config.descriptor.betting
    if state.phase is Phase.FLIP or auto:
        return _flip_row(game, lang)
    if not _humans_pending(game):
        return []  # only the computer decides now; it acts on its own
    if state.phase is Phase.TARGET:
        return [
            _target_select(gid, window, "lo", TARGET_MIN, 0, lang, row=0),
            _target_select(gid, window, "hi", 1, TARGET_MAX, lang, row=1),
            _button(
                t("button.random_target", lang),
                build(Verb.TARGET, gid, window, "random"),
                emoji="🎲",
                row=2,
            ),
        ]
    if state.phase is Phase.ANSWER:
        return [
            _button(
                t("button.answer", lang),
                build(Verb.ANSWER, gid, window),
                style=discord.ButtonStyle.primary,
                emoji="✏️",
            )
        ]
    if state.phase is Phase.BET:
        return [
            _button(
                t("button.bet_left", lang),
                build(Verb.BET, gid, window, "0"),
                style=discord.ButtonStyle.success,
            ),
            _button(
                t("button.bet_right", lang),
                build(Verb.BET, gid, window, "1"),
                style=discord.ButtonStyle.success,
            ),
            _button(t("button.no_bet", lang), build(Verb.PASS, gid, window)),
            _button(t("button.hint", lang), build(Verb.HINT, gid, window), emoji="💡"),
        ]
    return []


def game_view(game: LiveGame, lang: Lang) -> discord.ui.View:
    """A persistent view (timeout=None) holding the controls for now; empty when none apply."""
    view = discord.ui.View(timeout=None)
    for item in game_items(game, lang):
        view.add_item(item)
    return view
