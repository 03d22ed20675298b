"""A lesson under a root: one app serves many class lessons, each under its own address
``/l/<CODE>``, with exactly the pages of `mattekrig class` (issue: "`/l/<CODE>/…` one lesson,
exactly the pages of `mattekrig class`"). Every address a page names, every redirect, every
cookie and the live connection is the lesson's own, so two lessons open in one browser never
share a seat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from yarl import URL

from classroom.i18n import t
from table.class_web import VISIT_COOKIE
from table.web import DEVICE_COOKIE, TEACHER_COOKIE
from tests.table.classes import cards_of
from tests.table.lessons import Device, best_text, received, settle, side_of
from tests.table.rooted import School, rooted, school
from tests.table.support import data_state, message_of, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


def cookie_path(device: Device, name: str) -> str:
    found = [c for c in device.session.cookie_jar if c.key == name]
    assert len(found) == 1, found
    return str(found[0]["path"])


async def teacher_at(served: School, code: str) -> Device:
    """The teacher's ``?key=`` link exchanged for the lesson's cookie, under its root."""
    root = served.root(code)
    device = Device.new(served.table)
    async with device.session.get(
        f"{root}/teacher?key={served.secret(code)}&lang=en", allow_redirects=False
    ) as response:
        assert response.status == 303
        assert response.headers["Location"] == f"{root}/teacher?lang=en"
    assert cookie_path(device, TEACHER_COOKIE) == f"{root}/"
    status, page = await device.get(f"{root}/teacher?lang=en")
    assert status == 200 and data_state(page) == "teacher"
    assert f'data-root="{root}"' in page
    assert rooted(page, root) > 10
    return device


async def join_at(served: School, code: str, name: str) -> Device:
    root = served.root(code)
    device = Device.new(served.table)
    status, page = await device.get(f"{root}/?lang=en")
    assert status == 200 and data_state(page) == "join" and rooted(page, root) >= 1
    assert cookie_path(device, VISIT_COOKIE) == f"{root}/"
    lesson = served.hosts[code].lesson
    async with device.session.post(
        f"{root}/join", data={"code": lesson.code, "name": name, "lang": "en"},
        allow_redirects=False,
    ) as response:  # fmt: skip
        assert response.status == 303, await response.text()
        assert response.headers["Location"] == f"{root}/table?lang=en"
    assert cookie_path(device, DEVICE_COOKIE) == f"{root}/"
    return device


async def test_a_lesson_under_its_root_plays_as_a_class_lesson_does(tmp_path: Path) -> None:
    """Join, the pupil's page, a press, the live update, the teacher's page and controls, the
    summary and its CSV, the lessons kept: each under /l/ABCD, every address on every page
    under it (a page naming any other fails here)."""
    async with school(tmp_path) as served:
        root = served.root("ABCD")
        lesson = served.hosts["ABCD"].lesson
        boss = await teacher_at(served, "ABCD")
        # The join URL and its QR code are the lesson's own address.
        _, page = await boss.get(f"{root}/teacher?lang=en")
        assert f"{served.table.origin}{root}/" in text_of(page)
        ada, bo = await join_at(served, "ABCD", "Ada"), await join_at(served, "ABCD", "Bo")
        status, page = await ada.get(f"{root}/table?lang=en")
        assert status == 200 and data_state(page) == "waiting" and rooted(page, root) >= 1
        await boss.listen(teacher=True, root=root)
        await bo.listen(root=root)
        async with boss.session.post(
            f"{root}/teacher/pair", data={"how": "random", "lang": "en"}, allow_redirects=False
        ) as response:
            assert response.status == 303
            assert response.headers["Location"] == f"{root}/teacher?lang=en"
        game = lesson.live_games()[0]
        status, page = await ada.get(f"{root}/table?lang=en")
        assert status == 200 and data_state(page) == "playing" and rooted(page, root) >= 2
        assert f'action="{root}/table/act"' in page
        # A press, and the live page of the pupil at the same table hears of it at once.
        ada_seat = next(s for s in lesson.seats.values() if s.name == "Ada")
        await settle([boss, bo])
        heard = len(bo.raw)
        status, _ = await ada.post(
            f"{root}/table/act", window=str(game.state.window), choice="answer",
            answer=best_text(game, side_of(game, ada_seat)), lang="en",
        )  # fmt: skip
        assert status == 200
        await received(bo, heard + 1)
        await settle([boss, bo])
        for message in [*bo.received, *boss.received]:
            if "html" in message:
                rooted(message["html"], root)
        # The teacher's controls and pages.
        for control in ("pause", "resume", "more-time", "lock", "unlock"):
            async with boss.session.post(
                f"{root}/teacher/{control}", data={"lang": "en"}, allow_redirects=False
            ) as response:
                assert response.status == 303, control
                assert response.headers["Location"] == f"{root}/teacher?lang=en"
        status, page = await boss.get(f"{root}/teacher/summary?lang=en")
        assert status == 200 and rooted(page, root) >= 2
        assert f'href="{root}/teacher/summary.csv?lang=en"' in page
        async with boss.session.get(f"{root}/teacher/summary.csv?lang=en") as response:
            assert response.status == 200 and response.content_type == "text/csv"
            assert "Ada" in await response.text()
        status, page = await boss.get(f"{root}/teacher/lessons?lang=en")
        assert status == 200 and rooted(page, root) >= 3
        # A lesson of no class yet: its teacher may name its class, under the root.
        status, page = await boss.get(f"{root}/teacher/class?lang=en")
        assert status == 200 and rooted(page, root) >= 2
        assert f'action="{root}/teacher/class/open"' in page
        # A press from a device with no seat here: the page's script is sent to this lesson's
        # join page, the way in.
        stranger = Device.new(served.table)
        async with stranger.session.post(
            f"{root}/table/act", data={"lang": "en"}, headers={"Accept": "application/json"}
        ) as response:
            assert response.status == 403
            assert json.loads(await response.text())["to"] == f"{root}/?lang=en"
        for device in (boss, ada, bo, stranger):
            await device.close()


async def test_two_lessons_in_one_browser_never_share_a_seat_or_a_teacher(
    tmp_path: Path,
) -> None:
    """Each lesson's cookies are sent to its own pages only (Path=/l/<CODE>/), and a seat's or
    a teacher's secret of one lesson is nothing in another, even when sent there."""
    async with school(tmp_path) as served:
        a, b = served.root("ABCD"), served.root("WXYZ")
        ada = await join_at(served, "ABCD", "Ada")
        origin = URL(served.table.origin)
        assert DEVICE_COOKIE in ada.session.cookie_jar.filter_cookies(origin / "l/ABCD/table")
        assert DEVICE_COOKIE not in ada.session.cookie_jar.filter_cookies(origin / "l/WXYZ/table")
        # In lesson WXYZ the same browser has no seat: the join page, and its own visit mark.
        async with ada.session.get(f"{b}/table?lang=en", allow_redirects=False) as response:
            assert response.status == 303 and response.headers["Location"] == f"{b}/?lang=en"
        # Lesson ABCD's secrets, sent to WXYZ on purpose, open nothing there.
        secret = ada.cookies[DEVICE_COOKIE]
        forger = Device.new(served.table)
        async with forger.session.get(f"{b}/seat", cookies={DEVICE_COOKIE: secret}) as response:
            assert (await response.json()) == {"seat": False}
        async with forger.session.get(f"{a}/seat", cookies={DEVICE_COOKIE: secret}) as response:
            assert (await response.json()) == {"seat": True}
        boss = await teacher_at(served, "ABCD")
        # Each lesson's teacher sees the lesson's own join address, the server's one Served
        # shared by both.
        other = await teacher_at(served, "WXYZ")
        for device, root in ((boss, a), (other, b)):
            _, page = await device.get(f"{root}/teacher?lang=en")
            joins = f"{served.table.origin}{root}/"
            assert f'data-join-url="{joins}"' in page, root
        status, page = await boss.get(f"{b}/teacher?lang=en")
        assert status == 403 and message_of(page) == t("lesson.error.not_teacher", "en")
        status, page = await boss.get(f"{b}/teacher?key={served.secret('ABCD')}&lang=en")
        assert status == 403
        assert not served.hosts["WXYZ"].lesson.seats
        # A lesson's address without its last "/" is its join page; a code of no lesson here
        # is a page that is not there, in words.
        async with ada.session.get(f"{a}?lang=en", allow_redirects=False) as response:
            assert response.status == 303 and response.headers["Location"] == f"{a}/?lang=en"
        status, page = await ada.get("/l/NONE/?lang=en")
        assert status == 404 and message_of(page) == t("table.error.not_found", "en")
        for device in (ada, boss, other, forger):
            await device.close()


