"""Bot-vs-bot games played entirely in compiled code, and their statistics.

``play_games`` runs whole games inside one prange kernel (no Python per decision). Game i of a
run seeded ``seed`` is the same game whatever the chunk size, thread count or executor
(``executor``: chunks of games can run as Ray tasks).

``record_games`` keeps chosen games of a run as records (``dominion_env.records``) without
slowing the run: afterwards it deals each again through ``Game`` (game i of the seed, seat 0
first, the same turn limit) and lets the same bots answer every decision from the same
stream (game i's ``STREAM_BOTS`` stream, as ``play_bots_kernel`` seeds it), then
checks that the re-played game ended as the compiled one did (rewards, turns, status).

Bounds, checked at the door: ``seed`` 0..MAX_SEED (the kernels hold it in an int64),
``n_games`` 1..MAX_GAMES (every game keeps its seats, rewards, length and status in memory,
16 + 12 x players bytes: 10M games of 6 players is about 0.9 GB; at the 200k games/s of a Big
Money mirror they take under a minute; more belongs in several runs with other seeds),
``turn_limit`` 1..MAX_TURN_LIMIT (no game of any bot lasts 1,000 turns per player).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..cards import NUM_CARDS, TABLE, check_players
from ..checks import MAX_TURN_LIMIT, check_int, check_per_row, check_seed, is_per_row
from ..engine.batch import play_bots_kernel
from ..engine.config import make_config, make_row_setup, make_setup
from ..engine.layout import NUM_ACTIONS, STATUS, TERMINATED, TRUNCATED, new_state
from ..engine.zones import STREAM_BOTS, seed_game
from ..game import Game
from .executor import local_map

MAX_GAMES = 10_000_000


def check_run(n_games, seed, turn_limit) -> tuple[int, int, int]:
    """The three numbers every batch of bot games takes, checked (see the module docstring)."""
    return (
        check_int("games", n_games, 1, MAX_GAMES, "results are kept per game in memory"),
        check_seed(seed),
        check_int("turn_limit", turn_limit, 1, MAX_TURN_LIMIT),
    )


@dataclass
class GameResults:
    """Per game: seat_bot (G, P) bot id per seat, reward (G, P), turns (G,), status (G,)."""

    seat_bot: np.ndarray
    reward: np.ndarray
    turns: np.ndarray
    status: np.ndarray


def seat_rotation(num_bots: int, players: int, n_games: int, first_index: int = 0) -> np.ndarray:
    """Bot id per seat: bots fill the seats in order, rotated one seat per game, so every bot
    plays every seat (both seat orders for two bots) equally often. Seat 0 starts."""
    if num_bots > players:
        raise ValueError(f"{num_bots} bots do not fit at a {players}-player table")
    base = np.arange(players) % num_bots
    i = np.arange(first_index, first_index + n_games)[:, None]
    return base[(np.arange(players)[None, :] + i) % players]


def play_games(
    bot_table,
    n_games: int,
    players: int = 2,
    kingdom="random",
    *,
    seed=0,
    seat_bot=None,
    turn_limit: int = 100,
    chunk: int = 16384,
    progress=None,
    map=local_map,  # an executor has the builtin map's signature (analysis.executor)
    row_kingdoms=None,
    game_numbers=None,
):
    """Play ``n_games`` bot games. ``seat_bot`` (n_games, players) gives bot ids per seat
    (default: ``seat_rotation`` of every bot in the table). Game g is game number g of the
    run seeded ``seed`` on ``kingdom``.

    A mixed batch gives each game its own deal: ``seed`` (n_games,) seeds, ``game_numbers``
    (n_games,) game numbers and ``row_kingdoms`` (n_games kingdoms, with ``kingdom`` left
    'random'), so games of many tables (a tournament's, a judge's opponents) play as one
    batch, each the very game its own run would play. The games play in chunks of ``chunk``,
    each a piece of work for ``map`` (``executor.local_map``: here, one after another;
    ``executor.RayMap``: Ray tasks), the same games either way. ``progress(k)`` is called
    after each chunk of k games."""
    players = check_players(players)
    n_games, _, turn_limit = check_run(n_games, 0, turn_limit)
    if is_per_row(seed):
        seeds = check_per_row("seed", seed, n_games, "seeds")
    else:
        seeds = np.full(n_games, check_seed(seed), np.int64)
    if game_numbers is not None and not is_per_row(game_numbers):
        raise TypeError(f"game_numbers must be None or ({n_games},) ints, got {game_numbers!r}")
    numbers = (
        np.arange(n_games, dtype=np.int64)
        if game_numbers is None
        else check_per_row("game_numbers", game_numbers, n_games, "game numbers")
    )
    nb = bot_table.kind.shape[0]
    if seat_bot is None:
        seat_bot = seat_rotation(nb, players, n_games)
    seat_bot = np.ascontiguousarray(seat_bot, dtype=np.int64)
    if seat_bot.shape != (n_games, players):
        raise ValueError(f"seat_bot must have shape ({n_games}, {players}), got {seat_bot.shape}")
    if seat_bot.min() < 0 or seat_bot.max() >= nb:
        raise ValueError(f"seat_bot holds bot ids outside 0..{nb - 1}")
    if row_kingdoms is None:
        setup = make_setup(players, kingdom)
    else:
        if not (isinstance(kingdom, str) and kingdom == "random"):
            raise ValueError(
                f"give kingdom (every game's) or row_kingdoms (each game's), not both; got "
                f"kingdom={kingdom!r}"
            )
        if isinstance(row_kingdoms, (str, bytes)) or len(row_kingdoms) != n_games:
            raise ValueError(f"row_kingdoms must hold one kingdom per game ({n_games})")
        setup = make_row_setup(players, row_kingdoms)
    cfg = make_config(players, turn_limit=turn_limit, first_player=0)
    size = min(chunk, n_games)
    pieces = [
        chunk_piece(setup, seeds, numbers, seat_bot, first, first + size)
        for first in range(0, n_games, size)
    ]
    play = partial(play_chunk, bot_table=bot_table, cfg=cfg, setup=setup)
    reward, turns, status = [], [], []
    for r, t, st in map(play, pieces):
        reward.append(r)
        turns.append(t)
        status.append(st)
        if progress is not None:
            progress(len(t))
    return GameResults(
        seat_bot, np.concatenate(reward), np.concatenate(turns), np.concatenate(status)
    )


def chunk_piece(setup, seeds, numbers, seat_bot, start: int, stop: int):
    """Games start .. stop-1 of a batch as a piece of work for ``play_chunk``: their seeds,
    game numbers, seats and (a mixed batch) their rows of the setup's kingdoms."""
    rows = setup.row_kingdom
    return (
        seeds[start:stop],
        numbers[start:stop],
        seat_bot[start:stop],
        rows[start:stop] if len(rows) > 1 else rows,
    )


