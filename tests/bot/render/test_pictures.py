"""Card pictures of the table (bot/render/pictures): every kind of round draws, in every
language and deck, small and sharp, the same view always gives the same bytes, and the
alternative text tells the round in the board's language."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from bot.render.pictures import ALT_MAX, FILENAME, Picture, draw_table, forget, scene, tiles
from bot.render.pictures import palette as p
from bot.render.pictures.__main__ import main
from bot.render.pictures.compose import SCALE, WIDTH, height
from bot.render.pictures.fonts import fit, font
from bot.render.pictures.gallery import NAMES, Position, every_position, positions
from bot.render.pictures.tiles import Face, Mark
from classroom.i18n import LANGS, t
from engine.cards import DeckProfile
from engine.config import GameConfig, Mode
from engine.game import apply, new_game
from engine.regnekrig import Answer
from engine.view import view
from tests.bot.render.pictures_check import difference, every_cache_cold, open_png

PNG = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 60 * 1024  # a picture's budget for four sides (docs/performance.md)
POSITIONS = every_position()


def _by_name(name: str) -> Position:
    return next(p for p in POSITIONS if p.name == name)


def test_the_gallery_has_every_kind_of_round() -> None:
    """The gallery covers each game, levels 1/5/7, war, exact hit, endgame, four sides, game
    over."""
    names = " ".join(p.name for p in POSITIONS)
    for kind in (
        "regnekrig-1",
        "regnekrig-5",
        "regnekrig-7",
        "intervallkrig",
        "satsing",
        "war",
        "exact-hit",
        "endgame",
        "four-sides",
        "over",
    ):
        assert kind in names, kind
    for deck in DeckProfile:
        assert any(p.view.config.deck is deck for p in POSITIONS), deck


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_every_round_draws_in_every_language(position: Position, lang: str) -> None:
    shown = draw_table(position.view, NAMES, lang)
    assert isinstance(shown, Picture) and shown.filename == FILENAME
    assert shown.png.startswith(PNG)
    assert len(shown.png) <= MAX_BYTES
    image = open_png(shown.png)
    assert image.mode == "P"  # an 8-bit palette: what keeps it small
    sides = len(position.view.sides)
    banner = bool(scene(position.view, NAMES, lang).banner)
    assert image.size == (WIDTH * SCALE, height(sides, banner) * SCALE)
    assert shown.alt and len(shown.alt) <= ALT_MAX


def test_four_sides_stay_small() -> None:
    """The budget: PNG ≤ 60 KB for four sides, at 2× scale for sharp phones."""
    four = [p for p in POSITIONS if len(p.view.sides) == 4]
    assert four
    for position in four:
        shown = draw_table(position.view, NAMES, "nb")
        assert len(shown.png) <= MAX_BYTES
        assert open_png(shown.png).width == 2 * WIDTH


def test_the_same_view_gives_the_same_bytes() -> None:
    """Pictures are deterministic: drawn afresh (caches emptied) they are byte for byte the same;
    another state gives another picture."""
    position = _by_name("regnekrig-6-four-sides-exact-hit")
    first = draw_table(position.view, NAMES, "sv").png
    forget()
    tiles.face.cache_clear()
    tiles.text.cache_clear()
    again = draw_table(position.view, NAMES, "sv").png
    assert again == first
    other = draw_table(_by_name("regnekrig-5-exact-hit").view, NAMES, "sv").png
    assert other != first


def test_a_second_drawing_of_the_same_state_is_the_cached_picture() -> None:
    position = _by_name("satsing-swap")
    first = draw_table(position.view, NAMES, "en")
    assert draw_table(position.view, dict(NAMES), "en-GB") is first  # same scene, same picture
    assert draw_table(position.view, NAMES, "nb") is not first


def test_drawing_from_many_threads_gives_the_same_pictures() -> None:
    """Callers may draw in threads (`asyncio.to_thread`): every round drawn at once from many
    threads, every cache cold, gives exactly what drawing one by one gives. The interpreter
    switches threads as often as it can meanwhile, so a step of the drawing that two threads
    could take at once would interleave here, not only on a busy machine."""
    jobs = [(p.view, "nb") for p in POSITIONS]
    every_cache_cold()
    expected = [draw_table(view, NAMES, lang).png for view, lang in jobs]
    every_cache_cold()
    results: dict[int, bytes] = {}

    def work(index: int) -> None:
        view, lang = jobs[index]
        results[index] = draw_table(view, NAMES, lang).png

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
        forget()  # a wrong picture kept here would fail other tests, not this one
    differ = [i for i in range(len(jobs)) if results[i] != expected[i]]
    assert differ == [], [difference(POSITIONS[i].name, results[i], expected[i]) for i in differ]


def test_the_picture_shows_no_secret() -> None:
    """RULES §2.2: answers are revealed together. A side's own view and the table's view of the
    same moment give the same picture: what one side typed never reaches it."""
    config = GameConfig("regnekrig", level=1, mode=Mode.REGN)
    state, _ = new_game(config, piles=[[3, 4, 1, 1], [2, 2, 1, 1]])
    asked = scene(view(state, None), NAMES, "en")
    state, _ = apply(state, Answer(0, "3 + 4 = 7"))
    own = scene(view(state, 0), NAMES, "en")
    assert own == scene(view(state, None), NAMES, "en")
    assert "3 + 4" not in draw_table(view(state, 0), NAMES, "en").alt
    # Nor does the picture change for it: "has answered ✓" is the text's news, and the
    # picture (a new upload for every pupil) changes only when the table does.
    assert own == asked


@pytest.mark.parametrize("lang", LANGS)
def test_the_alternative_text_tells_the_round_in_the_language(lang: str) -> None:
    """The text stays the picture's alternative: every side's name, cards and play, the target
    and the news, in the board's language."""
    position = _by_name("regnekrig-6-four-sides-exact-hit")
    shown = draw_table(position.view, NAMES, lang)
    assert shown.alt.startswith(t("picture.alt.table", lang, game="", round="").split(":")[0])
    assert t("picture.alt.target", lang, target=9) in shown.alt
    assert t("picture.banner.exact", lang, name="Björn") in shown.alt
    for side, name in NAMES.items():
        assert name in shown.alt
        count = position.view.sides[side].count
        assert t("cards.one" if count == 1 else "cards.other", lang, count=count) in shown.alt
    assert "−3 · (−3) = 9" in shown.alt
    others = {draw_table(position.view, NAMES, other).alt for other in LANGS}
    assert len(others) == len(LANGS)


