"""The table's HTTP layer, through aiohttp's test client on 127.0.0.1: every route, every bad
input (a clear localised message, nothing changes, no traceback in the log), and whole games
played through the routes to their end, whose download `engine.replay` plays back."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from classroom.i18n import t
from classroom.text.board_text import answer_reply, render_hint
from classroom.text.cards import number_text
from classroom.text.results import result_line
from engine.actions import Forfeit
from engine.errors import ExpressionError
from engine.hints import swap_chances
from engine.intervallkrig import BET, SATSING
from engine.registry import GAMES
from engine.regnekrig import ANSWER, TARGET, Answer, judge_answer, part_of
from engine.replay import run
from engine.view import view
from table.board import card_html, side_names
from table.games import CAP, EXPIRY_SECONDS
from tests.table.support import (
    Table,
    best_answer,
    buttons_of,
    data_state,
    message_of,
    text_of,
    window_of,
    words_around_cards,
)

REGNEKRIG_2 = {"game": "regnekrig", "level": "1", "mode": "regn", "player1": "Ada", "player2": "Bo"}


pytestmark = pytest.mark.usefixtures("quiet_log")


async def start(table: Table, lang: str = "en", **form: str) -> tuple[str, str]:
    """Start a game from the setup form; the game's id and its first page."""
    response = await table.client.post("/games", data={**form, "lang": lang}, allow_redirects=False)
    assert response.status == 303, await response.text()
    location = response.headers["Location"]
    found = re.match(r"/game/([\w-]+)\?lang=(\w+)", location)
    assert found is not None and found.group(2) == lang
    page = await (await table.client.get(location)).text()
    return found.group(1), page


async def press(
    table: Table, gid: str, choice: str, side: int = 0, window: int | None = None, **extra: str
) -> tuple[int, str]:
    """Press a button (or submit the answer box) as the page draws it."""
    if window is None:
        window = table.game(gid).state.window
    data = {"window": str(window), "side": str(side), "choice": choice, "lang": "en", **extra}
    response = await table.client.post(f"/game/{gid}/act", data=data)
    return response.status, await response.text()


# -- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [("nb-NO,nb;q=0.9,en;q=0.5", "nb"), ("no", "nb"), ("sv-SE", "sv"), ("en-GB", "en"),
     ("de, sv;q=0.3, en;q=0.2", "sv"), ("fr", "en"), ("", "en"),
     ("nn", "nn"), ("nn-NO,nn;q=0.9,nb;q=0.8", "nn"), ("no-NN", "nn"), ("no-NO", "nb"),
     ("nb;q=0.5, nn;q=0.9", "nn")],
)  # fmt: skip
async def test_the_setup_page_speaks_the_browsers_language(
    table: Table, header: str, lang: str
) -> None:
    response = await table.client.get("/", headers={"Accept-Language": header})
    page = await response.text()
    assert response.status == 200
    assert data_state(page) == "setup" and f'<html lang="{lang}">' in page
    labels = buttons_of(page)
    for game in GAMES.values():
        assert f"{game.emoji} {t(game.name_key, lang)}" in labels


async def test_the_language_switch_wins_over_the_browser(table: Table) -> None:
    response = await table.client.get("/?lang=sv", headers={"Accept-Language": "nb"})
    assert t("table.setup.choose_game", "sv") in text_of(await response.text())


async def test_the_switch_offers_nynorsk_beside_bokmal(table: Table) -> None:
    """Norwegian schools may only use resources in both written standards: the switch offers
    nynorsk, and choosing it turns the page into nynorsk."""
    page = await (await table.client.get("/", headers={"Accept-Language": "nb"})).text()
    assert 'name="lang" value="nn"' in page and ">Norsk nynorsk</button>" in page
    chosen = await (await table.client.get("/?lang=nn")).text()
    assert '<html lang="nn">' in chosen
    assert t("table.setup.choose_game", "nn") == "Vel eit spel"
    assert t("table.setup.choose_game", "nn") in text_of(chosen)