def play_chunk(piece, *, bot_table, cfg, setup):
    """One piece of ``chunk_piece``: game numbers[g] of the run seeded seeds[g] for each g, a
    piece of work an executor runs anywhere. Returns (reward (n, P), turns (n,), status
    (n,))."""
    seeds, numbers, seat_bot, row_kingdom = piece
    n = seat_bot.shape[0]
    s = new_state(n)
    bot_rng = np.zeros(n, np.uint64)
    turns = np.zeros(n, np.int64)
    play_bots_kernel(
        s,
        TABLE,
        cfg,
        setup._replace(row_kingdom=row_kingdom),
        np.zeros((n, NUM_ACTIONS), np.bool_),
        np.zeros((n, NUM_CARDS), np.int64),
        seeds,
        numbers,
        seat_bot,
        bot_table,
        bot_rng,
        turns,
    )
    return s["reward"][:, : seat_bot.shape[1]].copy(), turns, s["game"][:, STATUS].astype(np.int64)


def record_games(
    bot_table,
    names: list[str],
    results: GameResults,
    games,
    players: int = 2,
    kingdom="random",
    *,
    seed: int = 0,
    turn_limit: int = 100,
    meta: dict | None = None,
) -> list[dict]:
    """Records of games ``games`` (indices into ``results``) of the ``play_games`` run that
    made ``results`` with ``bot_table`` (bot b named ``names[b]``), the same ``players``,
    ``kingdom``, ``seed`` and ``turn_limit``; see the module docstring. Each record's meta
    holds ``meta`` and the game's number. Raises RuntimeError if a re-played game ends
    otherwise than the compiled one (which would be an engine bug)."""
    idx = [int(i) for i in games]
    bad = [i for i in idx if not 0 <= i < results.turns.shape[0]]
    if bad:
        raise ValueError(f"games {bad} are not in the run (0..{results.turns.shape[0] - 1})")
    out = []
    g = Game(kingdom, players, seed, first_player=0, turn_limit=turn_limit)
    rng = np.zeros(1, np.uint64)
    for i in idx:
        g.reset(seed, i)
        seed_game(rng, 0, seed, i, STREAM_BOTS)
        seats = results.seat_bot[i]
        while not g.done:
            g.step(g.bot_action_id(bot_table, int(seats[g.current_player]), rng))
        status = TERMINATED if g.terminated else TRUNCATED
        if (
            not np.array_equal(g.rewards, results.reward[i])
            or int(g.turn["turn_number"]) != int(results.turns[i])
            or status != int(results.status[i])
        ):
            raise RuntimeError(
                f"game {i} of seed {seed} re-played through Game ended with rewards "
                f"{g.rewards.tolist()} after {g.turn['turn_number']} turns, the compiled run "
                f"with {results.reward[i].tolist()} after {int(results.turns[i])}"
            )
        players_ = [{"kind": "bot", "name": names[int(b)]} for b in seats]
        out.append(g.record(players_, meta={**(meta or {}), "game": i}))
    return out


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(results: GameResults, names: list[str]) -> list[dict]:
    """Per bot: games, wins (sole), ties (shared wins), losses, truncated, with 95% intervals.

    A bot seated more than once in a game counts once per seat."""
    rows = []
    done = results.status == TERMINATED
    for b, name in enumerate(names):
        seats = results.seat_bot == b
        r = results.reward[seats & done[:, None]]
        n = int(seats.sum())
        w, t, lo = int((r == 1).sum()), int((r == 0).sum()), int((r == -1).sum())
        trunc = int((seats & (results.status == TRUNCATED)[:, None]).sum())
        rows.append(
            {
                "bot": name,
                "games": n,
                "wins": w,
                "ties": t,
                "losses": lo,
                "truncated": trunc,
                "win_rate": w / n if n else 0.0,
                "win_ci": wilson(w, n),
                "tie_ci": wilson(t, n),
                "loss_ci": wilson(lo, n),
            }
        )
    return rows
