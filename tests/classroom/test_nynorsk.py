"""Nynorsk is written in nynorsk: a word-list pass over every nn text (the catalogues, the nn
docs, a game's own nn words) finds no form that only bokmål has, by Språkrådet's dictionary
(Nynorskordboka). The issue: "0 bokmål forms left in the nn texts (a word-list test over the
nn files for the usual pairs)". Names Discord shows (commands, options, permissions, its own
menus) stay as Discord shows them, in bokmål: Discord has no nynorsk."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Bokmål form → the nynorsk one (Nynorskordboka has no entry for the form on the left).
PAIRS = {
    "ikke": "ikkje", "jeg": "eg", "hva": "kva", "hvem": "kven", "hvor": "kvar",
    "hvordan": "korleis", "hvorfor": "kvifor", "hvis": "viss", "hvilken": "kva for ein",
    "hvilke": "kva for", "hver": "kvar", "hvert": "kvart", "noe": "noko", "noen": "nokon",
    "bare": "berre", "fra": "frå", "også": "òg", "selv": "sjølv", "mye": "mykje", "mer": "meir",
    "nå": "no", "ble": "vart", "være": "vere", "vært": "vore", "kun": "berre", "ennå": "enno",
    "allerede": "allereie", "dere": "de", "deres": "dykkar", "hennes": "hennar",
    "disse": "desse", "spill": "spel", "spillet": "spelet", "spillene": "spela",
    "spiller": "spelar", "speler": "spelar", "spillere": "spelarar", "spillerne": "spelarane",
    "kortene": "korta", "tallet": "talet", "tallene": "tala", "tall": "tal", "uke": "veke",
    "uker": "veker", "tiden": "tida", "siden": "sidan", "uten": "utan", "gir": "gjev",
    "velg": "vel", "velger": "vel", "regn": "rekn", "regner": "reknar", "høyest": "høgast",
    "nærmest": "nærast", "innenfor": "innanfor", "utenfor": "utanfor",
    "fulltreffer": "fulltreff", "lærer": "lærar", "lærere": "lærarar", "læreren": "læraren",
    "lærerne": "lærarane", "bruker": "brukar", "brukere": "brukarar", "brukeren": "brukaren",
    "brukerne": "brukarane", "filene": "filane", "elevene": "elevane", "dager": "dagar",
    "dagene": "dagane", "måned": "månad", "måneder": "månader", "sammen": "saman",
    "mens": "medan", "hele": "heile", "samme": "same", "annen": "annan", "annet": "anna",
    "egen": "eigen", "eget": "eige", "egne": "eigne", "eneste": "einaste", "sier": "seier",
    "kommer": "kjem", "vet": "veit", "gjør": "gjer", "gjøre": "gjere", "trenger": "treng",
    "ønsker": "ønskjer", "spørre": "spørje", "følge": "følgje", "velge": "velje",
    "fortsatt": "framleis", "lagret": "lagra", "slettet": "sletta", "lagres": "blir lagra",
    "slettes": "blir sletta", "brukes": "blir brukt", "vises": "blir vist", "telt": "talt",
    "slepper": "slepp", "en": "ein", "et": "eit", "datamaskinen": "datamaskina",
    "fortegnsfeil": "forteiknsfeil", "tjener": "tenar", "innstillinger": "innstillingar",
    "sikkerhet": "tryggleik", "løsning": "løysing", "løsningen": "løysinga",
    "rundene": "rundane", "liner": "linjer", "heltall": "heiltal", "heltal": "heiltal",
    "tilgjengeerklæring": "tilgjengelegheitserklæring",
}  # fmt: skip
# Endings bokmål has and nynorsk writes otherwise: -lig (-leg), -het (-heit), -inger (-ingar).
ENDINGS = r"\w+(?:lig|lige|ligere|ligst|ligste|ligvis|het|heten|heter|inger|ingene)"
BOKMAL = re.compile(
    r"(?<![\w\-/.@])(" + "|".join(sorted(PAIRS, key=len, reverse=True)) + "|" + ENDINGS + r")"
    r"(?![\w\-/@])",
    re.IGNORECASE,
)
# Mistakes no word pair can catch: a gender, a calque, a bokmål compound, a noun read as a verb.
PHRASES = re.compile(
    r"\bde nemner\b"  # they mention: dei nemner ("de" is only "you", plural)
    r"|\bein (?:\w+ )?utfordring\b"  # ei utfordring
    r"|\b(?:den|det|dei) eigne\b"  # the calque "den eigne X-en til Y": Y sin eigen X
    r"|(?<![\w\-])bruker-id\b"  # brukar-ID (Discord's own menu, "Kopier bruker-ID", aside)
    r"|\bdel beste trekk\b",  # read as "share the best move!": delen med beste trekk
    re.IGNORECASE,
)
# A catalogue's names that Discord shows: commands, options and permissions.
DISCORD_NAMES = re.compile(r"((cmd|group|opt)\..*\.name|permission\..*)")
# Discord's own menus, named as a Norwegian Discord shows them (it has no nynorsk).
DISCORD_MENUS = ("*Innstillinger →\n   Avansert → Utviklermodus*", "*Kopier bruker-ID*")


def nn_files() -> list[Path]:
    catalogues = sorted((ROOT / "classroom" / "i18n" / "catalogues").glob("*nn.json"))
    return [
        *catalogues,
        *sorted(ROOT.glob("*.nn.md")),
        *sorted(ROOT.glob("docs/*.nn.md")),
        *sorted(ROOT.glob("tests/games/*.nn.json")),
    ]


def words(text: str) -> str:
    """The text a reader reads as nynorsk: no code, addresses, placeholders or tags."""
    for menu in DISCORD_MENUS:
        text = text.replace(menu, " ")
    text = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\{[^}]*\}", " ", text)
    return re.sub(r"<[^>]+>", " ", text)


def texts(path: Path) -> list[tuple[str, str]]:
    if path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        return [
            (k, v) for k, v in data.items() if isinstance(v, str) and not DISCORD_NAMES.fullmatch(k)
        ]
    return [(path.name, path.read_text(encoding="utf-8"))]


def test_every_nn_text_is_found() -> None:
    names = {p.name for p in nn_files()}
    assert {"nn.json", "lesson.nn.json", "table.nn.json", "accessibility.nn.md",
            "for-schools.nn.md", "PRIVACY.nn.md"} <= names  # fmt: skip


@pytest.mark.parametrize("path", nn_files(), ids=lambda p: p.name)
def test_no_bokmal_form_in_a_nynorsk_text(path: Path) -> None:
    found = {
        where: sorted({m.lower() for m in BOKMAL.findall(words(text))})
        for where, text in texts(path)
    }
    assert {where: forms for where, forms in found.items() if forms} == {}


@pytest.mark.parametrize("path", nn_files(), ids=lambda p: p.name)
def test_no_mistake_from_the_reading_list_in_a_nynorsk_text(path: Path) -> None:
    """The issue's list beyond word pairs: "de nemner" (dei), "ein lukka utfordring" (ei),
    "BRUKER-ID" (BRUKAR-ID), "Del beste trekk" read as an imperative, and the calque "den
    eigne X-en til Y" (Y sin eigen X)."""
    found = {where: PHRASES.findall(words(text)) for where, text in texts(path)}
    assert {where: hits for where, hits in found.items() if hits} == {}


