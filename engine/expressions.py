"""Reading, computing, printing and judging what a pupil answers in Regnekrig (RULES.md §2.2).

Pupils type on phones and school laptops in three languages, so the reader accepts every
common spelling of the four operations, squares and roots, and refuses anything it cannot
read with a stable `ExpressionError` code the bot can explain. Arithmetic is exact
(`Fraction`), the parser is hand-written (never `eval`), and `to_text` prints one canonical
form that reads back to the same tree, so the bot can show a pupil's answer and its own best
play in the same notation.

Decisions where the rule book is silent:

* Whitespace separates tokens but never sits inside a number: ``1 5`` is two numbers
  (`malformed`), ``1,5`` and ``1.5`` are 3/2, ``.5`` is 1/2, ``5.`` is `malformed`.
* ``√`` (and ``sqrt``/``rot``, any letter case) applies to the immediately following atom:
  a number, a parenthesised group, another root, with optional signs in front (``√-4`` is
  ``√(−4)``). Squares come after, so ``√4²`` is ``(√4)²``; ``to_text`` prints it that way.
* A power written right after a power (``3²²``, ``3^2^2``) is `unsupported_power`: it reads
  as 3²² or 3⁴. With explicit parentheses ``(3²)²`` is read (and judged, not refused).
  An exponent is a signed atom; only the literal 2 is supported, other superscript digits
  (``³``) are `unsupported_power` rather than `unknown_symbol`.
* `[` `]` work like `(` `)` but must pair with their own kind.
* An answer may give its steps and its result after ``=`` (``4·6=24``, ``3²+(-2)=9-2=7``):
  `parse_answer` reads each part; `parse` reads one expression and refuses ``=``.
* The canonical decimal mark is the comma (``1,5``), as pupils write it in Norway and Sweden.
* `evaluate` refuses (code ``too_large``) a numerator or denominator over `MAX_BITS` bits:
  repeated squaring within 100 characters could otherwise make numbers with millions of
  digits. No legal answer comes anywhere near the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from math import isqrt
from types import MappingProxyType
from typing import Literal, NoReturn, TypeAlias

from engine.errors import ExpressionError

__all__ = [
    "MAX_ANSWER_LENGTH",
    "MAX_BITS",
    "AnswerForm",
    "BinOp",
    "Expr",
    "Neg",
    "Num",
    "Op",
    "Reason",
    "Root",
    "Square",
    "Verdict",
    "card_term",
    "evaluate",
    "is_number",
    "judge",
    "level_operators",
    "middle_step",
    "operator_symbol",
    "parse",
    "parse_answer",
    "to_text",
]

MAX_ANSWER_LENGTH = 100
MAX_BITS = 4096

Op: TypeAlias = Literal["+", "-", "*", "/"]

MINUS = "\u2212"
TIMES = "\u00b7"
DIVIDE = "\u00f7"
SQUARE = "\u00b2"
ROOT = "\u221a"
DECIMAL_MARK = ","

_OP_SYMBOLS: Mapping[Op, str] = MappingProxyType({"+": "+", "-": MINUS, "*": TIMES, "/": DIVIDE})


# ---------------------------------------------------------------------------------------------
# AST


@dataclass(frozen=True, slots=True)
class Num:
    """A number as written: never negative (a sign is a `Neg`) and a terminating decimal, so
    every literal can be printed back exactly as a pupil could type it."""

    value: Fraction

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("a literal is never negative; wrap it in Neg")
        if _decimal_places(self.value) is None:
            raise ValueError("a literal is a terminating decimal")


@dataclass(frozen=True, slots=True)
class Neg:
    operand: Expr


@dataclass(frozen=True, slots=True)
class BinOp:
    op: Op
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Square:
    operand: Expr


@dataclass(frozen=True, slots=True)
class Root:
    operand: Expr


Expr: TypeAlias = Num | Neg | BinOp | Square | Root


def _decimal_places(value: Fraction) -> int | None:
    """Digits after the decimal mark, or None when the decimal never ends (1/3)."""
    d = value.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    return max(twos, fives) if d == 1 else None


# ---------------------------------------------------------------------------------------------
# Tokens

_Kind: TypeAlias = Literal["num", "+", "-", "*", "/", "(", ")", "pow", "sup", "root", "eq", "end"]

_SINGLE: Mapping[str, _Kind] = MappingProxyType(
    {
        "+": "+",
        "-": "-",
        MINUS: "-",
        "\u2013": "-",  # en dash
        "x": "*",
        "X": "*",
        "\u00d7": "*",  # ×
        TIMES: "*",
        "\u22c5": "*",  # ⋅ dot operator
        "/": "/",
        DIVIDE: "/",
        ":": "/",
        "(": "(",
        "[": "(",
        ")": ")",
        "]": ")",
        "^": "pow",
        ROOT: "root",
        "=": "eq",
    }
)
_SUPERSCRIPTS: Mapping[str, int] = MappingProxyType(
    {ch: i for i, ch in enumerate("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")}
)
_ROOT_WORDS = ("sqrt", "rot")
_DIGITS = "0123456789"
_CLOSING = MappingProxyType({"(": ")", "[": "]"})


@dataclass(frozen=True, slots=True)
class _Token:
    kind: _Kind
    text: str
    position: int
    value: Fraction = field(default=Fraction(0))


def _error(code: str, message: str, **details: object) -> NoReturn:
    raise ExpressionError(message, code=code, **details)


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in _DIGITS or ch in ".,":
            token, i = _number(text, i)
            tokens.append(token)
        elif ch == "*" and text.startswith("**", i):
            tokens.append(_Token("pow", "**", i))
            i += 2
        elif ch in _SUPERSCRIPTS:
            tokens.append(_Token("sup", ch, i, Fraction(_SUPERSCRIPTS[ch])))
            i += 1
        elif ch == "*":
            tokens.append(_Token("*", ch, i))
            i += 1
        else:
            word = next((w for w in _ROOT_WORDS if text[i : i + len(w)].lower() == w), None)
            if word is not None:
                tokens.append(_Token("root", text[i : i + len(word)], i))
                i += len(word)
            elif ch in _SINGLE:
                tokens.append(_Token(_SINGLE[ch], ch, i))
                i += 1
            else:
                _error("unknown_symbol", f"unknown symbol {ch!r}", symbol=ch, position=i)
    tokens.append(_Token("end", "", n))
    return tokens


def _number(text: str, start: int) -> tuple[_Token, int]:
    """Digits with an optional `.`/`,` decimal part: the mark must have digits after it."""
    i = start
    while i < len(text) and text[i] in _DIGITS:
        i += 1
    whole = text[start:i]
    places = ""
    if i < len(text) and text[i] in ".,":
        mark = i
        i += 1
        while i < len(text) and text[i] in _DIGITS:
            i += 1
        places = text[mark + 1 : i]
        if not places:
            _error("malformed", "a decimal mark needs digits after it", position=mark)
    value = Fraction(int(whole or "0")) + Fraction(int(places or "0"), 10 ** len(places))
    return _Token("num", text[start:i], start, value), i


# ---------------------------------------------------------------------------------------------
# Parser


def parse(text: str) -> Expr:
    """Read an answer. Raises `ExpressionError` (`empty`, `too_long`, `unknown_symbol`,
    `malformed`, `unsupported_power`) and nothing else, for any string.

    >>> to_text(parse("-3^2 + 4"))
    '−3² + 4'
    >>> to_text(parse("6/(-2)"))
    '6 ÷ (−2)'
    """
    if len(text) > MAX_ANSWER_LENGTH:
        _error(
            "too_long",
            f"an answer has at most {MAX_ANSWER_LENGTH} characters",
            length=len(text),
            limit=MAX_ANSWER_LENGTH,
        )
    if not text.strip():
        _error("empty", "the answer is empty")
    return _Parser(text, _tokenize(text)).parse()


def parse_answer(text: str) -> tuple[Expr, ...]:
    """Read an answer that may give its steps and result: ``4·6``, ``24``, ``4·6=24`` or
    ``3²+(-2)=9-2=7`` (RULES.md §2.2: "alone or after its expression"). Every part between
    the ``=`` signs is read as by `parse` and raises the same codes; an empty part is
    `malformed`.

    >>> [to_text(part) for part in parse_answer("4*6 = 24")]
    ['4 · 6', '24']
    """
    if len(text) > MAX_ANSWER_LENGTH:
        parse(text)  # raises too_long
    if not text.strip():
        _error("empty", "the answer is empty")
    tokens = _tokenize(text)
    parts: list[Expr] = []
    chunk: list[_Token] = []
    for token in tokens:
        if token.kind in ("eq", "end"):
            if not chunk:
                _error(
                    "malformed",
                    "a number is missing beside '='",
                    position=token.position,
                    symbol=token.text,
                )
            parts.append(_Parser(text, [*chunk, _Token("end", "", token.position)]).parse())
            chunk = []
        else:
            chunk.append(token)
    return tuple(parts)


class _Parser:
    """Recursive descent; grammar, loosest first:

    expr    := product (('+' | '-') product)*
    product := unary (('*' | '/') unary)*
    unary   := ('+' | '-')* power              -- so -3² is -(3²)
    power   := atom ('²' | '^' signed | '**' signed)?
    atom    := number | '(' expr ')' | root signed
    signed  := ('+' | '-')* atom

    Signs and roots are read in loops, and parentheses need two characters each, so 100
    characters nest at most 49 groups deep: about 300 frames, well inside Python's default
    limit of 1000 even when called from deep in discord.py (tested with 400 frames left).
    """

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0

    @property
    def peek(self) -> _Token:
        return self.tokens[self.i]

    def take(self) -> _Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def malformed(self, message: str, token: _Token | None = None) -> NoReturn:
        token = token or self.peek
        _error("malformed", message, position=token.position, symbol=token.text)

    def parse(self) -> Expr:
        expr = self.expr()
        if self.peek.kind != "end":
            if self.peek.kind == "eq":
                self.malformed("'=' belongs between an expression and its result")
            if self.peek.kind == ")":
                self.malformed("a closing bracket has no opening bracket")
            self.malformed("an operator is missing")
        return expr

    def expr(self) -> Expr:
        left = self.product()
        while self.peek.kind in ("+", "-"):
            op: Op = "+" if self.take().kind == "+" else "-"
            left = BinOp(op, left, self.product())
        return left

    def product(self) -> Expr:
        left = self.unary()
        while self.peek.kind in ("*", "/"):
            op: Op = "*" if self.take().kind == "*" else "/"
            left = BinOp(op, left, self.unary())
        return left

    def signs(self) -> int:
        minuses = 0
        while self.peek.kind in ("+", "-"):
            minuses += self.take().kind == "-"
        return minuses

    @staticmethod
    def negate(expr: Expr, minuses: int) -> Expr:
        for _ in range(minuses):
            expr = Neg(expr)
        return expr

    def unary(self) -> Expr:
        minuses = self.signs()
        return self.negate(self.power(), minuses)

    def signed(self) -> Expr:
        minuses = self.signs()
        return self.negate(self.atom(), minuses)

    def power(self) -> Expr:
        base = self.atom()
        powered = False
        while self.peek.kind in ("sup", "pow"):
            token = self.take()
            if token.kind == "sup":
                exponent: Expr = Num(token.value)
            else:
                exponent = self.signed()
            if exponent != Num(Fraction(2)):
                _error(
                    "unsupported_power",
                    "only squares (power 2) are supported",
                    exponent=to_text(exponent),
                    position=token.position,
                )
            if powered:
                _error(
                    "unsupported_power",
                    "a power of a power needs parentheses",
                    exponent="2",
                    position=token.position,
                )
            base = Square(base)
            powered = True
        return base

    def atom(self) -> Expr:
        roots: list[_Token] = []
        while self.peek.kind == "root":
            roots.append(self.take())
            if self.peek.kind in ("+", "-"):
                # A sign right after a root belongs to its operand (√-4 = √(−4)).
                return self.rooted(roots[:-1], Root(self.signed()))
        token = self.take()
        if token.kind == "num":
            expr: Expr = Num(token.value)
        elif token.kind == "(":
            expr = self.expr()
            closing = self.take()
            if closing.kind != ")":
                self.malformed("a bracket is not closed", closing)
            if closing.text != _CLOSING[token.text]:
                self.malformed(f"{token.text!r} is closed by {closing.text!r}", closing)
        elif token.kind == "end":
            self.malformed("a number is missing at the end", token)
        else:
            self.malformed(f"a number is missing before {token.text!r}", token)
        return self.rooted(roots, expr)

    @staticmethod
    def rooted(roots: list[_Token], expr: Expr) -> Expr:
        for _ in roots:
            expr = Root(expr)
        return expr


# ---------------------------------------------------------------------------------------------
# Evaluation


def _strip_neg(expr: Expr) -> tuple[Expr, int]:
    minuses = 0
    while isinstance(expr, Neg):
        expr = expr.operand
        minuses += 1
    return expr, minuses


def _rational_root(value: Fraction) -> Fraction | None:
    if value < 0:
        return None
    n, d = value.numerator, value.denominator
    rn, rd = isqrt(n), isqrt(d)
    return Fraction(rn, rd) if rn * rn == n and rd * rd == d else None


def _number_detail(value: Fraction) -> int | str:
    """JSON-safe number for `details`: an int when whole, else "p/q"."""
    return value.numerator if value.denominator == 1 else str(value)


def _checked(value: Fraction) -> Fraction:
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_BITS:
        _error("too_large", "the number is too large to compute", limit_bits=MAX_BITS)
    return value


def evaluate(expr: Expr) -> Fraction:
    """The exact value. Raises `ExpressionError` with code `division_by_zero`,
    `root_of_non_square` (the root is not a rational number) or `too_large` (see module doc).

    >>> evaluate(parse("7:2"))
    Fraction(7, 2)
    """
    if isinstance(expr, Num):
        return expr.value
    if isinstance(expr, Neg):
        inner, minuses = _strip_neg(expr)
        value = evaluate(inner)
        return -value if minuses % 2 else value
    if isinstance(expr, Square):
        value = evaluate(expr.operand)
        if 2 * max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_BITS + 2:
            _error("too_large", "the number is too large to compute", limit_bits=MAX_BITS)
        return _checked(value * value)
    if isinstance(expr, Root):
        value = evaluate(expr.operand)
        root = _rational_root(value)
        if root is None:
            _error(
                "root_of_non_square",
                "the square root is only taken of perfect squares",
                number=_number_detail(value),
            )
        return root
    left, right = evaluate(expr.left), evaluate(expr.right)
    if expr.op == "+":
        return _checked(left + right)
    if expr.op == "-":
        return _checked(left - right)
    if expr.op == "*":
        return _checked(left * right)
    if right == 0:
        _error("division_by_zero", "division by zero is not defined", text=to_text(expr))
    return _checked(left / right)


# ---------------------------------------------------------------------------------------------
# Canonical text

_PRECEDENCE: Mapping[Op, int] = MappingProxyType({"+": 1, "-": 1, "*": 2, "/": 2})
_UNARY = 3
_POSTFIX = 4
_ATOM = 5


def _precedence(expr: Expr) -> int:
    if isinstance(expr, BinOp):
        return _PRECEDENCE[expr.op]
    if isinstance(expr, Neg):
        return _UNARY
    if isinstance(expr, Square):
        return _POSTFIX
    return _ATOM


def _number_text(value: Fraction) -> str:
    places = _decimal_places(value)
    assert places is not None, "Num guarantees a terminating decimal"
    if places == 0:
        return str(value.numerator)
    digits = str(value.numerator * 10**places // value.denominator).rjust(places + 1, "0")
    return f"{digits[:-places]}{DECIMAL_MARK}{digits[-places:]}"


def _group(text: str, needed: bool) -> str:
    return f"({text})" if needed else text


def to_text(expr: Expr) -> str:
    """The canonical form the bot shows: `−`, `·`, `÷`, `²`, `√`, spaces around binary
    operators, and only the parentheses that keep the tree (plus clarity parentheses around
    negative right operands and squared non-numbers), so it parses back to the same tree.

    >>> to_text(parse("3 - -4"))
    '3 − (−4)'
    >>> to_text(parse("(-3)**2+sqrt(4)"))
    '(−3)² + √4'
    """
    if isinstance(expr, Num):
        return _number_text(expr.value)
    if isinstance(expr, Neg):
        operand = expr.operand
        needed = isinstance(operand, Neg) or _precedence(operand) < _UNARY
        return MINUS + _group(to_text(operand), needed)
    if isinstance(expr, Square):
        return _group(to_text(expr.operand), not isinstance(expr.operand, Num)) + SQUARE
    if isinstance(expr, Root):
        operand = expr.operand
        return ROOT + _group(to_text(operand), not isinstance(operand, (Num, Root)))
    own = _PRECEDENCE[expr.op]
    left = _group(to_text(expr.left), _precedence(expr.left) < own)
    right_needed = isinstance(expr.right, Neg) or _precedence(expr.right) <= own
    right = _group(to_text(expr.right), right_needed)
    return f"{left} {_OP_SYMBOLS[expr.op]} {right}"


# ---------------------------------------------------------------------------------------------
# The middle step (issue 11: "3² + (−2) = 9 − 2 = 7", as the rules page writes it)


def _worked(expr: Expr) -> Expr:
    """Every square and root replaced by its value (a literal with its sign)."""
    if isinstance(expr, (Square, Root)):
        value = evaluate(expr)
        literal: Expr = Num(abs(value))
        return Neg(literal) if value < 0 else literal
    if isinstance(expr, Neg):
        return Neg(_worked(expr.operand))
    if isinstance(expr, BinOp):
        return _plain_sign(BinOp(expr.op, _worked(expr.left), _worked(expr.right)))
    return expr


def _plain_sign(expr: BinOp) -> BinOp:
    """``a + (−b)`` as ``a − b`` and ``a − (−b)`` as ``a + b``: what a pupil writes next."""
    if expr.op in ("+", "-") and isinstance(expr.right, Neg):
        op: Op = "-" if expr.op == "+" else "+"
        return BinOp(op, expr.left, expr.right.operand)
    return expr


def middle_step(expr: Expr) -> Expr | None:
    """The step between an expression with a square or a root and its value: every square
    and root worked out, a plus of a negative written as a minus. None when the expression has
    no square or root (it needs no middle step), or when it cannot be worked out (a root of a
    non-square: that answer was refused, and its middle step would not exist).

    >>> to_text(middle_step(parse("3^2 + -2")))
    '9 − 2'
    >>> to_text(middle_step(parse("(-3)² - (-3)")))
    '9 + 3'
    >>> to_text(middle_step(parse("sqrt(9) : -3")))
    '3 ÷ (−3)'
    >>> middle_step(parse("4 * 6")) is None
    True
    """
    if not any(isinstance(node, (Square, Root)) for node in _walk(expr)):
        return None
    try:
        return _worked(expr)
    except ExpressionError:
        return None


# ---------------------------------------------------------------------------------------------
# Judging (RULES.md §2.2, regn mode)

_LEVEL_OPERATORS: Mapping[int, tuple[Op, ...]] = MappingProxyType(
    {
        1: ("+",),
        2: ("*",),
        3: ("/",),
        4: ("-",),
        5: ("+", "-", "*", "/"),
        6: ("+", "-", "*", "/"),
        7: ("+", "-", "*", "/"),
    }
)
_NO_DETAILS: Mapping[str, object] = MappingProxyType({})
SQUARE_LEVEL = 6
ROOT_LEVEL = 7
RESULT_LEVELS = range(1, 3)
"""Levels 1–2 always ask for the result, whatever the game's answer form (§2.2)."""


