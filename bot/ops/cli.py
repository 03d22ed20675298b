"""`mattekrig` (and `python -m bot`): run the bot, or check, sync, back up or restore it.

Exit codes: 0 done; 1 Discord could not be reached (try again later); 2 a problem the
operator must fix first (a setting, the token, the database, another bot on it), always
told in one sentence on standard error, never as a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import sqlite3
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import aiohttp
import discord

from bot.config import Config, StartupError, load_config
from bot.heartbeat import heartbeat_path, staleness
from bot.logs import setup_logging
from bot.ops.backup import LESSONS, RESTORE_COPY_DAYS, backup, restore
from bot.ops.check import offline, online
from bot.ops.lock import DatabaseLock
from bot.ops.startup import old_database_sentence, prepare
from bot.paths import old_default_database

log = logging.getLogger("bot")

COMMANDS = (
    "run", "check", "sync", "backup", "restore", "migrate-db", "privacy", "play", "class",
    "serve", "teachers",
)  # fmt: skip
UNREACHABLE = 1
UNHEALTHY = 1  # a health check's problem: Docker's "unhealthy" (it reserves 2)
PROBLEM = 2
LESSONS_HELP = "the class lessons' database (lessons.db, mattekrig class's), not the bot's"
REJECTED = (
    "Discord rejected DISCORD_TOKEN: reset the token in the Developer Portal (Bot → Reset "
    "Token) and put the new one in .env."
)


def version() -> str:
    try:
        return f"mattekrig {metadata.version('mattekrig')}"
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "mattekrig (not installed)"


def _say(text: str) -> None:
    print(f"mattekrig: {text}", file=sys.stderr)


class _Help(argparse.HelpFormatter):
    """Command names up to ``migrate-db``'s length keep their help on the same line."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog)
        self._action_max_length = 16


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="mattekrig",
        description="The Mattekrig Discord bot: maths card games for a school class.",
        epilog="Without a command, `run`. Exit codes: 0 done, 1 Discord unreachable, "
        "2 a problem to fix first (told in one sentence).",
        formatter_class=_Help,
    )
    top.add_argument("--version", action="version", version=version())
    commands = top.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("--version", action="version", version=version())
        return sub

    run = command("run", "start the bot (the default command)")
    run.add_argument("--sync", action="store_true", help="also sync slash commands globally")
    check = command(
        "check", "check settings, token and database and print what was found, then exit"
    )
    check.add_argument("--online", action="store_true", help="also log in to Discord once")
    check.add_argument(
        "--quiet", action="store_true", help="print only the problems (for a health check)"
    )
    check.add_argument(
        "--running",
        action="store_true",
        help="a problem unless a bot runs on this database and is connected to Discord now "
        "(for a health check)",
    )
    sync = command("sync", "register the slash commands with Discord, then exit")
    sync.add_argument(
        "--guild", type=int, metavar="ID", help="only in this server (at once), not globally"
    )
    copy = command("backup", "copy the database safely, even while the bot runs")
    copy.add_argument(
        "path", help="a new file, or a folder for a dated copy (ending in /: made if missing)"
    )
    copy.add_argument(
        "--keep",
        type=int,
        metavar="N",
        help="then delete all but the newest N dated backups in that folder",
    )
    copy.add_argument("--lessons", action="store_true", help=LESSONS_HELP)
    back = command("restore", "replace the database with a backup (the bot must be stopped)")
    back.add_argument("path", type=Path, help="the backup file")
    back.add_argument(
        "--lessons", action="store_true", help=LESSONS_HELP + " (no lesson may be running)"
    )
    move = command(
        "migrate-db", "copy a SQLite database into an empty PostgreSQL one (several processes)"
    )
    move.add_argument("--from", dest="source", required=True, metavar="sqlite:PATH")
    move.add_argument(
        "--to",
        dest="target",
        metavar="postgresql://…",
        help="the PostgreSQL database to fill (default: DATABASE_URL)",
    )
    privacy_commands(command("privacy", "export or delete a pupil's or a server's data"))
    # Listed here for --help; `main` hands `play …` and `class …` to the table's own
    # command line, `serve …` and `teachers …` to the school server's.
    commands.add_parser(
        "play",
        help="play in the browser on this computer: no Discord, no token (mattekrig play --help)",
        add_help=False,
    )
    commands.add_parser(
        "class",
        help="a class lesson: pupils join on their own devices (mattekrig class --help)",
        add_help=False,
    )
    commands.add_parser(
        "serve",
        help="the lesson server of a school, behind its HTTPS proxy (mattekrig serve --help)",
        add_help=False,
    )
    commands.add_parser(
        "teachers",
        help="the teachers who sign in to a school server (mattekrig teachers --help)",
        add_help=False,
    )
    return top


