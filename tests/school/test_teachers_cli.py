"""`mattekrig teachers …`, the school server operator's command. The issue: "the operator
issues a teacher a one-time sign-in link (`mattekrig teachers add NAME`, `… remove NAME`)";
SERVE.md: "`teachers add NAME` prints a one-time link (`<base>/signin/link/<token>`, 7 days);
`teachers link NAME` a new one; `teachers remove NAME` ends their sessions and links;
`teachers list`"."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.ops.cli import main
from storage import Storage
from storage.paths import lessons_database

BASE = "https://mattekrig.school.example"
LINK = re.compile(re.escape(BASE) + r"/signin/link/([A-Za-z0-9_-]{40,})")


@pytest.fixture(autouse=True)
def settings(lesson_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command reads the school server's settings (here: none but the address)."""
    monkeypatch.chdir(lesson_data)
    for name in ("MATTEKRIG_BASE_URL", "OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MATTEKRIG_BASE_URL", BASE)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["teachers", *argv])
    out, err = capsys.readouterr()
    return code, out, err


async def _spend(token: str, session: str) -> bool:
    async with await Storage.open(lessons_database()) as store:
        return await store.spend_sign_in_link(token, session, 1, 2**62) is not None


async def _session_teacher(session: str) -> str | None:
    async with await Storage.open(lessons_database()) as store:
        teacher = await store.session_teacher(session, 2)
        return None if teacher is None else teacher.name


def test_add_prints_a_one_time_link_and_list_shows_no_token(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The link is printed once; `list` shows names, bound or not, the last sign-in."""
    code, out, _ = _run(capsys, "add", "  Kari   Nordmann ")
    assert code == 0
    (token,) = LINK.findall(out)
    assert "7 days" in out
    code, listed, _ = _run(capsys, "list")
    assert code == 0
    assert listed.splitlines() == ["Kari Nordmann\tno account bound\tlast sign-in: never"]
    assert token not in listed
    assert asyncio.run(_spend(token, "s" * 43))
    code, listed, _ = _run(capsys, "list")
    assert "last sign-in: never" not in listed


def test_link_gives_a_new_link_and_remove_ends_everything(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A new link works beside the first; after `remove` the session and every link of the
    teacher open nothing, at once."""
    _run(capsys, "add", "Kari")
    (first,) = LINK.findall(_run(capsys, "link", "Kari", "--base-url", BASE + "/")[1])
    (second,) = LINK.findall(_run(capsys, "link", "Kari")[1])
    assert first != second
    assert asyncio.run(_spend(first, "s" * 43))
    assert asyncio.run(_session_teacher("s" * 43)) == "Kari"
    code, out, _ = _run(capsys, "remove", "Kari")
    assert code == 0 and "signed out everywhere" in out
    assert asyncio.run(_session_teacher("s" * 43)) is None
    assert not asyncio.run(_spend(second, "t" * 43))
    assert _run(capsys, "list")[1].startswith("No teachers yet")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("add", "   "), "Give the teacher's name"),
        (("add", "x" * 61), "at most 60 characters"),
        (("add", "Kari\x00"), "control characters"),
        (("link", "Nobody"), "No teacher is named 'Nobody'"),
        (("remove", "Nobody"), "No teacher is named 'Nobody'"),
        (("add", "Lars", "--base-url", "http://school.example"), "MATTEKRIG_BASE_URL must"),
        (("add", "Lars", "--base-url", "ftp://x"), "MATTEKRIG_BASE_URL must"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str
) -> None:
    """ "Bad input: one sentence, exit 2", and nothing changes."""
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert _run(capsys, "list")[1].startswith("No teachers yet")


def test_a_name_is_one_teachers_and_a_link_needs_the_address(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second `add` of the same name is refused (its `link` gives a new link); without a
    public address no link can be made."""
    assert _run(capsys, "add", "Kari")[0] == 0
    code, _, err = _run(capsys, "add", "Kari")
    assert code == 2 and "mattekrig teachers link 'Kari'" in err
    monkeypatch.delenv("MATTEKRIG_BASE_URL")
    code, _, err = _run(capsys, "link", "Kari")
    assert code == 2 and "--base-url" in err
