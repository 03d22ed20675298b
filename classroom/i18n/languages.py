"""The languages Mattekrig speaks, one line each: the one list every screen reads (the
catalogues, the browser's switch and Accept-Language, the server's language setting and the
slash commands' translations on Discord).

A language is its catalogues (``catalogues/<area>.<code>.json``, the same keys as English,
checked by the catalogue tests) and its line in `LANGUAGES`. Its line says what only it can
say: the other language tags that mean it (Discord's and most browsers' ``no`` is bokmål),
and the Discord locale whose slash commands it names (nynorsk has none on Discord: it is
reached by choosing it; English is the commands' own text). A language whose catalogues are
kept elsewhere names their folder.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import TypeAlias, overload

Lang: TypeAlias = str  # a language's code, one of `LANGS`


@dataclass(frozen=True, slots=True)
class Language:
    code: str  # its catalogues' suffix and its name everywhere (a BCP 47 primary tag)
    tags: tuple[str, ...] = ()  # other primary tags a browser or Discord says it with
    discord: str | None = None  # the Discord locale its slash commands are shown in
    folder: Traversable | None = None  # its catalogues, when not in `catalogues/`


LANGUAGES: dict[str, Language] = {
    language.code: language
    for language in (
        Language("nb", tags=("no",), discord="no"),  # bokmål: Discord's Norwegian
        Language("nn"),  # nynorsk: a server's or a page's choice (Discord has no locale)
        Language("sv", discord="sv-SE"),
        Language("en"),  # the reference: every key is in English
    )
}


class _Codes(Sequence[Lang]):
    """The codes of `LANGUAGES`, in order, as they are now (a language added later is in)."""

    @overload
    def __getitem__(self, index: int) -> Lang: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Lang]: ...

    def __getitem__(self, index: int | slice) -> Lang | Sequence[Lang]:
        return tuple(LANGUAGES)[index]

    def __len__(self) -> int:
        return len(LANGUAGES)

    def __iter__(self) -> Iterator[Lang]:
        return iter(tuple(LANGUAGES))

    def __contains__(self, code: object) -> bool:
        return code in LANGUAGES

    def __repr__(self) -> str:
        return repr(tuple(LANGUAGES))


LANGS: Sequence[Lang] = _Codes()


def by_tag(primary: str) -> Lang | None:
    """The language a primary language tag names (``no`` → nb), else None."""
    for language in LANGUAGES.values():
        if primary == language.code or primary in language.tags:
            return language.code
    return None


def by_discord_locale(locale: str) -> Lang | None:
    """The language whose slash-command names Discord shows in ``locale`` (``sv-SE`` → sv)."""
    return next((lang.code for lang in LANGUAGES.values() if lang.discord == locale), None)
