"""Words a class reads: one word per game term (the glossary), proper Swedish, no scolding of a
child who did nothing wrong, a ping to two players worded for two, and every command a
sentence names called as the reader's Discord calls it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.render.invitations import options_lines
from bot.render.stats import op_name
from bot.services.admin import report_csv
from bot.services.figures import ClassReport
from bot.services.report import report_rows_csv
from classroom.i18n import LANGS, Lang, catalogue, t

# A word the glossary replaces, per language: the glossary's word is the only one for its term.
NOT_THE_GLOSSARYS = {
    "en": r"class round",  # a timed class session is not a game's round
    "nb": r"motstander\w*|Reknekrig|Räknekrig",  # opponent: motspiller; the game: Regnekrig
    # motspelar; Reknekrig; an exact hit is a fulltreff (neuter: two fulltreff, never fulltreffar)
    "nn": r"motstandar\w*|motspiller\w*|Regnekrig|Räknekrig|fulltreffar\w*",
    "sv": r"rund(a|an|or|orna)|Regnekrig|Reknekrig|klasskompis\w*",  # omgång; Räknekrig
}
DISCORD_NAMES = re.compile(r"((cmd|group|opt)\..*\.name|permission\..*)")
SCOLDING = r"Ta det litt rolig|Ta det litt roleg|Ta det lite lugnt|Slow down"


@pytest.mark.parametrize("lang", LANGS)
def test_one_word_per_game_term(lang: str) -> None:
    texts = catalogue(lang)
    found = {
        key: text
        for key, text in texts.items()
        if re.search(rf"\b({NOT_THE_GLOSSARYS[lang]})\b", text)
        and not (lang == "nn" and DISCORD_NAMES.fullmatch(key))  # Discord's bokmål names
    }
    assert found == {}
    headers = report_csv([], mistake_name=str, lang=lang) + report_rows_csv(
        ClassReport((), None, None), {}, str, lang=lang
    )  # the teacher's two spreadsheets: their column names are the catalogue's words too
    assert not re.search(rf"\b({NOT_THE_GLOSSARYS[lang]})\b", headers, re.IGNORECASE), headers
    game = {"en": "Regnekrig", "nb": "Regnekrig", "nn": "Reknekrig", "sv": "Räknekrig"}[lang]
    assert t("game.regnekrig.name", lang) == game
    assert (
        t("table.setup.opponent", lang)
        == {
            "en": "Opponent",
            "nb": "Motspiller",
            "nn": "Motspelar",
            "sv": "Motståndare",
        }[lang]
    )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("nb", "Du kan sende en ny utfordring om 20 sekunder."),
        ("nn", "Du kan sende ei ny utfordring om 20 sekund."),
        ("sv", "Du kan skicka en ny utmaning om 20 sekunder."),
        ("en", "You can send a new challenge in 20 seconds."),
    ],
)
def test_a_pupil_who_did_nothing_wrong_is_not_told_off(lang: str, expected: str) -> None:
    """The wait between two challenges is a rule of the bot, not the pupil's fault: the
    refusal says when they can challenge again ("Ta det litt rolig!" said otherwise)."""
    assert t("error.cooldown", lang, count=20) == expected
    assert [k for k, v in catalogue(lang).items() if re.search(SCOLDING, v)] == []


def test_swedish_reads_as_swedish() -> None:
    """Not "Alla antog", "en twist" or "det är inte räknat": the glossary's anta takes its
    object, a twist is a knorr, and what was not counted räknades inte. Nor "Vill du spela
    igen, skriv …": an inverted condition does not take an imperative after its comma."""
    swedish = catalogue("sv")
    odd = r"antog\.|\btwist\b|är inte räknat|inte räknat än|Vill du [^.:?]*, (skriv|gå|tryck)\b"
    assert [k for k, v in swedish.items() if re.search(odd, v)] == []
    assert t("invite.closed.started", "sv") == "✅ Alla antog utmaningen. Spelet har startat!"
    assert t("rules.satsing.intro", "sv").startswith("Intervallkrig med en knorr:")
    assert t("answer.rejected.unknown_symbol", "sv", symbol="%").endswith(
        "och skriv svaret igen: det räknades inte."
    )


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("nb", "venter på deg.", "venter på dere."),
        ("nn", "ventar på deg.", "ventar på dykk."),
        ("sv", "väntar på dig.", "väntar på er."),
        ("en", "waiting for you.", "waiting for you both."),
    ],
)
def test_a_ping_to_a_team_is_worded_for_two(lang: str, one: str, two: str) -> None:
    assert t("board.ping.turn", lang, players="@Ada", round=1, count=1).endswith(one)
    assert t("board.ping.turn", lang, players="@Ada @Bo", round=1, count=2).endswith(two)
    alone = t("board.ping.target", lang, players="@Ada", round=3, count=1)
    team = t("board.ping.target", lang, players="@Ada @Bo", round=3, count=2)
    assert alone != team or (lang == "en" and "team" in team)


@pytest.mark.parametrize("lang", LANGS)
def test_a_sentence_names_each_command_as_the_readers_discord_does(lang: str) -> None:
    """ "Prøv /mattekrig help" named a command a Norwegian Discord calls hjelp. Nynorsk has no
    Discord locale, so its commands are Discord's Norwegian (bokmål) ones."""
    texts = catalogue(lang)
    names = {v for k, v in texts.items() if k.startswith("cmd.") and k.endswith(".name")}
    named = {
        (key, found)
        for key, text in texts.items()
        for found in re.findall(r"/mattekrig(?: admin)? ([\w-]+)", text)
    }
    assert len(named) >= 5
    assert {(key, found) for key, found in named if found not in names} == set()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("form", ["number", "expression"])
def test_an_options_line_does_not_say_its_word_twice(lang: Lang, form: str) -> None:
    """A challenge listed "Svar: Svar med tallet"; a preset lists the setting's own name
    (answer form) before its value."""
    lines = options_lines({"game": "regnekrig", "level": 3, "answer_form": form}, lang)
    name = t(f"answer_form.{form}.name", lang)
    assert f"• {name}" in lines and not [line for line in lines if line.endswith(f": {name}")]
    label = t("preset.option.answer_form", lang)
    assert (
        label == {"en": "Answer form", "nb": "Svarform", "nn": "Svarform", "sv": "Svarsform"}[lang]
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_lesson_names_an_operation_as_the_bot_does(lang: str) -> None:
    """The lesson's summary said "kvadrater" and "kvadratrøtter" where the pupil's statistics
    and the teacher's report say "annen potens" and "kvadratrot": one word per operation."""
    for op in ("add", "multiply", "divide", "subtract", "square", "root"):
        assert t(f"lesson.operation.{op}", lang) == op_name(op, lang).lower(), op


# A teacher's Discord permission, as the old stop refusal named it in each language.
MANAGE_MESSAGES = (
    r"manage messages|administrere meldinger|administrere meldingar|hantera meddelanden"
)


@pytest.mark.parametrize("lang", LANGS)
def test_the_stop_refusal_says_only_the_players_may_stop(lang: str) -> None:
    """RULES §1.5: a stop is a player giving up the game; a teacher ends a game with no
    result with `admin end`. The refusal once told a teacher that teachers may stop."""
    text = t("error.stop_not_allowed", lang)
    assert not re.search(MANAGE_MESSAGES, text, re.IGNORECASE), text
    assert f"/mattekrig admin {catalogue(lang)['cmd.admin.end.name']}" in text


def test_the_readme_says_only_the_players_may_stop() -> None:
    readme = (Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `stop` |"))
    assert "players only" in row and "moderator" not in row and "`admin end`" in row
