"""A sign slip is named a sign slip everywhere a pupil or a teacher reads it (RULES §2.6: "Every
screen, summary, statistic and report names a mistake by this kind, in the reader's language
("fortegnsfeil" / "teckenfel" / "sign slip" for `sign_slip`), never by its code").

End to end through the fake Discord, in each of the server's languages: the teacher opens a
class session; Alice plays level 4 (subtraction) against the computer and flips the sign of
every result she types, as in `4-2=-2`. Her private reply points at the sign each time; when
the session ends, its summary, her `/mattekrig stats`, the teacher's report and both of the
report's CSV files name the mistake as a sign slip, in words, and never as a code or as an
arithmetic slip."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

import pytest

from classroom.i18n import Lang, t
from engine.errors import Reason
from engine.regnekrig import ANSWER
from engine.solver import best, number_answer
from tests.bot.e2e import (
    Table,
    assert_all_answered,
    assert_game_over,
    cards,
    message_text,
    private_reply,
    seed_deals,
    speak,
    strong_vs_weak,
)

LANGS = ("en", "nb", "nn", "sv")  # every language a server can speak
SIGN_SLIP = {"nb": "fortegnsfeil", "nn": "forteiknsfeil", "sv": "teckenfel", "en": "sign slip"}
LOOK = {
    "nb": "Se på fortegnet:",
    "nn": "Sjå på forteiknet:",
    "sv": "Titta på tecknet:",
    "en": "Look at the sign:",
}
SLIPS = 4  # rounds Alice answers with the result's sign flipped


@pytest.fixture(params=LANGS)
async def lang(request: pytest.FixtureRequest, table: Table) -> Lang:
    """The server's language: the teacher's setting, the server's locale and every member's."""
    chosen: Lang = request.param
    await speak(table, chosen)
    return chosen


def sign_slip(state: Any) -> str:
    """Alice's answer: her best subtraction with the result's sign flipped (`4 − 2 = −2`), or,
    when the result is 0, a negative card read as positive (−6 for −3 and −3). Both are sign
    slips (RULES §2.6), whichever order she chose. With two equal cards of no sign (3 and 3)
    no sign can slip: a positive card read as negative is a sign slip only when a card is
    negative (§2.6, second edition), so she answers 0."""
    a, b = cards(state, 0)
    play = best(a, b, 4)
    assert play.value is not None
    if play.value != 0:
        return f"{play.text} = {number_answer(-play.value)}"
    return number_answer(Fraction(-(abs(a) + abs(b)))) if min(a, b) < 0 else "0"


def csv_rows(data: bytes, lang: Lang) -> list[list[str]]:
    text = data.decode("utf-8").removeprefix("\ufeff")
    return list(csv.reader(io.StringIO(text), delimiter="," if lang == "en" else ";"))


async def test_a_level_four_session_of_sign_slips_is_named_a_sign_slip_everywhere(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_deals(monkeypatch, 4)
    opened = await table.driver.slash("teacher", "mattekrig admin session", minutes=1)
    assert opened.answered and not opened.rejected
    await table.settle()
    gid, _ = await table.start_computer("alice", game="regnekrig", level=4)

    replies = []
    for _ in range(SLIPS):
        state = table.state(gid)
        assert state.phase is ANSWER and 0 in state.pending
        text = sign_slip(state)
        _, sent = await table.answer("alice", gid, text)
        assert sent is not None
        if text != "0":
            replies.append(await private_reply(table.fake, sent))
    assert replies and all(reply.startswith(LOOK[lang]) for reply in replies), replies

    clock = table.clock
    clock.advance(60)
    await table.bot.scheduler.run_due()
    await table.settle()
    await table.play(gid, strong_vs_weak(weak_side=-1))
    await assert_game_over(table, gid, lang, "time_up")
    await table.bot.results.drain()
    await table.bot.scheduler.run_due()
    await table.settle()

    words = SIGN_SLIP[lang]
    assert t(f"mistake.{Reason.SIGN_SLIP}", lang) == words
    slipped = t("mistake.in_op", lang, kind=words, op=t("level.4.name", lang).lower())
    never = (
        Reason.SIGN_SLIP.value,
        Reason.ARITHMETIC_SLIP.value,
        t("mistake.arithmetic_slip", lang),
    )

    title = t("session.summary.title", lang)
    (summary,) = [
        m
        for m in table.fake.world.messages.values()
        if not m.ephemeral and m.embeds and m.embeds[0].get("title") == title
    ]
    shown = message_text(summary)
    assert slipped in shown and not any(word in shown for word in never)

    stats = await table.driver.slash("alice", "mattekrig stats")
    await table.settle()
    assert stats.original is not None
    shown = message_text(stats.original)
    assert words in shown and not any(word in shown for word in never)

    report = await table.driver.slash("teacher", "mattekrig admin report")
    await table.settle()
    assert report.original is not None
    shown = message_text(report.original)
    assert slipped in shown and t("report.help_with", lang, kinds=words) in shown
    assert not any(word in shown for word in never)
    pupils, detail, trend = report.original.attachments
    header, *rows = csv_rows(pupils.data, lang)
    (alice,) = [dict(zip(header, row, strict=True)) for row in rows if row[0] == "Alice"]
    assert words in alice.values()
    header, *rows = csv_rows(detail.data, lang)
    (line,) = [row for row in rows if row[0] == "Alice"]
    assert f"{words} (" in ";".join(line) and not any(word in line for word in never)
    kind, _, *kinds = csv_rows(trend.data, lang)  # the class's kinds by week, in words too
    assert kind[0] == t("report.csv.trend.kind", lang)
    assert words in [row[0] for row in kinds]
    assert not any(word in row for row in kinds for word in never)
    assert_all_answered(table.fake)
