"""Scoring by formula (``scoring: formula``, docs/rules.md §7): the engine's own reader of
small arithmetic over ``bid``, ``taken``, ``cards`` and ``d`` (= |taken − bid|).

Many house tables fit no preset, so a ruleset may write its own: ``10 + bid^2`` for an
exact bid, ``-5*d*(d+1)/2`` for a miss. A formula is read once, when the record is read,
by a recursive-descent parser (never ``eval``: a record is untrusted text), into a tree
evaluated exactly with ``fractions.Fraction``. Everything that could go wrong when it is
evaluated is refused when it is read, with the position of the mistake: a divisor or an
exponent must be a constant, so that no score divides by zero, none grows past reason,
and the denominators of every score are known in advance (``Formula.denominator``, which
the running totals are scaled by, ``table.Table.scale``).

Grammar, loosest first::

    sum     := product (("+" | "-") product)*
    product := unary (("*" | "/") unary)*
    unary   := "-" unary | "+" unary | power
    power   := atom ("^" unary)?            (right-associative: 2^3^2 is 2^9)
    atom    := integer | name | function "(" sum ("," sum)* ")" | "(" sum ")"
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from ..scores import Number

#: The values a formula may read, in the order ``Formula.__call__`` takes them.
NAMES: Final = ("bid", "taken", "cards", "d")
FUNCTIONS: Final = ("min", "max", "abs")
MAX_LENGTH: Final = 500  #: characters: a house table fits in far fewer
MAX_DEPTH: Final = 32  #: nested parentheses and operators, well inside Python's recursion
MAX_EXPONENT: Final = 32

Values = tuple[int, int, int, int]


class FormulaError(ValueError):
    """A formula that cannot be read: ``position`` is the 1-based character at fault."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} at position {position}")
        self.position = position


@dataclass(frozen=True, slots=True)
class _Node:
    """One step of a formula: ``evaluate`` computes it; ``constant`` is its value when it
    reads no name; ``denominator`` bounds the denominator of every value it can take."""

    evaluate: Callable[[Values], Number]
    constant: Number | None
    denominator: int


@dataclass(frozen=True, slots=True)
class Formula:
    """A formula read by ``parse_formula``; calling it scores one (bid, taken, cards).
    Two are equal when their texts are: the tree is closures, equal only to themselves."""

    text: str
    root: _Node = field(compare=False, repr=False)

    @property
    def denominator(self) -> int:
        """A multiple of the denominator of every score it gives."""
        return self.root.denominator

    def __call__(self, bid: int, taken: int, cards: int) -> Number:
        value = self.root.evaluate((bid, taken, cards, abs(taken - bid)))
        if isinstance(value, Fraction) and value.denominator == 1:
            return value.numerator
        return value


def parse_formula(text: str) -> Formula:
    """The formula ``text`` holds; raises ``FormulaError`` with the position at fault."""
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"a formula may hold at most {MAX_LENGTH} characters", MAX_LENGTH + 1)
    parser = _Parser(text)
    root = parser.sum(0)
    if parser.token != "":
        raise parser.error(f"unexpected {parser.token!r}")
    return Formula(text, root)


def _constant(value: Number) -> _Node:
    denominator = value.denominator if isinstance(value, Fraction) else 1
    return _Node(lambda _: value, value, denominator)


def _combine(op: Callable[..., Number], parts: list[_Node], denominator: int) -> _Node:
    """A node applying ``op`` to the values of ``parts``; folded when they are constants."""
    if all(p.constant is not None for p in parts):
        return _constant(op(*(p.constant for p in parts)))
    evaluators = [p.evaluate for p in parts]
    if len(evaluators) == 1:
        (only,) = evaluators
        return _Node(lambda v: op(only(v)), None, denominator)
    if len(evaluators) == 2:
        left, right = evaluators
        return _Node(lambda v: op(left(v), right(v)), None, denominator)
    return _Node(lambda v: op(*(e(v) for e in evaluators)), None, denominator)


def _divide(a: Number, b: Number) -> Number:
    return Fraction(a) / b


