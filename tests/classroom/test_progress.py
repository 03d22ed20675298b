"""Progress lesson over lesson (classroom/progress.py): rates of the rounds answered, too few
under 5 rounds, arrows against the period before, weeks, the heat map's pupil counts, the
suggested next level and the pupil's own lines."""

from __future__ import annotations

from fractions import Fraction

from classroom.progress import MIN_ROUNDS, Change, arrow, own_changes, progress, week_of
from storage.records.classes import NoteRow, TallyRow

DAY = 86_400_000
MONDAY = 1_789_344_000_000  # Monday 14 September 2026, 00:00 UTC


def _lesson(pupil: int, lesson: int, at: int, *, answered: int, slips: int = 0,
            best: int = 0, missed: int = 0, level: int = 1) -> list[TallyRow]:  # fmt: skip
    rows = [TallyRow(pupil, lesson, at, level, None, answered - slips, answered - slips, best)]
    if slips:
        rows.append(TallyRow(pupil, lesson, at, level, "sign_slip", slips, slips, 0))
    if missed:
        rows.append(TallyRow(pupil, lesson, at, level, "timeout", missed, 0, 0))
    return rows


def test_a_rate_is_of_the_rounds_answered_and_too_few_under_five() -> None:
    """Issue: "each mistake kind … as a rate (of rounds answered) … cells with fewer than 5
    rounds are shown as too few"; a miss is no kind but counts against best moves."""
    found = progress(
        _lesson(1, 1, MONDAY, answered=MIN_ROUNDS - 1, slips=2)
        + _lesson(2, 1, MONDAY, answered=10, slips=3, best=4, missed=2),
        [],
    )
    ((_, few),) = found.pupil(1).periods("lesson")
    assert few.rate("sign_slip") is None and few.best_rate is None
    ((_, enough),) = found.pupil(2).periods("lesson")
    assert enough.rate("sign_slip") == Fraction(3, 10)
    assert enough.best_rate == Fraction(4, 12)
    assert "timeout" not in enough.kinds


def test_the_arrow_compares_with_the_last_period_that_has_a_rate() -> None:
    rows = (
        _lesson(1, 1, MONDAY, answered=10, slips=6)
        + _lesson(1, 2, MONDAY + 7 * DAY, answered=3, slips=0)  # too few: skipped
        + _lesson(1, 3, MONDAY + 14 * DAY, answered=10, slips=2)
    )
    ada = progress(rows, []).pupil(1)
    assert ada.trend("sign_slip", "lesson") == "down"
    assert arrow(Fraction(1, 5), Fraction(2, 5)) == "up"
    assert arrow(Fraction(1, 5), Fraction(1, 5)) == "same"
    assert arrow(None, Fraction(1, 5)) is None


def test_two_lessons_of_one_week_are_one_week() -> None:
    rows = _lesson(1, 1, MONDAY + DAY, answered=4, slips=2) + _lesson(
        1, 2, MONDAY + 3 * DAY, answered=4, slips=1
    )
    ada = progress(rows, []).pupil(1)
    ((week, figures),) = ada.periods("week")
    assert week == week_of(MONDAY) and week.key == "2026-W38"
    assert (figures.answered, figures.kinds["sign_slip"]) == (8, 3)
    assert len(ada.periods("lesson")) == 2


def test_a_week_turns_over_at_midnight_where_the_pupils_are() -> None:
    """A lesson at 00:30 on Monday in Norway (22:30 on Sunday in UTC) is that Monday's week,
    as the bot's weekly figures count it (`classroom.periods`), not the Sunday's."""
    oslo_midnight = MONDAY - 2 * 3_600_000  # summer time: UTC+2
    early = week_of(oslo_midnight + 30 * 60_000)
    assert early.key == "2026-W38" and early.start == oslo_midnight
    assert week_of(oslo_midnight - 60_000).key == "2026-W37"


def test_the_heat_map_counts_pupils_not_rounds_and_notes_too() -> None:
    rows = _lesson(1, 1, MONDAY, answered=10, slips=5) + _lesson(2, 1, MONDAY, answered=10, slips=1)
    notes = [NoteRow(3, 1, MONDAY, "", "not_simplified", 4, 0)]
    found = progress(rows + _lesson(3, 1, MONDAY, answered=10), notes, [1, 2, 3])
    assert found.count("sign_slip", "1") == 2
    assert found.count("not_simplified", "1") == 1
    assert found.pupil(3).periods("lesson")[0][1].rate("not_simplified") == Fraction(4, 10)
    assert found.kinds == ("sign_slip", "not_simplified")  # most pupils first


def test_the_suggested_level_follows_the_last_lessons_rounds() -> None:
    """`classroom.advice.next_step`: most best moves over enough rounds: a level up; fewer than
    half: a level down."""
    strong = progress(_lesson(1, 1, MONDAY, answered=10, best=9, level=2), []).pupil(1)
    weak = progress(_lesson(1, 1, MONDAY, answered=10, best=2, level=2), []).pupil(1)
    assert strong.suggested_level() == 3
    assert weak.suggested_level() == 1


def test_the_pupils_own_lines_say_this_time_against_the_time_before() -> None:
    rows = _lesson(1, 1, MONDAY, answered=20, slips=6, best=10) + _lesson(
        1, 2, MONDAY + 7 * DAY, answered=20, slips=2, best=14
    )
    lines = own_changes(progress(rows, []).pupil(1))
    assert lines == [Change(None, (10, 20), (14, 20)), Change("sign_slip", (6, 20), (2, 20))]
