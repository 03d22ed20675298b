"""A parent's request about a class that remembers, answered from the terminal by whoever runs
the lessons (`mattekrig privacy class-list|class-export|class-forget|class-delete`), on the
lessons' database as `mattekrig class` or `mattekrig serve` opens it (the user's `lessons.db`,
or the PostgreSQL that ``DATABASE_URL`` names).

On a school server every teacher may have a class "7B": a class is named by its name and its
teacher (``--teacher``, the name `mattekrig teachers list` shows, or a removed teacher's while a
class of theirs is kept), and a name that is not one class's alone is refused in one sentence
that says whose classes have it, before anything is asked or changed. A removed teacher's class
is found the same way, so that whoever runs the server can still answer for it.

The same deletions as the class's page: forgetting a pupil deletes the roster row, the card,
the rounds and notes and the pupil's name in the class's lessons still kept; deleting a class
deletes it, its pupils, their results and its lessons (`storage.classes`). Both are
remembered, so a backup of the lessons restored later deletes them again (`mattekrig restore
--lessons`).
"""

from __future__ import annotations

import asyncio
import json
import time
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from classroom.periods import local_time
from storage.errors import NotFoundError
from storage.records.classes import KeptClass
from storage.sqlite import Storage
from table.cli import lesson_storage
from table.roster import school_year_start

NO_TEACHER = "no teacher (mattekrig class)"


class ClassNotFoundError(NotFoundError):
    """No one class of that name (and teacher), or no pupil of that name in it: the message is
    one sentence for whoever runs the lessons."""


@dataclass(frozen=True, slots=True)
class Which:
    """The class a request is about, as the command line names it: its name, and on a school
    server its teacher (``no_teacher``: the one kept by `mattekrig class`, with no teacher)."""

    name: str
    teacher: str | None = None
    no_teacher: bool = False


@dataclass(frozen=True, slots=True)
class Found:
    """The one class (and pupil) a request names, as it was found."""

    kept: KeptClass
    pupil_id: int | None = None

    @property
    def label(self) -> str:
        """The class as the messages name it: "class 7B", or "class 7B of Kari N"."""
        teacher = teacher_label(self.kept)
        return f"class {self.kept.info.name}" + ("" if teacher is None else f" of {teacher}")


def _now_ms() -> int:
    return round(time.time() * 1000)


