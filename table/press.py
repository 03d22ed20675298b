"""A press on a table, from any screen: the decision window it was drawn in, the choice, the
typed answer, and the seats of the device that pressed it. The acting side is always one the
device's seats play (a pupil's device holds one seat; the one-screen table holds every seat
and says which of its own sides acts); the engine decides whether the press is legal.

A press from an earlier window (a second tab, a double click) is refused as stale, and a
second answer in one round as already answered; nothing changes either way (states are
frozen values).
"""

from __future__ import annotations

import re
from typing import Any

from classroom.errors import UserFacingError
from classroom.i18n import t
from classroom.text.board_text import answer_reply
from classroom.text.cards import number_text
from engine.actions import ChoiceKind, Shape, choice_action
from engine.errors import EngineError, Refusal
from engine.intervallkrig import BET_CHOICE, PASS_CHOICE
from engine.registry import descriptor
from engine.regnekrig import ANSWER, ANSWER_CHOICE, TARGET_CHOICE, judge_answer
from table.games import Note, TableGame, Text

_WHOLE = re.compile(r"-?[0-9]{1,6}")


class Refused(Exception):
    """A press (or a form) the page refuses: a catalogue key, its values, the HTTP status and
    the side it concerns (named in front of the sentence at a shared screen)."""

    def __init__(self, key: str, status: int = 400, about: int | None = None, **values: Any):
        super().__init__(key)
        self.key, self.status, self.about, self.values = key, status, about, values


def whole(text: str | None) -> int | None:
    """A whole number as a form or a query writes it ("-3", "12"), else None."""
    if text is None or not _WHOLE.fullmatch(text):
        return None
    return int(text)


def _whole(text: str | None) -> int:
    number = whole(text)
    if number is None:
        raise Refused("engine.malformed_action")
    return number


def acting_side(game: TableGame, held: tuple[int, ...], form: dict[str, str]) -> int:
    """The side that acts: the device's only side, or (one screen, every seat) the one of its
    own sides the page offered the control to."""
    if not held:
        raise Refused("error.not_your_side", 403)
    if len(held) == 1:
        return held[0]
    side = _whole(form.get("side"))
    if side not in held:
        raise Refused("error.not_your_side")
    return side


def press(game: TableGame, held: tuple[int, ...], seats: dict[int, str], form: dict[str, str],
          now: float) -> None:  # fmt: skip
    """Play one press for the device that holds `held` (its seat per side in `seats`); the
    seat's note (feedback) is left on the game. Raises `Refused`."""
    if _whole(form.get("window")) != game.state.window:
        raise Refused("reply.stale", 409)
    kind_text, _, value_text = form.get("choice", "").partition(":")
    kind = descriptor(game.state.config.game).kind(kind_text)
    if kind is None:
        raise Refused("engine.malformed_action")
    value = _whole(value_text) if value_text else None
    side = acting_side(game, held, form)
    text = form.get("answer", "").strip()
    seat = seats[side]
    window = game.state.window
    try:
        if kind is ANSWER_CHOICE:
            _answer(game, side, seat, text, now)
            return
        game.play(choice_action(kind, side, value, text), seat, now)
    except EngineError as error:
        if kind is ANSWER_CHOICE and error.code == Refusal.ALREADY_DECIDED:
            raise Refused("table.error.already_answered", 409, side) from None
        if kind is ANSWER_CHOICE:
            game.tally.note(seat, error.code)  # RULES §2.6: rounded or not simplified
        refusal = UserFacingError.from_engine(error)
        values = {k: v for k, v in refusal.values.items() if k != "side"}
        raise Refused(refusal.key, 400, side, **values) from None
    reply = _reply(game, kind, value)
    if reply is not None:
        # The reply belongs to the window it was made in: the last side to decide has the
        # round revealed at once and reads the next round's turn, not "wait for the others".
        game.notes[seat] = Note(reply, until=window)


def _answer(game: TableGame, side: int, seat: str, text: str, now: float) -> None:
    """RULES §2.2: an answer that breaks a rule is accepted as no value, and the side is told
    which rule (the verdict is asked of the unchanged state first). At a shared screen that
    is told once the comparison is revealed; until then only that the answer is in. The last
    answer reveals the round, so it is never told to wait for the others."""
    verdict = None
    if game.state.phase is ANSWER and side in game.state.pending:
        verdict = judge_answer(game.state, side, text)
    window = game.state.window
    game.play(choice_action(ANSWER_CHOICE, side, None, text), seat, now)
    revealed = game.state.window != window
    wrong = verdict is not None and verdict.value is None

    def told(lang: str) -> str:
        return answer_reply(verdict, lang)

    def counted(lang: str) -> str:
        return t("table.note.answer_counted", lang)

    at = game.state.window
    if game.hot_seat and not revealed:
        if wrong:
            game.held.append((seat, Note(told, correction=True, until=at)))
        game.notes[seat] = Note(lambda lang: answer_reply(None, lang), until=at)
        return
    if game.hot_seat:
        for held_seat, note in game.held:
            game.notes[held_seat] = Note(note.text, note.correction, until=at)
        game.held = []
    if wrong:  # told now, and still while the round is revealed
        game.notes[seat] = Note(told, correction=True, until=at if revealed else at + 1)
    else:
        game.notes[seat] = Note(counted if revealed else told, until=at)


def _reply(game: TableGame, kind: ChoiceKind, value: int | None) -> Text | None:
    """The Discord reply to a target or a bet; at a shared screen a decision the sides make
    together (a bet, any game's own) is only "in": what it was stays secret until every side
    has decided (RULES §3.3)."""
    decisions = descriptor(game.state.config.game).decisions
    together = any(kind in d.kinds and not d.alone for d in decisions)
    if together and kind.shape is Shape.PRESS and game.hot_seat:
        return lambda lang: t("table.note.decided", lang)
    if kind is BET_CHOICE:
        card_key = "reply.bet_left" if value == 0 else "reply.bet_right"
        return lambda lang: t("reply.bet_received", lang, card=t(card_key, lang))
    if kind is PASS_CHOICE:
        return lambda lang: t("reply.pass_received", lang)
    if kind is TARGET_CHOICE and value is not None:
        target = number_text(value)
        return lambda lang: t("reply.target_named", lang, target=target)
    return None
