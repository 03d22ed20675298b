"""The page's language: an explicit choice (the switch), else the browser's Accept-Language
(nb/no, nn/no-NN, sv, en, by their q-values), else English."""

from __future__ import annotations

from classroom.i18n import DEFAULT_LANG, LANGS, Lang, lang_of, t


def language_name(lang: Lang) -> str:
    """A language in its own words ("Norsk nynorsk", "Svenska"), as the switch shows it: its
    own catalogue's name for it, the one the server's language setting on Discord shows."""
    return t(f"choice.language.{lang}", lang)


def accepted(header: str | None) -> Lang | None:
    """The best language of an Accept-Language header that we speak."""
    ranked: list[tuple[float, int, Lang]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        lang = lang_of(tag.strip())
        if lang is not None and quality > 0:
            ranked.append((-quality, index, lang))
    return min(ranked)[2] if ranked else None


def page_lang(chosen: str | None, header: str | None) -> Lang:
    if chosen in LANGS:
        return lang_of(chosen) or DEFAULT_LANG
    return accepted(header) or DEFAULT_LANG
