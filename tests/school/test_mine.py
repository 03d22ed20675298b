"""A signed-in teacher's own page. The issue: "teachers sign in and start, resume and end
their own lessons there", "a teacher sees and controls only their own lessons", and "a cap
on lessons per teacher"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from school.front import FRONT_GUARD, STORE
from school.front import add_routes as add_front
from school.mine import MineSetup, SignedIn
from school.mine import add_routes as add_mine
from storage import Storage
from table.joining import JoinGuard
from table.keep import new_lesson
from table.web import SERVED, Served, guard
from tests.table.support import FakeClock, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")
Client = TestClient[web.Request, web.Application]


@dataclass(frozen=True)
class Teacher:
    id: str
    name: str


ADA = Teacher("t-ada", "Ada")
BO = Teacher("t-bo", "Bo")


@pytest_asyncio.fixture
async def client(store: Storage) -> AsyncIterator[Client]:
    """The server's pages with the signed-in teacher named by a test header (the real
    sessions are tested with the sign-in itself)."""

    async def teacher_of(request: web.Request) -> SignedIn | None:
        return {"ada": ADA, "bo": BO}.get(request.headers.get("X-Test-Teacher", ""))

    app = web.Application(middlewares=[guard])
    app[SERVED] = Served()
    app[STORE] = store
    app[FRONT_GUARD] = JoinGuard(FakeClock())
    add_front(app)
    add_mine(app, MineSetup(teacher_of, FakeClock(), lessons_per_teacher=2))
    test = TestClient(TestServer(app, host="127.0.0.1"))
    await test.start_server()
    test.session.headers["Origin"] = str(test.make_url("/")).rstrip("/")
    yield test
    await test.close()


async def test_without_a_session_the_page_asks_to_sign_in(client: Client) -> None:
    got = await client.get("/mine?lang=nb", allow_redirects=False)
    assert got.status == 303 and got.headers["Location"] == "/signin?lang=nb"
    made = await client.post("/mine/new", data={"lang": "nb"}, allow_redirects=False)
    assert made.status == 303 and made.headers["Location"] == "/signin?lang=nb"


async def test_a_teacher_starts_a_lesson_of_their_class_and_sees_only_their_own(
    store: Storage, client: Client
) -> None:
    """A new lesson is stored as the teacher's (and of the class chosen), and the teacher is
    taken to its own teacher's page; another teacher's lessons are never listed."""
    klass = await store.create_class("7B", 1, owner=ADA.id)
    theirs, _ = await new_lesson(store, FakeClock(), owner=BO.id)
    made = await client.post(
        "/mine/new",
        data={"class": str(klass.id), "lang": "en"},
        headers={"X-Test-Teacher": "ada"},
        allow_redirects=False,
    )
    assert made.status == 303
    code = made.headers["Location"].split("/")[2]
    assert made.headers["Location"] == f"/l/{code}/teacher?lang=en"
    found = await store.open_lesson_by_code(code)
    assert found is not None
    stored = await store.load_lesson(found)
    assert stored.info.owner == ADA.id and stored.state["class_id"] == klass.id
    page = await (await client.get("/mine?lang=en", headers={"X-Test-Teacher": "ada"})).text()
    assert f"/l/{code}/teacher" in page and theirs.code not in page
    assert "Signed in as Ada." in text_of(page) and ">7B</option>" in page


async def test_another_teachers_class_is_a_forged_form(store: Storage, client: Client) -> None:
    """Choosing a class that is not the teacher's own starts nothing."""
    klass = await store.create_class("8A", 1, owner=BO.id)
    made = await client.post(
        "/mine/new",
        data={"class": str(klass.id), "lang": "en"},
        headers={"X-Test-Teacher": "ada"},
    )
    assert made.status == 400
    assert await store.lessons(ADA.id) == []


async def test_a_teacher_has_at_most_the_cap_of_lessons_open(
    store: Storage, client: Client
) -> None:
    """Past the cap (2 here) a new lesson is refused with the reason, in the page's language,
    and none is made; ending one makes room."""
    for _ in range(2):
        made = await client.post(
            "/mine/new", data={"lang": "nn"}, headers={"X-Test-Teacher": "bo"},
            allow_redirects=False,
        )  # fmt: skip
        assert made.status == 303
    refused = await client.post("/mine/new", data={"lang": "nn"}, headers={"X-Test-Teacher": "bo"})
    assert refused.status == 409
    assert "Du har 2 opne timar" in text_of(await refused.text())
    kept = await store.lessons(BO.id)
    assert len(kept) == 2
    await store.end_lesson(kept[0].id, 2, 0)
    again = await client.post(
        "/mine/new", data={"lang": "nn"}, headers={"X-Test-Teacher": "bo"}, allow_redirects=False
    )
    assert again.status == 303
