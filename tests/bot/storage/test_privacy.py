"""The privacy part of the contract (PRIVACY.md): export what names a user, forget them
(refused while they play), forget a server, and retention."""

from __future__ import annotations

import pytest

from storage import Storage, UserInLiveGameError
from storage.fingerprints import fingerprint

from .helpers import ADA, BO, T0, append, live_games, new_game
from .results_helpers import DAY, duel, record
from .test_invitations import challenge, lobby


async def test_export_names_every_row_of_the_user(store: Storage) -> None:
    game_id = await new_game(store)
    await append(store, game_id, 0, {"type": "deal"}, [], T0, user_id=ADA.user_id)
    await challenge(store, host=101, invited=(102,))
    out = await store.export_user(101)
    assert [r["id"] for r in out["games"]] == [game_id]
    assert [r["user_id"] for r in out["game_players"]] == [101]
    assert [r["host_id"] for r in out["invitations"]] == [101]
    assert out["game_events"][0]["action"] == {"type": "deal"}  # JSON decoded
    assert await store.export_user(999) == {table: [] for table in out}


async def test_forget_is_refused_while_the_user_plays(store: Storage) -> None:
    game_id = await new_game(store)
    assert await store.live_games_of(101) == [game_id]
    with pytest.raises(UserInLiveGameError):
        await store.forget_user(101, T0)
    assert (await store.load_game(game_id)).players == (ADA, BO)  # nothing was forgotten


async def test_forget_user_keeps_the_others_results(store: Storage) -> None:
    game_id = await new_game(store)
    await store.set_status(game_id, "over", T0)
    await record(store, duel(game_id, 101, 102))
    await challenge(store, host=102, invited=(101,))
    counts = await store.forget_user(101, T0 + 1)
    assert counts["games"] == 1 and counts["result_players"] == 1
    assert await store.live_games_of(101) == []
    kept = await store.load_result(game_id)
    assert kept is not None
    assert [(p.kind, p.user_id) for p in kept.players] == [("anonymous", None), ("user", 102)]
    assert all(rows == [] for rows in (await store.export_user(101)).values())
    assert (await store.load_invitation(1)).user_ids() == ()


async def test_forget_guild_and_retention(store: Storage) -> None:
    old = await new_game(store, channel_id=1)
    await store.set_status(old, "over", T0)
    await record(store, duel(old, 101, 102, at=T0))
    counts = await store.purge_old(
        games_before=T0 + 1,
        invitations_before=T0 + 1,
        results_before=T0 + DAY,
        weeks_before=300_001,
    )
    assert (counts["games"], counts["results"]) == (1, 1)
    assert await store.load_result(old) is None
    live = await new_game(store, channel_id=2)
    assert (await store.forget_guild(1, T0))["games"] == 1
    assert await live_games(store) == []
    assert live not in await store.live_games_of(101)


async def test_forget_leaves_no_partner_choice_naming_the_user(store: Storage) -> None:
    """forget-me reaches a team lobby's `partner` too (the host's choice of team-mate): every
    column of the invitation names nobody afterwards."""
    lid = await lobby(store, host=102)
    await store.join_lobby(lid, 101, T0 + 1)
    await store.update_invitation_options(
        lid, {"game": "intervallkrig", "names": {"101": "Ada", "102": "Bo"}, "partner": 101}, T0
    )
    await store.forget_user(101, T0 + 2)
    left = await store.load_invitation(lid)
    assert left.options == {"game": "intervallkrig", "names": {"102": "Bo"}}
    assert "101" not in str(left)


async def test_a_server_that_removed_the_bot_waits_its_grace_period(store: Storage) -> None:
    """GUILD_DELETE (PRIVACY.md): the departure is noted once, a server that comes back is
    no longer departed, and forgetting the server clears its departure too."""
    await store.update_guild_settings(5, T0, board="hidden")
    game_id = await new_game(store, guild_id=5)
    await new_game(store, guild_id=None, channel_id=77)  # a game in direct messages
    assert 5 in await store.known_guilds() and None not in await store.known_guilds()
    assert await store.live_games_in(5) == [game_id] and await store.live_games_in(6) == []
    await store.guild_left(5, T0)
    await store.guild_left(5, T0 + DAY)  # Discord saying it again changes nothing
    assert await store.departed_guilds() == {5: T0}
    assert await store.guild_back(5) and not await store.guild_back(5)
    assert await store.departed_guilds() == {}
    await store.guild_left(5, T0)
    await store.set_status(game_id, "over", T0)
    await store.forget_guild(5, T0 + 1)
    assert await store.departed_guilds() == {} and 5 not in await store.known_guilds()


async def test_forgets_are_kept_as_fingerprints_and_applied_again(store: Storage) -> None:
    """The forgotten table names nobody (a keyed fingerprint per forget), yet a database
    given those fingerprints (a restored backup) forgets the same pupil and server again,
    a live game of theirs included."""
    done = await new_game(store)
    await store.set_status(done, "over", T0)
    await record(store, duel(done, 101, 102))
    await store.forget_user(101, T0 + 1)
    await store.update_guild_settings(7, T0, board="hidden")
    await store.forget_guild(7, T0 + 2)
    key, entries = await store.forgotten_entries()
    assert [(kind, at) for kind, _, at in entries] == [("user", T0 + 1), ("guild", T0 + 2)]
    assert [mark for _, mark, _ in entries] == [
        fingerprint(key, "user", "101"),
        fingerprint(key, "guild", "7"),
    ]
    # A fingerprint is 32 hex digits: it may hold "101" by chance, never the id itself.
    assert {mark for _, mark, _ in entries}.isdisjoint({"101", "7", "user:101", "guild:7"})

    # the same pupil and server, back as if from an old backup
    live = await new_game(store, players=(ADA, BO))
    await store.update_guild_settings(7, T0, board="hidden")
    counts = await store.reapply_forgotten(key, entries, T0 + 3)
    assert (counts["users"], counts["guilds"]) == (1, 1)
    assert all(rows == [] for rows in (await store.export_user(101)).values())
    assert live not in [g.id for g in await live_games(store)]
    assert 7 not in await store.known_guilds()
    assert (await store.forgotten_entries())[1] == entries  # recorded once, not twice


async def test_forget_in_one_server_leaves_the_other_servers_rows(store: Storage) -> None:
    """`mattekrig privacy forget USER_ID --guild ID`: a school asks for its own pupil's data
    to go; the same Discord user's games in another school's server stay."""
    here = await new_game(store, guild_id=1, channel_id=1)
    there = await new_game(store, guild_id=2, channel_id=2)
    for game_id, guild_id in ((here, 1), (there, 2)):
        await store.set_status(game_id, "over", T0)
        await record(store, duel(game_id, 101, 102, guild_id=guild_id))
    await store.forget_user(101, T0 + 1, guild_id=1)
    left = await store.export_user(101)
    assert [row["id"] for row in left["games"]] == [there]
    assert {row["guild_id"] for row in left["ratings"]} == {2}
    assert [row["game_id"] for row in left["result_players"]] == [there]
    key, entries = await store.forgotten_entries()
    assert [(kind, mark) for kind, mark, _ in entries] == [
        ("member", fingerprint(key, "member", "1:101"))
    ]
    # as if from a backup taken before: the pupil's games in server 1 are back
    back = await new_game(store, guild_id=1, channel_id=3)
    await store.set_status(back, "over", T0)
    await record(store, duel(back, 101, 102, guild_id=1))
    counts = await store.reapply_forgotten(key, entries, T0 + 2)
    assert counts["users"] == 1
    again = await store.export_user(101)
    assert [row["id"] for row in again["games"]] == [there]
