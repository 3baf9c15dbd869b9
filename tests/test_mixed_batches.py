"""Mixed batches: one VecGame (or one bot-game run) whose rows each carry their own kingdom,
their own opponent bots and their own deal (seed, game number). Each row must play the very
game a batch of its own would play, so merging batches changes speed, never results."""

import numpy as np
import pytest

from dominion_env import VecGame
from dominion_env.agents import compile_bots
from dominion_env.analysis.arena import play_games
from dominion_env.engine.layout import IN_SUPPLY

KINGDOMS = [
    "First Game",
    "random",
    [
        "Chapel",
        "Village",
        "Smithy",
        "Militia",
        "Market",
        "Moat",
        "Cellar",
        "Mine",
        "Witch",
        "Gardens",
    ],
    "First Game",
    "random",
    "Deconstruction",
]


def _rows(v, steps):
    """Observations, masks and rewards of ``steps`` random-action steps."""
    out = [v.observation.copy()], [v.action_mask.copy()], [], []
    for _ in range(steps):
        step = v.step(v.random_actions())
        out[0].append(step.observation.copy())
        out[1].append(step.action_mask.copy())
        out[2].append(step.rewards.copy())
        out[3].append(step.terminated | step.truncated)
    return [np.stack(x) for x in out]


def test_each_row_plays_the_game_its_own_batch_plays():
    n = len(KINGDOMS)
    seeds = np.array([5, 5, 7, 9, 11, 13])
    numbers = np.array([0, 3, 1, 4, 2, 8])
    mixed = VecGame(n, 3, row_kingdoms=KINGDOMS, turn_limit=8)
    mixed.reset(seeds, first_index=numbers)
    got = _rows(mixed, 120)
    assert got[3].sum() > n, "games should end and new ones be dealt (autoreset)"
    for g, kingdom in enumerate(KINGDOMS):
        alone = VecGame(1, 3, kingdom, turn_limit=8)
        alone.reset(int(seeds[g]), first_index=int(numbers[g]))
        want = _rows(alone, 120)
        for a, b in zip(got, want, strict=True):
            np.testing.assert_array_equal(a[:, g], b[:, 0], err_msg=f"row {g} ({kingdom})")


def test_a_random_row_draws_a_new_kingdom_each_game_and_a_fixed_row_keeps_its_own():
    v = VecGame(2, 2, row_kingdoms=["random", "First Game"])
    v.reset(0)
    seen = [set(), set()]
    for _ in range(3000):
        for g in range(2):
            seen[g].add(tuple(np.flatnonzero(v.state["pile"][g][IN_SUPPLY])))
        v.step(v.random_actions())
    assert len(seen[0]) > 1, "a random row deals a new kingdom each game"
    assert len(seen[1]) == 1, "a fixed row keeps its kingdom"


def test_each_row_its_own_opponents():
    """Learner mode with row_opponents: row g plays the game a learner-mode batch of its own,
    with row g's bot as its only opponent, plays."""
    names = ["Big Money", "Smithy", "Single Witch"]
    table = compile_bots(names)
    rows = np.array([2, 0, 1, 1, 2])
    kingdoms = ["First Game", "random", "random", "Deconstruction", "random"]
    seeds = np.arange(5) + 40
    mixed = VecGame(
        5, 2, row_kingdoms=kingdoms, opponents=table, row_opponents=rows, vp_shaping=0.01
    )
    mixed.reset(seeds, first_index=np.zeros(5, np.int64))
    got = _rows(mixed, 80)
    shaped = mixed.shaped_rewards.copy()
    bots = mixed.opponent_bots.copy()
    for g in range(5):
        alone = VecGame(1, 2, kingdoms[g], opponents=compile_bots(names[rows[g]]), vp_shaping=0.01)
        alone.reset(int(seeds[g]))
        want = _rows(alone, 80)
        for a, b in zip(got, want, strict=True):
            np.testing.assert_array_equal(a[:, g], b[:, 0], err_msg=f"row {g}")
        np.testing.assert_array_equal(shaped[g], alone.shaped_rewards[0])
        assert set(bots[g].tolist()) == {-1, int(rows[g])}


def test_row_opponents_per_seat_at_three_players():
    table = compile_bots(["Big Money", "Smithy", "Single Witch"])
    rows = np.array([[0, 1], [2, 2], [1, 0]])
    v = VecGame(3, 3, "First Game", opponents=table, row_opponents=rows, learner_seat=0)
    v.reset(1)
    np.testing.assert_array_equal(v.opponent_bots, [[-1, 0, 1], [-1, 2, 2], [-1, 1, 0]])