async def test_a_games_form_offers_exactly_the_registrys_options(table: Table) -> None:
    page = await (await table.client.get("/?game=satsing&lang=en")).text()
    assert data_state(page) == "setup"
    war_rule = SATSING.option("war_rule")
    assert war_rule is not None
    select = page.split('name="war_rule"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\w+)"', select) == list(war_rule.choices)
    assert 'name="level"' not in page  # satsing has no levels
    assert 'name="mode"' not in page  # the bets are the game: always asked
    assert t("button.begin", "en") in buttons_of(page)


async def test_an_unknown_game_is_refused_in_words(table: Table) -> None:
    response = await table.client.get("/?game=chess&lang=nb")
    page = await response.text()
    assert response.status == 400
    assert message_of(page) == t("table.error.unknown_game", "nb", game="chess")
    assert data_state(page) == "setup"


@pytest.mark.parametrize(
    ("form", "key", "values"),
    [
        ({"level": "9"}, "error.bad_option", {"option": "table.setup.level"}),
        ({"level": "two"}, "error.bad_option", {"option": "table.setup.level"}),
        ({"deck": "tarot"}, "error.bad_option", {"option": "table.setup.deck"}),
        ({"mode": "magic"}, "error.bad_option", {"option": "table.setup.mode"}),
        ({"minutes": "-1"}, "error.bad_option", {"option": "table.setup.minutes"}),
        ({"war_size": "7"}, "error.bad_option", {"option": "table.setup.war_size"}),
        ({"player2": ""}, "error.lobby_size", {}),
        ({"player2": "ada"}, "table.error.same_name", {"name": "ada"}),
        ({"player2": "B" * 33}, "table.error.name_too_long", {"count": 32}),
        ({"teams": "on", "player3": "Cy"}, "error.teams_need_four", {}),
        ({"opponent": "hard"}, "table.error.computer_one_player", {}),
        ({"opponent": "ace", "player2": ""}, "error.bad_option", {"option": "table.setup.opponent"}),  # noqa: E501
        ({"opponent": "easy", "teams": "on", "player2": ""}, "table.error.teams_computer", {}),
        ({"game": "chess"}, "table.error.unknown_game", {"game": "chess"}),
    ],
)  # fmt: skip
async def test_a_setup_that_cannot_start_says_why_and_starts_nothing(
    table: Table, form: dict[str, str], key: str, values: dict[str, Any]
) -> None:
    filled = {k: t(v, "sv") if k == "option" else v for k, v in values.items()}
    response = await table.client.post("/games", data={**REGNEKRIG_2, **form, "lang": "sv"})
    page = await response.text()
    assert response.status == 400
    assert message_of(page) == t(key, "sv", **filled)
    assert len(table.games) == 0
    assert data_state(page) == "setup"


async def test_a_refused_setup_keeps_what_was_typed(table: Table) -> None:
    page = await (
        await table.client.post("/games", data={**REGNEKRIG_2, "player2": "", "lang": "en"})
    ).text()
    assert 'value="Ada"' in page


# -- the table -----------------------------------------------------------------------------------


async def test_a_game_starts_at_the_table_with_its_names(table: Table) -> None:
    _, page = await start(table, **REGNEKRIG_2)
    assert data_state(page) == "playing"
    words = text_of(page)
    assert t("table.turn", "en", name="Ada") in words
    assert t("board.waiting", "en", sides="⏳ Ada · ⏳ Bo") in words
    assert '<input id="answer" name="answer"' in page
    assert buttons_of(page).count(t("button.answer", "en")) == 1  # one side at a time


async def test_an_unknown_game_id_is_a_clear_page_everywhere(table: Table) -> None:
    for method, path in [
        ("GET", "/game/nothing"),
        ("POST", "/game/nothing/act"),
        ("GET", "/game/nothing/replay.json"),
    ]:
        response = await table.client.request(method, f"{path}?lang=nb")
        assert response.status == 404
        assert message_of(await response.text()) == t("table.error.no_game", "nb")


