"""dominion tournament: round robins, win-rate matrices, Bradley-Terry ratings, files, CLI."""

import csv
import itertools

import numpy as np
import pytest

from dominion_env.agents import BOTS, Bot
from dominion_env.analysis.report import TournamentResult
from dominion_env.analysis.tournament import (
    bradley_terry,
    bt_standard_errors,
    plan_tables,
    run_tournament,
    seat_cycle,
)
from dominion_env.cli import main

FOUR = ["Big Money", "Big Money Ultimate", "Smithy", "Random"]


@pytest.fixture(scope="module")
def four():
    return run_tournament(FOUR, games=200, seed=1)


# ---------------------------------------------------------------------------------------------
# Bradley-Terry
# ---------------------------------------------------------------------------------------------


def test_bradley_terry_recovers_exact_strengths():
    true = np.array([4.0, 2.0, 1.0, 0.5, 0.25])
    true /= np.exp(np.log(true).mean())
    n = 1000.0
    wins = n * true[:, None] / (true[:, None] + true[None, :])
    np.fill_diagonal(wins, 0)
    p, iters = bradley_terry(wins, prior=1e-9, tol=1e-13)
    assert iters > 1
    assert np.allclose(p, true, rtol=1e-6)
    assert np.isclose(np.exp(np.log(p).mean()), 1.0)


def test_bradley_terry_recovers_sampled_strengths():
    rng = np.random.default_rng(0)
    true = np.exp(rng.normal(0, 1, 8))
    true /= np.exp(np.log(true).mean())
    g = 5000
    wins = np.zeros((8, 8))
    for i, j in itertools.combinations(range(8), 2):
        k = rng.binomial(g, true[i] / (true[i] + true[j]))
        wins[i, j], wins[j, i] = k, g - k
    p, _ = bradley_terry(wins)
    se = bt_standard_errors(wins, p)
    err = np.log(p) - np.log(true)
    assert np.all(np.abs(err) < 4 * se)
    assert list(np.argsort(p)) == list(np.argsort(true))


def test_bradley_terry_unbeaten_and_absent_bots():
    wins = np.array([[0, 100, 0], [0, 0, 0], [0, 0, 0]], float)  # bot 2 never played
    p, _ = bradley_terry(wins)
    assert np.isfinite(p[:2]).all() and p[0] > 100 * p[1]
    assert np.isnan(p[2])
    with pytest.raises(ValueError, match="prior"):
        bradley_terry(wins, prior=0)


# ---------------------------------------------------------------------------------------------
# Planning
# ---------------------------------------------------------------------------------------------


