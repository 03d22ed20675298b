"""Practice notes on Discord (RULES §2.6: an answer refused as rounded, ``not_exact``, or as a
fraction not simplified, ``not_simplified``, is typed again and never a mistake; issue: "practice
notes recorded per pupil, never counted as mistakes"): a count per game, pupil and note, never
the text typed, exported and forgotten with the pupil, purged with the game's result."""

from __future__ import annotations

from storage import Storage
from storage.records import PracticeNote

from .helpers import T0, new_game
from .results_helpers import DAY, duel, record


async def test_a_note_is_counted_per_game_pupil_and_code(store: Storage) -> None:
    game_id = await new_game(store)
    for code in ("not_simplified", "not_simplified", "not_exact"):
        await store.add_practice_note(game_id, 1, 101, code)
    await store.add_practice_note(game_id, 1, 102, "not_exact")
    await store.add_practice_note(game_id, 1, 102, "sign_slip")  # a mistake: no note
    assert await store.practice_notes(1) == [
        PracticeNote(game_id, 101, "not_exact", 1),
        PracticeNote(game_id, 101, "not_simplified", 2),
        PracticeNote(game_id, 102, "not_exact", 1),
    ]
    assert await store.practice_notes(1, 102) == [PracticeNote(game_id, 102, "not_exact", 1)]
    assert await store.practice_notes(2) == []


async def test_notes_are_exported_and_forgotten_with_the_pupil(store: Storage) -> None:
    game_id = await new_game(store)
    await store.set_status(game_id, "over", T0)
    await store.add_practice_note(game_id, 1, 101, "not_simplified")
    await store.add_practice_note(game_id, 1, 102, "not_exact")
    out = await store.export_user(101)
    assert [(r["game_id"], r["code"], r["n"]) for r in out["practice_notes"]] == [
        (game_id, "not_simplified", 1)
    ]
    assert "typed" not in out["practice_notes"][0] and "text" not in out["practice_notes"][0]
    assert (await store.forget_user(101, T0 + 1))["practice_notes"] == 1
    assert await store.practice_notes(1) == [PracticeNote(game_id, 102, "not_exact", 1)]
    await store.forget_guild(1, T0 + 2)
    assert await store.practice_notes(1) == []


async def test_notes_go_with_their_result_at_retention(store: Storage) -> None:
    old = await new_game(store, channel_id=1)
    await store.set_status(old, "over", T0)
    await record(store, duel(old, 101, 102, at=T0))
    await store.add_practice_note(old, 1, 101, "not_exact")
    await store.purge_old(
        games_before=T0 + 1,
        invitations_before=T0 + 1,
        results_before=T0 + DAY,
        weeks_before=300_001,
    )
    assert await store.practice_notes(1) == []
