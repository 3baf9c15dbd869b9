"""Audit N random games with the engine's invariant checker, over every setting it has.

    python bench/audit.py --games 1000000 [--seed 0] [--threads 2] [--json]

Each game is played by uniformly random legal actions and checked at every decision by
``dominion_env.engine.audit`` (card conservation, non-empty masks, a real decider, no negative
count, the game ends, rewards of the documented shape; its docstring says exactly what). The
games are spread evenly over the settings grid below, so a run of at least ``len(plan())``
games (a few thousand) covers all of it:

* players 2, 3, 4, 5, 6;
* kingdom: "random" (every game draws its own from all 57 kingdom cards), each recommended
  set, and ``COVER``: six fixed kingdoms that between them hold every kingdom card, so all 64
  cards (the 7 basic cards are in every game) appear whatever the random draws;
* treasures auto-played or each one a decision (``autoplay_treasures``), single-action
  decisions auto-resolved or not (``auto_resolve``);
* the first player random per game or seat 0 (``first_player``);
* a turn limit of 60 turns per player (nearly every random game ends by the rules) or 8 (most
  are truncated: the truncation path and its rewards).

It prints the games, decisions, terminated/truncated games, every check's violating games and
states, the rate (games/s, decisions/s, compilation excluded) and what 10M games would take at
that rate. Exit status 1 on any violation, with the settings and game indices to replay (game
i of a setting is row i of ``VecGame(..., autoreset=False)`` reset with that setting's seed and
stepped with ``random_actions()``; see ``engine/audit.py``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time

import numba

from dominion_env.cards import BASIC, KINGDOM_SIZE, NAMES
from dominion_env.engine.audit import CHECK_NAMES, audit
from dominion_env.engine.kingdoms import RECOMMENDED, playable_kingdom_cards


def _cover() -> list[list[str]]:
    """Fixed kingdoms holding every playable kingdom card: consecutive runs of 10, the last
    one filled up from the start."""
    cards = list(playable_kingdom_cards())
    out = []
    for i in range(0, len(cards), KINGDOM_SIZE):
        k = cards[i : i + KINGDOM_SIZE]
        k += [c for c in cards if c not in k][: KINGDOM_SIZE - len(k)]
        out.append(k)
    return out


COVER = _cover()
PLAYERS = (2, 3, 4, 5, 6)
KINGDOMS = ["random", *RECOMMENDED, *COVER]
FLAGS = (True, False)
FIRST_PLAYER = (None, 0)
TURN_LIMITS = (60, 8)


def plan() -> list[dict]:
    """Every setting of the grid, as ``audit`` keyword arguments (see the module docstring)."""
    return [
        dict(
            players=p,
            kingdom=k,
            autoplay_treasures=a,
            auto_resolve=r,
            first_player=f,
            turn_limit=t,
        )
        for p, k, a, r, f, t in itertools.product(
            PLAYERS, KINGDOMS, FLAGS, FLAGS, FIRST_PLAYER, TURN_LIMITS
        )
    ]


def cards_covered(settings: list[dict]) -> set[str]:
    """The cards that can appear in games of these settings."""
    out = set(BASIC)
    for s in settings:
        k = s["kingdom"]
        if isinstance(k, str):
            k = playable_kingdom_cards() if k == "random" else RECOMMENDED[k]
        out |= set(k)
    return out


def run(games: int, seed: int = 0) -> dict:
    """Audit ``games`` games spread evenly over ``plan()``; setting i plays the run seeded
    ``seed + i``. Returns the totals, the per-check counts and the failing settings."""
    settings = plan()
    per = [games // len(settings) + (i < games % len(settings)) for i in range(len(settings))]
    used = [s for s, n in zip(settings, per, strict=True) if n]
    audit(2, seed=seed)  # compile (or load the cache) outside the timing
    total = {"games": 0, "decisions": 0, "terminated": 0, "truncated": 0, "seconds": 0.0}
    games_failing = dict.fromkeys(CHECK_NAMES, 0)
    states_failing = dict.fromkeys(CHECK_NAMES, 0)
    failures = []
    for i, (s, n) in enumerate(zip(settings, per, strict=True)):
        if not n:
            continue
        r = audit(n, seed=seed + i, **s)
        for k in total:
            total[k] += r[k]
        for name in CHECK_NAMES:
            games_failing[name] += r["violating_games"][name]
            states_failing[name] += r["violating_states"][name]
        if not r["ok"]:
            failures.append({"setting": s, "seed": seed + i, "bad_games": r["bad_games"]})
    sec = total["seconds"]
    return {
        **total,
        "settings": len(used),
        "of_settings": len(settings),
        "cards_covered": len(cards_covered(used)),
        "violating_games": games_failing,
        "violating_states": states_failing,
        "violations": sum(states_failing.values()),
        "failures": failures,
        "threads": numba.get_num_threads(),
        "games_per_second": total["games"] / sec if sec else float("inf"),
        "decisions_per_second": total["decisions"] / sec if sec else float("inf"),
        "hours_for_10M_games": 1e7 / (total["games"] / sec) / 3600 if sec else 0.0,
    }


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is out of range; allowed: 1 or more")
    return value


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=_positive, default=100_000, help="games to audit")
    p.add_argument("--seed", type=int, default=0, help="setting i plays the run seeded seed+i")
    p.add_argument("--threads", type=_positive, default=None, help="Numba threads (default all)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.games = min(args.games, 2_000)
    if args.threads:
        if args.threads > numba.config.NUMBA_NUM_THREADS:
            p.error(f"argument --threads: at most {numba.config.NUMBA_NUM_THREADS} on this machine")
        numba.set_num_threads(args.threads)
    t0 = time.perf_counter()
    r = run(args.games, args.seed)
    wall = time.perf_counter() - t0
    if args.json:
        print(json.dumps(r, indent=1, default=str))
    else:
        print(
            f"{r['games']:,} games over {r['settings']} of {r['of_settings']} settings "
            f"({r['cards_covered']} of {len(NAMES)} cards can appear), {r['threads']} threads\n"
            f"{r['decisions']:,} decisions; {r['terminated']:,} ended by the rules, "
            f"{r['truncated']:,} by the turn limit\n"
            f"violations: {r['violations']:,} states"
        )
        for name in CHECK_NAMES:
            print(
                f"  {name:<13} {r['violating_games'][name]:>8,} games "
                f"{r['violating_states'][name]:>10,} states"
            )
        print(
            f"rate: {r['games_per_second']:,.0f} games/s, {r['decisions_per_second']:,.0f} "
            f"decisions/s (audit kernels only; {wall:.1f} s wall with setup and compile)\n"
            f"10M games at this rate: {r['hours_for_10M_games']:.2f} h"
        )
        for f in r["failures"][:10]:
            print(f"FAILED {f['setting']} seed {f['seed']}: games {f['bad_games']}")
    return 1 if r["violations"] or r["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
