"""``dominion bots``, ``cards`` and ``kingdoms``: what there is to play with, listed."""

from __future__ import annotations

from ..agents import BOTS
from ..cards import COST, NAMES, SETS, TABLE, types_of
from ..engine.kingdoms import RECOMMENDED, is_implemented
from ..players import trained_agents
from ..search import DEFAULT_BUDGET, DEFAULT_EXTEND, DEFAULT_GUIDED_BUDGET, GUIDED_FORM


def _rules(bot) -> str:
    if bot.random:
        return "uniform random"
    return " > ".join(
        r if isinstance(r, str) else f"{r[0]} if {' and '.join(r[1:])}" for r in bot.rules
    )


def run_bots(args) -> int:
    for b in BOTS.values():
        print(f"{b.name:<22} {_rules(b)}\n{'':<22} ({b.source})")
    print(
        f"{'search[:N]':<22} search player: at most N simulations per decision (default "
        f"{DEFAULT_BUDGET}; up to {DEFAULT_EXTEND:g} x N more on close calls), library bots "
        f"as rollouts\n"
        f"{'':<22} (dominion_env.search; "
        "plays anywhere a bot goes: simulate, tournament, evaluate, play, the Gymnasium env)"
    )
    print(
        f"{GUIDED_FORM:<22} search guided by trained agent AGENT (its policy as the prior, "
        f"its value at the\n{'':<22} leaves; at most N simulations per decision, e.g. "
        f"search:ppo-pool:{DEFAULT_GUIDED_BUDGET};\n{'':<22} the train extra; plays where "
        "search does)"
    )
    agents, load_agent = trained_agents()
    for name in agents:
        info = load_agent(name).info
        trained = info.trained
        print(
            f"{name:<22} trained agent ({info.players} players; "
            f"{trained.get('steps', 0):,} learner steps, "
            f"{trained.get('minutes', 0):.0f} min): play it with its name anywhere "
            f"a bot goes in simulate, tournament and evaluate"
        )
    return 0


def run_cards(args) -> int:
    for i, n in enumerate(NAMES):
        mark = "" if is_implemented(n) else "  (effect not implemented yet)"
        print(f"{i:>3} {n:<16} {SETS[i]:<10} ${TABLE[i, COST]}  {', '.join(types_of(n))}{mark}")
    return 0


def run_kingdoms(args) -> int:
    for name, cards in RECOMMENDED.items():
        print(f"{name:<16} {', '.join(cards)}")
    return 0


def add_parsers(sub) -> None:
    for name, fn, text in (
        ("bots", run_bots, "list the named bots and the shipped trained agents"),
        ("cards", run_cards, "list the card table"),
        ("kingdoms", run_kingdoms, "list the recommended kingdoms"),
    ):
        sub.add_parser(name, help=text, description=text).set_defaults(run=fn)
