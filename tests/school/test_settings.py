"""The school server's settings (issue: "What a school's operator expects"): read as the bot
reads its own, every bad setting named in one sentence, the server never started on a half
or unsafe configuration."""

from __future__ import annotations

from pathlib import Path

import pytest

from school.settings import (
    OidcSettings,
    RateLimits,
    SchoolSettings,
    SchoolSettingsError,
    load_school_settings,
    school_settings_present,
)
from storage.environment import environment

BASE = "https://mattekrig.school.example"
FEIDE = {
    "MATTEKRIG_BASE_URL": BASE,
    "OIDC_ISSUER": "https://auth.dataporten.no",
    "OIDC_CLIENT_ID": "a-client",
    "OIDC_CLIENT_SECRET": "s3cret",
    "OIDC_NAME": "Feide",
}


def problems_of(env: dict[str, str]) -> tuple[str, ...]:
    with pytest.raises(SchoolSettingsError) as raised:
        load_school_settings(env)
    assert str(raised.value) == "\n".join(raised.value.problems)
    return raised.value.problems


def test_nothing_set_is_a_server_for_this_computer_with_the_defaults() -> None:
    settings = load_school_settings({})
    assert settings == SchoolSettings()
    assert settings.database_url is None and settings.base_url is None and settings.oidc is None
    assert (settings.lessons_per_teacher, settings.quiet_minutes, settings.idle_hours) == (
        6,
        10,
        24,
    )
    assert settings.limits == RateLimits()
    assert not settings.secure and settings.callback_url is None


def test_a_school_with_feide_and_postgresql() -> None:
    env = {**FEIDE, "DATABASE_URL": "postgresql://mk:pw@db:5432/mattekrig"}
    settings = load_school_settings({**env, "MATTEKRIG_BASE_URL": BASE + "/"})
    assert settings.base_url == BASE  # the trailing slash is dropped: paths are joined to it
    assert settings.secure
    assert settings.callback_url == f"{BASE}/signin/callback"
    assert settings.oidc == OidcSettings(
        "https://auth.dataporten.no", "a-client", "s3cret", "Feide"
    )
    assert settings.database_label == "postgresql://db:5432/mattekrig"
    # neither the client secret nor the database password is ever in a log line of the settings
    assert "s3cret" not in repr(settings) and "pw" not in repr(settings)


def test_the_buttons_name_defaults_to_the_providers_host() -> None:
    env = {name: value for name, value in FEIDE.items() if name != "OIDC_NAME"}
    oidc = load_school_settings(env).oidc
    assert oidc is not None and oidc.name == "auth.dataporten.no"


def test_the_numbers_and_limits_are_read() -> None:
    settings = load_school_settings(
        {
            "LESSONS_PER_TEACHER": "3",
            "LESSON_QUIET_MINUTES": "5",
            "LESSON_IDLE_HOURS": "12",
            "LESSON_KEEP_DAYS": "0",
            "DEVICE_CHANGES_PER_SECOND": "3",
            "LESSON_CHANGES_PER_SECOND": "90",
        }
    )
    assert (settings.lessons_per_teacher, settings.quiet_minutes, settings.idle_hours) == (3, 5, 12)
    assert settings.keep_days == 0
    assert settings.limits == RateLimits(device_per_second=3, lesson_per_second=90)


@pytest.mark.parametrize(
    "value", ["http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]"]
)
def test_plain_http_is_allowed_on_this_computer_only(value: str) -> None:
    settings = load_school_settings({"MATTEKRIG_BASE_URL": value})
    assert settings.base_url == value and not settings.secure


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("http://mattekrig.school.example", "must start with https://"),
        ("http://10.0.4.17:8080", "must start with https://"),
        ("mattekrig.school.example", "must be an address such as"),
        ("ftp://mattekrig.school.example", "must be an address such as"),
        ("https://mattekrig.school.example:99999", "cannot be read"),
        (f"{BASE}/mattekrig", "without a path"),
        (f"{BASE}/?x=1", "no ?, # or @"),
    ],
)
def test_a_bad_base_url_is_one_sentence(value: str, words: str) -> None:
    (problem,) = problems_of({"MATTEKRIG_BASE_URL": value})
    assert problem.startswith("MATTEKRIG_BASE_URL ") and words in problem
    assert problem.endswith(".") and "\n" not in problem


