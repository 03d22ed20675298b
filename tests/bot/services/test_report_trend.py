"""The teacher's report on Discord gains the class's kinds × weeks trend (issue: "the
teacher's report gains the kinds × weeks trend for the server's pupils, from the results the
bot already keeps"): did the lesson on minus-minus work?"""

from __future__ import annotations

from bot.render.report import render_report, trend_text
from bot.services.report import class_report
from classroom.i18n import t
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
