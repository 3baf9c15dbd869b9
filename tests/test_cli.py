"""The ``dominion`` command line and the bot library's public faces: strict inputs with clear
errors (the argument, the value, what is allowed), bot names ignoring case with suggestions,
``simulate``'s seating and ``--out``, plain-text help, optional extras named when missing, and
the license metadata."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dominion_env import cli
from dominion_env.agents import BOTS, Bot, compile_bots, get_bot, load_bots
from dominion_env.analysis.arena import MAX_GAMES, play_games
from dominion_env.commands import listings, simulate, tournament
from dominion_env.extras import EXTRAS, install_hint, require

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def fail(argv, capsys) -> str:
    """Run the CLI on argv, expect argparse's exit status 2, return what it printed."""
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


@pytest.fixture
def no_games(monkeypatch):
    """Any game played makes the test fail: the checks must come first."""

    def boom(*a, **k):
        raise AssertionError("a game was played before the arguments were checked")

    for module, name in (
        (simulate, "play_games"),
        (simulate, "play_mixed"),
        (tournament, "run_tournament"),
    ):
        monkeypatch.setattr(module, name, boom)


# ---------------------------------------------------------------------------------------------
# A. strict inputs
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "option, value, allowed",
    [
        ("--seed", "-1", "0 to 9,223,372,036,854,775,807"),
        ("--seed", str(2**63), "0 to 9,223,372,036,854,775,807"),
        ("--seed", "1.5", "not a whole number"),
        ("--turn-limit", "0", "1 to 100,000"),
        ("--turn-limit", "-1", "1 to 100,000"),
        ("--players", "0", "2 to 6"),
        ("--players", "7", "2 to 6"),
        ("--games", "0", f"1 to {MAX_GAMES:,}"),
        ("--games", str(10**15), "kept in memory"),
        ("--games", "many", "not a whole number"),
    ],
)
@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_numbers_out_of_range_name_argument_value_and_range(
    command, option, value, allowed, capsys, no_games
):
    err = fail([command, "Big Money", "Smithy", f"{option}={value}"], capsys)
    assert f"argument {option}:" in err
    assert value in err or f"{int(value):,}" in err
    assert allowed in err


def test_unwritable_out_is_found_before_any_game(tmp_path, capsys, no_games):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    err = fail(["tournament", "Big Money", "Smithy", "--out", str(blocker / "t")], capsys)
    assert "argument --out" in err and "is a file, not a folder" in err
    assert not (blocker / "t").exists()
    err = fail(["simulate", "Big Money", "--out", str(blocker / "r.json")], capsys)
    assert "argument --out" in err and "is a file" in err


def test_out_folder_is_not_created_by_the_check(tmp_path, no_games):
    args = cli.parse_args(["tournament", "Big Money", "Smithy", "--out", str(tmp_path / "x/y")])
    assert args.out and not (tmp_path / "x").exists()


def test_toml_random_must_be_a_boolean(tmp_path):
    path = tmp_path / "b.toml"
    path.write_text('[[bot]]\nname = "Chaos"\nrandom = "no"\n')
    with pytest.raises(ValueError, match=r"random must be true or false, got 'no'"):
        load_bots(path)


@pytest.mark.parametrize(
    "body, message",
    [
        ('name = "x"\nsource = 3\nrules = ["Gold"]', "source must be a string, got 3"),
        ('name = "x"\nrules = "Gold"', "rules must be an array of rules"),
        ('name = ""\nrules = ["Gold"]', "needs a name"),
        ('name = "x"\nrandom = true\nrules = ["Gold"]', "a random bot takes no rules"),
        ('name = "x"', "no rules"),
        ('name = "x"\nrules = [["Gold", "money > 99999999999"]]', "at most 1,000,000,000"),
    ],
)
def test_toml_values_are_checked(tmp_path, body, message):
    path = tmp_path / "b.toml"
    path.write_text("[[bot]]\n" + body + "\n")
    with pytest.raises(ValueError, match=message):
        load_bots(path)


def test_duplicate_names_in_a_bots_file_are_refused(tmp_path, capsys, no_games):
    path = tmp_path / "b.toml"
    path.write_text(
        textwrap.dedent("""
        [[bot]]
        name = "Mine"
        rules = ["Province", "Gold", "Silver"]
        [[bot]]
        name = "mine"
        rules = ["Province", "Silver"]
    """)
    )
    with pytest.raises(ValueError, match=r"'mine' is used twice \(bots 1 and 2"):
        load_bots(path)
    err = fail(["tournament", "Big Money", "--bots-file", str(path)], capsys)
    assert "argument --bots-file" in err and "used twice" in err


