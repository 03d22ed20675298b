"""The teacher's controls applied to a lesson: pairing, new partners, challenges, pause and
resume, the end, more time, joining closed or open, the number of seats, removing seats, the
projected round and the class goal. Plain changes to a `Lesson`, with no web in them: the
routes (`table.class_web`) take the lesson's lock, call `apply_control`, store the lesson and
tell every device."""

from __future__ import annotations

from table.games import TableGame
from table.lesson import MAX_SEATS, WAITING, Lesson
from table.press import Refused, whole
from table.setup import read_lesson_setup

MORE_MINUTES = 5
# The teacher's buttons: POST /teacher/<control>.
CONTROLS = ("settings", "pair", "new-partners", "challenges", "pause", "resume", "end",
            "more-time", "remove", "show", "goal", "lock", "unlock", "seats")  # fmt: skip

# The buttons of the form that also holds the game for the class: the game on the screen
# when one is pressed is the one the new games are (no separate save to forget).
WITH_SETUP = ("pair", "new-partners", "challenges")


def apply_control(lesson: Lesson, what: str, form: dict[str, str]) -> list[TableGame]:
    """A control, with the game the form chose when it holds one: both are taken, or,
    when either is refused, neither."""
    if what not in WITH_SETUP or "game" not in form:
        return _apply(lesson, what, form)
    chosen, before = read_lesson_setup(form), lesson.setup
    lesson.setup = chosen
    try:
        games = _apply(lesson, what, form)
    except Refused:
        lesson.setup = before
        raise
    if chosen != before:
        lesson.version += 1
    return games


def _apply(lesson: Lesson, what: str, form: dict[str, str]) -> list[TableGame]:
    if what not in CONTROLS:
        raise Refused("table.error.not_found", 404)
    if what == "settings":
        lesson.setup = read_lesson_setup(form)
        lesson.version += 1
        return []
    if what == "pair":
        return lesson.pair(form.get("how", ""))
    if what == "new-partners":
        lesson.new_partners()
        return lesson.live_games()  # the ended games and the new ones
    if what == "challenges":
        lesson.challenges_open = not lesson.challenges_open
        lesson.challenges.clear()
        return []
    if what == "pause":
        lesson.pause()
        return lesson.live_games()
    if what == "resume":
        lesson.resume()
        return lesson.live_games()
    if what == "end":
        lesson.end()
        return lesson.live_games()
    if what == "more-time":
        return [g for g in lesson.live_games() if g.more_minutes(MORE_MINUTES)]
    if what in ("lock", "unlock"):
        lesson.locked = what == "lock"
        lesson.version += 1
        return []
    if what == "seats":
        cap = whole(form.get("seats"))
        if cap is None or not 1 <= cap <= MAX_SEATS:
            raise Refused("lesson.error.seat_cap", most=MAX_SEATS)
        lesson.seat_cap = cap
        lesson.version += 1
        return []
    if what == "remove":
        # A press on the projector is easily a slip: removing ends a game, so it is asked.
        seat = form.get("seat", "")
        if seat == WAITING:
            if form.get("confirm") != "yes":
                lesson.removing = None if form.get("confirm") == "no" else WAITING
                return []
            lesson.removing = None
            lesson.remove_waiting()
            return []
        if seat not in lesson.seats:
            raise Refused("lesson.error.no_seat", 404)
        if form.get("confirm") != "yes":
            lesson.removing = None if form.get("confirm") == "no" else seat
            return []
        lesson.removing = None
        left = lesson.remove(seat)
        return [left] if left is not None else []
    if what == "show":
        if "table" in form:
            lesson.show(form["table"] or None)
        if form.get("hide") in ("true", "false"):
            lesson.hide_names = form.get("hide") == "true"
        return []
    if what == "goal":
        goal = whole(form.get("goal"))
        if goal is None or not 0 <= goal <= 9999:
            raise Refused("lesson.error.goal")
        lesson.goal = goal or None
    return []
