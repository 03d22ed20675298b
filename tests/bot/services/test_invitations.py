"""Challenges and lobbies: accept/decline only by the invited, expiry,
one open challenge per user, a cooldown, lobbies of 2–4 and teams of two."""

from __future__ import annotations

import pytest

from bot.services.invitations import InvitationService
from bot.services.live import GameUpdate
from classroom.errors import UserFacingError
from storage import Invitation
from tests.bot.clock import FakeClock
from tests.bot.services.conftest import ALICE, BOB, CARL, DINA, EVE

OPTIONS = {"game": "regnekrig", "level": 3, "mode": "regn", "locale": "nb"}


async def challenge(invitations: InvitationService, *invited: int, **options: object) -> Invitation:
    return await invitations.challenge(
        guild_id=1,
        channel_id=10,
        host_id=ALICE,
        invited=list(invited),
        options={**OPTIONS, **options},
        names={ALICE: "Alice", **{u: f"U{u}" for u in invited}},
    )


async def test_accepted_challenge_starts_a_game(invitations: InvitationService) -> None:
    inv = await challenge(invitations, BOB)
    with pytest.raises(UserFacingError) as refused:
        await invitations.answer(inv.id, EVE, accept=True)
    assert refused.value.key == "error.not_invited"
    inv = await invitations.answer(inv.id, BOB, accept=True)
    assert inv.all_accepted
    inv, update = await invitations.begin(inv.id, None)
    assert inv.status == "started" and inv.game_id == update.game.id
    assert [p.display_name for p in update.game.players] == ["Alice", "U102"]
    assert update.game.settings.engine.level == 3 and update.game.settings.locale == "nb"


async def test_the_invitation_and_its_message_are_read_back(
    invitations: InvitationService,
) -> None:
    """The message carrying the buttons is remembered (an expired invitation's buttons are
    taken away there), and a closed invitation can still be read (its host checked)."""
    inv = await challenge(invitations, BOB)
    assert inv.message_id is None
    await invitations.set_message(inv.id, 555)
    assert (await invitations.invitation(inv.id)).message_id == 555
    await invitations.withdraw(inv.id, ALICE)
    closed = await invitations.invitation(inv.id)
    assert (closed.status, closed.host_id, closed.message_id) == ("withdrawn", ALICE, 555)


async def test_decline_ends_the_challenge(invitations: InvitationService) -> None:
    inv = await challenge(invitations, BOB, CARL)
    inv = await invitations.answer(inv.id, BOB, accept=False)
    assert inv.status == "declined"
    with pytest.raises(UserFacingError) as refused:
        await invitations.answer(inv.id, CARL, accept=True)
    assert refused.value.key == "error.invitation_closed"


async def test_only_the_host_withdraws(invitations: InvitationService) -> None:
    inv = await challenge(invitations, BOB)
    with pytest.raises(UserFacingError) as refused:
        await invitations.withdraw(inv.id, BOB)
    assert refused.value.key == "error.not_host"
    assert (await invitations.withdraw(inv.id, ALICE)).status == "withdrawn"


async def test_one_open_challenge_and_a_cooldown(
    invitations: InvitationService, clock: FakeClock
) -> None:
    inv = await challenge(invitations, BOB)
    clock.advance(30)
    with pytest.raises(UserFacingError) as refused:
        await challenge(invitations, CARL)
    assert refused.value.key == "error.open_challenge"
    await invitations.withdraw(inv.id, ALICE)
    await challenge(invitations, CARL)
    await invitations.withdraw((await invitations.storage.open_invitations())[0].id, ALICE)
    with pytest.raises(UserFacingError) as refused:
        await challenge(invitations, DINA)
    assert refused.value.key == "error.cooldown" and refused.value.values["count"] == 20


async def test_challenging_yourself_is_refused(invitations: InvitationService) -> None:
    with pytest.raises(UserFacingError) as refused:
        await challenge(invitations, ALICE)
    assert refused.value.key == "error.challenge_self"


async def test_challenges_expire_after_two_minutes(
    invitations: InvitationService, clock: FakeClock
) -> None:
    inv = await challenge(invitations, BOB)
    clock.advance(119)
    assert await invitations.expire_due() == []
    clock.advance(2)
    [expired] = await invitations.expire_due()
    assert expired.id == inv.id and expired.status == "expired"
    with pytest.raises(UserFacingError):
        await invitations.answer(inv.id, BOB, accept=True)


