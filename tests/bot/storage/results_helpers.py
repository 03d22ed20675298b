"""Builders for the results contract tests: hand-made results, so every number is known."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storage import (
    GameResult,
    OperationTally,
    PlayerOutcome,
    PlayerResult,
    RatingChange,
    RatingPlan,
    ResultReason,
    Storage,
)

from .helpers import T0

DAY = 86_400_000


def seat(
    seat_no: int,
    side: int,
    user_id: int | None,
    outcome: PlayerOutcome,
    *,
    name: str | None = None,
    answers: int = 0,
    correct: int = 0,
    ops: Sequence[OperationTally] = (),
    computer: str | None = None,
) -> PlayerResult:
    return PlayerResult(
        seat=seat_no,
        side=side,
        kind="user" if user_id is not None else "computer",
        display_name=name or (f"user{user_id}" if user_id else "Datamaskin"),
        outcome=outcome,
        user_id=user_id,
        computer=computer if user_id is None else None,
        cards_end=52 if outcome == "win" else 0,
        rounds_won=3,
        answers=answers,
        correct=correct,
        best=correct,
        answer_ms=answers * 1000,
        operations=tuple(ops),
    )


def duel(
    game_id: int,
    winner_id: int,
    loser_id: int,
    *,
    at: int = T0,
    guild_id: int = 1,
    game: str = "regnekrig",
    level: int = 1,
    reason: ResultReason = "all_cards",
    day: int = 20231114,
    week: int = 202346,
    answers: Mapping[int, tuple[int, int]] | None = None,
) -> GameResult:
    """A two-player game ``winner_id`` won against ``loser_id``; ``answers`` maps a user to
    (answers, correct)."""
    answers = answers or {}
    outcomes: tuple[tuple[int, PlayerOutcome], ...] = ((winner_id, "win"), (loser_id, "loss"))
    players = tuple(
        seat(
            i,
            i,
            uid,
            outcome,
            answers=answers.get(uid, (0, 0))[0],
            correct=answers.get(uid, (0, 0))[1],
        )
        for i, (uid, outcome) in enumerate(outcomes)
    )
    return GameResult(
        game_id=game_id,
        guild_id=guild_id,
        channel_id=500,
        game=game,
        level=level,
        deck="heltall",
        mode="regn",
        sides=2,
        teams=False,
        computer=False,
        winner=0,
        reason=reason,
        rounds=10,
        started_at=at - 60_000,
        ended_at=at,
        players=players,
        day=day,
        week=week,
    )


class FlatRater:
    """Rates every game: winner +10, loser -10 in the scopes given; records what it saw."""

    def __init__(self, rated: bool = True) -> None:
        self.rated = rated
        self.seen: list[tuple[Mapping[tuple[str, int], int], Mapping[frozenset[int], int]]] = []

    def __call__(
        self,
        result: GameResult,
        ratings: Mapping[tuple[str, int], int],
        pairs: Mapping[frozenset[int], int],
    ) -> RatingPlan:
        self.seen.append((dict(ratings), dict(pairs)))
        if not self.rated:
            return RatingPlan(False, "test")
        changes = []
        for scope in ("all", f"s{result.season}"):
            for p in result.players:
                assert p.user_id is not None
                delta = 10 if p.outcome == "win" else -10
                changes.append(
                    RatingChange(p.user_id, scope, ratings.get((scope, p.user_id), 1000), delta)
                )
        return RatingPlan(True, None, tuple(changes))


async def record(store: Storage, result: GameResult, rate: FlatRater | None = None) -> GameResult:
    stored = await store.record_result(result, at=result.ended_at + 1, rate=rate or FlatRater())
    assert stored is not None
    return stored
