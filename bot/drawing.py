"""Pictures drawn in a process of their own, below the bot's priority.

Why a process and not threads: a drawing thread shares the interpreter's lock with the event
loop and the database's thread. On the latency benchmark's pace a thread drawing at normal
priority doubled the time a press waited for its commit; lowered to niceness 19 it held the
lock while the kernel let it wait, and the event loop lagged by tens of milliseconds
(docs/performance.md, "Pictures"). A worker process has a lock of its own:
the bot's threads only pickle a small `Scene` out and a PNG back (on a courier thread, off the
event loop), and the worker, at niceness 19, takes only the time the bot leaves.

One worker is enough: it draws hundreds of pictures a second (`python -m
benchmarks.pictures`), many times what Discord lets a bot edit (50 requests a second in
all). The worker is shared by everything in the process (a bot, or the tests' many bots) and
started on the first picture; if it dies it is started again on the next, and the picture it
lost is none (the board keeps its text).
It is a plain `python -c` child that imports only the drawing code (not the bot's main
module, as multiprocessing's spawn would, nor a copy of the bot's threads, as a fork would),
talking over its stdin and stdout in length-prefixed pickles. Ctrl-C is the bot's to handle:
the worker ignores it and ends when the bot closes its pipe or exits.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import logging
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from bot.render.pictures import PICTURES_KEPT, Picture, Scene, picture
from bot.render.pictures.scene import scene_of
from engine.view import View

log = logging.getLogger(__name__)

NICENESS = 19  # the worker's priority: the lowest, below the bot's every thread
STOP_WAIT_S = 2.0  # how long a closing drawer waits for its worker to end by itself


FRAME = struct.Struct(">I")  # each message on the pipes: its length, then its pickle
# The worker imports only the drawing code: the bot's package from where this file is, so it
# starts the same however the bot was started (an installed command, `python -m`, a test).
# `-P` (Python 3.11's safe path): `python -c` would otherwise put the working folder first on
# the import path, and any `pickle.py` lying there would run inside the bot's worker.
_WORKER_CODE = "import sys; sys.path.insert(0, {root!r}); from bot.drawing import serve; serve()"


def serve() -> None:
    """The worker's main: scenes in on stdin, pictures (or what went wrong, as text) out on
    stdout, until the bot closes the pipe or is gone. Started by the bot, never by hand."""
    frames_in, frames_out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print can never break a frame
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's to handle
    below_the_bot()
    while True:
        try:
            shown = read_frame(frames_in)
        except (EOFError, OSError):
            break
        reply: Picture | str
        try:
            reply = picture(shown)
        except Exception as error:  # a drawing bug: the board keeps its text
            reply = f"{type(error).__name__}: {error}"
        try:
            write_frame(frames_out, reply)
        except OSError:
            break
    os._exit(0)  # nothing left to flush, and nothing to say about a closed pipe on the way out


def write_frame(out: IO[bytes], value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(FRAME.pack(len(data)) + data)
    out.flush()


def read_frame(source: IO[bytes]) -> object:
    """One message; EOFError when the other end is gone (also mid-message)."""
    (size,) = FRAME.unpack(_exactly(source, FRAME.size))
    return pickle.loads(_exactly(source, size))


def _exactly(source: IO[bytes], size: int) -> bytes:
    data = source.read(size)
    if len(data) < size:
        raise EOFError("the pipe closed")
    return data


def below_the_bot() -> None:
    """The calling process at the lowest priority (a process's own, so on every system that
    has priorities; Windows has no `setpriority` and is left as it is)."""
    if hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, max(NICENESS, os.getpriority(os.PRIO_PROCESS, 0)))


class _Worker:
    """One worker process and the bot's ends of its two pipes."""

    def __init__(self) -> None:
        root = str(Path(__file__).resolve().parent.parent)
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-c", _WORKER_CODE.format(root=root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._to, self._from = self.process.stdin, self.process.stdout

    @property
    def pid(self) -> int:
        return self.process.pid

    def draw(self, shown: Scene) -> Picture | str:
        """The picture, or the worker's words for why it could not draw it."""
        write_frame(self._to, shown)
        reply = read_frame(self._from)
        if not isinstance(reply, Picture | str):
            raise EOFError(f"the worker answered a {type(reply).__name__}")
        return reply

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self._to.close()  # the worker's next read ends it
        try:
            self.process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(STOP_WAIT_S)
        self._from.close()


@dataclass(slots=True)
class _Request:
    shown: Scene
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Picture | None]


