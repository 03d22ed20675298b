"""Hostile and unlucky input at the one-screen table changes nothing and is answered in words:
a second answer, the replay file during a game, another device's presses, a cross-site POST,
a stop; and what the page tells (a correction is no success, the war rule is named, the clock
is outside the live region, the cards are page elements with names)."""

from __future__ import annotations

import re

import pytest

from classroom.i18n import t
from engine.actions import Flip
from engine.facts import Why
from engine.view import view
from table.board import card_name
from tests.table.support import Table, best_answer, data_state, message_kinds, message_of, text_of

REGNEKRIG_2 = {"game": "regnekrig", "level": "1", "player1": "Ada", "player2": "Bo"}


pytestmark = pytest.mark.usefixtures("quiet_log")


async def start(table: Table, **form: str) -> str:
    response = await table.client.post("/games", data={**form, "lang": "en"}, allow_redirects=False)
    assert response.status == 303
    found = re.match(r"/game/([\w-]+)", response.headers["Location"])
    assert found is not None
    return found.group(1)


def answer(table: Table, gid: str, side: int, text: str) -> dict[str, str]:
    window = str(table.game(gid).state.window)
    return {"window": window, "side": str(side), "choice": "answer", "answer": text, "lang": "en"}


async def test_a_second_answer_from_the_same_side_is_already_answered(table: Table) -> None:
    """RULES §2.2: one answer a side per round. The second was an HTTP 500 with a traceback."""
    gid = await start(table, **REGNEKRIG_2)
    first = answer(table, gid, 0, "99")
    response = await table.client.post(f"/game/{gid}/act", data=first)
    assert response.status == 200
    before = list(table.game(gid).actions)
    response = await table.client.post(f"/game/{gid}/act", data={**first, "answer": "1"})
    assert response.status == 409
    page = await response.text()
    name = t("table.note.side", "en", name="Ada", text=t("table.error.already_answered", "en"))
    assert name in message_of(page)  # type: ignore[operator]
    assert table.game(gid).actions == before


async def test_the_replay_file_waits_for_the_end_of_the_game(table: Table) -> None:
    """The replay file holds the seed (every card to come) and every hidden answer: during the
    game it is refused; it was served at any time."""
    gid = await start(table, **REGNEKRIG_2)
    await table.client.post(f"/game/{gid}/act", data=answer(table, gid, 0, "3"))
    response = await table.client.get(f"/game/{gid}/replay.json?lang=sv")
    assert response.status == 409
    body = await response.text()
    assert message_of(body) == t("table.error.replay_after", "sv")
    assert '"seed"' not in body and str(table.game(gid).seed) not in body


async def test_another_device_cannot_see_or_act_for_any_side(table: Table) -> None:
    """The acting side comes from the seats the device's cookie holds; the form named any
    side and was believed."""
    gid = await start(table, **REGNEKRIG_2)
    state = table.game(gid).state
    table.client.session.cookie_jar.clear()  # another browser: the link, not the cookie
    paths = [("GET", f"/game/{gid}"), ("POST", f"/game/{gid}/act"),
             ("GET", f"/game/{gid}/replay.json"), ("POST", f"/game/{gid}/stop")]  # fmt: skip
    for method, path in paths:
        data = answer(table, gid, 1, "3") if method == "POST" else None
        response = await table.client.request(method, f"{path}?lang=nb", data=data)
        assert response.status == 403, path
        assert message_of(await response.text()) == t("table.error.not_your_table", "nb")
    assert table.game(gid).state is state


@pytest.mark.parametrize("origin", ["http://evil.example", "null", None])
async def test_a_cross_site_post_is_refused_and_changes_nothing(
    table: Table, origin: str | None
) -> None:
    """A POST whose Origin is not the table's own (another site's form, a sandboxed frame,
    or no Origin at all) is refused; it used to be accepted."""
    gid = await start(table, **REGNEKRIG_2)
    state = table.game(gid).state
    games = len(table.games)
    headers = {"Origin": origin} if origin is not None else {}
    del table.client.session.headers["Origin"]
    try:
        for path, data in [(f"/game/{gid}/act", answer(table, gid, 0, "3")),
                           ("/games", {**REGNEKRIG_2, "lang": "en"})]:  # fmt: skip
            response = await table.client.post(f"{path}?lang=sv", data=data, headers=headers)
            assert response.status == 403
            page = await response.text()
            assert message_of(page) == t("table.error.cross_site", "sv")
            assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    finally:
        table.client.session.headers["Origin"] = table.origin
    assert table.game(gid).state is state and len(table.games) == games


