"""``dominion train`` and ``dominion evaluate``: argument parsing and printing, nothing else.

The CLI imports this module only when one of these commands runs (it needs torch, the
``train`` extra); the work is done by ``ppo.train`` and ``evaluate.evaluate``.
"""

from __future__ import annotations

import json

from tqdm import tqdm

from ..analysis.executor import add_ray_option, executor_for
from ..engine.kingdoms import kingdom_arg
from ..search import parse_search_name
from .evaluate import EVAL_SEED, evaluate, format_table
from .policy import load_agent
from .ppo import DEFAULT_STEPS, TrainConfig, train

DEFAULT_EVAL = ("Big Money", "Big Money Ultimate", "strongest")


def _opponent_weights(specs) -> dict:
    """['Big Money Ultimate:2', 'self'] -> {'Big Money Ultimate': 2.0, 'self': 1.0}."""
    out = {}
    for spec in specs:
        name, _, weight = spec.rpartition(":") if ":" in spec else (spec, "", "1")
        try:
            out[name] = float(weight)
        except ValueError:
            raise SystemExit(
                f"--opponent {spec!r}: the weight after ':' must be a number"
            ) from None
    return out


def _short(name: str) -> str:
    """'Big Money Ultimate' -> 'BMU' for the progress bar; one-word names as they are."""
    return "".join(w[0] for w in name.split()) if " " in name else name[:12]


def add_train_parser(sub) -> None:
    d = TrainConfig()
    p = sub.add_parser(
        "train",
        help="train an agent (PPO, imitation warm start, opponent pool)",
        description="Train an agent with the defaults that learn (ppo.TrainConfig): gamma 1, "
        "potential-based VP shaping, scaled observations, imitation of a library "
        "bot, then PPO against a weighted pool of bots, saved agents and past "
        "snapshots of itself. Writes agent.pt, checkpoint.pt, progress.csv and "
        "curve.png to --out, then evaluates the agent.",
    )
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="training time budget (default: none, train for --steps)",
    )
    p.add_argument(
        "--steps",
        type=int,
        default=None,
        help=f"learner steps (default {DEFAULT_STEPS:,}, or no limit with --minutes)",
    )
    p.add_argument(
        "--opponent",
        action="append",
        metavar="NAME[:WEIGHT]",
        help="a library bot, 'self' (past snapshots) or an agent file, with an "
        "optional weight; repeat (default: "
        + ", ".join(f"{k}:{v:g}" for k, v in d.opponents.items())
        + ")",
    )
    p.add_argument("--players", type=int, default=d.players)
    p.add_argument(
        "--kingdom",
        default="random",
        help="'random' (per game), a recommended set, or 10 comma-separated cards",
    )
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--num-envs", type=int, default=d.num_envs)
    p.add_argument("--hidden", default=",".join(map(str, d.hidden)))
    p.add_argument("--vp-shaping", type=float, default=d.vp_shaping)
    p.add_argument(
        "--bc-steps",
        type=int,
        default=d.bc_steps,
        help="imitation warm start: expert decisions (0: none)",
    )
    p.add_argument("--expert", default=d.bc_expert, help="the bot imitated first")
    p.add_argument("--out", default=d.out)
    p.add_argument("--name", default=None, help="the agent's name (default: --out's folder)")
    p.add_argument("--resume", action="store_true", help="continue from --out/checkpoint.pt")
    p.add_argument(
        "--eval-games",
        type=int,
        default=1000,
        help="games against each of Big Money and Big Money Ultimate afterwards (0: skip)",
    )
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=run_train)


def run_train(args) -> int:
    from pathlib import Path

    kingdom = kingdom_arg(args.kingdom)
    cfg = TrainConfig(
        steps=args.steps,
        minutes=args.minutes,
        players=args.players,
        kingdom=kingdom,
        opponents=_opponent_weights(args.opponent) if args.opponent else TrainConfig().opponents,
        num_envs=args.num_envs,
        hidden=tuple(int(h) for h in args.hidden.split(",")),
        vp_shaping=args.vp_shaping,
        bc_steps=args.bc_steps,
        bc_expert=args.expert,
        seed=args.seed,
        out=args.out,
        name=args.name or Path(args.out).name,
    )
    total = int(args.minutes * 60) if args.minutes else (cfg.steps or DEFAULT_STEPS)
    unit = "s" if args.minutes else "step"
    timed = "{l_bar}{bar}| {n_fmt}/{total_fmt} s [{elapsed}<{remaining}{postfix}]"
    with tqdm(
        total=total,
        unit=unit,
        desc="training",
        disable=args.quiet,
        unit_scale=not args.minutes,
        bar_format=timed if args.minutes else None,
    ) as bar:

        def progress(steps_done, trainer):
            bar.update(min(total, int(trainer.seconds)) - bar.n if args.minutes else steps_done)
            row = next((h for h in reversed(trainer.history) if "steps" in h), None)
            if row:  # the true win rates of the latest training games
                bar.set_postfix(
                    {_short(k[9:-1]): v for k, v in row.items() if k.startswith("win_rate[")},
                    refresh=False,
                )

        try:
            trainer = train(cfg, progress=progress, resume=args.resume)
        except (ValueError, TypeError, NotImplementedError) as e:
            raise SystemExit(str(e)) from None
    paths = trainer.save()
    print(
        f"\ntrained {trainer.steps} learner steps in {trainer.seconds / 60:.1f} min; "
        f"wrote {', '.join(str(p) for p in paths.values())}"
    )
    if args.eval_games:
        rows = evaluate(
            load_agent(paths["agent"]),
            list(DEFAULT_EVAL),
            games=args.eval_games,
            players=args.players,
            kingdom=kingdom,
        )
        print(
            f"\n{trainer.cfg.name} on {args.eval_games} unseen games per opponent "
            f"(greedy play, {kingdom if isinstance(kingdom, str) else 'fixed'} kingdoms):"
        )
        print(format_table(rows))
    return 0


def add_evaluate_parser(sub) -> None:
    p = sub.add_parser(
        "evaluate",
        help="an agent against library bots: W/T/L with 95%% CIs",
        description="Play an agent (a saved .pt file or a shipped agent's name) "
        "against bots on seeds training never used.",
    )
    p.add_argument(
        "agent",
        help="an agent file, a shipped agent or search[:N] (see: dominion bots)",
    )
    p.add_argument(
        "--opponent",
        action="append",
        metavar="BOT",
        help="a library bot; repeat (default: Big Money, Big Money Ultimate)",
    )
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--kingdom", default="random")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=EVAL_SEED)
    p.add_argument("--json", action="store_true", help="one JSON object per opponent per line")
    add_ray_option(p)
    p.set_defaults(run=run_evaluate)


def run_evaluate(args) -> int:
    kingdom = kingdom_arg(args.kingdom)
    try:
        agent = parse_search_name(args.agent, seed=args.seed) or load_agent(args.agent)
        rows = evaluate(
            agent,
            args.opponent or list(DEFAULT_EVAL),
            games=args.games,
            players=args.players,
            kingdom=kingdom,
            seed=args.seed,
            map=executor_for(args.ray),
        )
    except (ValueError, TypeError, NotImplementedError, ImportError) as e:
        raise SystemExit(str(e)) from None
    if args.json:
        for r in rows:
            print(json.dumps(r))
    else:
        print(
            f"{agent.name}: {args.games} games per opponent, {args.players} players, "
            f"kingdom {args.kingdom}, seed {args.seed}"
        )
        print(format_table(rows))
    return 0
