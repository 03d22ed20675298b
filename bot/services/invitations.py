"""Challenges (named classmates accept or decline) and lobbies (anyone joins), until a game
starts. Rules against pestering: one open challenge or lobby per host, a short cooldown
between challenges, and every invitation expires (challenge 2 minutes, lobby 10)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from bot.services.clock import Clock
from bot.services.games import GameService
from bot.services.live import GameUpdate
from classroom.errors import UserFacingError
from classroom.settings import GameSettings, settings_from_options, team_order
from storage import Invitation as Invitation  # the service's own type, for the Discord layer
from storage import InvitationClosedError, LobbyFullError, Player
from storage.contract import Store

CHALLENGE_MS = 2 * 60_000
LOBBY_MS = 10 * 60_000
COOLDOWN_MS = 20_000
MAX_PLAYERS = 4
TEAM_PLAYERS = 4


def players_for(
    user_ids: list[int], names: Mapping[str, str], *, teams: bool
) -> tuple[list[Player], int]:
    """Seats in order (the host first); with teams, seats 0 and 2 play seats 1 and 3 (RULES
    §1.2: four players play two teams of two). Returns the players and the number of sides."""
    players = [
        Player(
            seat=i,
            side=i % 2 if teams else i,
            display_name=names.get(str(uid), str(uid)),
            user_id=uid,
        )
        for i, uid in enumerate(user_ids)
    ]
    return players, 2 if teams else len(user_ids)


def game_settings(options: Mapping[str, Any], sides: int) -> Any:
    keys = (
        "game",
        "level",
        "deck",
        "mode",
        "war_size",
        "war_rule",
        "answer_form",
        "answer_seconds",
        "minutes",
        "locale",
        "teams",
        "computer",
        "answer_form",
        "preset",
    )
    return settings_from_options(**{k: options[k] for k in keys if k in options}, sides=sides)


def closed_key(kind: str) -> str:
    """A lobby is a table pupils join, a challenge one they answer: each is closed in its
    own words."""
    return "error.lobby_closed" if kind == "lobby" else "error.invitation_closed"


class InvitationService:
    def __init__(
        self,
        storage: Store,
        clock: Clock,
        games: GameService,
        *,
        timers_changed: Callable[[], None] = lambda: None,
    ) -> None:
        """``timers_changed`` wakes the scheduler when an expiry was added."""
        self.storage = storage
        self.clock = clock
        self.games = games
        self.timers_changed = timers_changed
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, invitation_id: int) -> asyncio.Lock:
        return self._locks.setdefault(invitation_id, asyncio.Lock())

    async def invitation(self, invitation_id: int) -> Invitation:
        """The challenge or lobby as stored, open or closed (a button checks its host)."""
        return await self.storage.load_invitation(invitation_id)

    async def set_message(self, invitation_id: int, message_id: int) -> None:
        """Remember the message that carries the invitation's buttons (edited on expiry)."""
        await self.storage.set_invitation_message(invitation_id, message_id, self.clock.now_ms())

    async def _check_host(self, host_id: int) -> None:
        for invitation in await self.storage.open_invitations_for_user(host_id):
            if invitation.host_id == host_id:
                raise UserFacingError("error.open_challenge")

    # -- challenges ----------

    async def challenge(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        invited: list[int],
        options: dict[str, Any],
        names: Mapping[int, str],
        cooldown: bool = True,
    ) -> Invitation:
        """``cooldown`` False: a rematch, which the players just asked for by finishing a game."""
        if host_id in invited:
            raise UserFacingError("error.challenge_self")
        if len(set(invited)) != len(invited) or len(invited) + 1 > MAX_PLAYERS:
            raise UserFacingError("error.bad_option", option="opponent")
        if options.get("teams") and len(invited) + 1 != TEAM_PLAYERS:
            raise UserFacingError("error.teams_need_four")
        now = self.clock.now_ms()
        last = await self.storage.last_challenge_at(host_id)
        if cooldown and last is not None and now - last < COOLDOWN_MS:
            seconds = (COOLDOWN_MS - (now - last) + 999) // 1000
            raise UserFacingError("error.cooldown", count=seconds)
        await self._check_host(host_id)
        options = {**options, "names": {str(k): v for k, v in names.items()}}
        invitation_id = await self.storage.create_challenge(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            invited=invited,
            options=options,
            at=now,
            expires_at=now + CHALLENGE_MS,
        )
        self.timers_changed()
        return await self.storage.load_invitation(invitation_id)

    async def answer(self, invitation_id: int, user_id: int, *, accept: bool) -> Invitation:
        """An invited classmate accepts or declines; one decline ends the challenge. When every
        invited player has accepted, `Invitation.all_accepted` is true: start it with `begin`."""
        async with self._lock(invitation_id):
            invitation = await self._open(invitation_id)
            if user_id == invitation.host_id and accept:
                raise UserFacingError("error.accept_own")
            if user_id not in invitation.user_ids():
                raise UserFacingError("error.not_invited")
            now = self.clock.now_ms()
            invitation = await self.storage.answer_challenge(
                invitation_id, user_id, accept=accept, at=now
            )
            if not accept:
                invitation = await self._close(invitation, "declined")
            return invitation

    async def withdraw(self, invitation_id: int, user_id: int) -> Invitation:
        return await self._closed_by_host(invitation_id, user_id, "withdrawn")

    # -- lobbies ----------

    async def lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        host_name: str,
    ) -> Invitation:
        await self._check_host(host_id)
        now = self.clock.now_ms()
        invitation_id = await self.storage.create_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            options={**options, "names": {str(host_id): host_name}},
            at=now,
            expires_at=now + LOBBY_MS,
            joined=[host_id],
        )
        self.timers_changed()
        return await self.storage.load_invitation(invitation_id)

    async def join(self, invitation_id: int, user_id: int, name: str) -> Invitation:
        async with self._lock(invitation_id):
            invitation = await self._open(invitation_id)
            if user_id in invitation.user_ids():
                return invitation
            now = self.clock.now_ms()
            try:
                await self.storage.join_lobby(invitation_id, user_id, now, capacity=MAX_PLAYERS)
            except LobbyFullError:
                raise UserFacingError("error.lobby_full") from None
            names = {**invitation.options.get("names", {}), str(user_id): name}
            return await self.storage.update_invitation_options(
                invitation_id, {**invitation.options, "names": names}, now
            )

    async def leave(self, invitation_id: int, user_id: int) -> Invitation:
        async with self._lock(invitation_id):
            invitation = await self._open(invitation_id)
            if user_id == invitation.host_id:
                return await self._close(invitation, "cancelled")
            return await self.storage.leave_lobby(invitation_id, user_id, self.clock.now_ms())

    async def choose_partner(self, invitation_id: int, user_id: int, partner: int) -> Invitation:
        """The host picks their team-mate in a teams lobby (the other two form the other team)."""
        async with self._lock(invitation_id):
            invitation = await self._open(invitation_id)
            if user_id != invitation.host_id:
                raise UserFacingError("error.not_host")
            if partner == user_id or partner not in invitation.user_ids("joined"):
                raise UserFacingError("error.not_joined")
            options = {**invitation.options, "partner": partner}
            return await self.storage.update_invitation_options(
                invitation_id, options, self.clock.now_ms()
            )

    async def cancel(self, invitation_id: int, user_id: int) -> Invitation:
        return await self._closed_by_host(invitation_id, user_id, "cancelled")

    # -- starting the game ----------

    async def begin(
        self, invitation_id: int, user_id: int | None, *, thread_id: int | None = None
    ) -> tuple[Invitation, GameUpdate]:
        """Start the game of a fully accepted challenge, or of a lobby (its host, 2–4 joined).
        `user_id` None: the service itself starts it (the last accept)."""
        async with self._lock(invitation_id):
            invitation = await self._open(invitation_id)
            if invitation.kind == "challenge":
                if not invitation.all_accepted:
                    raise UserFacingError("error.invitation_closed")
                user_ids = [invitation.host_id, *invitation.user_ids("accepted")]
            else:
                if user_id is not None and user_id != invitation.host_id:
                    raise UserFacingError("error.not_host")
                user_ids = list(invitation.user_ids("joined"))
                if not 2 <= len(user_ids) <= MAX_PLAYERS:
                    raise UserFacingError("error.lobby_size")
            options = invitation.options
            # RULES §1.2: teams are two against two; a teams lobby never becomes a free-for-all.
            if options.get("teams") and len(user_ids) != TEAM_PLAYERS:
                raise UserFacingError("error.teams_need_four")
            teams = bool(options.get("teams"))
            if teams:
                user_ids = team_order(user_ids, options.get("partner"))
            players, sides = players_for(user_ids, options.get("names", {}), teams=teams)
            update = await self.games.start(
                guild_id=invitation.guild_id,
                channel_id=invitation.channel_id,
                thread_id=thread_id,
                settings=game_settings({**options, "teams": teams}, sides),
                players=players,
            )
            invitation = await self.storage.close_invitation(
                invitation_id, "started", self.clock.now_ms(), game_id=update.game.id
            )
            return invitation, update

    async def versus_computer(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        computer_name: str,
        options: dict[str, Any],
        thread_id: int | None = None,
    ) -> GameUpdate:
        """A game against the computer starts at once."""
        strength = options["computer"]
        players = [
            Player(seat=0, side=0, display_name=host_name, user_id=host_id),
            Player(seat=1, side=1, display_name=computer_name, computer=strength),
        ]
        return await self.games.start(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            settings=game_settings({**options, "teams": False}, 2),
            players=players,
        )

    async def rematch(self, game_id: int, user_id: int) -> Invitation | GameUpdate:
        """A new challenge to the same players with the same settings (nobody is
        conscripted: they accept or decline as usual); against the computer, which accepts at
        once, the new game starts now."""
        async with self._lock(-game_id):  # both pressing at once: one challenge
            return await self._rematch(game_id, user_id)

    async def _rematch(self, game_id: int, user_id: int) -> Invitation | GameUpdate:
        stored = await self.storage.load_game(game_id)
        me = stored.player_for(user_id)
        if me is None:
            raise UserFacingError("error.not_a_player")
        if stored.status == "live":  # a rematch is for a game that is over (a forged press)
            raise UserFacingError("error.channel_busy")
        settings = GameSettings.from_json(stored.config)
        others = [p for p in stored.players if p.user_id is not None and p.user_id != user_id]
        # Both pressed Rematch: the second press accepts the first one's challenge.
        players = {p.user_id for p in stored.players if p.user_id is not None}
        for open_ in await self.storage.open_invitations_for_user(user_id):
            same = set(open_.user_ids()) | {open_.host_id} == players
            if open_.kind == "challenge" and user_id != open_.host_id and same:
                return await self.answer(open_.id, user_id, accept=True)
        if not others:
            return await self.games.start(
                guild_id=stored.guild_id,
                channel_id=stored.channel_id,
                thread_id=stored.thread_id,
                settings=settings,
                players=list(stored.players),
            )
        engine = settings.engine.to_json()
        options: dict[str, Any] = {
            key: engine[key]
            for key in ("game", "level", "deck", "mode", "war_size", "war_rule")
            if key in engine
        }
        options.update(
            answer_seconds=settings.answer_seconds,
            minutes=settings.minutes,
            locale=settings.locale,
            teams=settings.teams,
            thread=False,
        )
        if settings.teams:
            mates = [p.user_id for p in others if p.side == me.side]
            if mates:
                options["partner"] = mates[0]
        names = {p.user_id: p.display_name for p in stored.players if p.user_id is not None}
        return await self.challenge(
            guild_id=stored.guild_id,
            channel_id=stored.home_channel_id,
            host_id=user_id,
            invited=[p.user_id for p in others if p.user_id is not None],
            options=options,
            names=names,
            cooldown=False,
        )

    # -- expiry ----------

    async def expire_due(self) -> list[Invitation]:
        return await self.storage.expire_invitations(self.clock.now_ms())

    async def next_expiry_ms(self) -> int | None:
        open_ = await self.storage.open_invitations()
        return min((i.expires_at for i in open_), default=None)

    async def _open(self, invitation_id: int) -> Invitation:
        invitation = await self.storage.load_invitation(invitation_id)
        if invitation.status != "open" or invitation.expires_at <= self.clock.now_ms():
            raise UserFacingError(closed_key(invitation.kind))
        return invitation

    async def _closed_by_host(self, invitation_id: int, user_id: int, status: Any) -> Invitation:
        """An open challenge withdrawn, or an open lobby cancelled: by its host only."""
        async with self._lock(invitation_id):
            invitation = await self._open(invitation_id)
            if user_id != invitation.host_id:
                raise UserFacingError("error.not_host")
            return await self._close(invitation, status)

    async def _close(self, invitation: Invitation, status: Any) -> Invitation:
        """Close ``invitation`` (as `_open` found it: its kind names the refusal)."""
        try:
            return await self.storage.close_invitation(invitation.id, status, self.clock.now_ms())
        except InvitationClosedError:
            raise UserFacingError(closed_key(invitation.kind)) from None
