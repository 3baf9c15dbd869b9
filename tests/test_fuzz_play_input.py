"""Fuzzing what a person types at ``dominion play``'s prompt: any line, unicode
digits, control characters, NUL bytes, huge numbers, blank lines, is either a legal action or
answered with a message and asked again; never an exception, never the end of the game (only
"quit"/"exit" leave, on purpose). The raw bytes of a line are read without error too.

Fed to ``parse``/``ask``/``read_line`` directly, not through a terminal (tests/test_play.py does
that). The command's arguments are fuzzed too (``parse_args``: taken, or exit status 2 naming
the argument). Derandomized and small, as the other fuzz files: a few seconds.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominion_env import cli
from dominion_env.analysis.arena import MAX_TURN_LIMIT
from dominion_env.checks import MAX_SEED
from dominion_env.game import Game
from dominion_env.play import PASS, Quit, ask_person, choices, parse_answer, read_line

FUZZ = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# the person's first decision of a fixed game: a buy with a dozen numbered choices
GAME = Game("First Game", players=2, seed=2)
while GAME.current_player != 0:
    GAME.step(int(np.flatnonzero(GAME.action_mask)[0]))
OPTIONS = choices(GAME)
NUMBERED = list(enumerate(OPTIONS, 0 if OPTIONS[0][0] == PASS else 1))
LEGAL = {a for a, _ in OPTIONS}

DIGITS = st.sampled_from("0123456789²³¹⁵₃٣۳०३߃০๓௩１２")  # ASCII, super/subscript, other scripts
LINES = st.one_of(
    st.text(max_size=40),  # any unicode, control characters and NUL included
    st.text(DIGITS, min_size=1, max_size=8),
    st.integers(-(10**30), 10**30).map(str),
    st.integers(1, 6000).map(lambda n: "1" + "0" * n),  # past int()'s 4,300-digit limit too
    st.sampled_from(["", " ", "\t", "\x00", "a\x00b", "\x1b[2J", "?", "help", "? \x00", "log"]),
    st.sampled_from([label for _, label in OPTIONS] + ["pass", "DONE", "Silver", "silver "]),
)


def _leaves(text: str) -> bool:
    words = text.strip().split(maxsplit=1)
    return bool(words) and words[0].lower() in ("quit", "exit")


@FUZZ
@given(LINES)
def test_parse_answers_every_line(text):
    try:
        answer = parse_answer(text.strip(), NUMBERED, GAME)
    except Quit:
        assert _leaves(text)
        return
    assert not _leaves(text)
    if isinstance(answer, int):
        assert answer in LEGAL
    elif answer is None:
        assert not text.strip()
    else:
        assert isinstance(answer, str) and 0 < len(answer) < 2_000  # a short answer, not an echo


class Asked(Exception):
    """The prompt came back: the line was answered and asked again."""


@FUZZ
@given(LINES)
def test_ask_takes_a_legal_action_or_asks_again(text):
    lines, shown = [text], []

    def read(prompt):
        assert prompt == "> "
        if not lines:
            raise Asked
        return lines.pop()

    try:
        a = ask_person(GAME, read, shown.append)
    except Asked:
        assert len(shown) == 2 + bool(text.strip())  # the decision, its choices, the answer
        return
    except Quit:
        assert _leaves(text)
        return
    assert a in LEGAL and GAME.action_mask[a]


@FUZZ
@given(data=st.binary(max_size=60))
def test_read_line_reads_any_bytes(monkeypatch, data):
    stdin = io.TextIOWrapper(io.BytesIO(data + b"\n"), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    line = read_line("> ")
    assert isinstance(line, str) and "\n" not in line
    assert line == data.split(b"\n")[0].decode("utf-8", errors="replace").rstrip("\r\n")


def test_read_line_at_the_end_of_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8"))
    with pytest.raises(EOFError):
        read_line("> ")


# -- the command's arguments -------------------------------------------------------------------

VALUES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["nan", "inf", "-1", "0", "1e308", str(2**64), "9" * 400, "²", "a" * 300]),
    st.sampled_from(["Big Money", "Random", "First Game", "random", "x.json", ".", "/", ""]),
)
OPTIONS = st.sampled_from(
    ["--opponent", "--kingdom", "--seed", "--turn-limit", "--record", "--resume"]
)


@FUZZ
@given(argv=st.lists(st.tuples(OPTIONS, VALUES), max_size=4))
def test_play_arguments_are_taken_or_refused_clearly(argv, tmp_path, monkeypatch, capsys):
    """No game is played here (a --resume file would have to be a record): parse_args checks
    every option, and either takes it or exits with status 2 naming the argument."""
    monkeypatch.chdir(tmp_path)
    flat = [x for pair in argv for x in pair]
    try:
        args = cli.parse_args(["play", *flat])
    except SystemExit as e:
        err = capsys.readouterr().err.strip().splitlines()
        assert e.code == 2 and err and err[-1].startswith("dominion play: error: argument --")
        return
    assert 0 <= args.seed <= MAX_SEED and 1 <= args.turn_limit <= MAX_TURN_LIMIT
    assert 1 <= len(args.opponents) <= 5 and args.resume is None
    assert not list(tmp_path.iterdir())  # checking writes nothing
