"""Elo ratings per server and game: who is rated, by how much, and why not.

Why Elo and not Glicko-2: a teacher can explain Elo to a class in one sentence ("beat someone
rated above you and you gain more; lose to someone below and you lose more"), it needs no
rating periods or volatility parameters, every change is a whole number that can be shown
and reversed exactly, and a class plays few enough games that Glicko-2's confidence
intervals would mostly show "unsure" anyway.

The rules:

* everyone starts at 1000; K = 32;
* only games between people that ended by the rules are rated: a game with a computer seat,
  or one stopped or abandoned, is not (its answers still count for accuracy);
* only games where skill decides are rated: the game registry says which modes those are
  (`GameDescriptor.rated_modes`: regn-mode regnekrig and satsing); auto mode and plain
  intervallkrig are decided by the cards alone, so they count in results but move no rating;
* at most three rated games per pair of players per day (Europe/Oslo) in a server and game:
  a game in which any two opponents already have three is not rated at all (rating it for
  some players only would make the points stop adding up); this is what stops two friends
  farming the board by playing each other fifty times;
* a team is rated as the mean of its members' ratings and every member gets the team's
  change;
* three or four sides (free-for-all) are rated pairwise: every side meets every other side,
  scoring 1 / ½ / 0 by the outcome (the winner beats everyone; others by the cards they hold
  at the end, as the rules rank them), and K is divided by (sides − 1) so one game moves a
  rating at most as much as a two-side game;
* a rating changes in two scopes at once: the current season (reset by a new season) and
  all time (never reset).

A voided game subtracts exactly the change it made (stored per player and scope) and leaves
later games alone: recomputing them would silently move other pupils' ratings for games
they played fairly, which a class would find harder to trust than a small approximation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from engine.errors import ConfigurationError
from engine.registry import descriptor
from storage import ALL_TIME, GameResult, RatingChange, RatingPlan, season_scope

START_RATING = 1000
K_FACTOR = 32
PAIR_GAMES_PER_DAY = 3


def expected(rating: float, opponent: float) -> float:
    """The Elo expected score of ``rating`` against ``opponent`` (0–1).

    >>> expected(1000, 1000)
    0.5
    >>> round(expected(1200, 1000), 3)
    0.76
    """
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def unrated_reason(result: GameResult) -> str | None:
    """Why a game is not rated whatever the ratings and caps say, or None."""
    if not result.finished:
        return "ended_early"
    if result.computer or any(p.user_id is None for p in result.players):
        return "computer"
    if len({p.side for p in result.players}) < 2:
        return "one_side"
    if not _skill_decides(result):
        return "luck"
    return None


def _skill_decides(result: GameResult) -> bool:
    try:
        return descriptor(result.game).is_rated(result.mode)
    except ConfigurationError:  # a game the engine no longer knows is not rated
        return False


def pair_score(result: GameResult, side: int, other: int) -> float:
    """Side's score against other: 1 win, ½ draw, 0 loss (RULES §1.5 ranks by cards held)."""
    if result.winner == side:
        return 1.0
    if result.winner == other:
        return 0.0
    cards = {p.side: p.cards_end for p in result.players}
    mine, theirs = cards.get(side), cards.get(other)
    if mine is None or theirs is None or mine == theirs:
        return 0.5
    return 1.0 if mine > theirs else 0.0


def side_deltas(result: GameResult, side_ratings: Mapping[int, float]) -> dict[int, int]:
    """Each side's whole-number change for one scope (pairwise, K shared over opponents)."""
    sides = sorted(side_ratings)
    k = K_FACTOR / (len(sides) - 1)
    raw = dict.fromkeys(sides, 0.0)
    for a, b in combinations(sides, 2):
        score = pair_score(result, a, b)
        change = k * (score - expected(side_ratings[a], side_ratings[b]))
        raw[a] += change
        raw[b] -= change
    return {side: round(value) for side, value in raw.items()}


def plan(
    result: GameResult,
    ratings: Mapping[tuple[str, int], int],
    pair_counts: Mapping[frozenset[int], int],
    scopes: Sequence[str] | None = None,
) -> RatingPlan:
    """The `Rater` handed to `Storage.record_result`: rated or not, and every change."""
    reason = unrated_reason(result)
    if reason is not None:
        return RatingPlan(False, reason)
    if any(count >= PAIR_GAMES_PER_DAY for count in pair_counts.values()):
        return RatingPlan(False, "pair_cap")
    if scopes is None:
        scopes = (ALL_TIME, season_scope(result.season))
    members: dict[int, list[int]] = {}
    for p in result.players:
        assert p.user_id is not None
        members.setdefault(p.side, []).append(p.user_id)
    changes: list[RatingChange] = []
    for scope in scopes:
        current = {u: ratings.get((scope, u), START_RATING) for us in members.values() for u in us}
        side_ratings = {s: sum(current[u] for u in us) / len(us) for s, us in members.items()}
        deltas = side_deltas(result, side_ratings)
        for side, users in members.items():
            changes.extend(RatingChange(u, scope, current[u], deltas[side]) for u in users)
    return RatingPlan(True, None, tuple(changes))
