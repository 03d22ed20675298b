"""The board: every phase of every game renders in every language, within Discord's limits,
with exactly the controls the phase allows and nothing a side should not see yet."""

from __future__ import annotations

import re

import pytest

from bot.custom_ids import Space, Verb, parse
from bot.render.board import Board, dump_board
from classroom.i18n import t
from engine.actions import Flip, Timeout
from engine.config import GameConfig, Mode
from engine.game import apply, legal_actions
from engine.intervallkrig import BET, Bet
from engine.registry import GAMES
from engine.regnekrig import ANSWER, TARGET, Answer, NameTarget, part_of
from tests.bot.render.support import (
    ADA,
    BO,
    CPU,
    GAME_ID,
    L5_PILES,
    LANGS,
    POSITIONS,
    T0,
    WAR_PILES,
    custom_ids,
    drive,
    limit_problems,
    live,
    players_for,
    render_board,
)


def board_of(name: str, lang: str = "en", now_ms: int = T0) -> Board:
    return render_board(POSITIONS[name](), lang, now_ms)


def description(board: Board) -> str:
    return board.embed.description or ""


def everything(board: Board) -> str:
    """All the text a player can read on the board."""
    return dump_board(board)


# -- every phase, every language, every limit ---------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_position_renders_within_discord_limits(name: str, lang: str) -> None:
    board = board_of(name, lang)
    assert limit_problems(board) == {}
    assert board.view.timeout is None
    assert board.embed.title and board.embed.description
    assert len(board.embed.fields) == POSITIONS[name]().state.config.sides


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("teams", [False, True])
@pytest.mark.parametrize("kind", list(GAMES))
def test_four_sides_with_long_names_stay_within_limits(kind: str, teams: bool, lang: str) -> None:
    """The widest board: 4 sides (or 2 teams of 2), 32-character names, a war result."""
    sides = 2 if teams else 4
    config = GameConfig(game=kind, level=7, mode=Mode.REGN, sides=sides)
    players = players_for(sides, teams=teams, long=True)
    state, events = drive(config, seed=11)
    for _ in range(40):  # play on to collect many kinds of result
        if state.is_over:
            break
        if state.phase is TARGET:
            state, events = apply(state, NameTarget(part_of(state).namer, -15))
        elif state.phase is BET:
            for side in state.pending:
                state, events = apply(state, Bet(side, 0))
        elif state.phase is ANSWER:  # the best answer, or a timeout for the last side
            answers = [a for a in legal_actions(state) if isinstance(a, Answer)]
            for side in state.pending:
                mine = [a for a in answers if a.side == side]
                action = mine[0] if mine and side != state.pending[-1] else Timeout(side)
                state, events = apply(state, action)
        else:
            state, events = apply(state, Flip(0))
        board = render_board(live(config, state, events, players), lang, T0)
        assert limit_problems(board) == {}, dump_board(board)
        names = [field.name for field in board.embed.fields]
        if teams:
            assert all(" & " in (n or "") for n in names)


def test_names_are_escaped_and_clipped() -> None:
    config = GameConfig(game="intervallkrig")
    evil = (
        ADA.__class__(seat=0, side=0, display_name="**bold** _x_ @everyone " + "y" * 60, user_id=1),
        BO,
    )
    board = render_board(live(config, *drive(config, seed=1), evil), "en", T0)
    name = board.embed.fields[0].name or ""
    assert "\\*\\*bold\\*\\*" in name and "@\u200beveryone" in name
    assert len(name) < 80 and name.endswith("…")


# -- controls per phase -------------------------------------------------------------------------