class AnswerForm(StrEnum):
    """What a regn-mode answer at levels 3–7 must contain (RULES.md §2.2, SCENARIOS.md)."""

    NUMBER = "number"  # the value, alone or after its expression; both are checked
    EXPRESSION = "expression"  # an expression alone is enough (a beginner's aid)


class Reason(StrEnum):
    """Why a readable answer counts as *no value* (RULES.md §2.2): the one list of verdict
    codes, each with the `details` it carries. `engine.errors.Unreadable` lists the codes of
    answers that are not read at all. Every detail is JSON-safe: numbers are ints or "p/q"
    strings, expressions are in `to_text` notation, and `card_a`/`card_b` are the side's cards
    whenever the sentence is about them."""

    WRONG_VALUE = "wrong_value"  # value; no simple slip explains it (levels 5–7)
    NO_LEGAL_VALUE = "no_legal_value"  # the cards have no value at this level (0 and 0, §2.2)
    SIGN_SLIP = "sign_slip"  # number (as used), card (its real sign); value, expression
    ARITHMETIC_SLIP = "arithmetic_slip"  # expression, value (right), number (typed)
    NOT_YOUR_CARDS = "not_your_cards"  # number: a number that is none of the cards
    CARD_TWICE = "card_twice"  # number: one card used twice
    CARD_MISSING = "card_missing"  # missing: a card left out
    TOO_MANY_OPERATIONS = "too_many_operations"  # operators
    OPERATOR_NOT_ALLOWED = "operator_not_allowed"  # operator, allowed, level[, expression]
    SQUARE_NOT_ALLOWED = "square_not_allowed"  # level (any power below level 6)
    ROOT_NOT_ALLOWED = "root_not_allowed"  # level
    SQUARES_BOTH = "squares_both"
    ROOT_AND_SQUARE = "root_and_square"
    ROOT_OF_RESULT = "root_of_result"
    ROOT_OF_NEGATIVE = "root_of_negative"  # number
    ROOT_OF_NON_SQUARE = "root_of_non_square"  # number
    DIVISION_BY_ZERO = "division_by_zero"  # text
    TOO_LARGE = "too_large"  # limit_bits
    TIMEOUT = "timeout"  # no answer in time (the game gives this verdict, not `judge`)


