"""The four catalogues (nb, nn, sv, en) stay in step, and `t`/`pick_locale` behave as the bot
relies on."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from collections.abc import Mapping

import discord
import pytest

from classroom.i18n import LANGS, MissingTranslationError, catalogue, pick_locale, placeholders, t
from classroom.i18n import messages as catalogue_module

REJECTION_CODES = (
    "empty",
    "too_long",
    "unknown_symbol",
    "malformed",
    "unsupported_power",
    "not_your_cards",
    "operator_not_allowed",
    "square_not_allowed",
    "root_not_allowed",
    "squares_both",
    "root_and_square",
    "root_of_result",
    "root_of_non_square",
    "division_by_zero",
    "too_many_operations",
    "wrong_value",
    "result_missing",
    "power_not_allowed",
    "sign_slip",
    "arithmetic_slip",
    "card_twice",
    "card_missing",
    "root_of_negative",
    "no_legal_value",
)
REQUIRED = (
    *(f"answer.rejected.{code}" for code in REJECTION_CODES),
    "error.not_a_player",
    "error.round_over",
    "error.conflict",
    "error.generic",
    "error.missing_permission",
    *(f"game.{g}.name" for g in ("regnekrig", "intervallkrig", "satsing")),
    *(f"level.{n}.name" for n in range(1, 8)),
    *(f"deck.{d}.{f}" for d in ("heltall", "fortegn", "vanlig") for f in ("name", "desc")),
    *(f"mode.{m}.name" for m in ("regn", "auto")),
    *(f"war_rule.{r}.name" for r in ("closest_to_zero", "highest")),
    *(f"computer.{s}.name" for s in ("easy", "medium", "hard")),
)
KEY = re.compile(r"[a-z0-9_]+(\.[a-z0-9_]+)+")


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_catalogue_has_exactly_the_english_keys(lang: str) -> None:
    english, other = set(catalogue("en")), set(catalogue(lang))
    assert sorted(english - other) == [], f"{lang}.json lacks these keys"
    assert sorted(other - english) == [], f"{lang}.json has keys en.json lacks"


def test_every_key_has_the_same_placeholders_everywhere() -> None:
    english = catalogue("en")
    for lang in LANGS:
        for key, text in catalogue(lang).items():
            assert placeholders(text) == placeholders(english.get(key, text)), (lang, key)


def test_keys_and_texts_are_well_formed() -> None:
    for lang in LANGS:
        for key, text in catalogue(lang).items():
            assert KEY.fullmatch(key), (lang, key)
            assert text and text == text.strip(), (lang, key)
            text.format_map(dict.fromkeys(placeholders(text), "x"))  # no stray braces


def test_required_keys_exist() -> None:
    missing = [key for key in REQUIRED if key not in catalogue("en")]
    assert missing == []
    assert placeholders(catalogue("en")["answer.rejected.unknown_symbol"]) == {"symbol"}
    assert placeholders(catalogue("en")["answer.rejected.not_your_cards"]) == {
        "number",
        "card_a",
        "card_b",
    }
    assert placeholders(catalogue("en")["answer.rejected.operator_not_allowed"]) == {
        "expression",
        "operator",
        "level",
    }
    for code in ("square_not_allowed", "root_not_allowed"):  # the pupil's calculation told
        assert placeholders(catalogue("en")[f"answer.rejected.{code}"]) == {"expression", "level"}
    assert placeholders(catalogue("en")["error.missing_permission"]) == {"permission"}


@pytest.mark.parametrize("lang", ["nb", "nn", "sv"])
def test_sentences_are_translated_not_copied(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    for key in english:
        if key.startswith(("answer.", "error.")) or key.endswith(".desc"):
            assert other[key] != english[key], (lang, key)


def test_no_norwegian_letters_in_swedish_and_back() -> None:
    assert not [k for k, v in catalogue("sv").items() if re.search("[æøÆØ]", v)]
    for norwegian in ("nb", "nn"):
        assert not [k for k, v in catalogue(norwegian).items() if re.search("[äöÄÖ]", v)]


# Names Discord shows (commands, options, permissions): Discord has no nynorsk, so a pupil in
# a nynorsk class sees its Norwegian (bokmål) names, and a sentence that names a command or
# an option must name it as Discord shows it.
DISCORD_NAMES = re.compile(r"((cmd|group|opt)\..*\.name|permission\..*)")
# Words that are bokmål and never nynorsk (Nynorskordboka has none of them).
BOKMAL_ONLY = re.compile(
    r"\b(ikke|jeg|hva|hvem|hvor|hvordan|hvis|hver|hvert|noe|noen|bare|fra|også|selv|mye|"
    r"spill|spillet|spiller|spillere|kortene|tiden|siden|uten|gir|velg|velger|regn|regner|"
    r"høyest|nærmest|innenfor|utenfor|fulltreffer|forsiden|baksiden|vanskelig|lærere|"
    r"lagret|slettet|ble|ennå|allerede)\b",
    re.IGNORECASE,
)


def test_nynorsk_is_written_in_nynorsk() -> None:
    """Nynorsk is a written standard of its own, not bokmål with another label: no sentence
    of the nn catalogue uses a word only bokmål has (names in backticks are Discord's)."""
    nynorsk = catalogue("nn")
    found = {
        key: BOKMAL_ONLY.findall(re.sub(r"`[^`]*`", "", text))
        for key, text in nynorsk.items()
        if not DISCORD_NAMES.fullmatch(key)
    }
    assert {key: words for key, words in found.items() if words} == {}
    assert sum(nynorsk[k] != catalogue("nb")[k] for k in nynorsk) > len(nynorsk) / 2


def test_nynorsk_names_what_discord_shows_in_norwegian() -> None:
    nb, nn = catalogue("nb"), catalogue("nn")
    names = [key for key in nb if DISCORD_NAMES.fullmatch(key)]
    assert len(names) > 50
    assert {key: nn[key] for key in names if nn[key] != nb[key]} == {}


def test_glossary_words() -> None:
    assert t("game.regnekrig.name", "sv") == "Räknekrig"
    assert t("game.satsing.name", "nb") == "Intervallkrig med satsing"
    assert t("game.satsing.name", "sv") == "Intervallkrig med satsning"
    assert t("level.7.name", "sv") == "Champion"
    assert t("level.5.name", "sv") == "Elit"
    assert "kortstokk" in t("opt.deck.desc", "nb").lower()
    assert "kortlek" in t("opt.deck.desc", "sv").lower()
    assert t("computer.medium.name", "sv") == "Medel"


def test_glossary_words_in_nynorsk() -> None:
    """The nynorsk column of the glossary: one word per game term."""
    assert t("game.regnekrig.name", "nn") == "Reknekrig"
    assert t("game.satsing.name", "nn") == "Intervallkrig med satsing"
    assert t("mode.regn.name", "nn") == "Rekn sjølv"
    assert t("computer.hard.name", "nn") == "Vanskeleg"
    assert t("war_rule.closest_to_zero.name", "nn") == "Nærast null"
    assert t("war_rule.highest.name", "nn") == "Høgast verdi"
    assert t("rules.heading.bonus", "nn") == "🎯 Fulltreff"
    assert t("board.time_up", "nn").startswith("⏰ Tida er ute")
    assert "kortstokk" in t("opt.deck.desc", "nn").lower()
    assert "innanfor" in t("game.intervallkrig.desc", "nn")
    assert "med baksida opp" in t("board.war_size", "nn", count=3)
    assert "samlehaugen" in t("result.reshuffled", "nn", name="Ada")
    assert t("value.none", "nn") == "ingen verdi"


def test_t_formats_named_placeholders() -> None:
    assert t("error.missing_permission", "en", permission="Send Messages") == (
        "I need the permission **Send Messages** in this channel."
    )
    cards = {"card_a": "\u22124", "card_b": "5"}
    assert t("answer.rejected.not_your_cards", "nb", number=7, **cards).startswith(
        "Du har \u22124 og 5, ikke 7."
    )
    assert t("answer.rejected.unknown_symbol", "sv", symbol="%") == (
        "Jag förstår inte `%`. Använd tal, + - * / och parenteser och skriv svaret igen: "
        "det räknades inte."
    )
    with pytest.raises(KeyError):
        t("error.missing_permission", "en")  # a forgotten value is a bug


def test_missing_key_everywhere_raises() -> None:
    with pytest.raises(MissingTranslationError):
        t("no.such.key", "nb")


def test_any_locale_spelling_reads_as_our_language() -> None:
    """Stored settings and Discord locales arrive as plain strings: `no`/`sv-SE`/`en-GB` are
    nb/sv/en, and a language we do not speak is English, never an error before a pupil."""
    assert t("error.generic", "no") == t("error.generic", "nb")
    assert t("error.generic", "sv-SE") == t("error.generic", "sv")
    assert t("error.generic", "de") == t("error.generic", "en")
    assert t("error.generic", "nn") == "Noko gjekk gale hos oss. Prøv igjen."
    assert t("error.generic", "nn-NO") == t("error.generic", "no-NN") == t("error.generic", "nn")
    assert t("error.generic", "no-NO") == t("error.generic", "nb")


def test_missing_key_in_one_language_falls_back_to_english_and_logs_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fakes: dict[str, Mapping[str, str]] = {
        "en": {"only.english": "Hello {name}"},
        "nb": {},
        "sv": {},
    }
    monkeypatch.setattr(catalogue_module, "catalogue", lambda lang: fakes[lang])
    monkeypatch.setattr(catalogue_module, "_warned", set())
    with caplog.at_level(logging.WARNING, logger="classroom.i18n.messages"):
        assert catalogue_module.t("only.english", "nb", name="Ada") == "Hello Ada"
        assert catalogue_module.t("only.english", "nb", name="Bo") == "Hello Bo"
        assert catalogue_module.t("only.english", "sv", name="Bo") == "Hello Bo"
    warnings = [r for r in caplog.records if "only.english" in r.getMessage()]
    assert len(warnings) == 2  # once for nb, once for sv


@pytest.mark.parametrize(
    ("interaction", "guild", "expected"),
    [
        ("no", None, "nb"),
        ("sv-SE", None, "sv"),
        ("en-US", None, "en"),
        ("en-GB", "no", "en"),  # the user's own language we speak wins
        ("sv-SE", "no", "sv"),
        ("de", "no", "nb"),  # a language we don't speak passes to the server's
        ("fr", "sv-SE", "sv"),
        ("da", "fr", "en"),
        (None, "no", "nb"),
        (None, None, "en"),
        ("", "", "en"),
        ("nb-NO", None, "nb"),
        (discord.Locale.norwegian, None, "nb"),
        (discord.Locale.swedish, discord.Locale.norwegian, "sv"),
        (discord.Locale.german, discord.Locale.swedish, "sv"),
        (discord.Locale.american_english, discord.Locale.norwegian, "en"),
        # Nynorsk has no Discord locale: a server (the teacher's setting) chooses it, and a
        # Norwegian Discord, which names no written standard, then reads the class's nynorsk.
        ("no", "nn", "nn"),
        (discord.Locale.norwegian, "nn", "nn"),
        ("de", "nn", "nn"),
        (None, "nn", "nn"),
        ("sv-SE", "nn", "sv"),
        ("en-GB", "nn", "en"),
        ("nn-NO", None, "nn"),
        ("no-NN", None, "nn"),
        ("no", "nb", "nb"),
    ],
)
def test_pick_locale(interaction: object, guild: object, expected: str) -> None:
    assert pick_locale(interaction, guild) == expected


def test_the_catalogue_never_imports_discord() -> None:
    code = (
        "import sys, classroom.i18n; classroom.i18n.t('error.generic', 'nb');"
        " print('discord' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_missing_permissions_are_named_in_the_users_language() -> None:
    """Every refusal says why: if the bot lacks a permission, the user is told which one, with the
    name Discord's own settings show in their language."""
    from bot.replies import permission_name

    assert permission_name("send_messages", "en") == "Send Messages"
    assert permission_name("send_messages", "nb") == "Send meldinger"
    assert permission_name("embed_links", "sv") == "Bädda in länkar"
    assert permission_name("manage_webhooks", "nb") == "manage_webhooks"  # not one we need