class _Courier:
    """A thread carrying requests to the worker one at a time and its answers back to the
    loops that asked (pickling happens here, off every event loop). Each has its own queue,
    so a courier being stopped never takes a newer one's requests."""

    def __init__(self) -> None:
        self.requests: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self.worker: _Worker | None = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._carry, name="picture-courier", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Finish the picture in hand only: the ones still queued are answered with none at
        once. (Drawn first, a queue of them kept the stop waiting for the worker, which runs
        at the lowest priority: on a busy machine past the join below, the worker left running.)"""
        self.stopping.set()
        self.requests.put(None)
        self.thread.join(2 * STOP_WAIT_S)

    def _carry(self) -> None:
        self._spawn()  # started before the first request, so that one waits for no start-up
        while (request := self.requests.get()) is not None:
            if request.future.cancelled():  # the bot stopped wanting it
                continue
            if self.stopping.is_set():
                _settle(request, None)
                continue
            try:
                drawn = self._drawn(request.shown)
            except Exception as garbled:  # never the courier: this one picture is none
                # e.g. a message that could not be pickled or read back: the pipe may be
                # left mid-message, so a new worker takes over
                log.error(
                    "a picture could not go to or from the worker (%r); starting anew", garbled
                )
                self._drop()
                drawn = None
            _settle(request, drawn)
        self._drop()
        while True:  # whatever was asked as the stop began: no picture
            try:
                left = self.requests.get_nowait()
            except queue.Empty:
                return
            if left is not None:
                _settle(left, None)

    def _spawn(self) -> None:
        try:
            self.worker = _Worker()
        except (OSError, subprocess.SubprocessError) as refused:
            log.warning("the picture worker could not start (%s); boards keep their text", refused)
            self.worker = None

    def _drop(self) -> None:
        if self.worker is not None:
            self.worker.stop()
            self.worker = None

    def _drawn(self, shown: Scene) -> Picture | None:
        if self.worker is None:
            self._spawn()
            if self.worker is None:
                return None
        try:
            reply = self.worker.draw(shown)
        except (EOFError, OSError) as lost:
            log.warning("the picture worker stopped (%s); a new one draws the next picture", lost)
            self._drop()
            return None
        if isinstance(reply, str):
            log.error("a picture could not be drawn (%s); the board keeps its text", reply)
            return None
        return reply


class PictureDrawer:
    """Draws the table for any event loop in the process, in the worker, one at a time."""

    def __init__(self) -> None:
        self._kept: OrderedDict[Scene, Picture] = OrderedDict()
        # scenes sent to the worker and not back yet, with the loop waiting for each: the same
        # scene asked again meanwhile (a board's refresh, then its heal) is drawn once
        self._drawing: dict[
            tuple[Scene, asyncio.AbstractEventLoop], asyncio.Future[Picture | None]
        ] = {}
        self._guard = threading.Lock()  # the kept pictures, those being drawn, the courier
        self._courier: _Courier | None = None

    def start(self) -> None:
        """Start the worker now (it takes a second to import), so no board waits for it."""
        with self._guard:
            self._running()

    async def draw(self, seen: View, names: dict[int, str], lang: str) -> Picture | None:
        """The picture of `seen`; None when the worker could not draw it."""
        shown = scene_of(seen, names, lang)  # the board's scene of it already: a look-up
        loop = asyncio.get_running_loop()
        with self._guard:
            kept = self._kept.get(shown)
            if kept is not None:
                self._kept.move_to_end(shown)
                return kept
            future = self._drawing.get((shown, loop))
            if future is None:
                future = loop.create_future()
                self._drawing[shown, loop] = future
                future.add_done_callback(functools.partial(self._drawn, shown, loop))
                self._running().requests.put(_Request(shown, loop, future))
        # shielded: one waiter cancelled (a press that stopped waiting) is not the others'
        return await asyncio.shield(future)

    def waiting(self) -> int:
        """How many pictures this loop asked for are being drawn or wait for the worker: a
        picture asked for now would wait for those first. (Per loop: a picture asked for by a
        loop that closed before it came back is never settled, and must not count.)"""
        loop = asyncio.get_running_loop()
        with self._guard:
            return sum(1 for _, asker in self._drawing if asker is loop)

    def _drawn(
        self, shown: Scene, loop: asyncio.AbstractEventLoop, done: asyncio.Future[Picture | None]
    ) -> None:
        with self._guard:
            self._drawing.pop((shown, loop), None)
            drawn = None if done.cancelled() else done.result()
            if drawn is not None:
                self._kept[shown] = drawn
                while len(self._kept) > PICTURES_KEPT:
                    self._kept.popitem(last=False)

    def worker_pid(self) -> int | None:
        """The worker process's id, once it runs (tests look at its priority)."""
        courier = self._courier
        worker = None if courier is None else courier.worker
        return None if worker is None else worker.pid

    def close(self) -> None:
        """Stop the worker (waits for the picture in hand, at most a few seconds); a later
        picture starts a new one."""
        with self._guard:
            courier, self._courier = self._courier, None
        if courier is not None:
            courier.stop()

    def _running(self) -> _Courier:
        if self._courier is None:
            self._courier = _Courier()
        return self._courier


def _settle(request: _Request, drawn: Picture | None) -> None:
    def settle() -> None:
        if not request.future.done():
            request.future.set_result(drawn)

    with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
        request.loop.call_soon_threadsafe(settle)


_shared: PictureDrawer | None = None
_shared_guard = threading.Lock()


def shared() -> PictureDrawer:
    """The process's drawer (started on its first picture, closed when the process exits)."""
    global _shared
    with _shared_guard:
        if _shared is None:
            _shared = PictureDrawer()
            atexit.register(_shared.close)
        return _shared
