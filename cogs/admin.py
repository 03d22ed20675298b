"""`/mattekrig admin season | settings | void | report`: the teacher's controls.

A subgroup of ``/mattekrig`` (attached as ``Mattekrig.admin``). Discord applies
``default_member_permissions`` to top-level commands only, so it cannot hide a subgroup from
pupils: ``default_permissions`` below documents the intent, and the real guard is here and in
`AdminService` (every method takes ``manager``, the caller's actual Manage Server permission,
and refuses with ``admin.not_allowed``). Every answer is private to the teacher.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.app import App
from bot.render.admin import render_presets, render_season_confirm, render_settings
from bot.render.assignments import render_assignments
from bot.render.report import mistake_name, op_names, render_report
from bot.render.sessions import render_session_started
from bot.replies import reply_with
from bot.services.admin import ANSWER_FORMS, VISIBILITIES, SettingsChange
from bot.services.figures import SORTS as BOARD_SORTS
from bot.services.report import report_rows_csv, report_trend_csv
from bot.services.teachers import ACCOMMODATIONS, PRESET_NAME_MAX
from bot.translator import choice, ls
from bot.ui.guild import home_channel_id, house_rules, is_manager, require_guild
from classroom.errors import UserFacingError
from classroom.i18n import LANGS, t
from classroom.periods import local_time
from engine.computer import Strength
from engine.levels import AnswerForm
from engine.options import ANSWER_TIME, DECK, LEVEL, MODE, TIME_LIMIT, WAR_SIZE
from engine.registry import GAMES

LANGUAGE_CHOICES = (*LANGS, "server")  # a language, or the server's own (Discord's)
MAX_GAME_ID = 2**53 - 1  # Discord's largest integer option
NO_PINGS = discord.AllowedMentions.none()


def _manager(interaction: discord.Interaction[App]) -> tuple[int, bool]:
    """The server and True, or a refusal before anything is deferred or loaded."""
    guild_id = require_guild(interaction)
    if not is_manager(interaction):
        raise UserFacingError("admin.not_allowed")
    return guild_id, True


async def _named_choices(
    interaction: discord.Interaction[App], current: str
) -> list[app_commands.Choice[str]]:
    """The server's named presets containing what the teacher typed (only for managers:
    a pupil's autocomplete lists nothing)."""
    if interaction.guild_id is None or not is_manager(interaction):
        return []
    names = await interaction.client.teachers.preset_names(interaction.guild_id, current)
    return [app_commands.Choice(name=n, value=n) for n in names]


async def _private(interaction: discord.Interaction[App], embed: discord.Embed) -> None:
    """Every teacher's screen is for the teacher's eyes only."""
    await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)


