"""The two things every batch of games is built from, each built in one place.

``make_config``: the per-batch rules options the kernels read (``layout.Config``), arguments
checked. ``make_setup``: how each new game is dealt (``batch.Setup``): the kingdom or the pool
random kingdoms are drawn from, and the Supply pile sizes for the player count. VecGame, Game,
the arena, tournaments and the audit all call these, so their defaults cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from ..cards import ID, KINGDOM_SIZE, NAMES, check_players, pile_size
from .batch import Setup
from .kingdoms import check_pool, resolve_kingdom
from .layout import Config, new_log


def _flag(name, value) -> int:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return int(value)


def make_config(
    players: int,
    *,
    autoplay_treasures: bool = True,
    auto_resolve: bool = True,
    turn_limit: int = 100,
    first_player: int | None = None,
    log: bool = False,
    public_discards: bool = False,
    shared_stream: bool = False,
) -> Config:
    """The kernels' settings for ``players`` players; every argument checked, named in errors.
    ``shared_stream=True`` shuffles every seat from the game's stream, as engines v5-v7 did:
    for replaying their records (``Game.replay``) and measuring what the seat streams change
    (``bench/bench_streams.py``); the faces do not offer it."""
    players = check_players(players)
    if (
        isinstance(turn_limit, bool)
        or not isinstance(turn_limit, (int, np.integer))
        or turn_limit < 1
    ):
        raise ValueError(f"turn_limit must be a positive int, got {turn_limit!r}")
    if first_player is not None and (
        isinstance(first_player, bool)
        or not (isinstance(first_player, (int, np.integer)) and 0 <= first_player < players)
    ):
        raise ValueError(f"first_player must be None or 0..{players - 1}, got {first_player!r}")
    log = _flag("log", log)
    return Config(
        players=players,
        autoplay_treasures=_flag("autoplay_treasures", autoplay_treasures),
        auto_resolve=_flag("auto_resolve", auto_resolve),
        turn_limit=int(turn_limit),
        log=log,
        first_player=-1 if first_player is None else int(first_player),
        log_buf=new_log(bool(log)),
        public_discards=_flag("public_discards", public_discards),
        shared_stream=_flag("shared_stream", shared_stream),
    )


RANDOM_ROW = -1  # Setup.row_kingdom: the row's every game draws its own kingdom from the pool


def make_setup(players: int, kingdom, pool=None) -> Setup:
    """Setup arrays for one kingdom for every row: 'random', a recommended-set name or 10 card
    names."""
    return make_row_setup(players, [kingdom], pool, "kingdom")


def make_row_setup(players: int, kingdoms, pool=None, name: str = "row_kingdoms") -> Setup:
    """Setup arrays for a mixed batch: row g's kingdom is ``kingdoms[g]`` ('random', a
    recommended-set name or 10 card names; a sequence of one: every row). Equal kingdoms
    share one entry of the table, so a batch of thousands of rows over a few kingdoms holds
    a few."""
    players = check_players(players)
    sizes = np.array([pile_size(n, players) for n in NAMES], dtype=np.int64)
    if isinstance(kingdoms, (str, bytes)) or not hasattr(kingdoms, "__len__") or not len(kingdoms):
        raise TypeError(
            f"{name} must be a non-empty sequence of kingdoms (each 'random', a recommended "
            f"set's name or {KINGDOM_SIZE} card names), got {kingdoms!r}"
        )
    table: dict[tuple[int, ...], int] = {}
    rows = np.empty(len(kingdoms), np.int64)
    by_value: dict = {}  # a kingdom given as the same hashable value is resolved once
    for g, kingdom in enumerate(kingdoms):
        key = kingdom if isinstance(kingdom, (str, tuple)) else None
        if key is not None and key in by_value:
            rows[g] = by_value[key]
            continue
        if isinstance(kingdom, str) and kingdom == "random":
            q = RANDOM_ROW
        else:
            try:
                names = resolve_kingdom(kingdom)
            except (TypeError, ValueError) as e:
                if name == "kingdom":  # one kingdom: resolve_kingdom's message names it
                    raise
                raise type(e)(f"{name}[{g}]: {e}") from None
            q = table.setdefault(tuple(sorted(ID[n] for n in names)), len(table))
        rows[g] = q
        if key is not None:
            by_value[key] = q
    random_rows = bool((rows == RANDOM_ROW).any())
    if pool is not None and not random_rows:
        shown = kingdoms[0] if name == "kingdom" else "no 'random' row"
        raise ValueError(
            f"pool is the cards a random kingdom is drawn from: give it with kingdom='random' "
            f"only ({name}={shown!r} would ignore it), got pool={pool!r}"
        )
    pool_ids = (
        np.array(sorted(ID[n] for n in check_pool(pool)), dtype=np.int64)
        if random_rows
        else np.array(sorted({c for k in table for c in k}), dtype=np.int64)
    )
    fixed = np.array(list(table), dtype=np.int64).reshape(-1, KINGDOM_SIZE)
    if not len(fixed):  # no fixed kingdom: one placeholder row no game reads
        fixed = pool_ids[None, :KINGDOM_SIZE].copy()
    return Setup(fixed, rows, pool_ids, sizes)


def row_kingdom_ids(setup: Setup, g: int):
    """Row g's kingdom as sorted card ids, or None where its games draw random kingdoms."""
    q = int(setup.row_kingdom[g if len(setup.row_kingdom) > 1 else 0])
    return None if q == RANDOM_ROW else setup.kingdoms[q]