EXPECTED: dict[str, set[tuple[Verb, str | None]]] = {
    "rk1_answer": {(Verb.ANSWER, None)},
    "rk1_answered_one": {(Verb.ANSWER, None)},
    "rk1_war": {(Verb.ANSWER, None)},
    "rk5_target": {(Verb.TARGET, "lo"), (Verb.TARGET, "hi"), (Verb.TARGET, "random")},
    "rk5_answer": {(Verb.ANSWER, None)},
    "rk5_next_target": {(Verb.TARGET, "lo"), (Verb.TARGET, "hi"), (Verb.TARGET, "random")},
    "rk5_auto_target": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "rk5_auto_answer": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "rk7_answer": {(Verb.ANSWER, None)},
    "rk5_war": {(Verb.ANSWER, None)},
    "rk_bonus": {(Verb.TARGET, "lo"), (Verb.TARGET, "hi"), (Verb.TARGET, "random")},
    "rk_computer_target": set(),  # the computer names the target on its own
    "ik_flip_first": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "ik_flip_after_round": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "ik_war": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "ik_three_card_war": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "ik_endgame_one": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "ik_one_card_war": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "time_up_in_war": {(Verb.FLIP, None), (Verb.AUTO, None)},
    "sk_bet": {(Verb.BET, "0"), (Verb.BET, "1"), (Verb.PASS, None), (Verb.HINT, None)},
    "sk_bet_decided": {(Verb.BET, "0"), (Verb.BET, "1"), (Verb.PASS, None), (Verb.HINT, None)},
    "sk_after_bets": {(Verb.BET, "0"), (Verb.BET, "1"), (Verb.PASS, None), (Verb.HINT, None)},
    "over_all_cards": {(Verb.REMATCH, None)},
    "over_time_up": {(Verb.REMATCH, None)},
    "over_max_rounds": {(Verb.REMATCH, None)},
    "over_stalemate": {(Verb.REMATCH, None)},
    # A regn-mode regnekrig game over: each pupil's own summary too.
    "over_forfeit": {(Verb.REMATCH, None), (Verb.SUMMARY, None)},
    "over_no_answers": {(Verb.REMATCH, None)},
    "stopped": {(Verb.REMATCH, None), (Verb.SUMMARY, None)},
    "abandoned": {(Verb.REMATCH, None)},
}


