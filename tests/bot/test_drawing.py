"""The picture worker (bot/drawing.py): the bot's pictures are drawn in a process of its own,
below the bot's priority, and are the very pictures the drawing code makes; a worker that dies
costs one picture (the board keeps its text) and the next is drawn by a new one; a drawing that
fails is logged and changes nothing else; a closing drawer settles every picture asked for."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import drawing
from bot.render.pictures import Picture, Scene, draw_table, scene
from bot.render.pictures.gallery import NAMES, every_position
from engine.view import View
from tests.bot.render.pictures_check import why_they_differ

POSITIONS = every_position()
STARVED_S = 0.5  # a picture's time when the worker gets little of the machine
STOP_BEGINS_S = 30  # a bound on waiting for a step that a healthy run takes milliseconds for


def _view(index: int) -> View:
    return POSITIONS[index % len(POSITIONS)].view


def _as_drawn_here(picture: Picture | None, index: int, lang: str) -> None:
    """The worker's picture is the very picture this process draws (bytes and alt text)."""
    assert picture is not None
    here = draw_table(_view(index), NAMES, lang)
    if picture.png != here.png:
        name = POSITIONS[index % len(POSITIONS)].name
        pytest.fail(why_they_differ(name, picture.png, here.png, _view(index), NAMES, lang))
    assert picture.alt == here.alt


@pytest.fixture
def drawer() -> Iterator[drawing.PictureDrawer]:
    own = drawing.PictureDrawer()
    yield own
    own.close()


async def test_the_worker_draws_the_same_picture_as_the_drawing_code(
    drawer: drawing.PictureDrawer,
) -> None:
    for index in (0, 3, 7):
        _as_drawn_here(await drawer.draw(_view(index), NAMES, "sv"), index, "sv")


async def test_it_draws_in_another_process_at_the_lowest_priority(
    drawer: drawing.PictureDrawer,
) -> None:
    if not hasattr(os, "getpriority"):
        pytest.skip("this system has no process priorities")
    await drawer.draw(_view(1), NAMES, "nb")
    worker = drawer.worker_pid()
    assert worker is not None and worker != os.getpid()
    assert os.getpriority(os.PRIO_PROCESS, worker) == drawing.NICENESS


async def test_the_same_scene_again_is_not_sent_to_the_worker(
    drawer: drawing.PictureDrawer, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await drawer.draw(_view(2), NAMES, "en")
    monkeypatch.setattr(drawing._Worker, "draw", _never)
    assert await drawer.draw(_view(2), dict(NAMES), "en") is first


async def test_the_same_scene_asked_while_it_is_drawn_is_drawn_once_and_counted_once(
    drawer: drawing.PictureDrawer, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[object] = []
    draw = drawing._Worker.draw

    def counted(worker: drawing._Worker, shown: Scene) -> Picture | str:
        sent.append(shown)
        return draw(worker, shown)

    monkeypatch.setattr(drawing._Worker, "draw", counted)
    assert drawer.waiting() == 0
    first = asyncio.ensure_future(drawer.draw(_view(4), NAMES, "nb"))
    await asyncio.sleep(0)
    second = asyncio.ensure_future(drawer.draw(_view(4), dict(NAMES), "nb"))
    await asyncio.sleep(0)
    assert drawer.waiting() == 1  # one scene in flight, whoever waits for it
    first.cancel()  # one waiter giving up is not the other's loss
    picture = await second
    assert picture is not None and len(sent) == 1
    await asyncio.sleep(0)
    assert drawer.waiting() == 0


def _never(*_: object) -> Picture:
    raise AssertionError("drawn again")


async def test_many_boards_asking_at_once_each_get_their_own_picture(
    drawer: drawing.PictureDrawer,
) -> None:
    indices = list(range(12))
    drawn = await asyncio.gather(*(drawer.draw(_view(i), NAMES, "nb") for i in indices))
    for index, picture in zip(indices, drawn, strict=True):
        _as_drawn_here(picture, index, "nb")


async def test_a_worker_that_dies_costs_one_picture_and_a_new_one_draws_the_next(
    drawer: drawing.PictureDrawer, caplog: pytest.LogCaptureFixture
) -> None:
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL here")
    await drawer.draw(_view(4), NAMES, "nb")
    dead = drawer.worker_pid()
    assert dead is not None
    os.kill(dead, signal.SIGKILL)
    with caplog.at_level(logging.WARNING, logger="bot.drawing"):
        lost = await drawer.draw(_view(5), NAMES, "nb")
    assert lost is None
    assert "picture worker stopped" in caplog.text
    _as_drawn_here(await drawer.draw(_view(5), NAMES, "nb"), 5, "nb")
    assert drawer.worker_pid() not in (None, dead)


async def test_a_drawing_that_fails_is_logged_and_gives_no_picture(
    drawer: drawing.PictureDrawer, caplog: pytest.LogCaptureFixture
) -> None:
    """A scene the drawing code cannot draw (here: not a scene at all) is answered with the
    error's words, logged once; the worker lives on and draws the next picture."""
    courier = drawer._running()
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Picture | None] = loop.create_future()
    with caplog.at_level(logging.ERROR, logger="bot.drawing"):
        courier.requests.put(drawing._Request("not a scene", loop, future))  # type: ignore[arg-type]
        assert await future is None
    assert "could not be drawn" in caplog.text
    assert await drawer.draw(_view(6), NAMES, "nb") is not None


async def test_closing_settles_every_picture_asked_for(drawer: drawing.PictureDrawer) -> None:
    """A stop never leaves a board waiting for a picture: asked before the stop, each is
    drawn or answered with none; the worker is gone."""
    await drawer.draw(_view(0), NAMES, "sv")
    worker = drawer.worker_pid()
    asked = [asyncio.ensure_future(drawer.draw(_view(i), NAMES, "sv")) for i in range(1, 7)]
    await asyncio.sleep(0)
    await asyncio.to_thread(drawer.close)
    assert worker is not None
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)
    done = await asyncio.wait_for(asyncio.gather(*asked), 10)
    for index, picture in enumerate(done, start=1):
        if picture is not None:
            _as_drawn_here(picture, index, "sv")
    assert drawer.worker_pid() is None


