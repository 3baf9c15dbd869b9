"""The bot language: conditions as expressions, parsed with Python's own ``ast`` restricted to
the grammar below, kept as small trees (for people and for an optimizer that mutates them) and
compiled to the postfix programs the engine's bots run (``dominion_env.engine.bots``).

Grammar (Python's expression syntax, nothing else)::

    condition  := test ('or' test)*                      a truth
    test       := 'not' test | test 'and' test | '(' condition ')'
               |  value OP value (OP value)*             chained: 0 < gains_to_end <= 5
    value      := value ('+' | '-' | '*' | '/' | '//') value | '-' value | '(' value ')'
               |  number | quantity | quantity '(' [selector] ')'
    OP         := '<' | '<=' | '>' | '>=' | '==' | '!='
    number     := a decimal of at most 3 places, at most MAX_VALUE in size
    selector   := "Card Name" | "Action" | "Treasure" | "Victory" | "Attack" | "Reaction"
                  (a card, or every card of that type; "Curse" is the card)

Arithmetic is in floating point (``/`` is true division, ``//`` rounds down); a division by
zero gives 0. Comparisons, ``and``, ``or``, ``not`` give a truth; a truth is never a value and
a value never a truth (``count("Gold") and 1`` is refused). Example::

    count("Smithy") < treasure_cards / 11 and not (seat == 2 or vp_lead + 6 <= 0)

Quantities (all about the player who decides, "the bot"; opponents are the other players):

    quantity            selector  value
    money               -         total $ of the Treasures it owns (printed $ x copies)
    count(S)            yes       cards of S it owns (every zone and its draw pile); count() all
    cards               -         cards it owns
    action_cards        -         Action cards it owns (= count("Action")), likewise
    treasure_cards      -         Treasure cards and
    victory_cards       -         Victory cards
    hand(S)             yes       cards of S in its hand now; hand() its hand size
    deck(S)             yes       cards of S in its draw pile; deck() its size
    discard(S)          yes       cards of S in its discard pile; discard() its size
    in_play(S)          yes       cards of S it has in play
    opp_count(S)        yes       the most cards of S any one opponent owns
    opp_total(S)        yes       cards of S all opponents own together
    pile(C)             card      cards left in C's Supply pile
    empty_piles         -         empty Supply piles
    gains_to_end        -         fewest gains that end the game: Provinces left, or the sum of
                                  the 3 smallest piles (4 with 5-6 players), whichever is less
    coins               -         $ available now
    buys                -         Buys left this turn
    actions             -         Actions left this turn
    turn                -         its turn number: completed turns + 1
    turns_taken         -         its completed turns
    opp_turns_max       -         the most completed turns of any opponent
    opp_turns_min       -         the fewest completed turns of any opponent
    seat                -         its place in turn order, 1 = the first player (read from
                                  the turns each player started: no card gives extra turns)
    players             -         players in the game
    vp                  -         its score now
    opp_vp              -         the best opponent's score (the leader's among them)
    vp_lead             -         vp - opp_vp

What a bot owns is public except the cards Masquerade passes face down; a bot's hand, deck
and discard contents are its own.

The older form ``quantity [card] op number`` (``pile Province <= 4``, ``count Witch < 2``) is
still read, as the same tree.

Trees: ``Num``, ``Quantity``, ``Arith``, ``Neg``, ``Compare``, ``Logic``, ``Not`` (frozen
dataclasses); ``parse(text)`` makes one, ``to_text(tree)`` writes it back (parse(to_text(t))
== t), ``numbers(tree)`` lists its constants and ``with_numbers(tree, values)`` puts new ones
in, so an optimizer changes thresholds without touching text. ``compile_condition(tree)`` is
the program. Errors are ``LanguageError`` (a ValueError) with the column (1-based), the token
and what was expected, all in the message (a long text is shown as a window around the
column). A text is read only within bounds that no runnable condition comes near, each refused
at its token: ``MAX_TOKENS`` tokens, ``MAX_NESTING`` operators inside one another,
``MAX_NUMBER_CHARS`` characters in a number; and ``parse`` refuses what the bots' machine
cannot run (more than ``MAX_STACK`` registers or ``PROG_LEN`` steps) at the operand that
passes the bound, so every text either compiles or is a LanguageError.
"""

from __future__ import annotations

import ast
import io
import math
import re
import tokenize
from dataclasses import dataclass
from decimal import Decimal
from typing import Union

