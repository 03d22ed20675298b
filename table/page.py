"""The page around everything: the HTML document, the language switch, messages, and the
setup form. Every string is HTML-escaped here (`md`), once; the catalogue's Markdown bold
becomes <strong>, so a sentence reads as it does on Discord.

The page is plain HTML that works without its script; `static/table.js` only moves the
focus to the box or button that is next and counts the time limit down.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlencode

from classroom.i18n import LANGS, Lang, t
from engine.computer import Strength
from engine.descriptor import GameDescriptor
from engine.options import Option
from engine.registry import GAMES
from table.lang import language_name
from table.setup import EACH_OTHER, MAX_NAME, PLAYER_FIELDS, form_options

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def md(text: str) -> str:
    """A catalogue sentence as HTML: escaped, with Discord's **bold** and `code` kept."""
    out = _BOLD.sub(r"<strong>\1</strong>", esc(text))
    return _CODE.sub(r"<code>\1</code>", out)


def href(path: str, **query: object) -> str:
    """A same-site link with its query (values None are left out)."""
    pairs = {k: str(v) for k, v in query.items() if v is not None}
    return esc(f"{path}?{urlencode(pairs)}" if pairs else path)


def hidden(name: str, value: object) -> str:
    return f'<input type="hidden" name="{esc(name)}" value="{esc(value)}">'


def button(label: str, *, name: str | None = None, value: object = None, cls: str = "") -> str:
    """A button whose text is its label (the tests' and scripts' hook)."""
    attrs = f' name="{esc(name)}" value="{esc(value)}"' if name is not None else ""
    klass = f' class="{esc(cls)}"' if cls else ""
    return f'<button type="submit"{attrs}{klass}>{esc(label)}</button>'


def message(text: str | None, *, error: bool) -> str:
    if not text:
        return ""
    if error:
        return f'<p class="message error" id="message" role="alert">{md(text)}</p>'
    return f'<p class="message note" id="message" role="status">{md(text)}</p>'


def lang_switch(lang: Lang, action: str, keep: Mapping[str, str]) -> str:
    """The language switch: a small GET form, one button per language in its own words."""
    fields = "".join(hidden(k, v) for k, v in keep.items())
    buttons = "".join(
        f'<button type="submit" name="lang" value="{code}" lang="{code}"'
        f' aria-pressed="{"true" if code == lang else "false"}">{esc(language_name(code))}</button>'
        for code in LANGS
    )
    return (
        f'<form class="langs" method="get" action="{esc(action)}" '
        f'aria-label="{esc(t("table.language", lang))}">{fields}{buttons}</form>'
    )


def document(lang: Lang, state: str, title: str, body: str, *, data: str = "") -> str:
    """The whole HTML page; `state` is the root's data-state hook (setup, playing, over)."""
    return (
        "<!doctype html>\n"
        f'<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title>"
        '<link rel="stylesheet" href="/static/table.css">'
        '<script src="/static/table.js" defer></script>'
        f'</head><body><main id="table" data-state="{esc(state)}"{data}>{body}</main>'
        "</body></html>\n"
    )


# -- setup --------------------------------------------------------------------------------------


def select_field(name: str, label: str, options: Iterable[tuple[str, str]], chosen: str) -> str:
    items = "".join(
        f'<option value="{esc(v)}"{" selected" if v == chosen else ""}>{esc(text)}</option>'
        for v, text in options
    )
    return (
        f'<label for="{esc(name)}">{esc(label)}</label>'
        f'<select id="{esc(name)}" name="{esc(name)}">{items}</select>'
    )