def test_plan_tables_all_and_sampled():
    tables, sampled = plan_tables(7, 3)
    assert not sampled and tables == list(itertools.combinations(range(7), 3))
    a, sampled = plan_tables(16, 6, max_tables=50, seed=3)
    b, _ = plan_tables(16, 6, max_tables=50, seed=3)
    assert sampled and a == b and len(set(a)) == 50
    assert all(len(set(t)) == 6 and max(t) < 16 for t in a)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_seat_cycle_puts_every_bot_in_every_seat_equally(players):
    c = seat_cycle(players)
    for seat in range(players):
        assert np.bincount(c[:, seat], minlength=players).tolist() == [len(c) // players] * players
    assert all(sorted(row) == list(range(players)) for row in c)


# ---------------------------------------------------------------------------------------------
# Tournaments
# ---------------------------------------------------------------------------------------------


def test_matrix_is_consistent(four):
    r = four
    off = ~np.eye(4, dtype=bool)
    assert (r.games[off] == 200).all() and (np.diag(r.games) == 0).all()
    assert (r.ties == r.ties.T).all() and (r.games == r.games.T).all()
    assert (r.wins + r.ties + r.losses == r.games).all()
    s = r.score
    assert np.allclose((s + s.T)[off], 1.0)
    assert (r.seats == 600).all() and r.total_games == 6 * 200
    lo, hi = r.ci
    assert (lo[off] <= s[off]).all() and (s[off] <= hi[off]).all()
    rows = r.pair_rows()
    assert len(rows) == 12 and all(x["wins"] + x["ties"] + x["losses"] == x["games"] for x in rows)


def test_strong_beats_weak(four):
    assert four.win_rate("Big Money", "Random") >= 0.98
    assert four.interval("Big Money", "Random")[0] > 0.95
    assert four.names[four.order[-1]] == "Random"
    assert four.elo[four.index("Big Money")] > four.elo[four.index("Random")] + 400


def test_same_seed_same_results_and_pairs_independent_of_the_field(four):
    again = run_tournament(list(reversed(FOUR)), games=200, seed=1)
    for a, b in itertools.permutations(FOUR, 2):
        i, j, k, m = four.index(a), four.index(b), again.index(a), again.index(b)
        assert four.wins[i, j] == again.wins[k, m] and four.ties[i, j] == again.ties[k, m]
    pair = run_tournament(["Big Money Ultimate", "Big Money"], games=200, seed=1)
    assert (
        pair.wins[pair.index("Big Money"), pair.index("Big Money Ultimate")]
        == four.wins[four.index("Big Money"), four.index("Big Money Ultimate")]
    )
    other = run_tournament(FOUR, games=200, seed=2)
    assert not np.array_equal(other.wins, four.wins)


def test_three_players():
    r = run_tournament(FOUR, games=200, players=3, seed=0)
    assert r.games_per_table == 204  # a whole number of 6-seating cycles
    assert len(r.tables) == 4 and any("rounded up" in n for n in r.notes)
    off = ~np.eye(4, dtype=bool)
    assert (r.games[off] == 2 * 204).all()  # every pair shares 2 of the 4 tables
    assert (r.seats == 3 * 204).all()
    assert (r.wins + r.ties + r.losses == r.games).all()
    assert r.names[r.order[-1]] == "Random"
    # sole wins: at most one per game
    assert r.won.sum() <= r.total_games
    sampled = run_tournament(FOUR, games=6, players=3, max_tables=2, seed=0)
    assert sampled.sampled and len(sampled.tables) == 2


def test_tables_needing_too_many_cards_are_skipped_and_named():
    a = Bot("Six A", ["Village", "Smithy", "Market", "Festival", "Laboratory", "Moat"])
    b = Bot("Six B", ["Cellar", "Chapel", "Workshop", "Woodcutter", "Gardens", "Mine"])
    r = run_tournament([a, b, "Big Money"], games=20, seed=0)
    skipped = [t for t in r.tables if t.skipped]
    assert len(skipped) == 1 and set(skipped[0].bots) == {"Six A", "Six B"}
    assert "12 kingdom cards" in skipped[0].skipped
    assert any("Six A vs Six B" in n for n in r.notes)
    assert r.games[0, 1] == 0 and np.isnan(r.score[0, 1]) and r.games[0, 2] == 20
    assert np.isfinite(r.elo).all()


def test_fixed_kingdom_notes_missing_cards():
    r = run_tournament(["Smithy", "Big Money"], games=20, kingdom="Victory Dance")
    assert r.tables[0].kingdom == "Victory Dance"
    assert any("Smithy names cards not in the kingdom: Smithy" in n for n in r.notes)
    r = run_tournament(["Smithy", "Big Money"], games=20, kingdom="random")
    assert r.total_games == 20


def test_files_are_written_and_readable(four, tmp_path):
    paths = four.save(tmp_path / "out")
    with open(paths["winrates"]) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12
    assert list(rows[0]) == [
        "bot",
        "opponent",
        "games",
        "wins",
        "ties",
        "losses",
        "truncated",
        "win_rate",
        "win_ci_low",
        "win_ci_high",
    ]
    bm = next(x for x in rows if x["bot"] == "Big Money" and x["opponent"] == "Random")
    assert int(bm["games"]) == 200 and float(bm["win_rate"]) >= 0.98
    with open(paths["ratings"]) as f:
        ratings = list(csv.DictReader(f))
    assert [x["rank"] for x in ratings] == ["1", "2", "3", "4"] and ratings[-1]["bot"] == "Random"
    elo = [float(x["elo"]) for x in ratings]
    assert elo == sorted(elo, reverse=True) and abs(np.mean(elo) - 1500) < 0.01
    with open(paths["tables"]) as f:
        assert len(list(csv.DictReader(f))) == 6
    from matplotlib.image import imread

    img = imread(paths["heatmap"])
    assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 100


def test_report_text(four):
    text = four.report()
    assert "Random" in text and "elo" in text and "games/s" in text
    assert text.count("\n") > 10


# ---------------------------------------------------------------------------------------------
# Command line and bad input
# ---------------------------------------------------------------------------------------------


def test_cli_end_to_end(tmp_path, capsys):
    toml = tmp_path / "mine.toml"
    toml.write_text('[[bot]]\nname = "My Gold"\nrules = ["Province", "Gold", "Silver"]\n')
    out = tmp_path / "t"
    rc = main(
        [
            "tournament",
            "Big Money",
            "Random",
            "--bots-file",
            str(toml),
            "--games",
            "40",
            "--seed",
            "3",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert "My Gold" in text and "Big Money" in text and "games/s" in text
    for f in ("winrates.csv", "ratings.csv", "tables.csv", "heatmap.png"):
        assert (out / f).stat().st_size > 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["Big Money", "No Such Bot"], "unknown bot 'No Such Bot'"),
        (["Big Money"], "at least 2 bots"),
        (["Big Money", "Random", "--players", "7"], "2 to 6"),
        (["Big Money", "Random", "Smithy", "--players", "4"], "at least 4 bots"),
        (["Big Money", "Random", "--kingdom", "Nowhere"], "unknown kingdom"),
        ([], "no bots"),
    ],
)
def test_cli_bad_input(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["tournament", *argv, "--games", "10", "--out", str(tmp_path), "--quiet"])
    assert e.value.code == 2  # argparse's error: usage line, then the message
    assert message in capsys.readouterr().err


