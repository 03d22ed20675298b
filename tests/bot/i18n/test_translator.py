"""The translator answers ``no`` and ``sv-SE`` from the catalogues, None elsewhere (no network)."""

from __future__ import annotations

import discord
import pytest
from discord import Locale, app_commands
from discord.app_commands import (
    TranslationContext,
    TranslationContextLocation,
    TranslationContextTypes,
    locale_str,
)

from bot.translator import MattekrigTranslator, choice, context_key, is_valid_name, ls

L = TranslationContextLocation

group = app_commands.Group(name="mattekrig", description=ls("group.mattekrig.desc"))


@group.command(name=ls("cmd.start.name"), description=ls("cmd.start.desc"))
@app_commands.describe(game=ls("opt.game.desc"), level=ls("opt.level.desc"))
# One decorator per option: discord.py types all of one call's choices with one value type.
@app_commands.choices(game=[choice("game", g) for g in ("regnekrig", "intervallkrig", "satsing")])
@app_commands.choices(level=[choice("level", n) for n in range(1, 8)])
async def start(interaction: discord.Interaction, game: str, level: int | None = None) -> None:
    """Never called: the tests only read its metadata."""


# plain strings, as a cog might write them: the keys are derived from the position
@group.command(name="rules", description="Show the rules of a game")
@app_commands.describe(game="The game whose rules you want to see")
async def rules(interaction: discord.Interaction, game: str) -> None:
    """Never called."""


def param(command: app_commands.Command, name: str) -> app_commands.Parameter:  # type: ignore[type-arg]
    return next(p for p in command.parameters if p.name == name)


@pytest.fixture
def translator() -> MattekrigTranslator:
    return MattekrigTranslator()


@pytest.mark.parametrize(
    ("string", "context", "nb", "sv"),
    [
        (group._locale_name, TranslationContext(L.group_name, group), "mattekrig", "mattekrig"),
        (
            group._locale_description,
            TranslationContext(L.group_description, group),
            "Mattekortspill for klassen din",
            "Mattekortspel för din klass",
        ),
        (locale_str("start"), TranslationContext(L.command_name, start), "start", "starta"),
        (locale_str("rules"), TranslationContext(L.command_name, rules), "regler", "regler"),
        (
            locale_str("Show the rules of a game"),
            TranslationContext(L.command_description, rules),
            "Vis reglene for et spill",
            "Visa reglerna för ett spel",
        ),
        (
            locale_str("game"),
            TranslationContext(L.parameter_name, param(start, "game")),
            "spill",
            "spel",
        ),
        (
            locale_str("level"),
            TranslationContext(L.parameter_name, param(start, "level")),
            "nivå",
            "nivå",
        ),
        (  # the shared option description
            locale_str("The game to play"),
            TranslationContext(L.parameter_description, param(start, "game")),
            "Spillet dere skal spille",
            "Spelet ni ska spela",
        ),
        (  # /rules words its game option its own way: cmd.rules.opt.game.desc
            locale_str("The game whose rules you want to see"),
            TranslationContext(L.parameter_description, param(rules, "game")),
            "Spillet du vil se reglene for",
            "Spelet du vill se reglerna för",
        ),
    ],
)
async def test_translates_for_norwegian_and_swedish_only(
    translator: MattekrigTranslator,
    string: locale_str,
    context: TranslationContextTypes,
    nb: str,
    sv: str,
) -> None:
    assert await translator.translate(string, Locale.norwegian, context) == nb
    assert await translator.translate(string, Locale.swedish, context) == sv
    for other in (Locale.american_english, Locale.british_english, Locale.german, Locale.danish):
        assert await translator.translate(string, other, context) is None


async def test_choices_carry_their_key(translator: MattekrigTranslator) -> None:
    regnekrig = choice("game", "regnekrig")
    assert regnekrig.value == "regnekrig"
    assert regnekrig.name == "Regnekrig"  # English, from en.json
    context: TranslationContextTypes = TranslationContext(L.choice_name, regnekrig)
    assert regnekrig._locale_name is not None  # a choice of ours carries its key
    assert await translator.translate(regnekrig._locale_name, Locale.swedish, context) == (
        "Räknekrig"
    )
    level = choice("level", 3)
    assert level.value == 3
    context = TranslationContext(L.choice_name, level)
    assert level._locale_name is not None
    assert await translator.translate(level._locale_name, Locale.norwegian, context) == (
        "3 · Divisjon"
    )
    plain = app_commands.Choice(name="Regnekrig", value="regnekrig")
    context = TranslationContext(L.choice_name, plain)
    assert await translator.translate(locale_str("Regnekrig"), Locale.swedish, context) is None


async def test_unknown_and_invalid_translations_become_none(
    translator: MattekrigTranslator,
) -> None:
    context: TranslationContextTypes = TranslationContext(L.command_name, start)
    missing = locale_str("start", key="cmd.nothing.name")
    assert await translator.translate(missing, Locale.norwegian, context) is None
    # a description used as a name would break Discord's name rule: dropped, not sent
    wrong = locale_str("start", key="cmd.start.desc")
    assert await translator.translate(wrong, Locale.norwegian, context) is None
    other: TranslationContextTypes = TranslationContext(L.other, None)
    assert await translator.translate(locale_str("x"), Locale.norwegian, other) is None


def test_derived_keys() -> None:
    assert context_key(TranslationContext(L.group_name, group)) == "group.mattekrig.name"
    assert context_key(TranslationContext(L.command_description, start)) == "cmd.start.desc"
    assert context_key(TranslationContext(L.parameter_name, param(rules, "game"))) == (
        "opt.game.name"
    )
    assert context_key(TranslationContext(L.parameter_description, param(rules, "game"))) == (
        "cmd.rules.opt.game.desc"
    )
    assert context_key(TranslationContext(L.choice_name, choice("game", "satsing"))) is None


async def test_the_whole_payload_discord_would_receive(translator: MattekrigTranslator) -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    await translator.load()
    payload = await group.get_translated_payload(tree, translator)
    assert payload["name_localizations"] == {"no": "mattekrig", "sv-SE": "mattekrig"}
    subcommands = {c["name"]: c for c in payload["options"]}
    start_payload = subcommands["start"]
    assert start_payload["name_localizations"] == {"no": "start", "sv-SE": "starta"}
    options = {o["name"]: o for o in start_payload["options"]}
    assert options["game"]["name_localizations"] == {"no": "spill", "sv-SE": "spel"}
    assert options["game"]["choices"][2]["name_localizations"] == {
        "no": "Intervallkrig med satsing",
        "sv-SE": "Intervallkrig med satsning",
    }
    assert subcommands["rules"]["options"][0]["description_localizations"]["no"] == (
        "Spillet du vil se reglene for"
    )
    for command in payload["options"]:
        for name in [*command["name_localizations"].values()] + [
            n for o in command.get("options", []) for n in o["name_localizations"].values()
        ]:
            assert is_valid_name(name)
