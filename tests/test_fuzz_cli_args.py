"""Fuzzing the arguments of ``dominion train``, ``evaluate`` and ``replay`` with hypothesis,
through ``cli.parse_args`` (the parser and the ``_check_*`` functions; no training run): every
argument list is either accepted, with every setting in its documented range, or refused with
argparse's exit status 2 and one ``dominion COMMAND: error: argument ...`` line. Never another
exception. ``replay`` runs whole on random files: a record, or status 2 naming the file.

Budgets are small (100 examples per test, derandomized so CI sees the same cases).
"""

from __future__ import annotations

import json
import math
import string

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from dominion_env import cli
from dominion_env.agents import BOTS
from dominion_env.analysis.arena import MAX_GAMES
from dominion_env.checks import MAX_SEED, is_agent_file

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from dominion_env.train import ppo  # noqa: E402

FUZZ = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

INT = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.integers(-3, 12).map(str),
    st.text(alphabet=string.printable, max_size=6),
)
NUMBER = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "1e308", "0", "-5", "0.5", "1e-9", "2**3"]),
    INT,
)
WEIGHT = st.one_of(st.just(""), NUMBER.map(lambda w: ":" + w))
# strategy files: the shipped one, one of its bots (its name ignoring case), a bot it lacks
FILE_OPPONENTS = [
    "optimized",
    "optimized:Optimized Victory Dance",
    "optimized:optimized victory dance",
    "optimized:Nobody",
    "missing.toml",
    "missing.toml:Smithy",
]
OPPONENT = st.tuples(
    st.sampled_from(
        [*BOTS, "big money", "self", "Strongest", "Nobody", "x.pt", "", *FILE_OPPONENTS]
    ),
    WEIGHT,
).map("".join)
HIDDEN = st.one_of(
    st.lists(st.integers(-5, 5000).map(str), min_size=0, max_size=10).map(",".join),
    st.text(alphabet="0123456789,-a ", max_size=10),
)
KINGDOM = st.sampled_from(["random", "First Game", "Nowhere", "bots", "Smithy,Moat", ""])
TRAIN_OPTIONS = {
    "--minutes": NUMBER,
    "--steps": INT,
    "--players": INT,
    "--seed": INT,
    "--num-envs": INT,
    "--hidden": HIDDEN,
    "--vp-shaping": NUMBER,
    "--epochs": INT,
    "--minibatch": INT,
    "--lr": NUMBER,
    "--ent-coef": NUMBER,
    "--bc-steps": INT,
    "--eval-games": INT,
    "--kingdom": KINGDOM,
    "--expert": st.sampled_from(
        ["strongest", "Smithy", "Nobody", "self", "search", "search:8", "search:0", "Search:x"]
    ),
    "--bc-search-steps": INT,
    "--teacher-coef": NUMBER,
    "--teacher-budget": INT,
    "--teacher-positions": INT,
    "--init": st.sampled_from(["ppo-pool", "ppo-3p", "missing.pt", "", "nothing"]),
    "--name": st.text(max_size=5),
    "--device": st.sampled_from(["cpu", "cuda", "cuda:0", "cuda:x", "gpu", "", "CPU"]),
}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A saved 2-player agent and a saved run (for --resume)."""
    out = tmp_path_factory.mktemp("run")
    cfg = ppo.TrainConfig(
        steps=64, num_envs=4, hidden=(8,), bc_steps=0, out=str(out), opponents={"Big Money": 1}
    )
    ppo.Trainer(cfg).save()
    return out


def _refused(e: SystemExit, capsys, command: str) -> None:
    err = capsys.readouterr().err
    event("refused")
    assert e.code == 2, err
    last = err.splitlines()[-1]
    assert last.startswith(f"dominion {command}: error: "), err
    assert "Traceback" not in err


@FUZZ
@given(
    options=st.dictionaries(st.sampled_from(sorted(TRAIN_OPTIONS)), st.none(), max_size=5).flatmap(
        lambda d: st.fixed_dictionaries({k: TRAIN_OPTIONS[k] for k in d})
    ),
    opponents=st.lists(OPPONENT, max_size=3),
    resume=st.booleans(),
)
def test_train_arguments(options, opponents, resume, saved, tmp_path_factory, capsys):
    out = saved if resume else tmp_path_factory.mktemp("out") / "run"
    argv = ["train", f"--out={out}", *(f"{k}={v}" for k, v in options.items())]
    argv += [f"--opponent={o}" for o in opponents] + ["--resume"] * resume
    try:
        args = cli.parse_args(argv)
    except SystemExit as e:
        _refused(e, capsys, "train")
        return
    event("accepted")
    cfg = ppo.check_config(args.cfg)  # accepted: every setting in range
    if cfg.minutes is not None:
        assert math.isfinite(cfg.minutes) and ppo.MIN_MINUTES <= cfg.minutes <= ppo.MAX_MINUTES
    assert 0 <= cfg.seed <= MAX_SEED and 0 <= args.eval_games <= MAX_GAMES
    assert all(ppo.MIN_WEIGHT <= w <= ppo.MAX_WEIGHT for w in cfg.opponents.values())
    assert len(cfg.opponents) == len(opponents) or not opponents  # nothing dropped
    if resume:  # the saved run's settings, whatever was given
        assert (cfg.players, cfg.hidden, cfg.num_envs) == (2, (8,), 4)
    else:
        assert not out.exists()  # checking wrote nothing


@FUZZ
@given(
    options=st.fixed_dictionaries(
        {},
        optional={
            "--games": INT,
            "--players": INT,
            "--seed": INT,
            "--kingdom": KINGDOM,
        },
    ),
    opponents=st.lists(
        st.sampled_from([*BOTS, "strongest", "STRONGEST", "smithy", "Nobody", "self"]),
        max_size=3,
    ),
    agent=st.sampled_from(
        ["agent.safetensors", "missing.pt", "ppo-pool", "ppo-3p", "ppo-6p", "nothing"]
    ),
)
def test_evaluate_arguments(options, opponents, agent, saved, capsys):
    name = str(saved / agent) if is_agent_file(agent) else agent
    argv = ["evaluate", name, *(f"{k}={v}" for k, v in options.items())]
    argv += [f"--opponent={o}" for o in opponents]
    try:
        args = cli.parse_args(argv)
    except SystemExit as e:
        _refused(e, capsys, "evaluate")
        return
    event("accepted")
    assert 1 <= args.games <= MAX_GAMES and 0 <= args.seed <= MAX_SEED
    assert args.players == args.agent_resolved.info.players
    assert len(args.opponents) == (len(opponents) or 3)


RECORDISH = st.one_of(
    st.binary(max_size=64),
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
        ),
        max_leaves=8,
    ).map(lambda v: json.dumps(v).encode()),
)


@FUZZ
@given(data=RECORDISH, viewer=st.one_of(st.none(), INT))
def test_replay_files(data, viewer, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("rec") / "game.json"
    path.write_bytes(data)
    argv = ["replay", str(path)] + ([f"--viewer={viewer}"] if viewer is not None else [])
    try:
        code = cli.main(argv)
    except SystemExit as e:
        _refused(e, capsys, "replay")
        return
    event("accepted")
    assert code == 0  # a random file that is a valid record: it printed


def test_the_fuzzers_reach_both_outcomes(saved, tmp_path, capsys):
    assert cli.parse_args(["train", f"--out={tmp_path}", "--minutes=5"]).cfg.minutes == 5
    with pytest.raises(SystemExit):
        cli.parse_args(["train", f"--out={tmp_path}", "--minutes=nan"])
    assert "argument --minutes: nan" in capsys.readouterr().err
    args = cli.parse_args(["evaluate", str(saved / "agent.safetensors"), "--games=7"])
    assert (args.games, args.players) == (7, 2)
    with pytest.raises(SystemExit):
        cli.parse_args(["evaluate", str(saved / "agent.safetensors"), f"--games={10**12}"])
    assert "argument --games: 1,000,000,000,000 is out of range" in capsys.readouterr().err


# strategy files whose conditions are long, deeply nested or hold huge numbers: every command
# that reads them ends with status 2 and one line naming the column and the token
HUGE_CONDITIONS = st.builds(
    lambda piece, n, tail: piece * n + tail,
    st.sampled_from(["not ", "-", "money + ", "money > 1 and ", "9"]),
    st.integers(70, 3000),
    st.just("money > 1"),
)


@FUZZ
@given(condition=HUGE_CONDITIONS, command=st.sampled_from(["tournament", "evaluate", "train"]))
def test_strategy_files_with_huge_conditions(condition, command, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("bots") / "huge.toml"
    path.write_text(f'[[bot]]\nname = "Huge"\nrules = [["Gold", "{condition}"]]\n')
    argv = {
        "tournament": ["tournament", "Big Money", "--bots-file", str(path), "--out", ""],
        "evaluate": ["evaluate", "search:2", "--opponent", str(path)],
        "train": ["train", "--opponent", str(path), "--steps", "1"],
    }[command]
    with pytest.raises(SystemExit) as info:
        cli.parse_args(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "at column" in err
    assert err.strip().splitlines()[-1].startswith(f"dominion {command}: error: ")