@pytest.mark.parametrize("left_out", ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"])
def test_half_an_openid_connect_setup_is_refused(left_out: str) -> None:
    """Half a setup would show a sign-in button that cannot work."""
    env = {name: value for name, value in FEIDE.items() if name != left_out}
    (problem,) = problems_of(env)
    assert f"half set: {left_out} is missing" in problem


def test_only_a_name_for_the_button_is_half_a_setup_too() -> None:
    (problem,) = problems_of({"MATTEKRIG_BASE_URL": BASE, "OIDC_NAME": "Feide"})
    assert "OIDC_ISSUER and OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are missing" in problem


def test_openid_connect_needs_the_base_url_for_its_callback() -> None:
    env = {name: value for name, value in FEIDE.items() if name != "MATTEKRIG_BASE_URL"}
    (problem,) = problems_of(env)
    assert problem.startswith("OIDC_ISSUER needs MATTEKRIG_BASE_URL")


def test_the_issuer_is_https_except_a_provider_on_this_computer() -> None:
    (problem,) = problems_of({**FEIDE, "OIDC_ISSUER": "http://auth.dataporten.no"})
    assert problem.startswith("OIDC_ISSUER must start with https://")
    local = load_school_settings({**FEIDE, "OIDC_ISSUER": "http://127.0.0.1:9400/"}).oidc
    assert local is not None and local.issuer == "http://127.0.0.1:9400"


def test_secrets_come_from_files(tmp_path: Path) -> None:
    (tmp_path / "db").write_text("postgresql://mk:pw@db/mattekrig\n", encoding="utf-8")
    (tmp_path / "oidc").write_text("from-a-file\n", encoding="utf-8")
    env = {k: v for k, v in FEIDE.items() if k != "OIDC_CLIENT_SECRET"}
    env |= {
        "DATABASE_URL_FILE": str(tmp_path / "db"),
        "OIDC_CLIENT_SECRET_FILE": str(tmp_path / "oidc"),
    }
    settings = load_school_settings(env)
    assert settings.database_url == "postgresql://mk:pw@db/mattekrig"
    assert settings.oidc is not None and settings.oidc.client_secret == "from-a-file"


@pytest.mark.parametrize("name", ["DATABASE_URL", "OIDC_CLIENT_SECRET"])
def test_a_secret_given_inline_and_as_a_file_is_refused(name: str, tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("x", encoding="utf-8")
    env = {**FEIDE, "DATABASE_URL": "postgresql://db/mk", name: "inline"}
    (problem,) = problems_of({**env, f"{name}_FILE": str(tmp_path / "secret")})
    assert problem.startswith(f"{name} and {name}_FILE are both set: keep one")


def test_a_secret_file_that_cannot_be_read_or_is_empty(tmp_path: Path) -> None:
    (tmp_path / "empty").write_text("\n", encoding="utf-8")
    env = {k: v for k, v in FEIDE.items() if k != "OIDC_CLIENT_SECRET"}
    env |= {"OIDC_CLIENT_SECRET_FILE": str(tmp_path / "empty")}
    env |= {"DATABASE_URL_FILE": str(tmp_path / "absent")}
    database, secret = problems_of(env)
    assert database.startswith(f"DATABASE_URL_FILE names {tmp_path / 'absent'}, which cannot")
    assert "readable by the server's user" in database
    assert secret.startswith(f"OIDC_CLIENT_SECRET_FILE names {tmp_path / 'empty'}, which is empty")
    assert secret.endswith("put the OIDC_CLIENT_SECRET in it.")


def test_a_database_url_that_is_not_postgresql() -> None:
    (problem,) = problems_of({"DATABASE_URL": "mysql://db/mk"})
    assert problem.startswith("DATABASE_URL must be a PostgreSQL URL")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LESSONS_PER_TEACHER", "six"),
        ("LESSONS_PER_TEACHER", "0"),
        ("LESSON_QUIET_MINUTES", "-5"),
        ("LESSON_IDLE_HOURS", "1.5"),
        ("LESSON_KEEP_DAYS", "a week"),
        ("LESSON_CHANGES_PER_SECOND", "0"),
    ],
)
def test_a_setting_that_is_not_a_number(name: str, value: str) -> None:
    (problem,) = problems_of({name: value})
    assert problem.startswith(f"{name} must be a whole number of ") and repr(value) in problem


def test_every_bad_setting_is_named_at_once() -> None:
    env = {
        "MATTEKRIG_BASE_URL": "http://mattekrig.school.example",
        "OIDC_ISSUER": "https://auth.dataporten.no",
        "LESSONS_PER_TEACHER": "many",
        "LESSON_IDLE_HOURS": "",
    }
    problems = problems_of(env)
    assert [p.split()[0] for p in problems] == [
        "MATTEKRIG_BASE_URL",
        "OpenID",
        "LESSONS_PER_TEACHER",
    ]


def test_which_settings_make_a_school_server() -> None:
    assert not school_settings_present({"DATABASE_URL": "postgresql://db/mk", "DISCORD_TOKEN": "t"})
    assert school_settings_present({"MATTEKRIG_BASE_URL": BASE})
    assert school_settings_present({"OIDC_ISSUER": "https://auth.dataporten.no"})
    assert not school_settings_present({"OIDC_ISSUER": "  "})


def test_settings_are_read_from_a_dotenv_file_as_the_bots_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MATTEKRIG_BASE_URL", raising=False)
    monkeypatch.setenv("LESSONS_PER_TEACHER", "4")  # the environment wins over the file
    (tmp_path / ".env").write_text(
        f"MATTEKRIG_BASE_URL={BASE}\nLESSONS_PER_TEACHER=9\n", encoding="utf-8"
    )
    env, read = environment(tmp_path)
    assert read == (tmp_path / ".env",)
    settings = load_school_settings(env)
    assert (settings.base_url, settings.lessons_per_teacher) == (BASE, 4)


def test_the_env_example_names_the_school_settings_and_sets_none() -> None:
    """.env.example shows each school setting commented out: a copy made for the bot is no
    school server (`mattekrig check` would then check one)."""
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text(encoding="utf-8")
    env = dict(
        line.split("=", 1) for line in example.splitlines() if "=" in line and line[0] != "#"
    )
    assert not school_settings_present(env)
    shown = {line[2:].split("=", 1)[0] for line in example.splitlines() if line.startswith("# ")}
    assert {"MATTEKRIG_BASE_URL", "DATABASE_URL_FILE", "OIDC_ISSUER", "OIDC_CLIENT_ID"} <= shown
    assert {"OIDC_CLIENT_SECRET_FILE", "OIDC_NAME", "LESSONS_PER_TEACHER"} <= shown
