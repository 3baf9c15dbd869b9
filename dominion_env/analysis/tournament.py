"""Round-robin bot tournaments: pairwise win rates with 95% intervals and Bradley-Terry ratings.

    from dominion_env.analysis.tournament import run_tournament
    res = run_tournament(["Big Money", "Big Money Ultimate", "Smithy", "Random"], games=10_000)
    print(res.report())           # ratings table and win-rate matrix
    res.save("tournament_out")    # winrates.csv, ratings.csv, tables.csv, heatmap.png
    res.win_rate("Smithy", "Big Money"), res.interval("Smithy", "Big Money")

The command line is ``dominion tournament BOT BOT ... [--all] [--bots-file F.toml]``. This module
runs the tournament: it plans the tables, plays them in compiled code (``arena.play_games``),
counts the pairwise outcomes below, rates the bots and returns a ``TournamentResult``. The
tables of bots alone play as one mixed batch (every game with its own table's kingdom, seed and
game number: the very games each table's own run plays), in chunks of games that are pieces of
work for an executor (``executor``: here one after another, or Ray tasks with ``--ray``); a
table with a trained agent is one piece of its own (``_play_table``). Each table's seed comes
from the plan, so how the games are batched or where they run changes nothing. What each
number means is told where it is made:

- ``planning``: which tables play (every combination of P distinct bots, or ``max_tables`` of
  them sampled), seat orders, games per table, each table's kingdom (or why it is skipped) and
  seed;
- ``rating``: Bradley-Terry strengths fitted to the pairwise outcomes, on the Elo scale, with
  95% intervals;
- ``report``: ``TournamentResult`` -- win rates and their Wilson intervals, overall scores, the
  text report and the files ``save`` writes.

Pairwise outcomes. For bots A and B, every game where both sat counts once: A *beats* B when A's
reward is greater than B's (+1 sole win, 0 shared win, -1 loss), *ties* B when they are equal,
loses otherwise. At 2 players that is win / shared win / loss. At 3-6 players A beats B also when
A shares the win and B does not, and two bots that both lose to a third tie with each other. A
game truncated by the turn limit gives everyone reward 0, so it counts as a tie for every pair;
the ``truncated`` counts report how many of the ties were truncations. Because the losers of a
3-6 player game tie with each other, multiplayer scores sit closer to 50% and Elo gaps are
smaller than at 2 players (Random scores about 40% at 6 players); ``won`` (sole wins) shows the
spread directly. Cells satisfy
``wins[A,B] == losses[B,A]``, ``ties[A,B] == ties[B,A]`` and ``wins + ties + losses == games``.
The ratings are fitted to these counts, a tie half a win for each side. A bot whose tables were
all skipped has no rating; if the tables do not connect all bots, the result notes the groups.
"""

from __future__ import annotations

import time
from functools import partial
from typing import NamedTuple

import numpy as np

from ..agents import Bot, compile_bots, get_bot
from ..cards import check_players
from ..engine.layout import TERMINATED, TRUNCATED
from .arena import GameResults, check_run, play_games
from .arena import record_games as record_arena_games
from .executor import local_map
from .mixed import is_policy, play_mixed
from .planning import (
    DEFAULT_MAX_TABLES,
    TableRecord,
    check_kingdom,
    plan_tables,
    plan_tournament,
    seat_cycle,
    table_seed,
)
from .rating import (
    ELO_BASE,
    ELO_SCALE,
    bradley_terry,
    bt_standard_errors,
    connected_groups,
    elo_ratings,
)
from .report import TournamentResult

__all__ = [
    "DEFAULT_MAX_TABLES",
    "ELO_BASE",
    "ELO_SCALE",
    "TableRecord",
    "TournamentResult",
    "bradley_terry",
    "bt_standard_errors",
    "plan_tables",
    "resolve_bots",
    "run_tournament",
    "seat_cycle",
    "table_seed",
]


