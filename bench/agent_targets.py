"""The 2-player scorecard: an agent against each of the project's targets, on seeds
training never used (training draws its seeds below 10**8).

    python bench/agent_targets.py ppo-pool                              # every section
    python bench/agent_targets.py ppo-pool --games 400 --sections bots engines
    python bench/agent_targets.py runs/my_agent/agent.pt --kingdoms 4 --minutes 0.5
    python bench/agent_targets.py ppo-pool --sections optimizer --generations 200  # repeatable

AGENT is what ``dominion evaluate`` takes: a shipped agent's name, an agent file or
``search[:N]``. Every section prints its figures, each with a 95% Wilson interval, the target
and "met" or "not met"; a summary of the targets ends the run. A win is a sole win (a shared
win is a tie, counted apart). ``--games`` (default 4,000) is the games behind each figure.

1. ``bots``: ``train.evaluate.evaluate`` (the code of ``dominion evaluate``) against Big Money,
   Big Money Ultimate and ``strongest`` (on each random kingdom, ten games each, the strongest
   library bot whose cards are in it), ``--games`` each on ``--seed`` (default
   ``EVAL_SEED``: the figures are ``dominion evaluate AGENT --games N``'s). Targets 97%, 90%,
   75%. The agent's buys per game against each follow.
2. ``h2h``: head to head against every library bot, each on ``agents.kingdom_for`` its cards
   (the kingdom ``dominion tournament`` gives the table), ``--games`` games per bot with the
   seats alternating: the agent's table rows of section 3's tournament (one run serves both),
   sorted by win rate. Target: at least 60% against every bot; the count at 60% or more.
3. ``tournament``: ``analysis.tournament.run_tournament`` over the agent and every library
   bot, ``--games`` per table, seed ``--seed``: the games of ``dominion tournament --all AGENT
   --games N --seed S``. The agent's rank by overall score (wins + ties / 2 against the whole
   field, the tournament report's "score") and by Elo, with the five best by score. Target:
   first by score.
4. ``optimizer``: on ``--kingdoms`` K random kingdoms (``random_kingdom(seed + 3,000,000 +
   k)``), ``analysis.optimize.optimize`` searches ``--minutes`` M of wall time per kingdom (a
   budget of K x M minutes, printed), or ``--generations`` G (the same bots on any machine,
   however loaded), for a bot; the agent plays it ``--games`` / K games per kingdom
   (``evaluate`` on that kingdom). Beside each kingdom's figure: the generations run and the
   found bot's own win rate against the kingdom's strongest library bot (the optimizer's
   record, ``Result.against_strongest``, over the kingdom's games or at least 100), which
   says how strong an opponent the search found. The figure pools the K kingdoms. Target: 50%.
5. ``engines``: the library bots that are engines (they name a village, a card giving +2
   Actions: the card table's +Actions column, as the engine's default play reads it, or
   Nobles by its choice; and draw, +2 Cards or more: the +Cards column, or Library and Nobles
   by their effect) and beat Big Money Ultimate on their kingdom (more wins than losses in
   ``--games`` games, ``optimize.judge``); for each, the agent's record against it on that kingdom
   (``evaluate``, ``--games`` games) and the agent's mean buys per game there (the top cards).
   No target: a report of what it plays. The library's bots are money-first; the ones
   that pass the test are listed with what they name.

Each section draws its own seeds from ``--seed`` (section s from seed + (s - 1) x 1,000,000;
the tournament hashes it with each table's bots), so no two sections replay each other's
games. Only 2-player agents: the targets are the 2-player agent's.
"""

from __future__ import annotations

import argparse
import sys
import time

from dominion_env.agents import BOTS, get_bot, kingdom_for
from dominion_env.analysis.arena import wilson
from dominion_env.analysis.optimize import MAX_GENERATIONS, judge, optimize
from dominion_env.analysis.tournament import run_tournament
from dominion_env.arguments import GAMES, int_in, number_in
from dominion_env.cards import ID, KINGDOM, PLUS_ACTIONS, PLUS_CARDS, TABLE
from dominion_env.checks import MAX_SEED
from dominion_env.engine.kingdoms import random_kingdom
from dominion_env.search import parse_search_name
from dominion_env.train.evaluate import EVAL_SEED, STRONGEST, evaluate
from dominion_env.train.policy import load_agent

