"""`python -m table` / `mattekrig play`: it serves the table on 127.0.0.1 at a free port and
prints where; another address is a warning; the table package never imports discord."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from table import net
from table.cli import is_loopback, main, url_of, version
from tests.table import browser


def test_version_is_the_packages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"mattekrig {version()}"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True), ("localhost", True),
     ("0.0.0.0", False), ("192.168.1.20", False), ("school.example", False)],
)  # fmt: skip
def test_only_this_computers_own_addresses_are_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_the_printed_address_is_one_a_browser_can_open() -> None:
    """Listening on every address (0.0.0.0) prints this computer's network address, which
    the other computers can open (it printed 127.0.0.1, which only this one can)."""
    assert url_of("127.0.0.1", 8123) == "http://127.0.0.1:8123/"
    assert url_of("0.0.0.0", 8123, found="192.168.1.20") == "http://192.168.1.20:8123/"
    assert url_of("::1", 8123) == "http://[::1]:8123/"


def test_the_network_address_is_found_or_is_this_computers_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = net.network_address()
    assert found == net.LOOPBACK or not net.is_loopback(found)
    monkeypatch.setattr(net, "network_address", lambda: "10.1.2.3")
    assert net.shown_host("0.0.0.0") == "10.1.2.3"
    assert net.shown_host("192.168.0.5") == "192.168.0.5"


def test_another_address_is_warned_about_and_a_bad_one_is_a_clear_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 192.0.2.1 is TEST-NET-1 (RFC 5737): never this computer's, so binding fails at once.
    assert main(["--host", "192.0.2.1", "--port", "0", "--no-browser"]) == 1
    err = capsys.readouterr().err
    assert "Warning: listening on 192.0.2.1" in err
    assert "cannot listen on 192.0.2.1:0" in err and "Traceback" not in err


def test_a_port_out_of_range_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--port", "70000", "--no-browser"]) == 2
    assert "--port" in capsys.readouterr().err


def test_python_m_table_serves_the_setup_page_on_a_free_port() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "table", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Mattekrig: http://127.0.0.1:"), line
        url = line.split()[1]
        with urllib.request.urlopen(url + "?lang=sv", timeout=10) as response:
            page = response.read().decode("utf-8")
        assert 'data-state="setup"' in page and '<html lang="sv">' in page
    finally:
        process.terminate()
        _, err = process.communicate(timeout=10)
    assert "Traceback" not in err and "Warning" not in err


def test_the_table_imports_nothing_from_discord() -> None:
    """The table runs where Discord's library is not wanted: importing every table module
    (and the bot's words it uses) loads no discord module."""
    code = (
        "import sys, table.cli, table.app, table.web, table.board, table.page, table.games, "
        "table.setup, table.lesson, table.class_web, table.play_web, table.summary; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_browser_tests_say_why_they_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", "/nowhere/chromium")
    reason = browser.missing()
    assert reason is not None and "apt-get install -y chromium" in reason
    monkeypatch.setenv("CI", "1")
    assert browser.in_ci()
    monkeypatch.delenv("CI")
    assert not browser.in_ci()


def test_mattekrig_class_prints_the_join_address_the_code_and_the_teachers_link(
    tmp_path: Path,
) -> None:
    """`mattekrig class`: a lesson on this computer; the terminal names the address pupils
    open, the code, and the teacher's own link (its key), which opens the teacher's page.
    Nothing is written but the lesson, in the user's data folder, readable by the user alone
    (PRIVACY.md: pupils' nicknames and answers are in it)."""
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / ".cache"),
           "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    env.pop("XDG_DATA_HOME", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "table", "class", "--no-browser", "--host", "127.0.0.1",
         "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        first, second = process.stdout.readline(), process.stdout.readline()
        found = re.search(r"pupils open (http://127\.0\.0\.1:\d+/) with the code (\d{6})", first)
        assert found is not None, first
        link = re.search(r"(http://\S+/teacher\?key=\S+)", second)
        assert link is not None, second
        with urllib.request.urlopen(found.group(1) + "?lang=nb", timeout=10) as response:
            page = response.read().decode("utf-8")
        assert 'data-state="join"' in page and 'name="code"' in page and 'name="name"' in page
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with browser.open(link.group(1), timeout=10) as response:  # the key becomes a cookie
            page = response.read().decode("utf-8")
        assert f'data-join-code="{found.group(2)}"' in page
        assert f'data-join-url="{found.group(1)}"' in page
        join = urllib.parse.urlencode({"code": found.group(2), "name": "Ada"}).encode()
        origin = {"Origin": found.group(1).rstrip("/")}
        request = urllib.request.Request(found.group(1) + "join", data=join, headers=origin)
        with urllib.request.build_opener(urllib.request.HTTPCookieProcessor()).open(
            request, timeout=10
        ) as response:
            assert 'data-state="waiting"' in response.read().decode("utf-8")
    finally:
        process.terminate()
        _, err = process.communicate(timeout=10)
    assert "Traceback" not in err
    # --host 127.0.0.1 was chosen: the warning says so.
    assert "Warning: listening on 127.0.0.1, this computer's own address" in err
    data = tmp_path / ".local" / "share" / "mattekrig"
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written and all(w.startswith(".local/share/mattekrig/") for w in written), written
    assert {p.name for p in data.iterdir()} >= {"lessons.db", "teacher.key"}
    assert all(p.stat().st_mode & 0o077 == 0 for p in data.iterdir())  # the user's alone
    assert data.stat().st_mode & 0o077 == 0