async def test_an_unknown_page_or_method_is_a_localised_page(table: Table) -> None:
    for method, path, status in [("GET", "/nowhere", 404), ("PUT", "/games", 405),
                                 ("GET", "/static/secrets.txt", 404)]:  # fmt: skip
        response = await table.client.request(method, path, headers={"Accept-Language": "sv"})
        assert response.status == status
        assert message_of(await response.text()) == t("table.error.not_found", "sv")


async def test_the_page_loads_nothing_from_anywhere_else(table: Table) -> None:
    """Privacy: the server sends no third-party resources (and the browser may load none)."""
    gid, page = await start(table, **REGNEKRIG_2)
    response = await table.client.get(f"/game/{gid}")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert not re.search(r'(src|href|action)="(https?:)?//', page)
    for name, kind in [("table.css", "text/css"), ("table.js", "text/javascript")]:
        static = await table.client.get(f"/static/{name}")
        assert static.status == 200 and static.content_type == kind
        text = await static.text()
        assert "http://" not in text and "https://" not in text and "@import" not in text


async def test_a_stale_press_is_refused_and_changes_nothing(table: Table) -> None:
    """A button from an earlier decision window (a second tab) is stale."""
    gid, page = await start(table, game="intervallkrig", player1="Ada", player2="Bo")
    old = window_of(page)
    status, _ = await press(table, gid, "flip", window=old)
    assert status == 200
    before = list(table.game(gid).actions)
    status, page = await press(table, gid, "flip", window=old)
    assert status == 409
    assert message_of(page) == t("reply.stale", "en")
    assert table.game(gid).actions == before
    assert window_of(page) == table.game(gid).state.window  # the page shows the table now


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        ({"window": "x"}, "engine.malformed_action"),
        ({"window": ""}, "engine.malformed_action"),
        ({"side": "zero"}, "engine.malformed_action"),
        ({"choice": "dance"}, "engine.malformed_action"),
        ({"choice": "bet:left"}, "engine.malformed_action"),
        ({"choice": "target:3"}, "engine.wrong_phase"),
        ({"side": "5"}, "error.not_your_side"),
    ],
)
async def test_a_malformed_press_is_refused_in_words(
    table: Table, fields: dict[str, str], key: str
) -> None:
    gid, _ = await start(table, **REGNEKRIG_2)
    game = table.game(gid)
    state = game.state
    data = {"window": str(state.window), "side": "0", "choice": "answer", "answer": "1", **fields}
    response = await table.client.post(f"/game/{gid}/act", data={**data, "lang": "nb"})
    page = await response.text()
    assert response.status == 400
    message = message_of(page)
    assert message is not None and message.endswith(t(key, "nb", phase="answer"))
    assert game.state is state and game.actions == []


async def test_an_unreadable_answer_is_refused_and_kept_in_the_box(table: Table) -> None:
    """RULES §2.2: what cannot be read is refused (it can be typed again)."""
    gid, _ = await start(table, **REGNEKRIG_2)
    game = table.game(gid)
    state = game.state
    with pytest.raises(ExpressionError) as refused:
        judge_answer(state, 0, "3 +* 4")
    status, page = await press(table, gid, "answer", answer="3 +* 4")
    assert status == 400
    reason = t(f"answer.rejected.{refused.value.code}", "en", **refused.value.details)
    assert message_of(page) == t("table.note.side", "en", name="Ada", text=reason)
    assert 'value="3 +* 4"' in page
    assert game.state is state


def school_division(a: int, b: int, sign: str = ":") -> str:
    """``a : b`` as the pupils read it: the true minus sign, a negative divisor in brackets."""
    right = number_text(b) if b >= 0 else f"({number_text(b)})"
    return f"{number_text(a)} {sign} {right}"


async def test_a_division_at_level_1_is_refused_with_the_pupils_own_calculation(
    table: Table,
) -> None:
    """RULES §2.6 "Illegal before missing": "When that expression is also illegal (…, an
    operation the level does not allow), the message says why it is illegal, not 'type the
    result'". The page names the division Ada typed, as Norwegian schools write it."""
    gid, _ = await start(table, lang="nb", **REGNEKRIG_2)
    game = table.game(gid)
    state = game.state
    a, b = (card.value for card in state.up[0])
    typed = f"({a}):({b})"
    status, page = await press(table, gid, "answer", answer=typed, lang="nb")
    assert status == 400 and game.state is state
    why = f"Du skrev {school_division(a, b)}, men tegnet : hører ikke med på nivå 1."
    text = f"{why} {t('answer.not_counted', 'nb')}"
    assert message_of(page) == t("table.note.side", "nb", name="Ada", text=text)


