"""`mattekrig check` covers the school server's settings (the issue: "`mattekrig check`
covers the server's settings"): with any of them set it loads them as `mattekrig serve` does
and says one line per problem, exit 2 as for the bot's own; a school server without a bot
needs no Discord token; the bot's check is unchanged when none is set."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ops.cli import main
from tests.ops_support import shaped_token
from tests.postgres import fresh_schema_url

BASE = "https://mattekrig.school.example"


def _lines(out: str) -> dict[str, str]:
    return {
        line.split(None, 1)[0]: line.split(None, 1)[1]
        for line in out.splitlines()
        if line.strip() and not line.startswith("problem:")
    }


def _problems(out: str) -> list[str]:
    return [line.removeprefix("problem: ") for line in out.splitlines() if "problem: " in line]


def test_a_school_server_alone_is_checked_without_a_discord_token(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MATTEKRIG_BASE_URL", BASE)
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    lines = _lines(out)
    assert lines["school"] == BASE
    assert lines["sign-in"].startswith("teachers by one-time sign-in links")
    assert lines["lessons"].endswith("at most 6 open per teacher")
    # none of the bot's lines: no token asked for, no bot database, no Discord
    assert not {"token", "database", "running", "commands", "discord"} & set(lines)
    assert _problems(out) == []
    assert main(["check", "--quiet"]) == 0 and capsys.readouterr().out == ""


def test_every_bad_school_setting_is_one_problem_line_and_exit_2(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MATTEKRIG_BASE_URL", "http://mattekrig.school.example")
    monkeypatch.setenv("OIDC_ISSUER", "https://auth.dataporten.no")
    monkeypatch.setenv("LESSONS_PER_TEACHER", "lots")
    assert main(["check"]) == 2
    out = capsys.readouterr().out
    problems = _problems(out)
    assert [problem.split()[0] for problem in problems] == [
        "MATTEKRIG_BASE_URL",
        "OpenID",
        "LESSONS_PER_TEACHER",
    ]
    assert all(problem.endswith(".") for problem in problems)
    assert "DISCORD_TOKEN" not in out and "Traceback" not in out
    assert main(["check", "--quiet"]) == 2
    assert _problems(capsys.readouterr().out) == problems


def test_a_secret_given_inline_and_as_a_file_is_a_problem(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "oidc").write_text("from-a-file\n", encoding="utf-8")
    for name, value in {
        "MATTEKRIG_BASE_URL": BASE,
        "OIDC_ISSUER": "https://auth.dataporten.no",
        "OIDC_CLIENT_ID": "a-client",
        "OIDC_CLIENT_SECRET": "inline-secret",
        "OIDC_CLIENT_SECRET_FILE": str(tmp_path / "oidc"),
    }.items():
        monkeypatch.setenv(name, value)
    assert main(["check"]) == 2
    out = capsys.readouterr().out
    (problem,) = _problems(out)
    assert problem.startswith("OIDC_CLIENT_SECRET and OIDC_CLIENT_SECRET_FILE are both set")
    assert "inline-secret" not in out and "from-a-file" not in out
    monkeypatch.delenv("OIDC_CLIENT_SECRET")
    monkeypatch.setenv("OIDC_NAME", "Feide")
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert _lines(out)["sign-in"].startswith(
        f"Feide (https://auth.dataporten.no, OpenID Connect; redirect URI {BASE}/signin/callback)"
    )
    assert "from-a-file" not in out


def test_a_database_url_both_read_is_one_problem_in_the_bots_words(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", shaped_token())
    monkeypatch.setenv("MATTEKRIG_BASE_URL", BASE)
    monkeypatch.setenv("DATABASE_URL", "mysql://db/mattekrig")
    assert main(["check"]) == 2
    (problem,) = _problems(capsys.readouterr().out)
    assert problem.startswith("DATABASE_URL must be a PostgreSQL URL")


def test_a_bot_and_a_school_server_on_one_machine_are_both_checked(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a token, the bot is checked as always (a missing token file is still said)."""
    monkeypatch.setenv("DISCORD_TOKEN", shaped_token())
    monkeypatch.setenv("MATTEKRIG_BASE_URL", BASE)
    assert main(["check"]) == 0
    lines = _lines(capsys.readouterr().out)
    assert lines["token"].startswith("shape OK") and lines["school"] == BASE
    monkeypatch.delenv("DISCORD_TOKEN")
    monkeypatch.setenv("DISCORD_TOKEN_FILE", str(work / "absent"))
    assert main(["check"]) == 2
    assert _problems(capsys.readouterr().out)[0].startswith("DISCORD_TOKEN_FILE names")


def test_the_bots_check_is_unchanged_without_school_settings(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check"]) == 2
    out = capsys.readouterr().out
    assert _problems(out)[0].startswith("DISCORD_TOKEN is not set")
    assert "school" not in _lines(out)


def test_the_serve_units_check_reads_its_credentials_and_reaches_postgresql(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/operations.md's serve unit: `ExecStartPre=mattekrig check --quiet` with the
    database's URL and the client secret as credential files (DATABASE_URL_FILE=%d/…)."""
    url = fresh_schema_url()
    credentials = tmp_path / "credentials"
    credentials.mkdir()
    (credentials / "database_url").write_text(url + "\n", encoding="utf-8")
    (credentials / "oidc_client_secret").write_text("s3cret\n", encoding="utf-8")
    for name, value in {
        "MATTEKRIG_BASE_URL": BASE,
        "OIDC_ISSUER": "https://auth.dataporten.no",
        "OIDC_CLIENT_ID": "a-client",
        "OIDC_NAME": "Feide",
        "DATABASE_URL_FILE": str(credentials / "database_url"),
        "OIDC_CLIENT_SECRET_FILE": str(credentials / "oidc_client_secret"),
    }.items():
        monkeypatch.setenv(name, value)
    assert main(["check", "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    lines = _lines(out)
    assert lines["database"].startswith("PostgreSQL postgresql://")
    assert lines["lessons"].startswith("postgresql://")
    assert "s3cret" not in out and "token" not in lines
