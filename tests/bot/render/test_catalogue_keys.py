"""Every sentence the renderers, services and engine refusals need is in the catalogues."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from classroom.i18n import LANGS, catalogue, is_key, t
from engine.errors import Reason, Unreadable
from engine.regnekrig import TIMEOUT_REASON

ROOT = Path(__file__).resolve().parents[3]
ENGINE_CODES = (
    "not_a_side",
    "wrong_phase",
    "not_your_turn",
    "already_decided",
    "not_in_comparison",
    "cannot_bet",
    "bad_swap",
    "target_out_of_range",
    "game_over",
    "time_already_up",
    "malformed_action",
    "illegal_action",
    "engine_error",
    "bad_configuration",
)
SERVICE_KEYS = (
    "error.game_over",
    "error.no_game",
    "error.channel_busy",
    "error.stop_not_allowed",
    "error.not_flippable",
    "error.no_hint",
    "error.challenge_self",
    "error.challenge_bot",
    "error.open_challenge",
    "error.cooldown",
    "error.not_invited",
    "error.not_host",
    "error.lobby_full",
    "error.lobby_size",
    "error.invitation_closed",
    "error.lobby_closed",
    "error.teams_need_four",
    "error.bad_option",
    "reply.cancelled",
    "reply.forfeited",
    "reply.challenge_sent",
)


def _source(*parts: str) -> str:
    return "\n".join(p.read_text("utf-8") for part in parts for p in (ROOT / part).glob("*.py"))


def test_every_engine_refusal_code_has_a_sentence() -> None:
    found = set(re.findall(r'code="(\w+)"', _source("engine")))
    assert found <= set(ENGINE_CODES), found - set(ENGINE_CODES)
    missing = [code for code in ENGINE_CODES if f"engine.{code}" not in catalogue("en")]
    assert missing == []


def test_every_answer_rejection_code_has_a_sentence() -> None:
    """Each code an answer can get (an `Unreadable` refusal or a verdict `Reason`, the engine's
    one list of each) has its sentence, with the details the engine gives as placeholders."""
    codes = {code.value for code in Unreadable} | {reason.value for reason in Reason}
    assert TIMEOUT_REASON in codes and len(codes) >= 25
    missing = [code for code in codes if f"answer.rejected.{code}" not in catalogue("en")]
    assert missing == []


def test_the_keys_the_services_raise_exist() -> None:
    assert [key for key in SERVICE_KEYS if not is_key(key)] == []
    assert t("error.cooldown", "nb", count=5) == "Du kan sende en ny utfordring om 5 sekunder."
    assert t("error.bad_option", "sv", option="level") == "Den inställningen fungerar inte: level."


def test_every_literal_key_the_renderers_use_exists() -> None:
    keys = set(re.findall(r'\bt\(\s*"([a-z0-9_.]+)"', _source("bot/render")))
    assert len(keys) > 40
    assert sorted(key for key in keys if not is_key(key)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_button_labels_fit(lang: str) -> None:
    for key, text in catalogue(lang).items():
        if key.startswith("button."):
            assert len(text) <= 80, key
        if key.startswith("select."):
            assert len(text) <= 150, key