def test_a_mixed_bot_run_is_the_runs_it_merges():
    """play_games with per-game seeds, game numbers and kingdoms gives each game the result
    of its own run (a tournament's tables as one batch)."""
    table = compile_bots(["Big Money", "Smithy", "Single Witch"])
    parts = [("First Game", 3, [0, 1]), ("random", 8, [1, 2]), ("Deconstruction", 5, [2, 0])]
    kingdoms, seeds, numbers, seats, want = [], [], [], [], []
    for kingdom, seed, pair in parts:
        seat = np.array([pair, pair[::-1]] * 10)
        res = play_games(table, 20, 2, kingdom, seed=seed, seat_bot=seat, chunk=7)
        want.append(res)
        kingdoms += [kingdom] * 20
        seeds += [seed] * 20
        numbers += list(range(20))
        seats.append(seat)
    mixed = play_games(
        table,
        60,
        2,
        seed=np.array(seeds),
        game_numbers=np.array(numbers),
        row_kingdoms=kingdoms,
        seat_bot=np.concatenate(seats),
        chunk=16,
    )
    for k, res in enumerate(want):
        part = slice(20 * k, 20 * k + 20)
        np.testing.assert_array_equal(mixed.reward[part], res.reward)
        np.testing.assert_array_equal(mixed.turns[part], res.turns)
        np.testing.assert_array_equal(mixed.status[part], res.status)


def test_a_mixed_batch_snapshots_and_clones():
    table = compile_bots(["Big Money", "Single Witch"])
    v = VecGame(4, 2, row_kingdoms=KINGDOMS[:4], opponents=table, row_opponents=[0, 1, 1, 0])
    v.reset(3)
    for _ in range(30):
        v.step(v.random_actions())
    snap = v.snapshot()
    twin = v.clone()
    a = _rows(v, 40)
    b = _rows(twin, 40)
    v.restore(snap)
    c = _rows(v, 40)
    for x, y, z in zip(a, b, c, strict=True):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, z)
    other = VecGame(4, 2, row_kingdoms=KINGDOMS[1:5], opponents=table, row_opponents=[0, 1, 1, 0])
    with pytest.raises(ValueError, match="kingdom"):
        other.restore(snap)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(row_kingdoms=["random"] * 3), ValueError, r"one kingdom per row \(4\), got 3"),
        (dict(row_kingdoms="random"), ValueError, "one kingdom per row"),
        (dict(row_kingdoms=["random", "Nowhere", "random", "random"]), ValueError,
         r"row_kingdoms\[1\]: unknown kingdom 'Nowhere'"),
        (dict(row_kingdoms=["random", "random", ["Village"] * 10, "random"]), ValueError,
         r"row_kingdoms\[2\]: kingdom lists a card twice"),
        (dict(row_kingdoms=["random"] * 4, kingdom="First Game"), ValueError, "not both"),
        (dict(row_kingdoms=["First Game"] * 4, pool=["Village"] * 10), ValueError,
         "pool is the cards a random kingdom"),
        (dict(row_opponents=[0, 0, 0, 0]), ValueError, "row_opponents needs opponents"),
        (dict(opponents=compile_bots(["Big Money", "Single Witch"]), row_opponents=[0, 2, 0, 0]),
         ValueError, r"row_opponents\[1\] = 2 is not a bot of opponents \(ids 0..1\)"),
        (dict(opponents=compile_bots(["Big Money", "Single Witch"]), row_opponents=[0, 1]),
         ValueError, r"shape \(4,\) \(one bot per row\) or \(4, 1\)"),
        (dict(opponents=compile_bots(["Big Money", "Single Witch"]), row_opponents=[0.0] * 4),
         TypeError, "integer bot ids"),
        (dict(opponents=compile_bots(["Big Money", "Single Witch"]), row_opponents=[0, 1, 0, 1],
              opponent_weights=[1, 1]), ValueError, "not both"),
    ],
)  # fmt: skip
def test_bad_rows_are_refused_at_the_door(kwargs, error, message):
    with pytest.raises(error, match=message):
        VecGame(4, 2, **kwargs)


def test_bad_game_numbers_are_refused():
    v = VecGame(3, 2)
    with pytest.raises(ValueError, match=r"first_index must be a non-negative int or \(3,\)"):
        v.reset(0, first_index=[0, 1])
    with pytest.raises(ValueError, match=r"first_index\[2\] must be 0..2\*\*63-1"):
        v.reset(0, first_index=[0, 1, -1])
    with pytest.raises(ValueError, match="first_index"):
        v.reset(0, first_index=2**63 - 2)  # game 2**63 - 2 + 2 would not fit


def test_a_bot_runs_per_game_deals_are_checked():
    table = compile_bots(["Big Money"])
    with pytest.raises(ValueError, match=r"seed must be a non-negative int or \(4,\) seeds"):
        play_games(table, 4, 2, seed=[1, 2])
    with pytest.raises(ValueError, match=r"seed\[1\] must be 0..2\*\*63-1, got -3"):
        play_games(table, 4, 2, seed=[1, -3, 2, 2])
    with pytest.raises(TypeError, match=r"game_numbers must be None or \(4,\) ints"):
        play_games(table, 4, 2, game_numbers=3)
    with pytest.raises(ValueError, match=r"game_numbers must be .* \(4,\) game numbers"):
        play_games(table, 4, 2, game_numbers=[0.5] * 4)
    with pytest.raises(ValueError, match="row_kingdoms must hold one kingdom per game"):
        play_games(table, 4, 2, row_kingdoms=["random"] * 3)
    with pytest.raises(ValueError, match="not both"):
        play_games(table, 4, 2, "First Game", row_kingdoms=["random"] * 4)