from ..cards import ID, TYPE_NAMES, card_id
from ..engine.bots import (
    MAX_STACK,
    OP_ADD,
    OP_AND,
    OP_DIV,
    OP_EQ,
    OP_FLOORDIV,
    OP_GE,
    OP_GT,
    OP_LE,
    OP_LT,
    OP_MUL,
    OP_NE,
    OP_NEG,
    OP_NOT,
    OP_OR,
    OP_PUSH,
    OP_SUB,
    PROG_LEN,
    Q_BASE,
    QUANTITY_NAMES,
    SCALE,
    SEL_ALL,
    SEL_TYPE,
)

# a constant's size: every quantity is far below it, and x SCALE it fits an int64
MAX_VALUE = 10**9
# Bounds on the text, checked token by token before Python's parser sees it (which fails
# without a position, or runs out of stack, on inputs far past them; so would the recursive
# reading below): no program of PROG_LEN steps needs more tokens, deeper nesting or longer
# numbers than these.
MAX_TOKENS = 500
MAX_NESTING = 64  # operators and parentheses inside one another
MAX_NUMBER_CHARS = 20  # a number as written: 1_000_000_000.125 has 17

# quantities by how they take their argument
SELECTOR = {"count", "hand", "deck", "discard", "in_play", "opp_count", "opp_total"}
CARD_ONLY = {"pile"}
PLAIN = set(QUANTITY_NAMES[1:]) - SELECTOR - CARD_ONLY
TYPE_BY_NAME = {label: bit for bit, label in TYPE_NAMES.items() if label != "Curse"}


class LanguageError(ValueError):
    """A condition the language cannot read: ``column`` (1-based) and ``token`` say where."""

    def __init__(self, text: str, column: int, token: str, expected: str):
        self.text, self.column, self.token, self.expected = text, column, token, expected
        super().__init__(
            f"cannot read condition {_shown(text, column)}: at column {column}, "
            f"{_shown(token, 1)}: {expected}"
        )


