"""Every round teaches, end to end through the fake Discord in nb, sv and en: each
diagnosis reaches the pupil privately (RULES §2.2: a wrong answer counts as *no value*, and
the pupil is told why), the board's round block tells the round's own target and each side's
distance, and the final board's summary button answers each pupil privately with their best
moves, misses, mistake kinds and one suggestion."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.custom_ids import Verb, build
from bot.render.summary import operation_name
from classroom.i18n import t
from classroom.text.board_text import answer_reply
from classroom.text.cards import number_text
from engine.errors import Reason
from engine.expressions import to_text
from engine.judge import judge
from engine.levels import card_term
from engine.regnekrig import ANSWER, TARGET, part_of
from engine.state import Phase
from tests.bot.e2e import (  # noqa: F401 - fixtures
    Table,
    assert_all_answered,
    assert_quiet,
    best_answer,
    cards,
    no_errors_fixture,
    private_reply,
    ref_of,
    seed_deals,
    table_fixture,
)

LEVEL = 5
LANGS = {"alice": "nb", "bob": "sv", "carol": "en"}
BOARD = "nb"  # every public message speaks the server's language (Norwegian here)
DISTANCE_WORDS = {
    "nb": (" unna ", "akkurat målverdien"),
    "sv": (" från ", "precis målvärdet"),
    "en": (" away from ", "exactly the target"),
}


def _term(card: int) -> str:
    return to_text(card_term(card))


def _slips(a: int, b: int) -> dict[Reason, str]:
    """One answer per diagnosis for a side holding a and b at level 5 (number answer form);
    each is checked against the engine's own judge before it is sent."""
    x, y = _term(a), _term(b)
    candidates = {
        Reason.ARITHMETIC_SLIP: f"{x}+{y}={a + b + 1}",
        Reason.SIGN_SLIP: f"{_term(-a)}+{y}={-a + b}",
        Reason.NOT_YOUR_CARDS: f"{abs(a) + abs(b) + 7}+{y}={abs(a) + abs(b) + 7 + b}",
        Reason.CARD_TWICE: f"{x}+{x}={2 * a}",
        Reason.SQUARE_NOT_ALLOWED: f"{x}^2+{y}={a * a + b}",
        Reason.WRONG_VALUE: "99",
    }
    return {
        reason: text
        for reason, text in candidates.items()
        if judge(text, (a, b), LEVEL).reason == reason.value
    }


def _best_of(line: str) -> tuple[int, int]:
    """(best, asked) from the summary's best-move line: ``⭐ … **7 av 9** …``."""
    found = re.search(r"\*\*(\d+) \w+ (\d+)\*\*", line)
    assert found, line
    return int(found.group(1)), int(found.group(2))


async def _to_answer(table: Table, gid: int) -> None:
    """Through the target (the namer picks 5) to the answers."""
    state = table.state(gid)
    if state.phase is Phase.FLIP:
        await table.flip(table.players_of(gid, 0)[0], gid)
        state = table.state(gid)
    if state.phase is TARGET:
        namer = table.players_of(gid, part_of(state).namer)[0]
        await table.target(namer, gid, 5)
    assert table.state(gid).phase is ANSWER