@pytest.mark.parametrize(
    ("text", "hits"),
    [("Dei nemner ei lukka utfordring", 0), ("de nemner ein lukka utfordring", 2),
     ("den eigne brukaren til læraren", 1), ("læraren sin eigen brukar", 0),
     ("BRUKER-ID-en", 1), ("trykk *Kopier bruker-ID*", 0), ("Del beste trekk", 1)],
)  # fmt: skip
def test_the_reading_list_finds_what_it_names(text: str, hits: int) -> None:
    assert len(PHRASES.findall(words(text))) == hits


@pytest.mark.parametrize("lang", ["nn", "nb"])
def test_a_lesson_is_a_time_in_every_norwegian_text(lang: str) -> None:
    """One word for one thing, as the catalogues have it: the class lesson in the browser is
    a "time" (lesson.nn.json, lesson.nb.json), the teacher's timed class session on Discord a
    "klasseøkt" (teachers.*.json); so "økt" in a Norwegian doc is only ever that session (or a
    sign-in session, "innloggingsøkt"), never the lesson."""
    folder = ROOT / "classroom" / "i18n" / "catalogues"
    lesson = words(" ".join(v for _, v in texts(folder / f"lesson.{lang}.json")))
    assert re.search(r"\btime(?:n|r|ar|ne|ane)?\b", lesson) and "økt" not in lesson
    teachers = json.loads((folder / f"teachers.{lang}.json").read_text(encoding="utf-8"))
    assert "klasseøkt" in teachers["cmd.admin.session.desc"]
    docs = [*sorted(ROOT.glob(f"*.{lang}.md")), *sorted(ROOT.glob(f"docs/*.{lang}.md"))]
    other = {
        path.name: hits
        for path in docs
        if (hits := re.findall(r"\b\w*økt\w*", words(path.read_text(encoding="utf-8"))))
        and (hits := [h for h in hits if not h.startswith(("klasseøkt", "innloggingsøkt"))])
    }
    assert other == {}


@pytest.mark.parametrize(
    ("text", "hits"),
    [("Eg ser ikke kva du skreiv", ["ikke"]), ("Filene og brukaren", ["Filene"]),
     ("ikkje, kva, korleis, brukar, filane, eigen, eigne, sida", []),
     ("Vanskelig sikkerhet, innstillinger", ["Vanskelig", "sikkerhet", "innstillinger"]),
     ("`/mattekrig glem-meg` og {bruker}", []), ("bruker-ID og spel-fra", [])],
)  # fmt: skip
def test_the_word_list_keeps_to_word_boundaries(text: str, hits: list[str]) -> None:
    """Whole words only: a nynorsk word that holds a bokmål one (brukar, eigne) is no hit."""
    assert BOKMAL.findall(words(text)) == hits


def test_the_nn_catalogues_keep_the_bokmal_layout() -> None:
    """The same files, and in each the same keys in the same order, in nn as in nb: a reviewer
    reads the two side by side, line by line."""
    folder = ROOT / "classroom" / "i18n" / "catalogues"
    for nb in sorted(folder.glob("*nb.json")):
        nn = folder / nb.name.replace("nb.json", "nn.json")
        assert list(json.loads(nn.read_text(encoding="utf-8"))) == list(
            json.loads(nb.read_text(encoding="utf-8"))
        ), nn.name


def test_the_nn_docs_say_once_that_discords_names_stay_bokmal() -> None:
    said = [
        p.name
        for p in ROOT.glob("docs/*.nn.md")
        if "slik Discord viser dei: på bokmål" in p.read_text(encoding="utf-8")
    ]
    assert said == ["for-schools.nn.md"]
