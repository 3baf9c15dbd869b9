"""Strategy files as training and evaluation opponents: per kingdom, the file's first bot whose
cards are all in it, else the strongest library bot (``seats.KingdomExperts``); the shipped
``optimized`` file; every bad file refused before any work, naming the opponent and the file."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from dominion_env import VecGame  # noqa: E402
from dominion_env.agents import (  # noqa: E402
    BOT_FILES,
    BOTS,
    STRENGTH_ORDER,
    compile_bots,
    load_bot_file,
    strongest_bot_for,
)
from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.engine.kingdoms import RECOMMENDED  # noqa: E402
from dominion_env.train.evaluate import EVAL_SEED, GAMES_PER_KINGDOM, evaluate  # noqa: E402
from dominion_env.train.opponents import KingdomExperts, StrongestSeats  # noqa: E402
from dominion_env.train.policy import Agent, AgentInfo, PolicyNet  # noqa: E402
from dominion_env.train.ppo import TrainConfig, Trainer, check_config, train  # noqa: E402

# the module (the package's ``evaluate`` is the function)
evaluate_module = importlib.import_module("dominion_env.train.evaluate")

# The file's order is the preference. "Smithy" shares a library bot's name on purpose: the
# file's own bot must be the one that plays.
BOTS_TOML = """
[[bot]]
name = "Witch Cellar"
rules = [["Province", "money > 15"], ["Witch", "count('Witch') < 2"],
         ["Cellar", "count('Cellar') < 1"], "Gold", "Silver"]

[[bot]]
name = "Smithy"
rules = ["Province", "Gold", ["Smithy", "count('Smithy') < 1"], ["Village", "count('Village') < 1"],
         "Silver"]
"""


@pytest.fixture
def bots_file(tmp_path):
    path = tmp_path / "bots.toml"
    path.write_text(BOTS_TOML)
    return path


@pytest.mark.parametrize(
    "kingdom, expected",
    [
        ("Underlings", 0),  # Witch and Cellar: the file's first bot
        ("First Game", 1),  # Smithy and Village, no Witch: the file's second
        ("Victory Dance", "Costume Party"),  # neither fits: the strongest library bot
        ("Hand Madness", "Torturer"),
    ],
)
def test_the_files_first_fitting_bot_plays_each_kingdom(bots_file, kingdom, expected):
    file_bots = load_bot_file(str(bots_file))
    experts = KingdomExperts(2, file_bots)
    want = expected if isinstance(expected, int) else 2 + STRENGTH_ORDER.index(expected)
    assert experts.bot_id(list(RECOMMENDED[kingdom])) == want
    if isinstance(expected, int):
        assert experts.bot(want) is file_bots[expected]
    else:
        assert experts.bot(want) is BOTS[expected]
    # read from each row's observation (its Supply), as the training seats do
    vec = VecGame(8, 2, kingdom, opponents=compile_bots("Big Money"), scale_observations=True)
    vec.reset(seed=3)
    np.testing.assert_array_equal(experts.ids(vec.observation), np.full(8, want))


def test_a_files_bot_named_like_a_library_bot_is_the_files(bots_file):
    file_bots = load_bot_file(str(bots_file))
    bot = strongest_bot_for(RECOMMENDED["First Game"], file_bots)
    assert bot is file_bots[1] and bot.name == "Smithy" and bot is not BOTS["Smithy"]
    assert bot.kingdom_cards() == ["Smithy", "Village"]
    assert strongest_bot_for(RECOMMENDED["First Game"]) is BOTS["Smithy"]  # no file: library


def test_the_shipped_optimized_file():
    """Every bot is the optimizer's, with its judged figure in a comment above it."""
    path = BOT_FILES["optimized"]
    bots = load_bot_file("optimized")
    text = path.read_text()
    assert len(bots) == text.count("[[bot]]") == text.count("(its strongest library bot)")
    assert len(bots) == N_OPTIMIZED
    assert all(b.source.startswith("dominion optimize: kingdom ") for b in bots)
    # each bot fits the kingdom it was found on (its source names it)
    for b in bots:
        kingdom = b.source.split("kingdom ")[1].split(";")[0].split(", ")
        assert set(b.kingdom_cards()) <= set(kingdom)