@pytest.mark.parametrize(
    ("pupil", "other"), [("alice", "bob"), ("bob", "carol"), ("carol", "alice")]
)
async def test_each_diagnosis_reaches_the_pupil_and_the_summary_tells_the_game(
    table: Table, pupil: str, other: str, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_deals(monkeypatch, 2)
    lang = LANGS[pupil]
    gid = await table.challenge_game(pupil, [other], game="regnekrig", level=LEVEL)
    told: dict[Reason, str] = {}
    rounds = 0
    while len(told) < 4 and rounds < 12 and not table.state(gid).is_over:
        await _to_answer(table, gid)
        state = table.state(gid)
        target = part_of(state).target
        a, b = cards(state, 0)
        untold = {r: text for r, text in _slips(a, b).items() if r not in told}
        if not untold:
            text, reason = best_answer(state, 0), None
        else:
            reason, text = next(iter(untold.items()))
        _, sent = await table.answer(pupil, gid, text)
        assert sent is not None
        if reason is None:
            await assert_quiet(table.fake, sent)  # a good answer: the board's ✓
        else:
            reply = await private_reply(table.fake, sent)
            assert reply == answer_reply(judge(text, (a, b), LEVEL), lang)
            if reason is Reason.SIGN_SLIP:  # with the pupil's real cards, signs and all
                assert all(number_text(v) in reply for v in (a, b)), reply
            assert reply.endswith(t("answer.counts_as_no_value", lang))  # said plainly
            told[reason] = reply
        _, theirs = await table.answer(other, gid, best_answer(table.state(gid), 1))
        assert theirs is not None
        rounds += 1
        # The round block (the board speaks its starter's language) tells the round's own
        # target and the other side's distance to it (the header already shows the next).
        description = table.board(gid).embeds[0]["description"]
        assert t("lesson.target", BOARD, round=state.round, target=target) in description
        assert any(word in description for word in DISTANCE_WORDS[BOARD]), description
    assert len(told) >= 3, told

    stopped = await table.driver.slash(pupil, "mattekrig stop")
    assert stopped.answered
    await table.settle()
    board = table.board(gid)
    summary_id = build(Verb.SUMMARY, gid)
    assert board.component(summary_id) is not None
    press = await table.driver.click(pupil, board, summary_id)
    summary = await private_reply(table.fake, press)
    assert summary.startswith(
        t("summary.title", lang, game=t("game.regnekrig.name", lang), level=LEVEL, id=gid)
    )
    wrong = len(told)
    best_line = next(line for line in summary.splitlines() if line.startswith("⭐"))
    assert _best_of(best_line) == (rounds - wrong, rounds)
    for reason in list(told)[:3]:
        assert t(f"mistake.{reason.value}", lang) in summary or wrong > 3
    assert summary.splitlines()[-1].startswith("💡")
    # The other pupil played every round best: their own summary, privately, says so.
    theirs_press = await table.driver.click(other, board, summary_id)
    theirs_text = await private_reply(table.fake, theirs_press)
    other_lang = LANGS[other]
    assert t("summary.no_mistakes", other_lang) in theirs_text
    assert _best_of(theirs_text.splitlines()[1]) == (rounds, rounds)
    # Someone who did not play is told so, privately.
    third = next(u for u in LANGS if u not in (pupil, other))
    nobody = await table.driver.click(third, board, summary_id)
    assert await private_reply(table.fake, nobody) == t("summary.not_player", LANGS[third])
    assert_all_answered(table.fake)


def test_every_mistake_kind_has_a_name() -> None:
    for reason in Reason:
        for lang in LANGS.values():
            assert t(f"mistake.{reason.value}", lang)
    assert operation_name("square", "nb") == t("records.op.square", "nb")


@pytest.mark.parametrize(("form", "user"), [("expression", "alice"), (None, "carol")])
async def test_the_answer_form_is_a_game_option(
    table: Table, form: str | None, user: str, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES §2.2: at levels 3–7 the answer form is chosen at start (default: the server's,
    itself `number`). It is carried into the game, shown in the invitation and the footer,
    and decides whether an expression alone is an answer."""
    seed_deals(monkeypatch, 2)
    lang = LANGS[user]
    other = "bob"
    options: dict[str, Any] = {"game": "regnekrig", "level": LEVEL}
    if form is not None:
        options["answer_form"] = form
    _, invitation = await table.challenge(user, [other], **options)
    expected = form or "number"
    name = t(f"answer_form.{expected}.name", BOARD)
    assert name in str(invitation.embeds[0])
    assert f"{t('button.answer', BOARD)}: {name}" not in str(invitation.embeds[0])  # "Svar: Svar"
    before = set(table.bot.games.games)
    accept = await table.driver.click(
        other, invitation, build(Verb.ACCEPT, ref_of(invitation, Verb.ACCEPT))
    )
    assert accept.answered and not accept.rejected
    gid = await table.new_game(before)
    assert table.state(gid).config.answer_form.value == expected
    footer = table.board(gid).embeds[0]["footer"]["text"]
    assert t(f"answer_form.{expected}.name", BOARD) in footer
    await _to_answer(table, gid)
    a, b = cards(table.state(gid), 0)
    _, sent = await table.answer(user, gid, f"{_term(a)}+{_term(b)}")
    assert sent is not None
    if expected == "expression":
        await assert_quiet(table.fake, sent)  # accepted: the board's ✓ says so
        assert 0 not in table.state(gid).pending
    else:  # the pupil computes: asked to type the result, nothing counted
        reply = await private_reply(table.fake, sent)
        assert reply.startswith(t("answer.rejected.result_missing", lang, expression="")[:10])
        assert 0 in table.state(gid).pending


async def test_the_servers_answer_form_is_new_games_default(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A teacher sets the server's answer form; a game started without the option gets it,
    one started with the option keeps its own (RULES §2.2)."""
    seed_deals(monkeypatch, 2)
    changed = await table.driver.slash(
        "teacher", "mattekrig admin settings", answer_form="expression"
    )
    assert changed.answered and changed.original is not None and changed.original.ephemeral
    assert t("answer_form.expression.name", "nb") in str(changed.original.embeds[0])
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=LEVEL)
    assert table.state(gid).config.answer_form.value == "expression"
    stopped = await table.driver.slash("alice", "mattekrig stop")
    assert stopped.answered
    await table.settle()
    own = await table.challenge_game(  # another host: a challenge has a cooldown
        "carol", ["bob"], game="regnekrig", level=LEVEL, answer_form="number"
    )
    assert table.state(own).config.answer_form.value == "number"
    assert_all_answered(table.fake)