def test_a_bot_named_twice_on_the_command_line_is_refused(capsys, no_games):
    err = fail(["tournament", "Smithy", "smithy", "Big Money"], capsys)
    assert "'smithy' is named twice" in err
    err = fail(["simulate", "Smithy", "SMITHY"], capsys)
    assert "named twice" in err and "mirror" in err


def test_every_bot_of_a_file_plays(tmp_path, no_games):
    path = tmp_path / "b.toml"
    path.write_text(
        '[[bot]]\nname = "A"\nrules = ["Gold"]\n[[bot]]\nname = "big money"\nrules = ["Gold"]\n'
    )
    args = cli.parse_args(["tournament", "Smithy", "--bots-file", str(path), "--quiet"])
    names = [b.name for b in args.players_resolved]
    assert names == ["Smithy", "A", "big money"]  # the file's bot replaces the library's
    args = cli.parse_args(["tournament", "--all", "--bots-file", str(path), "--quiet"])
    names = [b.name.casefold() for b in args.players_resolved]
    assert len(names) == len(set(names)) == len(BOTS) + 1


def test_bot_objects_are_checked_when_made():
    with pytest.raises(TypeError, match="random must be True or False, got 'no'"):
        Bot("x", random="no")
    with pytest.raises(ValueError, match="non-empty string"):
        Bot("", ["Gold"])
    with pytest.raises(TypeError, match=r"rule 1: expected a card name"):
        Bot("x", [3])
    with pytest.raises(TypeError, match="strings, got 4"):
        Bot("x", [("Gold", 4)])
    with pytest.raises(ValueError, match="unknown card name 'Gould'"):
        Bot("x", ["Gould"])


def test_arena_refuses_seeds_and_counts_out_of_range():
    table = compile_bots("Big Money")
    with pytest.raises(ValueError, match=r"seed must be an int 0\.\.2\*\*63-1"):
        play_games(table, 2, seed=2**63)
    with pytest.raises(ValueError, match="seed"):
        play_games(table, 2, seed=-1)
    with pytest.raises(ValueError, match=r"games must be an int 1\.\.10000000"):
        play_games(table, 10**15)
    with pytest.raises(ValueError, match=r"turn_limit must be an int 1\.\.100000"):
        play_games(table, 2, turn_limit=0)


# ---------------------------------------------------------------------------------------------
# D. names, simulate, help, extras, license
# ---------------------------------------------------------------------------------------------


def test_bot_names_ignore_case_and_suggest():
    assert get_bot("big money ultimate") is BOTS["Big Money Ultimate"]
    assert get_bot("DOUBLE WITCH") is BOTS["Double Witch"]
    with pytest.raises(ValueError, match=r"Did you mean 'Double Witch'"):
        get_bot("Double Wich")
    with pytest.raises(ValueError, match=r"unknown bot 'zzzz'\. Known bots: Random"):
        get_bot("zzzz")


def test_cli_bot_names_ignore_case_and_suggest(capsys, no_games):
    args = cli.parse_args(["simulate", "smithy", "big money"])
    assert [b.name for b in args.players_resolved] == ["Smithy", "Big Money"]
    err = fail(["simulate", "Smithy", "Big Mony"], capsys)
    assert "unknown bot 'Big Mony'. Did you mean 'Big Money'" in err
    err = fail(["tournament", "Smithy", "Militya"], capsys)
    assert "Did you mean 'Militia'" in err


