"""A lesson of a class that remembers (`mattekrig class --class 7B`): the class and its roster
joined to the lesson, the pupils' cards, and each pupil's rounds stored as they are played.

* **Cards.** Each pupil of the roster has a personal code (`new_card`: `CARD_LENGTH` letters
  and digits that are not read one for another, from the system's secure randomness: 32⁸,
  about 10¹², so guessing one, at the join page's `table.joining` rate, takes millennia). The
  roster is the lesson's `roster` (card → pupil), read from storage when the lesson opens and
  again whenever the teacher changes it, so a replaced card stops working at once.
* **Rounds.** `Recorder.save` runs after the lesson's own save (`table.keep`): it stores the
  answer records and practice notes of the seats that are pupils of the class
  (`storage.classes`), each record once. The progress pages read them (`classroom.progress`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime

from classroom.periods import SCHOOL_TZ, local_time
from classroom.progress import progress
from storage.contract import ClassStore
from storage.errors import RosterConflictError
from storage.records.classes import ClassInfo, NoteRow, Pupil, RoundRow
from table.games import TableGame
from table.lesson import Lesson, card_code
from table.names import check_name

CARD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed right
CARD_LENGTH = 8
Wall = Callable[[], float]


def new_card() -> str:
    return "".join(secrets.choice(CARD_ALPHABET) for _ in range(CARD_LENGTH))


def shown_card(card: str) -> str:
    """A card's code as printed: two groups of four ("ABCD-2345")."""
    return f"{card[:4]}-{card[4:]}" if len(card) == CARD_LENGTH else card


async def add_pupils(store: ClassStore, class_id: int, names: list[str], at: int) -> list[Pupil]:
    """New pupils on the roster, each with a new card (names checked as a lesson checks a
    nickname: no invisible characters, no look-alike of a name on the roster, none of the
    game's own names). `table.press.Refused` for the first name refused, nothing added after
    it; a name the roster has already is skipped."""
    roster = [p.name for p in await store.pupils(class_id)]
    added = []
    for typed in names:
        if not typed.strip():
            continue
        name = check_name(typed, roster)
        while True:
            try:
                added.append(await store.add_pupil(class_id, name, new_card(), at))
            except RosterConflictError as conflict:
                if conflict.what == "card":
                    continue  # drawn twice: draw again
                break
            break
        roster.append(name)
    return added


async def replace_card(store: ClassStore, pupil_id: int) -> Pupil:
    while True:
        try:
            return await store.replace_card(pupil_id, new_card())
        except RosterConflictError:
            continue


async def load_roster(store: ClassStore, lesson: Lesson) -> list[Pupil]:
    """The class's roster into the lesson (its cards open its seats) with each pupil's
    suggested level (`classroom.progress`, for tables at their own level); returns it."""
    if lesson.class_id is None:
        lesson.roster = None
        return []
    pupils = await store.pupils(lesson.class_id)
    lesson.roster = {card_code(p.card): (p.id, p.name) for p in pupils}
    tallies, notes = await store.class_tallies(lesson.class_id)
    found = progress(tallies, notes, [p.id for p in pupils])
    suggested = {p.id: found.pupil(p.id).suggested_level() for p in pupils}
    lesson.levels = {p: level for p, level in suggested.items() if level is not None}
    return pupils


@dataclass
class Recorder:
    """Stores the rounds of the class's pupils after each save of the lesson."""

    store: ClassStore
    lesson_id: int
    lesson_at: int
    wall: Wall = time.time
    _records: dict[str, int] = field(default_factory=dict)  # game -> records stored
    _notes: dict[tuple[str, str, str], int] = field(default_factory=dict)

    def wrap(self, lesson: Lesson) -> None:
        """Record after each of the lesson's saves: the whole lesson's, and one game's."""
        saver, game_saver = lesson.saver, lesson.game_saver

        async def save(lesson: Lesson) -> None:
            if saver is not None:
                await saver(lesson)
            await self.save(lesson)

        async def save_game(lesson: Lesson, game: TableGame) -> None:
            if game_saver is not None:
                await game_saver(lesson, game)
            await self.save_game(lesson, game)

        lesson.saver, lesson.game_saver = save, save_game

    async def save(self, lesson: Lesson) -> None:
        """The new rounds of every game (the whole lesson is held)."""
        for game in list(lesson.games):
            await self.save_game(lesson, game)

    async def save_game(self, lesson: Lesson, game: TableGame) -> None:
        """The game's rounds and notes not stored yet (its table is held: each game's own
        counts are only ever touched under it)."""
        if lesson.class_id is None or game.shared:
            return
        at = round(self.wall() * 1000)
        rounds: list[RoundRow] = []
        notes: list[NoteRow] = []
        noted: dict[tuple[str, str, str], int] = {}
        records = game.records
        done = len(records)
        for seq in range(self._records.get(game.id, 0), done):
            r = records[seq]
            pupil = lesson.pupils.get(r.seat)
            if pupil is not None:
                rounds.append(RoundRow(pupil, self.lesson_id, self.lesson_at, game.id, seq, at,
                                       r.level, r.answered, r.best, r.mistake))  # fmt: skip
        for seat, counts in list(game.tally.notes.items()):
            pupil = lesson.pupils.get(seat)
            for kind, n in list(counts.items()):
                key = (game.id, seat, kind)
                if pupil is not None and self._notes.get(key) != n:
                    notes.append(NoteRow(pupil, self.lesson_id, self.lesson_at, game.id, kind,
                                         n, at))  # fmt: skip
                    noted[key] = n
        await self.store.record_rounds(lesson.class_id, rounds, notes)
        self._records[game.id] = done
        self._notes.update(noted)


@dataclass
class Class:
    """A lesson's class (None until the teacher names one) and where it is kept; `attach`
    makes the lesson one of a class (its roster read in, its pupils' rounds recorded)."""

    store: ClassStore
    info: ClassInfo | None
    attach: Callable[[ClassInfo], Awaitable[None]] | None = None
    owner: str | None = None  # the teacher on a school server: their classes only


async def purge_classes(store: ClassStore, now: float) -> None:
    """Everything of a class past its retention (`now`: seconds): its rounds and notes, then
    the classes nothing newer keeps (their rosters and cards with them)."""
    now_ms, start = round(now * 1000), school_year_start(now)
    await store.purge_class_rounds(now_ms, start)
    await store.expire_classes(now_ms, start)


def school_year_start(now: float) -> int:
    """The 1 August (midnight where the pupils are, in ms) that began the school year ``now``
    (seconds) is in: by default a class's results of an earlier school year are deleted."""
    day = local_time(round(now * 1000))
    year = day.year if (day.month, day.day) >= (8, 1) else day.year - 1
    return round(datetime(year, 8, 1, tzinfo=SCHOOL_TZ).timestamp() * 1000)


async def open_class(store: ClassStore, name: str, at: int, owner: str | None = None) -> ClassInfo:
    """The class of that name (of `owner`'s, on a school server), made the first time it is
    named."""
    found = await store.class_named(name, owner)
    if found is not None:
        return found
    try:
        return await store.create_class(name, at, owner)
    except RosterConflictError:
        again = await store.class_named(name, owner)
        assert again is not None
        return again


__all__ = [
    "CARD_ALPHABET",
    "CARD_LENGTH",
    "Class",
    "Recorder",
    "add_pupils",
    "load_roster",
    "new_card",
    "open_class",
    "purge_classes",
    "replace_card",
    "school_year_start",
    "shown_card",
]
