"""`/mattekrig admin void` takes back a game's result and rating only (docs/commands.md): the
practice records of both pupils (answers, best moves, mistakes) and their assignment progress
stay. End to end through the fake Discord, in each of the server's languages: two pupils
play a regn-mode game at level 1 to its end with an assignment of 5 rounds set; the teacher
voids it; each pupil's statistics still count their answers, and the assignment met stays
met, while the win and the rating are gone."""

from __future__ import annotations

from typing import Any

import pytest

from classroom.i18n import Lang, t
from engine.regnekrig import ANSWER
from engine.state import Phase
from tests.bot.e2e import (
    Table,
    assert_all_answered,
    assert_game_over,
    best_answer,
    message_text,
    seed_deals,
    speak,
    strong_vs_weak,
)

LANGS = ("en", "nb", "nn", "sv")  # every language a server can speak
ROUNDS = 5  # rounds both pupils answer, each with the best move


@pytest.fixture(params=LANGS)
async def lang(request: pytest.FixtureRequest, table: Table) -> Lang:
    """The server's language: the teacher's setting, the server's locale and every member's."""
    chosen: Lang = request.param
    await speak(table, chosen)
    return chosen


async def private(table: Table, who: str, command: str, **options: Any) -> str:
    asked = await table.driver.slash(who, command, **options)
    await table.settle()
    assert asked.answered and not asked.rejected and asked.original is not None, asked
    return message_text(asked.original)


async def test_a_void_keeps_both_pupils_practice_and_assignment_progress(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_deals(monkeypatch, 4)
    await private(
        table, "teacher", "mattekrig admin assignment", level=1, rounds=ROUNDS, best_percent=50
    )
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=1, minutes=5)
    for _ in range(ROUNDS):
        state = table.state(gid)
        assert state.phase is ANSWER
        for side in state.pending:
            (player,) = table.players_of(gid, side)
            await table.answer(player, gid, best_answer(table.state(gid), side))
        if table.state(gid).phase is Phase.FLIP:
            await table.flip("alice", gid)
    clock = table.clock
    clock.advance(5 * 60)
    await table.bot.scheduler.run_due()
    await table.settle()
    await table.play(gid, strong_vs_weak(weak_side=-1))
    await assert_game_over(table, gid, lang, "time_up")
    await table.bot.results.drain()

    before = {who: await private(table, who, "mattekrig stats") for who in ("alice", "bob")}
    done = t("assignment.met", lang, rounds=ROUNDS, count=ROUNDS, percent="").split(" · ")[0]
    result = await table.bot.storage.load_result(gid)
    assert result is not None
    winner = next(p.user_id for p in result.players if p.outcome == "win")

    voided = await private(table, "teacher", "mattekrig admin void", game=gid)
    assert voided == t("admin.void.done", lang, game=gid)

    for who in ("alice", "bob"):
        user = table.user(who)
        after = await private(table, who, "mattekrig stats")
        assert t("stats.nothing", lang) not in after
        assert t("stats.accuracy.none", lang) not in after
        answered = t("stats.accuracy.all", lang, percent="", best="", asked="").split(":")[0]
        assert answered in after and answered in before[who]
        assert done in before[who] and done in after  # the assignment met stays met
        games = await table.bot.storage.player_games(table.fake.guild.id, user.id)
        (game,) = games
        assert game.result.voided_at is not None and game.player.answers >= ROUNDS
        stats = await table.bot.stats.stats(table.fake.guild.id, user.id)
        assert stats.answers.answers == game.player.answers  # every answer still counted
        assert (stats.wins, stats.losses, stats.finished) == (0, 0, 0)  # the result is gone
        assert stats.games == 1 and user.id in (winner, *result.user_ids())
        assert await table.bot.storage.rating_lines(table.fake.guild.id, user.id) == []
    assert_all_answered(table.fake)
