"""`mattekrig teachers …`: the school server's operator adds and removes the teachers who
may sign in, and hands each a one-time sign-in link.

* ``teachers add NAME``: a new teacher, and their link ``<base>/signin/link/<token>`` (valid
  7 days, works once). With OpenID Connect configured, the link binds the teacher's account
  at the first sign-in; without, the link itself signs in.
* ``teachers link NAME``: a new link (a lost one, a new browser, a new account to bind).
* ``teachers remove NAME``: the teacher is signed out everywhere at once and their links open
  nothing; their lessons and classes stay until their retention, but nobody can open the
  teacher's pages of them any more.
* ``teachers list``: the names, whether an account is bound, the last sign-in; never a token.

The link is printed once and kept only as its SHA-256: whoever loses it asks for a new one.
Bad input is one sentence and exit status 2; nothing is changed.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
import unicodedata
from datetime import datetime

from school.opening import Refusal, school_settings, school_storage
from school.sessions import DAY_MS, LINK_DAYS, new_token
from storage.errors import SchoolConflictError
from storage.records.school import Teacher
from storage.sqlite import Storage
from table.cli import version

PROBLEM = 2
MAX_NAME = 60


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="mattekrig teachers",
        description="The teachers who may sign in to this school server (mattekrig serve).",
    )
    top.add_argument("--version", action="version", version=f"mattekrig {version()}")
    verbs = top.add_subparsers(dest="verb", required=True, metavar="VERB")

    def verb(name: str, text: str, *, link: bool = False) -> None:
        sub = verbs.add_parser(name, help=text, description=text)
        if name != "list":
            sub.add_argument("name", metavar="NAME", help='the teacher\'s name, e.g. "Kari N"')
        if link:
            sub.add_argument(
                "--base-url",
                metavar="URL",
                help="the server's public address (default: MATTEKRIG_BASE_URL)",
            )

    verb("add", "add a teacher and print their one-time sign-in link", link=True)
    verb("link", "print a new one-time sign-in link for a teacher", link=True)
    verb("remove", "sign a teacher out everywhere; they sign in no more")
    verb("list", "the teachers: bound to an account or not, last sign-in")
    return top


def teacher_name(raw: str) -> str:
    """The name as kept: spaces tidied; letters, digits and the usual marks only."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise Refusal('Give the teacher\'s name, e.g. mattekrig teachers add "Kari N".')
    if len(name) > MAX_NAME:
        raise Refusal(f"A teacher's name is at most {MAX_NAME} characters.")
    if any(unicodedata.category(c)[0] in "CZ" and c != " " for c in name):
        raise Refusal("A teacher's name cannot hold control characters or odd spaces.")
    return name


def _now() -> int:
    return int(time.time() * 1000)


async def _named(store: Storage, name: str) -> Teacher:
    teacher = await store.school_teacher_named(name)
    if teacher is None:
        raise Refusal(f"No teacher is named {name!r} (mattekrig teachers list shows them).")
    return teacher


async def _link(store: Storage, teacher: Teacher, base_url: str) -> str:
    token = new_token()
    now = _now()
    await store.add_sign_in_link(teacher.id, token, now, now + LINK_DAYS * DAY_MS)
    return f"{base_url}/signin/link/{token}"


def _link_lines(teacher: Teacher, url: str, oidc: bool) -> str:
    how = (
        "at the first sign-in it connects their account at the school's sign-in service"
        if oidc
        else "it signs them in"
    )
    return (
        f"One-time sign-in link for {teacher.name} (works once, for {LINK_DAYS} days; "
        f"{how}). Give it to them alone; it is not shown again:\n{url}"
    )


def _when(ms: int | None) -> str:
    if ms is None:
        return "never"
    return datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M")


async def run(args: argparse.Namespace) -> str:
    """The command's output; Refusal for bad input."""
    name = teacher_name(args.name) if args.verb != "list" else ""
    settings = school_settings(getattr(args, "base_url", None))
    if args.verb in ("add", "link") and settings.base_url is None:
        raise Refusal(
            "The link needs the server's public address: give --base-url "
            "https://mattekrig.school.example or set MATTEKRIG_BASE_URL."
        )
    async with school_storage(settings) as store:
        await store.purge_sign_ins(_now())
        if args.verb == "list":
            teachers = await store.school_teachers()
            if not teachers:
                return "No teachers yet: mattekrig teachers add NAME."
            return "\n".join(
                f"{t.name}\t{'account bound' if t.bound else 'no account bound'}\t"
                f"last sign-in: {_when(t.signed_in_at)}"
                for t in teachers
            )
        if args.verb == "add":
            try:
                teacher = await store.add_school_teacher(secrets.token_hex(16), name, _now())
            except SchoolConflictError:
                raise Refusal(
                    f"There is a teacher named {name!r} already: "
                    f"mattekrig teachers link {name!r} gives them a new link."
                ) from None
        else:
            teacher = await _named(store, name)
        if args.verb == "remove":
            await store.remove_school_teacher(teacher.id, _now())
            return (
                f"{teacher.name} is removed: signed out everywhere, and their links open nothing. "
                "Their lessons and classes stay until their retention runs out."
            )
        assert settings.base_url is not None
        url = await _link(store, teacher, settings.base_url)
        return _link_lines(teacher, url, settings.oidc is not None)


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        out = asyncio.run(run(args))
    except Refusal as refusal:
        print(f"mattekrig teachers: {refusal}", file=sys.stderr)
        return PROBLEM
    print(out)
    sys.stdout.flush()
    return 0


__all__ = ["PROBLEM", "Refusal", "main", "parser", "run", "teacher_name"]
