"""The school server's front page. The issue: "Its front page asks a pupil for the lesson's
code (or a personal card's code …) and takes them to that lesson", and "rate limits per
lesson and per server (joins, wrong codes, actions)"."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from school.front import FRONT_GUARD, STORE, add_routes
from storage import Storage
from table.joining import FREE_WRONG, JoinGuard
from table.keep import open_lesson
from table.web import SERVED, Served, guard
from tests.table.support import FakeClock, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


@pytest_asyncio.fixture
async def client(store: Storage) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    app = web.Application(middlewares=[guard])
    app[SERVED] = Served()
    app[STORE] = store
    app[FRONT_GUARD] = JoinGuard(FakeClock())
    add_routes(app)
    test = TestClient(TestServer(app, host="127.0.0.1"))
    await test.start_server()
    test.session.headers["Origin"] = str(test.make_url("/")).rstrip("/")
    yield test
    await test.close()


async def test_the_lesson_code_leads_to_the_lesson(
    store: Storage, client: TestClient[web.Request, web.Application]
) -> None:
    """A pupil types the code on the board and is taken to that lesson's own pages, whose
    address carries the code (so a proxy sends the lesson to the one process holding it)."""
    lesson, _, _ = await open_lesson(store, FakeClock(), key=None)
    front = await client.get("/?lang=nn")
    assert front.status == 200 and "Skriv koden på tavla" in text_of(await front.text())
    spaced = f"{lesson.code[:3]} {lesson.code[3:]}"
    went = await client.post("/go", data={"code": spaced, "lang": "nn"}, allow_redirects=False)
    assert went.status == 303
    assert went.headers["Location"] == f"/l/{lesson.code}/?lang=nn"


async def test_a_wrong_code_is_refused_and_names_nothing(
    store: Storage, client: TestClient[web.Request, web.Application]
) -> None:
    """A code of no open lesson (or of an ended one) is the same sentence, in the page's
    language: the front page tells nothing about which codes exist."""
    lesson, keeper, _ = await open_lesson(store, FakeClock(), key=None)
    await store.end_lesson(keeper.lesson_id, 1, 0)
    for typed in ("000000", lesson.code, "NOCARD12"):
        went = await client.post("/go", data={"code": typed, "lang": "sv"})
        assert went.status == 404
        assert "Ingen lektion har den koden nu." in text_of(await went.text())


async def test_a_card_offers_the_seat_in_its_class_lesson(
    store: Storage, client: TestClient[web.Request, web.Application]
) -> None:
    """A pupil types the code on their own card: the open lesson of their class is offered,
    and the one press sends the card to that lesson's own door."""
    klass = await store.create_class("7B", 1)
    pupil = await store.add_pupil(klass.id, "Ada", "ABCD2345", 1)
    other, _, _ = await open_lesson(store, FakeClock(), key=None)  # a lesson of no class
    lesson, _, _ = await open_lesson(store, FakeClock(), key=None, fresh=True)
    lesson.class_id = klass.id
    await lesson.save()
    assert other.class_id is None
    went = await client.post("/go", data={"code": "abcd-2345", "lang": "en"})
    page = await went.text()
    assert went.status == 200 and "Your class's lesson is open." in text_of(page)
    assert f'action="/l/{lesson.code}/join"' in page and f'value="{pupil.card}"' in page


async def test_guessing_codes_is_slowed_for_the_whole_server(
    client: TestClient[web.Request, web.Application],
) -> None:
    """After a few wrong codes a device waits (429 with Retry-After), as at a lesson's door:
    the front page guesses every lesson's code at once."""
    statuses = []
    for n in range(FREE_WRONG + 1):
        went = await client.post("/go", data={"code": f"12345{n}", "lang": "en"})
        statuses.append(went.status)
    assert statuses[:FREE_WRONG] == [404] * FREE_WRONG
    assert statuses[-1] == 429
