"""Challenges and lobbies: kept so their buttons work after a restart; closing is once only."""

from __future__ import annotations

import asyncio

import pytest

from storage import (
    ConflictError,
    Invitation,
    InvitationClosedError,
    LobbyFullError,
    NotFoundError,
    Storage,
)

from .helpers import T0, new_game

EXPIRES = T0 + 600_000


async def challenge(store: Storage, host: int = 101, invited: tuple[int, ...] = (102,)) -> int:
    return await store.create_challenge(
        guild_id=1,
        channel_id=500,
        host_id=host,
        invited=list(invited),
        options={"game": "regnekrig", "level": 3},
        at=T0,
        expires_at=EXPIRES,
    )


async def lobby(store: Storage, host: int = 101, expires_at: int = EXPIRES) -> int:
    return await store.create_lobby(
        guild_id=1,
        channel_id=500,
        host_id=host,
        options={"game": "intervallkrig"},
        at=T0,
        expires_at=expires_at,
        joined=[host],
    )


async def test_challenge_round_trip(store: Storage) -> None:
    cid = await challenge(store, invited=(102, 103, 104))
    await store.set_invitation_message(cid, 8888, T0 + 1)
    inv = await store.load_invitation(cid)
    assert isinstance(inv, Invitation)
    assert (inv.kind, inv.status, inv.host_id, inv.channel_id, inv.guild_id) == (
        "challenge",
        "open",
        101,
        500,
        1,
    )
    assert inv.message_id == 8888
    assert inv.options == {"game": "regnekrig", "level": 3}
    assert inv.user_ids() == (102, 103, 104)
    assert inv.user_ids("invited") == (102, 103, 104)
    assert (inv.created_at, inv.updated_at, inv.expires_at) == (T0, T0 + 1, EXPIRES)
    assert not inv.all_accepted


async def test_accepting_and_declining(store: Storage) -> None:
    cid = await challenge(store, invited=(102, 103))
    inv = await store.answer_challenge(cid, 102, accept=True, at=T0 + 1)
    assert inv.user_ids("accepted") == (102,)
    assert not inv.all_accepted
    inv = await store.answer_challenge(cid, 103, accept=False, at=T0 + 2)
    assert inv.user_ids("declined") == (103,)
    inv = await store.answer_challenge(cid, 103, accept=True, at=T0 + 3)  # changed their mind
    assert inv.all_accepted
    assert inv.updated_at == T0 + 3
    with pytest.raises(NotFoundError):
        await store.answer_challenge(cid, 999, accept=True, at=T0)
    game_id = await new_game(store)
    inv = await store.close_invitation(cid, "started", T0 + 4, game_id=game_id)
    assert (inv.status, inv.game_id) == ("started", game_id)
    with pytest.raises(InvitationClosedError) as caught:
        await store.answer_challenge(cid, 102, accept=False, at=T0 + 5)
    assert isinstance(caught.value, ConflictError)
    assert caught.value.status == "started"


@pytest.mark.parametrize("invited", [(), (101,), (102, 102)])
async def test_bad_challenges_are_refused(store: Storage, invited: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        await challenge(store, host=101, invited=invited)


async def test_closing_is_compare_and_set(store: Storage) -> None:
    cid = await challenge(store)
    with pytest.raises(ValueError):
        await store.close_invitation(cid, "started", T0)  # needs a game id
    with pytest.raises(ValueError):
        await store.close_invitation(cid, "withdrawn", T0, game_id=1)
    with pytest.raises(ValueError):
        await store.close_invitation(cid, "open", T0)
    results = await asyncio.gather(
        store.close_invitation(cid, "withdrawn", T0 + 1),
        store.close_invitation(cid, "declined", T0 + 1),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Invitation) for r in results) == 1
    assert sum(isinstance(r, InvitationClosedError) for r in results) == 1
    with pytest.raises(NotFoundError):
        await store.close_invitation(404, "withdrawn", T0)


