"""An agent against bots: whole games on seeds training never used, counted honestly.

    from dominion_env.train import evaluate, load_agent
    rows = evaluate(load_agent("ppo-pool"), ["Big Money", "Big Money Ultimate"], games=4000)

For each opponent: ``games`` games in learner mode (the bot in every other seat, the agent in
a random seat per game), every game that starts played to its end. The opponent
``"strongest"`` is, on each random kingdom (``GAMES_PER_KINGDOM`` games each), the strongest
library bot whose cards are all in it (``agents.STRENGTH_ORDER``); a strategy file (a .toml
path, or ``"optimized"``: ``agents.BOT_FILES``) plays the same random kingdoms with, on each,
the file's first bot whose cards are all in it, else that strongest library bot (the training
pool's ``KingdomExperts`` choice, ``agents.strongest_bot_for``). Reported per opponent:
wins (sole winner), ties (a shared win), losses, truncated games, the win rate with its 95%
Wilson interval, the agent's mean VP margin (its score minus the best other score at the
end), the mean game length in turns per player, and the agent's buys per game by card.
With P players, a fair share of wins is 1/P.

The games play in chunks of ``batch`` games, each one VecGame, each game seeded by its place in
the run: chunk c's games are games 0, 1, ... of the run seeded ``seed + c``; with
``"strongest"`` (or a file), game t is game t % ``GAMES_PER_KINGDOM`` of the run seeded
``seed + k`` on kingdom k = t // ``GAMES_PER_KINGDOM``, a chunk's rows each carrying their
kingdom and their bot (a mixed batch). Chunk c seeds the agent's own stream (a sampling
agent's draws, a search's) ``seed + c``. An executor (``map=RayMap()``) can play the chunks as
Ray tasks with the same results.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from ..agents import compile_bots, is_bot_file, load_bot_file, strongest_bot_for
from ..analysis.arena import wilson
from ..analysis.executor import local_map
from ..analysis.report import ci_fields
from ..cards import NAMES, NUM_CARDS
from ..checks import check_agent_players
from ..engine.bots import BotTable
from ..engine.kingdoms import random_kingdom
from ..engine.layout import DEC_BUY
from ..names import printable
from ..protocols import decides_from_game
from ..shaping import vp_margin
from ..vector import VecGame
from .policy import Agent
from .settings import STRONGEST

EVAL_SEED = 10**9  # far from any training seed (training uses seeds below 10**8)


def evaluate(
    agent: Agent,
    opponents,
    games: int = 4000,
    players: int = 2,
    kingdom="random",
    seed: int = EVAL_SEED,
    batch: int = 1000,
    turn_limit: int = 100,
    map=local_map,  # an executor has the builtin map's signature (analysis.executor)
) -> list[dict]:
    """One result dict per opponent (see the module docstring). ``map``: where the chunks of
    games play (``local_map``: here; ``RayMap``: Ray tasks), the same results either way."""
    if isinstance(opponents, str):
        opponents = [opponents]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    check_agent_players(agent, players)  # a search player (dominion_env.search) plays any
    files = {}
    for name in opponents:
        if is_bot_file(name):
            if kingdom != "random":
                raise ValueError(
                    f"opponent {name!r} (a strategy file) plays random kingdoms; kingdom must "
                    f"be 'random', got {kingdom!r}"
                )
            try:
                files[name] = load_bot_file(name)
            except (ValueError, TypeError) as e:
                raise ValueError(f"opponent {name!r}: {e}") from None
    return [
        _against(agent, name, games, players, kingdom, seed, batch, turn_limit, map, files)
        for name in opponents
    ]


GAMES_PER_KINGDOM = 10  # with STRONGEST: games on each random kingdom drawn


class Piece(NamedTuple):
    """A chunk of games, a piece of work an executor runs anywhere: row g plays game
    ``numbers[g]`` of the run seeded ``seeds[g]`` against bot ``bots[g]`` of ``table`` in every
    other seat, on ``kingdom`` (every row's) or ``row_kingdoms[g]``; ``seed`` seeds the
    agent's own stream."""

    table: BotTable
    bots: np.ndarray | None  # (n,) bot ids into table, or None: the table's one bot
    kingdom: object  # every row's kingdom (with row_kingdoms: 'random', unused)
    row_kingdoms: list | None  # each row's kingdom (a mixed batch)
    seeds: np.ndarray  # (n,) int64
    numbers: np.ndarray  # (n,) int64
    seed: int


def _play(agent, piece: Piece, players, turn_limit):
    """The piece's games of the agent: per-game arrays."""
    n = len(piece.seeds)
    vec = VecGame(
        n,
        players,
        piece.kingdom,
        row_kingdoms=piece.row_kingdoms,
        opponents=piece.table,
        row_opponents=piece.bots,
        autoreset=False,
        turn_limit=turn_limit,
        scale_observations=agent.scale_observations,
    )
    vec.reset(piece.seeds, first_index=piece.numbers)
    seat = vec.learner_seat.copy()
    reward = np.zeros(n, np.float32)
    buys = np.zeros(NUM_CARDS, np.int64)
    actions = np.full(n, -1, np.int64)
    while True:
        live = np.flatnonzero(vec.running)
        if not len(live):
            break
        actions[:] = -1
        if decides_from_game(agent):  # search decides from the game, through its seat
            actions[live] = agent.act_games(vec, live)
        else:
            actions[live] = agent.act(vec.observation[live], vec.action_mask[live])
        bought = actions[live][(vec.decision_kind[live] == DEC_BUY) & (actions[live] < NUM_CARDS)]
        np.add.at(buys, bought, 1)
        vec.step(actions)
        reward += vec.learner_rewards
    return (
        reward,
        vp_margin(vec.scores, seat),
        vec.turn_number / players,
        vec.truncated_games.copy(),
        buys,
    )


def _play_piece(piece: Piece, *, agent, players, turn_limit):
    """One chunk's games (``Piece``). The agent's own stream (a sampling agent's draws) is
    seeded by the chunk's seed."""
    if decides_from_game(agent):
        agent = agent.with_seed(piece.seed)  # a search numbers its decisions: each chunk from 0
    else:
        agent.seed(piece.seed)
    return _play(agent, piece, players, turn_limit)


def kingdom_pieces(kingdoms, bots, seeds, games: int, batch: int, seed: int) -> list[Piece]:
    """Pieces of ``batch`` games: ``games`` games, game t on kingdom k = t // GAMES_PER_KINGDOM
    (``kingdoms[k]``, card names) against ``bots[k]`` (a Bot), dealt as game t % GAMES_PER_KINGDOM
    of the run seeded ``seeds[k]``: each the game a batch of that kingdom's alone deals. Piece c
    seeds the agent's stream ``seed + c``. The bots faced make one table."""
    faced, ids = [], {}  # by identity: a strategy file's bot may share a library bot's name
    for bot in bots:
        if id(bot) not in ids:
            ids[id(bot)] = len(faced)
            faced.append(bot)
    table = compile_bots(faced)
    t = np.arange(games)
    k = t // GAMES_PER_KINGDOM
    row_bot = np.array([ids[id(bots[i])] for i in k], np.int64)
    row_seed = np.asarray(seeds, np.int64)[k]
    numbers = (t % GAMES_PER_KINGDOM).astype(np.int64)
    return [
        Piece(
            table,
            row_bot[s : s + batch],
            "random",  # unused: every row has its own kingdom
            [kingdoms[i] for i in k[s : s + batch]],
            row_seed[s : s + batch],
            numbers[s : s + batch],
            seed + c,
        )
        for c, s in enumerate(range(0, games, batch))
    ]


def _against(agent, opponent, games, players, kingdom, seed, batch, turn_limit, map, files):
    faced = {}
    # an opponent is a name (a bot, "strongest", a strategy file) or a Bot object (unhashable)
    if isinstance(opponent, str) and (opponent == STRONGEST or opponent in files):
        if kingdom != "random":
            raise ValueError(
                f"opponent {STRONGEST!r} draws random kingdoms; kingdom must be "
                f"'random', got {kingdom!r}"
            )
        seeds = seed + np.arange(-(-games // GAMES_PER_KINGDOM))
        kingdoms = [random_kingdom(int(s)) for s in seeds]
        bots = [strongest_bot_for(cards, files.get(opponent, ())) for cards in kingdoms]
        for bot in bots:
            faced[bot.name] = faced.get(bot.name, 0) + 1
        pieces = kingdom_pieces(kingdoms, bots, seeds, games, batch, seed)
    else:
        table = compile_bots(opponent)
        pieces = []
        for chunk, start in enumerate(range(0, games, batch)):
            n = min(batch, games - start)
            numbers = np.arange(n, dtype=np.int64)
            seeds = np.full(n, seed + chunk, np.int64)
            pieces.append(Piece(table, None, kingdom, None, seeds, numbers, seed + chunk))
    play = partial(_play_piece, agent=agent, players=players, turn_limit=turn_limit)
    parts = list(map(play, pieces))
    result, margin, turns, truncated = (np.concatenate([p[i] for p in parts]) for i in range(4))
    buys = sum(p[4] for p in parts)
    wins = int(((result == 1) & ~truncated).sum())
    ties = int(((result == 0) & ~truncated).sum())
    losses = int((result == -1).sum())
    lo, hi = wilson(wins, games)
    top = np.argsort(-buys)[:8]
    row = {
        "agent": agent.name,
        "opponent": opponent,
        "players": players,
        "games": games,
        "wins": wins,
        "ties": ties,
        "losses": losses,
        "truncated": int(truncated.sum()),
        "win_rate": wins / games,
        **ci_fields("win", (lo, hi)),
        "fair_share": 1 / players,
        "mean_vp_margin": float(margin.mean()),
        "mean_turns": float(turns.mean()),
        "buys_per_game": {NAMES[c]: round(buys[c] / games, 2) for c in top if buys[c] > 0},
    }
    if faced:
        row["kingdoms_per_bot"] = dict(sorted(faced.items(), key=lambda kv: -kv[1]))
    return row


def format_table(rows: list[dict]) -> str:
    head = (
        f"{'opponent':<22}{'games':>7}{'win rate [95% CI]':>26}{'ties':>6}{'losses':>8}"
        f"{'trunc':>6}{'VP margin':>11}{'turns':>7}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        ci = f"{r['win_rate']:6.1%} [{r['win_ci_low']:5.1%}, {r['win_ci_high']:5.1%}]"
        lines.append(
            f"{r['opponent']:<22}{r['games']:>7}{ci:>26}{r['ties']:>6}"
            f"{r['losses']:>8}{r['truncated']:>6}{r['mean_vp_margin']:>+11.1f}"
            f"{r['mean_turns']:>7.1f}"
        )
    for r in rows:
        buys = ", ".join(f"{k} {v}" for k, v in r["buys_per_game"].items())
        lines.append(f"buys per game vs {r['opponent']}: {buys}")
    return "\n".join(map(printable, lines))  # an opponent's name may come from a file
