"""The board's buttons and selects, built from the engine view's choices and nothing else.

This is the one mapping between what the engine offers (`engine.actions.ChoiceKind`) and a
Discord control (`Verb` plus argument), read from the kind alone, so a game with a decision of
its own gets its controls without a line here: `control_of` goes one way for drawing,
`choice_of` the other way for a press.

* A control's verb is its name when the bot has a verb of that name (`flip`, `target`,
  `answer`, `bet`, `pass`: the ids boards have always carried), else `choose` with the name
  as the argument's first part (``mk:choose:42:3:double.1``).
* A press (a button) carries its kind's token (``random``) or its value (a bet's card); a pick
  is a select whose option values are the choice's values (more than Discord's 25 are split
  at zero: ``lo``, ``hi``); a typed choice is a button that opens the answer form.

The handlers are `DynamicItem`s in `bot.ui` that match on custom_id alone, so these are plain
`discord.ui.Button`/`Select` objects whose only job is to carry the right id: the verb, the
game id and the engine's decision *window*, which makes a button from an earlier window
harmless (`bot.custom_ids`). The board shows the choices of its human sides; a window that
waits only for the computer shows none.
"""

from __future__ import annotations

import discord

from bot.custom_ids import Verb, build
from bot.render.screen import GameScreen
from classroom.i18n import Lang, t
from classroom.text.cards import number_text
from engine.actions import FLIP_CHOICE, Choice, ChoiceKind, Shape, Tone
from engine.config import Mode
from engine.registry import descriptor

LOW, HIGH = "lo", "hi"  # a pick of more values than one select holds: zero and below, above
SELECT_MAX = 25  # Discord's options in one select
# The verbs a control may carry as its own name (the ids boards have always carried).
CHOICE_VERBS = frozenset({Verb.FLIP, Verb.TARGET, Verb.ANSWER, Verb.BET, Verb.PASS, Verb.CHOOSE})
_STYLES = {
    Tone.PLAIN: discord.ButtonStyle.secondary,
    Tone.MAIN: discord.ButtonStyle.primary,
    Tone.GO: discord.ButtonStyle.success,
}


def _verb(name: str) -> Verb | None:
    verb = next((v for v in CHOICE_VERBS if v.value == name), None)
    return None if verb is Verb.CHOOSE else verb


def _id(kind: ChoiceKind, arg: str | None) -> tuple[Verb, str | None]:
    name = kind.control_name
    verb = _verb(name)
    if verb is not None:
        return verb, arg
    return Verb.CHOOSE, name if arg is None else f"{name}.{arg}"


def _pick_group(values: list[int], value: int) -> str | None:
    """The select a pick's value is listed in: one select, or zero-and-below and above."""
    if len(values) <= SELECT_MAX:
        return None
    return LOW if value <= 0 else HIGH


def control_of(choice: Choice) -> tuple[Verb, str | None]:
    """The button that offers a choice: its verb and argument (a pick's values are offered by
    selects, `_selects`)."""
    kind = choice.kind
    if kind.token is not None:
        return _id(kind, kind.token)
    if kind.shape is Shape.PRESS and choice.value is not None:
        return _id(kind, str(choice.value))
    return _id(kind, None)


def choice_of(game: str, verb: Verb, arg: str | None) -> ChoiceKind | None:
    """What a press on a control of this game chooses (None: the verb is not an engine
    choice, or the control is none of the game's)."""
    if verb not in CHOICE_VERBS:
        return None
    name, rest = verb.value, arg
    if verb is Verb.CHOOSE:
        if arg is None:
            return None
        name, _, tail = arg.partition(".")
        rest = tail or None
    kinds = [k for k in descriptor(game).kinds if k.control_name == name]
    tokened = next((k for k in kinds if k.token is not None and k.token == rest), None)
    return tokened or next((k for k in kinds if k.token is None), None)


def value_of(verb: Verb, arg: str | None) -> int | None:
    """The value a press carries in its id (a button's own value), if any."""
    if verb is Verb.CHOOSE and arg is not None:
        arg = arg.partition(".")[2] or None
    if arg is None:
        return None
    try:
        return int(arg)
    except ValueError:
        return None


def _button(
    label: str,
    custom_id: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    row: int = 0,
) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=label, custom_id=custom_id, style=style, emoji=emoji, row=row)