def option_field(option: Option, lang: Lang, form: Mapping[str, str]) -> str:
    chosen = form.get(option.key) or str(option.default)
    label = t(f"table.setup.{option.key}", lang)
    if option.key in ("minutes", "answer_seconds"):
        key = esc(option.key)
        return (
            f'<label for="{key}">{esc(label)}</label>'
            f'<input id="{key}" name="{key}" type="number" inputmode="numeric" '
            f'min="{option.low}" max="{option.high}" value="{esc(chosen)}">'
        )
    if option.values is not None:

        def text(v: int) -> str:
            return t(f"choice.level.{v}", lang) if option.key == "level" else str(v)

        return select_field(option.key, label, [(str(v), text(v)) for v in option.values], chosen)
    choices = [(c, t(f"choice.{option.key}.{c}", lang)) for c in option.choices]
    return select_field(option.key, label, choices, chosen)


def _game_picker(lang: Lang, chosen: GameDescriptor | None) -> str:
    items = "".join(
        f"<li>{button(f'{g.emoji} {t(g.name_key, lang)}', name='game', value=g.key)}"
        f"<p>{esc(t(f'game.{g.key}.desc', lang))}</p></li>"
        for g in GAMES.values()
        if g is not chosen
    )
    heading = t("table.setup.other_game" if chosen else "table.setup.choose_game", lang)
    return (
        f'<form method="get" action="/" class="games">{hidden("lang", lang)}'
        f"<h2>{esc(heading)}</h2><ul>{items}</ul></form>"
    )


def _players(lang: Lang, form: Mapping[str, str]) -> str:
    names = "".join(
        f'<label for="{f}">{esc(t("table.setup.player", lang, number=n))}</label>'
        f'<input id="{f}" name="{f}" maxlength="{MAX_NAME}" autocomplete="off" '
        f'value="{esc(form.get(f, ""))}">'
        for n, f in enumerate(PLAYER_FIELDS, start=1)
    )
    opponents = [(EACH_OTHER, t("table.setup.each_other", lang))] + [
        (s.value, t("table.setup.computer", lang, strength=t(f"choice.computer.{s.value}", lang)))
        for s in Strength
    ]
    teams = " checked" if form.get("teams") == "on" else ""
    return (
        f"<fieldset><legend>{esc(t('table.setup.players', lang))}</legend>"
        f'<p class="hint">{esc(t("table.setup.players_hint", lang))}</p>{names}'
        + select_field(
            "opponent", t("table.setup.opponent", lang), opponents, form.get("opponent", "")
        )
        + f'<label class="check"><input type="checkbox" name="teams" value="on"{teams}> '
        f"{esc(t('table.setup.teams', lang))}</label></fieldset>"
    )


def setup_page(
    lang: Lang,
    game: GameDescriptor | None,
    form: Mapping[str, str],
    error: str | None = None,
) -> str:
    """Choose a game, then its options and the players."""
    parts = [
        f"<header><h1>{esc(t('table.title', lang))}</h1>"
        + lang_switch(lang, "/", {"game": game.key} if game else {})
        + "</header>",
        message(error, error=True),
        f'<p class="intro">{esc(t("table.intro", lang))}</p>',
    ]
    if game is not None:
        fields = "".join(option_field(o, lang, form) for o in form_options(game))
        heading = t("table.setup.heading", lang, game=t(game.name_key, lang))
        parts.append(
            f'<form method="post" action="/games" class="setup">'
            f"{hidden('game', game.key)}{hidden('lang', lang)}"
            f"<h2>{esc(heading)}</h2><fieldset>{fields}</fieldset>"
            f"{_players(lang, form)}{button(t('button.begin', lang), cls='primary')}</form>"
        )
    parts.append(_game_picker(lang, game))
    return document(lang, "setup", t("table.title", lang), "".join(parts))


def not_found_page(lang: Lang, key: str, values: Mapping[str, object] | None = None) -> str:
    """A refusal as a page of its own: the sentence, and the way back."""
    body = (
        f"<header><h1>{esc(t('table.title', lang))}</h1></header>"
        + message(t(key, lang, **(values or {})), error=True)
        + f'<form method="get" action="/">{hidden("lang", lang)}'
        + button(t("table.back", lang), cls="primary")
        + "</form>"
    )
    return document(lang, "error", t("table.title", lang), body)