def test_api_bad_input():
    with pytest.raises(ValueError, match="unknown bot"):
        run_tournament(["Big Money", "Nope"], games=10)
    with pytest.raises(ValueError, match="at least 2 bots"):
        run_tournament(["Big Money"], games=10)
    with pytest.raises(ValueError, match="2 to 6"):
        run_tournament(FOUR, games=10, players=7)
    with pytest.raises(ValueError, match="games"):
        run_tournament(FOUR, games=0)
    with pytest.raises(ValueError, match="unique"):
        run_tournament(["Big Money", "Big Money"], games=10)


# ---------------------------------------------------------------------------------------------
# The heatmap
# ---------------------------------------------------------------------------------------------


def synthetic_result(n: int, seed: int = 0) -> TournamentResult:
    """A finished n-bot round robin with made-up counts (the library's bot names)."""
    rng = np.random.default_rng(seed)
    names = list(BOTS)[:n]
    games = np.full((n, n), 100) - 100 * np.eye(n, dtype=np.int64)
    wins = np.triu(rng.integers(0, 101, (n, n)), 1)
    wins = wins + np.triu(100 - wins, 1).T
    np.fill_diagonal(wins, 0)
    zero = np.zeros((n, n), np.int64)
    elo = 1500 + 100 * rng.standard_normal(n)
    return TournamentResult(
        names=names,
        players=2,
        games_per_table=100,
        seed=seed,
        turn_limit=100,
        kingdom=None,
        tables=[],
        games=games,
        wins=wins,
        ties=zero,
        truncated=zero,
        seats=games.sum(axis=1),
        won=wins.sum(axis=1),
        strength=10 ** ((elo - 1500) / 400),
        elo=elo,
        elo_pm=np.full(n, 20.0),
        bt_iterations=1,
        elapsed=1.0,
        total_games=int(games.sum() // 2),
    )


def test_heatmap_colour_bar_is_in_the_cells_units(four):
    fig = four.heatmap()
    ax, bar_ax = fig.axes
    image = ax.images[0]
    assert image.get_clim() == (0.0, 100.0)
    assert bar_ax.get_ylim() == (0.0, 100.0) and "%" in bar_ax.get_ylabel()
    # the cells are percent: the image's data and its annotations are 100 x the win rates
    order = four.order
    expected = 100 * four.score[np.ix_(order, order)]
    np.testing.assert_allclose(image.get_array().filled(np.nan), expected, equal_nan=True)
    cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t for t in ax.texts}
    assert len(cells) == 12  # every pair that met, none on the diagonal
    for (r, c), t in cells.items():
        assert t.get_text() == f"{expected[r, c]:.0f}"


def test_heatmap_of_the_whole_library_is_legible():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    n = len(BOTS)
    assert n >= 30
    res = synthetic_result(n)
    fig = res.heatmap()
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    assert not ax.texts  # too many cells for numbers: they are in matrix_text / winrates.csv
    renderer = fig.canvas.get_renderer()
    frame = fig.bbox
    for labels, axis in ((ax.get_xticklabels(), 0), (ax.get_yticklabels(), 1)):
        assert len(labels) == n
        assert all(t.get_fontsize() >= 7 for t in labels)
        boxes = [t.get_window_extent(renderer) for t in labels]
        # every label on the figure, none overlapping its neighbour (compared across the axis)
        for b in boxes:
            assert frame.x0 - 1 <= b.x0 and b.x1 <= frame.x1 + 1, labels
            assert frame.y0 - 1 <= b.y0 and b.y1 <= frame.y1 + 1, labels
        if axis == 1:
            centres = sorted((b.y0 + b.y1) / 2 for b in boxes)
            heights = max(b.height for b in boxes)
        else:  # rotated: neighbours are apart along x by at least the text's height
            centres = sorted(b.x1 for b in boxes)
            heights = labels[0].get_fontsize() * fig.dpi / 72
        assert min(np.diff(centres)) >= heights, "tick labels overlap"
    # a small field keeps its numbers
    assert len(synthetic_result(6).heatmap().axes[0].texts) == 30
