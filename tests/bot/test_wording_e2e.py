"""Words through Discord: a turn ping to a team of two speaks to both players."""

from __future__ import annotations

import re
from typing import Any

from bot.custom_ids import Verb, build
from classroom.i18n import t
from tests.bot.e2e import Table, ref_of


async def test_a_teams_ping_speaks_to_both_players(table: Table, no_errors: Any) -> None:
    """Level 5, two against two: one team names the first target, so the game waits for that
    team alone and pings both its players, in the board's language (the server's: nb), worded
    for two ("deres tur", not "din tur")."""
    table.fake.world.add_user("dave", locale="no")
    start = await table.driver.slash(
        "alice", "mattekrig start", game="regnekrig", level=5, teams=True, thread=False
    )
    lobby = start.original
    assert lobby is not None
    ref = ref_of(lobby, Verb.JOIN)
    for who in ("bob", "carol", "dave"):
        await table.driver.click(who, lobby, build(Verb.JOIN, ref))
    mate = str(table.user("dave").id)
    await table.driver.select("alice", table.fake.message(lobby.id), build(Verb.TEAMS, ref), [mate])
    await table.driver.click("alice", table.fake.message(lobby.id), build(Verb.BEGIN, ref))
    await table.settle()
    (game,) = table.bot.games.games.values()
    messages = table.fake.world.channel_messages(table.fake.channel.id)
    pings = [m for m in messages if not m.embeds and re.search(r"<@\d+>", m.content or "")]
    assert len(pings) == 1
    mentioned = [int(u) for u in re.findall(r"<@(\d+)>", pings[0].content)]
    sides = {p.user_id: p.side for p in game.players}
    assert len(mentioned) == 2 and sides[mentioned[0]] == sides[mentioned[1]]  # one team
    players = " ".join(f"<@{u}>" for u in mentioned)
    assert pings[0].content == t("board.ping.target", "nb", players=players, round=1, count=2)
    assert f"{players}: deres tur til å velge målverdien for runde 1." == pings[0].content
