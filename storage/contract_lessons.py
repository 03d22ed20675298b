"""The storage contract's part for the lessons in the browser: a class lesson as it is stored
(`LessonStore`), a class that remembers (`ClassStore`) and a school server's teachers
(`SchoolTeacherStore`). Its rules are `storage.contract`'s (one transaction a method, plain
values in and out); `storage.contract` gathers these into the whole backend's protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from storage.records.classes import ClassInfo, KeptClass, NoteRow, Pupil, RoundRow, TallyRow
from storage.records.lessons import (
    LeaseFence,
    LessonChange,
    LessonInfo,
    NewLesson,
    StoredLesson,
)
from storage.records.school import Teacher


class LessonStore(Protocol):
    """Class lessons in the browser (`mattekrig class`), stored as they happen: a lesson's
    row, seats, games and each game's actions (storage/lessons.py)."""

    async def create_lesson(self, new: NewLesson, at: int) -> int:
        """A new open lesson's id; LessonCodeTakenError when an open lesson has the code."""
        ...

    async def commit_lesson(
        self, lesson_id: int, change: LessonChange, *, fence: LeaseFence | None = None
    ) -> None:
        """One change whole: the lesson's row, changed seats and games, new actions.
        NotFoundError, LessonClosedError, EventConflictError (seq taken), ValueError (gap),
        LeaseLostError (``fence``'s session no longer holds the lesson's lease)."""
        ...

    async def load_lesson(self, lesson_id: int) -> StoredLesson:
        """The whole lesson (actions by game in seq order); NotFoundError if unknown."""
        ...

    async def resumable_lesson(self, since: int, owner: str | None = None) -> int | None:
        """The open lesson used most recently at or after ``since``."""
        ...

    async def open_lesson_by_code(self, code: str) -> int | None: ...

    async def lessons(self, owner: str | None = None, limit: int = 50) -> list[LessonInfo]:
        """The lessons still kept, newest first."""
        ...

    async def end_lesson(
        self, lesson_id: int, at: int, keep_ms: int, *, fence: LeaseFence | None = None
    ) -> bool:
        """End it, kept ``keep_ms`` more (0: deleted now, True returned)."""
        ...

    async def end_idle_lessons(self, before: int, keep_ms: int, owner: str | None = None) -> int:
        """End the open lessons last used before ``before``, as of their last use."""
        ...

    async def idle_lessons(self, before: int, limit: int = 100) -> list[tuple[int, str]]:
        """The open lessons (id, code) last used before ``before``, least recently first."""
        ...

    async def end_idle_lesson(
        self, lesson_id: int, before: int, keep_ms: int, *, fence: LeaseFence | None = None
    ) -> bool:
        """End that lesson if it is still open and last used before ``before``."""
        ...

    async def delete_lesson(
        self, lesson_id: int, at: int, *, fence: LeaseFence | None = None
    ) -> bool: ...

    async def purge_lessons(self, now: int) -> int:
        """Delete the ended lessons whose retention has run out."""
        ...

    async def close(self) -> None: ...


class ClassStore(Protocol):
    """Classes that remember (storage/classes.py): a class, its roster with each pupil's join
    card, and each pupil's rounds and practice notes across lessons."""

    async def create_class(
        self, name: str, at: int, owner: str | None = None, keep_days: int | None = None
    ) -> ClassInfo:
        """RosterConflictError("class") when the teacher has a class of that name."""
        ...

    async def class_named(self, name: str, owner: str | None = None) -> ClassInfo | None: ...

    async def class_info(self, class_id: int) -> ClassInfo: ...

    async def classes(self, owner: str | None = None) -> list[ClassInfo]: ...

    async def kept_classes(self) -> list[KeptClass]:
        """Every class, whoever's, with its teacher's name (removed ones' too) and pupils."""
        ...

    async def set_class_keep(self, class_id: int, keep_days: int | None) -> None: ...

    async def add_pupil(self, class_id: int, name: str, card: str, at: int) -> Pupil:
        """RosterConflictError("name" or "card"), NotFoundError."""
        ...

    async def replace_card(self, pupil_id: int, card: str) -> Pupil:
        """The old card opens nothing any more. RosterConflictError("card"), NotFoundError."""
        ...

    async def pupils(self, class_id: int) -> list[Pupil]: ...

    async def pupil_by_card(self, card: str) -> Pupil | None: ...

    async def record_rounds(
        self, class_id: int, rounds: Sequence[RoundRow], notes: Sequence[NoteRow]
    ) -> None: ...

    async def class_rounds(
        self, class_id: int, pupil_id: int | None = None
    ) -> tuple[list[RoundRow], list[NoteRow]]: ...

    async def class_tallies(
        self, class_id: int, pupil_id: int | None = None
    ) -> tuple[list[TallyRow], list[NoteRow]]:
        """The rounds counted per pupil, lesson, level and kind; the notes per lesson."""
        ...

    async def forget_pupil(self, pupil_id: int, at: int) -> bool: ...

    async def delete_class(self, class_id: int, at: int) -> bool: ...

    async def purge_class_rounds(self, now: int, school_year_start: int) -> int: ...

    async def expire_classes(self, now: int, school_year_start: int) -> int: ...


class SchoolTeacherStore(Protocol):
    """A school server's teachers, their one-time sign-in links and their sessions
    (storage/school_teachers.py). Tokens go in as the caller holds them and are stored only as
    their SHA-256; a removed teacher, an expired link or session reads as none."""

    async def add_school_teacher(self, teacher_id: str, name: str, at: int) -> Teacher:
        """SchoolConflictError("name") when a present teacher has the name."""
        ...

    async def school_teachers(self) -> list[Teacher]: ...

    async def school_teacher(self, teacher_id: str) -> Teacher | None: ...

    async def school_teacher_named(self, name: str) -> Teacher | None: ...

    async def add_sign_in_link(self, teacher_id: str, token: str, at: int, expires_at: int) -> None:
        """NotFoundError when no present teacher has the id."""
        ...

    async def sign_in_link(self, token: str, now: int) -> Teacher | None:
        """The teacher a valid link signs in; nothing is spent."""
        ...

    async def spend_sign_in_link(
        self,
        token: str,
        session: str,
        at: int,
        session_expires_at: int,
        account: tuple[str, str] | None = None,
    ) -> Teacher | None:
        """Spend the link, bind ``account`` (issuer, subject) if given, open the session: one
        transaction. None: not a valid link. SchoolConflictError("account")."""
        ...

    async def sign_in_account(
        self, issuer: str, subject: str, session: str, at: int, session_expires_at: int
    ) -> Teacher | None:
        """A session for the teacher the account is bound to; None when none is."""
        ...

    async def session_teacher(self, session: str, now: int) -> Teacher | None: ...

    async def end_school_session(self, session: str) -> bool: ...

    async def remove_school_teacher(self, teacher_id: str, at: int) -> bool:
        """Their sessions and links deleted now; their lessons stay until their retention."""
        ...

    async def purge_sign_ins(self, now: int) -> int:
        """Delete expired (and spent) links and expired sessions."""
        ...


__all__ = ["ClassStore", "LessonStore", "SchoolTeacherStore"]
