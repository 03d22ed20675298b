"""Reading, computing and printing what a pupil types in Regnekrig (RULES.md §2.2).

Pupils type on phones and school laptops in three languages, so the reader accepts every
common spelling of the four operations, squares and roots, and refuses anything it cannot
read with a stable `ExpressionError` code the bot can explain. Arithmetic is exact
(`Fraction`), the parser is hand-written (never `eval`), and `to_text` prints one canonical
form that reads back to the same tree, so the bot can show a pupil's answer and its own best
play in the same notation. Whether an answer is right, and which mistake it shows, is
`engine.judge`'s job; this module knows nothing of cards or levels.

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

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import isqrt
from types import MappingProxyType
from typing import Literal, NoReturn, TypeAlias

from engine.errors import ExpressionError

__all__ = [
    "MAX_ANSWER_LENGTH",
    "MAX_BITS",
    "BinOp",
    "Expr",
    "Neg",
    "Num",
    "Op",
    "Root",
    "Square",
    "evaluate",
    "number_detail",
    "operator_symbol",
    "parse",
    "parse_answer",
    "strip_signs",
    "to_text",
    "walk",
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
                start, symbol = _unknown(text, i)
                _error(
                    "unknown_symbol", f"unknown symbol {symbol!r}", symbol=symbol, position=start
                )
    tokens.append(_Token("end", "", n))
    return tokens


def _unknown(text: str, i: int) -> tuple[int, str]:
    """Where the text stops being readable, and what to name: a letter's whole word (``hei``,
    not ``h``: a pupil typed a word, and a letter alone means nothing to them), otherwise the
    one symbol."""
    if not text[i].isalpha():
        return i, text[i]
    start, end = i, i
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    while end < len(text) and text[end].isalpha():
        end += 1
    return start, text[start:end]


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


def strip_signs(expr: Expr) -> tuple[Expr, int]:
    """The expression under its leading signs, and how many of them are minus signs."""
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


def number_detail(value: Fraction) -> int | str:
    """A JSON-safe number for an error's or verdict's `details`: an int when whole, else
    "p/q"."""
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
        inner, minuses = strip_signs(expr)
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
                number=number_detail(value),
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
# Helpers for the modules that judge and solve


def operator_symbol(op: Op) -> str:
    """The canonical sign of an operator, as `to_text` prints it."""
    return _OP_SYMBOLS[op]


def walk(expr: Expr) -> Iterator[Expr]:
    """Every node of the tree, parents before children, left before right."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, BinOp):
            stack.extend((node.right, node.left))
        elif not isinstance(node, Num):
            stack.append(node.operand)
