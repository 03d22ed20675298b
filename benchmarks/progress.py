"""A class's progress page with a school year behind it: `python -m benchmarks.progress`.

Why: the teacher opens the progress page in front of the class; a class of 30 with a year of
lessons (40 lessons × 30 pupils × 40 rounds: 48,000 rounds) must open it in under 300 ms.

A SQLite file (or ``--database-url`` PostgreSQL) is filled with that year: each round a best
move or not, some with a mistake's kind (sign slips falling over the year for a third of the
class), practice notes for a few pupils. Then the class lesson is served on 127.0.0.1 and the
teacher's browser opens ``/teacher/progress`` `--opens` times (default 20), then the CSV and
one pupil's progress note. Printed: each page's median and slowest time, and the page's size.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp import web

from storage.records.classes import NoteRow, RoundRow
from storage.select import open_storage
from storage.sqlite import Storage
from table.app import make_app
from table.cli import class_of_lesson
from table.keep import open_lesson
from table.web import TEACHER_COOKIE

LESSONS, PUPILS, ROUNDS = 40, 30, 40
WEEK_MS = 7 * 86_400_000
START_MS = 1_788_000_000_000  # late August 2026
KINDS = ("sign_slip", "arithmetic_slip", "square_sign", "order_of_operations", "wrong_value")
TARGET_MS = 300.0


async def fill(store: Storage, lessons: int, pupils: int, rounds: int) -> int:
    """The class's school year; returns the class's id."""
    klass = await store.create_class("7B", START_MS)
    rng = random.Random(7)
    roster = [
        await store.add_pupil(klass.id, f"Pupil {i + 1:02d}", f"CARD{i:04d}", START_MS)
        for i in range(pupils)
    ]
    for lesson in range(lessons):
        at = START_MS + lesson * WEEK_MS // 2  # two lessons a week
        rows: list[RoundRow] = []
        notes: list[NoteRow] = []
        for i, pupil in enumerate(roster):
            slips = 0.4 * (1 - lesson / lessons) if i % 3 == 0 else 0.05
            for seq in range(rounds):
                missed = rng.random() < 0.05
                kind = None
                if not missed and rng.random() < slips:
                    kind = "sign_slip"
                elif not missed and rng.random() < 0.1:
                    kind = rng.choice(KINDS[1:])
                best = not missed and kind is None and rng.random() < 0.7
                level = 1 + (lesson * 6) // lessons
                rows.append(RoundRow(pupil.id, lesson + 1, at, "g1", seq, at + seq * 20_000,
                                     level, not missed, best,
                                     "timeout" if missed else kind))  # fmt: skip
            if i % 5 == 0:
                notes.append(NoteRow(pupil.id, lesson + 1, at, "g1", "not_simplified", 3, at))
        await store.record_rounds(klass.id, rows, notes)
    return klass.id


async def _time(session: aiohttp.ClientSession, url: str, times: int) -> tuple[list[float], int]:
    took, size = [], 0
    for _ in range(times):
        start = time.perf_counter()
        async with session.get(url) as response:
            body = await response.read()
            assert response.status == 200, response.status
        took.append((time.perf_counter() - start) * 1000)
        size = len(body)
    return took, size


async def run(database_url: str | None, opens: int, lessons: int, pupils: int,
              rounds: int) -> dict[str, float]:  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        store = await open_storage(Path(folder) / "lessons.db", database_url)
        try:
            filled = time.perf_counter()
            await fill(store, lessons, pupils, rounds)
            filled = time.perf_counter() - filled
            lesson, keeper, _ = await open_lesson(store, time.monotonic, key=b"k" * 32, fresh=True)
            klass = await class_of_lesson(store, lesson, keeper, "7B")
            info = klass.info
            assert info is not None
            app = make_app("class", lesson=lesson, keeper=keeper, klass=klass)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            base = f"http://127.0.0.1:{port}"
            cookies = {TEACHER_COOKIE: lesson.teacher_secret or ""}
            async with aiohttp.ClientSession(cookies=cookies) as session:
                page, size = await _time(session, f"{base}/teacher/progress?lang=nb", opens)
                weeks, _ = await _time(session, f"{base}/teacher/progress?lang=nb&by=week", 5)
                data, csv_size = await _time(session, f"{base}/teacher/progress.csv?lang=nb", 5)
                pupil = (await store.pupils(info.id))[0].id
                note, _ = await _time(session, f"{base}/teacher/progress/pupil/{pupil}", 5)
            await runner.cleanup()
        finally:
            await store.close()
    return {
        "rounds": lessons * pupils * rounds,
        "fill_s": filled,
        "page_median_ms": statistics.median(page),
        "page_max_ms": max(page),
        "page_kb": size / 1024,
        "weeks_median_ms": statistics.median(weeks),
        "csv_median_ms": statistics.median(data),
        "csv_kb": csv_size / 1024,
        "note_median_ms": statistics.median(note),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--database-url", default=None, help="PostgreSQL instead of a SQLite file")
    p.add_argument("--opens", type=int, default=20)
    p.add_argument("--lessons", type=int, default=LESSONS)
    p.add_argument("--pupils", type=int, default=PUPILS)
    p.add_argument("--rounds", type=int, default=ROUNDS)
    args = p.parse_args()
    found = asyncio.run(run(args.database_url, args.opens, args.lessons, args.pupils, args.rounds))
    print(f"{found['rounds']:,.0f} rounds stored in {found['fill_s']:.1f} s")
    print(
        f"progress page: median {found['page_median_ms']:.0f} ms, slowest "
        f"{found['page_max_ms']:.0f} ms ({found['page_kb']:.0f} KiB); target < {TARGET_MS:.0f} ms"
    )
    print(f"by week: median {found['weeks_median_ms']:.0f} ms; CSV: median "
          f"{found['csv_median_ms']:.0f} ms ({found['csv_kb']:.0f} KiB); a pupil's note: median "
          f"{found['note_median_ms']:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
