"""Fuzzing the text faces with hypothesis: the bot language (conditions, rules, TOML) and the
command line's arguments. Every input either works (and the result is in range) or is refused
with the documented error: ValueError/TypeError from the bot language, argparse's exit status 2
with a message naming the argument from the CLI. Never another exception, never a crash.

Budgets are small (150 examples per test, derandomized so CI sees the same cases);
the whole file runs in a few seconds.
"""

from __future__ import annotations

import string
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominion_env import cli
from dominion_env.agents import BOTS, Bot, bots_from_toml, load_bots
from dominion_env.agents.language import LanguageError, compile_condition, parse, to_text
from dominion_env.analysis.arena import MAX_GAMES, MAX_TURN_LIMIT
from dominion_env.cards import NAMES
from dominion_env.checks import MAX_SEED
from dominion_env.commands.tournament import MAX_TABLES
from dominion_env.engine.bots import OP_SYMBOLS, PROG_LEN, QUANTITY_NAMES

FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# pieces of the language, mixed with junk, so both sides of every check are reached
WORDS = st.sampled_from(
    [*QUANTITY_NAMES, *NAMES, *OP_SYMBOLS, "Gould", "smithy", "=", "<>", "and", "", " "]
    + ["or", "not", "(", ")", "+", "-", "*", "/", "//", "%", "**", "'Gold'", '("Action")', "()"]
    + ["0.5", "1.2345", "1e3", "True", "if", ",", "count(", "hand(", "'", '"']
)
NUMBERS = st.integers(-(10**12), 10**12).map(str)
CONDITION_TEXT = st.one_of(
    st.text(max_size=30),
    st.lists(st.one_of(WORDS, NUMBERS), min_size=1, max_size=7).map(" ".join),
    st.lists(st.one_of(WORDS, NUMBERS), min_size=1, max_size=7).map("".join),
)


@FUZZ
@given(CONDITION_TEXT)
def test_parse_condition(text):
    """Every text parses to a tree that writes back to itself, or is refused with the text,
    a column inside it (or just past its end) and the token found there."""
    try:
        tree = parse(text)
    except LanguageError as e:
        assert str(e).startswith(f"cannot read condition {text!r}: at column {e.column}")
        assert 1 <= e.column <= len(text) + 1
        assert text[e.column - 1 :].startswith(e.token)
        return
    assert parse(to_text(tree)) == tree
    try:
        program = compile_condition(tree)
    except ValueError as e:
        assert "too" in str(e)  # too deep or too long
        return
    assert 0 < len(program) <= PROG_LEN


# long expressions, deep nesting and huge literals: a piece repeated up to thousands of times
PIECES = ["not ", "-", "+", "(", "-(", "money + ", "money > 1 and ", "money > 1 or ", "9", "0."]
HUGE_TEXT = st.builds(
    lambda head, piece, n, tail: head + piece * n + tail,
    st.sampled_from(["", "money > ", "pile Province < ", "count("]),
    st.sampled_from(PIECES),
    st.integers(0, 5000),
    st.sampled_from(["", "money > 1", "1 < money", "1", ")", "money"]),
)


@FUZZ
@given(HUGE_TEXT)
def test_parse_huge_condition(text):
    """Whatever its size, a text compiles or is a LanguageError at a column inside it and the
    token there, its message one short line."""
    try:
        tree = parse(text)
    except LanguageError as e:
        assert 1 <= e.column <= len(text) + 1
        assert text[e.column - 1 :].startswith(e.token)
        assert len(str(e)) < 500
        return
    try:
        program = compile_condition(tree)
    except ValueError as e:
        assert "too" in str(e)
        return
    assert 0 < len(program) <= PROG_LEN


JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
RULE = st.one_of(
    st.sampled_from(NAMES),
    st.lists(st.one_of(st.sampled_from(NAMES), CONDITION_TEXT), min_size=1, max_size=4),
    JSONISH,
)