def test_each_side_plays_under_its_cards() -> None:
    """The round's plays as the engine told them (RULES §2.2, §2.5): the expression and its
    value, with the true minus sign; a wrong answer counts as no value."""
    rows = scene(_by_name("regnekrig-6-four-sides-exact-hit").view, NAMES, "en").rows
    assert [r.play for r in rows] == ["6 + 2 = 8", "−3 · (−3) = 9", "5 + (−1) = 4", "0 + 4 = 4"]
    assert [tuple(f.value for f in r.cards) for r in rows] == [(6, 2), (-3, -3), (5, -1), (0, 4)]
    # The next round is dealt at once (levels 1–4): the war's plays are the round before.
    war = scene(_by_name("regnekrig-1-war-won").view, NAMES, "en").rows
    no_value = t("picture.play.no_value", "en", played="1 · 1 = 1")
    assert war[1].note == t("picture.last", "en", play=no_value)
    assert war[0].note_mark is Mark.TROPHY and war[1].note_mark is None


def test_the_result_marks() -> None:
    """🏆 for the round's winner, ⚔️ for the sides at war, 🎯 for an exact hit (RULES §2.3,
    §2.5), drawn as shapes."""
    exact = scene(_by_name("regnekrig-6-four-sides-exact-hit").view, NAMES, "en")
    assert exact.rows[1].marks == (Mark.BULLSEYE, Mark.TROPHY)
    assert [r.marks for r in exact.rows if r.side != 1] == [(), (), ()]
    assert exact.banner_mark is Mark.BULLSEYE and exact.target == "9"
    war = scene(_by_name("regnekrig-1-war").view, NAMES, "en")
    assert war.banner_mark is Mark.SWORDS
    assert [r.marks for r in war.rows] == [(Mark.SWORDS,), (Mark.SWORDS,)]
    # §2.3: under the two new cards, the two that tied and two laid face down (war size 2).
    assert [r.stack for r in war.rows] == [4, 4]


def test_face_down_cards_are_a_stack_with_a_count() -> None:
    """RULES §3.2: a war lays cards face down; the picture shows them as backs and a count."""
    position = _by_name("intervallkrig-war-flipped")
    rows = scene(position.view, NAMES, "en").rows
    assert [r.stack for r in rows] == [3, 3]
    stack = tiles.stack(5, SCALE)
    assert stack.width == (tiles.BACK_W + 2 * tiles.STACK_STEP) * SCALE  # three backs shown


