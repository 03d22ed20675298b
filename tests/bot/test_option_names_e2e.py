"""A refusal names an option as the pupil sees it in Discord: "Den innstillingen fungerer ikke:
datamaskin.", "du kan ikke endre `nivå`", never the code's ``computer`` or ``level``. Discord
shows each option under its name in the pupil's language (`bot.translator`), so that is
the only name a pupil can match to what they typed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from discord import Locale
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from bot.replies import describe
from bot.translator import MattekrigTranslator, context_key
from classroom.errors import UserFacingError
from classroom.i18n import LANGS, catalogue, option_name, t
from storage.records import PRESET_KEYS
from tests.bot.e2e import Table, assert_refused, private_reply
from tests.fakediscord.state import APPLICATION_COMMAND

ROOT = Path(__file__).resolve().parents[2]
PUPILS = [("alice", "no", "nb"), ("bob", "sv-SE", "sv"), ("carol", "en-US", "en")]
NAMES = {
    TranslationContextLocation.group_name,
    TranslationContextLocation.command_name,
    TranslationContextLocation.parameter_name,
}


def _raised_options() -> set[str]:
    """Every option a service or command names in a refusal by a literal code name."""
    text = "\n".join(
        path.read_text("utf-8") for part in ("bot", "cogs") for path in (ROOT / part).rglob("*.py")
    )
    return set(re.findall(r'(?:UserFacingError|parse_day)\([^)]*?option="(\w+)"', text)) | set(
        re.findall(r'parse_day\(\w+, "(\w+)"\)', text)
    )


def test_every_option_a_refusal_names_has_a_name_in_every_language() -> None:
    options = _raised_options() | set(PRESET_KEYS)
    assert {"computer", "level", "public_board", "start", "answer_time"} <= options
    english = catalogue("en")
    unnamed = [o for o in sorted(options) if not any(k.endswith(f"opt.{o}.name") for k in english)]
    assert unnamed == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_shows_the_localised_name_never_the_code(lang: str) -> None:
    for option in sorted(_raised_options() | set(PRESET_KEYS)):
        for key in ("error.bad_option", "preset.locked"):
            shown = describe(UserFacingError(key, option=option), lang)
            assert shown == t(key, lang, option=option_name(option, lang))
            if option_name(option, lang) != option:
                assert not re.search(rf"\b{option}\b", shown or ""), (lang, option, shown)
    assert describe(UserFacingError("error.bad_option", option="level"), "nb") == (
        "Den innstillingen fungerer ikke: nivå."
    )
    assert describe(UserFacingError("error.bad_option", option="computer"), "sv") == (
        "Den inställningen fungerar inte: datorn."
    )


@pytest.mark.parametrize(("user", "locale", "lang"), PUPILS)
async def test_the_pupil_reads_the_option_they_typed(
    table: Table, user: str, locale: str, lang: str, no_errors: Any
) -> None:
    other = "carol" if user != "carol" else "alice"
    both = await table.driver.slash(
        user, "mattekrig start", locale=locale, opponent=table.user(other), computer="easy"
    )
    computer = option_name("computer", lang)
    await assert_refused(table.fake, both, "error.bad_option", lang, option=computer)
    assert computer == {"nb": "datamaskin", "sv": "datorn", "en": "computer"}[lang]

    # A forged payload (a level as text) is refused before the command runs, by the tree.
    forged = await table.driver.hostile(
        user,
        APPLICATION_COMMAND,
        {
            "options": [
                {
                    "name": "start",
                    "type": 1,
                    "options": [{"name": "level", "type": 3, "value": "7"}],
                }
            ]
        },
        command="mattekrig",
        locale=locale,
    )
    shown = await private_reply(table.fake, forged)
    assert shown == t("error.bad_option", lang, option=option_name("level", lang))
    assert ("level" in shown) is (lang == "en")


class _Recorder(MattekrigTranslator):
    """Remembers every name the tree asks to translate, with the key the translator uses."""

    def __init__(self) -> None:
        super().__init__()
        self.names: dict[str, str] = {}

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        if context.location in NAMES:
            key = string.extras.get("key") or context_key(context)
            self.names[str(key)] = string.message
        return await super().translate(string, locale, context)


async def test_the_english_names_are_the_names_discord_shows(table: Table) -> None:
    """Discord shows the code's names to every locale the translator leaves alone (English
    among them), so the English catalogue, which the docs and the refusals quote, must hold
    exactly those names (the leaderboard option is `public_board`; its English name said
    `public_leaderboard`)."""
    recorder = _Recorder()
    for command in table.bot.tree.get_commands():
        await command.get_translated_payload(table.bot.tree, recorder)
    english = catalogue("en")
    assert len(recorder.names) > 60
    assert [key for key in recorder.names if key not in english] == []
    assert {k: (english[k], v) for k, v in recorder.names.items() if english[k] != v} == {}