def test_every_position_has_an_expectation() -> None:
    assert set(EXPECTED) == set(POSITIONS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_controls_match_the_phase_and_their_ids_parse_back(name: str) -> None:
    game = POSITIONS[name]()
    board = render_board(game, "en", T0)
    ids = custom_ids(board.view)
    parsed = [parse(custom_id) for custom_id in ids]
    assert all(p is not None for p in parsed), ids
    assert {(p.verb, p.arg) for p in parsed if p} == EXPECTED[name]
    assert len(ids) == len(EXPECTED[name])  # no duplicates
    for p in parsed:
        assert p is not None and p.space is Space.GAME and p.game_id == GAME_ID
        if p.verb in (Verb.REMATCH, Verb.SUMMARY):  # a finished game has no stale window
            assert p.window is None
        else:
            assert p.window == game.state.window  # a stale button is recognised


def test_target_selects_offer_every_target_once() -> None:
    board = board_of("rk5_target")
    rows = board.view.to_components()
    selects = [c for row in rows for c in row["components"] if c["type"] == 3]
    values = [[o["value"] for o in s["options"]] for s in selects]
    assert values == [[str(v) for v in range(-15, 1)], [str(v) for v in range(1, 16)]]
    assert selects[0]["options"][0]["label"] == "−15"  # the true minus sign
    assert len(rows) == 3


def test_autoplay_label_follows_the_toggle() -> None:
    config = GameConfig(game="intervallkrig")
    state, events = drive(config, seed=1)
    off = render_board(live(config, state, events, autoplay=False), "en", T0)
    on = render_board(live(config, state, events, autoplay=True), "en", T0)
    assert "[⏩ Autoplay: off]" in dump_board(off)
    assert "[⏩ Autoplay: on]" in dump_board(on)
    assert "Autospill: på" in dump_board(
        render_board(live(config, state, events, autoplay=True), "nb", T0)
    )


# -- hidden information -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_an_answer_stays_hidden_until_every_side_has_answered(lang: str) -> None:
    config = GameConfig(game="regnekrig", level=5, mode=Mode.REGN)
    state, events = drive(config, [NameTarget(0, 7), Answer(0, "3*(-2)=-6")], piles=L5_PILES)
    text = everything(render_board(live(config, state, events), lang, T0))
    assert "3 · (−2)" not in text and "−6" not in text and "3*(-2)" not in text
    assert "✓" in text  # but everyone sees that side 0 has answered


def test_a_bet_stays_hidden_until_every_side_has_decided() -> None:
    config = GameConfig(game="satsing", mode=Mode.REGN)
    state, events = drive(config, [Bet(0, 1)], seed=3)
    text = everything(render_board(live(config, state, events), "en", T0))
    assert "swap" not in text.split("Waiting for")[1].split("\n", 1)[0]
    assert "bet and swapped" not in text and "no bet" not in text
    assert "⏳ P1" in text and "⏳ P0" not in text  # "Waiting for" lists only who has not decided
    assert "✓ P0" not in text.split("Waiting for")[1] and "✓ decided" in text


# -- the result block ---------------------------------------------------------------------------


def result_of(name: str, lang: str = "en") -> str:
    """The round block's outcome lines in the description (numbered, in order)."""
    lines = description(board_of(name, lang)).splitlines()
    return "\n".join(line for line in lines if line.startswith("📋") or _after_title(lines, line))


def _after_title(lines: list[str], line: str) -> bool:
    """A block line after the numbered title (the outcome, the bonus, the war)."""
    titles = [n for n, text in enumerate(lines) if text.startswith("📋")]
    after = bool(titles) and lines.index(line) > titles[0]
    return after and line.startswith(("🏆", "🎯 E", "🎯 F"))


def side_lines(board: Board, side: int) -> str:
    """What one side's field says (its count, cards, status and its part of the block)."""
    return board.embed.fields[side].value or ""


def test_a_won_round_names_the_winner_the_reason_and_each_sides_play() -> None:
    """RULES §2.1, §2.2: the value closest to the target wins; a side with no answer has no
    value. The block tells the cards as held, what was played, the distance, the best move."""
    board = board_of("rk5_next_target")
    assert result_of("rk5_next_target").startswith(
        "📋 **Round 1** · 🏆 **P0** won 4 cards: the others had no value"
    )
    assert "Round 1: [ 3 ] [ −2 ] → 3 − (−2) = **5**\n2 from 🎯 7" in side_lines(board, 0)
    p1 = side_lines(board, 1)
    assert "Round 1: [ 1 ] [ 1 ] → no answer → no value\nbest move: 1 + 1 = 2" in p1


def test_a_war_is_told_with_its_face_down_count() -> None:
    """RULES §2.3: equal values go to war; each side lays cards face down first."""
    block = result_of("rk1_war")
    assert block == "📋 **Round 1** · ⚔️ **War** between P0 and P1 · 6 face down each"
    board = board_of("rk1_war")
    assert "Round 1: [ 2 ] [ 3 ] → **5**" in side_lines(board, 0)  # typed "5": shown as 5
    assert "Round 1: [ 1 ] [ 4 ] → 1 + 4 = **5**" in side_lines(board, 1)
    assert result_of("rk1_war", "nb").startswith("📋 **Runde 1** · ⚔️ **Krig** mellom P0 og P1")
    assert result_of("rk1_war", "sv").startswith("📋 **Omgång 1** · ⚔️ **Krig** mellan P0 och P1")


def test_an_exact_hit_says_who_gives_the_bonus() -> None:
    """RULES §2.5: "when exactly one side's value equals the target, every other side in that
    comparison gives that side three extra cards"."""
    block = result_of("rk_bonus")
    assert "🏆 **P0** won 7 cards: exact hit on the target 7" in block
    assert "🎯 Exact hit! P1 gives P0 3 cards" in block
    assert "🎯 Fulltreffer! P1 gir P0 3 kort" in result_of("rk_bonus", "nb")
    assert "🎯 Fullträff! P1 ger P0 3 kort" in result_of("rk_bonus", "sv")
    assert "0 from 🎯 7" in side_lines(board_of("rk_bonus"), 0)


def test_a_wrong_typed_number_is_shown_as_typed() -> None:
    config = GameConfig(game="regnekrig", level=5, mode=Mode.REGN)
    state, events = drive(
        config, [NameTarget(0, 7), Answer(0, "4"), Answer(1, "1+1=2")], piles=L5_PILES
    )
    board = render_board(live(config, state, events), "sv", T0)
    assert "Omgång 1: [ 3 ] [ −2 ] → 4 → inget värde" in side_lines(board, 0)
    assert "bästa drag: 3 − (−2) = 5" in side_lines(board, 0)
    assert "🏆 **P1** vann 4 kort: de andra hade inget värde" in description(board)


def test_a_number_is_shown_as_its_value_beside_the_cards() -> None:
    """A number answer is shown as its value beside the side's own cards: cards (−3, −3),
    typed 1 → "[ −3 ] [ −3 ] → 1"; cards (−3, 6), typed the fraction −1/2 (RULES §2.6: a
    number, not the division of 1 by 2) → "[ −3 ] [ 6 ] → −1/2", never as a calculation."""
    config = GameConfig(game="regnekrig", level=3, mode=Mode.REGN)
    state, events = drive(
        config, [Answer(0, "1"), Answer(1, "-1/2")], piles=[[-3, -3, 1, 2], [-3, 6, 1, 2]]
    )
    text = everything(render_board(live(config, state, events), "en", T0))
    assert "Round 1: [ −3 ] [ −3 ] → 1" in text
    assert "Round 1: [ −3 ] [ 6 ] → −1/2" in text and "÷" not in text


def test_a_bet_and_swap_shows_the_new_interval() -> None:
    """RULES §3.3: a side that bets swaps one card; its interval is the new pair."""
    board = board_of("sk_after_bets")
    assert "[ 4 ] [ 5 ] · bet and swapped 5 for −5 → [−5, 4]" in side_lines(board, 0)
    assert "drew −1 ✓ inside the interval" in side_lines(board, 0)
    assert "[ −2 ] [ −1 ] · no bet\ndrew 4 ✗ outside the interval" in side_lines(board, 1)
    assert "satset og byttet 5 mot −5 → [−5, 4]" in side_lines(board_of("sk_after_bets", "nb"), 0)
    assert "the only third card inside its interval" in result_of("sk_after_bets")


def test_intervallkrig_shows_the_cards_and_the_third_card_inside_or_outside() -> None:
    board = board_of("ik_war")
    assert "Round 1: [ 1 ] [ 5 ]\ndrew 3 ✓ inside the interval" in side_lines(board, 0)
    assert "Round 1: [ 1 ] [ 5 ]\ndrew 2 ✓ inside the interval" in side_lines(board, 1)
    assert "⚔️ **War** between P0 and P1 · 1 face down each" in result_of("ik_war")
    assert "⚔️ **Three-card war**" in result_of("ik_three_card_war")
    assert "2 face down each" in result_of("ik_three_card_war")
    assert "Endgame: one card each" in description(board_of("ik_one_card_war"))


def test_a_war_won_in_intervallkrig_says_by_which_rule() -> None:
    """RULES §3.2: the face-up war card closest to zero wins."""
    config = GameConfig(game="intervallkrig")
    state, events = drive(
        config, [Flip(0), Flip(0)], piles=[[1, 5, 3, 0, 2, 9], [1, 5, 2, 0, 4, 9]]
    )
    board = render_board(live(config, state, events), "en", T0)
    assert "🏆 **P0** won 10 cards: the best war card (Closest to zero)" in description(board)
    assert "⚔️ 1 face down · [ 2 ]" in side_lines(board, 0)
    assert "⚔️ 1 face down · [ 4 ]" in side_lines(board, 1)


def test_the_previous_round_stays_until_the_next_is_played() -> None:
    text = description(board_of("rk5_next_target"))
    assert text.startswith("**Round 2**") and "📋 **Round 1** · 🏆 **P0** won 4 cards" in text


def test_no_result_block_before_anything_was_decided() -> None:
    assert result_of("rk5_target") == "" and result_of("sk_bet_decided") == ""


# -- the rest of the text -----------------------------------------------------------------------


def test_countdowns_are_discord_timestamps() -> None:
    text = description(board_of("rk5_answer"))
    assert f"<t:{(T0 + 45_000) // 1000}:R>" in text
    assert f"<t:{(T0 + 20 * 60_000) // 1000}:R>" in text
    late = description(board_of("rk5_answer", now_ms=T0 + 46_000))
    assert "<t:" in late and "Time is up for this decision" in late


def test_the_target_and_the_round_are_shown() -> None:
    text = description(board_of("rk5_answer", "nb"))
    assert "**Runde 1**" in text and "🎯 Målverdi **7**" in text
    assert "**P1** chooses the target for round 2" in description(board_of("rk5_next_target"))
    assert "Pot: 20 cards" in description(board_of("rk1_war"))


def test_war_is_explained_with_the_glossary_words() -> None:
    assert "Nærmest null vinner" in description(board_of("ik_war", "nb"))
    assert "trekortskrig" in description(board_of("ik_three_card_war", "nb")).lower()
    assert "Högst värde vinner" in description(board_of("ik_endgame_one", "sv"))
    assert "laid cards face down" in description(board_of("rk1_war"))
    assert "target" not in description(board_of("rk1_war"))  # level 1 has no target
    war = description(board_of("rk5_war"))
    assert "The target is still 3." in war and "🎯 Target **3**" in war
    assert "no answer → no value\nbest move: 3 + (−2) = 1" in side_lines(board_of("rk5_war"), 0)


def test_earlier_cards_of_a_war_are_counted_not_shown() -> None:
    text = everything(board_of("rk1_war"))
    assert "[ 1 ] [ 1 ] (+8 in the pot)" in text
    assert "[ 3 ] (+2 i potten)" in everything(board_of("ik_war", "sv"))


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        ("over_all_cards", ["🏆 **P0** wins!", "One side has all the cards."]),
        ("over_time_up", ["🤝 It's a draw!", "Time is up: the side with the most cards wins."]),
        ("over_max_rounds", ["🏆 **P1** wins!", "highest number of rounds"]),
        ("over_stalemate", ["🤝 It's a draw!", "Nobody could lay new cards"]),
        ("over_forfeit", ["🏆 **P0** wins!", "P1 gave up."]),
        ("over_no_answers", ["Nobody answered 3 times in a row"]),
        ("stopped", ["cancelled before the first round was finished"]),
        ("abandoned", ["Nobody played for 10 minutes"]),
    ],
)
def test_game_over_says_who_won_and_why(name: str, lines: list[str]) -> None:
    text = description(board_of(name))
    assert text.startswith("🏁 **Game over**")
    for line in lines:
        assert line in text
    assert "Press **Rematch**" in text


