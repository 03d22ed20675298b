"""The same flow in nb, sv and en. The board speaks the starter's language; every
private reply speaks the language of whoever pressed (their Discord locale, else the server's,
which is `no` on the fake)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render.board import game_title
from bot.render.texts import help_text, rules_text
from classroom.i18n import Lang, t
from engine.regnekrig import ANSWER, REGNEKRIG, TARGET
from tests.bot.e2e import (
    Table,
    assert_all_answered,
    assert_quiet,
    assert_refused,
    best_answer,
    seed_deals,
)

BOARD: Lang = "nb"  # the fake server's Discord locale: every public message of a game
BOARD_WORDS = "Spill #"  # the board's footer in Norwegian
LANGUAGES = [
    ("alice", "no", "nb"),
    ("bob", "sv-SE", "sv"),
    ("carol", "en-US", "en"),
    ("carol", "en-GB", "en"),
    ("carol", "de", "nb"),  # a language we do not speak: the server's (Norwegian)
]


@pytest.mark.parametrize(("user", "locale", "lang"), LANGUAGES)
async def test_the_same_game_in_each_language(
    table: Table,
    user: str,
    locale: str,
    lang: Lang,
    monkeypatch: pytest.MonkeyPatch,
    no_errors: Any,
) -> None:
    seed_deals(monkeypatch, 1)
    gid, _ = await table.start_computer(
        user, locale=locale, game="regnekrig", level=5, computer="easy"
    )
    board = table.board(gid)
    embed = board.embeds[0]
    assert embed["title"] == game_title(REGNEKRIG, 5, BOARD)
    assert t("deck.heltall.name", BOARD) in embed["footer"]["text"]
    assert t("board.game_number", BOARD, id=gid) in embed["footer"]["text"]

    # The board speaks the server's language (Norwegian), whoever started.
    assert table.state(gid).phase is TARGET
    selects = [c for c in board.all_components() if c.get("type") == 3]
    assert [s["placeholder"] for s in selects] == [
        t("select.target_lo", BOARD),
        t("select.target_hi", BOARD),
    ]
    random_button = board.buttons()[0]
    assert random_button["label"] == t("button.random_target", BOARD)
    named = await table.target(user, gid, 5, locale=locale)
    assert named.answered and named.response_type == 7

    board = table.board(gid)
    assert [b["label"] for b in board.buttons()] == [t("button.answer", BOARD)]
    assert t("board.target", BOARD, target="5") in board.embeds[0]["description"]
    opened, sent = await table.answer(user, gid, best_answer(table.state(gid), 0), locale=locale)
    assert opened.modal is not None and sent is not None
    assert opened.modal.title.startswith(t("modal.answer.title_round", lang, round=1)[:20])
    label = opened.modal.components[0]
    assert label["label"] == t("modal.answer.label", lang)
    await assert_quiet(table.fake, sent)

    # A classmate's refusal is in *her* language, whatever the board's.
    stranger, stranger_lang = {"alice": ("bob", "sv"), "bob": ("carol", "en")}.get(
        user, ("bob", "sv")
    )
    phase = table.state(gid).phase
    if phase is ANSWER:
        other = await table.open_answer(stranger, gid)
    elif phase is TARGET:
        other = await table.target(stranger, gid, 1)
    else:
        other = await table.flip(stranger, gid)
    await assert_refused(table.fake, other, "error.not_a_player", stranger_lang)

    rules = await table.driver.slash(user, "mattekrig rules", locale=locale, game="satsing")
    assert rules.original is not None and rules.original.ephemeral
    assert rules.original.embeds[0]["title"] == rules_text("satsing", lang)[0].title
    helped = await table.driver.slash(user, "mattekrig help", locale=locale)
    assert helped.original is not None and helped.original.ephemeral
    assert helped.original.embeds[0]["title"] == help_text(lang)[0].title

    stopped = await table.driver.slash(user, "mattekrig stop", locale=locale)
    assert stopped.original is not None and stopped.original.ephemeral
    assert stopped.original.content in (t("reply.forfeited", lang), t("reply.cancelled", lang))
    await table.settle()
    over = table.board(gid)
    assert t("over.title", BOARD) in over.embeds[0]["description"]
    labels = [b["label"] for b in over.buttons()]  # a regn game: each pupil's summary too
    assert labels[0] == t("button.rematch", BOARD)
    assert set(labels) <= {t("button.rematch", BOARD), t("button.summary", BOARD)}
    # Every public message of the game is in the board's language.
    public = [m for m in table.fake.world.messages.values() if not m.ephemeral and m.embeds]
    assert public and all(BOARD_WORDS in str(m.embeds) for m in public)
    assert_all_answered(table.fake)


async def test_slash_commands_are_localised(table: Table) -> None:
    """Discord shows the command and its options in each pupil's language (`no`, `sv-SE`)."""
    data = table.fake.command("mattekrig", table.fake.guild).data
    assert data["name_localizations"]["no"] == t("group.mattekrig.name", "nb")
    assert data["name_localizations"]["sv-SE"] == t("group.mattekrig.name", "sv")
    start = next(o for o in data["options"] if o["name"] == "start")
    assert start["name_localizations"]["sv-SE"] == t("cmd.start.name", "sv")
    assert start["description_localizations"]["no"] == t("cmd.start.desc", "nb")
    game = next(o for o in start["options"] if o["name"] == "game")
    labels = {c["value"]: c["name_localizations"]["no"] for c in game["choices"]}
    assert labels["regnekrig"] == t("game.regnekrig.name", "nb")