def _shown(text: str, column: int, width: int = 80) -> str:
    """``text`` quoted, or a window of it around ``column`` when it is long (a condition may
    be megabytes: its error message stays a line)."""
    if len(text) <= 2 * width:
        return repr(text)
    lo = max(0, min(column - 1 - width // 2, len(text) - width))
    head = "..." if lo else ""
    tail = "..." if lo + width < len(text) else ""
    return f"{head}{text[lo : lo + width]!r}{tail} ({len(text):,} characters)"


# --- the trees -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    value: float  # a constant (at most 3 decimals)


@dataclass(frozen=True)
class Quantity:
    name: str  # one of QUANTITY_NAMES
    arg: str | None = None  # a card or type name ("" for an empty selector: every card)


@dataclass(frozen=True)
class Arith:
    op: str  # + - * / //
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Neg:
    item: "Expr"


@dataclass(frozen=True)
class Compare:
    op: str  # < <= > >= == !=
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Logic:
    op: str  # and, or
    items: tuple  # two or more truths


@dataclass(frozen=True)
class Not:
    item: "Expr"


Expr = Union[Num, Quantity, Arith, Neg, Compare, Logic, Not]
TRUTHS = (Compare, Logic, Not)

_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//"}
_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_OPCODE = {
    "+": OP_ADD,
    "-": OP_SUB,
    "*": OP_MUL,
    "/": OP_DIV,
    "//": OP_FLOORDIV,
    "<": OP_LT,
    "<=": OP_LE,
    ">": OP_GT,
    ">=": OP_GE,
    "==": OP_EQ,
    "!=": OP_NE,
    "and": OP_AND,
    "or": OP_OR,
}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!=", "+": "+", "*": "*"}
_FLIP.update({"and": "and", "or": "or"})
_LEGACY = re.compile(
    r"^\s*([a-z_]+)\s+([A-Za-z][A-Za-z' ]*?)?\s*(<=|>=|==|!=|<|>)\s*(-?[0-9]+)\s*$"
    r"|^\s*([a-z_]+)\s*(<=|>=|==|!=|<|>)\s*(-?[0-9]+)\s*$"
)
QUANTITY_HELP = (
    "a number or a quantity: "
    + ", ".join(sorted(PLAIN))
    + ", "
    + ", ".join(f"{q}(...)" for q in sorted(SELECTOR | CARD_ONLY))
)


# --- parsing -------------------------------------------------------------------------------


def parse(text) -> Expr:
    """The tree of a condition (the grammar and the older form: module docstring)."""
    if not isinstance(text, str):
        raise TypeError(f"a condition is a string such as 'money > 18', got {text!r}")
    _check_tokens(text)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        legacy = _legacy(text)  # the older form is never a Python expression
        if legacy is not None:
            return legacy
        if not e.offset:  # Python's mark for "at the end of the input"
            col = len(text.rstrip()) + 1
            raise LanguageError(text, col, "", "more: the condition ends too early") from None
        col = _strip_offset(text) + e.offset
        raise LanguageError(
            text, col, _token_at(text, col), f"not an expression ({e.msg})"
        ) from None
    except (ValueError, RecursionError, MemoryError):  # NUL bytes, absurd nesting
        raise LanguageError(text, 1, text[:1], "a condition the parser can read") from None
    reader = _Reader(text, _strip_offset(text))
    reader.check_depth(tree.body)
    return reader.truth(tree.body)


def _check_tokens(text: str) -> None:
    """Refuse a text past ``MAX_TOKENS`` tokens or with a number longer than
    ``MAX_NUMBER_CHARS``, at the token that passes the bound (Python's tokenizer reads it
    without recursion; what it cannot split is left to the parser's own error)."""
    body = text.strip()
    shift = _strip_offset(text)
    starts = [0]
    for line in body.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    skip = {tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT}
    count = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(body).readline):
            if tok.type in skip or not tok.string.strip():
                continue
            count += 1
            col = shift + starts[tok.start[0] - 1] + tok.start[1] + 1
            if count > MAX_TOKENS:
                raise LanguageError(
                    text,
                    col,
                    tok.string,
                    f"at most {MAX_TOKENS} tokens in a condition (the bots' programs run at "
                    f"most {PROG_LEN} steps)",
                )
            if tok.type == tokenize.NUMBER and len(tok.string) > MAX_NUMBER_CHARS:
                raise LanguageError(
                    text,
                    col,
                    tok.string,
                    f"a number of at most {MAX_NUMBER_CHARS} characters "
                    f"(at most {MAX_VALUE:,} in size, 3 decimals)",
                )
    except (tokenize.TokenError, SyntaxError):  # the parser says where, in its own words
        return


def _strip_offset(text: str) -> int:
    return len(text) - len(text.lstrip())


def _token_at(text: str, col: int) -> str:
    rest = text[col - 1 :]
    # only spaces and tabs are skipped: Python refuses other whitespace (a vertical tab, a form
    # feed), and then the offending character is the token
    m = re.match(
        r"[ \t]*([A-Za-z_][A-Za-z_0-9]*|[0-9.]+|\"[^\"]*\"?|'[^']*'?|//|\*\*|<<|>>|[<>=!]=|.)",
        rest,
        re.S,
    )
    return m.group(1) if m else ""


def _legacy(text: str):
    """``quantity [card] op number`` as a tree, or None when the text is not in that form."""
    m = _LEGACY.match(text)
    if not m:
        return None
    if m.group(1):
        q, card, op, value = m.group(1), m.group(2), m.group(3), m.group(4)
    else:
        q, card, op, value = m.group(5), None, m.group(6), m.group(7)
    col = text.index(q) + 1
    if q not in QUANTITY_NAMES[1:]:
        raise LanguageError(text, col, q, f"unknown quantity {q!r}; {QUANTITY_HELP}")
    takes = q in SELECTOR or q in CARD_ONLY
    if takes != bool(card):
        need = "needs a card name" if takes else "takes no card name"
        raise LanguageError(text, col, q, f"quantity {q!r} {need}")
    if card:
        where = text.index(card, col) + 1
        try:
            card = _selector(q, card)
        except ValueError as e:
            raise LanguageError(text, where, card, str(e)) from None
    number = int(value)
    if abs(number) > MAX_VALUE:
        where = text.rindex(value) + 1
        raise LanguageError(text, where, value, f"a number at most {MAX_VALUE:,} in size")
    return Compare(op, Quantity(q, card), Num(number))


def _selector(q: str, name: str) -> str:
    """A selector as written, checked: a card name, or (where q takes one) a type name."""
    if q in SELECTOR and name in TYPE_BY_NAME:
        return name
    if q in SELECTOR and name == "":
        return ""
    card_id(name)  # raises "unknown card name ..."
    return name


class _Reader:
    """Python's ast of a condition -> our tree, refusing what the grammar does not hold."""

    def __init__(self, text: str, shift: int):
        self.text, self.shift = text, shift

    def column(self, offset: int) -> int:
        """1-based column in the text of a UTF-8 byte offset into the stripped text."""
        head = self.text.strip().encode()[:offset].decode(errors="ignore")
        return self.shift + len(head) + 1

    def fail(self, node, expected: str, whole: bool = True):
        """An error at ``node``: its whole text as the token, or (``whole`` False) the one
        token it starts with."""
        col = self.column(getattr(node, "col_offset", 0))
        seg = ast.get_source_segment(self.text.strip(), node) if whole else None
        raise LanguageError(self.text, col, seg or _token_at(self.text, col), expected)

    def check_depth(self, root) -> None:
        """Refuse nesting past ``MAX_NESTING`` (walked without recursion) before the recursive
        reading below meets it."""
        stack = [(root, 1)]
        while stack:
            node, depth = stack.pop()
            if depth > MAX_NESTING:
                self.fail(
                    node,
                    f"nested too deeply: at most {MAX_NESTING} operators inside one another",
                    whole=False,
                )
            stack.extend(
                (c, depth + 1) for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)
            )

    def fits(self, tree, items, nodes) -> Expr:
        """``tree`` (made of ``items``, read from the ast ``nodes``) as the bots' machine can run
        it, else the error at the node whose item passes its registers or its steps (each part
        was checked as it was read: what passes is the combination)."""
        need = _need(tree)
        steps = _steps(tree)
        if need <= MAX_STACK and steps <= PROG_LEN:
            return tree
        at = nodes[-1]
        if isinstance(tree, Logic):  # the first item past the bounds, counted as compiled
            run_need, run_steps = 0, -1
            for item, node in zip(items, nodes, strict=True):
                run_need = max(run_need, _need(item) + (run_steps >= 0))
                run_steps += _steps(item) + 1
                if run_need > MAX_STACK or run_steps > PROG_LEN:
                    at = node
                    break
        if need > MAX_STACK:
            why = f"nested too deeply: it needs {need} registers, the bots' machine has {MAX_STACK}"
        else:
            why = f"too long: {steps} steps, at most {PROG_LEN}"
        self.fail(at, why, whole=False)

    def fail_between(self, left, right, expected: str):
        """An error at the operator between two operands (ast keeps no operator position)."""
        raw = self.text.strip().encode()
        gap = raw[left.end_col_offset : right.col_offset].decode(errors="ignore")
        skip = len(gap) - len(gap.lstrip(" ()\t"))
        col = self.column(left.end_col_offset) + skip
        raise LanguageError(self.text, col, _token_at(self.text, col), expected)

    def truth(self, node) -> Expr:
        if isinstance(node, ast.BoolOp):
            op = "and" if isinstance(node.op, ast.And) else "or"
            items = tuple(self.truth(v) for v in node.values)
            return self.fits(Logic(op, items), items, node.values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            item = self.truth(node.operand)
            return self.fits(Not(item), [item], [node])
        if isinstance(node, ast.Compare):
            items = [self.value(node.left)] + [self.value(v) for v in node.comparators]
            parts = []
            for i, op in enumerate(node.ops):
                if type(op) not in _CMP:
                    left = node.left if i == 0 else node.comparators[i - 1]
                    self.fail_between(left, node.comparators[i], "a comparison: < <= > >= == !=")
                part = Compare(_CMP[type(op)], items[i], items[i + 1])
                parts.append(self.fits(part, [part], [node.comparators[i]]))
            if len(parts) == 1:
                return parts[0]
            return self.fits(Logic("and", tuple(parts)), parts, node.comparators)
        if isinstance(node, ast.BinOp) and type(node.op) not in _ARITH:
            self.fail_between(node.left, node.right, "arithmetic: + - * / // or a comparison")
        self.fail(node, "a truth: a comparison such as 'money > 18', or and / or / not of them")

    def value(self, node) -> Expr:
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _ARITH:
                self.fail_between(node.left, node.right, "arithmetic: + - * / //")
            tree = Arith(_ARITH[type(node.op)], self.value(node.left), self.value(node.right))
            return self.fits(tree, [tree], [node.right])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self.value(node.operand)
            if isinstance(node.op, ast.UAdd):
                return inner
            if isinstance(inner, Num):
                return Num(-inner.value)
            return self.fits(Neg(inner), [inner], [node])
        if isinstance(node, ast.Constant):
            return self.number(node)
        if isinstance(node, ast.Name):
            if node.id in PLAIN:
                return Quantity(node.id)
            if node.id in SELECTOR or node.id in CARD_ONLY:
                self.fail(node, f'{node.id} takes a card in parentheses: {node.id}("Smithy")')
            self.fail(node, f"unknown quantity {node.id!r}; {QUANTITY_HELP}")
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, (ast.Compare, ast.BoolOp)) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
        ):
            self.fail(node, "a value (a number or a quantity), not a truth")
        self.fail(node, QUANTITY_HELP)

    def number(self, node) -> Num:
        v = node.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.fail(node, QUANTITY_HELP)
        try:
            return constant(v)
        except ValueError as e:
            self.fail(node, str(e))

    def call(self, node) -> Quantity:
        f = node.func
        if not isinstance(f, ast.Name) or f.id not in (SELECTOR | CARD_ONLY):
            if isinstance(f, ast.Name) and f.id in PLAIN:
                self.fail(f, f"{f.id} takes no argument: write {f.id} alone")
            self.fail(f, "a quantity that takes a card: " + ", ".join(sorted(SELECTOR | CARD_ONLY)))
        if node.keywords or len(node.args) > 1:
            self.fail(node, f'one card or type in quotes: {f.id}("Smithy")')
        if not node.args:
            if f.id in CARD_ONLY:
                self.fail(node, f'{f.id} takes a card in quotes: {f.id}("Province")')
            return Quantity(f.id, "")
        arg = node.args[0]
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            self.fail(arg, f'a card or type name in quotes: {f.id}("Smithy")')
        try:
            return Quantity(f.id, _selector(f.id, arg.value))
        except ValueError as e:
            self.fail(arg, str(e))