SECTIONS = ("bots", "h2h", "tournament", "optimizer", "engines")
BOT_TARGETS = (("Big Money", 0.97), ("Big Money Ultimate", 0.90), (STRONGEST, 0.75))
H2H_TARGET = 0.60
OPTIMIZER_TARGET = 0.50
SEED_STEP = 1_000_000  # section s plays on seed + s * SEED_STEP (evaluate adds chunk numbers)
TOP_BUYS = 6

# the +2 Actions of Nobles and the draw of Library and Nobles come from their effects, not
# from the card table's vanilla columns
VILLAGES = frozenset(n for n in KINGDOM if TABLE[ID[n], PLUS_ACTIONS] >= 2) | {"Nobles"}
DRAW = frozenset(n for n in KINGDOM if TABLE[ID[n], PLUS_CARDS] >= 2) | {"Library", "Nobles"}


def engine_bots() -> list:
    """Library bots naming a village and a draw card (the module docstring), library order."""
    return [
        b
        for b in BOTS.values()
        if VILLAGES & set(b.kingdom_cards()) and DRAW & set(b.kingdom_cards())
    ]


def verdict(value: float, target: float) -> str:
    return "met" if value >= target else "not met"


def ci_text(wins: float, games: int) -> str:
    lo, hi = wilson(wins, games)
    return f"{wins / games:6.1%} [{lo:5.1%}, {hi:5.1%}]"


def buys_text(row: dict) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in list(row["buys_per_game"].items())[:TOP_BUYS])


