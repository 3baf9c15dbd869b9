"""``dominion simulate``: bots (or trained agents, or the search) against each other, the
seats rotated one per game; win/tie/loss rates with 95% Wilson intervals, optionally written
as CSV or JSON (``--out``) and as game records (``--save-games``)."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

from tqdm import tqdm

from .. import records
from ..agents import compile_bots, kingdom_for
from ..analysis.arena import MAX_GAMES, play_games, record_games, summarize
from ..analysis.executor import add_ray_option
from ..analysis.mixed import is_policy, play_mixed
from ..analysis.report import ci_fields
from ..arguments import check_kingdom_option
from ..engine.kingdoms import kingdom_arg
from ..names import printable
from .options import (
    add_match_options,
    add_quiet,
    add_save_games,
    check_out_file,
    check_save_games,
    executor,
    resolve_players,
    wrote_records,
)

FORMATS = (".csv", ".json")


def add_parser(sub) -> None:
    sim = sub.add_parser(
        "simulate",
        help="play bots against each other in compiled code",
        description="Play bots (or trained agents) against each other. The bots fill the seats "
        "in the order given, repeated when there are fewer bots than players, rotated one seat "
        "per game so every bot sits in every seat equally often. One bot plays a mirror: "
        "every seat is that bot (the output says so). Seat 0 starts.",
    )
    sim.add_argument(
        "bots",
        nargs="+",
        help="bot names (ignoring case; see: dominion bots) or trained agents: a shipped "
        "agent's name or an agent file (.safetensors)",
    )
    add_match_options(
        sim,
        games=100_000,
        games_help=f"1 to {MAX_GAMES:,}",
        bots_kingdom="a kingdom holding every card the bots name",
    )
    sim.add_argument(
        "--out",
        metavar="FILE",
        help="also write the results to FILE: CSV (FILE.csv, one row per bot) or JSON "
        "(FILE.json, the run's settings and one object per bot)",
    )
    add_quiet(sim)
    add_save_games(sim, "the first N games of the run")
    add_ray_option(sim)
    sim.set_defaults(run=run, check=check, parser=sim)


def check(args) -> None:
    if len(args.bots) > args.players:
        args.parser.error(
            f"{len(args.bots)} bots do not fit at a {args.players}-player table "
            "(--players is 2 to 6)"
        )
    check_kingdom_option(args)
    fixed = None if args.kingdom == "bots" else kingdom_arg(args.kingdom)
    players = resolve_players(args, args.bots, kingdom=fixed)
    args.players_resolved = players
    bots = [p for p in players if not is_policy(p)]
    try:
        args.kingdom_value = (
            kingdom_for(bots) if args.kingdom == "bots" else kingdom_arg(args.kingdom)
        )
    except ValueError as e:  # the bots name more than 10 kingdom cards between them
        args.parser.error(str(e))
    check_out_file(args, FORMATS, "(the format follows the extension)")
    check_save_games(args)
    if args.save_games and len(bots) != len(players):
        args.parser.error(
            "argument --save-games: records are kept of bot games only: a table with a trained "
            "agent is played in batches that a record does not re-play decision by decision"
        )


def seating(names: list[str], players: int) -> str:
    """How ``arena.seat_rotation`` seats ``names`` at a ``players`` table, in words."""
    if len(names) == 1:
        return f"mirror: {names[0]} in all {players} seats"
    per_game = [names[s % len(names)] for s in range(players)]
    return f"seats {', '.join(per_game)}, rotated one seat per game"


def run(args) -> int:
    players = args.players_resolved
    names = [p.name if not is_policy(p) else n for p, n in zip(players, args.bots, strict=True)]
    bots = [p for p in players if not is_policy(p)]
    table = compile_bots(bots) if len(bots) == len(players) else None
    if args.ray is not None and table is None:
        raise SystemExit("--ray plays bot-only matches; a trained agent's games play here")
    start = time.perf_counter()
    res = _play(args, table, players)
    elapsed = time.perf_counter() - start
    if args.save_games:
        _save_games(args, table, names, res)
    rows = summarize(res, names)
    _print_results(args, names, rows, res)
    print(f"{args.games / elapsed:,.0f} games/s including compilation ({elapsed:.1f} s)")
    if args.out:
        run = {
            "games": args.games,
            "players": args.players,
            "kingdom": args.kingdom_value,
            "seed": args.seed,
            "turn_limit": args.turn_limit,
            "seating": seating(names, args.players),
            "mean_turns_per_player": float((res.turns / args.players).mean()),
        }
        write_results(args.out, run, rows)
        print(f"wrote {args.out}")
    return 0


def _play(args, table, players):
    """The run's games: compiled bots only (``table``), else policies answering their seats."""
    work = executor(args)
    kingdom = args.kingdom_value
    with tqdm(total=args.games, unit="game", desc="simulating", disable=args.quiet) as bar:
        run = dict(seed=args.seed, turn_limit=args.turn_limit, progress=bar.update)
        try:
            if table is not None:
                return play_games(table, args.games, args.players, kingdom, **run, map=work)
            return play_mixed(players, args.games, args.players, kingdom, **run)
        except (ValueError, NotImplementedError) as e:  # e.g. an agent trained for 2 players
            args.parser.error(str(e))