class _Parser:
    """Reads one formula token by token; ``token`` is the current one ("" at the end)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0  #: where ``token`` starts
        self.token = ""
        self.next_at = 0
        self.advance()

    def error(self, message: str) -> FormulaError:
        return FormulaError(message, self.at + 1)

    def advance(self) -> None:
        text = self.text
        i = self.next_at
        while i < len(text) and text[i].isspace():
            i += 1
        self.at = i
        if i == len(text):
            self.token = ""
        elif text[i].isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            self.token = text[i:j]
        elif text[i].isalpha() or text[i] == "_":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            self.token = text[i:j]
        elif text[i] in "+-*/^(),":
            self.token = text[i]
        else:
            raise FormulaError(f"unexpected {text[i]!r}", i + 1)
        self.next_at = i + len(self.token)

    def expect(self, token: str) -> None:
        if self.token != token:
            found = f"{self.token!r}" if self.token else "the end"
            raise self.error(f"expected {token!r}, found {found}")
        self.advance()

    def sum(self, depth: int) -> _Node:
        node = self.product(depth)
        while self.token in ("+", "-"):
            op = self.token
            self.advance()
            right = self.product(depth)
            parts = [node, right]
            denominator = math.lcm(node.denominator, right.denominator)
            if op == "+":
                node = _combine(lambda a, b: a + b, parts, denominator)
            else:
                node = _combine(lambda a, b: a - b, parts, denominator)
        return node

    def product(self, depth: int) -> _Node:
        node = self.unary(depth)
        while self.token in ("*", "/"):
            op, at = self.token, self.at
            self.advance()
            right = self.unary(depth)
            if op == "*":
                denominator = node.denominator * right.denominator
                node = _combine(lambda a, b: a * b, [node, right], denominator)
                continue
            if right.constant is None:
                raise FormulaError("a divisor must be a constant", at + 1)
            if right.constant == 0:
                raise FormulaError("division by zero", at + 1)
            divisor = Fraction(right.constant)
            denominator = node.denominator * abs(divisor.numerator)
            node = _combine(_divide, [node, right], denominator)
        return node

    def unary(self, depth: int) -> _Node:
        if depth > MAX_DEPTH:
            raise self.error("the formula nests too deep")
        if self.token == "-":
            self.advance()
            node = self.unary(depth + 1)
            return _combine(lambda a: -a, [node], node.denominator)
        if self.token == "+":
            self.advance()
            return self.unary(depth + 1)
        return self.power(depth)

    def power(self, depth: int) -> _Node:
        base = self.atom(depth)
        if self.token != "^":
            return base
        at = self.at
        self.advance()
        exponent = self.unary(depth + 1)
        n = exponent.constant
        if n is None or Fraction(n).denominator != 1 or not 0 <= n <= MAX_EXPONENT:
            raise FormulaError(
                f"an exponent must be a whole constant from 0 to {MAX_EXPONENT}", at + 1
            )
        power = int(n)
        return _combine(lambda a: a**power, [base], base.denominator**power)

    def atom(self, depth: int) -> _Node:
        token = self.token
        if token.isdigit():
            self.advance()
            return _constant(int(token))
        if token == "(":
            self.advance()
            node = self.sum(depth + 1)
            self.expect(")")
            return node
        if token in NAMES:
            self.advance()
            index = NAMES.index(token)
            return _Node(lambda v: v[index], None, 1)
        if token in FUNCTIONS:
            return self.call(depth)
        if token == "":
            raise self.error("unexpected end of the formula")
        if token[0].isalpha() or token[0] == "_":
            known = ", ".join((*NAMES, *FUNCTIONS))
            raise self.error(f"unknown name {token!r} (known: {known})")
        raise self.error(f"unexpected {token!r}")

    def call(self, depth: int) -> _Node:
        name, at = self.token, self.at
        self.advance()
        self.expect("(")
        args = [self.sum(depth + 1)]
        while self.token == ",":
            self.advance()
            args.append(self.sum(depth + 1))
        self.expect(")")
        if name == "abs":
            if len(args) != 1:
                raise FormulaError("abs takes one argument", at + 1)
            return _combine(abs, args, args[0].denominator)
        denominator = math.lcm(*(a.denominator for a in args))
        return _combine(min if name == "min" else max, args, denominator)
