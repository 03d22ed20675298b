"""Challenge and lobby messages: text, buttons and the closed states."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.custom_ids import Space, Verb, parse
from bot.render.board import Board
from bot.render.invitations import render_challenge, render_lobby
from storage import Invitation, Member
from tests.bot.render.support import LANGS, LONG, T0, custom_ids, limit_problems

NAMES = {1: "Ada", 2: "Bo", 3: "Cy", 4: "Di"}
OPTIONS: dict[str, Any] = {
    "game": "regnekrig",
    "level": 5,
    "deck": "fortegn",
    "mode": "regn",
    "war_size": 4,
    "answer_seconds": 45,
    "minutes": 20,
}


def invitation(
    kind: str = "challenge",
    status: str = "open",
    members: tuple[Member, ...] = (Member(2, "accepted"), Member(3, "invited")),
    options: dict[str, Any] | None = None,
) -> Invitation:
    return Invitation(
        id=17,
        kind=kind,  # type: ignore[arg-type]
        guild_id=1,
        channel_id=2,
        message_id=None,
        host_id=1,
        options=OPTIONS if options is None else options,
        status=status,  # type: ignore[arg-type]
        game_id=None,
        created_at=T0,
        updated_at=T0,
        expires_at=T0 + 300_000,
        members=members,
    )


def verbs(board: Board) -> list[Verb]:
    parsed = [parse(c) for c in custom_ids(board.view)]
    assert all(p is not None and p.invitation_id == 17 for p in parsed)
    return [p.verb for p in parsed if p]


@pytest.mark.parametrize("lang", LANGS)
def test_an_open_challenge(lang: str) -> None:
    board = render_challenge(invitation(), lang, NAMES)
    assert limit_problems(board) == {}
    assert verbs(board) == [Verb.ACCEPT, Verb.DECLINE, Verb.WITHDRAW]
    assert all(parse(c).space is Space.CHALLENGE for c in custom_ids(board.view))  # type: ignore[union-attr]
    assert custom_ids(board.view)[0] == "mk:accept:c17"
    text = board.embed.description or ""
    assert "**Ada**" in text and "**Bo**" in text and "**Cy**" in text
    assert f"<t:{(T0 + 300_000) // 1000}:R>" in text
    assert board.content == "<@3>"  # only those who have not answered yet


def test_challenge_text_in_english() -> None:
    text = render_challenge(invitation(), "en", NAMES).embed.description or ""
    assert text.startswith(
        "**Ada** challenges **Bo** and **Cy** to **🧮 Regnekrig · Level 5: Elite**."
    )
    for line in (
        "• Deck: Plus and minus",
        "• Mode: Work it out yourself",
        "• War: 4 cards face down",
        "• Time to answer: 45 seconds",
        "• Time limit: 20 minutes",
        "✅ Bo — accepted",
        "⏳ Cy — has not answered yet",
    ):
        assert line in text


def test_intervallkrig_options_show_the_war_rule_not_the_mode() -> None:
    options = {"game": "intervallkrig", "war_rule": "highest", "teams": True, "computer": "hard"}
    text = render_challenge(invitation(options=options), "sv", NAMES).embed.description or ""
    assert "Krig: Högst värde vinner" in text and "Lag: två mot två" in text
    assert "Motståndare: 🤖 Datorn (Svår)" in text
    assert "Läge" not in text and "Svarstid" not in text


@pytest.mark.parametrize("status", ["declined", "withdrawn", "expired", "started", "cancelled"])
@pytest.mark.parametrize("lang", LANGS)
def test_closed_challenges_have_no_buttons(status: str, lang: str) -> None:
    members = (Member(2, "accepted"), Member(3, "declined"))
    board = render_challenge(invitation(status=status, members=members), lang, NAMES)
    assert custom_ids(board.view) == [] and board.content is None
    assert limit_problems(board) == {}


def test_a_declined_challenge_says_who_declined() -> None:
    members = (Member(2, "accepted"), Member(3, "declined"))
    board = render_challenge(invitation(status="declined", members=members), "nb", NAMES)
    assert "❌ Cy avslo" in (board.embed.description or "")


@pytest.mark.parametrize("lang", LANGS)
def test_an_open_lobby(lang: str) -> None:
    members = (Member(1, "joined"), Member(2, "joined"))
    board = render_lobby(invitation("lobby", members=members), lang, NAMES)
    assert limit_problems(board) == {}
    assert verbs(board) == [Verb.JOIN, Verb.LEAVE, Verb.BEGIN, Verb.CANCEL]
    assert custom_ids(board.view)[0] == "mk:join:l17"
    text = board.embed.description or ""
    assert "(2/4)" in text and "👑 Ada" in text and "• Bo" in text


@pytest.mark.parametrize("status", ["started", "cancelled", "expired"])
@pytest.mark.parametrize("lang", LANGS)
def test_closed_lobbies_have_no_buttons(status: str, lang: str) -> None:
    board = render_lobby(invitation("lobby", status=status), lang, NAMES)
    assert custom_ids(board.view) == []
    assert limit_problems(board) == {}


def test_long_names_and_unknown_users_stay_within_limits() -> None:
    members = tuple(Member(uid, "joined") for uid in (1, 2, 3, 99))
    names = {uid: LONG for uid in (1, 2, 3)}
    board = render_lobby(invitation("lobby", members=members), "en", names)
    assert limit_problems(board) == {}
    assert "<@99>" in (board.embed.description or "")  # no name given: a mention, never a ping


def test_bad_options_never_crash() -> None:
    board = render_challenge(invitation(options={"game": "poker", "level": "x"}), "en", NAMES)
    assert "Regnekrig" in (board.embed.description or "")
    board = render_challenge(invitation(options=None or {}), "en", {})
    assert "<@1>" in (board.embed.description or "")


def test_a_teams_lobby_shows_the_teams_and_the_hosts_team_mate_select() -> None:
    """RULES §1.2: four players play two teams of two; the host chooses a team-mate."""
    members = tuple(Member(uid, "joined") for uid in (1, 2, 3, 4))
    lobby = Invitation(
        id=9,
        kind="lobby",
        guild_id=1,
        channel_id=2,
        message_id=None,
        host_id=1,
        options={"game": "regnekrig", "teams": True, "partner": 4},
        status="open",
        game_id=None,
        created_at=0,
        updated_at=0,
        expires_at=600_000,
        members=members,
    )
    names = {1: "Ada", 2: "Bo", 3: "Cy", 4: "Di"}
    for lang in ("nb", "sv", "en"):
        board = render_lobby(lobby, lang, names)
        assert "Ada + Di" in (board.embed.description or "")
        assert "Bo + Cy" in (board.embed.description or "")
        selects = [i for i in board.view.children if isinstance(i, discord.ui.Select)]
        assert len(selects) == 1
        cid = parse(selects[0].custom_id)
        assert cid is not None and cid.verb is Verb.TEAMS and cid.invitation_id == 9
        assert [o.value for o in selects[0].options] == ["2", "3", "4"]
