"""The school server as a whole, in one process: the issue's "`mattekrig serve`: a lesson
server for a school. Its front page asks a pupil for the lesson's code … and takes them to
that lesson; teachers sign in and start, resume and end their own lessons there. Many
lessons at once in one process, each exactly as `mattekrig class` runs one", and "a teacher
cannot open another teacher's lesson; a pupil cannot open a teacher's page"."""

from __future__ import annotations

import asyncio
import re
import secrets
import sqlite3
import time
from pathlib import Path

import aiohttp
import pytest
from yarl import URL

from school.sessions import SESSION_COOKIE
from storage import Storage
from storage.leases import FileLeases
from tests.school.served import browser, school_app, signed_in_teacher
from tests.table.support import text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


async def _start_lesson(teacher: aiohttp.ClientSession) -> str:
    async with teacher.post("/mine/new", data={"lang": "en"}, allow_redirects=False) as made:
        assert made.status == 303, await made.text()
        found = re.fullmatch(r"/l/(\d{6})/teacher\?lang=en", made.headers["Location"])
        assert found is not None, made.headers["Location"]
        return found.group(1)


async def _join(pupil: aiohttp.ClientSession, code: str, name: str) -> None:
    async with pupil.post("/go", data={"code": code, "lang": "en"}, allow_redirects=False) as go:
        assert go.status == 303 and go.headers["Location"] == f"/l/{code}/?lang=en"
    async with pupil.get(f"/l/{code}/?lang=en") as page:
        assert page.status == 200
    form = {"code": code, "name": name, "lang": "en"}
    async with pupil.post(f"/l/{code}/join", data=form, allow_redirects=False) as joined:
        assert joined.status == 303, await joined.text()
        assert joined.headers["Location"] == f"/l/{code}/table?lang=en"


async def test_two_teachers_two_lessons_in_one_process(store: Storage, tmp_path: Path) -> None:
    """Each teacher starts a lesson and opens its teacher's page; pupils reach each lesson
    from the front page by its code and play in it; neither teacher opens the other's
    lesson, no pupil opens a teacher's page, and a code of no lesson is a page not there."""
    leases = FileLeases(str(tmp_path / "lessons.db"))
    async with school_app(store, leases) as school:
        ada = await signed_in_teacher(store, school.url, "Ada")
        bo = await signed_in_teacher(store, school.url, "Bo")
        pupils = [browser(school.url) for _ in range(4)]
        try:
            first, second = await _start_lesson(ada), await _start_lesson(bo)
            assert first != second
            for teacher, code in ((ada, first), (bo, second)):
                async with teacher.get(f"/l/{code}/teacher?lang=en") as page:
                    assert page.status == 200 and code in await page.text()
            for teacher, other in ((ada, second), (bo, first)):
                async with teacher.get(f"/l/{other}/teacher?lang=en") as page:
                    assert page.status == 403
                async with teacher.post(f"/l/{other}/teacher/end", data={"lang": "en"}) as end:
                    assert end.status == 403
            for n, pupil in enumerate(pupils):
                await _join(pupil, first if n < 2 else second, f"Pupil{n}")
                async with pupil.get(f"/l/{first}/teacher?lang=en") as page:
                    assert page.status == 403
            async with ada.post(
                f"/l/{first}/teacher/pair", data={"how": "random", "lang": "en"},
                allow_redirects=False,
            ) as paired:  # fmt: skip
                assert paired.status == 303
            async with pupils[0].get(f"/l/{first}/table?lang=en") as table:
                assert 'data-state="playing"' in await table.text()
            async with pupils[2].get(f"/l/{second}/table?lang=en") as table:
                assert 'data-state="waiting"' in await table.text()  # Bo has not paired
            async with pupils[0].get("/l/999999/?lang=en") as missing:
                assert missing.status == 404
            mine = await (await ada.get("/mine?lang=en")).text()
            assert f"/l/{first}/teacher" in mine and second not in mine
            assert school.hosts.codes == {first, second}
        finally:
            for each in (ada, bo, *pupils):
                await each.close()
    await leases.close()


async def test_a_restarted_process_takes_its_lessons_back(store: Storage, tmp_path: Path) -> None:
    """A process that stops lets its lessons go (saved); the next one takes each over from
    the database on its first request: the same seats, the same teacher."""
    leases = FileLeases(str(tmp_path / "lessons.db"))
    async with school_app(store, leases) as school:
        ada = await signed_in_teacher(store, school.url, "Ada")
        pupil = browser(school.url)
        code = await _start_lesson(ada)
        await _join(pupil, code, "Kari")
        cookies = (ada.cookie_jar, pupil.cookie_jar)
        await ada.close()
        await pupil.close()
    async with school_app(store, leases) as again:
        assert again.hosts.codes == frozenset()
        pupil = aiohttp.ClientSession(
            base_url=again.url, cookie_jar=cookies[1], headers={"Origin": again.url}
        )
        ada = aiohttp.ClientSession(
            base_url=again.url, cookie_jar=cookies[0], headers={"Origin": again.url}
        )
        try:
            async with pupil.get(f"/l/{code}/table?lang=en") as table:
                page = await table.text()
                assert table.status == 200 and "Kari" in text_of(page)
            async with ada.get(f"/l/{code}/teacher?lang=en") as teacher:
                assert teacher.status == 200 and "Kari" in text_of(await teacher.text())
            assert again.hosts.codes == {code}
        finally:
            await pupil.close()
            await ada.close()
    await leases.close()