# --- writing back --------------------------------------------------------------------------

_PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "/": 6, "//": 6}


def _num_text(v) -> str:
    if float(v).is_integer():
        return str(int(v))
    return format(Decimal(repr(float(v))).normalize(), "f")


def to_text(e: Expr) -> str:
    """The condition as text, parenthesized only where needed: parse(to_text(e)) == e."""
    return _text(e, 0)


def _text(e: Expr, outer: int) -> str:
    if isinstance(e, Num):
        s, p = _num_text(e.value), 9 if e.value >= 0 else 7
    elif isinstance(e, Quantity):
        arg = "" if not e.arg else f'"{e.arg}"'
        s, p = (e.name if e.arg is None else f"{e.name}({arg})"), 9
    elif isinstance(e, Neg):
        s, p = "-" + _text(e.item, 8), 7
    elif isinstance(e, Arith):
        p = _PREC[e.op]
        s = f"{_text(e.left, p)} {e.op} {_text(e.right, p + 1)}"
    elif isinstance(e, Compare):
        p = _PREC["cmp"]
        s = f"{_text(e.left, p + 1)} {e.op} {_text(e.right, p + 1)}"
    elif isinstance(e, Not):
        p = _PREC["not"]
        s = "not " + _text(e.item, p)
    elif isinstance(e, Logic):
        p = _PREC[e.op]
        s = f" {e.op} ".join(_text(x, p + 1) for x in e.items)
    else:
        raise TypeError(f"not a condition tree: {e!r}")
    return f"({s})" if p < outer else s


