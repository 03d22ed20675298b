"""The round the teacher puts on the projector draws the very cards the pupils saw: a round's
facts hold only the cards' values, so a game keeps the cards its sides laid face up (with
their suits) for the round in play and the one before."""

from __future__ import annotations

from classroom.settings import settings_from_options
from engine.actions import Flip
from engine.cards import Card
from engine.facts import RoundFacts
from engine.game import choices
from engine.intervallkrig_story import IntervalPlay
from engine.regnekrig import ANSWER, Answer
from table.board import Paths, Seen, card_html, card_name, table_parts
from table.games import Games, TableGame
from table.lesson import Lesson
from table.projected import shown_part
from tests.table.lessons import war_round
from tests.table.support import FakeClock, Seeds


def _game(game: str, seed: int) -> TableGame:
    settings = settings_from_options(game=game, level=1, answer_seconds=0)
    return Games(FakeClock(), Seeds([seed])).start(settings, ("Ada", "Bo"), (("a",), ("b",)))


def _best(game: TableGame, side: int) -> Answer:
    action = next(c.action for c in choices(game.state, side) if isinstance(c.action, Answer))
    assert isinstance(action, Answer)
    return action


def test_each_round_keeps_the_cards_each_side_saw_wars_too() -> None:
    """RULES §2.2 and §2.3: every side turns two cards and answers; equal values go to war,
    where two more are turned. After each round is revealed, the cards kept for it are, side
    by side and laying by laying, the very cards (suits and all) its sides answered about."""
    wars = 0
    for seed in range(1, 6):
        game = _game("regnekrig", seed)
        seen: dict[int, list[tuple[Card, ...]]] = {0: [], 1: []}
        for _ in range(40):
            if game.over:
                break
            assert game.state.phase is ANSWER
            for side in (0, 1):
                seen[side].append(game.state.up[side])
            before = game.state.round
            for side in (0, 1):
                game.play(_best(game, side))
            if game.state.round == before and not game.over:
                continue  # a war: its cards are answered in the same round
            facts = game.view(None).result
            assert facts is not None and facts.round == before
            kept = game.laid_in(facts)
            assert kept == seen, (seed, before)
            assert all(c.suit is not None for laid in kept.values() for t in laid for c in t)
            wars += len(seen[0]) > 1
            seen = {0: [], 1: []}
    assert wars, "no war in these seeds: the test would not check one"


def test_a_round_decided_at_its_flip_is_kept_by_its_values() -> None:
    """RULES §3.2: in Intervallkrig one flip turns the cards and decides the round, so no
    device ever showed them: the round is drawn by its cards' values alone (no suit is made
    up), each still a card element with a spoken name."""
    game = _game("intervallkrig", 3)
    game.play(Flip(0))
    facts = game.view(None).result
    assert facts is not None
    kept = game.laid_in(facts)
    played = {p.side: p.up for c in facts.comparisons for p in c.plays if p.up}
    assert {s: [tuple(c.value for c in t) for t in laid] for s, laid in kept.items()} == {
        s: [up] for s, up in played.items()
    }
    cards = [c for laid in kept.values() for t in laid for c in t]
    assert cards and all(c.suit is None for c in cards)
    assert card_name(Card(-1, -4), "en") == "minus 4"


def _war_after_swaps(facts: RoundFacts) -> bool:
    plays = [p for c in facts.comparisons for p in c.plays]
    swapped = any(isinstance(p, IntervalPlay) and p.swap for p in plays)
    return facts.decided and len(facts.comparisons) > 1 and swapped


def test_the_projector_draws_every_laying_of_a_war_round_in_its_place() -> None:
    """RULES §3.3 and §3.2: each side bets (and swaps) on its two cards; equal cards go to war,
    face down then face up. On the projector each of a side's layings is drawn where its line
    names it (the round's, then the war's), as card elements, with no card left told as text
    and no separator left hanging before a row of cards ("· bet and swapped …")."""
    lesson = Lesson("class", FakeClock(), Seeds([5]))
    settings = settings_from_options(game="satsing", level=1, answer_seconds=0)
    game = lesson.games.start(settings, ("Ada", "Bo"), (("a",), ("b",)))
    facts = None
    for _ in range(400):
        offered = choices(game.state)
        game.play(offered[0].action)  # a flip, or the first bet (a swap) of a side
        facts = game.view(None).result
        if game.over or (facts is not None and _war_after_swaps(facts)):
            break
    assert facts is not None and len(facts.comparisons) > 1, "no war in this seed"
    lesson.show(game.id)
    assert lesson.projected is not None
    drawn = shown_part(lesson, "en")
    for side, layings in lesson.projected.cards.items():
        plays = [p.up for c in facts.comparisons for p in c.plays if p.side == side and p.up]
        assert [tuple(c.value for c in cards) for cards in layings] == plays
        for cards in layings:
            assert " ".join(card_html(c, "en") for c in cards) in drawn
    assert "[ " not in drawn and "</span></span></span> ·" not in drawn


def _news(game: TableGame) -> str:
    """The news box of side 0's pupil."""
    paths = Paths("/table/act", "/table", "/table/replay.json", "/table/more-time")
    return table_parts(game, "en", 0.0, paths, Seen((0,), {0: "a"}, pupil=True))["now"]


def test_a_pupils_news_draws_every_laying_of_a_war_round_as_the_tables_drew_it() -> None:
    """RULES §2.2 and §2.3: a war lays cards again. A pupil's news box tells the last round
    with every side's layings drawn as card elements (suits and spoken names, as the sides'
    own tables drew them), none left told as text."""
    lesson = Lesson("class", FakeClock(), Seeds(list(range(1, 80))))
    game = war_round(lesson, "regnekrig", 2)
    facts = game.view(None).result
    assert facts is not None
    news = _news(game)
    layings = [cards for laid in game.laid_in(facts).values() for cards in laid]
    assert len(layings) >= 4 and all(c.suit is not None for cards in layings for c in cards)
    for cards in layings:
        assert " ".join(card_html(c, "en") for c in cards) in news
    assert "[ " not in news


def test_a_pupils_news_draws_a_round_decided_at_its_flip_by_its_values() -> None:
    """RULES §3.2: one flip turns the cards and decides the round, so no device drew them:
    the news draws them by their values alone (no suit made up), each a card element."""
    game = _game("intervallkrig", 3)
    game.play(Flip(0))
    facts = game.view(None).result
    assert facts is not None
    news = _news(game)
    played = [p.up for c in facts.comparisons for p in c.plays if p.up]
    assert played
    for values in played:
        assert " ".join(card_html(Card(-1, v), "en") for v in values) in news
    assert "[ " not in news