def snowflake(text: str) -> int:
    """A Discord id as typed on the command line (Developer Mode → Copy User ID)."""
    if not text.isdigit() or not 0 < int(text) < 2**64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a Discord id (digits only)")
    return int(text)


def privacy_commands(privacy: argparse.ArgumentParser) -> None:
    verbs = privacy.add_subparsers(dest="verb", metavar="VERB", required=True)
    export = verbs.add_parser(
        "export", help="write the file /mattekrig my-data gives (everything about a user)"
    )
    export.add_argument("user_id", type=snowflake, metavar="USER_ID")
    export.add_argument("--guild", type=snowflake, metavar="ID", help="only this server's rows")
    export.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="default: mattekrig-data-USER_ID.json here",
    )
    forget = verbs.add_parser("forget", help="delete everything /mattekrig forget-me deletes")
    forget.add_argument("user_id", type=snowflake, metavar="USER_ID")
    forget.add_argument("--guild", type=snowflake, metavar="ID", help="in this server only")
    forget.add_argument("--yes", action="store_true", help="do not ask first")
    server = verbs.add_parser("forget-guild", help="delete everything stored for a server")
    server.add_argument("guild_id", type=snowflake, metavar="GUILD_ID")
    server.add_argument("--yes", action="store_true", help="do not ask first")
    # A class of `mattekrig class --class NAME` or of a school server's teacher, in the lessons'
    # database (not the bot's).
    class_list = verbs.add_parser(
        "class-list", help="the classes kept: name, teacher, pupils, until when (no pupil's name)"
    )
    class_list.add_argument(
        "klass", metavar="CLASS", nargs="?", help="only this class, with its pupils' names"
    )
    _class_named(class_list)
    class_export = verbs.add_parser(
        "class-export", help="write everything kept of a lesson's class (or one pupil of it)"
    )
    class_export.add_argument("klass", metavar="CLASS")
    class_export.add_argument("--pupil", metavar="NAME", help="only this pupil")
    _class_named(class_export)
    class_export.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="default: mattekrig-class-CLASS.json"
    )
    class_forget = verbs.add_parser(
        "class-forget", help="forget a pupil of a lesson's class (roster, card, results)"
    )
    class_forget.add_argument("klass", metavar="CLASS")
    class_forget.add_argument("pupil", metavar="NAME")
    _class_named(class_forget)
    class_forget.add_argument("--yes", action="store_true", help="do not ask first")
    class_delete = verbs.add_parser(
        "class-delete", help="delete a lesson's class, its pupils, results and lessons"
    )
    class_delete.add_argument("klass", metavar="CLASS")
    _class_named(class_delete)
    class_delete.add_argument("--yes", action="store_true", help="do not ask first")


def _class_named(verb: argparse.ArgumentParser) -> None:
    """On a school server a class is its name and its teacher's: two teachers may each have 7B."""
    whose = verb.add_mutually_exclusive_group()
    whose.add_argument(
        "--teacher",
        metavar="NAME",
        help="the class of this school server teacher (as mattekrig teachers list or "
        "class-list names them; a removed teacher's too, while a class of theirs is kept)",
    )
    whose.add_argument(
        "--no-teacher",
        action="store_true",
        help="the class of mattekrig class, where a teacher has one of the same name too",
    )