N_OPTIMIZED = 16  # of the 20 kingdoms bench/make_optimized_bots.py searched


def _tiny_agent():
    torch.manual_seed(0)
    from dominion_env.engine.observation import obs_size

    return Agent(PolicyNet(obs_size(2), (16,)), AgentInfo(name="tiny", players=2, hidden=(16,)))


def test_training_against_a_strategy_file_smoke(bots_file, tmp_path):
    name = str(bots_file)
    cfg = TrainConfig(
        steps=1024,
        num_envs=32,
        rollout=16,
        epochs=1,
        minibatch=256,
        hidden=(16,),
        bc_steps=0,
        opponents={name: 1, "Big Money": 1, "optimized": 1},
        log_every=512,
        out=str(tmp_path / "run"),
    )
    t = train(cfg)
    assert t.steps >= 1024
    groups = {g.label: g for g in t.groups if isinstance(g, StrongestSeats)}
    assert [b.name for b in groups[name].experts.bots] == ["Witch Cellar", "Smithy"]
    assert groups["optimized"].experts.bots == load_bot_file("optimized")
    rows = [h for h in t.history if "steps" in h]
    assert f"win_rate[{name}]" in rows[-1] and "win_rate[optimized]" in rows[-1]


def test_evaluate_against_a_strategy_file(tmp_path):
    """A bot that names no kingdom card fits every kingdom: it plays every game."""
    path = tmp_path / "money.toml"
    path.write_text('[[bot]]\nname = "My Money"\nrules = ["Province", "Gold", "Silver"]\n')
    (row,) = evaluate(_tiny_agent(), [str(path)], games=3 * GAMES_PER_KINGDOM, seed=EVAL_SEED)
    assert row["opponent"] == str(path) and row["games"] == 30
    assert row["kingdoms_per_bot"] == {"My Money": 3}
    with pytest.raises(ValueError, match="plays random kingdoms"):
        evaluate(_tiny_agent(), [str(path)], games=10, kingdom="First Game")


def test_strongest_chunks_are_mixed_batches_of_the_games_each_kingdom_deals(bots_file, monkeypatch):
    """With a strategy file, a chunk of ``batch`` games is one VecGame whose rows carry their
    kingdom, bot and deal: each game is the one a batch of its kingdom's alone plays (its
    results, margins, lengths and buys), the file's bot and the library's in one table."""
    made = []

    class Counted(VecGame):
        def __init__(self, *args, **kwargs):
            made.append(args[0])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(evaluate_module, "VecGame", Counted)
    agent, name, seed, games = _tiny_agent(), str(bots_file), 156, 35
    file_bots = load_bot_file(name)
    kingdoms = [evaluate_module.random_kingdom(seed + k) for k in range(4)]
    bots = [strongest_bot_for(cards, file_bots) for cards in kingdoms]
    # the file's Smithy and the library's: two bots of one name, each its own id
    assert bots[0] is file_bots[1] and bots[3] is BOTS["Smithy"]
    pieces = evaluate_module.kingdom_pieces(kingdoms, bots, seed + np.arange(4), games, 13, 0)
    assert [len(p.seeds) for p in pieces] == [13, 13, 9]
    assert pieces[0].table.kind.shape[0] == 4
    play = dict(agent=agent, players=2, turn_limit=100)
    got = [evaluate_module._play_piece(p, **play) for p in pieces]
    want = []  # the games as they were played before: a batch per kingdom
    for k, (cards, bot) in enumerate(zip(kingdoms, bots, strict=True)):
        n = min(GAMES_PER_KINGDOM, games - k * GAMES_PER_KINGDOM)
        seeds, numbers = np.full(n, seed + k), np.arange(n)
        piece = evaluate_module.Piece(compile_bots(bot), None, cards, None, seeds, numbers, 0)
        want.append(evaluate_module._play_piece(piece, **play))
    assert made == [13, 13, 9, 10, 10, 10, 5]
    for i in range(4):
        np.testing.assert_array_equal(
            np.concatenate([p[i] for p in got]), np.concatenate([p[i] for p in want])
        )
    np.testing.assert_array_equal(sum(p[4] for p in got), sum(p[4] for p in want))
    made.clear()
    (row,) = evaluate(agent, [name], games=games, seed=seed, batch=13)
    assert made == [13, 13, 9] and row["games"] == games


