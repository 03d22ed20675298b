"""The front page's guard on a server of several processes (school/front.py `front_guard`).

Issue 32: "rate limits per lesson and per server (joins, wrong codes, actions)". The proxy
sends the front page to any process of the server, so a browser's mark (the cookie that
tells a pupil's tries from a script's, `table.joining`) is often given by one process and
read by another: every process signs marks with one key derived from the database they
share, and dates them by the wall clock. Were the key each process's own, a pupil's tries
would fall into the scripts' bucket. The wrong codes the front page checks come from the
settings (``WRONG_CODES_PER_MINUTE``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from school.front import FRONT_GUARD, STORE, VISIT_COOKIE, add_routes, front_guard
from school.settings import RateLimits, SchoolSettingsError, load_school_settings
from storage import Storage
from storage.postgres import PostgresStorage
from table.class_web import VISIT_COOKIE as LESSON_VISIT_COOKIE
from table.joining import FREE_WRONG, RATE, RIPE, JoinGuard
from table.press import Refused
from table.web import SERVED, Served
from table.web import guard as refusing
from tests.postgres import fresh_schema_url
from tests.table.support import FakeClock

pytestmark = pytest.mark.usefixtures("quiet_log")
Client = TestClient[web.Request, web.Application]


class Wall:
    """The wall clock every process of the server reads, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database the processes share: a SQLite file or PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "lessons.db")
    return fresh_schema_url()  # skips (locally) or fails (in CI) without a server


async def _open(target: str) -> Storage:
    if target.startswith("postgresql"):
        return await PostgresStorage.open_url(target)
    return await Storage.open(target)


