"""Games where some seats are played by policies (trained agents) and the rest by bots.

``play_mixed`` is ``arena.play_games`` for tables with a policy at them: the same seating
(``arena.seat_rotation``), the same first player (seat 0) and the same ``GameResults``, but the
games run in a VecGame with every seat external. At each round, the rows whose decider is a
bot get the compiled bots' actions in one call (``VecGame.bot_actions``) and the rows of each
policy one batched ``act`` call, so a policy sits at a table like a bot does, with no Python
loop over games.

A policy is any object with ``name``, ``act(observations, masks) -> actions`` (batched numpy),
``scale_observations`` (whether it reads ``VecGame(scale_observations=True)`` rows) and
``kingdom_cards()`` (the cards a table's kingdom must hold for it, as a bot's); the trained
``dominion_env.train.policy.Agent`` is one. A policy with ``act_games(vec, rows)`` (the search
player, ``dominion_env.search``) is given the VecGame and its rows instead of observations: it
decides from the game itself, through what its seat may know. Bots are ``agents.Bot``.
"""

from __future__ import annotations

import numpy as np

from ..agents import Bot, compile_bots
from ..cards import check_players
from ..checks import check_agent_players, check_per_row, is_per_row
from ..engine.layout import TERMINATED, TRUNCATED
from ..engine.observation import obs_scale
from ..protocols import decides_from_game
from ..vector import VecGame
from .arena import GameResults, check_run, seat_rotation


def is_policy(player) -> bool:
    return not isinstance(player, Bot) and callable(getattr(player, "act", None))


def play_mixed(
    players: list,
    n_games: int,
    n_players: int = 2,
    kingdom="random",
    *,
    seed: int = 0,
    seat_player=None,
    turn_limit: int = 100,
    chunk: int = 2048,
    progress=None,
    watch=None,
    game_numbers=None,
) -> GameResults:
    """Play ``n_games`` games of ``players`` (Bots and policies; ids = list positions).

    ``game_numbers`` (n_games,): game g is game number ``game_numbers[g]`` of the run seeded
    ``seed`` (repeat a number to deal the very same game again: common random numbers for
    players compared on the same deals, ``optimize``'s playoff against an agent); by default
    game g of a chunk is game g of the run seeded ``seed + start`` (below).

    ``watch(vec, start, actions)``, if given, sees every round before it is played: the
    chunk's VecGame (game g of it is game ``start + g`` of the run) and the action each row
    is about to take (-1: a finished game); ``profile.BuyPlayCounts`` counts buys and plays
    this way."""
    n_players = check_players(n_players)
    n_games, seed, turn_limit = check_run(n_games, seed, turn_limit)
    for p in players:
        if not isinstance(p, Bot) and not is_policy(p):
            raise TypeError(f"a player is a Bot or a policy with act(obs, masks), got {p!r}")
        check_agent_players(p, n_players)
    if seat_player is None:
        seat_player = seat_rotation(len(players), n_players, n_games)
    seat_player = np.ascontiguousarray(seat_player, np.int64)
    if seat_player.shape != (n_games, n_players):
        raise ValueError(
            f"seat_player must have shape ({n_games}, {n_players}), got {seat_player.shape}"
        )
    if game_numbers is not None:
        if not is_per_row(game_numbers):
            raise TypeError(f"game_numbers must be None or ({n_games},) ints, got {game_numbers!r}")
        game_numbers = check_per_row("game_numbers", game_numbers, n_games, "game numbers")
    bots = [k for k, p in enumerate(players) if isinstance(p, Bot)]
    table = compile_bots([players[k] for k in bots]) if bots else None
    bot_row = np.full(len(players), -1, np.int64)  # player id -> its row of table
    bot_row[bots] = np.arange(len(bots))
    scale = obs_scale(n_players)
    reward = np.zeros((n_games, n_players), np.float32)
    turns = np.zeros(n_games, np.int64)
    status = np.zeros(n_games, np.int64)
    # one VecGame per chunk: game g of a chunk is game g of the run seeded seed + start, so with
    # one chunk (chunk >= n_games) the deals are the arena's for the same seed
    for start in range(0, n_games, chunk):
        n = min(chunk, n_games - start)
        seats = seat_player[start : start + n]
        vec = VecGame(n, n_players, kingdom, autoreset=False, first_player=0, turn_limit=turn_limit)
        if game_numbers is None:
            vec.reset(seed + start)
        else:
            vec.reset(seed, game_numbers[start : start + n])
        rows = np.arange(n)
        actions = np.full(n, -1, np.int64)
        while True:
            live = vec.running
            if not live.any():
                break
            owner = np.where(live, seats[rows, np.maximum(vec.current_player, 0)], -1)
            _answer(vec, owner, players, table, bot_row, scale, actions)
            if watch is not None:
                watch(vec, start, actions)
            vec.step(actions)
            reward[start : start + n] += vec.rewards
        turns[start : start + n] = vec.turn_number
        status[start : start + n] = np.where(vec.truncated_games, TRUNCATED, TERMINATED)
        if progress is not None:
            progress(n)
    return GameResults(seat_player, reward, turns, status)


def _answer(vec, owner, players, table, bot_row, scale, actions) -> None:
    """Each running row's action into ``actions`` (-1 where the game is over), from the player
    ``owner`` names: compiled bots in one call, then each policy on its rows."""
    actions[:] = -1
    if table is not None:
        by_bot = (owner >= 0) & (bot_row[np.maximum(owner, 0)] >= 0)
        if by_bot.any():
            ids = np.where(by_bot, bot_row[np.maximum(owner, 0)], 0)
            actions[by_bot] = vec.bot_actions(table, ids)[by_bot]
    for k, p in enumerate(players):
        mine = np.flatnonzero(owner == k)
        if len(mine) and decides_from_game(p):
            actions[mine] = p.act_games(vec, mine)
        elif len(mine) and not isinstance(p, Bot):
            obs = vec.observation[mine]
            actions[mine] = p.act(
                obs / scale if p.scale_observations else obs, vec.action_mask[mine]
            )