def arguments(argv: list[str]) -> list[str]:
    """`mattekrig` and `mattekrig --sync` (the old form) mean `mattekrig run …`."""
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        return ["run", *argv]
    return argv


def _database_config(*, need_token: bool) -> Config:
    config = load_config(need_token=need_token)
    old = old_default_database(Path.cwd()) if config.database_is_default else None
    if old is not None:
        raise StartupError(old_database_sentence(old, config.database_path))
    return config


def _run(args: argparse.Namespace) -> int:
    ready = prepare()  # the checks `mattekrig check` reports; stops at the first problem
    config = ready.config
    if ready.report is None:  # PostgreSQL: reached and migrated by the checks; no lock file
        setup_logging(config.log_level, config.log_format, secrets=(config.token,))
        log.info("%s, database %s", version(), config.database_label)
        if ready.exposed:
            log.warning("%s", ready.exposed)
        return _start(config, args)
    with DatabaseLock(config.database_path) as lock:
        setup_logging(config.log_level, config.log_format, secrets=(config.token,))
        log.info("%s, database %s", version(), ready.report.summary())
        if ready.made_private:
            names = ", ".join(path.name for path in ready.made_private)
            log.warning("%s could be read by other users: made private (0600)", names)
        if ready.exposed:
            log.warning("%s", ready.exposed)
        return _start(config, args, boards_may_be_ahead=lock.boards_may_be_ahead)


def _start(config: Config, args: argparse.Namespace, *, boards_may_be_ahead: bool = False) -> int:
    # imported here, not at the top: check, backup and restore never load the client
    from bot.client import make_bot
    from storage import StorageError

    bot = make_bot(config, sync_global=args.sync, boards_may_be_ahead=boards_may_be_ahead)
    try:
        asyncio.run(bot.serve(config.token))  # SIGTERM and SIGINT: one clean stop
    except (sqlite3.Error, StorageError) as error:  # what the checks above cannot foresee
        raise StartupError(
            f"the database {config.database_label} could not be opened ({error})."
        ) from None
    return 0


def _check(args: argparse.Namespace) -> int:
    """Exit codes as `run`'s: an unreachable Discord alone is 1 (try again later), not 2
    (nothing for the operator to fix in the settings). As a health check (``--running``) every
    problem is 1: Docker reads 1 as unhealthy and reserves 2."""
    config, found = offline()
    unreachable = False
    if args.online and not found.problems:
        try:
            asyncio.run(online(config, found))
        except discord.LoginFailure:
            found.problems.append(REJECTED)
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            found.problems.append(f"cannot reach Discord ({error}); check the network.")
            unreachable = True
    if args.running and found.running is False:
        found.problems.append(f"no bot runs on the database {config.database_label} now.")
    elif found.bot and found.running is not False and not found.problems:
        # a bot that runs (SQLite: holds the lock; PostgreSQL: cannot be told) is healthy
        # only while it is connected to Discord (bot.heartbeat)
        stale = staleness(heartbeat_path(config))
        found.add("discord", stale or "the bot is connected (its last sign of life is recent)")
        if args.running and stale is not None:
            found.problems.append(stale)
    text = found.problem_text() if args.quiet else found.text()
    if text:
        print(text)
    if not found.problems:
        return 0
    if args.running:
        return UNHEALTHY
    return UNREACHABLE if unreachable and len(found.problems) == 1 else PROBLEM


def _sync(args: argparse.Namespace) -> int:
    config = load_config()
    setup_logging(config.log_level, config.log_format, secrets=(config.token,))
    from bot.ops.sync import CommandsOnly, sync_commands

    count = asyncio.run(sync_commands(CommandsOnly(config), config.token, args.guild))
    where = f"server {args.guild}" if args.guild else "every server (may take up to an hour)"
    print(f"synced {count} command(s) to {where}")
    return 0


