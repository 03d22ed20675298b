"""A lesson: the seats, the devices that hold them and the games they play, in memory.

A **seat** is one pupil's place (a name, the game it plays now). A **device** is a browser,
known by a secret in an HttpOnly, SameSite=Strict cookie; the lesson keeps only the secret's
hash. The server takes the acting side from the device's seats, never from a form.

* The one-screen table (`mattekrig play`) is a lesson whose single device holds every seat
  of its games.
* A class lesson (`mattekrig class`): each pupil's device joins with the lesson's code and a
  name and holds one seat; the teacher (a device holding the teacher's secret) chooses the
  game for the class, pairs the seats, pauses, ends the lesson and removes seats.

Limits keep a stranger from pushing anybody out: at most `MAX_SEATS` seats and `CAP` games.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from classroom.settings import GameSettings
from classroom.tally import figures
from engine.actions import Forfeit
from engine.cards import Card
from engine.registry import descriptor
from engine.view import View
from table.games import CAP, Clock, FullError, Games, Record, TableGame
from table.names import check_name
from table.pairing import Match, pair
from table.press import Refused
from table.setup import DEFAULT_LESSON, LessonSetup, NewTable
from table.writer import LessonLock

Kind = Literal["play", "class"]
MAX_SEATS = 60  # a class and then some; more joins are refused, nobody is pushed out
WAITING = "waiting"  # the removal menu's choice: every seat not in a running game
CODE_DIGITS = 6
PAIRINGS = ("random", "results")


def new_code() -> str:
    """A join code: `CODE_DIGITS` digits, from the system's secure randomness."""
    return "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))


def own_level(
    lesson: Lesson, settings: GameSettings, sides: tuple[tuple[str, ...], ...]
) -> GameSettings:
    """A table of the class's pupils at their own level when the teacher turned it on: the
    lowest level suggested for its pupils (a game with levels only; none known: the class's)."""
    if not lesson.own_levels or not descriptor(settings.engine.game).has_levels:
        return settings
    known = [lesson.levels[p] for held in sides for s in held
             if (p := lesson.pupils.get(s)) is not None and p in lesson.levels]  # fmt: skip
    if not known:
        return settings
    return replace(settings, engine=replace(settings.engine, level=min(known)))


def card_code(text: str) -> str:
    """A card's code as typed or scanned ("abcd-2345 ") in the one form the roster keeps."""
    return "".join(ch for ch in text.upper() if ch.isascii() and ch.isalnum())


def digest(secret: str) -> str:
    """What the lesson keeps of a device's secret."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    id: str
    name: str
    device: str  # the digest of the device's secret
    joined: int  # its place in the order seats were taken (1, 2, …): the lesson never ranks
    game: str | None = None  # the game it plays now (or last played, until it is paired)
    met: set[str] = field(default_factory=set)  # seats it has played with or against


@dataclass(frozen=True, slots=True)
class Projected:
    """A round on the projector: its game, the game's view when it was chosen, and each
    side's cards in that round (`TableGame.laid_in`), kept with it as the game moves on."""

    game: TableGame
    view: View
    cards: dict[int, list[tuple[Card, ...]]] = field(default_factory=dict)