def level_operators(level: int) -> tuple[Op, ...]:
    """The binary operators a level allows (RULES.md §2.2). Raises ValueError for a level
    outside 1..7: that is a programming error, not a pupil's."""
    try:
        return _LEVEL_OPERATORS[level]
    except KeyError:
        raise ValueError(f"Regnekrig levels are 1..7, not {level!r}") from None


def operator_symbol(op: Op) -> str:
    """The canonical sign of an operator, as `to_text` prints it."""
    return _OP_SYMBOLS[op]


def card_term(card: int) -> Expr:
    """A card as a pupil writes it: −4 is `Neg(Num(4))`, "the card with its sign" (§2.2)."""
    literal = Num(Fraction(abs(card)))
    return Neg(literal) if card < 0 else literal


@dataclass(frozen=True, slots=True)
class Verdict:
    """How an answer was judged. `value` None is *no value* (RULES.md §2.2); `reason` is a
    stable `Reason` the bot localises, with `details` (JSON-safe) to fill in the sentence.

    `typed` is the whole answer as the pupil typed it, in canonical notation (``4 · 6 = 25``):
    a typed number stays that number. `text` is what a result line shows: for an accepted
    answer the part before its value (``4 · 6``, or the number alone), for a refused one the
    whole answer, so the screen can put it beside the cards it was judged with."""

    value: Fraction | None
    text: str
    reason: str | None = None
    details: Mapping[str, object] = field(default_factory=lambda: _NO_DETAILS)
    typed: str = ""

    @property
    def accepted(self) -> bool:
        return self.reason is None