@FUZZ
@given(
    name=st.one_of(st.text(max_size=10), JSONISH),
    rules=st.one_of(st.lists(RULE, max_size=5), JSONISH),
    random=st.one_of(st.booleans(), JSONISH),
    source=st.one_of(st.text(max_size=5), JSONISH),
)
def test_bot_objects(name, rules, random, source):
    try:
        bot = Bot(name, rules, random=random, source=source)
    except (ValueError, TypeError) as e:
        assert "bot" in str(e)  # names the bot (or says a bot's name is wrong)
        return
    assert isinstance(bot.name, str) and bot.name.strip()
    assert isinstance(bot.random, bool) and bool(bot.rules) != bot.random
    bot.compiled_rules()


TOML_BOT = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.sampled_from(["A", "a", "B", "Big Money", ""]), JSONISH),
        "rules": st.one_of(st.lists(RULE, max_size=4), JSONISH),
        "random": st.one_of(st.booleans(), st.sampled_from(["no", "yes", 0, 1])),
        "source": st.one_of(st.text(max_size=5), JSONISH),
        "extra": JSONISH,
    },
)


@FUZZ
@given(
    st.one_of(st.dictionaries(st.sampled_from(["bot"]), st.lists(TOML_BOT, max_size=3)), JSONISH)
)
def test_bots_from_toml_documents(data):
    try:
        bots = bots_from_toml(data, "fuzz.toml")
    except ValueError as e:
        assert str(e).startswith("fuzz.toml")
        return
    names = [b.name.casefold() for b in bots]
    assert bots and len(set(names)) == len(names)
    assert all(isinstance(b, Bot) for b in bots)


TOML_LINES = st.lists(
    st.sampled_from(
        [
            "[[bot]]",
            'name = "A"',
            'name = "a"',
            "name = 3",
            'rules = ["Gold", "Silver"]',
            'rules = [["Province", "money > 15"], "Gold"]',
            'rules = [["Smithy", "count Smithy < x"]]',
            "random = true",
            'random = "no"',
            'source = "me"',
            "[bot]",
            "rules = [",
            "",
        ]
    ),
    max_size=8,
).map("\n".join)


@FUZZ
@given(st.one_of(TOML_LINES, st.text(max_size=60)))
def test_load_bots_files(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("toml") / "bots.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        bots = load_bots(path)
    except ValueError as e:
        assert str(path) in str(e)
        return
    assert bots and all(isinstance(b, Bot) for b in bots)


# --- command line -----------------------------------------------------------------------------

LIMITS = {
    "--games": (1, MAX_GAMES),
    "--seed": (0, MAX_SEED),
    "--players": (2, 6),
    "--turn-limit": (1, MAX_TURN_LIMIT),
    "--max-tables": (1, MAX_TABLES),
}
VALUE = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.integers(-3, 12).map(str),
    st.text(alphabet=string.printable, max_size=8),
)
BOT_NAME = st.one_of(
    st.sampled_from([*BOTS, "big money", "SMITHY", "Smithy BM", "ppo"]), st.text(max_size=8)
)


@FUZZ
@given(
    command=st.sampled_from(["simulate", "tournament"]),
    bots=st.lists(BOT_NAME, min_size=1, max_size=4),
    options=st.dictionaries(st.sampled_from(sorted(LIMITS)), VALUE, max_size=3),
)
def test_cli_arguments(command, bots, options, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the tournament's default --out is checked here
    if command == "simulate":
        options.pop("--max-tables", None)
    argv = [command, "--quiet", *(f"{k}={v}" for k, v in options.items()), "--", *bots]
    try:
        args = cli.parse_args(argv)
    except SystemExit as e:
        err = capsys.readouterr().err
        assert e.code == 2, err
        assert f"dominion {command}: error:" in err
        return
    for option, (low, high) in LIMITS.items():
        if option in options:
            assert low <= getattr(args, option[2:].replace("-", "_")) <= high
    names = [b.name.casefold() for b in args.players_resolved]
    assert len(names) == len(set(names)) and len(args.bots) <= (
        args.players if command == "simulate" else len(names)
    )


def test_the_fuzzers_reach_both_outcomes(capsys):
    # a value the CLI takes and one it refuses, as the fuzzers generate them
    assert cli.parse_args(["simulate", "--games=5", "--", "smithy"]).games == 5
    with pytest.raises(SystemExit):
        cli.parse_args(["simulate", f"--seed={2**64}", "--", "Smithy"])
    assert "argument --seed" in capsys.readouterr().err
    assert sys.maxsize == MAX_SEED  # the seed bound is the int64 the kernels hold
