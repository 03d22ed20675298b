"""How long a class's results are kept is the teacher's to set (storage/classes.py): the
default is to the end of the school year (no number of days), a number of days replaces it,
and a class that is gone is named as gone, on every backend."""

from __future__ import annotations

import pytest

from storage import NotFoundError, Storage

T0 = 1_790_000_000_000


async def test_a_class_keeps_its_results_as_long_as_the_teacher_sets(store: Storage) -> None:
    klass = await store.create_class("7B", T0)
    assert (await store.class_info(klass.id)).keep_days is None  # the school year
    await store.set_class_keep(klass.id, 30)
    info = await store.class_info(klass.id)
    assert (info.name, info.keep_days, info.created_at) == ("7B", 30, T0)
    await store.set_class_keep(klass.id, None)
    assert (await store.class_info(klass.id)).keep_days is None


async def test_a_class_that_is_not_there_is_named_as_gone(store: Storage) -> None:
    with pytest.raises(NotFoundError):
        await store.class_info(424242)