def _lessons_database(doing: str) -> Path:
    """The lessons' SQLite file (`mattekrig class`'s), for ``--lessons``."""
    from storage.paths import lessons_database

    # the URL given in a secret file (DATABASE_URL_FILE, as systemd's credentials and
    # compose's secrets give it) or a `.env` counts too: else the SQLite file would be copied
    # while the lessons are in PostgreSQL
    if _lessons_url() is not None:
        raise StartupError(
            f"the lessons are kept in the PostgreSQL that DATABASE_URL names: {doing} it with "
            "the school's own database routine (pg_dump), not with mattekrig."
        )
    return lessons_database()


def _bot_database(verb: str) -> Path:
    """The bot's SQLite file. On PostgreSQL, backup and restore would have copied an unrelated
    file at DATABASE_PATH and said "backed up", while the real data went unsaved."""
    config = _database_config(need_token=False)
    if config.database_url is not None:
        raise StartupError(
            f"the database is PostgreSQL ({config.database_label}): {verb} it with "
            "PostgreSQL's own tools (pg_dump, pg_restore); `mattekrig backup` and `restore` "
            "copy a SQLite file."
        )
    return config.database_path


def _backup(args: argparse.Namespace) -> int:
    if args.lessons:
        database = _lessons_database("back up")
        copied = backup(database, args.path, keep=args.keep, name=LESSONS)
    else:
        database = _bot_database("back up")
        copied = backup(database, args.path, keep=args.keep)
    print(f"backed up {database} to {copied.path} (schema version {copied.version})")
    if copied.pruned:
        print(f"deleted {len(copied.pruned)} older backup(s): {', '.join(map(str, copied.pruned))}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    if args.lessons:
        copied = restore(args.path, _lessons_database("restore"), user="lesson (mattekrig class)")
    else:
        copied = restore(args.path, _bot_database("restore"))
    kept = f"; the database it replaced is kept as {copied.kept}" if copied.kept else ""
    print(f"restored {args.path} into {copied.path} (schema version {copied.version}){kept}")
    pupils, servers = copied.forgotten_again
    if pupils or servers:
        print(
            f"forgot again {pupils} pupil(s) and {servers} server(s) deleted after the backup "
            "was taken"
        )
    classes, class_pupils, lessons = copied.deleted_again
    if classes or class_pupils or lessons:
        print(
            f"deleted again {classes} class(es), {class_pupils} pupil(s) of a class and "
            f"{lessons} lesson(s) deleted after the backup was taken"
        )
    if copied.pruned:
        names = ", ".join(map(str, copied.pruned))
        print(
            f"deleted {len(copied.pruned)} copy(ies) kept by a restore over "
            f"{RESTORE_COPY_DAYS} days ago: {names}"
        )
    return 0


def _migrate_db(args: argparse.Namespace) -> int:
    from bot.config import environment, with_secret_files
    from bot.database_url import url_label, url_problem
    from bot.ops.migrate_db import copy, source_path

    target, name = args.target, "--to"
    if target is None:  # inside the compose service: the database it names (DATABASE_URL_FILE)
        problems: list[str] = []
        settings = with_secret_files(environment()[0], problems, need_token=False)
        if problems:
            raise StartupError(problems[0])
        target, name = settings.get("DATABASE_URL", "").strip() or None, "DATABASE_URL"
    if target is None:
        raise StartupError(
            "give the PostgreSQL database to move into with --to postgresql://… "
            "(or set DATABASE_URL)."
        )
    if (problem := url_problem(target, name)) is not None:
        raise StartupError(problem)
    source = source_path(args.source)
    print(copy(source, target).text(source, url_label(target)))
    return 0


def _lessons_url() -> str | None:
    """The PostgreSQL the lessons are kept in: DATABASE_URL, or the URL a secret file
    (DATABASE_URL_FILE, as the school server's systemd unit and compose give it) or a `.env`
    names; None: the lessons' SQLite file."""
    from bot.config import environment, read_config
    from table.cli import lessons_url

    settings, problems = read_config(environment()[0], need_token=False)
    for problem in problems:  # an unreadable DATABASE_URL_FILE: not the SQLite file instead
        if problem.startswith("DATABASE_URL"):
            raise StartupError(problem)
    return lessons_url() or settings.database_url


def _class_privacy(args: argparse.Namespace) -> int:
    from bot.ops import privacy
    from storage.errors import StorageError
    from table import class_privacy

    url = _lessons_url()
    which = None
    if args.klass is not None:
        which = class_privacy.Which(args.klass, args.teacher, args.no_teacher)
    try:
        if which is None or args.verb == "class-list":
            print(class_privacy.listing(args.teacher, args.no_teacher, which, url))
            return 0
        if args.verb == "class-export":
            output = args.output or Path(f"mattekrig-class-{args.klass}.json")
            rows = class_privacy.export(which, args.pupil, output, url)
            print(f"wrote {rows} row(s) of class {args.klass} to {output}")
            return 0
        if args.verb == "class-forget":
            found = class_privacy.find(which, args.pupil, url)
            privacy.confirmed(
                f"This deletes everything kept of {args.pupil} in {found.label}.", args.yes
            )
            class_privacy.forget(found, url)
            print(f"forgot {args.pupil} of {found.label}")
            return 0
        found = class_privacy.find(which, None, url)
        privacy.confirmed(
            f"This deletes {found.label}, its pupils, their results and its lessons.", args.yes
        )
        class_privacy.delete(found, url)
        print(f"deleted {found.label}")
        return 0
    except (class_privacy.ClassNotFoundError, StorageError) as error:
        raise StartupError(str(error)) from None


def _privacy(args: argparse.Namespace) -> int:
    from bot.ops import privacy

    if args.verb.startswith("class-"):
        return _class_privacy(args)
    config = _database_config(need_token=False)
    if args.verb == "export":
        done = privacy.export(config, args.user_id, args.guild, args.output)
        print(f"wrote {done.rows} row(s) about user {args.user_id} to {done.path}")
        return 0
    if args.verb == "forget":
        where = "" if args.guild is None else f" in server {args.guild}"
        whom, stored = f"user {args.user_id}{where}", "stored about"
        forget = functools.partial(privacy.forget, config, args.user_id, args.guild)
    else:
        whom, stored = f"server {args.guild_id}", "stored for"
        forget = functools.partial(privacy.forget_guild, config, args.guild_id)
    privacy.confirmed(
        f"This deletes everything {stored} {whom} in {config.database_label}.", args.yes
    )
    print(f"forgot {whom}: {privacy.counts_text(forget())}")
    return 0


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": _run,
    "check": _check,
    "sync": _sync,
    "backup": _backup,
    "restore": _restore,
    "migrate-db": _migrate_db,
    "privacy": _privacy,
}


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    if given and given[0] in ("play", "class"):
        from table.cli import main as play  # the browser table needs no Discord

        return play(given[1:], kind="class" if given[0] == "class" else "play")
    if given and given[0] in ("serve", "teachers"):
        from school.cli import main as school  # the school server needs no Discord

        return school(given)
    args = parser().parse_args(arguments(given))
    try:
        return HANDLERS[args.command](args)
    except StartupError as problem:
        _say(str(problem))
        return PROBLEM
    except discord.LoginFailure:
        _say(REJECTED)
        return PROBLEM
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for none
        _say("Discord refused the bot's intents.")
        return PROBLEM
    except OSError as error:
        if error.filename is not None:  # a file the checks could not foresee, not the network
            _say(f"cannot use {error.filename} ({error.strerror or error}).")
            return PROBLEM
        _say(f"cannot reach Discord ({error}); check the network.")
        return UNREACHABLE
    except aiohttp.ClientError as error:
        _say(f"cannot reach Discord ({error}); check the network.")
        return UNREACHABLE