async def test_a_game_can_be_stopped(table: Table) -> None:
    """RULES §1.5: stopping ends the game as when time runs out (between rounds: at once).
    There was no way to stop a game."""
    gid = await start(table, game="intervallkrig", player1="Ada", player2="Bo")
    page = await (await table.client.get(f"/game/{gid}")).text()
    assert t("table.stop", "en") in text_of(page)
    response = await table.client.post(f"/game/{gid}/stop", data={"lang": "en"})
    page = await response.text()
    assert data_state(page) == "over"
    assert t("over.reason.time_up", "en") in text_of(page)


async def test_a_correction_is_not_drawn_as_a_success(table: Table) -> None:
    """RULES §2.2: an answer that counts as no value is told as a correction, not in the
    green box of good news (it was)."""
    gid = await start(table, **REGNEKRIG_2)
    game = table.game(gid)
    await table.client.post(f"/game/{gid}/act", data=answer(table, gid, 0, "99"))
    response = await table.client.post(
        f"/game/{gid}/act", data=answer(table, gid, 1, best_answer(game, 1))
    )
    page = await response.text()
    assert message_kinds(page) == ["correction", "note"]
    correction = re.search(r'<p class="message correction"[^>]*>(.*?)</p>', page)
    assert correction is not None and "Ada: " in text_of(correction.group(1))
    assert t("answer.counts_as_no_value", "en") in text_of(correction.group(1))


async def test_the_war_rule_is_named_not_empty_brackets(table: Table) -> None:
    """RULES §3.2: a war card wins by the war rule, and the round says which ("the best war
    card (closest to zero)"); it said "()"."""
    for attempt in range(40):
        table.lesson.games._seeds = lambda attempt=attempt: 100 + attempt  # type: ignore[misc]
        gid = await start(table, game="intervallkrig", player1="Ada", player2="Bo")
        game = table.game(gid)
        for _ in range(30):
            facts = view(game.state, None).result
            if (facts is not None and facts.why is Why.WAR_CARD) or game.over:
                break
            game.play(Flip(0))
        facts = view(game.state, None).result
        if facts is not None and facts.why is Why.WAR_CARD:
            break
    else:
        raise AssertionError("no war card decided a round in 40 games")
    page = text_of(await (await table.client.get(f"/game/{gid}?lang=en")).text())
    rule = t("war_rule.closest_to_zero.name", "en")
    assert t("result.why.war_card", "en", rule=rule) in page
    assert "()" not in page


async def test_the_clock_is_outside_the_live_region_and_can_be_extended(table: Table) -> None:
    """A screen reader is not read the seconds (the countdown sat in the live region), and
    the time limit can be extended (WCAG 2.2.1)."""
    gid = await start(table, **REGNEKRIG_2, minutes="1")
    page = await (await table.client.get(f"/game/{gid}")).text()
    live = re.search(r'<section id="now"[^>]*aria-live="polite">(.*?)</section>', page)
    assert live is not None and "<time" not in live.group(1)
    assert re.search(r'<div id="clock"[^>]*>.*<time data-seconds="60">1:00</time>', page)
    deadline = table.game(gid).deadline
    assert deadline is not None
    response = await table.client.post(f"/game/{gid}/more-time", data={"lang": "en"})
    assert response.status == 200
    assert table.game(gid).deadline == deadline + 5 * 60


async def test_the_cards_are_page_elements_with_names_not_a_picture(table: Table) -> None:
    """The table was one PNG with its text hidden (8 px high on a phone); now every card is
    an element a screen reader names and a pupil can zoom as text."""
    gid = await start(table, **REGNEKRIG_2)
    page = await (await table.client.get(f"/game/{gid}")).text()
    assert "<img" not in page and "visually-hidden" not in page
    side = view(table.game(gid).state, None).sides[0]
    for card in side.face_up:
        assert f'role="img" aria-label="{card_name(card, "en")}"' in page
    assert card_name(side.face_up[0], "en").split()[-1] in ("spades", "hearts", "diamonds", "clubs")