async def test_a_lesson_of_a_class_under_its_root(tmp_path: Path) -> None:
    """The class's pages under the lesson's root: the roster, the cards (the address they
    name is the lesson's), a pupil's card, the pupil's own progress, the progress
    pages and the class's CSV."""
    async with school(tmp_path) as served:
        root = served.root("WXYZ")
        host = served.hosts["WXYZ"]
        boss = await teacher_at(served, "WXYZ")
        status, page = await boss.post(f"{root}/teacher/class/add", names="Ada\nBo", lang="en")
        assert status == 200 and rooted(page, root) >= 8
        cards = cards_of(page)
        status, page = await boss.get(f"{root}/teacher/class/cards?lang=en")
        assert status == 200 and rooted(page, root) >= 1
        # Where a card says to go (its QR code: that address's card/<code>).
        assert f"{served.table.origin}{root}/" in text_of(page)
        card = cards["Ada"].replace("-", "")
        ada = Device.new(served.table)
        status, page = await ada.get(f"{root}/card/{card}?lang=en")
        assert status == 200 and rooted(page, root) >= 2
        async with ada.session.post(
            f"{root}/join", data={"code": cards["Ada"], "lang": "en"}, allow_redirects=False
        ) as response:
            assert response.status == 303
            assert response.headers["Location"] == f"{root}/table?lang=en"
        assert cookie_path(ada, DEVICE_COOKIE) == f"{root}/"
        assert [s.name for s in host.lesson.seats.values()] == ["Ada"]
        status, page = await ada.get(f"{root}/mine?lang=en")
        assert status == 200 and rooted(page, root) >= 2
        status, page = await ada.get(f"{root}/card/{card}?lang=en")
        assert status == 200 and data_state(page) == "mine"
        for by in ("lesson", "week"):
            status, page = await boss.get(f"{root}/teacher/progress?by={by}&lang=en")
            assert status == 200 and rooted(page, root) >= 3, by
        assert host.klass is not None
        pupil = (await host.klass.store.pupils(host.lesson.class_id or 0))[0]
        status, page = await boss.get(f"{root}/teacher/progress/pupil/{pupil.id}?lang=en")
        assert status == 200 and rooted(page, root) >= 2
        for path in ("/teacher/progress.csv", "/teacher/class/export.csv"):
            async with boss.session.get(f"{root}{path}?lang=en") as response:
                assert response.status == 200 and response.content_type == "text/csv", path
        async with boss.session.post(
            f"{root}/teacher/class/levels", data={"own": "on", "lang": "en"}
        ) as response:
            assert response.status == 200 and rooted(await response.text(), root) >= 8
        status, page = await boss.post(f"{root}/teacher/class/delete", lang="en")
        assert status == 200 and rooted(page, root) >= 3
        # The teacher of WXYZ is nobody in ABCD.
        status, page = await boss.get(f"{served.root('ABCD')}/teacher/progress?lang=en")
        assert status == 403
        for device in (boss, ada):
            await device.close()
