"""`mattekrig privacy` gains the lesson's classes (issue: "export and forget per pupil and per
class"): a parent's request answered from the terminal, on the lessons' database as
`mattekrig class` opens it; what is forgotten or deleted leaves no trace (a database scan)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.ops.cli import main
from storage.paths import lessons_database
from storage.records.classes import RoundRow
from storage.sqlite import Storage
from tests.bot.db_scan import scan

T0 = 1_790_000_000_000


async def _class() -> None:
    store = await Storage.open(lessons_database())
    try:
        klass = await store.create_class("7B", T0)
        for i, name in enumerate(("Adalinde", "Borghild")):
            pupil = await store.add_pupil(klass.id, name, f"CARD000{i}", T0)
            await store.record_rounds(
                klass.id, [RoundRow(pupil.id, 1, T0, "g", 0, T0, 1, True, False, "sign_slip")], []
            )
    finally:
        await store.close()


def test_a_class_is_exported_and_its_pupil_forgotten_and_the_class_deleted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_class())
    db = lessons_database()
    out = tmp_path / "ada.json"
    assert main(["privacy", "class-export", "7B", "--pupil", "Adalinde", "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["pupils"]] == ["Adalinde"]
    assert [r["kind"] for r in data["rounds"]] == ["sign_slip"]
    assert main(["privacy", "class-forget", "7B", "Adalinde", "--yes"]) == 0
    assert scan(db, "Adalinde", "CARD0000") == [] and scan(db, "Borghild")
    assert main(["privacy", "class-forget", "7B", "Nobody", "--yes"]) != 0
    assert main(["privacy", "class-delete", "7B", "--yes"]) == 0
    assert scan(db, "Borghild", "CARD0001", "7B") == []
    capsys.readouterr()
    assert main(["privacy", "class-delete", "7B", "--yes"]) != 0
    assert "no class named '7B'" in capsys.readouterr().err
