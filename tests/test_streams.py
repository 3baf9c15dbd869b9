"""Every game of a run draws from streams of its own, and every seat of a game shuffles from
its own stream.

splitmix64 advances its state by a constant, so streams whose starting states are near each
other replay each other's draws shifted. The first seeding (seed*C1 + index*C2) made game i+k's
stream game i's shifted by k draws; these tests fail on it. Engines before v8 shuffled every
seat from the game's one stream (``Config.shared_stream``), so a seat's choices moved every
other seat's later shuffles; the seat-stream tests fail on it.
"""

import numpy as np
import pytest

from dominion_env import Game
from dominion_env.agents import compile_bots
from dominion_env.analysis.arena import play_games
from dominion_env.engine.config import make_config
from dominion_env.engine.zones import (
    STREAM_BOTS,
    STREAM_GAME,
    STREAM_OPPONENTS,
    STREAM_POLICY,
    next_u64,
    seed_game,
)

STREAMS = (STREAM_GAME, STREAM_POLICY, STREAM_OPPONENTS, STREAM_BOTS)


def _draws(seed: int, index: int, stream: int, n: int) -> np.ndarray:
    rng = np.zeros(1, dtype=np.uint64)
    seed_game(rng, 0, seed, index, stream)
    return np.array([next_u64(rng, 0) for _ in range(n)], dtype=np.uint64)


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**62 + 7])
def test_neighbouring_games_share_no_draws(seed):
    streams = {
        (index, stream): _draws(seed, index, stream, 300)
        for index in range(24)
        for stream in STREAMS
    }
    everything = np.concatenate(list(streams.values()))
    # 96 streams x 300 draws: a shared 64-bit value by chance has odds ~2**-41.
    assert np.unique(everything).size == everything.size


def test_neighbouring_seeds_share_no_draws():
    everything = np.concatenate(
        [_draws(seed, index, STREAM_GAME, 300) for seed in range(16) for index in range(16)]
    )
    assert np.unique(everything).size == everything.size


def test_neighbouring_results_are_uncorrelated():
    """Big Money mirror: whether seat 0 wins game i says nothing of game i+1 (+0.066 lag-1
    autocorrelation with the first seeding over 20k games, where noise is +-0.007)."""
    table = compile_bots(["Big Money"])
    res = play_games(table, 20_000, players=2, kingdom="First Game", seed=3)
    seat0_wins = (res.reward[:, 0] > res.reward[:, 1]).astype(float)
    x = seat0_wins - seat0_wins.mean()
    lag1 = float((x[:-1] * x[1:]).mean() / (x * x).mean())
    assert abs(lag1) < 0.03, lag1


def _game(seed: int, shared: bool) -> Game:
    g = Game("First Game", 2, seed, first_player=0)
    if shared:  # as Game.replay deals a v5-v7 record
        g._vec.config = g._vec.config._replace(shared_stream=1)
        g.reset(seed)
    return g


def _seat0_hands(seed: int, shared: bool, seat1_buys: bool, turns: int = 24) -> list:
    """Seat 0's hand at each of its turns when nobody buys anything, but seat 1 buys one Copper
    on its first turn when ``seat1_buys``: its deck is one card longer, so its reshuffles come
    at other times and draw one number more."""
    g = _game(seed, shared)
    hands, bought = [], False
    while g.turn["turn_number"] <= turns:
        if g.current_player == 0:
            hands.append(g.zones(0)["hand"])
            g.step("PASS")
        elif seat1_buys and not bought and "Copper" in g.legal_actions():
            g.step("Copper")
            bought = True
        else:
            g.step("PASS")
    assert bought == seat1_buys
    return hands


@pytest.mark.parametrize("seed", [0, 5, 17])
def test_a_seats_shuffles_do_not_depend_on_another_seats_choices(seed):
    same = _seat0_hands(seed, False, False)
    assert _seat0_hands(seed, False, True) == same
    assert len(same) == 12  # six reshuffles of seat 0's ten cards


def test_with_one_shared_stream_they_did():
    """What ``shared_stream`` (v5-v7) does: seat 1's Copper moves seat 0's later shuffles."""
    assert any(_seat0_hands(seed, True, True) != _seat0_hands(seed, True, False) for seed in (0, 5))


def test_seat_streams_share_no_draws_with_each_other_or_the_game():
    g = Game("random", 6, 3, game_index=9)
    rng = g.state["rng"][0].copy()
    draws = [[next_u64(rng, k) for _ in range(300)] for k in range(rng.shape[0])]
    everything = np.array(draws, dtype=np.uint64).ravel()
    assert np.unique(everything).size == everything.size


@pytest.mark.parametrize("value", [1, "yes", None])
def test_shared_stream_setting_must_be_true_or_false(value):
    with pytest.raises(TypeError, match=r"shared_stream must be True or False, got"):
        make_config(2, shared_stream=value)
    assert make_config(2).shared_stream == 0  # each seat its own stream by default
    assert make_config(2, shared_stream=True).shared_stream == 1