# --- constants, for an optimizer -----------------------------------------------------------


def numbers(e: Expr) -> list:
    """The constants of a tree, in the order ``to_text`` writes them."""
    if isinstance(e, Num):
        return [e.value]
    if isinstance(e, Quantity):
        return []
    if isinstance(e, (Neg, Not)):
        return numbers(e.item)
    if isinstance(e, (Arith, Compare)):
        return numbers(e.left) + numbers(e.right)
    return [v for x in e.items for v in numbers(x)]


def with_numbers(e: Expr, values) -> Expr:
    """The same tree with its constants replaced, in ``numbers`` order (checked as parsed)."""
    it = iter(list(values))
    out = _renumber(e, it)
    if next(it, None) is not None:
        raise ValueError(f"more values than the {len(numbers(e))} constants of {to_text(e)!r}")
    return out


def _renumber(e, it):
    if isinstance(e, Num):
        v = next(it, None)
        if v is None:
            raise ValueError("fewer values than the tree's constants")
        return constant(v)
    if isinstance(e, Quantity):
        return e
    if isinstance(e, (Neg, Not)):
        return type(e)(_renumber(e.item, it))
    if isinstance(e, (Arith, Compare)):
        return type(e)(e.op, _renumber(e.left, it), _renumber(e.right, it))
    return Logic(e.op, tuple(_renumber(x, it) for x in e.items))