BAD_FILES = [
    # (file text or None: no file, what the error says)
    (None, "no strategy file"),
    ("[[bot]\nname = 'x'\n", "not valid TOML"),
    ('title = "no bots"\n', "expected one or more \\[\\[bot\\]\\] tables"),
    ("[[bot]]\nname = 'A'\nrules = [['Smithy', \"count('Smithy') <\"]]\n", "bot 'A', rule 1"),
    ("[[bot]]\nname = 'A'\nrules = ['Smithy', 'No Such Card']\n", "No Such Card"),
    ("[[bot]]\nname = 'A'\nrules = [['Smithy', \"__import__('os').system('x')\"]]\n", "bot 'A'"),
    (
        "[[bot]]\nname = 'Eleven'\nrules = ['Cellar', 'Chapel', 'Moat', 'Village', 'Workshop', "
        "'Smithy', 'Militia', 'Moneylender', 'Remodel', 'Witch', 'Market']\n",
        "names 11 kingdom cards .* could never play",
    ),
    (b"\xff\xfe\x00", "not a text file"),
]


@pytest.mark.parametrize("text, message", BAD_FILES)
def test_a_bad_strategy_file_is_refused_before_any_work(tmp_path, monkeypatch, text, message):
    path = tmp_path / "bad.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text)
    name = str(path)

    def boom(*a, **k):
        raise AssertionError("games were built before the settings were checked")

    monkeypatch.setattr(StrongestSeats, "__init__", boom)
    with pytest.raises(ValueError, match=f"opponent '{re.escape(name)}'.*{message}"):
        check_config(TrainConfig(opponents={name: 1}, num_envs=8))
    with pytest.raises(ValueError, match=f"opponent '{re.escape(name)}'.*{message}"):
        Trainer(TrainConfig(opponents={name: 1}, num_envs=8))
    with pytest.raises(ValueError, match=f"opponent '{re.escape(name)}'.*{message}"):
        evaluate(_tiny_agent(), [name], games=10)


def test_a_folder_or_an_impossible_name_is_no_strategy_file(tmp_path):
    (tmp_path / "dir.toml").mkdir()
    with pytest.raises(ValueError, match="dir.toml' is a directory$"):
        load_bot_file(str(tmp_path / "dir.toml"))
    with pytest.raises(ValueError, match="cannot read 'aaa.*': File name too long"):
        load_bot_file("a" * 5000 + ".toml")
    with pytest.raises(ValueError, match="no strategy file"):
        load_bot_file("\x00.toml")