class TableOutcome(NamedTuple):
    """What one table's games add to the tournament, by table-local bot u, v (seat order of
    the table's ids): wins[u, v] games where u's reward beat v's, ties[u, v] where they were
    equal (0 on the diagonal), won[u] sole wins, truncated games, mean turns per player, and
    the table's records (``record_games``; None: a table with a trained agent, not recorded)."""

    wins: np.ndarray  # (P, P) int64
    ties: np.ndarray  # (P, P) int64
    won: np.ndarray  # (P,) int64
    truncated: int
    mean_turns: float
    records: list | None


def _play_bot_tables(
    tables,
    *,
    names,
    bot_table,
    players,
    per_table,
    cycle,
    turn_limit,
    chunk,
    record_games,
    map,
    progress,
) -> list[TableOutcome]:
    """Play every table of bots alone as one mixed batch (each game with its table's kingdom,
    seed and game number, so each is the game its table's own run plays), in chunks of
    ``chunk`` games for ``map``; then count and record each table."""
    local = cycle[np.arange(per_table) % len(cycle)]  # (G, P) seat -> table-local bot
    seat_bot = np.concatenate([ids[local] for _, ids, _, _, _ in tables])
    seeds = np.repeat(np.array([seed for _, _, _, seed, _ in tables], np.int64), per_table)
    numbers = np.tile(np.arange(per_table, dtype=np.int64), len(tables))
    # one hashable value per table: the setup resolves each kingdom once, not once a game
    kingdoms = [_hashable(kingdom) for _, _, kingdom, _, _ in tables]
    res = play_games(
        bot_table,
        len(seat_bot),
        players,
        seed=seeds,
        game_numbers=numbers,
        row_kingdoms=[k for k in kingdoms for _ in range(per_table)],
        seat_bot=seat_bot,
        turn_limit=turn_limit,
        chunk=chunk,
        progress=progress,
        map=map,
    )
    out = []
    for t, (index, _, kingdom, seed, table_bots) in enumerate(tables):
        part = slice(t * per_table, (t + 1) * per_table)
        mine = GameResults(res.seat_bot[part], res.reward[part], res.turns[part], res.status[part])
        records = []
        if record_games:
            records = record_arena_games(
                bot_table,
                names,
                mine,
                range(min(record_games, per_table)),
                players,
                kingdom,
                seed=seed,
                turn_limit=turn_limit,
                meta={"command": "tournament", "table": index},
            )
        out.append(_outcome(mine, local, players, table_bots, records))
    return out


def _hashable(kingdom):
    return kingdom if isinstance(kingdom, str) else tuple(kingdom)


def _play_table(table, *, bots, players, per_table, cycle, turn_limit) -> TableOutcome:
    """Play one table with a trained agent (its index in the plan, ids, kingdom, seed, bot
    names): a piece of work an executor runs anywhere."""
    _, ids, kingdom, seed, table_bots = table
    local = cycle[np.arange(per_table) % len(cycle)]
    res = play_mixed(
        bots,
        per_table,
        players,
        kingdom,
        seed=seed,
        seat_player=ids[local],
        turn_limit=turn_limit,
        chunk=per_table,
    )
    return _outcome(res, local, players, table_bots, None)


def _outcome(res, local, players, table_bots, records) -> TableOutcome:
    """A table's pairwise counts from its games' results (``local``: seat -> table bot)."""
    by_bot = np.take_along_axis(res.reward, np.argsort(local, axis=1), axis=1)  # reward per bot
    trunc = res.status == TRUNCATED
    if not ((res.status == TERMINATED) | trunc).all():
        raise RuntimeError(f"table {table_bots}: a game neither terminated nor truncated")
    u, v = by_bot[:, :, None], by_bot[:, None, :]
    return TableOutcome(
        wins=(u > v).sum(axis=0, dtype=np.int64),
        ties=((u == v).sum(axis=0, dtype=np.int64) * ~np.eye(players, dtype=bool)),
        won=(by_bot == 1).sum(axis=0, dtype=np.int64),
        truncated=int(trunc.sum()),
        mean_turns=float(res.turns.mean() / players),
        records=records,
    )