async def test_the_projector_shows_the_front_page_and_cards_outlive_their_lesson(
    store: Storage, tmp_path: Path
) -> None:
    """On a school server the projector shows the short address pupils type (the front page,
    which asks for the code) and the QR code opens the lesson itself; a class's printed card
    opens the front page's card link, which finds the class's lesson open that day."""
    leases = FileLeases(str(tmp_path / "lessons.db"))
    async with school_app(store, leases, public=True) as school:
        front = school.url.replace("127.0.0.1", "localhost") + "/"
        ada = await signed_in_teacher(store, school.url, "Ada")
        teacher_id = await _id(store, "Ada")
        klass = await store.create_class("7B", 1, owner=teacher_id)
        await store.add_pupil(klass.id, "Kari", "KARI2345", 1)
        pupil = browser(school.url)
        try:
            async with ada.post(
                "/mine/new", data={"class": str(klass.id), "lang": "en"}, allow_redirects=False
            ) as made:  # fmt: skip
                code = made.headers["Location"].split("/")[2]
            page = await (await ada.get(f"/l/{code}/teacher?lang=en")).text()
            assert f'<p class="join-url">{front}</p>' in page
            assert f'data-join-url="{front}l/{code}/"' in page
            cards = await (await ada.get(f"/l/{code}/teacher/class/cards?lang=en")).text()
            assert f"Open {front} and type the code" in text_of(cards)
            assert f"/l/{code}/" not in text_of(cards)
            async with pupil.get("/card/KARI2345?lang=en", allow_redirects=False) as scanned:
                assert scanned.status == 303
                assert scanned.headers["Location"] == f"/l/{code}/card/KARI2345?lang=en"
            async with ada.post(
                f"/l/{code}/teacher/end", data={"lang": "en"}, allow_redirects=False
            ) as ended:  # fmt: skip
                assert ended.status == 303 and ended.headers["Location"] == "/mine?lang=en"
            async with pupil.get("/card/KARI2345?lang=en") as none_open:
                assert none_open.status == 404
                assert "Your class has no lesson open now." in text_of(await none_open.text())
        finally:
            await ada.close()
            await pupil.close()
    await leases.close()


async def test_an_ended_lesson_is_kept_on_its_teachers_page_only(
    store: Storage, tmp_path: Path
) -> None:
    """A lesson's pages close with it on a server; its teacher finds it on their own page:
    its summary and CSV, and deleting it (asked first). Another teacher's id is not there."""
    leases = FileLeases(str(tmp_path / "lessons.db"))
    async with school_app(store, leases) as school:
        ada = await signed_in_teacher(store, school.url, "Ada")
        bo = await signed_in_teacher(store, school.url, "Bo")
        pupil = browser(school.url)
        try:
            code = await _start_lesson(ada)
            await _join(pupil, code, "Kari")
            async with ada.post(
                f"/l/{code}/teacher/end", data={"lang": "en"}, allow_redirects=False
            ) as ended:  # fmt: skip
                assert ended.headers["Location"] == "/mine?lang=en"
            async with pupil.get(f"/l/{code}/table?lang=en") as gone:
                assert gone.status == 404  # its pages closed with it
            mine = await (await ada.get("/mine?lang=en")).text()
            found = re.search(r'href="/mine/lessons/(\d+)\?lang=en"', mine)
            assert found is not None and "Ended lessons kept" in text_of(mine)
            kept = f"/mine/lessons/{found.group(1)}"
            summary = await (await ada.get(f"{kept}?lang=en")).text()
            assert "Kari" in text_of(summary)
            async with ada.get(f"{kept}/summary.csv?lang=en") as csv:
                assert csv.status == 200 and "Kari" in await csv.text()
            for path in (kept, f"{kept}/summary.csv"):
                async with bo.get(f"{path}?lang=en") as theirs:
                    assert theirs.status == 404
            async with bo.post(f"{kept}/delete", data={"lang": "en", "confirm": "yes"}) as no:
                assert no.status == 404
            async with ada.post(f"{kept}/delete", data={"lang": "en"}) as asked:
                assert asked.status == 200 and 'value="yes"' in await asked.text()
            assert len(await store.lessons(await _id(store, "Ada"))) == 1
            async with ada.post(
                f"{kept}/delete", data={"lang": "en", "confirm": "yes"}, allow_redirects=False
            ) as deleted:  # fmt: skip
                assert deleted.status == 303
            assert await store.lessons(await _id(store, "Ada")) == []
        finally:
            for each in (ada, bo, pupil):
                await each.close()
    await leases.close()


async def _id(store: Storage, name: str) -> str:
    teacher = await store.school_teacher_named(name)
    assert teacher is not None
    return teacher.id