@pytest.fixture
async def stores(target: str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two processes' storages on the one database (each its own connections)."""
    first = await _open(target)
    second = await _open(target)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_a_mark_given_by_one_process_is_recognised_by_another(
    stores: tuple[Storage, Storage],
) -> None:
    """The pupil opened the front page on one process and types the code on another: the
    same browser (its mark's nonce), ripe after `RIPE` seconds as on one process."""
    wall = Wall()
    one = await front_guard(stores[0], RateLimits(), FakeClock(), wall)
    other = await front_guard(stores[1], RateLimits(), FakeClock(5_000.0), wall)
    mark = one.mark()
    assert other.visitor(mark, "10.0.0.7")[1] == "fresh"
    wall.now += RIPE
    assert other.visitor(mark, "10.0.0.7") == one.visitor(mark, "10.0.0.8")
    assert other.visitor(mark, "10.0.0.7")[1] == "ripe"


async def test_a_mark_of_another_server_or_a_made_up_one_is_a_script(
    stores: tuple[Storage, Storage], tmp_path: Path
) -> None:
    """The key is this database's: another server's marks, and marks a script writes
    itself, are no browser's (the scripts' bucket, by address)."""
    wall = Wall()
    here = await front_guard(stores[0], RateLimits(), FakeClock(), wall)
    elsewhere = await Storage.open(tmp_path / "another.db")
    try:
        there = await front_guard(elsewhere, RateLimits(), FakeClock(), wall)
    finally:
        await elsewhere.close()
    wall.now += RIPE
    assert here.visitor(there.mark(), "10.0.0.7") == ("address:10.0.0.7", "none")
    assert here.visitor(f"{wall.now - RIPE:.3f}.00ff00ff00ff00ff.{'0' * 32}", "10.0.0.7")[1] == (
        "none"
    )
    assert JoinGuard(FakeClock()).key != here.key  # a process's own key is not the server's


async def test_the_key_is_derived_and_tells_nothing_of_the_privacy_key(
    stores: tuple[Storage, Storage],
) -> None:
    """Derived one-way from the database's random key: the same in every process, another
    for another purpose, never the privacy key itself (which fingerprints the forgotten)."""
    first, second = stores
    key = await first.derived_key("front page marks")
    assert key == await second.derived_key("front page marks") and len(key) == 32
    assert key != await first.derived_key("something else")
    privacy_key, _ = await first.forgotten_entries()
    assert privacy_key not in (key, key[: len(privacy_key)])


def _scripts(guard: JoinGuard) -> Callable[[], bool]:
    """A wrong code from a new address each time (a script): True if it was checked."""
    tried = iter(range(1_000))

    def one() -> bool:
        visitor, lane = guard.visitor(None, f"10.1.0.{next(tried)}")
        try:
            guard.before(visitor, lane)
        except Refused:
            return False
        guard.wrong(visitor, lane)
        return True

    return one


async def test_the_wrong_codes_checked_come_from_the_settings(
    stores: tuple[Storage, Storage],
) -> None:
    """``WRONG_CODES_PER_MINUTE``: with 60 a minute, the scripts' bucket (its share of the
    rate) fills again three times more slowly than the table's default of `RATE` a second
    would fill it; the shares of the three buckets add up to the setting."""
    clock, wall = FakeClock(), Wall()
    slow = await front_guard(stores[0], RateLimits(wrong_codes_per_minute=60), clock, wall)
    default = JoinGuard(clock)
    assert sum(b.rate for b in slow.buckets.values()) == pytest.approx(1.0)
    assert sum(b.rate for b in default.buckets.values()) == pytest.approx(RATE)
    for guard in (slow, default):
        script = _scripts(guard)
        while script():  # the burst spent
            pass
    clock.now += 1.0
    assert _scripts(default)()  # 3 a second for scripts: one more after a second
    assert not _scripts(slow)()  # 0.3 a second: not yet
    clock.now += 3.0
    assert _scripts(slow)()


def test_the_wrong_codes_setting_is_read_and_checked() -> None:
    settings = load_school_settings({"WRONG_CODES_PER_MINUTE": "30"})
    assert settings.limits.wrong_codes_per_minute == 30
    assert load_school_settings({}).limits.wrong_codes_per_minute == 120
    with pytest.raises(SchoolSettingsError) as bad:
        load_school_settings({"WRONG_CODES_PER_MINUTE": "0"})
    assert "WRONG_CODES_PER_MINUTE" in str(bad.value)


async def _front(store: Storage, guard: JoinGuard) -> Client:
    app = web.Application(middlewares=[refusing])
    app[SERVED] = Served()
    app[STORE] = store
    app[FRONT_GUARD] = guard
    add_routes(app)
    client: Client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    client.session.headers["Origin"] = str(client.make_url("/")).rstrip("/")
    return client


async def test_a_pupils_typos_on_two_processes_are_the_pupils_own(
    stores: tuple[Storage, Storage],
) -> None:
    """Through the pages: the front page read from one process, the codes typed to another
    (the proxy's choice each time). The browser's typos count as its own (it waits after
    `FREE_WRONG`), and the scripts' bucket is untouched by them."""
    wall = Wall()
    first = await _front(stores[0], await front_guard(stores[0], RateLimits(), FakeClock(), wall))
    second_guard = await front_guard(stores[1], RateLimits(), FakeClock(), wall)
    second = await _front(stores[1], second_guard)
    try:
        page = await first.get("/")
        mark = page.cookies[VISIT_COOKIE].value
        wall.now += RIPE
        scripts = second_guard.buckets["none"].tokens
        statuses = []
        for _ in range(FREE_WRONG + 1):
            went = await second.post("/go", data={"code": "000000"}, cookies={VISIT_COOKIE: mark})
            statuses.append(went.status)
        assert statuses == [404] * FREE_WRONG + [429]
        assert second_guard.buckets["none"].tokens == scripts
        assert second_guard.devices.keys() == {second_guard.visitor(mark, "")[0]}
    finally:
        await first.close()
        await second.close()


def test_the_front_pages_mark_never_hides_a_lessons_own() -> None:
    """The front page's cookie goes to every path of the server (``Path=/``), a lesson's to
    its own (``/l/<code>``): under one name the browser would send both to the lesson's join
    page, and the lesson would read the front's (the last one), signed with a key that is
    not the lesson's, so a pupil's join would count as a script's."""
    assert VISIT_COOKIE != LESSON_VISIT_COOKIE