async def _team_lobby(invitations: InvitationService) -> Invitation:
    """Alice's open lobby for four players in two teams."""
    return await invitations.lobby(
        guild_id=1,
        channel_id=10,
        host_id=ALICE,
        options={**OPTIONS, "teams": True},
        host_name="Alice",
    )


async def test_lobby_join_leave_start_with_teams(invitations: InvitationService) -> None:
    """RULES §1.2: four players play two teams of two; a team is one side."""
    lobby = await _team_lobby(invitations)
    with pytest.raises(UserFacingError) as refused:
        await invitations.begin(lobby.id, ALICE)
    assert refused.value.key == "error.lobby_size"
    for user in (BOB, CARL, DINA):
        lobby = await invitations.join(lobby.id, user, f"U{user}")
    with pytest.raises(UserFacingError) as refused:
        await invitations.join(lobby.id, EVE, "Eve")
    assert refused.value.key == "error.lobby_full"
    with pytest.raises(UserFacingError) as refused:
        await invitations.begin(lobby.id, BOB)
    assert refused.value.key == "error.not_host"
    lobby, update = await invitations.begin(lobby.id, ALICE)
    game = update.game
    assert game.settings.engine.sides == 2 and game.settings.teams
    assert [p.side for p in game.players] == [0, 1, 0, 1]


async def test_lobby_expires_after_ten_minutes(
    invitations: InvitationService, clock: FakeClock
) -> None:
    await invitations.lobby(
        guild_id=1, channel_id=10, host_id=ALICE, options=OPTIONS, host_name="Alice"
    )
    clock.advance(601)
    [expired] = await invitations.expire_due()
    assert expired.status == "expired"
    with pytest.raises(UserFacingError) as refused:  # a lobby is a table: closed in its words
        await invitations.join(expired.id, BOB, "Bob")
    assert refused.value.key == "error.lobby_closed"


async def test_computer_game_starts_at_once_and_rematch(invitations: InvitationService) -> None:
    update = await invitations.versus_computer(
        guild_id=1,
        channel_id=10,
        host_id=ALICE,
        host_name="Alice",
        computer_name="Computer",
        options={**OPTIONS, "computer": "easy"},
    )
    game = update.game
    with pytest.raises(UserFacingError) as refused:  # a game in play has no rematch yet
        await invitations.rematch(game.id, ALICE)
    assert refused.value.key == "error.channel_busy"
    await invitations.games.stop(game.id, ALICE)
    again = await invitations.rematch(game.id, ALICE)
    assert isinstance(again, GameUpdate)  # the computer accepts at once: the game starts
    assert again.game.id != game.id
    assert [p.computer for p in again.game.players] == [None, "easy"]


async def test_the_host_picks_a_team_mate(invitations: InvitationService) -> None:
    """Four players can pick teams (or be split automatically by join order)."""
    lobby = await _team_lobby(invitations)
    for user in (BOB, CARL, DINA):
        lobby = await invitations.join(lobby.id, user, f"U{user}")
    with pytest.raises(UserFacingError) as refused:
        await invitations.choose_partner(lobby.id, BOB, CARL)
    assert refused.value.key == "error.not_host"
    with pytest.raises(UserFacingError) as refused:
        await invitations.choose_partner(lobby.id, ALICE, EVE)
    assert refused.value.key == "error.not_joined"
    await invitations.choose_partner(lobby.id, ALICE, DINA)
    _, update = await invitations.begin(lobby.id, ALICE)
    sides = {p.user_id: p.side for p in update.game.players}
    assert sides[ALICE] == sides[DINA] != sides[BOB] == sides[CARL]


async def test_the_cooldown_survives_a_restart(
    invitations: InvitationService, clock: FakeClock
) -> None:
    """The cooldown is read from storage, so restarting the bot does not lift it."""
    inv = await challenge(invitations, BOB)
    await invitations.withdraw(inv.id, ALICE)
    restarted = InvitationService(invitations.storage, clock, invitations.games)
    with pytest.raises(UserFacingError) as refused:
        await challenge(restarted, CARL)
    assert refused.value.key == "error.cooldown"
    clock.advance(21)
    await challenge(restarted, CARL)
