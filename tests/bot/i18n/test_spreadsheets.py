"""The teacher's spreadsheets speak the catalogues' words: every column name and every word in
a cell of the two report files (`/mattekrig admin report`) and of the lesson summary comes
from the catalogue of the teacher's language, so a translator words them with the screens.
What a spreadsheet needs to open them by a double click: a byte-order mark in every language,
and in nb, nn and sv a semicolon between fields and a decimal comma. A column the two report
files share has one name, from one catalogue key."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

import pytest

from bot.services.admin import report_csv
from bot.services.figures import ClassReport, SkillLine
from bot.services.report import report_rows_csv, report_trend_csv
from classroom.i18n import LANGS, Lang, catalogue, t
from classroom.i18n import messages as catalogue_module
from classroom.summary import ClassSummary, PupilLine, csv_bytes

LINE = SkillLine(
    user_id=1,
    name="Ada",
    level=3,
    op="divide",
    answers=10,
    correct=7,
    best=5,
    missed=2,
    exact_hits=1,
    median_ms=4_500,
    weeks=((202610, 5, 3), (202611, 5, 2)),
    mistakes=(("sign_slip", 2),),
    notes=(("not_simplified", 3),),
)
# The columns of the report with one line per pupil, level and operation (the glossary's words:
# fulltreffer, fullträff; the screens' "ikke svart i tide"; the median says of what).
SKILL_COLUMNS = {
    "nb": "Elev;Nivå;Regneart;Svar;Riktige (%);Beste trekk (%);Ikke svart i tide;"
    "Fulltreffere;Median svartid (s);Beste trekk per uke;Vanligste feil;Trenger hjelp med;"
    "Øvingsnotater",
    "nn": "Elev;Nivå;Rekneart;Svar;Rette (%);Beste trekk (%);Ikkje svart i tide;"
    "Fulltreff;Median svartid (s);Beste trekk per veke;Vanlegaste feil;Treng hjelp med;"
    "Øvingsnotat",
    "sv": "Elev;Nivå;Räknesätt;Svar;Rätta (%);Bästa drag (%);Inte svarat i tid;"
    "Fullträffar;Median svarstid (s);Bästa drag per vecka;Vanligaste fel;Behöver hjälp med;"
    "Övningsanteckningar",
    "en": "Pupil,Level,Operation,Answers,Correct (%),Best moves (%),No answer in time,"
    "Exact hits,Median answer time (s),Best moves by week,Most common mistakes,Needs help with,"
    "Practice notes",
}
TREND = (("sign_slip", ((202610, 2, 5), (202611, 0, 5))),)  # the class's kinds by week
WEEKS = {"nb": "u10: 60 %, u11: 40 %", "nn": "v10: 60 %, v11: 40 %", "sv": "v10: 60 %, v11: 40 %",
         "en": "w10: 60 %, w11: 40 %"}  # fmt: skip


def _skills(lang: str) -> str:
    return report_rows_csv(ClassReport((LINE,), None, None), {"divide": "DIV"}, str, lang=lang)


def _pupils(lang: str) -> str:
    return report_csv([], mistake_name=str, lang=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_reports_open_in_a_spreadsheet(lang: str) -> None:
    """BOM, separator, decimal mark, the columns' names and a week's best moves ("u10: 60 %")
    as a teacher's spreadsheet in ``lang`` reads them."""
    text = _skills(lang)
    assert text.startswith("\ufeff")
    header, row = text[1:].split("\r\n")[:2]
    assert header == SKILL_COLUMNS[lang]
    separator = "," if lang == "en" else ";"
    cells = next(csv.reader([row], delimiter=separator))
    assert cells[4:6] == (["70.0", "41.7"] if lang == "en" else ["70,0", "41,7"])
    assert cells[8] == ("4.5" if lang == "en" else "4,5") and cells[9] == WEEKS[lang]
    # the lesson summary's words for the practice notes (RULES §2.6: never a mistake)
    assert cells[12] == f"{t('lesson.summary.note.not_simplified', lang)} (3)"
    pupils = _pupils(lang)
    assert pupils.startswith("\ufeff") and pupils.count(separator) >= 29
    division = "÷" if lang == "en" else ":"  # school notation: division is ':' in nb, nn, sv
    assert f"{t('report.csv.best', lang).removesuffix(' (%)')} {division} (%)" in pupils


def _with(lang: str, changed: Mapping[str, str]) -> object:
    """`catalogue` as it would be with a translator's new wording in ``lang``."""
    real = catalogue_module.catalogue

    def patched(code: str) -> Mapping[str, str]:
        texts = real(code)
        return MappingProxyType({**texts, **changed}) if code == lang else texts

    return patched