async def test_a_square_at_level_1_is_refused_with_the_pupils_own_calculation(
    table: Table,
) -> None:
    """RULES §2.6 "Illegal before missing": a square the level does not have is told as an
    operation is, with the calculation Ada typed (the true minus sign, a negative card in
    brackets), not only "powers are not part of level 1"."""
    gid, _ = await start(table, lang="sv", **REGNEKRIG_2)
    game = table.game(gid)
    state = game.state
    a, b = (card.value for card in state.up[0])
    status, page = await press(table, gid, "answer", answer=f"({a})^2+({b})", lang="sv")
    assert status == 400 and game.state is state

    def shown(n: int) -> str:
        return number_text(n) if n >= 0 else f"({number_text(n)})"

    why = f"Du skrev {shown(a)}\u00b2 + {shown(b)}, men potenser hör inte till nivå 1."
    text = f"{why} {t('answer.not_counted', 'sv')}"
    assert message_of(page) == t("table.note.side", "sv", name="Ada", text=text)


async def test_a_right_and_a_wrong_answer_are_told_as_on_discord(table: Table) -> None:
    """RULES §2.2: a readable answer that breaks a rule counts as no value, and the pupil is
    told which rule; once every side has answered, the round's line tells both."""
    gid, _ = await start(table, **REGNEKRIG_2)
    game = table.game(gid)
    right = best_answer(game, 0)
    response = await table.client.post(
        f"/game/{gid}/act",
        data={"window": str(game.state.window), "side": "0", "choice": "answer", "answer": right},
        allow_redirects=False,
    )
    assert response.status == 303
    page = await (await table.client.get(response.headers["Location"])).text()
    assert message_of(page) == t("table.note.side", "en", name="Ada", text=answer_reply(None, "en"))
    assert right not in text_of(page)  # hidden until everyone has answered
    assert t("table.turn", "en", name="Bo") in text_of(page)
    wrong = "99"
    verdict = judge_answer(game.state, 1, wrong)
    assert verdict.value is None  # 99 is not the sum of two cards of a whole-number deck
    status, page = await press(table, gid, "answer", side=1, answer=wrong)
    assert status == 200
    assert message_of(page) == t(
        "table.note.side", "en", name="Bo", text=answer_reply(verdict, "en")
    )
    names = side_names(game, "en")
    facts = view(game.state, None).result
    line = result_line(facts, names, "en")
    assert line is not None and facts is not None
    # The round's cards are drawn as the sides' own (spoken names and all), not told as text.
    assert all(words in text_of(page) for words in words_around_cards(line))
    now = page.split('<section id="now"', 1)[1].split("</section>", 1)[0]
    assert "[ " not in now
    for cards in (c for laid in game.laid_in(facts).values() for c in laid):
        assert cards and all(card_html(card, "en") in now for card in cards)


async def test_at_a_shared_screen_a_wrong_answer_is_told_when_all_have_answered(
    table: Table,
) -> None:
    """RULES §2.2: the values are revealed together; at one screen, what Ada's answer counted
    as is told with the reveal, not while Bo still thinks."""
    gid, _ = await start(table, **REGNEKRIG_2)
    game = table.game(gid)
    verdict = judge_answer(game.state, 0, "99")
    assert verdict.value is None
    status, page = await press(table, gid, "answer", side=0, answer="99")
    in_words = t("table.note.side", "en", name="Ada", text=answer_reply(None, "en"))
    assert status == 200 and message_of(page) == in_words
    assert t("answer.counts_as_no_value", "en") not in text_of(page)
    right = best_answer(game, 1)
    status, page = await press(table, gid, "answer", side=1, answer=right)
    # The last answer reveals the round: it is never told to wait for the others.
    told = [
        t("table.note.side", "en", name="Ada", text=answer_reply(verdict, "en")),
        t("table.note.side", "en", name="Bo", text=t("table.note.answer_counted", "en")),
    ]
    assert message_of(page) == " ".join(told)


