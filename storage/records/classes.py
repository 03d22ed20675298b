"""The rows of a class that remembers: the class, its pupils (each with a personal join card)
and each pupil's results round by round across lessons, which the progress pages read.

Times are integers, milliseconds since the Unix epoch, always supplied by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """A class: its name ("7B"), its teacher on a school server (None on a laptop), and how
    many days its results are kept (None: to the end of the school year)."""

    id: int
    name: str
    owner: str | None
    keep_days: int | None
    created_at: int


@dataclass(frozen=True, slots=True)
class Pupil:
    """A pupil of a class's roster: a first name or a pseudonym, and the code on the pupil's
    join card (the one way into a lesson of the class as this pupil)."""

    id: int
    class_id: int
    name: str
    card: str


@dataclass(frozen=True, slots=True)
class KeptClass:
    """A class as whoever runs the lessons answers a request about it: the class, its
    teacher's name on a school server (None: a class of `mattekrig class`, with no teacher),
    when that teacher was removed (None: not removed) and how many pupils its roster holds."""

    info: ClassInfo
    teacher: str | None
    teacher_removed_at: int | None
    pupils: int


@dataclass(frozen=True, slots=True)
class RoundRow:
    """One round a pupil was asked in a lesson: answered (or missed), a best move or not, the
    mistake's kind (the engine's reason code; None: no mistake)."""

    pupil_id: int
    lesson_id: int
    lesson_at: int
    game_id: str
    seq: int  # the answer's place among the game's answer records
    at: int
    level: int
    answered: bool
    best: bool
    kind: str | None


@dataclass(frozen=True, slots=True)
class TallyRow:
    """A pupil's rounds in one lesson at one level with one outcome kind (the mistake's kind;
    None: no mistake), counted: asked, answered, best moves. What the progress pages read."""

    pupil_id: int
    lesson_id: int
    lesson_at: int
    level: int
    kind: str | None
    asked: int
    answered: int
    best: int


@dataclass(frozen=True, slots=True)
class NoteRow:
    """A pupil's practice notes of one kind in one game (a count, RULES §2.6)."""

    pupil_id: int
    lesson_id: int
    lesson_at: int
    game_id: str
    kind: str
    n: int
    at: int


__all__ = ["ClassInfo", "KeptClass", "NoteRow", "Pupil", "RoundRow", "TallyRow"]