def test_simulate_says_when_it_plays_a_mirror(capsys):
    assert cli.main(["simulate", "smithy", "--games", "8", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "mirror: Smithy in all 2 seats" in out
    assert cli.main(["simulate", "Smithy", "Big Money", "--players", "3", "--games", "6"]) == 0
    assert "seats Smithy, Big Money, Smithy, rotated one seat per game" in capsys.readouterr().out


def test_simulate_out_writes_csv_or_json(tmp_path, capsys):
    base = ["simulate", "Smithy", "Big Money", "--games", "20", "--seed", "4", "--quiet"]
    assert cli.main([*base, "--out", str(tmp_path / "r.json")]) == 0
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["games"] == 20 and data["seed"] == 4 and data["players"] == 2
    assert [b["bot"] for b in data["bots"]] == ["Smithy", "Big Money"]
    for b in data["bots"]:
        assert b["wins"] + b["ties"] + b["losses"] + b["truncated"] == b["games"] == 20
        assert 0 <= b["win_ci_low"] <= b["win_rate"] <= b["win_ci_high"] <= 1
    assert cli.main([*base, "--out", str(tmp_path / "r.csv")]) == 0
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert [r["bot"] for r in rows] == ["Smithy", "Big Money"]
    assert {r["wins"] for r in rows} == {str(b["wins"]) for b in data["bots"]}  # same games
    assert rows[0]["seed"] == "4"


def test_simulate_out_needs_a_known_extension(tmp_path, capsys, no_games):
    err = fail(["simulate", "Smithy", "--out", str(tmp_path / "r.txt")], capsys)
    assert "argument --out" in err and ".csv or .json" in err


def _help_texts():
    parser = cli.build_parser()
    yield "dominion", parser.format_help()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, p in sub.choices.items():
        yield name, p.format_help()


def test_help_is_plain_text():
    markup = re.compile(r"``|`[^`]+`|:(class|func|meth|mod|attr):")
    seen = []
    for name, text in _help_texts():
        seen.append(name)
        assert not markup.search(text), f"dominion {name} --help has markup: {text}"
    assert {"dominion", "simulate", "tournament", "bots", "cards", "kingdoms"} <= set(seen)


def test_missing_extras_name_the_pip_command():
    script = textwrap.dedent("""
        import importlib, sys
        for blocked, module in [
            ("pettingzoo", "dominion_env.envs.pettingzoo_env"),
            ("stable_baselines3", "dominion_env.envs.sb3_vec_env"),
            ("torch", "dominion_env.train"),
        ]:
            sys.modules[blocked] = None  # as if it were not installed
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as e:
                print(type(e).__name__, e)
            else:
                print("imported", module)
    """)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 3, out.stdout
    assert all(line.startswith("MissingExtra") for line in lines), lines
    assert "pip install 'dominion-env[pettingzoo]'" in lines[0]
    assert "stable-baselines3" in lines[1] and "dominion-env[train]" in lines[1]
    assert "dominion_env.train" in lines[2] and "dominion-env[train]" in lines[2]


def test_require_passes_installed_libraries_and_refuses_unknown_ones():
    assert require("numpy" if "numpy" in EXTRAS else "matplotlib", "x").__name__
    with pytest.raises(ValueError, match="not an optional dependency"):
        install_hint("requests")


def test_extras_table_agrees_with_pyproject():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = meta["optional-dependencies"]
    for module, (dist, extra) in EXTRAS.items():
        reqs = meta["dependencies"] if extra is None else extras[extra]
        assert any(re.match(rf"{re.escape(dist)}\b", r) for r in reqs), (module, extra, reqs)


def test_license_file_and_metadata():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Permission is hereby granted" in text
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["license"] == "MIT"  # PEP 639: an SPDX expression
    assert data["project"]["license-files"] == ["LICENSE"]
    (req,) = [r for r in data["build-system"]["requires"] if r.startswith("setuptools")]
    # setuptools reads PEP 639's license and license-files from 77.0 on
    assert int(re.search(r">=\s*(\d+)", req).group(1)) >= 77


# ---------------------------------------------------------------------------------------------
# C. train, evaluate, replay: every argument checked before any work; Ctrl-C; closed pipes
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    """A tiny saved 2-player run (checkpoint and agent), never trained: for --resume and
    evaluate."""
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from dominion_env.train.ppo import TrainConfig, Trainer

    out = tmp_path_factory.mktemp("run")
    cfg = TrainConfig(
        steps=64, num_envs=4, hidden=(8,), bc_steps=0, out=str(out), opponents={"Big Money": 1}
    )
    Trainer(cfg).save()
    return out


@pytest.fixture
def no_training(monkeypatch):
    """Training or evaluating makes the test fail: the checks must come first."""
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from dominion_env.commands import evaluate, train

    def boom(*a, **k):
        raise AssertionError("work started before the arguments were checked")

    monkeypatch.setattr(train, "train", boom)
    monkeypatch.setattr(train, "evaluate_agent", boom)
    monkeypatch.setattr(evaluate, "evaluate", boom)


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--minutes", "0"], "argument --minutes: 0 is out of range; allowed: a finite number "),
        (["--minutes", "-5"], "argument --minutes: -5 is out of range"),
        (["--minutes", "nan"], "argument --minutes: nan is out of range"),
        (["--minutes", "inf"], "argument --minutes: inf is out of range"),
        (["--minutes", "1e308"], "argument --minutes: 1e308 is out of range"),
        (["--minutes", "ten"], "argument --minutes: 'ten' is not a number"),
        (["--steps", "0"], "argument --steps: 0 is out of range; allowed: 1 to "),
        (["--bc-steps", "-5"], "argument --bc-steps: -5 is out of range; allowed: 0 to 10,000,000"),
        (["--opponent", "Big Money:nan"], "'Big Money:nan': the weight must be a finite number"),
        (["--opponent", "Big Money:inf"], "'Big Money:inf': the weight must be a finite number"),
        (["--opponent", "Big Money:0"], "'Big Money:0': the weight must be a finite number"),
        (["--opponent", "Big Money:-1"], "'Big Money:-1': the weight must be a finite number"),
        (["--opponent", "Big Money:x"], "'Big Money:x': the weight after ':' must be a number"),
        (["--opponent", "Big Mony"], "unknown opponent 'Big Mony'. Did you mean 'Big Money'"),
        (["--opponent", "Big Money:1", "--opponent", "big money:2"], "'Big Money' is named twice"),
        (["--opponent", "nowhere.pt"], "argument --opponent: no agent 'nowhere.pt'"),
        (["--opponent", "nowhere.toml:2"], "opponent 'nowhere.toml': no strategy file"),
        (["--hidden", "a,b"], "argument --hidden: 'a,b': comma-separated layer widths"),
        (["--hidden", "0"], "hidden layer width must be an int 1..4096, got 0"),
        (["--hidden", "-3"], "hidden layer width must be an int 1..4096, got -3"),
        (["--hidden", str(10**9)], "hidden layer width must be an int 1..4096, got 1000000000"),
        (["--hidden", "8,8,8,8,8,8,8,8,8"], "hidden must be 1 to 8 layer widths"),
        (["--network", "set"], "argument --network: invalid choice: 'set' (choose from"),
        (["--seed", str(2**64)], "argument --seed: 18,446,744,073,709,551,616 is out of range"),
        (["--seed", "-1"], "argument --seed: -1 is out of range"),
        (["--eval-games", "-1"], "argument --eval-games: -1 is out of range"),
        (["--num-envs", "0"], "argument --num-envs: 0 is out of range"),
        (["--num-envs", "2"], "num_envs=2 is too small to give each of 3 opponent groups"),
        (["--players", "7"], "argument --players: 7 is out of range; allowed: 2 to 6"),
        (["--vp-shaping", "nan"], "argument --vp-shaping: nan is out of range"),
        (["--vp-shaping", "1e300"], "argument --vp-shaping: 1e300 is out of range"),
        (["--kingdom", "Nowhere"], "argument --kingdom: unknown kingdom 'Nowhere'"),
        (["--expert", "Nobody"], "argument --expert: unknown bot 'Nobody'"),
    ],
)
def test_train_arguments_are_checked_before_training(argv, says, tmp_path, capsys, no_training):
    err = fail(["train", "--out", str(tmp_path / "run"), *argv], capsys)
    last = err.splitlines()[-1]  # after argparse's usage: one line
    assert last.startswith("dominion train: error: ") and says in last
    assert not (tmp_path / "run").exists()