async def test_at_a_shared_screen_a_bet_is_only_in_until_all_have_decided(table: Table) -> None:
    """RULES §3.3: bets are decided in secret and revealed together."""
    gid, _ = await start(table, game="satsing", player1="Ada", player2="Bo")
    if table.game(gid).state.phase is not BET:
        await press(table, gid, "flip")
    status, page = await press(table, gid, "bet:0", side=0)
    assert status == 200
    assert message_of(page) == t(
        "table.note.side", "en", name="Ada", text=t("table.note.decided", "en")
    )
    bet = t("reply.bet_received", "en", card=t("reply.bet_left", "en"))
    assert bet not in text_of(page)


async def test_the_computer_plays_its_side_at_once(table: Table) -> None:
    gid, page = await start(table, game="regnekrig", level="5", player1="Ada", opponent="hard")
    game = table.game(gid)
    assert game.humans == frozenset({0})
    # RULES §2.5: the namer names the target; the computer names its own at once.
    if game.state.phase is TARGET:
        assert part_of(game.state).namer == 0
        status, page = await press(table, gid, "random_target")
    assert game.state.pending == (0,)
    assert t("table.turn", "en", name="Ada") in text_of(page)
    # A press naming the computer's side acts for the device's own side: the side comes
    # from the seats the device holds, never from the form.
    status, page = await press(table, gid, "answer", side=1, answer="1")
    assert status == 200
    assert [a for a in game.actions if getattr(a, "text", None) == "1"] == [Answer(0, "1")]


async def test_the_betting_hint_is_the_boards(table: Table) -> None:
    gid, _ = await start(table, game="satsing", player1="Ada", player2="Bo")
    game = table.game(gid)
    assert game.state.phase is BET and 0 in game.state.pending  # RULES §3.3
    page = await (await table.client.get(f"/game/{gid}?hint=0&lang=sv")).text()
    for line in render_hint(swap_chances(game.state, 0), "sv").splitlines():
        assert text_of(line.replace("**", "")) in text_of(page)
    page = await (await table.client.get(f"/game/{gid}?hint=7&lang=sv")).text()
    assert t("hint.title", "sv") not in page


async def play_to_the_end(table: Table, gid: str, limit: int = 3000) -> str:
    """Press what the page offers (flips, the first bet button, the best answer) until over."""
    page = await (await table.client.get(f"/game/{gid}")).text()
    for _ in range(limit):
        if data_state(page) == "over":
            return page
        game = table.game(gid)
        state = game.state
        side = state.pending[0] if state.pending else 0
        if state.phase is ANSWER and 'name="answer"' in page:
            status, page = await press(table, gid, "answer", side, answer=best_answer(game, side))
        elif state.phase is BET:
            status, page = await press(table, gid, "pass", side)
        elif state.phase is TARGET:
            status, page = await press(table, gid, "random_target", part_of(state).namer or 0)
        else:
            status, page = await press(table, gid, "flip")
        assert status == 200, message_of(page)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    "form",
    [
        {"game": "intervallkrig", "player1": "Ada", "player2": "Bo", "player3": "Cy"},
        {"game": "satsing", "player1": "Ada", "opponent": "medium"},
        {"game": "regnekrig", "level": "2", "mode": "auto", "player1": "A", "player2": "B",
         "player3": "C", "player4": "D", "teams": "on"},
    ],
)  # fmt: skip
async def test_a_whole_game_to_its_end_and_its_download_plays_back(
    table: Table, form: dict[str, str]
) -> None:
    """RULES §1.6: a game is its configuration, seed and actions: the download replays it."""
    gid, _ = await start(table, **form)
    page = await play_to_the_end(table, gid)
    game = table.game(gid)
    outcome = game.state.outcome
    assert outcome is not None
    words = text_of(page)
    assert text_of(t("over.title", "en")).replace("*", "") in words
    assert t("table.download", "en") in buttons_of(page)
    response = await table.client.get(f"/game/{gid}/replay.json")
    assert response.headers["Content-Disposition"].startswith("attachment;")
    replayed = run(json.loads(await response.text()))
    assert replayed["status"] == "over"
    assert replayed["winner"] == outcome.winner
    assert replayed["counts"] == list(game.state.counts)


