"""``dominion optimize`` and ``analysis.optimize``: the same seed gives the same bot and figures
(here and on Ray), a short run gives a valid bot that plays legal games and reads back from its
TOML, the bot in words, and every argument checked before a game is played."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from dominion_env import cli
from dominion_env.agents import BOTS, Bot, bots_from_toml, compile_bots, load_bots
from dominion_env.agents.language import parse
from dominion_env.analysis import optimize as opt
from dominion_env.analysis.arena import play_games, record_games, summarize
from dominion_env.analysis.optimize import describe, mutate, optimize
from dominion_env.commands import optimize as optimize_command
from dominion_env.engine.kingdoms import RECOMMENDED

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

KINGDOM = "First Game"
SMALL = dict(minutes=None, generations=2, population=6, games=4, judge_games=40)


def figures(res):
    return (
        res.best.to_toml(),
        res.record,
        res.history,
        res.generations,
        res.games,
        res.kingdom,
        res.strongest,
    )


@pytest.fixture(scope="module")
def run():
    return optimize(KINGDOM, 2, seed=7, **SMALL)


def test_same_seed_same_bot_and_figures(run):
    again = optimize(KINGDOM, 2, seed=7, **SMALL)
    assert figures(again) == figures(run)
    assert run.generations == 2 and [h["generation"] for h in run.history] == [0, 1]
    # the first population: every library bot of the kingdom and a template per kingdom card
    fits = opt.library_bots_for(RECOMMENDED[KINGDOM])
    assert [b.name for b in fits] == [
        "Smithy",
        "Big Smithy",
        "Militia",
        "Double Militia",
        "Moat",
        "Big Money Ultimate",
        "Big Money",
    ]
    # against the strongest library bot, then also the leader of generation 0; the strongest
    # library bot (the anchor every score is measured from) plays in every generation
    assert run.history[0]["games"] == (len(fits) + 10) * 1 * 4
    assert run.history[1]["games"] == (SMALL["population"] + 1) * (1 + 1) * 4
    assert run.history[0]["best_advantage"] == 0.5 and run.history[1]["best_advantage"] == 0.25
    assert [r["bot"] for r in run.record] == [b.name for b in fits]
    assert all(r["games"] == 40 for r in run.record)
    assert run.strongest == "Smithy" and run.against_strongest() is run.record[0]


def test_another_seed_searches_other_games(run):
    other = optimize(KINGDOM, 2, seed=6, **SMALL)
    assert other.history != run.history and other.record != run.record


def test_best_bot_reads_back_and_plays_legal_games(run, tmp_path):
    best = run.best
    assert best.name == "Optimized"
    assert best.source.startswith("dominion optimize: kingdom Cellar, Market")
    assert set(best.kingdom_cards()) <= set(RECOMMENDED[KINGDOM])
    (back,) = bots_from_toml(tomllib.loads(run.to_toml()))
    assert back == best
    path = tmp_path / "best.toml"
    path.write_text(run.to_toml())
    assert load_bots(path) == [best]
    # Game checks every action against the mask: the re-played records are legal games
    table = compile_bots([best, BOTS["Smithy"]])
    res = play_games(table, 6, 2, list(RECOMMENDED[KINGDOM]), seed=1)
    recs = record_games(
        table, ["Optimized", "Smithy"], res, range(6), 2, list(RECOMMENDED[KINGDOM]), seed=1
    )
    assert len(recs) == 6 and (res.status == 1).all()


def test_three_players_and_a_random_kingdom():
    res = optimize("random", 3, seed=2, minutes=None, generations=1, population=4, games=3,
                   judge_games=9)  # fmt: skip
    assert res.players == 3 and len(res.kingdom) == 10
    assert res.kingdom == tuple(opt.random_kingdom(2))
    assert res.history[0]["games"] % 3 == 0
    assert all(r["games"] == 9 for r in res.record)


def test_mutants_are_valid_and_drawn_from_the_seed():
    cards = list(opt.BASICS) + list(RECOMMENDED[KINGDOM])
    seeds = opt.templates_for(RECOMMENDED[KINGDOM])

    def family(s):
        rng = np.random.default_rng(s)
        return [mutate(seeds[i % 10], rng, cards, f"m{i}") for i in range(40)]

    a, b = family(1), family(1)
    assert [x.to_toml() for x in a] == [x.to_toml() for x in b]
    assert sum(x.parsed["rules"] != seeds[i % 10].parsed["rules"] for i, x in enumerate(a)) >= 30
    for x in a:
        assert isinstance(x, Bot) and 1 <= len(x.rules) <= opt.MAX_GAIN_RULES
        assert any(r.target == "Province" for r in x.parsed["rules"])
        assert set(x.kingdom_cards()) <= set(RECOMMENDED[KINGDOM])


def test_mutants_change_play_rules_and_guard_the_last_province():
    cards = list(opt.BASICS) + ["Minion", "Chapel"]
    parent = BOTS["Minion/Chapel"]
    rng = np.random.default_rng(3)
    kids = [mutate(parent, rng, cards, f"m{i}") for i in range(60)]
    plays = [k for k in kids if any(k.parsed[s] != parent.parsed[s] for s in opt.RULE_SECTIONS[1:])]
    assert len(plays) >= 5
    for k in plays:  # what changed is a threshold: the same rules, the same targets
        for s in opt.RULE_SECTIONS[1:]:
            assert [r.target for r in k.parsed[s]] == [r.target for r in parent.parsed[s]]
        (back,) = bots_from_toml(tomllib.loads(k.to_toml()))
        assert back == k
    # the endgame guards, each ahead of the first Province rule
    money = opt.templates_for(RECOMMENDED[KINGDOM])[0]
    kids = [mutate(money, rng, cards, f"m{i}") for i in range(60)]
    for guard in opt.GUARDS:
        guarded = [k.parsed["rules"] for k in kids if guard in k.parsed["rules"]]
        assert guarded and all(r[r.index(guard) + 1].target == "Province" for r in guarded)


def test_a_guard_is_added_once():
    (ppr, suicide) = opt.GUARDS
    rules = opt.templates_for(RECOMMENDED[KINGDOM])[0].parsed["rules"]
    once = opt._with_guard(rules, ppr)
    assert once == [ppr] + rules
    assert opt._with_guard(once, ppr) is None
    assert opt._with_guard(once, suicide) == [ppr, suicide] + rules
    assert opt._with_guard([opt.Rule("Gold")], ppr) is None  # no Province to guard


def test_scores_use_common_random_numbers(monkeypatch):
    kingdom = list(RECOMMENDED[KINGDOM])
    twin = Bot("twin", BOTS["Smithy"].rules, source="a copy")
    bots = [BOTS["Smithy"], twin, BOTS["Big Money Ultimate"]]
    res, n = opt.score(bots, [BOTS["Militia"], BOTS["Smithy"]], kingdom, 2, 50, seed=9)
    assert res.shape == (3, 2, 50) and n == 3 * 2 * 50
    assert set(np.unique(res)) <= {0.0, 0.5, 1.0}
    # the same bot under another name plays the very same games; another bot does not
    assert (res[0] == res[1]).all() and (res[0] != res[2]).any()
    # a bot's games against an opponent do not depend on the other bots scored beside it
    alone, _ = opt.score([bots[2]], [BOTS["Militia"], BOTS["Smithy"]], kingdom, 2, 50, seed=9)
    assert (alone[0] == res[2]).all()
    # every bot's games in one run, cut in pieces of CHUNK games across bots: the same results
    sizes = []

    def counted(play, pieces):
        for piece in pieces:
            sizes.append(len(piece[0]))
            yield play(piece)

    monkeypatch.setattr(opt, "CHUNK", 64)
    cut, _ = opt.score(bots, [BOTS["Militia"], BOTS["Smithy"]], kingdom, 2, 50, seed=9, map=counted)
    assert sizes == [64] * 4 + [44] and (cut == res).all()


def test_judge_plays_every_opponent_in_one_run_each_its_own_games(monkeypatch):
    """One ``play_games`` run over every opponent; opponent i's games are the very games of
    its own run (seeded ``_run_seed(seed, _JUDGE, i)``), seats rotated at 3 players."""
    kingdom = list(RECOMMENDED[KINGDOM])
    bot, opponents = BOTS["Smithy"], [BOTS["Militia"], BOTS["Big Money"], BOTS["Moat"]]
    runs = []

    def counted(table, n, *args, **kwargs):
        runs.append(n)
        return play_games(table, n, *args, **kwargs)

    monkeypatch.setattr(opt, "play_games", counted)
    rows = opt.judge(bot, opponents, kingdom, 3, 25, seed=4)
    assert runs == [75]
    k = np.arange(25)
    seat_bot = np.ones((25, 3), np.int64)
    seat_bot[k, k % 3] = 0
    for i, o in enumerate(opponents):
        alone = play_games(
            compile_bots([bot, o]), 25, 3, kingdom, seed=opt._run_seed(4, opt._JUDGE, i),
            seat_bot=seat_bot,
        )  # fmt: skip
        assert rows[i] == {**summarize(alone, [bot.name])[0], "bot": o.name}
    assert opt.judge(bot, [], kingdom) == []


def test_nothing_better_gives_back_the_library_bot(monkeypatch):
    # a search whose only other bot is Big Money: the playoff keeps Smithy, renamed
    monkeypatch.setattr(opt, "library_bots_for", lambda k: [BOTS["Smithy"], BOTS["Big Money"]])
    monkeypatch.setattr(opt, "templates_for", lambda k: [])
    monkeypatch.setattr(opt, "mutate", lambda bot, rng, cards, name: BOTS["Big Money"])
    res = optimize(KINGDOM, 2, seed=1, **SMALL)
    assert opt._key(res.best) == opt._key(BOTS["Smithy"]) and res.best.name == "Optimized"
    assert [r["bot"] for r in res.record] == ["Smithy", "Big Money"]


def test_rename_follows_the_card():
    tree = parse('count("Smithy") < 2 and pile("Province") <= 4')
    assert opt._rename(tree, "Smithy", "Witch") == parse(
        'count("Witch") < 2 and pile("Province") <= 4'
    )


def test_describe_in_words():
    bot = Bot(
        "w",
        [
            ("Province", "money > 18"),
            ("Duchy", 'pile("Province") <= 4'),
            ("Estate", "gains_to_end <= 2"),
            "Gold",
            ("Witch", 'count("Witch") < 2'),
            ("Smithy", 'count("Smithy") < treasure_cards / 11'),
            ("Silver", 'count("Gold") < 2'),
            ("Militia", 'count("Militia") < 0'),
            ("Duke", 'pile("Duchy") == 0'),
            ("Gold", 'count("Gold") > 2'),
            ("Estate", "gains_to_end <= 1"),
            ("Duchy", 'pile("Province") <= -1'),
            "Silver",
        ],
    )
    assert describe(bot) == "\n".join(
        [
            "buys Province at $8+ once its Treasures total more than $18",
            "buys Duchy at $5+ when 4 or fewer are left in the Province pile",
            "buys Estate at $2+ when the game can end within 2 gains",
            "buys Gold at $6+",
            "buys Witch at $5+ until it has 2",
            'buys Smithy at $4+ when count("Smithy") < treasure_cards / 11',
            "buys Silver at $3+ while it has < 2 Gold",
            'buys Militia at $4+ never (count("Militia") < 0)',
            "buys Duke at $5+ once the Duchy pile is empty",
            "buys Gold at $6+ once it has more than 2 Gold",
            "buys Estate at $2+ when the game can end within 1 gain",
            'buys Duchy at $5+ never (pile("Province") <= -1)',
            "buys Silver at $3+",
        ]
    )


def test_games_for_the_budget():
    assert [opt.games_for(m) for m in (0.1, 0.33, 2, 10, 10_000)] == [8, 14, 34, 76, 400]


# --- Ray ---------------------------------------------------------------------------------


def test_ray_gives_the_local_result(run):
    ray = pytest.importorskip("ray", reason="Ray is the optional 'ray' extra")
    from dominion_env.analysis.executor import RayMap

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        there = optimize(KINGDOM, 2, seed=7, **SMALL, map=RayMap())
    finally:
        ray.shutdown()
    assert figures(there) == figures(run)


# --- bad arguments -----------------------------------------------------------------------


@pytest.fixture
def no_games(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("a game was played before the arguments were checked")

    monkeypatch.setattr(opt, "play_games", boom)


@pytest.mark.parametrize(
    "kwargs, kind, words",
    [
        (dict(kingdom="Nope"), ValueError, "unknown kingdom 'Nope'"),
        (dict(kingdom=["Smithy"]), ValueError, "a kingdom has 10 cards"),
        (dict(kingdom=5), TypeError, "kingdom must be"),
        (dict(players=1), ValueError, "players"),
        (dict(players=2.0), TypeError, "players"),
        (dict(minutes=-1), ValueError, "minutes must be a finite number >= 0.0, got -1"),
        (dict(minutes=0), ValueError, "minutes must be a finite number > 0 (or None), got 0"),
        (dict(minutes="2"), TypeError, "minutes must be a number"),
        (
            dict(minutes=None, generations=None),
            ValueError,
            "give minutes (a time budget) or generations",
        ),
        (dict(generations=0), ValueError, "generations must be an int 1..1000000, got 0"),
        (dict(generations=2.5), TypeError, "generations must be an int"),
        (dict(population=1), ValueError, "population must be an int 2..1024, got 1"),
        (dict(games=0), ValueError, "games must be an int 1..100000 (per bot and opponent)"),
        (dict(judge_games=0), ValueError, "judge_games must be an int 1..100000, got 0"),
        (dict(seed=-1), ValueError, "seed must be an int 0..2**63-1, got -1"),
        (dict(leaders=-1), ValueError, "leaders must be an int 0..1024, got -1"),
        (dict(library=0), ValueError, "library must be an int"),
        (dict(turn_limit=0), ValueError, "turn_limit must be an int 1..100000, got 0"),
        (dict(name=" "), ValueError, "name (the best bot's) must be a non-empty string"),
        (dict(map=3), TypeError, "map must be callable, got 3"),
        (dict(progress="x"), TypeError, "progress must be callable, got 'x'"),
    ],
)
def test_bad_arguments_are_refused_first(no_games, kwargs, kind, words):
    args = dict(kingdom=KINGDOM, generations=1)
    args.update(kwargs)
    with pytest.raises(kind) as e:
        optimize(**args)
    assert words in str(e.value)


# --- the command line --------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--kingdom", "Nope"], "argument --kingdom: unknown kingdom 'Nope'"),
        (["Smithy, Village"], "argument --kingdom: a kingdom has 10 cards"),
        (["random", "--kingdom", "random"], "argument --kingdom: given twice"),
        (["random", "--minutes", "0"], "argument --minutes: '0' is not a number of minutes"),
        (["random", "--minutes", "nan"], "argument --minutes: 'nan' is not a number"),
        (["random", "--minutes", "1e9"], "at most 10,080"),
        (["random", "--generations", "0"], "argument --generations: 0 is out of range"),
        (["random", "--players", "7"], "argument --players: 7 is out of range"),
        (["random", "--seed", "-1"], "argument --seed: -1 is out of range"),
        (["random", "--judge-games", "x"], "argument --judge-games: 'x' is not a whole number"),
        (["random", "--out", "best.json"], "argument --out: 'best.json' must end in .toml"),
        (["random", "--against", "Big Money"], "argument --against: 'Big Money' is not a trained"),
        (["random", "--against", "nobody"], "argument --against: unknown bot 'nobody'"),
        (["random", "--against", "ppo-3p"], "argument --against: agent 'ppo-3p' plays 3-player"),
    ],
)
def test_cli_errors_exit_2_in_one_line(argv, words, capsys, monkeypatch):
    monkeypatch.setattr(optimize_command, "run_optimize", lambda *a, **k: pytest.fail("ran"))
    with pytest.raises(SystemExit) as e:
        cli.main(["optimize", *argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().split("\n")[-1]
    assert words in last and "Traceback" not in err


def test_cli_out_folder_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["optimize", "random", "--out", str(tmp_path)])
    assert e.value.code == 2
    assert "argument --out" in capsys.readouterr().err


def test_cli_run_writes_a_bot_the_tournament_reads(tmp_path, capsys):
    out = tmp_path / "sub" / "best.toml"
    argv = ["optimize", "--kingdom", KINGDOM, "--generations", "1", "--judge-games", "20"]
    argv.append("--quiet")
    assert cli.main([*argv, "--seed", "3", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "1 generations" in text and "Smithy (strongest)" in text
    (bot,) = load_bots(out)
    assert bot.name == "Optimized" and describe(bot) in text
    argv = ["tournament", "--bots-file", str(out), "Optimized", "Smithy", "--games", "10"]
    assert cli.main([*argv, "--kingdom", KINGDOM, "--quiet", "--out", ""]) == 0
    assert "Optimized" in capsys.readouterr().out


def test_describe_keeps_play_rules_as_written():
    bot = Bot("p", ["Gold"], play=["Village", ("Smithy", "actions > 0")])
    assert describe(bot) == "buys Gold at $6+\nplay: Village > Smithy if actions > 0"


def test_cli_run_against_an_agent_records_it(capsys):
    pytest.importorskip("torch", reason="a trained agent (the train extra)")
    argv = ["optimize", "--kingdom", KINGDOM, "--generations", "1", "--judge-games", "20"]
    assert cli.main([*argv, "--quiet", "--seed", "3", "--against", "ppo-pool"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("ppo-pool")]
    assert len(rows) == 1 and rows[0].split()[-1] == "20"