def test_the_winner_is_marked_and_final_counts_shown() -> None:
    board = board_of("over_max_rounds")
    assert [f.name for f in board.embed.fields] == ["P0", "🏆 P1"]
    assert "**31 cards**" in (board.embed.fields[1].value or "")


def test_the_computer_is_named_in_the_boards_language() -> None:
    config = GameConfig(game="intervallkrig")
    state, events = drive(config, seed=1)
    for lang, name in (("nb", "🤖 Datamaskin (Middels)"), ("sv", "🤖 Datorn (Medel)")):
        board = render_board(live(config, state, events, (ADA, CPU)), lang, T0)
        assert board.embed.fields[1].name == name


def test_the_board_never_praises_the_computer() -> None:
    """A pupil's best answer is praised on the board; the computer's, as good, is not."""
    config = GameConfig(game="regnekrig", level=1, mode=Mode.REGN)
    state, events = drive(
        config, [Answer(0, "3+4=7"), Answer(1, "1+1=2")], piles=[[3, 4, 5, 5], [1, 1, 5, 5]]
    )
    praise = {t(f"lesson.praise.right.{n}", "en") for n in (1, 2)}
    people = everything(render_board(live(config, state, events), "en", T0))
    assert all(p in people for p in praise)  # each side praised, one way each
    board = everything(render_board(live(config, state, events, (ADA, CPU)), "en", T0))
    assert sum(p in board for p in praise) == 1  # Ada's only