async def test_lobby_join_and_leave(store: Storage) -> None:
    lid = await lobby(store)
    inv = await store.join_lobby(lid, 102, T0 + 1)
    inv = await store.join_lobby(lid, 103, T0 + 2, capacity=3)
    assert inv.user_ids("joined") == (101, 102, 103)
    assert (await store.join_lobby(lid, 102, T0 + 3, capacity=3)).user_ids() == (101, 102, 103)
    with pytest.raises(LobbyFullError):
        await store.join_lobby(lid, 104, T0 + 4, capacity=3)
    inv = await store.leave_lobby(lid, 102, T0 + 5)
    assert inv.user_ids() == (101, 103)
    assert (await store.leave_lobby(lid, 102, T0 + 6)).updated_at == T0 + 5  # not in: no-op
    inv = await store.join_lobby(lid, 104, T0 + 7, capacity=3)
    assert inv.user_ids() == (101, 103, 104)  # join order is kept
    with pytest.raises(ValueError):
        await store.answer_challenge(lid, 101, accept=True, at=T0)
    cid = await challenge(store)
    with pytest.raises(ValueError):
        await store.join_lobby(cid, 105, T0)
    await store.close_invitation(lid, "cancelled", T0 + 8)
    with pytest.raises(InvitationClosedError):
        await store.join_lobby(lid, 105, T0 + 9)
    with pytest.raises(InvitationClosedError):
        await store.leave_lobby(lid, 101, T0 + 9)


async def test_racing_for_the_last_seat(store: Storage) -> None:
    lid = await lobby(store)
    results = await asyncio.gather(
        *(store.join_lobby(lid, user, T0 + 1, capacity=3) for user in (201, 202, 203, 204)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Invitation) for r in results) == 2
    assert sum(isinstance(r, LobbyFullError) for r in results) == 2
    assert len((await store.load_invitation(lid)).members) == 3


async def test_update_options(store: Storage) -> None:
    lid = await lobby(store)
    inv = await store.update_invitation_options(lid, {"game": "satsing", "minutes": 20}, T0 + 1)
    assert inv.options == {"game": "satsing", "minutes": 20}
    assert (await store.load_invitation(lid)).options == inv.options


async def test_expiry(store: Storage) -> None:
    early = await lobby(store, host=101, expires_at=T0 + 10)
    on_time = await lobby(store, host=102, expires_at=T0 + 20)
    later = await lobby(store, host=103, expires_at=T0 + 30)
    started = await lobby(store, host=104, expires_at=T0 + 5)
    await store.close_invitation(started, "started", T0 + 1, game_id=await new_game(store))

    expired = await store.expire_invitations(T0 + 20)
    assert [i.id for i in expired] == [early, on_time]
    assert {i.status for i in expired} == {"expired"}
    assert (await store.load_invitation(started)).status == "started"
    assert [i.id for i in await store.open_invitations()] == [later]
    assert await store.expire_invitations(T0 + 20) == []


async def test_open_invitations_for_user(store: Storage) -> None:
    hosted = await challenge(store, host=101, invited=(102,))
    invited = await challenge(store, host=103, invited=(101, 104))
    declined = await challenge(store, host=105, invited=(101,))
    await store.answer_challenge(declined, 101, accept=False, at=T0 + 1)
    joined = await lobby(store, host=106)
    await store.join_lobby(joined, 101, T0 + 1)
    closed = await challenge(store, host=101, invited=(107,))
    await store.close_invitation(closed, "withdrawn", T0 + 2)

    found = await store.open_invitations_for_user(101)
    assert [i.id for i in found] == [hosted, invited, joined]
    assert [i.id for i in await store.open_invitations_for_user(104)] == [invited]
    assert await store.open_invitations_for_user(999) == []


async def test_last_challenge_at_survives_closing(store: Storage) -> None:
    """The challenge cooldown reads when the host last challenged, whatever became of it."""
    assert await store.last_challenge_at(101) is None
    first = await challenge(store, host=101)
    await store.close_invitation(first, "withdrawn", T0 + 5)
    assert await store.last_challenge_at(101) == T0
    await store.create_lobby(
        guild_id=1, channel_id=500, host_id=101, options={}, at=T0 + 9, expires_at=EXPIRES
    )
    assert await store.last_challenge_at(101) == T0  # a lobby is not a challenge