def constant(v) -> Num:
    """A constant as the language allows it: finite, at most MAX_VALUE in size, 3 decimals."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"a constant is a finite number, got {v!r}")
    if abs(v) > MAX_VALUE:
        raise ValueError(f"a constant is at most {MAX_VALUE:,} in size, got {v!r}")
    exact = Decimal(repr(v))
    if exact * SCALE != int(exact * SCALE):
        raise ValueError(f"a constant has at most 3 decimals, got {v!r}")
    return Num(int(v) if float(v).is_integer() else float(v))


# --- compiling -----------------------------------------------------------------------------


def _need(e: Expr) -> int:
    """Registers a postfix evaluation of e needs (Sethi-Ullman, with operand swaps)."""
    if isinstance(e, (Num, Quantity)):
        return 1
    if isinstance(e, (Neg, Not)):
        return _need(e.item)
    if isinstance(e, Logic):
        need = _need(e.items[0])
        for x in e.items[1:]:
            need = max(need, _need(x) + 1)
        return need
    a, b = _need(e.left), _need(e.right)
    if a == b:
        return a + 1
    if e.op in _FLIP or a > b:
        return max(a, b)
    return max(a, b + 1)


def _steps(e: Expr) -> int:
    """The length of e's postfix program (``_emit``)."""
    if isinstance(e, (Num, Quantity)):
        return 1
    if isinstance(e, (Neg, Not)):
        return _steps(e.item) + 1
    if isinstance(e, Logic):
        return sum(_steps(x) for x in e.items) + len(e.items) - 1
    return _steps(e.left) + _steps(e.right) + 1


def _selector_code(q: str, arg: str) -> int:
    if arg is None:
        return 0
    if arg == "":
        return SEL_ALL
    if q in SELECTOR and arg in TYPE_BY_NAME:
        return SEL_TYPE + TYPE_BY_NAME[arg]
    return ID[arg]


def _step(op: int, operand: int = 0) -> int:
    return operand * 256 + op  # operand << 8 | op, for negative operands too


def _emit(e: Expr, out: list) -> None:
    if isinstance(e, Num):
        out.append(_step(OP_PUSH, round(e.value * SCALE)))
    elif isinstance(e, Quantity):
        out.append(_step(Q_BASE + QUANTITY_NAMES.index(e.name), _selector_code(e.name, e.arg)))
    elif isinstance(e, (Neg, Not)):
        _emit(e.item, out)
        out.append(_step(OP_NEG if isinstance(e, Neg) else OP_NOT))
    elif isinstance(e, Logic):
        _emit(e.items[0], out)
        for x in e.items[1:]:
            _emit(x, out)
            out.append(_step(_OPCODE[e.op]))
    else:
        op, left, right = e.op, e.left, e.right
        if _need(right) > _need(left) and op in _FLIP:  # the deeper side first: fewer registers
            op, left, right = _FLIP[op], right, left
        _emit(left, out)
        _emit(right, out)
        out.append(_step(_OPCODE[op]))


def compile_condition(e: Expr | None) -> list:
    """The postfix program of a condition tree (empty for None: always holds)."""
    if e is None:
        return []
    if not isinstance(e, TRUTHS):
        raise TypeError(f"a condition is a truth (a comparison, and, or, not), got {e!r}")
    out: list = []
    _emit(e, out)
    text = to_text(e)
    if _need(e) > MAX_STACK:
        raise ValueError(
            f"condition {text!r} is nested too deeply: it needs {_need(e)} registers, "
            f"the bots' machine has {MAX_STACK}"
        )
    if len(out) > PROG_LEN:
        raise ValueError(f"condition {text!r} is too long: {len(out)} steps, at most {PROG_LEN}")
    return out


def cards_named(e: Expr | None) -> list:
    """The card names a condition reads (not type names), in text order."""
    if e is None or isinstance(e, Num):
        return []
    if isinstance(e, Quantity):
        return [e.arg] if e.arg and e.arg in ID and e.arg not in TYPE_BY_NAME else []
    if isinstance(e, (Neg, Not)):
        return cards_named(e.item)
    if isinstance(e, (Arith, Compare)):
        return cards_named(e.left) + cards_named(e.right)
    return [c for x in e.items for c in cards_named(x)]
