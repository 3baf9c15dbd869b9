"""Which tables a tournament plays: bots per table, seat orders, games, kingdoms and seeds.

Tables. With P players every table seats P *distinct* bots. At 2 players every unordered pair
of bots is a table (a full round robin). At 3-6 players every combination of P bots is a table
while there are at most ``max_tables`` (default 2000) of them; beyond that ``max_tables``
combinations are drawn uniformly without replacement, deterministically from the seed (and the
result says so). A bot never meets itself.

Seating. ``games`` is the number of games per table. At 2 players the two seat orders alternate;
at 3-6 players the table cycles through the P rotations of its bots' order and the P rotations
of the reversed order, so every bot sits in every seat equally often and nobody always sits
directly before the same opponent. ``games`` is rounded up to a multiple of that cycle (2 at
2 players, 2P at 3-6), and the result notes it. Seat 0 starts.

Kingdom. By default (``kingdom=None``; ``--kingdom bots``) each table plays on
``agents.kingdom_for(its bots)``: every kingdom card its bots name (gain rules and
conditions), filled up to 10 with cards no bot buys unless it names them -- the way public
simulators run match-ups. A table whose bots need more than 10 kingdom cards between them is
skipped, and the result (and the command's output) names the bots and the cards. ``kingdom=``
"random" (every game draws its own kingdom), a recommended set name, or 10 card names puts every
table on that kingdom instead; bots naming cards missing from it are noted (they never get them).

Seeds. Each table plays the run seeded by a 62-bit hash of (master seed, the table's bot names in
table order); a table's bots are ordered by name. So the same seed gives the same results, and a
match-up plays exactly the same games whatever other bots are in the tournament and in whatever
order the bots were listed.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np

from ..agents import kingdom_for
from ..engine.config import make_setup
from ..engine.kingdoms import kingdom_arg, resolve_kingdom

DEFAULT_MAX_TABLES = 2000


@dataclass
class TableRecord:
    """One table: planned here; ``truncated`` and ``mean_turns`` are filled in once it played."""

    bots: tuple[str, ...]
    kingdom: object  # list of names, "random", a set name; None when skipped
    seed: int
    games: int
    truncated: int = 0
    mean_turns: float = float("nan")  # turns per player
    skipped: str = ""  # why, when the table was not played


@dataclass
class TournamentPlan:
    """What ``plan_tournament`` decided. ``to_play`` pairs each playable table with its bots'
    indices (in the tournament's bot list), in table order."""

    cycle: np.ndarray  # (rows, P) seat -> table-local bot index, see seat_cycle
    games_per_table: int  # games rounded up to a multiple of len(cycle)
    tables: list[TableRecord]  # every planned table, skipped ones included
    to_play: list[tuple[np.ndarray, TableRecord]]
    sampled: bool  # tables drawn at random because there were more than max_tables
    notes: list[str]


def _unrank_combination(index: int, n: int, k: int) -> tuple[int, ...]:
    """The index-th k-subset of range(n) in lexicographic order."""
    out, x = [], 0
    for remaining in range(k, 0, -1):
        while True:
            c = math.comb(n - x - 1, remaining - 1)
            if index < c:
                break
            index -= c
            x += 1
        out.append(x)
        x += 1
    return tuple(out)


def plan_tables(num_bots: int, players: int, max_tables: int = DEFAULT_MAX_TABLES, seed: int = 0):
    """Index tuples of the tables (each P distinct bot indices, ascending) and whether they were
    sampled: every combination while there are at most ``max_tables``, else ``max_tables`` of
    them drawn uniformly without replacement, deterministically from ``seed``."""
    total = math.comb(num_bots, players)
    if total <= max_tables:
        return [_unrank_combination(i, num_bots, players) for i in range(total)], False
    rng = np.random.default_rng([seed, num_bots, players, 0x70A7])
    if total < 2**62:
        idx = sorted(int(i) for i in rng.choice(total, size=max_tables, replace=False))
    else:  # astronomically many: rejection sampling is as good and cheap
        chosen = set()
        while len(chosen) < max_tables:
            chosen.add(tuple(sorted(int(i) for i in rng.choice(num_bots, players, replace=False))))
        return sorted(chosen), True
    return [_unrank_combination(i, num_bots, players) for i in idx], True


def seat_cycle(players: int) -> np.ndarray:
    """The seatings a table cycles through: row r, seat s -> table-local bot index. Two rows at
    2 players (both orders); at 3-6 the P rotations of the order and the P of its reverse."""
    fwd = np.arange(players)
    rows = [np.roll(fwd, -k) for k in range(players)]
    if players >= 3:
        rev = fwd[::-1]
        rows += [np.roll(rev, -k) for k in range(players)]
    return np.array(rows, dtype=np.int64)


def table_seed(seed: int, names) -> int:
    """A table's run seed: a 62-bit hash of the master seed and the bot names in table order."""
    h = hashlib.blake2b(digest_size=8, person=b"dom-tourn")
    h.update(str(int(seed)).encode())
    for n in names:
        h.update(b"\x00" + str(n).encode())
    return int.from_bytes(h.digest(), "little") >> 2


def check_kingdom(kingdom, players: int):
    """Validate a fixed kingdom once, before any table plays; returns it as make_setup takes it
    (None stays None: each table on its bots' kingdom)."""
    if kingdom is None:
        return None
    kingdom = kingdom_arg(kingdom)
    if not isinstance(kingdom, str):
        kingdom = list(kingdom)
    make_setup(players, kingdom)  # raises for unknown sets / cards, wrong sizes
    return kingdom


def plan_tournament(
    bots, players: int, games: int, kingdom, seed: int, max_tables: int
) -> TournamentPlan:
    """The tables ``bots`` (``agents.Bot`` objects with unique names) play: ``kingdom`` as
    returned by ``check_kingdom``. Raises when no table can be played."""
    names = [b.name for b in bots]
    nb = len(bots)
    notes: list[str] = []

    cycle = seat_cycle(players)
    per_table = -(-int(games) // len(cycle)) * len(cycle)
    if per_table != games:
        notes.append(
            f"games per table rounded up from {games} to {per_table} (a multiple of "
            f"{len(cycle)}, so every seating of the cycle plays equally often)"
        )

    plan, sampled = plan_tables(nb, players, max_tables, seed)
    if sampled:
        notes.append(
            f"{math.comb(nb, players):,} possible tables of {players} bots; played "
            f"{len(plan):,} drawn uniformly at random (raise max_tables / --max-tables "
            "to play more)"
        )

    # a table's bots in name order, so its games do not depend on the listing order
    tables: list[TableRecord] = []
    to_play: list[tuple[np.ndarray, TableRecord]] = []
    for combo in plan:
        ids = sorted(combo, key=lambda i: names[i])
        tnames = tuple(names[i] for i in ids)
        rec = TableRecord(tnames, None, table_seed(seed, tnames), per_table)
        if kingdom is None:
            try:
                rec.kingdom = kingdom_for([bots[i] for i in ids])
            except ValueError as e:
                rec.skipped = str(e)
        else:
            rec.kingdom = kingdom
        tables.append(rec)
        if not rec.skipped:
            to_play.append((np.array(ids, np.int64), rec))
    skipped = [t for t in tables if t.skipped]
    if skipped:
        notes.append(
            f"{len(skipped)} table(s) skipped because their bots need more than 10 "
            "kingdom cards between them:"
        )
        notes += [f"  {' vs '.join(t.bots)}: {t.skipped}" for t in skipped[:20]]
        if len(skipped) > 20:
            notes.append(f"  ... and {len(skipped) - 20} more (see tables.csv)")
    if not to_play:
        raise ValueError("no table can be played: " + "; ".join(t.skipped for t in skipped[:5]))
    if kingdom is not None and kingdom != "random":
        have = set(resolve_kingdom(kingdom))
        for b in bots:
            miss = [c for c in b.kingdom_cards() if c not in have]
            if miss:
                notes.append(f"{b.name} names cards not in the kingdom: {', '.join(miss)}")
    return TournamentPlan(cycle, per_table, tables, to_play, sampled, notes)
