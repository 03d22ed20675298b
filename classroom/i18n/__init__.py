"""Messages in the pupil's language (nb, nn, sv, en).

This package and `classroom.i18n.messages` never import discord, so services, renderers and
tests can use them; the slash-command translator lives in `bot.translator` and is
imported on its own.
"""

from classroom.i18n.messages import (
    DEFAULT_LANG,
    LANGS,
    PLURAL_FORMS,
    Lang,
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
    "PLURAL_FORMS",
    "Lang",
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