def _walk(expr: Expr) -> Iterator[Expr]:
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, BinOp):
            stack.extend((node.right, node.left))
        elif not isinstance(node, Num):
            stack.append(node.operand)


def _signed_literals(expr: Expr) -> list[tuple[Fraction, Fraction | None]]:
    """Each literal with the signs written on it, left to right: ``-4`` is −4 and ``(-4)²``
    is −4 squared. A sign in front of a square (``-3²``) is offered as the second reading,
    so a pupil with the card −3 who writes ``-3²`` is using that card."""
    found: list[tuple[Fraction, Fraction | None]] = []

    def visit(node: Expr, minuses: int, outer: int) -> None:
        if isinstance(node, Neg):
            visit(node.operand, minuses + 1, outer)
        elif isinstance(node, Num):
            value = -node.value if minuses % 2 else node.value
            found.append((value, -value if outer % 2 else None))
        elif isinstance(node, BinOp):
            visit(node.left, 0, 0)
            visit(node.right, 0, 0)
        elif isinstance(node, Square):
            visit(node.operand, 0, outer + minuses)
        else:  # −√4 is minus the root of 4: the 4 is the card, whatever the sign in front
            visit(node.operand, 0, 0)

    visit(expr, 0, 0)
    return found


def is_number(expr: Expr) -> bool:
    """A number answer: a number, or a fraction of two whole numbers with at most a sign in
    front (``-7/2``); ``6/(-2)`` is an expression (RULES.md §2.2)."""
    inner = _strip_neg(expr)[0]
    if isinstance(inner, Num):
        return True
    if not (isinstance(inner, BinOp) and inner.op == "/" and isinstance(inner.right, Num)):
        return False
    numerator = _strip_neg(inner.left)[0]
    return (
        isinstance(numerator, Num)
        and numerator.value.denominator == 1
        and inner.right.value.denominator == 1
    )


