"""A parent's request about a class that remembers, answered from the terminal by whoever runs
the lessons (`mattekrig privacy class-export|class-forget|class-delete`), on the lessons'
database as `mattekrig class` opens it (the user's `lessons.db`, or ``DATABASE_URL``).

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
from dataclasses import asdict
from pathlib import Path
from typing import Any

from storage.errors import NotFoundError
from storage.sqlite import Storage
from table.cli import lesson_storage


class ClassNotFoundError(NotFoundError):
    """No class of that name, or no pupil of that name in it."""


def _now_ms() -> int:
    return round(time.time() * 1000)


async def _class_id(store: Storage, name: str) -> int:
    found = await store.class_named(name)
    if found is None:
        raise ClassNotFoundError(f"no class named {name!r} in the lessons' database")
    return found.id


async def _pupil_id(store: Storage, class_id: int, pupil: str) -> int:
    for p in await store.pupils(class_id):
        if p.name == pupil:
            return p.id
    raise ClassNotFoundError(f"no pupil named {pupil!r} in that class")


async def _export(name: str, pupil: str | None) -> dict[str, Any]:
    async with lesson_storage() as store:
        class_id = await _class_id(store, name)
        info = await store.class_info(class_id)
        pupils = await store.pupils(class_id)
        wanted = None if pupil is None else await _pupil_id(store, class_id, pupil)
        rounds, notes = await store.class_rounds(class_id, wanted)
        return {
            "class": asdict(info),
            "pupils": [asdict(p) for p in pupils if wanted is None or p.id == wanted],
            "rounds": [asdict(r) for r in rounds],
            "practice_notes": [asdict(n) for n in notes],
        }


def export(name: str, pupil: str | None, output: Path) -> int:
    """Write everything kept of the class (or one pupil of it) as JSON; returns the rows."""
    data = asyncio.run(_export(name, pupil))
    output.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return sum(len(v) for k, v in data.items() if isinstance(v, list))


async def _forget(name: str, pupil: str) -> bool:
    async with lesson_storage() as store:
        class_id = await _class_id(store, name)
        return await store.forget_pupil(await _pupil_id(store, class_id, pupil), _now_ms())


def forget(name: str, pupil: str) -> bool:
    return asyncio.run(_forget(name, pupil))


async def _delete(name: str) -> bool:
    async with lesson_storage() as store:
        return await store.delete_class(await _class_id(store, name), _now_ms())


def delete(name: str) -> bool:
    return asyncio.run(_delete(name))


__all__ = ["ClassNotFoundError", "delete", "export", "forget"]