@pytest.mark.parametrize("lang", LANGS)
def test_a_translators_wording_reaches_every_spreadsheet(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every word a teacher reads in the files is the catalogue's: a new wording of the
    column names, the operations' signs, a week and the decimal mark changes the files."""
    changed = {key: f"«{text}»" for key, text in catalogue(lang).items()
               if key.startswith(("report.csv.", "lesson.summary.column."))}  # fmt: skip
    changed["notation.decimal_mark"] = "'"
    monkeypatch.setattr(catalogue_module, "catalogue", _with(lang, changed))
    for text in (_skills(lang), _pupils(lang)):
        header = text.removeprefix("\ufeff").split("\r\n")[0]
        cells = next(csv.reader([header], delimiter=","))  # ' is no decimal comma: a comma
        assert cells and all(cell.startswith("«") and cell.endswith("»") for cell in cells), cells
    row = next(csv.reader([_skills(lang).split("\r\n")[1]]))
    assert row[4] == "70'0" and row[9].startswith("«"), row
    pupil = PupilLine("s1", "Ada", games=1, rounds=3, answers=3, best=2, exact=1, mistakes=())
    summary = csv_bytes(ClassSummary((pupil,), (), (), 2, 1), lang).decode("utf-8-sig")
    columns, line = (next(csv.reader([row])) for row in summary.split("\r\n")[:2])
    assert all(cell.startswith("«") for cell in columns) and line[5] == "0'67", (
        columns,
        line,
    )  # 2 of 3


# The columns both report files have, each named once in the catalogue (`report.csv.<column>`).
SHARED = ("pupil", "answers", "best", "missed", "median", "notes")
ONE_NAME = {  # the clearer of the two wordings each file had: what the screens say
    "nb": ("Ikke svart i tide", "Median svartid (s)"),
    "nn": ("Ikkje svart i tide", "Median svartid (s)"),
    "sv": ("Inte svarat i tid", "Median svarstid (s)"),
    "en": ("No answer in time", "Median answer time (s)"),
}


def _header(text: str, lang: str) -> list[str]:
    return next(csv.reader([text.removeprefix("\ufeff").split("\r\n")[0]],
                           delimiter="," if lang == "en" else ";"))  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_a_column_both_reports_have_has_one_name(lang: str) -> None:
    """The per-pupil file and the per-level-and-operation file name the rounds with no answer
    and the median answer time alike (not "Ikke svart" beside "Ikke svart i tide", nor
    "Median svartid (s)" beside "Mediantid (s)"), and each level's misses in the per-pupil
    file are that column's name with the level."""
    pupils, skills = _header(_pupils(lang), lang), _header(_skills(lang), lang)
    missed, median = ONE_NAME[lang]
    assert (t("report.csv.missed", lang), t("report.csv.median", lang)) == (missed, median)
    for column in SHARED:
        name = t(f"report.csv.{column}", lang)
        assert pupils.count(name) == 1 and skills.count(name) == 1, (column, pupils, skills)
    assert t("report.csv.pupils.missed_level", lang, level=3).startswith(f"{missed} ")
    assert t("report.csv.pupils.missed_level", lang, level=3) in pupils


def test_a_shared_column_is_one_catalogue_key() -> None:
    """No column is worded twice: a `report.csv.pupils.<column>` and a
    `report.csv.skills.<column>` of the same column would be two names a translator words
    apart; a shared column is `report.csv.<column>`."""
    for lang in LANGS:
        keys = [key.split(".") for key in catalogue(lang) if key.startswith("report.csv.")]
        pupils = {key[3] for key in keys if key[2] == "pupils" and len(key) == 4}
        skills = {key[3] for key in keys if key[2] == "skills" and len(key) == 4}
        shared = {key[2] for key in keys if len(key) == 3}
        assert pupils & skills == set() and (pupils | skills) & shared == set(), lang
        assert set(SHARED) <= shared, lang


@pytest.mark.parametrize("lang", LANGS)
def test_every_spreadsheet_starts_with_a_bom_in_every_language(lang: Lang) -> None:
    """All four files (the three reports and the lesson summary) start with a byte-order mark,
    English too: without it Excel reads UTF-8 in the computer's own code page and "Åse"
    opens as "Ã…se". The mark is the only thing before the header."""
    pupil = PupilLine("s1", "Åse", games=1, rounds=3, answers=3, best=2, exact=1, mistakes=())
    summary = csv_bytes(ClassSummary((pupil,), (), (), 2, 1), lang)
    line = replace(LINE, name="Åse")
    skills = report_rows_csv(ClassReport((line,), None, None), {}, str, lang=lang)
    trend = report_trend_csv(ClassReport((line,), None, None, TREND), str, lang=lang)
    for data in (summary, *(text.encode("utf-8") for text in (_pupils(lang), skills, trend))):
        assert data.startswith(b"\xef\xbb\xbf") and not data.startswith(b"\xef\xbb\xbf" * 2)
        text = data.decode("utf-8-sig")
        assert not text.startswith("\ufeff")
    for data in (summary, skills.encode("utf-8")):
        assert data.decode("utf-8-sig").split("\r\n")[1].startswith("Åse")