class Scorecard:
    """The sections' figures; ``summary`` collects (target, figure, met) lines as they come."""

    def __init__(self, agent, games: int, seed: int, kingdoms: int, minutes, generations=None):
        self.agent, self.games, self.seed = agent, games, seed
        # the optimizer's budget per kingdom: generations when given, else minutes
        self.kingdoms, self.minutes, self.generations = kingdoms, minutes, generations
        self.summary: list[tuple[str, str, str]] = []
        self._tournament = None

    def tournament(self):
        """The all-bots tournament (sections 2 and 3 share it)."""
        if self._tournament is None:
            self._tournament = run_tournament(
                [self.agent, *BOTS.values()], self.games, 2, None, self.seed
            )
        return self._tournament

    def bots(self) -> None:
        print(
            f"== 1. against Big Money, Big Money Ultimate and the strongest library bot per "
            f"random kingdom ({self.games:,} games each, seed {self.seed})"
        )
        names = [name for name, _ in BOT_TARGETS]
        rows = evaluate(self.agent, names, games=self.games, seed=self.seed)
        print(f"{'opponent':<22}{'win rate [95% CI]':>24}{'ties':>6}{'target':>8}  met")
        for (name, target), r in zip(BOT_TARGETS, rows, strict=True):
            met = verdict(r["win_rate"], target)
            print(
                f"{name:<22}{ci_text(r['wins'], r['games']):>24}{r['ties']:>6}{target:>8.0%}  {met}"
            )
            label = "the strongest bot per kingdom" if name == STRONGEST else name
            self.summary.append((f"{target:.0%} against {label}", f"{r['win_rate']:.1%}", met))
        for r in rows:
            print(f"buys per game vs {r['opponent']}: {buys_text(r)}")

    def h2h(self) -> None:
        res = self.tournament()
        me = res.index(self.agent.name)
        print(
            f"== 2. head to head against every library bot on its own kingdom "
            f"({res.games_per_table:,} games per bot, seats alternating, tournament seed "
            f"{self.seed})"
        )
        rows = []
        for j, name in enumerate(res.names):
            if j == me or not res.games[me, j]:
                continue
            g, w, t = int(res.games[me, j]), int(res.wins[me, j]), int(res.ties[me, j])
            rows.append((w / g, name, g, w, t, g - w - t))
        rows.sort(key=lambda r: (-r[0], r[1]))
        print(f"{'bot':<22}{'cards':<28}{'win rate [95% CI]':>24}{'ties':>6}{'losses':>8}")
        for rate, name, g, w, t, lost in rows:
            cards = ", ".join(BOTS[name].kingdom_cards()) or "-"
            mark = "" if rate >= H2H_TARGET else "  below 60%"
            print(f"{name:<22}{cards[:27]:<28}{ci_text(w, g):>24}{t:>6}{lost:>8}{mark}")
        at = sum(r[0] >= H2H_TARGET for r in rows)
        met = "met" if at == len(rows) else "not met"
        lowest = min(rows)
        print(
            f"at 60% or more: {at} of {len(rows)} bots; lowest {lowest[0]:.1%} against "
            f"{lowest[1]}; target: every bot at 60% or more: {met}"
        )
        skipped = [t for t in res.tables if t.skipped and self.agent.name in t.bots]
        if skipped:
            print(f"tables not played: {'; '.join(t.skipped for t in skipped)}")
        self.summary.append(
            ("60% head to head against every library bot", f"{at} of {len(rows)} bots", met)
        )

    def tournament_rank(self) -> None:
        res = self.tournament()
        me = res.index(self.agent.name)
        overall = res.overall
        by_score = sorted(range(len(res.names)), key=lambda i: -overall[i])
        rank = 1 + sum(overall[i] > overall[me] for i in range(len(res.names)))
        elo_rank = 1 + res.order.index(me)
        print(
            f"== 3. the all-bots tournament (dominion tournament --all AGENT --games "
            f"{self.games} --seed {self.seed}: {len(res.names)} players, "
            f"{res.total_games:,} games in {res.elapsed:.0f} s)"
        )
        print(f"{'rank':>4}  {'player':<22}{'score [95% CI]':>24}{'elo':>7}")
        for place, i in enumerate(by_score[:5], 1):
            lo, hi = res.overall_ci(i)
            text = f"{overall[i]:6.1%} [{lo:5.1%}, {hi:5.1%}]"
            print(f"{place:>4}  {res.names[i]:<22}{text:>24}{res.elo[i]:>7.0f}")
        lo, hi = res.overall_ci(me)
        met = "met" if rank == 1 else "not met"
        print(
            f"{self.agent.name}: rank {rank} of {len(res.names)} by score "
            f"({overall[me]:.1%} [{lo:.1%}, {hi:.1%}]), {elo_rank} by Elo; target: first by "
            f"score: {met}"
        )
        self.summary.append(("first by score in the all-bots tournament", f"rank {rank}", met))

    def optimizer(self) -> None:
        base = self.seed + 3 * SEED_STEP
        per = [
            self.games // self.kingdoms + (k < self.games % self.kingdoms)
            for k in range(self.kingdoms)
        ]
        if self.generations is None:
            minutes = self.minutes
            budget = f"{minutes:g} min each, a budget of {self.kingdoms * minutes:g} min"
        else:
            minutes = None
            budget = f"{self.generations} generations each"
        print(
            f"== 4. against the optimizer's bot on {self.kingdoms} random kingdoms "
            f"(optimize: {budget}; {self.games:,} games in all)"
        )
        print(
            f"{'kingdom seed':<14}{'strongest':<22}{'gens':>5}{'bot vs it':>10}"
            f"{'agent vs bot [95% CI]':>24}{'ties':>6}"
        )
        wins = 0
        for k, n in enumerate(per):
            kingdom = list(random_kingdom(base + k))
            found = optimize(
                kingdom, 2, minutes, base + k, generations=self.generations, judge_games=max(n, 100)
            )
            (r,) = evaluate(self.agent, [found.best], games=n, kingdom=kingdom, seed=base + k)
            wins += r["wins"]
            print(
                f"{base + k:<14}{found.strongest:<22}{found.generations:>5}"
                f"{found.against_strongest()['win_rate']:>10.1%}"
                f"{ci_text(r['wins'], n):>24}{r['ties']:>6}"
            )
            print(f"  {', '.join(kingdom)}")
        rate = wins / self.games
        met = verdict(rate, OPTIMIZER_TARGET)
        print(
            f"pooled: {ci_text(wins, self.games).strip()} over {self.games:,} games; target "
            f"50%: {met}"
        )
        self.summary.append(("50% against the optimizer's bot", f"{rate:.1%}", met))

    def engines(self) -> None:
        base = self.seed + 4 * SEED_STEP
        bmu = get_bot("Big Money Ultimate")
        found = engine_bots()
        print(
            f"== 5. engine bots (a village and draw) that beat Big Money Ultimate on their "
            f"kingdom ({self.games:,} games per figure)"
        )
        print(f"library bots with a village and draw: {', '.join(b.name for b in found)}")
        shown = 0
        for i, bot in enumerate(found):
            kingdom = kingdom_for([bot])
            (vs_bmu,) = judge(bot, [bmu], kingdom, 2, self.games, base + 2 * i)
            line = f"{bot.name} ({', '.join(bot.kingdom_cards())}) vs BMU: "
            line += ci_text(vs_bmu["wins"], vs_bmu["games"]).strip()
            if vs_bmu["wins"] <= vs_bmu["losses"]:
                print(line + ": does not beat it, left out")
                continue
            shown += 1
            (r,) = evaluate(
                self.agent, [bot.name], self.games, kingdom=kingdom, seed=base + 2 * i + 1
            )
            print(line)
            print(f"  kingdom: {', '.join(kingdom)}")
            print(
                f"  {self.agent.name} vs {bot.name}: {ci_text(r['wins'], r['games']).strip()}, "
                f"ties {r['ties']}, VP margin {r['mean_vp_margin']:+.1f}"
            )
            print(f"  {self.agent.name} buys per game: {buys_text(r)}")
        self.summary.append(("engine bots beating BMU: reported", f"{shown} bots", "-"))


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("agent", help="a shipped agent's name, an agent file or search[:N]")
    ap.add_argument("--games", type=GAMES, default=4000, help="games per figure (default 4000)")
    ap.add_argument(
        "--seed",
        type=int_in(0, MAX_SEED // 2, " (the sections add offsets)"),
        default=EVAL_SEED,
        help=f"default {EVAL_SEED}",
    )
    ap.add_argument(
        "--sections",
        nargs="+",
        choices=SECTIONS,
        default=list(SECTIONS),
        metavar="SECTION",
        help=f"which sections, in this order: {', '.join(SECTIONS)} (default all)",
    )
    ap.add_argument(
        "--kingdoms", type=int_in(1, 1000), default=10, help="optimizer: random kingdoms"
    )
    ap.add_argument(
        "--minutes",
        type=number_in(0.01, 60),
        default=2.0,
        help="optimizer: minutes of search per kingdom (default 2)",
    )
    ap.add_argument(
        "--generations",
        type=int_in(1, MAX_GENERATIONS),
        help="optimizer: generations per kingdom in place of --minutes (repeatable figures)",
    )
    args = ap.parse_args(argv)
    try:
        args.agent_resolved = parse_search_name(args.agent, seed=args.seed) or load_agent(
            args.agent
        )
    except (ValueError, OSError) as e:
        ap.error(f"argument agent: {e}")
    info = getattr(args.agent_resolved, "info", None)
    if info is not None and info.players != 2:
        ap.error(
            f"argument agent: the targets are a 2-player agent's; {args.agent!r} plays "
            f"{info.players}-player games"
        )
    if "optimizer" in args.sections and args.games < args.kingdoms:
        ap.error(
            f"argument --games: at least one game per kingdom (--kingdoms "
            f"{args.kingdoms}), got {args.games}"
        )
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    card = Scorecard(
        args.agent_resolved, args.games, args.seed, args.kingdoms, args.minutes, args.generations
    )
    run = {
        "bots": card.bots,
        "h2h": card.h2h,
        "tournament": card.tournament_rank,
        "optimizer": card.optimizer,
        "engines": card.engines,
    }
    print(f"{card.agent.name}: the 2-player targets, seed {args.seed}")
    for name in SECTIONS:
        if name in args.sections:
            start = time.perf_counter()
            run[name]()
            print(f"({name}: {time.perf_counter() - start:.0f} s)\n", flush=True)
    print("== summary")
    width = max(len(t) for t, _, _ in card.summary)
    for target, figure, met in card.summary:
        print(f"{target:<{width}}  {figure:>14}  {met}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