class Lesson:
    # What a kept lesson stores of itself besides its seats and games (`table.keep`): plain
    # JSON values, read back as they were after a restart.
    KEPT = ("goal", "challenges_open", "challenges", "hide_names", "seat_cap", "locked",
            "class_id", "pupils", "own_levels")  # fmt: skip

    def __init__(
        self,
        kind: Kind,
        clock: Clock,
        seeds: Callable[[], int] | None = None,
        *,
        code: str | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.kind = kind
        self.clock = clock
        self.games = Games(clock, seeds, keep=kind == "class")
        self.code = code or new_code()
        # The teacher's secret (None when only its digest is known: a lesson brought back
        # on a machine that cannot derive it); the lesson checks the digest.
        self.teacher_secret: str | None = secrets.token_urlsafe(24)
        self.teacher_key = digest(self.teacher_secret)
        self.seats: dict[str, Seat] = {}
        self.joins = 0  # seats taken so far
        self.devices_removed: set[str] = set()  # devices told their seat was removed
        self.removed: dict[str, Seat] = {}  # seats the teacher removed: their work stays
        self.devices: dict[str, set[str]] = {}  # digest -> seat ids
        self.setup: LessonSetup = DEFAULT_LESSON
        self.challenges_open = False
        self.challenges: dict[str, str] = {}  # challenger seat -> challenged seat
        self.paused_at: float | None = None
        self.ended = False
        # Joining, as the teacher sets it: the number of seats (a flood of joins cannot
        # take the real pupils' places) and whether the lesson is closed to newcomers.
        self.seat_cap = MAX_SEATS
        self.locked = False
        self.goal: int | None = None
        # The round the teacher puts on the projector (its game's view when it was chosen: it
        # stays while the class talks it over, though the game moves on), and whether its
        # names are hidden: hidden until the teacher shows them, so a mistake discussed in
        # front of the class is nobody's unless the teacher decides otherwise.
        self.projected: Projected | None = None
        self.hide_names = True
        self.removing: str | None = None  # the seat the teacher is asked to confirm removing
        self.rng = rng or random.Random(secrets.randbits(64))
        self.version = 0  # counts changes of the lobby (joins, pairings, pauses …)
        # The lesson's one writer: a change and its commit happen under it, and every page is
        # drawn under it, so nobody sees a change before it is stored (`table.writer`).
        self.lock = LessonLock()
        self.saver: Callable[[Lesson], Awaitable[None]] | None = None  # table.keep stores it
        self.game_saver: Callable[[Lesson, TableGame], Awaitable[None]] | None = None
        # A lesson of a class (`mattekrig class --class 7B`): its pupils join by their cards
        # only (`roster`: card code -> pupil id and name, from storage), and each seat is a
        # pupil of the class (`pupils`: seat id -> pupil id), so its rounds are the pupil's.
        self.class_id: int | None = None
        self.roster: dict[str, tuple[int, str]] | None = None
        self.pupils: dict[str, int] = {}
        self.classes = False  # the teacher may name the lesson's class (its pages are served)
        # Each table of the class's pupils at their own suggested level (`levels`: pupil id ->
        # the level `classroom.progress` suggests, read with the roster), when the teacher
        # turns it on.
        self.own_levels = False
        self.levels: dict[int, int] = {}

    # -- devices ---------------------------------------------------------------------------

    def new_device(self) -> str:
        secret = secrets.token_urlsafe(24)
        self.devices[digest(secret)] = set()
        return secret

    def forget_device(self, device: str) -> None:
        """A device that holds no seat is not kept (a refused start, flooded or not)."""
        if not self.devices.get(device):
            self.devices.pop(device, None)

    def device(self, secret: str | None) -> str | None:
        """The device a cookie names, or None (no cookie, or a secret this lesson never gave)."""
        if not secret:
            return None
        key = digest(secret)
        return key if key in self.devices else None

    def is_teacher(self, secret: str | None) -> bool:
        return bool(secret) and secrets.compare_digest(digest(secret or ""), self.teacher_key)

    async def save(self) -> None:
        """Store what changed (when the lesson is kept: `table.keep`), before anyone sees it;
        call it holding `lock` alone, right after the change."""
        if self.saver is not None:
            await self.saver(self)

    async def save_game(self, game: TableGame) -> None:
        """Store what a press changed of its game; call it holding `lock.table` of the game."""
        if self.game_saver is not None:
            await self.game_saver(self, game)

    def table_of(self, device: str | None) -> str | None:
        """The game this device's seat plays (the table a press or a page of it holds)."""
        seat = self.seat_of(device)
        return None if seat is None else seat.game

    def seats_of(self, device: str | None) -> set[str]:
        return set(self.devices.get(device or "", ()))

    def seat_of(self, device: str | None) -> Seat | None:
        """A pupil's seat (a class device holds one)."""
        held = self.seats_of(device)
        return self.seats[min(held)] if held else None

    def held(self, device: str | None, game: TableGame) -> tuple[int, ...]:
        """The sides of `game` this device plays."""
        return game.sides_of(self.seats_of(device))

    def seat_by_side(self, device: str | None, game: TableGame) -> dict[int, str]:
        mine = self.seats_of(device)
        return {
            side: next(s for s in held if s in mine)
            for side, held in enumerate(game.seats)
            if set(held) & mine
        }

    def _new_seat(self, device: str, name: str) -> Seat:
        self.joins += 1
        seat = Seat(secrets.token_urlsafe(6), name, device, self.joins)
        self.seats[seat.id] = seat
        self.devices.setdefault(device, set()).add(seat.id)
        return seat

    # -- the one-screen table --------------------------------------------------------------

    def start_at_one_screen(self, device: str, new: NewTable) -> TableGame:
        """A game whose every seat this device holds (the names typed at the setup form)."""
        seats = tuple((self._new_seat(device, name).id,) if name else () for name in new.names)
        try:
            return self.games.start(new.settings, new.names, seats, shared=True)
        except FullError:
            for held in seats:
                for seat in held:
                    self._drop(seat)
            raise Refused("table.error.full", 429) from None

    # -- joining ---------------------------------------------------------------------------

    def join(self, device: str | None, code: str, name: str) -> tuple[str | None, Seat]:
        """A pupil joins with the code and a name; returns a new device secret (None when the
        device already had one) and the seat. Joining again from a device with a seat
        renames nothing: it gives back the same seat."""
        if self.kind != "class" or self.ended:
            raise Refused("lesson.error.over", 403)
        if self.roster is not None:
            return self.join_by_card(device, code)
        if code.strip().replace(" ", "") != self.code:
            raise Refused("lesson.error.code")
        seat = self.seat_of(device)
        if seat is not None:
            return None, seat
        if self.locked:
            raise Refused("lesson.error.locked", 403)
        name = check_name(name, (s.name for s in self.seats.values()))
        if len(self.seats) >= self.seat_cap:
            raise Refused("lesson.error.full", 429, count=self.seat_cap)
        secret = None
        if device is None:
            secret = self.new_device()
            device = digest(secret)
        seat = self._new_seat(device, name)
        self.devices_removed.discard(device)
        self.version += 1
        return secret, seat

    def join_by_card(self, device: str | None, code: str) -> tuple[str | None, Seat]:
        """A pupil of the class joins with the code of their own card, as themselves: the
        lesson's code alone opens no seat (a wrong card is a wrong code), a device seated as
        one pupil cannot take a classmate's card, and a card opens one seat at a time."""
        card = card_code(code)
        found = (self.roster or {}).get(card)
        if found is None:
            raise Refused("lesson.error.card")
        pupil, name = found
        seat = self.seat_of(device)
        if seat is not None:
            if self.pupils.get(seat.id) == pupil:
                return None, seat
            raise Refused("lesson.error.card_other", 403)
        if any(self.pupils.get(s) == pupil for s in self.seats):
            raise Refused("lesson.error.card_in_use", 409)
        if self.locked:
            raise Refused("lesson.error.locked", 403)
        if len(self.seats) >= self.seat_cap:
            raise Refused("lesson.error.full", 429, count=self.seat_cap)
        secret = None
        if device is None:
            secret = self.new_device()
            device = digest(secret)
        seat = self._new_seat(device, name)
        self.pupils[seat.id] = pupil
        self.devices_removed.discard(device)
        self.version += 1
        return secret, seat

    def _drop(self, seat_id: str) -> None:
        seat = self.seats.pop(seat_id, None)
        if seat is not None:
            self.devices.get(seat.device, set()).discard(seat_id)
        self.challenges = {a: b for a, b in self.challenges.items() if seat_id not in (a, b)}

    def remove(self, seat_id: str) -> TableGame | None:
        """The teacher removes a seat (a pupil who left, a rude name). A side it played alone
        gives its game up (RULES §1.5, forfeit); its device is told so and must join again
        (with another name). What the seat played stays in the lesson's summary."""
        seat = self.seats.get(seat_id)
        if seat is None:
            raise Refused("lesson.error.no_seat", 404)
        game = self.game_of(seat)
        if game is not None and not game.over:
            for side, held in enumerate(game.seats):
                if seat_id in held and len(held) == 1:
                    game.play(Forfeit(side), now=self.clock())
                    break
        self._drop(seat_id)
        self.removed[seat_id] = seat
        self.devices_removed.add(seat.device)
        self.version += 1
        return game

    def remove_waiting(self) -> int:
        """The teacher removes every seat not in a running game at once (after a flood of
        joins, or at the end of a lesson); returns how many."""
        gone = [s.id for s in self.waiting()]
        for seat in gone:
            self.remove(seat)
        return len(gone)

    # -- games -----------------------------------------------------------------------------

    def game_of(self, seat: Seat | None) -> TableGame | None:
        if seat is None or seat.game is None:
            return None
        return self.games.get(seat.game)

    def waiting(self) -> list[Seat]:
        """The seats not in a running game, in the order they joined."""
        out = []
        for seat in self.seats.values():
            game = self.game_of(seat)
            if game is None or game.over:
                out.append(seat)
        return sorted(out, key=lambda s: s.joined)

    def live_games(self) -> list[TableGame]:
        """The lesson's games, running or over, in the order they started."""
        return [g for g in self.games if g.all_seats and not g.shared]

    def records(self) -> list[Record]:
        return [r for g in self.games for r in g.records]

    def found(self) -> tuple[int, int]:
        """What the class has found together, for its goal: best moves and exact hits."""
        games = list(self.games)
        return sum(g.found[0] for g in games), sum(g.found[1] for g in games)

    def rate(self, seat_id: str) -> Fraction | None:
        """The seat's best-move rate in this lesson (`classroom.tally.best_rate`, as every
        summary counts it; None before its first round asked)."""
        return figures(r for r in self.records() if r.seat == seat_id).rate

    def _start(self, match: Match) -> TableGame:
        sides = tuple(match.sides)
        names = tuple(" & ".join(self.seats[s].name for s in held) for held in sides)
        teams = any(len(held) > 1 for held in sides)
        computer = "medium" if match.computer else None
        settings = own_level(self, self.setup.for_match(len(sides), teams, computer), sides)
        adaptive = self.adaptive(sides[0][0]) if match.computer else None
        try:
            game = self.games.start(settings, names, sides, adaptive)
        except FullError:
            raise Refused("table.error.full", 429) from None
        if self.paused_at is not None:
            # Paired in a pause: it stands still with every game, as if dealt when the pause
            # began (its whole time left; every game of the lesson stopped at one moment).
            game.shift(self.paused_at - self.clock())
            game.stop(self.paused_at)
        everyone = [s for held in sides for s in held]
        for seat in everyone:
            self.seats[seat].game = game.id
            self.seats[seat].met.update(s for s in everyone if s != seat)
        self.challenges = {
            a: b for a, b in self.challenges.items() if a not in everyone and b not in everyone
        }
        return game

    def adaptive(self, pupil: str) -> Callable[[], Fraction]:
        """The computer's best-move rate against `pupil`: the pupil's own in this lesson."""

        def rate() -> Fraction:
            return self.rate(pupil) or Fraction(1, 2)

        return rate

    def pair(self, how: str, fresh: bool = False) -> list[TableGame]:
        """Pair every waiting seat (`how`: random or results); `fresh` avoids partners met."""
        if how not in PAIRINGS:
            raise Refused("engine.malformed_action")
        if self.ended:
            raise Refused("lesson.error.over", 403)
        waiting = [s.id for s in self.waiting()]
        if not waiting:
            raise Refused("lesson.error.nobody_waiting", 409)
        met = {s: frozenset(self.seats[s].met) for s in waiting} if fresh else None
        matches = pair(
            waiting, how=how, teams=self.setup.teams, rng=self.rng, rate=self.rate, met=met
        )
        if sum(not g.over for g in self.games) + len(matches) > CAP:
            raise Refused("table.error.full", 429)
        started = [self._start(m) for m in matches]
        self.version += 1
        return started

    def new_partners(self) -> list[TableGame]:
        """Every running game stops at once, as when its time runs out (RULES §1.5), and
        everyone is paired again: each with someone not met in this lesson whenever such a
        partner is free (`table.pairing`)."""
        if self.ended:
            raise Refused("lesson.error.over", 403)
        now = self.clock()
        for game in self.live_games():
            game.close(now)
        self.version += 1
        if not self.waiting():
            return []
        return self.pair("results", fresh=True)

    # -- challenges ------------------------------------------------------------------------

    def challenge(self, seat: Seat, other_id: str) -> None:
        if self.ended:
            raise Refused("lesson.error.over", 403)
        if not self.challenges_open:
            raise Refused("lesson.error.no_challenges", 403)
        waiting = {s.id for s in self.waiting()}
        if other_id == seat.id or other_id not in waiting or seat.id not in waiting:
            raise Refused("lesson.error.not_waiting", 409)
        self.challenges[seat.id] = other_id
        self.version += 1

    def answer_challenge(self, seat: Seat, challenger: str, accept: bool) -> TableGame | None:
        """RULES of the class: nobody is drawn into a game without accepting."""
        if self.ended:
            raise Refused("lesson.error.over", 403)
        if self.challenges.get(challenger) != seat.id:
            raise Refused("lesson.error.no_challenge", 409)
        del self.challenges[challenger]
        self.version += 1
        if not accept:
            return None
        waiting = {s.id for s in self.waiting()}
        if challenger not in waiting or seat.id not in waiting:
            raise Refused("lesson.error.not_waiting", 409)
        return self._start(Match(((challenger,), (seat.id,))))

    # -- the teacher's controls ------------------------------------------------------------

    def show(self, game_id: str | None) -> None:
        """Put a table's last round on the projector (None takes it away)."""
        if game_id is None:
            self.projected = None
            return
        game = self.games.get(game_id)
        if game is None:
            raise Refused("table.error.no_game", 404)
        table = game.view(None)
        cards = game.laid_in(table.result) if table.result is not None else {}
        self.projected = Projected(game, table, cards)

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def pause(self) -> None:
        """Every clock stands still: each game's time limit and answer times."""
        if self.paused_at is None and not self.ended:
            self.paused_at = self.clock()
            for game in self.live_games():
                game.stop(self.paused_at)
            self.version += 1

    def resume(self) -> None:
        """Every clock goes on from where it stopped."""
        if self.paused_at is not None:
            now = self.clock()
            for game in self.live_games():
                game.go(now)
            self.paused_at = None
            self.version += 1

    def end(self) -> None:
        """The lesson ends: every game stops at once, as when its time runs out (RULES
        §1.5); nobody can act after it."""
        now = self.clock()
        self.paused_at = None
        for game in self.live_games():
            game.close(now)
        self.ended = True
        self.challenges.clear()
        self.version += 1

    def tick(self) -> list[TableGame]:
        """Deadlines that have passed (time limits, answer times), unless paused; returns
        the games that changed."""
        if self.paused_at is not None:
            return []
        now = self.clock()
        return [g for g in list(self.games) if not g.over and g.tick(now)]