async def test_the_time_limit_ends_the_game(table: Table) -> None:
    """RULES §1.5: when time is up the round in play is finished, then the most cards win."""
    gid, _ = await start(table, game="intervallkrig", player1="Ada", player2="Bo", minutes="1")
    page = await (await table.client.get(f"/game/{gid}")).text()
    assert "1:00" in page
    table.clock.now += 61
    page = await (await table.client.get(f"/game/{gid}")).text()
    assert data_state(page) == "over"
    assert t("over.reason.time_up", "en") in text_of(page)


async def test_games_are_forgotten_after_a_while_and_no_running_game_is_pushed_out(
    table: Table,
) -> None:
    """Nobody can push out running games by starting many new ones: at `CAP` running games a
    new one is refused in words (429); a finished game makes room."""
    first, _ = await start(table, **REGNEKRIG_2)
    for _ in range(CAP - 1):
        table.clock.now += 1
        await start(table, **REGNEKRIG_2)
    assert len(table.games) == CAP
    response = await table.client.post("/games", data={**REGNEKRIG_2, "lang": "nb"})
    assert response.status == 429
    assert message_of(await response.text()) == t("table.error.full", "nb")
    assert len(table.games) == CAP and table.games.get(first) is not None
    table.client.session.cookie_jar.clear()  # a flood from new browsers keeps nothing either
    devices = len(table.lesson.devices)
    for _ in range(5):
        response = await table.client.post("/games", data={**REGNEKRIG_2, "lang": "nb"})
        assert response.status == 429
        table.client.session.cookie_jar.clear()
    assert len(table.lesson.devices) == devices
    table.game(first).play(Forfeit(0))  # RULES §1.5: a side gives up: the game is over
    assert table.game(first).over
    await start(table, **REGNEKRIG_2)  # the finished game made room
    assert table.games.get(first) is None
    table.clock.now += EXPIRY_SECONDS + 1
    response = await table.client.get("/")
    assert response.status == 200
    last, _ = await start(table, **REGNEKRIG_2)
    assert len(table.games) == 1 and table.games.get(last) is not None


@pytest.mark.parametrize(
    ("headers", "body", "status", "key", "game"),
    [
        ({"Content-Type": "multipart/form-data; boundary=x"}, b"--x\r\nnonsense", 400,
         "table.error.unknown_game", ""),
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"game=%FF%FE", 400,
         "table.error.unknown_game", "\ufffd\ufffd"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"x=" + b"1" * 70_000, 413,
         "table.error.too_large", ""),
    ],
)  # fmt: skip
async def test_a_body_that_is_no_form_is_refused_in_words(
    table: Table, headers: dict[str, str], body: bytes, status: int, key: str, game: str
) -> None:
    response = await table.client.post("/games?lang=nb", data=body, headers=headers)
    assert response.status == status
    assert message_of(await response.text()) == t(key, "nb", game=game)
    assert len(table.games) == 0


@pytest.mark.parametrize("number", ["--5", "²", "1e3", "9999999", " 1"])
async def test_odd_numbers_in_a_press_or_a_link_change_nothing(table: Table, number: str) -> None:
    gid, _ = await start(table, **REGNEKRIG_2)
    state = table.game(gid).state
    for fields in ({"window": number}, {"side": number}):
        data = {"window": str(state.window), "side": "0", "choice": "answer", "answer": "1"}
        response = await table.client.post(f"/game/{gid}/act", data={**data, **fields})
        assert response.status == 400
        assert message_of(await response.text()) == t("engine.malformed_action", "en")
    response = await table.client.get(f"/game/{gid}", params={"note": number, "hint": number})
    assert response.status == 200
    assert table.game(gid).state is state