async def test_a_stop_waits_for_the_picture_in_hand_only(
    drawer: drawing.PictureDrawer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker runs at the lowest priority, so on a busy machine each picture can take a
    while; a stop still ends it within its wait: the picture in hand is finished, the ones
    still queued are answered with none at once. The picture in hand is held until the stop
    has begun (not for a fixed time, which a busy machine can outlast before the stop even
    starts), then drawn slowly."""
    await drawer.draw(_view(0), NAMES, "nb")
    worker = drawer.worker_pid()
    courier = drawer._running()
    draw = drawing._Worker.draw
    in_hand: list[Scene] = []
    taken = threading.Event()

    def starved(worker: drawing._Worker, shown: Scene) -> Picture | str:
        in_hand.append(shown)
        taken.set()
        assert courier.stopping.wait(STOP_BEGINS_S), "the stop never began"
        time.sleep(STARVED_S)
        return draw(worker, shown)

    monkeypatch.setattr(drawing._Worker, "draw", starved)
    asked = [asyncio.ensure_future(drawer.draw(_view(i), NAMES, "nb")) for i in range(1, 13)]
    assert await asyncio.to_thread(taken.wait, STOP_BEGINS_S)  # one in hand, eleven queued
    await asyncio.to_thread(drawer.close)
    assert worker is not None
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)
    drawn = await asyncio.gather(*asked)
    assert len(in_hand) == 1  # the queued ones never went to the worker
    # drawn: the one in hand, and any whose scene is the first picture's (kept, not redrawn)
    shown = {scene(_view(0), NAMES, "nb"), in_hand[0]}
    expected = [scene(_view(i), NAMES, "nb") in shown for i in range(1, 13)]
    assert [picture is not None for picture in drawn] == expected


async def test_a_drawer_closed_draws_again_when_asked(drawer: drawing.PictureDrawer) -> None:
    await drawer.draw(_view(8), NAMES, "nb")
    await asyncio.to_thread(drawer.close)
    again = await drawer.draw(_view(9), NAMES, "nb")
    assert again is not None


def test_the_process_has_one_drawer() -> None:
    assert drawing.shared() is drawing.shared()


def test_a_script_without_a_main_guard_still_gets_its_pictures(tmp_path: Path) -> None:
    """The worker imports only the drawing code, never the starting script again (which
    multiprocessing's spawn would do, starting the script's own work a second time)."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import asyncio\n"
        "from bot import drawing\n"
        "from bot.render.pictures.gallery import NAMES, every_position\n"
        "print('started', flush=True)\n"
        "drawn = asyncio.run(drawing.shared().draw(every_position()[0].view, NAMES, 'nb'))\n"
        "print('drawn', drawn is not None and drawn.png[:4] == b'\\x89PNG', flush=True)\n",
        encoding="utf-8",
    )
    root = Path(drawing.__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["started", "drawn", "True"]
    assert done.stderr == ""


async def test_a_request_that_cannot_be_sent_costs_that_picture_only(
    drawer: drawing.PictureDrawer, caplog: pytest.LogCaptureFixture
) -> None:
    courier = drawer._running()
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Picture | None] = loop.create_future()
    with caplog.at_level(logging.ERROR, logger="bot.drawing"):
        courier.requests.put(drawing._Request(lambda: None, loop, future))  # type: ignore[arg-type]
        assert await asyncio.wait_for(future, 30) is None
    assert "could not go to or from the worker" in caplog.text
    again = await asyncio.wait_for(drawer.draw(_view(3), NAMES, "en"), 30)
    _as_drawn_here(again, 3, "en")


def test_the_worker_never_imports_from_the_folder_the_bot_was_started_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's import path is the bot's own package and the installed libraries, never
    the working folder: a `pickle.py` lying there (put by anyone who can write to it) must
    not run inside the bot's worker."""
    monkeypatch.chdir(tmp_path)
    planted = tmp_path / "ran.txt"
    (tmp_path / "pickle.py").write_text(
        f"open({str(planted)!r}, 'w').close()\nraise SystemExit(3)\n", encoding="utf-8"
    )
    own = drawing.PictureDrawer()
    try:
        drawn = asyncio.run(own.draw(_view(0), NAMES, "en"))
    finally:
        own.close()
    assert not planted.exists()
    _as_drawn_here(drawn, 0, "en")