_Problem: TypeAlias = tuple[Reason, dict[str, object]]


def judge(
    text: str,
    cards: tuple[int, int],
    level: int,
    answer_form: AnswerForm = AnswerForm.NUMBER,
) -> Verdict:
    """Judge a regn-mode answer for a side holding `cards` (RULES.md §2.2).

    Unreadable text raises `ExpressionError` (an `Unreadable` code; the pupil may type again):
    also an expression without its result at levels 1–2 or in the `number` answer form
    (`result_missing`), and any power below level 6 (`power_not_allowed`). Anything else gets
    a `Verdict`. A number answer is accepted when some legal expression gives it; when none
    does, the verdict says which slip explains it (`engine.diagnosis`). An expression must use
    the two cards with their signs and only what the level allows; the rules are checked in
    this order so a pupil gets the most basic reason first: too_many_operations, the cards
    (sign_slip, card_twice, not_your_cards, card_missing), operator_not_allowed,
    square_not_allowed, root_not_allowed, squares_both, root_and_square, root_of_result,
    root_of_negative, root_of_non_square, division_by_zero; then every step and the result
    typed after it must equal its value (arithmetic_slip).

    >>> judge("3/2", (6, 4), 3).value
    Fraction(3, 2)
    >>> judge("4 + 5 = 9", (-4, 5), 1).reason
    'sign_slip'
    """
    level_operators(level)
    form = AnswerForm.NUMBER if level in RESULT_LEVELS else AnswerForm(answer_form)
    try:
        parts = parse_answer(text)
    except ExpressionError as error:
        if error.code == "unsupported_power" and level < SQUARE_LEVEL:
            _error("power_not_allowed", "powers are not part of this level", level=level)
        raise
    typed = " = ".join(to_text(part) for part in parts)
    expression, result = parts[0], parts[-1]

    def refuse(reason: Reason, details: Mapping[str, object]) -> Verdict:
        return Verdict(None, typed, reason.value, MappingProxyType(dict(details)), typed)

    def accept(value: Fraction) -> Verdict:
        shown = " = ".join(to_text(part) for part in parts[:-1]) if len(parts) > 1 else typed
        return Verdict(value, shown, typed=typed)

    if len(parts) > 1 and not is_number(result):
        _error("result_missing", "the answer ends with its number", expression=typed)
    if len(parts) == 1 and is_number(expression):
        return _judge_number(expression, cards, level, refuse, accept)
    if len(parts) == 1 and form is AnswerForm.NUMBER:
        _error("result_missing", "type the number the expression gives", expression=typed)

    judged = _judge_expression(expression, cards, level)
    if not isinstance(judged, Fraction):
        reason, details = judged
        return refuse(reason, {**details, **_cards(cards)})
    for step in parts[1:]:
        try:
            step_value = evaluate(step)
        except ExpressionError:
            step_value = None
        if step_value != judged:
            return refuse(
                Reason.ARITHMETIC_SLIP,
                {
                    "expression": to_text(expression),
                    "value": _number_detail(judged),
                    "number": typed_number(step),
                    **_cards(cards),
                },
            )
    return accept(judged)