def test_an_interval_and_its_third_card() -> None:
    """RULES §3.1, §3.3: the interval (after a swap) and the third card, inside or outside."""
    rows = scene(_by_name("satsing-swap").view, NAMES, "en").rows
    assert rows[1].note == t(
        "picture.last",
        "en",
        play=t("picture.play.inside", "en", third="0", low="−6", high="5")
        + ", "
        + t("picture.play.swapped", "en", old="6", new="−6"),
    )
    flipped = scene(_by_name("intervallkrig-war").view, NAMES, "en").rows
    assert [f.value for f in flipped[0].cards] == [1, 5]
    assert flipped[0].third is not None and flipped[0].third.value == 3


def _colours(image: Image.Image) -> Counter[p.RGB]:
    rgb = image.convert("RGB")
    colours: Counter[p.RGB] = Counter()
    for count, colour in rgb.getcolors(1 << 16) or []:
        assert isinstance(colour, tuple) and len(colour) == 3  # an RGB image's: a triple each
        colours[colour] = count
    return colours


def test_the_fortegn_deck_is_red_for_negative_and_black_for_positive() -> None:
    """RULES §1.1: in `fortegn` black suits are +1…+13 and red suits −1…−13, so the colour
    carries the sign even when the suit is unknown (a past round's facts keep values only)."""
    negative = _colours(tiles.face(Face("fortegn", -8), SCALE))
    positive = _colours(tiles.face(Face("fortegn", 8), SCALE))
    assert negative[p.RED] > 100 and positive[p.RED] == 0
    assert positive[p.INK] > 100 and negative[p.INK] == 0


def test_the_heltall_deck_has_its_own_face() -> None:
    """RULES §1.1: `heltall` carries −6…6 in every suit, so its colours mean nothing: its face
    has its own ink and a number line from −6 to 6 with the value marked."""
    low = tiles.face(Face("heltall", -6, "H", 1), SCALE)
    high = tiles.face(Face("heltall", 6, "H", 13), SCALE)
    assert _colours(low)[p.NAVY] > 100
    assert _colours(low)[p.RED] == 0  # a red heart would read as a minus sign
    assert low.tobytes() != high.tobytes()
    assert tiles.face(Face("heltall", 5), SCALE).tobytes() != (
        tiles.face(Face("vanlig", 5), SCALE).tobytes()
    )


def test_card_faces_are_drawn_once() -> None:
    face = Face("vanlig", 12, "D", 12)
    assert tiles.face(face, SCALE) is tiles.face(face, SCALE)


@pytest.mark.parametrize("lang", LANGS)
def test_a_play_too_long_for_its_row_is_cut_between_words(lang: str) -> None:
    """A row's play is its most useful line: shortened to fit, it loses whole words from its
    end (the swap, told after the verdict), never half a word or half an interval
    ("9 innenfor [−…" tells a pupil nothing)."""
    verdict = t("picture.play.inside", lang, third="−9", low="−12", high="13")
    text = verdict + ", " + t("picture.play.swapped", lang, old="−12", new="13")
    for width in range(60, 600, 7):
        shown = fit(text, 15, True, width)
        if shown == text:
            continue
        stem = shown.removesuffix("…")
        assert text.startswith(stem) and text[len(stem)] in " ,", (width, shown)
        if width >= font(15, True).getlength(verdict + "…"):  # room for the verdict: kept
            assert shown.startswith(verdict), (width, shown)


def test_long_names_are_cut_to_fit() -> None:
    """Discord names may be 32 characters of the widest letter; the picture keeps its size and
    prints Markdown characters as they are (it is not an embed)."""
    position = _by_name("regnekrig-6-four-sides-exact-hit")
    names = {side: "W" * 32 for side in range(4)} | {0: "**bold_name**"}
    shown = draw_table(position.view, names, "en")
    assert open_png(shown.png).width == WIDTH * SCALE
    assert "**bold_name**" in shown.alt


def test_positions_deal_every_deck() -> None:
    for deck in DeckProfile:
        dealt = positions(deck)
        assert {p.view.config.deck for p in dealt if p.name.endswith(deck.value)} == {deck}


def test_the_gallery_command_writes_every_round_in_every_language(tmp_path: Path) -> None:
    """`python -m bot.render.pictures --gallery DIR`: a picture and its text per kind and
    language."""
    assert main(["--gallery", str(tmp_path)]) == 0
    for lang in LANGS:
        pictures = sorted(path.stem for path in (tmp_path / lang).glob("*.png"))
        assert pictures == sorted(p.name for p in POSITIONS)
        texts = sorted(path.stem for path in (tmp_path / lang).glob("*.txt"))
        assert texts == pictures
    alt = (tmp_path / "sv" / "regnekrig-5-exact-hit.txt").read_text("utf-8")
    assert alt.startswith("Kortbord: Räknekrig")