async def test_a_class_arriving_together_behind_the_proxy_is_never_held_back(
    store: Storage, tmp_path: Path
) -> None:
    """Behind the school's proxy (and its network's NAT) every device has the same address:
    a class typing the code at the front page in the same second is counted device by device
    (each by its front page's mark), never as one address ("a class pressing together is
    never held back", school.limits)."""
    leases = FileLeases(str(tmp_path / "lessons.db"))
    async with school_app(store, leases) as school:
        ada = await signed_in_teacher(store, school.url, "Ada")
        pupils = [browser(school.url) for _ in range(30)]
        try:
            code = await _start_lesson(ada)
            for pupil in pupils:
                async with pupil.get("/?lang=en") as front:
                    assert front.status == 200

            async def go(pupil: aiohttp.ClientSession) -> int:
                form = {"code": code, "lang": "en"}
                async with pupil.post("/go", data=form, allow_redirects=False) as went:
                    return went.status

            assert await asyncio.gather(*(go(pupil) for pupil in pupils)) == [303] * 30
        finally:
            for each in (ada, *pupils):
                await each.close()
    await leases.close()


async def test_a_press_whose_write_failed_changes_nothing(
    store: Storage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The standards: "bad input gets a clear error and changes nothing … a broken database
    path", and "every accepted action is committed before anyone sees its result": a press
    whose write fails is a 503 "try again", and the lesson is read anew from the database, so
    the press is not in it (nor played later behind the pupil's back); pressed again, it
    counts once."""
    leases = FileLeases(str(tmp_path / "lessons.db"))
    async with school_app(store, leases) as school:
        ada = await signed_in_teacher(store, school.url, "Ada")
        pupils = [browser(school.url) for _ in range(2)]
        try:
            code = await _start_lesson(ada)
            for n, pupil in enumerate(pupils):
                await _join(pupil, code, f"Pupil{n}")
            async with ada.post(
                f"/l/{code}/teacher/pair", data={"how": "random", "lang": "en"},
                allow_redirects=False,
            ) as paired:  # fmt: skip
                assert paired.status == 303
            page = await (await pupils[0].get(f"/l/{code}/table?lang=en")).text()
            window = re.search(r'name="window" value="(\d+)"', page)
            choice = re.search(r'name="choice" value="([^"]+)"', page)
            assert window is not None and choice is not None
            form = {"window": window.group(1), "choice": choice.group(1), "lang": "en"}
            if choice.group(1) == "answer":
                form["answer"] = "1"
            stored = await store.load_lesson((await store.lessons(await _id(store, "Ada")))[0].id)
            before = len(stored.actions)
            real = store.commit_lesson

            async def failing(*args: object, **kwargs: object) -> None:
                raise sqlite3.OperationalError("disk I/O error")

            monkeypatch.setattr(store, "commit_lesson", failing)
            async with pupils[0].post(f"/l/{code}/table/act", data=form) as refused:
                assert refused.status == 503
            monkeypatch.setattr(store, "commit_lesson", real)
            assert code not in school.hosts.codes  # let go, unsaved
            again = await (await pupils[0].get(f"/l/{code}/table?lang=en")).text()
            assert f'name="window" value="{window.group(1)}"' in again  # the press is not in
            async with pupils[0].post(f"/l/{code}/table/act", data=form) as pressed:
                assert pressed.status in (200, 303)
            stored = await store.load_lesson(stored.info.id)
            assert len(stored.actions) == before + 1
        finally:
            for each in (ada, *pupils):
                await each.close()
    await leases.close()


async def _signed_in_elsewhere(store: Storage, url: str, name: str) -> aiohttp.ClientSession:
    """A teacher who signed in earlier (their session made in storage as their link's use
    makes it): their browser holds only the session cookie."""
    teacher = await store.add_school_teacher(secrets.token_hex(16), name, 0)
    link, session = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    now = int(time.time() * 1000)
    await store.add_sign_in_link(teacher.id, link, now, now + 86_400_000)
    assert await store.spend_sign_in_link(link, session, now, now + 86_400_000) is not None
    browser_ = browser(url)
    browser_.cookie_jar.update_cookies({SESSION_COOKIE: session}, URL(url))
    return browser_


async def test_teachers_behind_one_address_start_their_lessons_together(
    store: Storage, tmp_path: Path
) -> None:
    """The issue's "rate limits per lesson and per server" must not hold back a school's
    teachers: behind the school's NAT, and behind the proxy, every teacher has the same
    address, so a signed-in teacher's changes count against their own session, not the
    address. Twenty teachers start their lessons at once: none is told to wait."""
    leases = FileLeases(str(tmp_path / "lessons.db"))
    async with school_app(store, leases) as school:
        teachers = [await _signed_in_elsewhere(store, school.url, f"T{n}") for n in range(20)]
        try:
            statuses = []
            for teacher in teachers:
                async with teacher.post(
                    "/mine/new", data={"lang": "en"}, allow_redirects=False
                ) as made:
                    statuses.append(made.status)
            assert statuses == [303] * 20
        finally:
            for teacher in teachers:
                await teacher.close()
    await leases.close()
