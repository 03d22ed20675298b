"""The DPIA template, filled in for each way Mattekrig runs, in nb, nn, sv and en (the issue: "a
DPIA template filled in for each way the product runs … Sources a school can check for every
legal claim"). A test reads it as a privacy officer would: every part GDPR art. 35(7) asks for,
every way (the Discord bot, the laptop lesson, a class's records, the school server), every
period the code's default, and every sentence that cites the GDPR carrying a source listed with
an address."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.ops.backup import RESTORE_COPY_DAYS
from school.sessions import SESSION_DAYS
from school.settings import SchoolSettings

from .test_data_kept import NIGHTS, SIGN_IN_LINK_DAYS, defaults, promised

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("nb", "nn", "sv", "en")
DPIA = {lang: ROOT / "docs" / f"data-protection-impact-assessment.{lang}.md" for lang in LANGUAGES}
PACK = {lang: ROOT / "docs" / ("for-schools.md" if lang == "en" else f"for-schools.{lang}.md")
        for lang in LANGUAGES}  # fmt: skip
# A legal claim: it names an article or a recital of the GDPR.
CLAIM = re.compile(r"\bart\. \d|\b(?:recitals?|fortalen|skäl|betraktning(?:ane|ene)?) \d", re.I)
SOURCE = re.compile(r"\[S(\d+)\]")
# The four ways, each with its own part in section 1: the command that starts it.
WAYS = ("### 1a.", "### 1b.", "### 1c.", "### 1d.")
COMMANDS = ("`mattekrig class`", "`mattekrig class --class 7B`", "`mattekrig serve`")


def units(text: str) -> list[str]:
    """Each paragraph, bullet and table row of a text, as one line: what a claim and its
    source must share."""
    found: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        current: list[str] = []
        for line in block.splitlines():
            if line.startswith(("|", "* ", "#")):
                found.append(" ".join(current))
                current = [line]
            else:
                current.append(line.strip())
        found.append(" ".join(current))
    return [unit for unit in found if unit.strip()]


def sources(text: str) -> dict[str, str]:
    """The list of sources at the end: its mark and its text."""
    listed = text.split("\n## ")[-1]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\* \[S(\d+)\] (.+)$", listed, re.M)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_legal_claim_names_a_source_a_school_can_check(lang: str) -> None:
    text = DPIA[lang].read_text("utf-8")
    body, _ = text.rsplit("\n## ", 1)
    listed = sources(text)
    assert len(listed) >= 10
    claims = [unit for unit in units(body) if CLAIM.search(unit) and not unit.startswith("#")]
    unsourced = [unit for unit in claims if not SOURCE.search(unit)]
    assert unsourced == []
    used = set(SOURCE.findall(body))
    assert used == set(listed)  # every mark is listed, every listed source is used
    lines = text.split("\n## ")[-1]
    for mark in listed:
        entry = lines.split(f"[S{mark}]")[1].split("\n* [S")[0]
        assert re.search(r"https://\S+", entry), mark
    for address in ("https://eur-lex.europa.eu/eli/reg/2016/679/oj", "https://www.datatilsynet.no/",
                    "https://www.imy.se/", "https://www.dataprivacyframework.gov/list",
                    "https://discord.com/privacy", "WP248"):  # fmt: skip
        assert address in text, address


@pytest.mark.parametrize("lang", LANGUAGES)
def test_it_has_every_part_art_35_7_asks_for_and_every_way(lang: str) -> None:
    """GDPR art. 35(7): (a) a description of the processing, (b) necessity and
    proportionality, (c) the risks and (d) the measures; and the DPO's advice, prior
    consultation and a review (art. 35(2), 36, 35(11))."""
    text = DPIA[lang].read_text("utf-8")
    prose = re.sub(r"\s+", " ", text)
    parts = [rf"35(?:\(7\)\({p}\)| nr\. 7 bokstav {p}|\.7 {p})(?!\w)" for p in "abc"]
    parts += [r"35(?:\(7\)\(c\) and \(d\)| nr\. 7 bokstav c og d|\.7 c och d)"]
    parts += [rf"35(?:\({n}\)| nr\. {n}|\.{n})(?![\d(])" for n in (2, 9, 11)]
    for part in [*parts, r"art\. 36\b"]:
        assert re.search(part, prose), part
    assert [way for way in WAYS if way in text] == list(WAYS)
    for command in COMMANDS:
        assert command in text, command


@pytest.mark.parametrize("lang", LANGUAGES)
def test_its_periods_are_the_defaults(lang: str) -> None:
    """Every setting named with its default (the bot's, the lesson's and the school
    server's), the backups' nights, a sign-in link's days and the school year's end."""
    text = DPIA[lang].read_text("utf-8")
    found = promised(text)
    assert {name for name, _ in found} == set(defaults())
    assert all(days == defaults()[name] for name, days in found)
    assert {int(n) for n in NIGHTS.findall(text)} == {RESTORE_COPY_DAYS}
    school = SchoolSettings()
    (row,) = [line for line in text.splitlines() if "`LESSONS_PER_TEACHER`" in line]
    assert re.search(rf"\b{school.lessons_per_teacher}\b", row)
    assert re.search(rf"\b{school.idle_hours} (?:hours|timar|timer|timmar)\b", row)
    assert re.search(rf"\b{SIGN_IN_LINK_DAYS} (?:days|dager|dagar)\b", text)
    (session,) = [
        line
        for line in text.splitlines()
        if re.search(r"^\| (?:sign-in sessions|innloggingsøkter|inloggningssessioner) \|", line)
    ]
    assert re.search(rf"\b{SESSION_DAYS} (?:days|dager|dagar)\b", session)
    assert re.search(r"\b1\.? (?:August|august|augusti)\b", text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_it_is_linked_from_the_pack_and_to_the_other_languages(lang: str) -> None:
    text = DPIA[lang].read_text("utf-8")
    for other, path in DPIA.items():
        assert other == lang or f"]({path.name})" in text
    assert f"](data-protection-impact-assessment.{lang}.md)" in PACK[lang].read_text("utf-8")
    notice = "PRIVACY.md" if lang == "en" else f"PRIVACY.{lang}.md"
    assert f"](../{notice})" in text and f"](data-processing-agreement.{lang}.md)" in text