def typed_number(expr: Expr) -> int | str:
    """A typed number as a detail: a whole number as an int, anything else as typed
    (``1,6`` stays ``1,6``, never ``8/5``: the pupil sees their own number)."""
    try:
        value = evaluate(expr)
    except ExpressionError:
        return to_text(expr)
    if not is_number(expr):
        return to_text(expr)
    if value.denominator == 1:
        return value.numerator
    inner, minuses = _strip_neg(expr)
    if isinstance(inner, BinOp):  # a typed fraction keeps its terms: 6/4 stays 6/4
        top, top_minuses = _strip_neg(inner.left)
        assert isinstance(top, Num) and isinstance(inner.right, Num)
        sign = MINUS if (minuses + top_minuses) % 2 else ""
        return f"{sign}{top.value}/{inner.right.value}"
    return to_text(expr)


def _cards(cards: tuple[int, int]) -> dict[str, object]:
    return {"card_a": cards[0], "card_b": cards[1]}


def _judge_number(
    expr: Expr,
    cards: tuple[int, int],
    level: int,
    refuse: Callable[[Reason, Mapping[str, object]], Verdict],
    accept: Callable[[Fraction], Verdict],
) -> Verdict:
    from engine.diagnosis import diagnose_number  # it uses the solver, which imports this module

    try:
        value = evaluate(expr)
    except ExpressionError as error:  # only x/0 is possible for a number
        return refuse(Reason(error.code), {**error.details, **_cards(cards)})
    diagnosis = diagnose_number(value, cards, level)
    if diagnosis is None:
        return accept(value)
    reason, details = diagnosis
    # The number the pupil typed, as typed (1,6 stays 1,6); the slip's right value stays exact.
    typed_key = "number" if reason is Reason.ARITHMETIC_SLIP else "value"
    details = {**details, typed_key: typed_number(expr)}
    return refuse(reason, {**details, **_cards(cards)})


