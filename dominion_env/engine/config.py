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


def make_setup(players: int, kingdom, pool=None) -> Setup:
    """Setup arrays for a kingdom given as 'random', a recommended-set name or 10 card names."""
    players = check_players(players)
    sizes = np.array([pile_size(n, players) for n in NAMES], dtype=np.int64)
    if isinstance(kingdom, str) and kingdom == "random":
        pool_ids = np.array(sorted(ID[n] for n in check_pool(pool)), dtype=np.int64)
        return Setup(pool_ids[:KINGDOM_SIZE].copy(), pool_ids, 1, sizes)
    if pool is not None:
        raise ValueError(
            f"pool is the cards a random kingdom is drawn from: give it with kingdom='random' "
            f"only (kingdom={kingdom!r} would ignore it), got pool={pool!r}"
        )
    names = resolve_kingdom(kingdom)
    ids = np.array(sorted(ID[n] for n in names), dtype=np.int64)
    return Setup(ids, ids.copy(), 0, sizes)