class AdminGroup(
    app_commands.Group,
    name="admin",
    description=ls("group.admin.desc"),
    guild_only=True,
    default_permissions=discord.Permissions(manage_guild=True),
):
    @app_commands.command(name="season", description=ls("cmd.admin.season.desc"))
    async def season(self, interaction: discord.Interaction[App]) -> None:
        """Shows the running season and asks before starting the next (see `SeasonItem`)."""
        bot = interaction.client
        guild_id, _ = _manager(interaction)
        _, lang = await house_rules(interaction)
        current = await bot.admin.current_season(guild_id)
        question = render_season_confirm(guild_id, current, lang)
        await reply_with(interaction, question, private=True)

    @app_commands.command(name="settings", description=ls("cmd.admin.settings.desc"))
    @app_commands.describe(
        leaderboard=ls("cmd.admin.settings.opt.leaderboard.desc"),
        allow_channel=ls("cmd.admin.settings.opt.allow_channel.desc"),
        remove_channel=ls("cmd.admin.settings.opt.remove_channel.desc"),
        all_channels=ls("cmd.admin.settings.opt.all_channels.desc"),
        language=ls("cmd.admin.settings.opt.language.desc"),
        threads=ls("cmd.admin.settings.opt.threads.desc"),
        pings=ls("cmd.admin.settings.opt.pings.desc"),
        answer_form=ls("cmd.admin.settings.opt.answer_form.desc"),
        public_board=ls("cmd.admin.settings.opt.public_board.desc"),
        pictures=ls("cmd.admin.settings.opt.pictures.desc"),
    )
    @app_commands.choices(
        leaderboard=[choice("leaderboard", v) for v in VISIBILITIES],
        language=[choice("language", v) for v in LANGUAGE_CHOICES],
        answer_form=[choice("answer_form", v) for v in ANSWER_FORMS],
        public_board=[choice("sort", v) for v in BOARD_SORTS],
    )
    async def settings(
        self,
        interaction: discord.Interaction[App],
        leaderboard: str | None = None,
        allow_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
        language: str | None = None,
        threads: bool | None = None,
        pings: bool | None = None,
        answer_form: str | None = None,
        public_board: str | None = None,
        pictures: bool | None = None,
    ) -> None:
        """Without options: show the settings. With options: change those, show the result."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        settings, lang = await house_rules(interaction)
        changes: SettingsChange = {}
        if leaderboard is not None:
            changes["board"] = leaderboard
        if threads is not None:
            changes["threads"] = threads
        if pings is not None:
            changes["pings"] = pings
        if answer_form is not None:
            changes["answer_form"] = answer_form
        if public_board is not None:
            changes["public_board"] = public_board
        if pictures is not None:
            changes["pictures"] = pictures
        if language is not None:
            changes["language"] = None if language == "server" else language
        channels = list(settings.channels)
        if all_channels:
            channels = []
        if allow_channel is not None and allow_channel.id not in channels:
            channels.append(allow_channel.id)
        if remove_channel is not None and remove_channel.id in channels:
            channels.remove(remove_channel.id)
        if channels != list(settings.channels):
            changes["channels"] = channels
        if changes:
            settings = await bot.admin.update_settings(guild_id, manager=manager, **changes)
            _, lang = await house_rules(interaction)  # the language may have changed
        embed = render_settings(
            settings, lang, str(interaction.guild_locale or "en"), saved=bool(changes)
        )
        await _private(interaction, embed)

    @app_commands.command(name="void", description=ls("cmd.admin.void.desc"))
    @app_commands.describe(game=ls("cmd.admin.void.opt.game.desc"))
    async def void(
        self,
        interaction: discord.Interaction[App],
        game: app_commands.Range[int, 1, MAX_GAME_ID],
    ) -> None:
        """Takes back a result and its rating change (e.g. a game played for someone else)."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        _, lang = await house_rules(interaction)
        await bot.admin.void(guild_id, game, manager=manager)
        await interaction.response.send_message(
            t("admin.void.done", lang, game=game), ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="end", description=ls("cmd.admin.end.desc"))
    @app_commands.describe(game=ls("cmd.admin.end.opt.game.desc"))
    async def end(
        self,
        interaction: discord.Interaction[App],
        game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
    ) -> None:
        """Ends a game with no result (RULES §1.5: counted for nobody); logged by the service.
        Without a game number: the game in this channel, or in one of its threads (a class
        channel's games run in threads); where several run, the teacher is told their
        numbers to choose from."""
        bot = interaction.client
        guild_id, _ = _manager(interaction)
        _, lang = await house_rules(interaction)
        if game is None:
            here = interaction.channel_id or 0
            live = bot.games.in_channel(here)
            threads = [g for g in bot.games.in_threads_of(here) if g.record.guild_id == guild_id]
            if live is None and len(threads) > 1:
                numbers = ", ".join(f"#{g.id}" for g in threads)
                raise UserFacingError("error.which_game", games=numbers)
            if live is None and threads:
                live = threads[0]
        else:
            live = bot.games.games.get(game)
        if live is None or live.record.guild_id != guild_id:
            raise UserFacingError("error.no_game")
        update = await bot.games.end(live.id, interaction.user.id)
        await interaction.response.send_message(
            t("admin.end.done", lang, game=live.id), ephemeral=True, allowed_mentions=NO_PINGS
        )
        await bot.boards.refresh(update.game)

    @app_commands.command(name="report", description=ls("cmd.admin.report.desc"))
    @app_commands.describe(
        start=ls("cmd.admin.report.opt.start.desc"),
        end=ls("cmd.admin.report.opt.end.desc"),
        pupil=ls("cmd.admin.report.opt.pupil.desc"),
    )
    @app_commands.rename(start="from", end="to")
    async def report(
        self,
        interaction: discord.Interaction[App],
        start: str | None = None,
        end: str | None = None,
        pupil: discord.Member | None = None,
    ) -> None:
        """Whom to help: an overview and a page per pupil here, and three CSV files in the
        teacher's language (one line per pupil; one per pupil, level and operation; the
        class's kinds of mistakes week by week)."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        _, lang = await house_rules(interaction)
        days = bot.admin.report_days(start, end)
        await interaction.response.defer(ephemeral=True, thinking=True)
        detail = await bot.admin.class_report(
            guild_id, manager=manager, days=days, user_id=pupil.id if pupil else None
        )

        def named(code: str) -> str:
            return mistake_name(code, lang)

        text = await bot.admin.report_csv(guild_id, manager=manager, mistake_name=named, lang=lang)
        rows = report_rows_csv(detail, op_names(detail, lang), named, lang=lang)
        trend = report_trend_csv(detail, named, lang=lang)
        day = local_time(bot.clock.now_ms()).date().isoformat()
        files = [
            discord.File(io.BytesIO(text.encode("utf-8")), filename=f"mattekrig-{day}.csv"),
            discord.File(io.BytesIO(rows.encode("utf-8")), filename=f"mattekrig-{day}-detail.csv"),
            discord.File(io.BytesIO(trend.encode("utf-8")), filename=f"mattekrig-{day}-trend.csv"),
        ]
        page = render_report(detail, lang, guild_id=guild_id, days=days)
        await interaction.edit_original_response(
            content=t("admin.report.reply", lang),
            embeds=page.embeds,
            view=page.view,
            attachments=files,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="preset", description=ls("cmd.admin.preset.desc"))
    @app_commands.describe(
        game=ls("opt.game.desc"),
        level=ls("opt.level.desc"),
        deck=ls("opt.deck.desc"),
        mode=ls("opt.mode.desc"),
        answer_form=ls("cmd.admin.preset.opt.answer_form.desc"),
        answer_seconds=ls("opt.answer_seconds.desc"),
        war_size=ls("opt.war_size.desc"),
        minutes=ls("opt.minutes.desc"),
        computer=ls("cmd.admin.preset.opt.computer.desc"),
        locked=ls("cmd.admin.preset.opt.locked.desc"),
        server=ls("cmd.admin.preset.opt.server.desc"),
        clear=ls("cmd.admin.preset.opt.clear.desc"),
        name=ls("cmd.admin.preset.opt.name.desc"),
        save_as=ls("cmd.admin.preset.opt.save_as.desc"),
        delete=ls("cmd.admin.preset.opt.delete.desc"),
    )
    @app_commands.choices(
        game=[choice("game", g) for g in GAMES],
        deck=[choice("deck", d) for d in DECK.choices],
        mode=[choice("mode", m) for m in MODE.choices],
        answer_form=[choice("answer_form", f.value) for f in AnswerForm],
        computer=[choice("computer", s.value) for s in Strength],
    )
    @app_commands.autocomplete(name=_named_choices, delete=_named_choices)
    async def preset(
        self,
        interaction: discord.Interaction[App],
        game: str | None = None,
        level: app_commands.Range[int, LEVEL.low, LEVEL.high] | None = None,
        deck: str | None = None,
        mode: str | None = None,
        answer_form: str | None = None,
        answer_seconds: app_commands.Range[int, ANSWER_TIME.low, ANSWER_TIME.high] | None = None,
        war_size: app_commands.Range[int, WAR_SIZE.low, WAR_SIZE.high] | None = None,
        minutes: app_commands.Range[int, TIME_LIMIT.low, TIME_LIMIT.high] | None = None,
        computer: str | None = None,
        locked: bool = False,
        server: bool = False,
        clear: bool = False,
        name: app_commands.Range[str, 1, PRESET_NAME_MAX] | None = None,
        save_as: app_commands.Range[str, 1, PRESET_NAME_MAX] | None = None,
        delete: app_commands.Range[str, 1, PRESET_NAME_MAX] | None = None,
    ) -> None:
        """The class preset of this channel (``server``: of the whole server), or a named
        preset. Without options: show the presets; ``clear``: remove this one; ``name``:
        this channel (or server) gets a copy of that named preset; ``save_as``: the options
        are saved under a name instead (no channel changes); ``delete``: a named one goes."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        _, lang = await house_rules(interaction)
        channel_id = None if server else home_channel_id(interaction)
        options = {
            "game": game,
            "level": level,
            "deck": deck,
            "mode": mode,
            "answer_form": answer_form,
            "answer_seconds": answer_seconds,
            "war_size": war_size,
            "minutes": minutes,
            "computer": computer,
        }
        note = None
        if delete is not None:
            gone = await bot.teachers.delete_named(guild_id, delete, manager=manager)
            note = t("preset.deleted", lang, name=gone.name)
        elif save_as is not None:
            saved = await bot.teachers.save_named(
                guild_id, save_as, options, locked=locked, manager=manager
            )
            note = t("preset.saved_named", lang, name=saved.name)
        elif clear:
            await bot.teachers.clear_preset(guild_id, channel_id, manager=manager)
            note = t("preset.cleared", lang)
        elif any(v is not None for v in options.values()) or locked or name is not None:
            await bot.teachers.set_preset(
                guild_id, channel_id, options, locked=locked, manager=manager, named=name
            )
            note = t("admin.settings.saved", lang)
        presets = await bot.teachers.presets(guild_id, manager=manager)
        named = await bot.teachers.named_presets(guild_id)
        await _private(interaction, render_presets(presets, lang, note=note, named=named))

    @app_commands.command(name="accommodation", description=ls("cmd.admin.accommodation.desc"))
    @app_commands.describe(
        pupil=ls("cmd.admin.accommodation.opt.pupil.desc"),
        answer_time=ls("cmd.admin.accommodation.opt.answer_time.desc"),
    )
    @app_commands.choices(answer_time=[choice("accommodation", k) for k in ACCOMMODATIONS])
    async def accommodation(
        self,
        interaction: discord.Interaction[App],
        pupil: discord.Member,
        answer_time: str,
    ) -> None:
        """A pupil's own answer time, private to the teacher (the board shows the table's)."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        _, lang = await house_rules(interaction)
        await bot.teachers.set_accommodation(guild_id, pupil.id, answer_time, manager=manager)
        text = t(
            "accommodation.saved",
            lang,
            pupil=pupil.mention,
            time=t(f"choice.accommodation.{answer_time}", lang),
        )
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)

    @app_commands.command(name="session", description=ls("cmd.admin.session.desc"))
    @app_commands.describe(
        minutes=ls("cmd.admin.session.opt.minutes.desc"),
        preset=ls("cmd.admin.session.opt.preset.desc"),
    )
    @app_commands.autocomplete(preset=_named_choices)
    async def session(
        self,
        interaction: discord.Interaction[App],
        minutes: app_commands.Range[int, 1, 120],
        preset: app_commands.Range[str, 1, PRESET_NAME_MAX] | None = None,
    ) -> None:
        """A timed class round: every game started in the server until it ends, ends with it
        (and, with ``preset``, is played with that named preset, else each channel's);
        the summary is posted here afterwards."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        _, lang = await house_rules(interaction)
        started = await bot.sessions.start(
            guild_id, interaction.channel_id or 0, minutes, lang, manager=manager, preset=preset
        )
        bot.scheduler.wake()
        await interaction.response.send_message(
            render_session_started(started, lang), allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="assignment", description=ls("cmd.admin.assignment.desc"))
    @app_commands.describe(
        level=ls("cmd.admin.assignment.opt.level.desc"),
        rounds=ls("cmd.admin.assignment.opt.rounds.desc"),
        best_percent=ls("cmd.admin.assignment.opt.best_percent.desc"),
        days=ls("cmd.admin.assignment.opt.days.desc"),
    )
    async def assignment(
        self,
        interaction: discord.Interaction[App],
        level: app_commands.Range[int, LEVEL.low, LEVEL.high] | None = None,
        rounds: app_commands.Range[int, 1, 500] | None = None,
        best_percent: app_commands.Range[int, 0, 100] = 0,
        days: app_commands.Range[int, 1, 90] = 7,
    ) -> None:
        """With a level and rounds: set a Regnekrig assignment. Always: show every assignment
        with who has met it."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        _, lang = await house_rules(interaction)
        note = None
        if level is not None or rounds is not None:
            if level is None or rounds is None:
                raise UserFacingError("assignment.needs_goal")
            await bot.assignments.create(
                guild_id,
                level=level,
                rounds=rounds,
                best_percent=best_percent,
                days=days,
                manager=manager,
            )
            note = t("admin.settings.saved", lang)
        overview = await bot.assignments.overview(guild_id, manager=manager)
        await _private(interaction, render_assignments(overview, lang, note=note))