def _judge_expression(expr: Expr, cards: tuple[int, int], level: int) -> Fraction | _Problem:
    """The value of a legal expression with these cards, or the first rule it breaks."""
    from engine.solver import reachable  # the solver imports this module

    problem = _shape_problem(expr, cards, level)
    if problem is not None:
        return problem
    try:
        value = evaluate(expr)
    except ExpressionError as error:
        return Reason(error.code), dict(error.details)
    if value not in reachable(cards[0], cards[1], level):
        # Only a sign in front of a square or root can get here (−√4 · 6): legal pieces in
        # a shape the level does not have.
        return Reason.WRONG_VALUE, {"value": _number_detail(value)}
    return value


def _card_problem(expr: Expr, cards: tuple[int, int]) -> _Problem | None:
    """Match every literal to a card, sign included (§2.2: "4 is not that card")."""
    remaining = [Fraction(card) for card in cards]
    for value, other in _signed_literals(expr):
        if value in remaining:
            remaining.remove(value)
        elif other is not None and other in remaining:
            remaining.remove(other)
        elif value != 0 and -value in remaining:
            return Reason.SIGN_SLIP, {
                "number": _number_detail(value),
                "card": _number_detail(-value),
            }
        elif value in cards:
            return Reason.CARD_TWICE, {"number": _number_detail(value)}
        else:
            return Reason.NOT_YOUR_CARDS, {"number": _number_detail(value)}
    if remaining:
        return Reason.CARD_MISSING, {"missing": _number_detail(remaining[0])}
    return None


