"""The board's buttons and selects, built from the engine view's choices and nothing else.

This is the one mapping between what the engine offers (`engine.actions.ChoiceKind`) and a
Discord control (`Verb` plus argument): `control_of` goes one way for drawing, `choice_of`
the other way for a press. The handlers are `DynamicItem`s in `bot.ui` that match on custom_id
alone, so these are plain `discord.ui.Button`/`Select` objects whose only job is to carry the
right id: the verb, the game id and the engine's decision *window*, which makes a button from
an earlier window harmless (`bot.custom_ids`). The board shows the choices of its human
sides; a window that waits only for the computer shows none.
"""

from __future__ import annotations

import discord

from bot.custom_ids import Verb, build
from bot.i18n import Lang, t
from bot.render.cards import number_text
from bot.render.screen import GameScreen
from engine.actions import Choice, ChoiceKind
from engine.config import Mode
from engine.registry import Need, descriptor

RANDOM = "random"
LOW, HIGH = "lo", "hi"  # the two target selects: zero and below, above zero
_VERBS = {
    ChoiceKind.FLIP: Verb.FLIP,
    ChoiceKind.TARGET: Verb.TARGET,
    ChoiceKind.RANDOM_TARGET: Verb.TARGET,
    ChoiceKind.ANSWER: Verb.ANSWER,
    ChoiceKind.BET: Verb.BET,
    ChoiceKind.PASS: Verb.PASS,
}
_KINDS = {verb: kind for kind, verb in _VERBS.items() if kind is not ChoiceKind.RANDOM_TARGET}


def control_of(choice: Choice) -> tuple[Verb, str | None]:
    """The control that offers a choice: its verb and argument (a target is picked in a
    select, so every target value shares its select's control)."""
    if choice.kind is ChoiceKind.RANDOM_TARGET:
        return Verb.TARGET, RANDOM
    if choice.kind is ChoiceKind.TARGET:
        return Verb.TARGET, LOW if (choice.value or 0) <= 0 else HIGH
    if choice.kind is ChoiceKind.BET:
        return Verb.BET, str(choice.value)
    return _VERBS[choice.kind], None


def choice_of(verb: Verb, arg: str | None) -> ChoiceKind | None:
    """What a press on a control chooses (None: the verb is not an engine choice)."""
    if verb is Verb.TARGET and arg == RANDOM:
        return ChoiceKind.RANDOM_TARGET
    return _KINDS.get(verb)


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
    screen: GameScreen, arg: str, values: list[int], lang: Lang, row: int
) -> discord.ui.Select[discord.ui.View]:
    options = [discord.SelectOption(label=number_text(v), value=str(v)) for v in values]
    return discord.ui.Select(
        custom_id=build(Verb.TARGET, screen.game_id, screen.view.window, arg),
        placeholder=t(f"select.target_{arg}", lang),
        options=options,
        min_values=1,
        max_values=1,
        row=row,
    )


def _flip_row(screen: GameScreen, lang: Lang) -> list[discord.ui.Item[discord.ui.View]]:
    gid, window = screen.game_id, screen.view.window
    auto_key = "button.autoplay_on" if screen.autoplay else "button.autoplay_off"
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
            style=discord.ButtonStyle.success if screen.autoplay else discord.ButtonStyle.secondary,
            emoji="⏩",
        ),
    ]


def _target_items(
    screen: GameScreen, offered: list[Choice], lang: Lang
) -> list[discord.ui.Item[discord.ui.View]]:
    values = sorted(
        {c.value for c in offered if c.kind is ChoiceKind.TARGET and c.value is not None}
    )
    items: list[discord.ui.Item[discord.ui.View]] = []
    low = [v for v in values if v <= 0]
    high = [v for v in values if v > 0]
    if low:
        items.append(_target_select(screen, LOW, low, lang, row=0))
    if high:
        items.append(_target_select(screen, HIGH, high, lang, row=1))
    if any(c.kind is ChoiceKind.RANDOM_TARGET for c in offered):
        custom_id = build(Verb.TARGET, screen.game_id, screen.view.window, RANDOM)
        items.append(_button(t("button.random_target", lang), custom_id, emoji="🎲", row=2))
    return items


def _bet_items(
    screen: GameScreen, offered: list[Choice], lang: Lang
) -> list[discord.ui.Item[discord.ui.View]]:
    gid, window = screen.game_id, screen.view.window
    items: list[discord.ui.Item[discord.ui.View]] = []
    swaps = sorted({c.value for c in offered if c.kind is ChoiceKind.BET and c.value is not None})
    for swap in swaps:
        key = "button.bet_left" if swap == 0 else "button.bet_right"
        items.append(
            _button(
                t(key, lang),
                build(Verb.BET, gid, window, str(swap)),
                style=discord.ButtonStyle.success,
            )
        )
    if any(c.kind is ChoiceKind.PASS for c in offered):
        items.append(_button(t("button.no_bet", lang), build(Verb.PASS, gid, window)))
    if any(side in screen.humans for side in screen.view.hints):
        items.append(_button(t("button.hint", lang), build(Verb.HINT, gid, window), emoji="💡"))
    return items


def _summary_items(screen: GameScreen, lang: Lang) -> list[discord.ui.Item[discord.ui.View]]:
    """A finished game where pupils answered (regn mode): each presser gets their own summary
    privately. A button, not a message sent at the end: the game can end on
    a timer with no pupil's interaction open to answer through, a bot without privileged
    intents cannot send a DM, and a button still works after a restart or an hour later."""
    config = screen.view.config
    answers = Need.ANSWER in descriptor(config.game).needs and config.mode is Mode.REGN
    if not answers or not screen.humans:
        return []
    return [_button(t("button.summary", lang), build(Verb.SUMMARY, screen.game_id), emoji="📋")]


def game_items(screen: GameScreen, lang: Lang) -> list[discord.ui.Item[discord.ui.View]]:
    """The controls for the game as it stands, in display order."""
    if screen.finished:
        return [
            _button(
                t("button.rematch", lang),
                build(Verb.REMATCH, screen.game_id),
                style=discord.ButtonStyle.primary,
                emoji="🔁",
            ),
            *_summary_items(screen, lang),
        ]
    choices = screen.view.choices
    if any(c.kind is ChoiceKind.FLIP for c in choices):
        return _flip_row(screen, lang)  # anyone may flip, the computer's side included
    offered = [c for c in choices if c.side in screen.humans]
    kinds = {c.kind for c in offered}
    if kinds & {ChoiceKind.TARGET, ChoiceKind.RANDOM_TARGET}:
        return _target_items(screen, offered, lang)
    if ChoiceKind.ANSWER in kinds:
        return [
            _button(
                t("button.answer", lang),
                build(Verb.ANSWER, screen.game_id, screen.view.window),
                style=discord.ButtonStyle.primary,
                emoji="✏️",
            )
        ]
    if kinds & {ChoiceKind.BET, ChoiceKind.PASS}:
        return _bet_items(screen, offered, lang)
    return []  # only the computer decides now; it acts on its own


def game_view(screen: GameScreen, lang: Lang) -> discord.ui.View:
    """A persistent view (timeout=None) holding the controls for now; empty when none apply."""
    view = discord.ui.View(timeout=None)
    for item in game_items(screen, lang):
        view.add_item(item)
    return view