def _save_games(args, table, names, res) -> None:
    n, folder = args.save_games
    recs = record_games(
        table,
        names,
        res,
        range(min(n, args.games)),
        args.players,
        args.kingdom_value,
        seed=args.seed,
        turn_limit=args.turn_limit,
        meta={"command": "simulate", "games": args.games},
    )
    for rec in recs:
        records.save(rec, Path(folder) / f"game{rec['meta']['game']:05d}.json")
    wrote_records(len(recs), folder)


def _print_results(args, names, rows, res) -> None:
    kingdom = args.kingdom_value
    shown = ", ".join(kingdom) if isinstance(kingdom, list) else repr(kingdom)
    print(
        f"\n{args.games} games, {args.players} players, kingdom {shown}, seed {args.seed}\n"
        f"{printable(seating(names, args.players))}; seat 0 starts"
    )
    head = f"{'bot':<24}{'wins':>24}{'ties':>24}{'losses':>24}{'trunc.':>8}"
    print(head)
    print("-" * len(head))
    for r in rows:

        def cell(k, ci, r=r):
            return f"{r[k] / r['games']:7.2%} [{ci[0]:6.2%},{ci[1]:6.2%}]"

        print(
            f"{printable(r['bot']):<24}{cell('wins', r['win_ci']):>24}"
            f"{cell('ties', r['tie_ci']):>24}{cell('losses', r['loss_ci']):>24}{r['truncated']:>8}"
        )
    per_player = res.turns / args.players
    print(
        f"\nmean game length: {per_player.mean():.2f} turns per player "
        f"(sd {per_player.std():.2f}); [lo, hi] = 95% Wilson intervals"
    )


def write_results(path, run: dict, rows: list[dict]) -> None:
    """``simulate``'s results: JSON ({run settings, "bots": rows}) or CSV (one row per bot,
    the settings repeated on each), by the file's extension."""
    flat = []
    for r in rows:
        row = {k: v for k, v in r.items() if not k.endswith("_ci")}
        for k in ("win", "tie", "loss"):
            row.update(ci_fields(k, r[f"{k}_ci"]))
        flat.append(row)
    path = Path(path)
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps({**run, "bots": flat}, indent=1) + "\n")
        return
    kingdom = run["kingdom"]
    settings = {**run, "kingdom": ", ".join(kingdom) if isinstance(kingdom, list) else kingdom}
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=[*flat[0], *settings])
        w.writeheader()
        w.writerows({**row, **settings} for row in flat)