def test_train_out_that_cannot_be_written_is_refused_first(tmp_path, capsys, no_training):
    (tmp_path / "file").write_text("x")
    err = fail(["train", "--out", str(tmp_path / "file" / "run")], capsys)
    assert f"argument --out: '{tmp_path / 'file' / 'run'}' cannot take the run:" in err
    assert f"{tmp_path / 'file'} is a file, not a folder" in err
    err = fail(["train", "--out", str(tmp_path / "file")], capsys)
    assert f"argument --out: '{tmp_path / 'file'}' is a file, not a folder" in err


def test_train_into_a_folder_that_holds_a_run_is_refused(saved_run, capsys, no_training):
    """A new run would replace a trained agent: refused unless --resume or --overwrite."""
    before = {
        f: (saved_run / f).read_bytes() for f in ("agent.safetensors", "checkpoint.safetensors")
    }
    err = fail(["train", "--out", str(saved_run), "--steps", "64"], capsys)
    assert err.splitlines()[-1] == (
        f"dominion train: error: argument --out: '{saved_run}' already holds a run "
        "(agent.safetensors, checkpoint.safetensors); continue it with --resume, train in "
        "another --out, or pass --overwrite"
    )
    assert {f: (saved_run / f).read_bytes() for f in before} == before
    args = cli.parse_args(["train", "--out", str(saved_run), "--steps", "64", "--overwrite"])
    assert args.cfg.steps == 64 and args.cfg.out == str(saved_run)


