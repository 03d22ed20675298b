"""The test driver: what users do in Discord's client, sent to the bot as real interactions.

``await driver.slash(alice, "mattekrig start", mode="regnekrig")`` builds the
INTERACTION_CREATE Discord would send — from the commands the bot actually registered, so an
unsynced command or a wrong option fails here as it would for a user — dispatches it over the
gateway and, by default, waits until the bot's initial response arrives (or Discord's 3-second
window passes). Things a Discord client would not let a user do (press a button that is not on
the message, pick a value not offered, submit a required field empty) raise ``LookupError`` /
``ValueError`` in the driver instead of reaching the bot.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from . import payloads
from .component_checks import walk_components
from .limits import ANSWER_WINDOW, SELECT_TYPES, TEXT_INPUT
from .server import FakeDiscord
from .state import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeRole,
    FakeUser,
)

UserLike = FakeUser | str
# Only a guard against a hang: an answer is settled long before, when its window has closed.
PATIENCE_S = 60.0
Value = Any


class Driver:
    """Sends users' actions to the bot through the fake gateway (``driver`` fixture)."""

    def __init__(self, fake: FakeDiscord, *, answer_timeout: float = ANSWER_WINDOW + 0.5) -> None:
        self.fake = fake
        self.answer_timeout = answer_timeout

    # -- public actions -----------------------------------------------------------------------

    async def slash(
        self,
        user: UserLike,
        command: str,
        *,
        channel: FakeChannel | None = None,
        options: Mapping[str, Value] | None = None,
        locale: str | None = None,
        wait: bool = True,
        age: float = 0.0,
        **kwargs: Value,
    ) -> FakeInteraction:
        """Run ``/command`` (e.g. ``"mattekrig start"``) with options as keyword arguments (or
        ``options=`` for names that are not identifiers). Values: str/int/float/bool,
        ``FakeUser``/``FakeChannel``/``FakeRole``, or ``(filename, bytes)`` for attachments."""
        channel = channel or self.fake.channel
        names = command.split()
        found = self._command(names[0], channel.guild_id)
        values = {**(options or {}), **kwargs}
        resolved: dict[str, dict[str, Any]] = {}
        data: dict[str, Any] = {
            "id": str(found.id),
            "name": found.name,
            "type": found.type,
            "options": self._options(found.data, names[1:], values, resolved, command),
        }
        if found.guild_id is not None:
            data["guild_id"] = str(found.guild_id)
        if resolved:
            data["resolved"] = resolved
        interaction = await self._send(
            APPLICATION_COMMAND, self._user(user), channel, data, locale=locale, age=age
        )
        return await self._maybe_wait(interaction, wait)

    async def autocomplete(
        self,
        user: UserLike,
        command: str,
        focused: str,
        value: str = "",
        *,
        channel: FakeChannel | None = None,
        options: Mapping[str, Value] | None = None,
        locale: str | None = None,
        **kwargs: Value,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused``; returns the choices the bot offered."""
        channel = channel or self.fake.channel
        names = command.split()
        found = self._command(names[0], channel.guild_id)
        resolved: dict[str, dict[str, Any]] = {}
        values = {**(options or {}), **kwargs}
        built = self._options(
            found.data, names[1:], values, resolved, command, partial=True, focused=(focused, value)
        )
        data: dict[str, Any] = {
            "id": str(found.id),
            "name": found.name,
            "type": found.type,
            "options": built,
        }
        if found.guild_id is not None:
            data["guild_id"] = str(found.guild_id)
        interaction = await self._send(
            AUTOCOMPLETE, self._user(user), channel, data, locale=locale, age=0.0
        )
        await self.answered(interaction)
        return list(interaction.choices or [])

    async def click(
        self,
        user: UserLike,
        message: FakeMessage | int,
        custom_id: str,
        *,
        locale: str | None = None,
        wait: bool = True,
        age: float = 0.0,
        seen: Mapping[str, Any] | None = None,
    ) -> FakeInteraction:
        """Press the button ``custom_id`` on ``message`` (as it looks now). ``seen``: the
        press was made on an earlier version of the message (one of its ``history``
        snapshots), which must have had the button; Discord delivers such a press with the
        message as it is *now* (two pupils pressing at the same moment: the first press moved
        the board on before the second arrived)."""
        actor = self._user(user)
        current = self._visible_message(message, actor)
        component = self._component(current, custom_id, {2}, seen)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if "id" in component:
            data["id"] = component["id"]
        channel = self.fake.world.channel_by_id(current.channel_id)
        interaction = await self._send(
            MESSAGE_COMPONENT, actor, channel, data, locale=locale, age=age, message=current
        )
        return await self._maybe_wait(interaction, wait)

    async def select(
        self,
        user: UserLike,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel],
        *,
        locale: str | None = None,
        wait: bool = True,
        age: float = 0.0,
        seen: Mapping[str, Any] | None = None,
    ) -> FakeInteraction:
        """Pick ``values`` in the select menu ``custom_id`` (option values for string selects;
        users/roles/channels for the others), within its min/max. ``seen``: picked on an
        earlier version of the message, as for `click`."""
        actor = self._user(user)
        current = self._visible_message(message, actor)
        component = self._component(current, custom_id, set(SELECT_TYPES), seen)
        kind = int(component["type"])
        low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        resolved: dict[str, dict[str, Any]] = {}
        chosen: list[str] = []
        for value in values:
            if kind == 3:
                offered = [o.get("value") for o in component.get("options", [])]
                if value not in offered:
                    raise ValueError(f"{value!r} is not an option of {custom_id!r}: {offered}")
                chosen.append(str(value))
            else:
                chosen.append(self._resolve(value, resolved, current.guild_id))
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind, "values": chosen}
        if resolved:
            data["resolved"] = resolved
        channel = self.fake.world.channel_by_id(current.channel_id)
        interaction = await self._send(
            MESSAGE_COMPONENT, actor, channel, data, locale=locale, age=age, message=current
        )
        return await self._maybe_wait(interaction, wait)

    async def submit_modal(
        self,
        user: UserLike,
        modal: FakeModal | FakeInteraction,
        values: Mapping[str, str | Sequence[str]],
        *,
        locale: str | None = None,
        wait: bool = True,
        age: float = 0.0,
    ) -> FakeInteraction:
        """Fill in and submit a modal the bot opened (``interaction.modal``); ``values`` maps
        each input's custom_id to its text (or a list of values for a select in a label)."""
        if isinstance(modal, FakeInteraction):
            if modal.modal is None:
                raise LookupError("the bot did not answer this interaction with a modal")
            modal = modal.modal
        actor = self._user(user)
        opener = modal.interaction
        if actor.id != opener.user.id:
            raise LookupError("only the user who opened a modal can submit it")
        known = {c.get("custom_id") for c in modal.inputs()}
        unknown = set(values) - known
        if unknown:
            raise KeyError(f"modal {modal.custom_id!r} has no inputs {sorted(unknown)}")
        components = [self._submitted(c, values) for c in modal.components]
        data = {"custom_id": modal.custom_id, "components": [c for c in components if c]}
        channel = self.fake.world.channel_by_id(opener.channel_id)
        message = None
        if opener.message is not None:
            message = self.fake.world.messages.get(opener.message.id)
        interaction = await self._send(
            MODAL_SUBMIT, actor, channel, data, locale=locale, age=age, message=message
        )
        return await self._maybe_wait(interaction, wait)

    async def hostile(
        self,
        user: UserLike,
        kind: int,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
        command: str | None = None,
        locale: str | None = None,
        wait: bool = True,
    ) -> FakeInteraction:
        """Send an interaction payload exactly as given, unchecked: what a modified client
        or a broken proxy might send, and Discord itself never would (fuzz tests). For
        ``command``, the registered command's id, name and type are filled in."""
        channel = self.fake.channel
        if message is not None:
            channel = self.fake.world.channel_by_id(message.channel_id)
        if command is not None:
            found = self._command(command, channel.guild_id)
            data = {"id": str(found.id), "name": found.name, "type": found.type, **data}
        interaction = await self._send(
            kind, self._user(user), channel, data, locale=locale, age=0.0, message=message
        )
        return await self._maybe_wait(interaction, wait)

    async def answered(
        self, interaction: FakeInteraction, *, timeout: float | None = None
    ) -> FakeInteraction:
        """Wait until the bot's initial response was accepted or refused, or until half a
        second after the fake would refuse it (its 3-second window, on the fake's count: see
        clock.py), or ``timeout`` seconds when given. Never raises: check
        ``interaction.answered``."""
        world = self.fake.world
        if timeout is None:
            late = self.answer_timeout

            def settled() -> bool:
                return (
                    interaction.answered
                    or bool(interaction.rejected)
                    or world.older_than(interaction, late)
                )
        else:

            def settled() -> bool:
                return interaction.answered or bool(interaction.rejected)

        with contextlib.suppress(TimeoutError):
            await self.fake.wait_until(
                settled,
                timeout=PATIENCE_S if timeout is None else timeout,
                what=f"an answer to interaction {interaction.id}",
            )
        return interaction

    # -- building interactions ----------------------------------------------------------------

    async def _maybe_wait(self, interaction: FakeInteraction, wait: bool) -> FakeInteraction:
        return await self.answered(interaction) if wait else interaction

    def _user(self, user: UserLike) -> FakeUser:
        return self.fake.user(user) if isinstance(user, str) else user

    def _command(self, name: str, guild_id: int) -> FakeCommand:
        for command in self.fake.world.commands_for(guild_id):
            if command.type == 1 and command.name == name:
                return command
        registered = [c.name for c in self.fake.world.commands_for(guild_id)]
        raise LookupError(
            f"no slash command {name!r} is registered for this guild (did the bot sync its "
            f"command tree?); registered: {registered}"
        )

    def _options(
        self,
        schema: Mapping[str, Any],
        path: Sequence[str],
        values: Mapping[str, Value],
        resolved: dict[str, dict[str, Any]],
        command: str,
        *,
        partial: bool = False,
        focused: tuple[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        declared = list(schema.get("options") or [])
        if path:
            for option in declared:
                if option.get("type") in (1, 2) and option.get("name") == path[0]:
                    inner = self._options(
                        option,
                        path[1:],
                        values,
                        resolved,
                        command,
                        partial=partial,
                        focused=focused,
                    )
                    return [{"type": option["type"], "name": option["name"], "options": inner}]
            raise LookupError(f"/{command}: no subcommand {path[0]!r}")
        if any(o.get("type") in (1, 2) for o in declared):
            subs = [o["name"] for o in declared if o.get("type") in (1, 2)]
            raise LookupError(f"/{command} needs a subcommand: {subs}")
        by_name = {o["name"]: o for o in declared}
        unknown = set(values) - set(by_name)
        if focused is not None:
            unknown.discard(focused[0])
        if unknown:
            raise TypeError(f"/{command} has no options {sorted(unknown)}; it has {list(by_name)}")
        built: list[dict[str, Any]] = []
        for name, option in by_name.items():
            if focused is not None and name == focused[0]:
                built.append(
                    {"name": name, "type": option["type"], "value": focused[1], "focused": True}
                )
            elif name in values:
                value = self._option_value(option, values[name], resolved, command)
                built.append({"name": name, "type": option["type"], "value": value})
            elif option.get("required") and not partial:
                raise TypeError(f"/{command} requires option {name!r}")
        return built

    def _option_value(
        self,
        option: Mapping[str, Any],
        value: Value,
        resolved: dict[str, dict[str, Any]],
        command: str,
    ) -> Any:
        kind = option["type"]
        name = option["name"]
        if kind == 3:
            if not isinstance(value, str):
                raise TypeError(f"/{command} {name}: expected a string, got {value!r}")
            low, high = option.get("min_length", 0), option.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise ValueError(f"/{command} {name}: length must be {low}..{high}")
        elif kind in (4, 10):
            ok = isinstance(value, int) if kind == 4 else isinstance(value, int | float)
            if not ok or isinstance(value, bool):
                raise TypeError(f"/{command} {name}: expected a number, got {value!r}")
            low, high = option.get("min_value"), option.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"/{command} {name}: must be within {low}..{high}")
        elif kind == 5:
            if not isinstance(value, bool):
                raise TypeError(f"/{command} {name}: expected a bool, got {value!r}")
        elif kind in (6, 7, 8, 9):
            return self._resolve(value, resolved, self.fake.guild.id)
        elif kind == 11:
            filename, data = value
            return self._resolve_attachment(filename, data, resolved)
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            offered = [c["value"] for c in choices]
            raise ValueError(f"/{command} {name}: {value!r} is not one of {offered}")
        return value

    def _resolve(
        self,
        value: FakeUser | FakeRole | FakeChannel | str,
        resolved: dict[str, dict[str, Any]],
        guild_id: int | None,
    ) -> str:
        """Put a user/role/channel into ``resolved`` (as Discord does) and return its id."""
        world = self.fake.world
        guild = world.guilds[guild_id] if guild_id is not None else world.guild
        if isinstance(value, str):
            value = world.user(value)
        if isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = payloads.user(value)
            member = payloads.member(world, value, guild, with_user=False)
            member["permissions"] = str(world.permissions(value, guild))
            resolved.setdefault("members", {})[str(value.id)] = member
        elif isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = payloads.role(value)
        elif isinstance(value, FakeChannel):
            channel = payloads.channel(value)
            channel["permissions"] = str(world.channel_permissions(world.bot_user, value))
            resolved.setdefault("channels", {})[str(value.id)] = channel
        else:
            raise TypeError(f"cannot resolve {value!r}")
        return str(value.id)

    def _resolve_attachment(
        self, filename: str, data: bytes, resolved: dict[str, dict[str, Any]]
    ) -> str:
        attachment: FakeAttachment = self.fake.world.new_attachment(
            filename, data, channel_id=self.fake.channel.id, ephemeral=True
        )
        resolved.setdefault("attachments", {})[str(attachment.id)] = payloads.attachment(attachment)
        return str(attachment.id)

    def _visible_message(self, message: FakeMessage | int, user: FakeUser) -> FakeMessage:
        message_id = message if isinstance(message, int) else message.id
        current = self.fake.world.messages.get(message_id)
        if current is None or current.deleted:
            raise LookupError(f"message {message_id} does not exist (deleted?)")
        if current.ephemeral and current.interaction_id is not None:
            owner = self.fake.world.interactions[current.interaction_id].user
            if owner.id != user.id:
                raise LookupError("an ephemeral message is only visible to its user")
        return current

    @staticmethod
    def _component(
        message: FakeMessage,
        custom_id: str,
        kinds: set[int],
        seen: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The component as the user saw it: on the message now, or on the earlier version
        ``seen`` (a snapshot from the message's ``history``)."""
        if seen is None:
            component = message.component(custom_id)
            offered = message.custom_ids()
        else:
            shown = [dict(c) for c in walk_components(seen.get("components") or [])]
            component = next((c for c in shown if c.get("custom_id") == custom_id), None)
            offered = [c["custom_id"] for c in shown if "custom_id" in c]
        if component is None or component.get("type") not in kinds:
            raise LookupError(
                f"message {message.id} has no such component {custom_id!r}; it has {offered}"
            )
        if component.get("disabled"):
            raise LookupError(f"component {custom_id!r} is disabled")
        return component

    @staticmethod
    def _submitted(
        component: Mapping[str, Any], values: Mapping[str, str | Sequence[str]]
    ) -> dict[str, Any] | None:
        """One top-level modal component as Discord submits it (row or label)."""
        kind = component.get("type")
        if kind == 1:
            inputs = [Driver._input_value(c, values) for c in component.get("components", [])]
            return {"type": 1, "components": inputs}
        if kind == 18:
            submitted: dict[str, Any] = {
                "type": 18,
                "component": Driver._input_value(component["component"], values),
            }
            if "id" in component:
                submitted["id"] = component["id"]
            return submitted
        if "id" in component:
            return {"type": kind, "id": component["id"]}
        return None

    @staticmethod
    def _input_value(
        component: Mapping[str, Any], values: Mapping[str, str | Sequence[str]]
    ) -> dict[str, Any]:
        custom_id = component.get("custom_id")
        kind = component.get("type")
        out: dict[str, Any] = {"type": kind, "custom_id": custom_id}
        if "id" in component:
            out["id"] = component["id"]
        given = values.get(str(custom_id))
        if kind == TEXT_INPUT:
            text = str(given) if given is not None else str(component.get("value") or "")
            required = component.get("required", True)
            if required and not text:
                raise ValueError(f"modal input {custom_id!r} is required")
            low = int(component.get("min_length") or 0)
            high = int(component.get("max_length") or 4000)
            if text and not low <= len(text) <= high:
                raise ValueError(f"modal input {custom_id!r} must be {low}..{high} characters")
            out["value"] = text
        elif kind in SELECT_TYPES:
            chosen = [given] if isinstance(given, str) else list(given or [])
            low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
            if component.get("required", True) and not low <= len(chosen) <= high:
                raise ValueError(f"modal select {custom_id!r} takes {low}..{high} values")
            out["values"] = chosen
        else:
            out["value"] = given
        return out

    async def _send(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        locale: str | None,
        age: float,
        message: FakeMessage | None = None,
    ) -> FakeInteraction:
        """Mint the interaction (a snowflake ``age`` seconds old), record it and dispatch it."""
        fake = self.fake
        world = fake.world
        if not fake.gateway.sessions:
            raise RuntimeError("no bot is connected to the fake gateway (start the client first)")
        now, waits = fake.clock.mark()
        created = now - age
        interaction_id = fake.ids.next() if age == 0 else fake.ids.at(created)
        token = world.new_interaction_token(interaction_id)
        guild = world.guilds[channel.guild_id]
        member = payloads.member(world, user, guild)
        member["permissions"] = str(world.channel_permissions(user, channel))
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(world.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": payloads.channel(channel),
            "member": member,
            "locale": locale or user.locale,
            "guild_locale": guild.preferred_locale,
            "app_permissions": str(world.channel_permissions(world.bot_user, channel)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": world.attachment_size_limit,
        }
        if message is not None:
            payload["message"] = payloads.message(world, message)
        interaction = FakeInteraction(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            guild_id=guild.id,
            channel_id=channel.id,
            created_at=created,
            payload=payload,
            message=message,
            created_waits=waits,
        )
        world.add_interaction(interaction)
        await fake.gateway.dispatch("INTERACTION_CREATE", payload)
        return interaction
