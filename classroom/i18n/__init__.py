"""Messages in the pupil's language (nb, nn, sv, en: `classroom.i18n.languages`).

This package and `classroom.i18n.messages` never import discord, so services, renderers and
tests can use them; the slash-command translator lives in `bot.translator` and is
imported on its own.
"""

from classroom.i18n.languages import LANGS, LANGUAGES, Lang, Language
from classroom.i18n.messages import (
    DEFAULT_LANG,
    PLURAL_FORMS,
    MissingTranslationError,
    PluralForm,
    catalogue,
    is_key,
    lang_of,
    option_name,
    pick_locale,
    placeholders,
    plural_form,
    t,
)

__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "LANGUAGES",
    "PLURAL_FORMS",
    "Lang",
    "Language",
    "MissingTranslationError",
    "PluralForm",
    "catalogue",
    "is_key",
    "lang_of",
    "option_name",
    "pick_locale",
    "placeholders",
    "plural_form",
    "t",
]