def _flip_row(screen: GameScreen, lang: Lang) -> list[discord.ui.Item[discord.ui.View]]:
    gid, window = screen.game_id, screen.view.window
    auto_key = "button.autoplay_on" if screen.autoplay else "button.autoplay_off"
    verb, arg = _id(FLIP_CHOICE, None)
    return [
        _button(
            t(FLIP_CHOICE.label, lang),
            build(verb, gid, window, arg),
            style=_STYLES[FLIP_CHOICE.tone],
            emoji=FLIP_CHOICE.emoji,
        ),
        _button(
            t(auto_key, lang),
            build(Verb.AUTO, gid, window),
            style=discord.ButtonStyle.success if screen.autoplay else discord.ButtonStyle.secondary,
            emoji="⏩",
        ),
    ]


def _by_kind(offered: list[Choice]) -> dict[ChoiceKind, list[Choice]]:
    """The offered choices by kind, in the order the engine offers them."""
    kinds: dict[ChoiceKind, list[Choice]] = {}
    for choice in offered:
        kinds.setdefault(choice.kind, []).append(choice)
    return kinds


def _selects(
    screen: GameScreen, kind: ChoiceKind, choices: list[Choice], lang: Lang, row: int
) -> list[discord.ui.Item[discord.ui.View]]:
    """A pick: one select of its values, or two (zero and below, above zero)."""
    values = sorted({c.value for c in choices if c.value is not None})
    groups: dict[str | None, list[int]] = {}
    for value in values:
        groups.setdefault(_pick_group(values, value), []).append(value)
    items: list[discord.ui.Item[discord.ui.View]] = []
    for group, listed in groups.items():
        verb, arg = _id(kind, group)
        placeholder = kind.label if group is None else f"{kind.label}_{group}"
        items.append(
            discord.ui.Select(
                custom_id=build(verb, screen.game_id, screen.view.window, arg),
                placeholder=t(placeholder, lang),
                options=[discord.SelectOption(label=number_text(v), value=str(v)) for v in listed],
                min_values=1,
                max_values=1,
                row=row + len(items),
            )
        )
    return items


def _choice_items(
    screen: GameScreen, offered: list[Choice], lang: Lang
) -> list[discord.ui.Item[discord.ui.View]]:
    """Every kind offered, drawn by its shape: a pick's selects each take a row, from the top;
    the buttons follow in the row after them."""
    kinds = _by_kind(offered)
    selects: list[discord.ui.Item[discord.ui.View]] = []
    for kind, choices in kinds.items():
        if kind.shape is Shape.PICK:
            selects.extend(_selects(screen, kind, choices, lang, len(selects)))
    row = len(selects)
    buttons: list[discord.ui.Item[discord.ui.View]] = []
    gid, window = screen.game_id, screen.view.window
    for kind, choices in kinds.items():
        if kind.shape is Shape.PICK:
            continue
        values: list[int | None] = [*sorted({c.value for c in choices if c.value is not None})]
        for value in values or [None]:
            verb, arg = control_of(Choice(kind, choices[0].side, choices[0].action, value))
            buttons.append(
                _button(
                    t(kind.label_for(value), lang),
                    build(verb, gid, window, arg),
                    style=_STYLES[kind.tone],
                    emoji=kind.emoji,
                    row=row,
                )
            )
    if any(side in screen.humans for side in screen.view.hints):
        buttons.append(_button(t("button.hint", lang), build(Verb.HINT, gid, window), emoji="💡"))
    return [*selects, *buttons]


def _summary_items(screen: GameScreen, lang: Lang) -> list[discord.ui.Item[discord.ui.View]]:
    """A finished game where pupils answered (regn mode): each presser gets their own summary
    privately. A button, not a message sent at the end: the game can end on
    a timer with no pupil's interaction open to answer through, a bot without privileged
    intents cannot send a DM, and a button still works after a restart or an hour later."""
    config = screen.view.config
    answers = descriptor(config.game).typed_answers and config.mode is Mode.REGN
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
    if any(c.kind is FLIP_CHOICE for c in choices):
        return _flip_row(screen, lang)  # anyone may flip, the computer's side included
    offered = [c for c in choices if c.side in screen.humans]
    return _choice_items(screen, offered, lang)  # none: only the computer decides now


def game_view(screen: GameScreen, lang: Lang) -> discord.ui.View:
    """A persistent view (timeout=None) holding the controls for now; empty when none apply."""
    view = discord.ui.View(timeout=None)
    for item in game_items(screen, lang):
        view.add_item(item)
    return view