@pytest.mark.parametrize(
    "argv, says",
    [
        (
            ["--players", "3"],
            "argument --players: the run in {out} was trained with players=2, "
            "given 3; --resume continues a run with its own settings",
        ),
        (
            ["--hidden", "16"],
            "argument --hidden: the run in {out} was trained with hidden=(8,), given (16,)",
        ),
        (
            ["--opponent", "Big Money:2"],
            "argument --opponent: the run in {out} was trained with "
            "opponents={{'Big Money': 1}}, given {{'Big Money': 2.0}}",
        ),
        (
            ["--kingdom", "First Game"],
            "argument --kingdom: the run in {out} was trained with "
            "kingdom='random', given 'First Game'",
        ),
        (["--seed", "5"], "argument --seed: the run in {out} was trained with seed=0, given 5"),
        (
            ["--network", "cards"],
            "argument --network: the run in {out} was trained with network='mlp', given 'cards'",
        ),
    ],
)
def test_resume_refuses_settings_that_differ_from_the_saved_run(
    argv, says, saved_run, capsys, no_training
):
    err = fail(["train", "--resume", "--out", str(saved_run), *argv], capsys)
    assert says.format(out=saved_run) in err


def test_resume_takes_the_saved_settings_and_new_totals(saved_run, no_training):
    args = cli.parse_args(
        ["train", "--resume", "--out", str(saved_run), "--players", "2", "--steps", "128"]
    )
    assert (args.cfg.players, args.cfg.hidden, args.cfg.steps) == (2, (8,), 128)
    assert args.cfg.opponents == {"Big Money": 1} and args.cfg.num_envs == 4


def test_resume_needs_a_saved_run(tmp_path, capsys, no_training):
    err = fail(["train", "--resume", "--out", str(tmp_path)], capsys)
    assert f"argument --resume: no run to resume in {tmp_path}" in err
    (tmp_path / "checkpoint.safetensors").write_bytes(b"\x80garbage")
    err = fail(["train", "--resume", "--out", str(tmp_path)], capsys)
    assert f"argument --resume: {tmp_path / 'checkpoint.safetensors'}: is not a dominion_env" in err


@pytest.mark.parametrize(
    "argv, says",
    [
        (
            ["--games", str(10**12)],
            f"argument --games: 1,000,000,000,000 is out of range; allowed: 1 to {MAX_GAMES:,}",
        ),
        (["--games", "0"], "argument --games: 0 is out of range"),
        (["--players", "3"], "argument --players: agent 'agent' plays 2-player games, got 3"),
        (["--players", "9"], "argument --players: 9 is out of range"),
        (["--seed", str(2**64)], "argument --seed: 18,446,744,073,709,551,616 is out of range"),
        (["--kingdom", "Nowhere"], "argument --kingdom: unknown kingdom 'Nowhere'"),
        (["--kingdom", "bots"], "argument --kingdom: 'random', a recommended set or 10 cards"),
        (["--opponent", "Nobody"], "argument --opponent: unknown opponent 'Nobody'"),
        (["--kingdom", "First Game"], "argument --opponent: 'strongest' plays random kingdoms"),
        (["--opponent", "nowhere.toml"], "'nowhere.toml': no strategy file 'nowhere.toml'"),
        (
            ["--opponent", "nowhere.toml", "--kingdom", "Underlings"],
            "argument --opponent: no strategy file 'nowhere.toml'",
        ),
        (["--opponent", "optimized:Nobody"], "strategy file 'optimized' has no bot 'Nobody'"),
    ],
)
def test_evaluate_arguments_are_checked_before_any_game(argv, says, saved_run, capsys, no_training):
    err = fail(["evaluate", str(saved_run / "agent.safetensors"), *argv], capsys)
    assert says in err


def test_evaluate_missing_agent(tmp_path, capsys, no_training):
    err = fail(["evaluate", str(tmp_path / "none.pt")], capsys)
    assert f"argument agent: no agent '{tmp_path / 'none.pt'}'" in err


