"""The teacher's spreadsheets speak the catalogues' words: every column name and every word in
a cell of the two report files (`/mattekrig admin report`) and of the lesson summary comes
from the catalogue of the teacher's language, so a translator words them with the screens.
What a spreadsheet needs to open them by a double click stays: a byte-order mark, and in nb,
nn and sv a semicolon between fields and a decimal comma."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from types import MappingProxyType

import pytest

from bot.i18n import LANGS, catalogue, t
from bot.i18n import messages as catalogue_module
from bot.services.admin import report_csv
from bot.services.figures import ClassReport, SkillLine
from bot.services.report import report_rows_csv
from table.summary import ClassLine, PupilLine, csv_bytes

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
)
# The columns of the report with one line per pupil, level and operation, as the teachers'
# spreadsheets have opened them so far (the glossary's words: fulltreffer, fullträff).
SKILL_COLUMNS = {
    "nb": "Elev;Nivå;Regneart;Svar;Riktige (%);Beste trekk (%);Ikke svart i tide;"
    "Fulltreffere;Mediantid (s);Beste trekk per uke;Vanligste feil;Trenger hjelp med",
    "nn": "Elev;Nivå;Rekneart;Svar;Rette (%);Beste trekk (%);Ikkje svart i tide;"
    "Fulltreff;Mediantid (s);Beste trekk per veke;Vanlegaste feil;Treng hjelp med",
    "sv": "Elev;Nivå;Räknesätt;Svar;Rätta (%);Bästa drag (%);Inte svarat i tid;"
    "Fullträffar;Mediantid (s);Bästa drag per vecka;Vanligaste fel;Behöver hjälp med",
    "en": "Pupil,Level,Operation,Answers,Correct (%),Best moves (%),No answer in time,"
    "Exact hits,Median time (s),Best moves by week,Most common mistakes,Needs help with",
}
WEEKS = {"nb": "u10: 60 %, u11: 40 %", "nn": "v10: 60 %, v11: 40 %", "sv": "v10: 60 %, v11: 40 %",
         "en": "w10: 60 %, w11: 40 %"}  # fmt: skip


def _skills(lang: str) -> str:
    return report_rows_csv(ClassReport((LINE,), None, None), {"divide": "DIV"}, str, lang=lang)


def _pupils(lang: str) -> str:
    return report_csv([], mistake_name=str, lang=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_reports_open_in_a_spreadsheet_as_before(lang: str) -> None:
    """The words moved to the catalogues, the files did not change: BOM, separator, decimal
    mark, the columns' names and a week's best moves ("u10: 60 %") are as teachers know them."""
    text = _skills(lang)
    assert text.startswith("\ufeff")
    header, row = text[1:].split("\r\n")[:2]
    assert header == SKILL_COLUMNS[lang]
    separator = "," if lang == "en" else ";"
    cells = next(csv.reader([row], delimiter=separator))
    assert cells[4:6] == (["70.0", "41.7"] if lang == "en" else ["70,0", "41,7"])
    assert cells[8] == ("4.5" if lang == "en" else "4,5") and cells[9] == WEEKS[lang]
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
    summary = csv_bytes(ClassLine((pupil,), (), (), 2, 1), lang).decode("utf-8-sig")  # type: ignore[arg-type]
    columns, line = (next(csv.reader([row])) for row in summary.split("\r\n")[:2])
    assert all(cell.startswith("«") for cell in columns) and line[5] == "0'67", (
        columns,
        line,
    )  # 2 of 3