def _tidy(name: str) -> str:
    """A teacher's name as `mattekrig teachers` keeps it (spaces tidied, NFC)."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def teacher_label(kept: KeptClass) -> str | None:
    """The class's teacher as the commands name them: the name; a removed teacher's with the day
    they were removed (their name may be a present teacher's now); None: no teacher."""
    if kept.info.owner is None:
        return None
    if kept.teacher is None:  # a teacher row gone before its classes: the opaque id is all
        return kept.info.owner
    if kept.teacher_removed_at is None:
        return kept.teacher
    return f"{kept.teacher} (removed {local_time(kept.teacher_removed_at):%Y-%m-%d})"


def _of(kept: KeptClass, teacher: str) -> bool:
    return kept.info.owner is not None and teacher in (kept.teacher, teacher_label(kept))


def _whose(named: list[KeptClass], last: str = "and") -> str:
    """ "'Kari N', 'Lars H' and without a teacher": whose classes of a name are kept."""
    parts = [repr(label) for k in named if (label := teacher_label(k)) is not None]
    if any(k.info.owner is None for k in named):
        parts.append("without a teacher")
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {last} {parts[-1]}"


def choose(kept: list[KeptClass], which: Which) -> KeptClass:
    """The one class ``which`` names among those kept; ClassNotFoundError (one sentence) when
    none or more than one is."""
    name = which.name
    named = [k for k in kept if k.info.name == name]
    if not named:
        raise ClassNotFoundError(f"no class named {name!r} in the lessons' database")
    if which.no_teacher:
        found = [k for k in named if k.info.owner is None]
        if not found:
            raise ClassNotFoundError(
                f"no class named {name!r} is kept without a teacher, only for {_whose(named)}: "
                "give --teacher NAME"
            )
        return found[0]
    if which.teacher is None:
        if len(named) == 1 and named[0].info.owner is None:
            return named[0]
        alone = " or --no-teacher" if any(k.info.owner is None for k in named) else ""
        what = f"classes named {name!r} are" if len(named) > 1 else f"a class named {name!r} is"
        raise ClassNotFoundError(
            f"{what} kept here for {_whose(named)}: give --teacher NAME{alone} to say whose; "
            "nothing was changed"
        )
    teacher = _tidy(which.teacher)
    found = [k for k in named if _of(k, teacher)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise ClassNotFoundError(
            f"no teacher named {teacher!r} has a class named {name!r}; it is kept for "
            f"{_whose(named)}"
        )
    raise ClassNotFoundError(
        f"more than one teacher named {teacher!r} has a class named {name!r}: give --teacher "
        f"as {_whose(found, 'or')} to say whose; nothing was changed"
    )


async def _find(store: Storage, which: Which, pupil: str | None) -> Found:
    kept = choose(await store.kept_classes(), which)
    if pupil is None:
        return Found(kept)
    for p in await store.pupils(kept.info.id):
        if p.name == pupil:
            return Found(kept, p.id)
    raise ClassNotFoundError(f"no pupil named {pupil!r} in {Found(kept).label}")


def find(which: Which, pupil: str | None = None, url: str | None = None) -> Found:
    """The class (and pupil) a request names, before anything is asked or changed."""

    async def _run() -> Found:
        async with lesson_storage(url) as store:
            return await _find(store, which, pupil)

    return asyncio.run(_run())


async def _export(which: Which, pupil: str | None, url: str | None) -> tuple[Found, dict[str, Any]]:
    async with lesson_storage(url) as store:
        found = await _find(store, which, pupil)
        class_id = found.kept.info.id
        pupils = await store.pupils(class_id)
        rounds, notes = await store.class_rounds(class_id, found.pupil_id)
        return found, {
            "class": asdict(found.kept.info),
            "teacher": teacher_label(found.kept),
            "pupils": [asdict(p) for p in pupils if pupil is None or p.id == found.pupil_id],
            "rounds": [asdict(r) for r in rounds],
            "practice_notes": [asdict(n) for n in notes],
        }


def export(which: Which, pupil: str | None, output: Path, url: str | None = None) -> int:
    """Write everything kept of the class (or one pupil of it) as JSON; returns the rows."""
    _, data = asyncio.run(_export(which, pupil, url))
    output.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return sum(len(v) for v in data.values() if isinstance(v, list))


def forget(found: Found, url: str | None = None) -> bool:
    """Forget the pupil ``find`` found; False if they were forgotten meanwhile."""
    assert found.pupil_id is not None
    pupil_id = found.pupil_id

    async def _run() -> bool:
        async with lesson_storage(url) as store:
            return await store.forget_pupil(pupil_id, _now_ms())

    return asyncio.run(_run())


def delete(found: Found, url: str | None = None) -> bool:
    """Delete the class ``find`` found (False if it was deleted meanwhile); a removed teacher
    of whom nothing else is kept goes with it (`purge_sign_ins`)."""

    async def _run() -> bool:
        async with lesson_storage(url) as store:
            done = await store.delete_class(found.kept.info.id, _now_ms())
            await store.purge_sign_ins(_now_ms())
            return done

    return asyncio.run(_run())


def kept_until(kept: KeptClass, now_ms: int) -> str:
    """Until when the class's results are kept, as its teacher set it."""
    if kept.info.keep_days is not None:
        return f"results kept {kept.info.keep_days} day(s) after each round"
    start = local_time(school_year_start(now_ms / 1000))
    return f"results kept to {start.replace(year=start.year + 1):%Y-%m-%d} (the school year's end)"


def _line(kept: KeptClass, now_ms: int) -> str:
    return (
        f"{kept.info.name}\t{teacher_label(kept) or NO_TEACHER}\t{kept.pupils} pupil(s)\t"
        f"{kept_until(kept, now_ms)}"
    )


async def _listing(
    teacher: str | None, no_teacher: bool, which: Which | None, url: str | None
) -> str:
    async with lesson_storage(url) as store:
        now = _now_ms()
        if which is not None:  # one class: its line, then its pupils' names
            found = await _find(store, which, None)
            names = [f"\t{p.name}" for p in await store.pupils(found.kept.info.id)]
            return "\n".join([_line(found.kept, now), *names])
        kept = await store.kept_classes()
        if teacher is not None:
            tidy = _tidy(teacher)
            kept = [k for k in kept if _of(k, tidy)]
            if not kept:
                return f"No class is kept for a teacher named {tidy!r}."
        if no_teacher:
            kept = [k for k in kept if k.info.owner is None]
        if not kept:
            return "No class is kept."
        return "\n".join(_line(k, now) for k in kept)


def listing(
    teacher: str | None = None,
    no_teacher: bool = False,
    which: Which | None = None,
    url: str | None = None,
) -> str:
    """The classes kept (one teacher's, or those with no teacher): name, teacher, pupils, until
    when; never a pupil's name, unless one class is asked for (``which``): then its pupils'
    names too."""
    return asyncio.run(_listing(teacher, no_teacher, which, url))


__all__ = [
    "NO_TEACHER",
    "ClassNotFoundError",
    "Found",
    "Which",
    "choose",
    "delete",
    "export",
    "find",
    "forget",
    "kept_until",
    "listing",
    "teacher_label",
]