def test_replay_of_a_binary_file_names_it(tmp_path, capsys):
    from dominion_env import records

    path = tmp_path / "garbage.bin"
    path.write_bytes(bytes(range(256)))
    err = fail(["replay", str(path)], capsys)
    assert f"error: '{path}' is not a game record: not UTF-8 text (byte 128" in err
    with pytest.raises(records.RecordError, match="garbage.bin' is not a game record"):
        records.load(path)


def test_ctrl_c_is_one_line_and_status_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(listings, "run_bots", interrupted)
    assert cli.main(["bots"]) == 130
    assert capsys.readouterr().err == "dominion: interrupted\n"


def test_ctrl_c_in_training_saves_the_run(tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from dominion_env.train.ppo import Trainer

    def learn(self):
        self.steps = 96
        raise KeyboardInterrupt

    monkeypatch.setattr(Trainer, "learn", learn)
    out = tmp_path / "run"
    argv = ["train", "--out", str(out), "--num-envs", "4", "--hidden", "8", "--bc-steps", "0"]
    assert cli.main([*argv, "--quiet", "--opponent", "Big Money"]) == 130
    err = capsys.readouterr().err
    assert err == (
        f"dominion train: interrupted after 96 learner steps; saved the run in {out} "
        "(continue it with --resume)\n"
    )
    assert sorted(p.name for p in out.iterdir()) == [
        "agent.safetensors",
        "checkpoint.safetensors",
        "curve.png",
        "progress.csv",
        "progress.json",
    ]


def test_sigterm_in_training_saves_the_run_as_ctrl_c_does(tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from dominion_env.train.ppo import Trainer

    def learn(self):
        self.steps = 64
        os.kill(os.getpid(), signal.SIGTERM)  # a job scheduler's stop, mid-PPO
        time.sleep(5)  # the handler raises before this ends
        raise AssertionError("SIGTERM did not stop the run")

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(Trainer, "learn", learn)
    out = tmp_path / "run"
    argv = ["train", "--out", str(out), "--num-envs", "4", "--hidden", "8", "--bc-steps", "0"]
    assert cli.main([*argv, "--quiet", "--opponent", "Big Money"]) == 143
    assert capsys.readouterr().err == (
        f"dominion train: terminated (SIGTERM) after 64 learner steps; saved the run in {out} "
        "(continue it with --resume)\n"
    )
    assert (out / "checkpoint.safetensors").is_file()
    assert signal.getsignal(signal.SIGTERM) is before  # the handler is put back


def test_a_closed_stdout_ends_quietly():
    """``dominion cards | head -1``: the reader goes away; no BrokenPipeError traceback."""
    p = subprocess.Popen(
        [sys.executable, "-m", "dominion_env.cli", "cards"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert p.stdout.readline().startswith(b"  0 Copper")
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait() in (0, 1)  # 0 if every line fit the pipe's buffer before it closed
    assert err == b""


def test_training_warns_of_nothing(tmp_path):
    """No torch 'NumPy array is not writable' warning (nor any other) in a short run."""
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    import warnings

    import numpy as np

    from dominion_env.engine.layout import NUM_ACTIONS
    from dominion_env.train.ppo import TrainConfig, train

    cfg = TrainConfig(steps=64, num_envs=8, rollout=8, hidden=(8,), bc_steps=64, out=str(tmp_path))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = train(cfg)
        # the network on read-only views, as a VecGame or a Game hands them out
        obs, mask = np.zeros((2, t.obs_dim), np.float32), np.ones((2, NUM_ACTIONS), bool)
        obs.flags.writeable = mask.flags.writeable = False
        actions = t.net.act(obs[None][0], mask[None][0])[0]
    assert t.steps == 64 and actions.shape == (2,)


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "Big Money", "Smithy", "--games", "2"],
        ["tournament", "Big Money", "Smithy", "--games", "2"],
        ["evaluate", "ppo-pool", "--games", "2"],
    ],
)
def test_ray_without_ray_is_a_usage_error(argv, monkeypatch, capsys):
    """--ray on a machine without Ray exits 2 with one line naming --ray and the install,
    before any game is played (it was status 1 from deep in the run)."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ray" else find_spec(name, *a)
    )
    with pytest.raises(SystemExit) as e:
        cli.main([*argv, "--ray"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "argument --ray: Ray is not installed: pip install 'dominion-env[ray]'" in err