@pytest.mark.parametrize("command", ["train", "evaluate"])
def test_the_cli_refuses_a_bad_strategy_file_in_one_line(tmp_path, capsys, command):
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "no bots"\n')
    if command == "train":
        argv = ["train", "--opponent", f"{bad}:2", "--out", str(tmp_path / "run")]
    else:
        argv = ["evaluate", "ppo-pool", "--opponent", str(bad)]
    with pytest.raises(SystemExit) as e:
        cli(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert str(bad) in err and "[[bot]]" in err and "Traceback" not in err


def test_the_cli_takes_the_shipped_file_by_name(tmp_path, capsys):
    from dominion_env.cli import parse_args

    args = parse_args(
        ["evaluate", "ppo-pool", "--opponent", "optimized", "--kingdom", "First Game"]
    )
    (bot,) = args.opponents  # on a fixed kingdom: the file's bot for it, as in every command
    first_game = set(RECOMMENDED["First Game"])
    assert set(bot.kingdom_cards()) <= first_game
    assert bot.name == strongest_bot_for(first_game, load_bot_file("optimized")).name
    from dominion_env.commands.train_settings import opponent as _opponent

    class Args:
        class parser:
            @staticmethod
            def error(msg):
                raise AssertionError(msg)

    assert _opponent(Args, "optimized:0.5", 2) == ("optimized", 0.5)
    assert _opponent(Args, "C:\\bots.toml", 2) == ("C:\\bots.toml", 1.0)


# -- one rule in every command that takes bots: FILE.toml:BOT, or FILE.toml on a fixed kingdom


def test_every_command_that_takes_bots_takes_a_files_bot_the_same_way(bots_file, capsys):
    from dominion_env.cli import parse_args

    named = f"{bots_file}:witch cellar"  # a bot of the file by its name, ignoring case
    args = parse_args(["simulate", named, "Big Money", "--games", "10"])
    assert [p.name for p in args.players_resolved] == ["Witch Cellar", "Big Money"]
    args = parse_args(["simulate", str(bots_file), "Big Money", "--kingdom", "First Game"])
    assert args.players_resolved[0].name == "Smithy"  # the file's first bot that fits it
    assert args.players_resolved[0] is not BOTS["Smithy"]
    args = parse_args(["tournament", named, "Big Money", "--games", "10", "--out", ""])
    assert [p.name for p in args.players_resolved] == ["Witch Cellar", "Big Money"]
    args = parse_args(["play", "--opponent", named, "--record", ""])
    assert [o.name for o in args.opponents] == ["Witch Cellar"]
    args = parse_args(["evaluate", "ppo-pool", "--opponent", named, "--games", "10"])
    assert [o.name for o in args.opponents] == ["Witch Cellar"]
    from dominion_env.train.scorecard import resolve

    assert resolve(named).name == "Witch Cellar"


@pytest.mark.parametrize(
    "argv, said",
    [
        (["simulate", "{f}", "Big Money"], "holds 2 bots, one per kingdom: give a kingdom of 10"),
        (["simulate", "{f}:Gold Line", "Big Money"], "has no bot 'Gold Line'; it has"),
        (["play", "--opponent", "{f}", "--record", ""], "holds 2 bots, one per kingdom"),
        (["tournament", "{f}:nobody", "Big Money", "--out", ""], "has no bot 'nobody'"),
    ],
)
def test_a_file_reference_that_names_no_bot_is_one_error_line(bots_file, capsys, argv, said):
    with pytest.raises(SystemExit) as e:
        cli([a.replace("{f}", str(bots_file)) for a in argv])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert said in err.strip().splitlines()[-1]


# -- dominion train --opponent FILE.toml:BOT: one bot of the file, in the weighted pool


class _Args:
    class parser:
        @staticmethod
        def error(msg):
            raise SystemExit(msg)


@pytest.mark.parametrize(
    "spec, want",
    [
        ("{f}", ("{f}", 1.0)),  # the file: per kingdom, its first bot that fits
        ("{f}:2", ("{f}", 2.0)),  # a number after ':' is the file's weight
        ("{f}:smithy", ("{f}:Smithy", 1.0)),  # a bot of the file, by its own name
        ("{f}:Witch Cellar:0.5", ("{f}:Witch Cellar", 0.5)),
        ("optimized:0.5", ("optimized", 0.5)),
    ],
)
def test_a_train_opponent_names_a_file_or_one_of_its_bots_with_a_weight(bots_file, spec, want):
    from dominion_env.commands.train_settings import opponent as _opponent

    f = str(bots_file)
    assert _opponent(_Args, spec.replace("{f}", f), 2) == (want[0].replace("{f}", f), want[1])


def test_training_against_one_bot_of_a_file(bots_file, tmp_path):
    """The file's Smithy (not the library's of the same name) plays in the pool of bots beside
    Big Money, its games labelled FILE.toml:Smithy; imitation plays the same pool."""
    from dominion_env.train.opponents import BotSeats

    name = f"{bots_file}:Smithy"
    cfg = TrainConfig(
        steps=1024,
        num_envs=32,
        rollout=16,
        epochs=1,
        minibatch=256,
        hidden=(16,),
        bc_steps=256,
        opponents={name: 1, "Big Money": 1},
        log_every=512,
        out=str(tmp_path / "run"),
    )
    t = train(cfg)
    (group,) = t.groups
    assert isinstance(group, BotSeats) and group.labels == [name, "Big Money"]
    file_smithy = load_bot_file(str(bots_file))[1]
    want = compile_bots([file_smithy, "Big Money"]).rules
    np.testing.assert_array_equal(group.vec.opponents.bot_rules, want)
    assert not np.array_equal(compile_bots("Smithy").rules[0], want[0])  # the library's differs
    rows = [h for h in t.history if "steps" in h]
    assert f"win_rate[{name}]" in rows[-1] and "win_rate[Big Money]" in rows[-1]
    assert f"win_rate[{bots_file}]" not in rows[-1]


def test_a_file_bot_opponent_saves_resumes_and_reloads(bots_file, tmp_path, capsys):
    from dominion_env.train.ppo import read_checkpoint

    out = tmp_path / "run"
    base = ["--num-envs", "16", "--bc-steps", "0", "--hidden", "8", "--eval-games", "0"]
    opponent = ["--opponent", f"{bots_file}:witch cellar:2", "--opponent", "Big Money"]
    assert cli(["train", *opponent, "--steps", "64", *base, "--out", str(out), "--quiet"]) == 0
    saved = {f"{bots_file}:Witch Cellar": 2.0, "Big Money": 1.0}
    assert read_checkpoint(out / "checkpoint.safetensors")["config"].opponents == saved
    argv = ["train", "--resume", "--steps", "128", "--eval-games", "0", "--out", str(out)]
    assert cli([*argv, *opponent, "--quiet"]) == 0  # the same opponents, given again
    ckpt = read_checkpoint(out / "checkpoint.safetensors")
    assert ckpt["config"].opponents == saved and ckpt["steps"] >= 128
    # the strategy file is the one the run was given, re-read on resume: a bot gone from it
    # is refused naming the opponent and the bots the file has now
    bots_file.write_text(BOTS_TOML.replace('"Witch Cellar"', '"Witch Chapel"'))
    with pytest.raises(ValueError, match=r"has no bot 'Witch Cellar'; it has 'Witch Chapel'"):
        read_checkpoint(out / "checkpoint.safetensors")


@pytest.mark.parametrize(
    "spec, said",
    [
        ("{f}:Nobody", "strategy file '{f}' has no bot 'Nobody'; it has 'Witch Cellar', 'Smithy'"),
        ("{f}:Nobody:2", "strategy file '{f}' has no bot 'Nobody'; it has 'Witch Cellar'"),
        ("{f}:Smithy:0", "the weight must be a finite number"),
        ("{f}:Smithy:nan", "the weight must be a finite number"),
        ("{d}/missing.toml:Smithy", "no strategy file '{d}/missing.toml' (not a file)"),
    ],
)
def test_the_cli_refuses_a_bad_file_bot_opponent_in_one_line(bots_file, capsys, spec, said):
    f, d = str(bots_file), str(bots_file.parent)
    argv = ["train", "--opponent", spec.format(f=f, d=d), "--out", f"{d}/run"]
    with pytest.raises(SystemExit) as e:
        cli(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert said.format(f=f, d=d) in err.strip().splitlines()[-1]
    assert not (bots_file.parent / "run").exists()


def test_a_files_bot_is_named_once(bots_file, capsys):
    argv = ["train", "--opponent", f"{bots_file}:Smithy", "--opponent", f"{bots_file}:SMITHY:2"]
    with pytest.raises(SystemExit) as e:
        cli([*argv, "--out", str(bots_file.parent / "run")])
    assert e.value.code == 2
    assert f"'{bots_file}:Smithy' is named twice" in capsys.readouterr().err


def test_a_config_naming_a_bot_the_file_lacks_is_refused_before_any_work(bots_file, tmp_path):
    name = f"{bots_file}:Nobody"
    with pytest.raises(ValueError, match=rf"opponent '{re.escape(name)}': .* has no bot 'Nobody'"):
        Trainer(TrainConfig(opponents={name: 1, "Big Money": 1}, num_envs=8))