def test_embed_colour_follows_the_game() -> None:
    colours = {
        board_of(name).embed.colour
        for name in ("rk5_answer", "ik_war", "sk_bet", "stopped", "abandoned")
    }
    assert len(colours) == 4  # three games, and grey for a game ended by hand


def test_war_piles_fixture_is_a_tie() -> None:
    """Guards the fixture the war tests rely on."""
    assert sum(WAR_PILES[0][:2]) == sum(WAR_PILES[1][:2])


# -- snapshots ----------------------------------------------------------------------------------

SNAPSHOTS = {"regnekrig": "rk5_next_target", "intervallkrig": "ik_war", "satsing": "sk_after_bets"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(SNAPSHOTS))
def test_snapshot_dump(game: str, lang: str) -> None:
    """One board per game per language as plain text (run with -s to read them)."""
    text = dump_board(board_of(SNAPSHOTS[game], lang), T0)
    print(f"\n----- {game} / {lang} -----\n{text}")
    assert "**" not in text and "<t:" not in text
    assert re.search(r"in \d+ s", text)


def test_at_the_target_levels_the_best_move_says_why_it_is_closest() -> None:
    """The issue's "At levels 5–7 the round's best-move line can say why it is closest": its
    distance to the target, beside the pupil's own ("… from 🎯")."""
    lines = side_lines(board_of("rk5_war"), 0)
    assert "best move: 3 + (\u22122) = 1, only 2 from 🎯" in lines