@pytest.mark.parametrize(
    "url",
    ["school.example", "ftp://school.example/", "https://", "https://school.example/mattekrig/",
     "https://school.example/?x=1", "https://school.example:99999/"],
)  # fmt: skip
def test_a_base_url_must_be_the_root_of_a_web_address(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lesson's pages live at the root of their address, so a proxy that serves it in a
    folder would break every link: that is said at once, not found out in front of a class."""
    assert main(["class", "--base-url", url, "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert "--base-url must be the root of a web address" in err and "Traceback" not in err


def test_behind_a_proxy_the_teacher_and_the_pupils_open_the_proxys_address() -> None:
    """On a school server behind the school's HTTPS proxy, the terminal names the proxy's
    address for the pupils and for the teacher's own link (the teacher is not at the server),
    and where the proxy must send the lesson. It named the server's own address before."""
    process = subprocess.Popen(
        [sys.executable, "-m", "table", "class", "--no-browser", "--host", "127.0.0.1",
         "--port", "0", "--base-url", "https://Mattekrig.School.example"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        assert "pupils open https://mattekrig.school.example/ with the code" in lines[0]
        assert re.search(r"https://mattekrig\.school\.example/teacher\?key=\S+", lines[1])
        local = re.search(r"to (http://127\.0\.0\.1:\d+/)$", lines[2].strip())
        assert local is not None, lines[2]
        with urllib.request.urlopen(local.group(1) + "?lang=nb", timeout=10) as response:
            assert 'data-state="join"' in response.read().decode("utf-8")
    finally:
        process.terminate()
        _, err = process.communicate(timeout=10)
    assert "Traceback" not in err and "Warning" not in err


@pytest.mark.parametrize(("given", "env"), [(["--keep-days", "-1"], ""), ([], "two weeks")])
def test_a_retention_that_is_not_whole_days_is_refused(
    given: list[str], env: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The retention of an ended lesson's data (PRIVACY.md): whole days, 0 or more."""
    if env:
        monkeypatch.setenv("LESSON_KEEP_DAYS", env)
    assert main(["class", *given, "--no-browser"]) == 2
    assert (
        "--keep-days (or LESSON_KEEP_DAYS) must be a whole number of days"
        in capsys.readouterr().err
    )
