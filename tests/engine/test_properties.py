"""Hypothesis properties of the whole engine (DESIGN.md, Tests): for every game, level, deck
profile, mode and number of sides, driven by random legal actions and random answers.

Properties, each checked after every step unless said otherwise:

* RULES §4 card conservation: draw piles + collection piles + pot + set aside are the cards
  dealt, each card exactly once;
* RULES §1.6: `restore(config, seed, actions)` gives the same state, and so does `restore`
  from the recorded JSON events (the chance outcomes taken from the record);
* every illegal action (wrong side, wrong phase, target out of range, bad swap, unreadable
  answer, after the end) raises an `EngineError` and leaves the state `==` unchanged;
* `legal_actions` is empty iff the game is over, and the legal actions apply;
* burning the global `random` module between steps changes nothing (rlcard);
* RULES §1.5: every game ends within the round cap;
* `engine.replay.run` reports consistent counts (counts + table + set aside = cards dealt).

The games are driven by a `random.Random` seeded by Hypothesis (a whole game is hundreds of
steps; drawing each step from Hypothesis would be slow), and by a `RuleBasedStateMachine`
whose steps Hypothesis draws and shrinks itself.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from engine import solver
from engine.actions import Abandon, Action, Flip, Forfeit, Timeout, TimeUp
from engine.cards import DeckProfile
from engine.config import GameConfig, Mode, WarRule
from engine.errors import EngineError
from engine.events import Event
from engine.game import apply, legal_actions, new_game, restore, waiting_for
from engine.intervallkrig import BET, Bet, Pass
from engine.levels import AnswerForm
from engine.registry import GAMES, action_from_json, action_to_json
from engine.regnekrig import (
    ANSWER,
    TARGET,
    TARGET_MAX,
    TARGET_MIN,
    Answer,
    NameTarget,
    judge_answer,
    part_of,
)
from engine.replay import run
from engine.solver import best, reachable
from engine.state import GameState, Phase

# Texts `parse` cannot read: refused with an `ExpressionError`, the answer may be typed again.
# ("5." was one until §2.6 read a trailing decimal point: "7." is 7.)
UNREADABLE = ("", "   ", "2 +", "(((", "abc", "1 5", "5..", "√", ")(", "2 # 3")
# Readable answers that are (almost always) not a legal value: judged, they count as no value.
# Each expression gives its result, so it is an answer in every answer form (RULES §2.2).
READABLE_WRONG = (
    "99",
    "1+1=2",
    "-3*4=-12",
    "2^2=4",
    "sqrt(4)+6=8",
    "7/2",
    "3²-5=4",
    "0:0=0",
    "1:0=1",
    "2+2=5",
)

PROPERTY_SETTINGS = settings(
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def configs(modes: Sequence[Mode] = tuple(Mode)) -> st.SearchStrategy[GameConfig]:
    """Every game, level, deck, mode, side count and war option; a small round cap so a game
    stays short enough for CI."""
    return st.builds(
        GameConfig,
        game=st.sampled_from(list(GAMES)),
        level=st.sampled_from(range(1, 8)),  # sampled: every level equally often
        deck=st.sampled_from(list(DeckProfile)),
        mode=st.sampled_from(list(modes)),
        sides=st.sampled_from(range(2, 5)),
        war_size=st.sampled_from(range(1, 7)),
        war_rule=st.sampled_from(list(WarRule)),
        max_rounds=st.integers(30, 200),
        answer_form=st.sampled_from(list(AnswerForm)),
    )


@st.composite
def stacked_piles(draw: st.DrawFn, sides: int) -> list[list[int]] | None:
    """Mostly a real deal (None); sometimes short stacked piles, which reach the endgame,
    stalemates and sides with no card (RULES §2.4, §3.4, §3.5) within a few rounds."""
    if draw(st.integers(0, 3)) > 0:
        return None
    pile = st.lists(st.integers(-6, 13), min_size=0, max_size=12)
    return [draw(pile) for _ in range(sides)]


def dealt_ids(state: GameState) -> list[int]:
    return sorted(card.id for card in state.all_cards())


def answer_text(state: GameState, side: int, rnd: random.Random) -> str:
    """A readable answer: the best play, a random reachable value's expression with its value
    (RULES §2.2: "the value, alone or after the expression that gives it") or the value as a
    number, or a readable wrong answer (which counts as no value)."""
    a, b = (card.value for card in state.up[side])
    level = state.config.level
    options = reachable(a, b, level)
    roll = rnd.random()
    if options and roll < 0.3:
        value = rnd.choice(sorted(options))
        return solver.answer_text(options[value], value)
    if options and roll < 0.45:
        return str(rnd.choice(sorted(options)))
    if roll < 0.6:
        return rnd.choice(READABLE_WRONG)
    play = best(a, b, level, part_of(state).target)
    return play.answer if play.value is not None else rnd.choice(READABLE_WRONG)


def random_action(state: GameState, rnd: random.Random, time_up_chance: float = 0.005) -> Action:
    """A random legal action; answers are free text (`answer_text`); time runs out rarely."""
    legal = legal_actions(state)
    assert legal, "a game that is not over has legal actions"
    if state.phase is ANSWER and rnd.random() < 0.5:
        side = rnd.choice(state.pending)
        return Answer(side, answer_text(state, side, rnd))
    if TimeUp() in legal and rnd.random() < time_up_chance:
        return TimeUp()
    endings = [a for a in legal if isinstance(a, Forfeit | Abandon)]  # RULES §1.5, rarely
    if endings and rnd.random() < time_up_chance:
        return rnd.choice(endings)
    choices = [a for a in legal if not isinstance(a, TimeUp | Forfeit | Abandon)]
    return rnd.choice(choices or legal)


def illegal_actions(state: GameState) -> list[Action]:
    """Actions `apply` must refuse now: wrong side, wrong phase, out-of-range target, bad swap,
    unreadable answer, a side that is not asked, time up twice, anything after the end."""
    n = state.config.sides
    actions: list[Action] = [
        Flip(n),
        Flip(-1),
        NameTarget(n, 0),
        Answer(-1, "1"),
        Bet(n, 0),
        Pass(n + 1),
        Timeout(-1),
    ]
    if state.is_over:
        return [*actions, Flip(0), TimeUp(), Timeout(0), NameTarget(0, 0), Pass(0)]
    phase = state.phase
    if phase is not TARGET:
        actions.append(NameTarget(0, 0))
    if phase is not ANSWER:
        actions.append(Answer(0, "1"))
    if phase is not BET:
        actions.extend((Bet(0, 0), Pass(0)))
    if phase is Phase.FLIP:
        actions.append(Timeout(0))
    elif state.config.mode is Mode.REGN:
        actions.append(Flip(0))
    others = [s for s in range(n) if s not in state.pending]
    if phase is TARGET:
        actions.extend(
            (
                NameTarget(part_of(state).namer, TARGET_MAX + 1),
                NameTarget(part_of(state).namer, TARGET_MIN - 1),
            )
        )
        actions.extend(NameTarget(s, 0) for s in others)
        actions.extend(Timeout(s) for s in others)
    elif phase is ANSWER:
        for side in state.pending:
            actions.extend(Answer(side, text) for text in UNREADABLE)
        actions.extend(Answer(s, "1") for s in others)
        actions.extend(Timeout(s) for s in others)
    elif phase is BET:
        for side in state.pending:
            actions.extend((Bet(side, 2), Bet(side, -1)))
        actions.extend(Pass(s) for s in others)
        actions.extend(Bet(s, 0) for s in others)
    if state.time_up:
        actions.append(TimeUp())
    return actions


def assert_refused(state: GameState, action: Action) -> None:
    """The action raises an `EngineError` and the state is unchanged (its full `repr` too, so
    a change hidden from `==`, e.g. in the RNG's recorded outcomes, would show)."""
    snapshot = repr(state)
    try:
        apply(state, action)
    except EngineError:
        pass
    else:
        raise AssertionError(f"{action!r} was accepted in phase {state.phase}")
    assert repr(state) == snapshot


def events_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The events as they are stored: through JSON text and back."""
    loaded: list[dict[str, Any]] = json.loads(json.dumps([e.to_json() for e in events]))
    return loaded


@dataclass
class Played:
    """One driven game: what was applied and what it caused."""

    config: GameConfig
    seed: int
    piles: list[list[int]] | None
    state: GameState
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def drive(
    config: GameConfig,
    seed: int,
    piles: list[list[int]] | None,
    choices: int,
    between: Callable[[int], None] = lambda step: None,
    check: bool = False,
    max_steps: int = 5_000,
) -> Played:
    """Play a game with random actions (`choices` seeds the chooser) to its end. `between`
    runs before every step (burning the global RNG); `check` tests every step's properties."""
    rnd = random.Random(choices)
    state, events = new_game(config, seed, piles)
    played = Played(config, seed, piles, state, [], list(events))
    dealt = dealt_ids(state)
    for step in range(max_steps):
        if check:
            assert dealt_ids(state) == dealt  # RULES §4
            assert (legal_actions(state) == []) == state.is_over
            for action in rnd.sample(illegal_actions(state), 3):
                assert_refused(state, action)
        if state.is_over:
            break
        between(step)
        action = random_action(state, rnd)
        before = repr(state) if check else ""
        previous, (state, new_events) = state, apply(state, action)
        # An accepted action leaves its input alone too (`Dealer` shares the frozen piles).
        assert not check or repr(previous) == before
        played.actions.append(action)
        played.events.extend(new_events)
    played.state = state
    return played


# -- properties over whole games ---------------------------------------------------------------


@settings(PROPERTY_SETTINGS, max_examples=300)
@given(
    data=st.data(),
    config=configs(),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
)
def test_whole_games_keep_every_invariant(
    data: st.DataObject, config: GameConfig, seed: int, choices: int
) -> None:
    """RULES §4 conservation, illegal actions refused unchanged and `legal_actions` empty iff
    over, after every step of a whole game; then §1.6 restore (from the actions, and from the
    recorded JSON events) gives the final state, and §1.5 the game ended within its cap."""
    piles = data.draw(stacked_piles(config.sides))
    played = drive(config, seed, piles, choices, check=True)
    state = played.state
    assert state.is_over and state.round <= config.max_rounds
    _note_coverage(played)
    assert restore(config, seed, played.actions, piles=piles) == state
    recorded = events_json(played.events)
    assert restore(config, seed, played.actions, recorded, piles=piles) == state
    assert [e["seq"] for e in recorded] == list(range(1, len(recorded) + 1))


RARE_EVENTS = ("reshuffle", "endgame_shuffle", "pot_returned", "bonus", "swap", "side_out")


def _note_coverage(played: Played) -> None:
    """`--hypothesis-show-statistics` shows how often the rare rules were reached."""
    assert played.state.outcome is not None
    event(f"ended: {played.state.outcome.reason.value}")
    kinds = {e.type for e in played.events}
    for kind in RARE_EVENTS:
        if kind in kinds:
            event(f"reached: {kind}")


@PROPERTY_SETTINGS
@given(config=configs(), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_restore_from_recorded_events_ignores_the_seed(
    config: GameConfig, seed: int, choices: int
) -> None:
    """RULES §1.6: with the recorded events, every chance outcome comes from the record, so the
    game comes back even under another seed (as on another Python version)."""
    played = drive(config, seed, None, choices, max_steps=300)
    other = restore(config, seed + 1, played.actions, events_json(played.events))
    assert other.sides == played.state.sides and other.pot == played.state.pot
    assert other.set_aside == played.state.set_aside and other.round == played.state.round
    assert other.outcome == played.state.outcome


@PROPERTY_SETTINGS
@given(
    config=configs(),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
    burn=st.integers(0, 2**32),
)
def test_burning_the_global_random_module_changes_nothing(
    config: GameConfig, seed: int, choices: int, burn: int
) -> None:
    """RULES §1.6 (rlcard): the game's RNG is its own; reseeding and drawing from the global
    `random` module between steps gives exactly the same game."""

    def burn_global(step: int) -> None:
        random.seed(burn + step)
        random.random()
        random.shuffle(list(range(5)))

    calm = drive(config, seed, None, choices, max_steps=400)
    burnt = drive(config, seed, None, choices, between=burn_global, max_steps=400)
    assert burnt.actions == calm.actions
    assert events_json(burnt.events) == events_json(calm.events)
    assert burnt.state == calm.state


@PROPERTY_SETTINGS
@given(config=configs(modes=(Mode.AUTO,)), seed=st.integers(0, 2**32))
def test_every_auto_game_ends_within_the_round_cap(config: GameConfig, seed: int) -> None:
    """RULES §1.5 [decision]: the safety cap ends every game. Auto mode, Flip until over."""
    state, _ = new_game(config, seed)
    for _ in range(50 * config.max_rounds + 100):
        if state.is_over:
            break
        state, _ = apply(state, Flip(0))
    assert state.outcome is not None, "the game did not end"
    assert state.round <= config.max_rounds
    if state.outcome.reason.value == "max_rounds":
        assert state.round == config.max_rounds


@PROPERTY_SETTINGS
@given(
    data=st.data(),
    config=configs(),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
)
def test_replay_run_reproduces_the_game_with_consistent_counts(
    data: st.DataObject, config: GameConfig, seed: int, choices: int
) -> None:
    """SCENARIOS.md: a scenario of the played actions replays to the same events; its counts
    plus the table plus the set-aside cards are the cards dealt (RULES §4)."""
    piles = data.draw(stacked_piles(config.sides))
    steps = data.draw(st.integers(0, 400))
    played = drive(config, seed, piles, choices, max_steps=steps)
    scenario: dict[str, Any] = {**config.to_json(), "seed": seed}
    if piles is not None:
        scenario["piles"] = piles
    scenario["actions"] = [action_to_json(a) for a in played.actions]
    out = json.loads(json.dumps(run(scenario)))
    # The listed actions hold every flip, so the game is the same; after the last one the
    # replay goes on by itself (auto mode, or a flip) until it ends or waits for a decision...
    expected = events_json(played.events)
    assert out["events"][: len(expected)] == expected
    stops = config.mode is Mode.REGN and played.state.phase is not Phase.FLIP
    if played.state.is_over or stops:
        assert out["events"] == expected
    _assert_consistent(out)
    # ...and without the flips (the replay supplies them) the report is still consistent.
    scenario["actions"] = [action_to_json(a) for a in played.actions if not isinstance(a, Flip)]
    _assert_consistent(run(scenario))


def _assert_consistent(out: dict[str, Any]) -> None:
    if out["status"] == "error":
        assert "not legal" in out["error"]
        return
    dealt = out["events"][0]
    assert dealt["type"] == "dealt"
    cards = sum(len(p) for p in dealt["piles"]) + len(dealt["set_aside"])
    assert sum(out["counts"]) + out["table"] + len(dealt["set_aside"]) == cards
    assert out["rounds"] == sum(e["type"] == "round_start" for e in out["events"])
    assert [e["seq"] for e in out["events"]] == list(range(1, len(out["events"]) + 1))
    over = [e for e in out["events"] if e["type"] == "game_over"]
    if out["status"] == "over":
        assert len(over) == 1 and over[0] == out["events"][-1]
        assert out["winner"] == over[0]["winner"] and out["waiting_for"] == []
    else:
        assert over == [] and out["winner"] is None
        assert out["status"] == "waiting" and out["waiting_for"]


@PROPERTY_SETTINGS
@given(
    data=st.data(),
    config=configs(),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
)
def test_replay_stops_at_an_illegal_action_and_names_its_index(
    data: st.DataObject, config: GameConfig, seed: int, choices: int
) -> None:
    """SCENARIOS.md: an action that is not legal stops the replay with `status` `error`, the
    message naming the action's index; nothing of it is applied."""
    played = drive(config, seed, None, choices, max_steps=data.draw(st.integers(0, 150)))
    index = data.draw(st.integers(0, len(played.actions)))
    actions = [action_to_json(a) for a in played.actions]
    bad = data.draw(
        st.sampled_from(
            [
                {"type": "flip", "side": config.sides},
                {"type": "target", "side": 0, "value": 99},
                {"type": "bet", "side": 0, "swap": 5},
                {"type": "jump", "side": 0},
                {"type": "answer", "side": 0, "text": "((("},
            ]
        )
    )
    actions.insert(index, bad)
    out = run({**config.to_json(), "seed": seed, "actions": actions})
    assert out["status"] == "error" and f"action {index}" in out["error"]
    assert out["waiting_for"] == []
    # Everything before the bad action was applied exactly as when it was played.
    state, before = new_game(config, seed)
    for action in played.actions[:index]:
        state, events = apply(state, action)
        before.extend(events)
    assert out["events"][: len(before)] == events_json(before)


# -- a state machine: Hypothesis draws (and shrinks) every step ---------------------------------


class GameMachine(RuleBasedStateMachine):
    """One game, stepped by Hypothesis. DESIGN.md pitfall: `check_terminal` has no
    precondition, so the machine always has a rule to run after the game ends."""

    def __init__(self) -> None:
        super().__init__()
        self.config: GameConfig
        self.seed = 0
        self.piles: list[list[int]] | None = None
        self.state: GameState
        self.dealt: list[int] = []
        self.actions: list[Action] = []
        self.events: list[Event] = []

    @initialize(data=st.data(), config=configs(), seed=st.integers(0, 2**32))
    def start(self, data: st.DataObject, config: GameConfig, seed: int) -> None:
        self.config, self.seed = config, seed
        self.piles = data.draw(stacked_piles(config.sides))
        self.state, events = new_game(config, seed, self.piles)
        self.events = list(events)
        self.dealt = dealt_ids(self.state)

    def _apply(self, action: Action) -> None:
        # Actions are stored as JSON: the round trip must give the same action.
        assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
        self.state, events = apply(self.state, action)
        self.actions.append(action)
        self.events.extend(events)
        assert dealt_ids(self.state) == self.dealt  # RULES §4, inside a fast-forward too

    def _running(self) -> bool:
        return not self.state.is_over

    @precondition(_running)
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        """Any listed legal action applies (TimeUp included)."""
        self._apply(data.draw(st.sampled_from(legal_actions(self.state))))

    @precondition(lambda self: self._running() and self.state.phase is ANSWER)
    @rule(data=st.data())
    def free_answer(self, data: st.DataObject) -> None:
        """RULES §2.2: a readable answer is judged; a reachable value counts, alone or after
        its expression."""
        side = data.draw(st.sampled_from(self.state.pending))
        a, b = (card.value for card in self.state.up[side])
        options = reachable(a, b, self.config.level)
        answers = {solver.answer_text(e, v): v for v, e in options.items()}
        texts = [*READABLE_WRONG, *answers, *(str(v) for v in options)]
        text = data.draw(st.sampled_from(texts))
        verdict = judge_answer(self.state, side, text)
        for value in options:
            if text == str(value) or answers.get(text) == value:
                assert verdict.value == value and verdict.accepted
        self._apply(Answer(side, text))

    @precondition(_running)
    @rule(steps=st.integers(1, 25), choices=st.integers(0, 2**32))
    def fast_forward(self, steps: int, choices: int) -> None:
        """Several random steps at once, so the machine reaches reshuffles and the endgame."""
        rnd = random.Random(choices)
        for _ in range(steps):
            if self.state.is_over:
                break
            self._apply(random_action(self.state, rnd, time_up_chance=0.0))

    @rule(data=st.data())
    def illegal_action(self, data: st.DataObject) -> None:
        """Refused with an `EngineError`, the state unchanged."""
        assert_refused(self.state, data.draw(st.sampled_from(illegal_actions(self.state))))

    @rule(seed=st.integers(0, 2**32))
    def burn_global_random(self, seed: int) -> None:
        """The engine's RNG is its own: reseeding the global module is harmless (the
        restore invariant below replays the game without these burns)."""
        random.seed(seed)
        random.random()

    @rule()
    def check_terminal(self) -> None:
        """No precondition (DESIGN.md pitfall): terminal ⇔ no legal actions."""
        assert (legal_actions(self.state) == []) == self.state.is_over
        if self.state.is_over:
            assert waiting_for(self.state) == []

    @invariant()
    def cards_are_conserved(self) -> None:
        """RULES §4: every dealt card exactly once."""
        if self.events:
            assert dealt_ids(self.state) == self.dealt

    @invariant()
    def restore_gives_the_state(self) -> None:
        """RULES §1.6: from the actions, and from the recorded JSON events."""
        if not self.events:
            return
        state = self.state
        assert restore(self.config, self.seed, self.actions, piles=self.piles) == state
        recorded = events_json(self.events)
        assert restore(self.config, self.seed, self.actions, recorded, self.piles) == state

    @invariant()
    def within_the_cap(self) -> None:
        if self.events:
            assert self.state.round <= self.config.max_rounds


GameMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestGameMachine = GameMachine.TestCase
