"""The teacher's report on Discord gains the class's kinds × weeks trend (issue: "the
teacher's report gains the kinds × weeks trend for the server's pupils, from the results the
bot already keeps"): did the lesson on minus-minus work?"""

from __future__ import annotations

import csv
import io

import pytest

from bot.render.report import TREND_KINDS, TREND_WEEKS, mistake_name, render_report, trend_text
from bot.services.report import class_report, report_trend_csv
from classroom.i18n import LANGS, Lang, t
from tests.bot.services.test_teacher_reports import ALICE, BOB, T0, _game, _tally

WEEK = 7 * 86_400_000


def test_the_report_counts_each_kind_week_by_week_of_the_answers_given() -> None:
    """Sign slips 6 of 10 answers in the first week, 3 of 10 in the next, 1 of 10 in the
    third, over two pupils; a timeout is no kind of the class's; one wrong answer counts once
    (RULES §2.6)."""
    games = [
        _game(1, ALICE, 1, (_tally("add", 5, 1, 1, (1_000,) * 5, sign_slip=4),)),
        _game(2, BOB, 1, (_tally("add", 5, 3, 3, (1_000,) * 5, sign_slip=2),)),
        _game(3, ALICE, 1, (_tally("add", 5, 3, 3, (1_000,) * 5, sign_slip=2),), at=T0 + WEEK),
        _game(
            4, BOB, 1, (_tally("add", 5, 4, 4, (1_000,) * 5, sign_slip=1, timeout=1),), at=T0 + WEEK
        ),
        _game(
            5, ALICE, 1, (_tally("add", 10, 9, 9, (1_000,) * 10, sign_slip=1),), at=T0 + 2 * WEEK
        ),
    ]
    report = class_report(games)
    ((kind, weeks),) = report.trend
    assert kind == "sign_slip"
    assert [(n, a) for _, n, a in weeks] == [(6, 10), (3, 10), (1, 10)]
    slip = t("mistake.sign_slip", "nb")
    line = trend_text(report, "nb")
    assert line.startswith(f"**{slip}**: 6 av 10 → 3 av 10 → 1 av 10 (uke ")
    head = render_report(report, "nb", guild_id=1).embeds[0]
    assert any(f.name == t("report.trend.title", "nb") and f.value == line for f in head.fields)


def test_one_week_is_no_trend() -> None:
    report = class_report(
        [_game(1, ALICE, 1, (_tally("add", 5, 1, 1, (1_000,) * 5, sign_slip=4),))]
    )
    assert trend_text(report, "en") == ""


def _csv(text: str, lang: str) -> list[list[str]]:
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";" if lang != "en" else ","))


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_csv_holds_the_same_kinds_by_week_as_the_message(lang: Lang) -> None:
    """Issue: "the teacher's report gains the kinds × weeks trend for the server's pupils":
    its CSV holds the same counts as the message (each kind's count of the answers given,
    week by week), with every kind and every week the message has no room for: five weeks,
    five kinds, one week with a game and no answer at all. Only counts of the class: no
    pupil's name is in the file, and nothing ranks a pupil."""
    kinds = ("sign_slip", "wrong_value", "order_of_operations", "square_sign", "arithmetic_slip")
    games = []
    for week in range(5):
        for n, who in enumerate((ALICE, BOB)):
            made = {kind: (week + i + n) % 3 for i, kind in enumerate(kinds)}
            asked = sum(made.values()) + 2
            tally = _tally("add", asked, 2, 2, (1_000,) * asked, **made)
            games.append(_game(10 * week + n, who, 1, (tally,), at=T0 + week * WEEK))
    games.append(_game(99, ALICE, 1, (), missed=3, at=T0 + 5 * WEEK))  # no answer that week
    report = class_report(games)
    text = report_trend_csv(report, lambda code: mistake_name(code, lang), lang=lang)
    header, answers, *rows = _csv(text, lang)
    weeks = [w for w, _, _ in report.trend[0][1]]
    assert header == [t("report.csv.trend.kind", lang)] + [
        t("report.csv.trend.week", lang, week=w % 100, year=w // 100) for w in weeks
    ]
    assert len(weeks) == 6 and answers[0] == t("report.csv.answers", lang)
    assert [row[0] for row in rows] == [mistake_name(kind, lang) for kind, _ in report.trend]
    assert len(rows) == len(report.trend) > TREND_KINDS  # every kind, not only the four shown
    # The message's lines, made again from the file: the same counts of the same answers.
    again = []
    for row in rows[:TREND_KINDS]:
        given = [(w, int(n), int(a)) for w, n, a in zip(weeks, row[1:], answers[1:], strict=True)]
        shown = [g for g in given if g[2]][-TREND_WEEKS:]
        counts = " → ".join(t("report.trend.count", lang, count=n, answers=a) for _, n, a in shown)
        again.append(t("report.trend.line", lang, kind=row[0], counts=counts,
                       first=shown[0][0] % 100, last=shown[-1][0] % 100))  # fmt: skip
    assert "\n".join(again) == trend_text(report, lang)
    assert not any(name in text for name in ("Alice", "Bob"))