def resolve_bots(bots) -> list:
    """Bots from ``agents.Bot`` objects or library names, and policies (trained agents, see
    ``mixed``); names must be unique."""
    out = []
    for b in bots:
        if isinstance(b, str):
            out.append(get_bot(b))
        elif isinstance(b, Bot) or is_policy(b):
            out.append(b)
        else:
            raise TypeError(f"a bot is an agents.Bot, a bot name or a policy with act(), got {b!r}")
    names = [b.name for b in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"bot names must be unique in a tournament; given twice: {', '.join(dup)}")
    return out


def _check_int(name: str, value, low: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        kind = "positive" if low == 1 else "non-negative"
        raise ValueError(f"{name} must be a {kind} int, got {value!r}")


def run_tournament(
    bots,
    games: int = 10_000,
    players: int = 2,
    kingdom=None,
    seed: int = 0,
    *,
    turn_limit: int = 100,
    max_tables: int = DEFAULT_MAX_TABLES,
    prior: float = 1.0,
    progress=False,
    chunk: int = 16384,
    record_games: int = 0,
    map=local_map,  # an executor has the builtin map's signature (analysis.executor)
) -> TournamentResult:
    """Play a round robin between ``bots`` (``agents.Bot`` objects or library names) and rate them.

    ``games`` per table (rounded up to a whole seating cycle), ``players`` 2-6, ``kingdom`` None
    (each table on ``kingdom_for`` its bots), "random", a recommended set name, 10 card names or
    a comma-separated string of them. ``progress``: True for a tqdm bar, or a callable taking a
    number of games just played, after each chunk of games. What every number means: the docstrings
    of this module and of ``planning``, ``rating`` and ``report``. ``record_games``: keep the
    first this many games of every bot table as records (``arena.record_games``; meta: the
    table's index in ``tables`` and the game's number) in the result's ``records``; tables with
    a trained agent are not recorded (a note says so). ``map``: where the tables play
    (``executor.local_map``, here; ``executor.RayMap``, as Ray tasks), the same results and
    records either way."""
    players = check_players(players)
    games, seed, turn_limit = check_run(games, seed, turn_limit)  # games: per table
    _check_int("max_tables", max_tables)
    _check_int("record_games", record_games, low=0)
    bots = _enough_bots(bots, players)
    fixed = check_kingdom(kingdom, players)
    names = [b.name for b in bots]
    plan = plan_tournament(bots, players, games, fixed, seed, max_tables)
    per_table = plan.games_per_table
    total = per_table * len(plan.to_play)
    start = time.perf_counter()
    outcomes = _play_tables(
        plan,
        bots,
        players=players,
        turn_limit=turn_limit,
        chunk=chunk,
        record_games=record_games,
        map=map,
        progress=progress,
    )
    tally = _Tally(len(bots), players)
    for k, (ids, rec) in enumerate(plan.to_play):
        rec.truncated, rec.mean_turns = outcomes[k].truncated, outcomes[k].mean_turns
        tally.add(ids, outcomes[k], per_table)
    elapsed = time.perf_counter() - start
    notes = list(plan.notes)
    if tally.unrecorded:
        notes.append(
            f"{tally.unrecorded} table(s) with a trained agent: their games are not recorded"
        )
    rated = _rate(names, tally, prior, notes)
    return TournamentResult(
        names=names,
        players=players,
        games_per_table=per_table,
        seed=int(seed),
        turn_limit=int(turn_limit),
        kingdom=fixed,
        tables=plan.tables,
        games=tally.games,
        wins=tally.wins,
        ties=tally.ties,
        truncated=tally.truncated,
        seats=tally.seats,
        won=tally.won,
        strength=rated.strength,
        elo=rated.elo,
        elo_pm=rated.elo_pm,
        bt_iterations=rated.iterations,
        elapsed=elapsed,
        total_games=total,
        sampled=plan.sampled,
        notes=notes,
        records=tally.records,
    )


def _enough_bots(bots, players: int) -> list:
    """``bots`` resolved (``resolve_bots``), at least ``players`` of them."""
    bots = resolve_bots(bots)
    n = len(bots)
    if n < players:
        raise ValueError(
            f"a {players}-player tournament needs at least {players} bots (every "
            f"table seats {players} distinct bots); got {n}"
            + (f": {bots[0].name}" if n == 1 else "")
        )
    return bots


def _progress(progress, total: int):
    """(a tqdm bar or None, the callable told each number of games played or None)."""
    if progress is True:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", desc="tournament", smoothing=0.1)
        return bar, bar.update
    return None, progress if callable(progress) else None


def _play_tables(plan, bots, *, players, turn_limit, chunk, record_games, map, progress):
    """Every table of ``plan`` played: {index in plan.to_play: TableOutcome}. Tables of bots
    alone play compiled, in batches; a table with a trained agent (a policy) plays its own."""
    names = [b.name for b in bots]
    # a policy's id holds a stand-in row here: tables with a policy play through play_mixed
    policies = {i for i, b in enumerate(bots) if is_policy(b)}
    bot_table = compile_bots(
        [get_bot("Random") if i in policies else b for i, b in enumerate(bots)]
    )  # raises for bad rules
    per_table = plan.games_per_table
    tables = [
        (plan.tables.index(rec), ids, rec.kingdom, rec.seed, rec.bots) for ids, rec in plan.to_play
    ]
    alone = [k for k, t in enumerate(tables) if policies.isdisjoint(t[1].tolist())]
    with_agent = sorted(set(range(len(tables))) - set(alone))
    outcomes: dict[int, TableOutcome] = {}
    bar, update = _progress(progress, per_table * len(tables))
    try:
        if alone:
            bot_outcomes = _play_bot_tables(
                [tables[k] for k in alone],
                names=names,
                bot_table=bot_table,
                players=players,
                per_table=per_table,
                cycle=plan.cycle,
                turn_limit=turn_limit,
                chunk=chunk,
                record_games=record_games,
                map=map,
                progress=update,
            )
            outcomes.update(zip(alone, bot_outcomes, strict=True))
        table = partial(
            _play_table,
            bots=bots,
            players=players,
            per_table=per_table,
            cycle=plan.cycle,
            turn_limit=turn_limit,
        )
        for k, out in zip(with_agent, map(table, [tables[k] for k in with_agent]), strict=True):
            outcomes[k] = out
            if update is not None:
                update(per_table)
    finally:
        if bar is not None:
            bar.close()
    return outcomes


class _Tally:
    """The tables' outcomes summed per pair of bots (games, wins, ties, truncated) and per bot
    (seats held, games won), with the records kept."""

    def __init__(self, n: int, players: int):
        self.games, self.wins, self.ties, self.truncated = (
            np.zeros((n, n), np.int64) for _ in range(4)
        )
        self.seats = np.zeros(n, np.int64)
        self.won = np.zeros(n, np.int64)
        self.off = ~np.eye(players, dtype=bool)  # pairs of distinct seats at a table
        self.records: list[dict] = []
        self.unrecorded = 0

    def add(self, ids, out: TableOutcome, per_table: int) -> None:
        pair = np.ix_(ids, ids)
        self.games[pair] += per_table * self.off
        self.wins[pair] += out.wins
        self.ties[pair] += out.ties
        self.truncated[pair] += out.truncated * self.off
        self.seats[ids] += per_table
        self.won[ids] += out.won
        if out.records is None:
            self.unrecorded += 1
        else:
            self.records += out.records


def _rate(names, tally: _Tally, prior: float, notes: list):
    """Bradley-Terry ratings of the tally (ties as half a win); notes on bots with no games
    and on tables that do not connect every bot."""
    rated = elo_ratings(tally.wins + 0.5 * tally.ties, prior=prior)
    unrated = [names[i] for i in range(len(names)) if not np.isfinite(rated.strength[i])]
    if unrated:
        notes.append(f"no games, so no rating: {', '.join(unrated)}")
    groups = connected_groups(tally.games > 0, tally.seats > 0)
    if len(groups) > 1:
        notes.append(
            "the tables do not connect all bots; ratings are comparable only within "
            "each group: " + " / ".join(", ".join(names[i] for i in g) for g in groups)
        )
    return rated