def _shape_problem(expr: Expr, cards: tuple[int, int], level: int) -> _Problem | None:
    """The first rule the expression breaks, in the documented order, or None."""
    allowed = level_operators(level)
    nodes = list(_walk(expr))
    binops = [node for node in nodes if isinstance(node, BinOp)]
    squares = [node for node in nodes if isinstance(node, Square)]
    roots = [node for node in nodes if isinstance(node, Root)]

    def decorated(kind: type[Square] | type[Root], inner: tuple[type, ...]) -> bool:
        return any(
            isinstance(node, kind) and isinstance(_strip_neg(node.operand)[0], inner)
            for node in nodes
        )

    negated_group = any(isinstance(node, Neg) and isinstance(node.operand, BinOp) for node in nodes)
    if len(binops) > 1 or negated_group or decorated(Square, (BinOp, Square)):
        return Reason.TOO_MANY_OPERATIONS, {"operators": len(binops)}
    problem = _card_problem(expr, cards)
    if problem is not None:
        return problem
    for binop in binops:
        if binop.op not in allowed:
            return Reason.OPERATOR_NOT_ALLOWED, {
                "operator": _OP_SYMBOLS[binop.op],
                "allowed": [_OP_SYMBOLS[op] for op in allowed],
                "level": level,
            }
    if squares and level < SQUARE_LEVEL:
        return Reason.SQUARE_NOT_ALLOWED, {"level": level}
    if roots and level < ROOT_LEVEL:
        return Reason.ROOT_NOT_ALLOWED, {"level": level}
    if len(squares) > 1:
        return Reason.SQUARES_BOTH, {}
    if decorated(Square, (Root,)) or decorated(Root, (Square,)):
        return Reason.ROOT_AND_SQUARE, {}
    if decorated(Root, (BinOp, Root)):
        return Reason.ROOT_OF_RESULT, {}
    for root in roots:
        inner, minuses = _strip_neg(root.operand)
        assert isinstance(inner, Num)  # every other operand was refused above
        value = -inner.value if minuses % 2 else inner.value
        if value < 0:
            return Reason.ROOT_OF_NEGATIVE, {"number": _number_detail(value)}
        if value.denominator != 1 or isqrt(value.numerator) ** 2 != value:
            return Reason.ROOT_OF_NON_SQUARE, {"number": _number_detail(value)}
    return None
