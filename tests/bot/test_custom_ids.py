"""The custom_id grammar: one spelling per id, never over 100 characters, parse never raises."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.custom_ids import (
    MARKERS,
    MAX_LENGTH,
    TEMPLATE,
    VERB_SPACES,
    CustomId,
    Space,
    Verb,
    build,
    parse,
    template,
)

ARG_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,+-"
numbers = st.integers(min_value=0, max_value=2**63 - 1)
args = st.text(alphabet=ARG_ALPHABET, min_size=1, max_size=70)  # sometimes over 100 in all


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((Verb.ANSWER, 42, 3), "mk:answer:42:3"),
        ((Verb.TARGET, 42, 3, -7), "mk:target:42:3:-7"),
        ((Verb.PAGE, 42, None, 2), "mk:page:g42::2"),
        ((Verb.REMATCH, 42), "mk:rematch:42"),
        ((Verb.ACCEPT, 17), "mk:accept:c17"),
        ((Verb.JOIN, 9), "mk:join:l9"),
        (("bet", 5, 0, "yes"), "mk:bet:5:0:yes"),
    ],
)
def test_build_examples(args: tuple[object, ...], expected: str) -> None:
    assert build(*args) == expected  # type: ignore[arg-type]
    parsed = parse(expected)
    assert parsed is not None
    assert parsed.to_custom_id() == expected


def test_parse_fields_and_spaces() -> None:
    assert parse("mk:target:42:3:-7") == CustomId(Verb.TARGET, 42, 3, "-7")
    parsed = parse("mk:target:42:3:-7")
    assert parsed is not None
    assert parsed.int_arg() == -7
    assert parsed.game_id == 42
    assert parsed.invitation_id is None
    challenge = parse("mk:decline:c17")
    assert challenge == CustomId(Verb.DECLINE, 17)
    assert challenge is not None
    assert challenge.space is Space.CHALLENGE
    assert challenge.invitation_id == 17
    assert challenge.game_id is None
    assert parse("mk:page:g42::2") == CustomId(Verb.PAGE, 42, None, "2")
    assert CustomId(Verb.BET, 1, 1, "yes").int_arg() is None


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "mk",
        "mk:",
        "mk:answer",
        "mk:answer:",
        "mk:answer:x1",
        "mk:answer:01",
        "mk:answer:1:",
        "mk:answer:1::",
        "mk:answer:1:01",
        "mk:answer:1:2:",
        "mk:answer:1:2:a:b",
        "mk:answer:1:2:a b",
        "mk:answer:-1",
        "mk:answer:c1",  # game verb with a challenge ref
        "mk:accept:17",  # challenge verb with a game ref
        "mk:join:c9",  # lobby verb with a challenge ref
        "mk:explode:1",
        "MK:answer:1",
        "mk:ANSWER:1",
        "mk:answer:1\n",
        "mk:answer:١",  # Arabic-Indic digit: not ASCII
        "xx:answer:1",
        "persistent_view:green",
        "mk:answer:1:2:" + "a" * 100,
    ],
)
def test_parse_refuses_what_is_not_ours(custom_id: str) -> None:
    assert parse(custom_id) is None


@pytest.mark.parametrize("value", [None, 12, b"mk:answer:1", ["mk:answer:1"]])
def test_parse_refuses_non_strings(value: object) -> None:
    assert parse(value) is None


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((Verb.ANSWER, -1), {}),
        ((Verb.ANSWER, True), {}),
        ((Verb.ANSWER, 1), {"number": -1}),
        ((Verb.ANSWER, 1), {"arg": ""}),
        ((Verb.ANSWER, 1), {"arg": "a:b"}),
        ((Verb.ANSWER, 1), {"arg": "å"}),
        (("explode", 1), {}),
        ((Verb.ANSWER, 1, 1, "a" * 100), {}),
    ],
)
def test_build_refuses_bad_input(args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        build(*args, **kwargs)  # type: ignore[arg-type]


@given(
    verb=st.sampled_from(list(Verb)),
    ref=numbers,
    number=st.none() | numbers,
    arg=st.none() | args,
)
def test_numbertrip(verb: Verb, ref: int, number: int | None, arg: str | None) -> None:
    marker = MARKERS[VERB_SPACES[verb]]
    expected = f"mk:{verb}:{marker}{ref}"
    if number is not None or arg is not None:
        expected += f":{'' if number is None else number}"
    if arg is not None:
        expected += f":{arg}"
    if len(expected) > MAX_LENGTH:
        with pytest.raises(ValueError):
            build(verb, ref, number, arg)
        return
    custom_id = build(verb, ref, number, arg)
    assert custom_id == expected
    assert parse(custom_id) == CustomId(verb, ref, number, arg)
    assert TEMPLATE.fullmatch(custom_id)
    assert template(verb).fullmatch(custom_id)
    for other in Verb:
        if other is not verb:
            assert not template(other).fullmatch(custom_id)


@given(st.text(max_size=120))
def test_parse_never_raises_and_prints_back_exactly(text: str) -> None:
    parsed = parse(text)
    if parsed is not None:
        assert build(parsed.verb, parsed.ref, parsed.number, parsed.arg) == text


@given(
    verb=st.sampled_from(list(Verb)),
    ref=numbers,
    number=st.none() | numbers,
    arg=st.none() | args,
)
def test_parse_of_mutated_ids_never_raises(
    verb: Verb, ref: int, number: int | None, arg: str | None
) -> None:
    marker = MARKERS[VERB_SPACES[verb]]
    raw = f"mk:{verb}:{marker}{ref}:{'' if number is None else number}:{arg or ''}"
    parsed = parse(raw)
    if parsed is not None:
        assert parsed.to_custom_id() == raw


def test_every_verb_has_a_space_and_a_template() -> None:
    assert set(VERB_SPACES) == set(Verb)
    for verb in Verb:
        assert template(verb).pattern.startswith("mk:")


def test_length_limit_is_inclusive() -> None:
    head = "mk:target:9223372036854775807:9223372036854775807:"
    exact = build(Verb.TARGET, 2**63 - 1, 2**63 - 1, "a" * (MAX_LENGTH - len(head)))
    assert len(exact) == MAX_LENGTH
    assert parse(exact) is not None
    with pytest.raises(ValueError):
        build(Verb.TARGET, 2**63 - 1, 2**63 - 1, "a" * (MAX_LENGTH - len(head) + 1))
    assert parse(exact + "a") is None
