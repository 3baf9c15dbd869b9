"""The leaderboard: ``dominion scorecard`` for every kind of player (the shipped agents, the
library's strongest bots, the search at its default budget, the search guided by ppo-pool,
the search around ppo-pool, OpenSpiel's ISMCTS) and the optimizer's bots on the kingdoms they
were made for, written as a docs page (docs/results/leaderboard.md; ``--quick``:
docs/results/leaderboard-quick.md) and as JSON beside it.

    python bench/leaderboard.py                     # the full protocol (a long run)
    python bench/leaderboard.py --quick             # the quick protocol, its own page
    python bench/leaderboard.py --players ppo-pool "Double Witch" --no-optimized
    python bench/leaderboard.py --quick --sections money --players ismcts:10

Each player's scorecard is ``dominion scorecard PLAYER [--quick] --json``'s, so a row of the
page is reproduced by that command. The 2-player table is sorted by the all-bots tournament's
score (rows without a tournament last); the 3-6 player table lists what each player plays.
Every row says its player's decision time: the wall time of its answers (``act`` or
``act_games``) over the decisions answered, in ``TIMING_GAMES`` games against Big Money (one
batch, played apart from the scorecard's games, whose figures it does not touch): a batched
player (a bot, an agent, the search) answers every waiting game at once, so its time per
decision is a batch's share; ISMCTS answers one game at a time. The optimizer's bots
(agents/optimized.toml) play on the kingdom each was made for (its ``source``), against that
kingdom's strongest library bot and Big Money Ultimate, seats random, ``OPTIMIZED_GAMES``
games each (``dominion evaluate "optimized:NAME" --kingdom ... --opponent BOT``'s games).
``--sections`` keeps some of the scorecard's sections (a partial board says which);
``merge`` joins the JSON of several runs into one page, naming each run's command.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from dominion_env.agents import Bot, load_bot_file, strongest_bot_for
from dominion_env.search import DEFAULT_GUIDED_BUDGET
from dominion_env.train.evaluate import evaluate
from dominion_env.train.policy import shipped_agents
from dominion_env.train.scorecard import (
    SECTIONS,
    SEED,
    BotPlayer,
    resolve,
    scorecard,
    table_sizes,
)

# the library's strongest bots by the all-bots tournament, and the two money baselines
BOTS = ("Workshop/Gardens", "Double Witch", "Single Witch", "Big Money Ultimate", "Big Money")
# the players that search: at their default budgets
SEARCHES = ("search", f"search:ppo-pool:{DEFAULT_GUIDED_BUDGET}", "rollout:ppo-pool", "ismcts")
TIMING_GAMES = {"full": 100, "quick": 20}  # games against Big Money that time a player
OPTIMIZED_GAMES = {"full": 2000, "quick": 200}  # per optimized bot and opponent
OPTIMIZED_SEED = SEED + 3_000_000


class Timed:
    """A player whose answers are timed and counted into ``clock`` (shared by the copies
    ``with_seed`` makes for each chunk of games): ``act_games`` for players that decide from
    the game, ``act`` for policies (``timed`` picks)."""

    def __init__(self, player, clock: dict):
        self.player, self.clock = player, clock

    def __getattr__(self, name):
        return getattr(self.player, name)

    def _time(self, fn, *args):
        t0 = time.perf_counter()
        out = fn(*args)
        self.clock["seconds"] += time.perf_counter() - t0
        self.clock["decisions"] += len(out)
        return out


class TimedGames(Timed):
    def with_seed(self, seed: int):
        return TimedGames(self.player.with_seed(seed), self.clock)

    def act_games(self, vec, rows):
        return self._time(self.player.act_games, vec, rows)


class TimedPolicy(Timed):
    def act(self, observations, masks):
        return self._time(self.player.act, observations, masks)


def decision_time(player, games: int) -> dict:
    """Milliseconds per decision of ``player`` (a resolved player) over ``games`` games
    against Big Money (2 players, or the table size of an agent trained for another; random
    kingdoms; seed ``SEED``), after one game to warm up (compiling)."""
    scored = BotPlayer(player) if isinstance(player, Bot) else player
    players = table_sizes(player)[0] if 2 not in table_sizes(player) else 2
    evaluate(scored, ["Big Money"], games=1, players=players, seed=SEED + 999_999)
    clock = {"seconds": 0.0, "decisions": 0}
    wrap = TimedGames if hasattr(scored, "act_games") else TimedPolicy
    evaluate(wrap(scored, clock), ["Big Money"], games=games, players=players, seed=SEED)
    return {
        "ms": 1000 * clock["seconds"] / max(clock["decisions"], 1),
        "decisions": clock["decisions"],
        "games": games,
    }


def made_for(bot) -> list[str]:
    """The kingdom an optimizer's bot was made for, from its source ("... kingdom A, B, ...;")."""
    words = bot.source.split("kingdom ", 1)[1].split(";", 1)[0]
    return [w.strip() for w in words.split(",")]


def optimized_rows(games: int, bots=None) -> list[dict]:
    """Each optimizer's bot (``bots``, default: every bot of agents/optimized.toml) on its own
    kingdom against the kingdom's strongest library bot and Big Money Ultimate."""
    rows = []
    for bot in load_bot_file("optimized") if bots is None else bots:
        kingdom = made_for(bot)
        best = strongest_bot_for(kingdom).name
        player = BotPlayer(bot)
        opponents = list(dict.fromkeys([best, "Big Money Ultimate"]))
        faced = evaluate(player, opponents, games=games, kingdom=kingdom, seed=OPTIMIZED_SEED)
        rows.append(
            {
                "player": bot.name,
                "kingdom": kingdom,
                "against": {r["opponent"]: _rate(r) for r in faced},
                "strongest": best,
            }
        )
    return rows


def _rate(r: dict) -> dict:
    return {
        "games": r["games"],
        "wins": r["wins"],
        "ties": r["ties"],
        "win_rate": r["win_rate"],
        "ci": [r["win_ci_low"], r["win_ci_high"]],
    }


def cell(rate: dict | None) -> str:
    if rate is None:
        return "-"
    lo, hi = rate["ci"]
    return f"{rate['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]"


def ms(card: dict) -> str:
    t = card.get("decision_time")
    if t is None:
        return "-"
    v = t["ms"]
    return f"{v:.3f}" if v < 0.1 else f"{v:.2f}" if v < 10 else f"{v:.0f}"


def page(
    cards: list[dict],
    quick: bool,
    optimized: list[dict],
    sections=SECTIONS,
    command: str | None = None,
    left_out=(),
) -> str:
    """The page of ``cards`` (scorecards with their ``decision_time``) and ``optimized``
    (``optimized_rows``); ``command``: the command that made it (default: the plain one);
    ``left_out``: players of the default field this run did not play. A page may join runs:
    ``command`` is then markdown naming each (``merge``)."""
    mode = "quick" if quick else "full"
    flag = " --quick" if quick else ""
    command = command or f"`python bench/leaderboard.py{flag}`"
    g = cards[0]["games"] if cards else {"money": 0, "h2h": 0, "multiplayer": 0}
    protocol = cards[0]["protocol"] if cards else "-"
    timing = TIMING_GAMES[mode]
    lines = [
        "# Results: the leaderboard" + (" (quick)" if quick else ""),
        "",
    ]
    if quick:
        lines += [
            "**Quick figures**: the quick protocol's game counts, so wider intervals than the",
            "[full leaderboard](leaderboard.md)'s; read them as a first look.",
            "",
        ]
    lines += [
        f"Every kind of player, measured by `dominion scorecard` (protocol {protocol}, {mode}:"
        f" {g['money']:,} games against each money bot, {g['h2h']:,} per head-to-head table,"
        f" {g['multiplayer']:,} per table size). Made by {command};"
        f" each row is `dominion scorecard PLAYER{flag}`. Intervals are 95% Wilson. ms/decision:"
        f" the player's wall time per decision in {timing} games against Big Money (a batched"
        " player's share of a batch; ISMCTS one game at a time), on the machine of the run.",
        "",
    ]
    if tuple(sections) != SECTIONS:
        lines += [f"Sections played: {', '.join(sections)} (the others: not in this run).", ""]
    if left_out:
        lines += [
            f"Not in this run (the default field holds them): {', '.join(left_out)}; "
            f"`python bench/leaderboard.py{flag}` plays them all.",
            "",
        ]
    lines += [
        "## 2 players",
        "",
        "| player | ms/decision | tournament rank (score) | vs Big Money | vs Big Money Ultimate "
        "| vs the strongest bot per kingdom | head to head at 60%+ | lowest head to head |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    two = [c for c in cards if "tournament" in c or "money" in c]
    two.sort(key=lambda c: -c["tournament"]["score"] if "tournament" in c else 1.0)
    for c in two:
        t, money, h2h = c.get("tournament"), c.get("money", {}), c.get("h2h")
        rank = f"{t['rank_by_score']} of {t['players']} ({t['score']:.1%})" if t else "-"
        at60 = low = "-"
        if h2h:
            low_name, lowest = min(h2h.items(), key=lambda kv: kv[1]["win_rate"])
            at60 = f"{sum(r['win_rate'] >= 0.6 for r in h2h.values())} of {len(h2h)}"
            low = f"{low_name} {lowest['win_rate']:.1%}"
        lines.append(
            f"| {c['player']} | {ms(c)} | {rank} | {cell(money.get('Big Money'))} "
            f"| {cell(money.get('Big Money Ultimate'))} | {cell(money.get('strongest'))} "
            f"| {at60} | {low} |"
        )
    lines += [
        "",
        "A player's own mirror is not in its head-to-head count (Big Money's row against Big",
        "Money is the money section's mirror). The tournament ranks each player among the",
        "library's 36 bots and itself. The money columns deal random kingdoms: a bot built for",
        "some cards (Workshop/Gardens) plays its rules without the ones a kingdom lacks, which",
        "is what its low figures there measure; its own kingdom is in the head-to-head columns.",
        "`search` is the flat search at its default budget, `search:ppo-pool:N` the search",
        "guided by the shipped agent, `ismcts` OpenSpiel's ISMCTS at its default budget",
        "([OpenSpiel](openspiel.md)).",
        "",
        "## 3 to 6 players: wins against Big Money Ultimate in every other seat",
        "",
        "| player | ms/decision | 3 players (fair 33.3%) | 4 (25.0%) | 5 (20.0%) | 6 (16.7%) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for c in cards:
        multi = c.get("multiplayer", {})
        if multi:
            row = " | ".join(cell(multi.get(str(p))) for p in range(3, 7))
            lines.append(f"| {c['player']} | {ms(c)} | {row} |")
    if optimized:
        games = optimized[0]["against"]["Big Money Ultimate"]["games"]
        lines += [
            "",
            "## The optimizer's bots on the kingdoms they were made for",
            "",
            f"Each bot of `agents/optimized.toml` on its own kingdom (2 players, seats random,"
            f" {games:,} games per opponent, seed {OPTIMIZED_SEED}): against that kingdom's"
            " strongest library bot and Big Money Ultimate. A compiled bot decides in"
            " microseconds, as the library's bots do.",
            "",
            "| bot | its kingdom's strongest library bot | vs that bot | vs Big Money Ultimate |",
            "| --- | --- | --- | --- |",
        ]
        for r in optimized:
            vs = r["against"]
            lines.append(
                f"| {r['player']} | {r['strongest']} | {cell(vs.get(r['strongest']))} "
                f"| {cell(vs['Big Money Ultimate'])} |"
            )
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="the quick protocol")
    ap.add_argument("--players", nargs="+", default=None, help="default: agents, BOTS and SEARCHES")
    ap.add_argument("--no-optimized", action="store_true", help="leave the optimizer's bots out")
    ap.add_argument(
        "--sections",
        nargs="+",
        choices=SECTIONS,
        default=list(SECTIONS),
        help="the scorecard's sections to play (default: all)",
    )
    ap.add_argument("--out", default=None, help="default: the docs page of the mode")
    args = ap.parse_args(argv)
    field = [*shipped_agents(), *BOTS, *SEARCHES]
    names = args.players or field
    players = []
    for name in names:
        try:
            players.append(resolve(name))
        except (ValueError, OSError) as e:
            ap.error(f"argument --players: {e}")
    mode = "quick" if args.quick else "full"
    cards = []
    for p in players:
        t0 = time.perf_counter()
        card = scorecard(p, quick=args.quick, sections=tuple(args.sections))
        card["decision_time"] = decision_time(p, TIMING_GAMES[mode])
        cards.append(card)
        print(f"{p.name}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    optimized = [] if args.no_optimized else optimized_rows(OPTIMIZED_GAMES[mode])
    default = "docs/results/leaderboard-quick.md" if args.quick else "docs/results/leaderboard.md"
    out = Path(args.out or default)
    given = {n.casefold() for n in args.players or ()}
    left_out = [n for n in field if args.players and n.casefold() not in given]
    command = (
        f"`{' '.join(['python bench/leaderboard.py', *map(shlex.quote, argv or sys.argv[1:])])}`"
    )
    text = page(cards, args.quick, optimized, tuple(args.sections), command, left_out)
    out.write_text(text)
    data = {"cards": cards, "optimized": optimized}
    out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {out} and {out.with_suffix('.json')}")
    return 0


def merge(runs: list[tuple[str, str, str]], quick: bool, out: Path) -> str:
    """One page of several runs' JSON files: ``runs`` is [(JSON path, the command that made
    it, what it holds), ...]; every player of the default field in none of them is listed as
    left out."""
    cards, optimized, said = [], [], []
    for path, command, what in runs:
        data = json.loads(Path(path).read_text())
        cards += data["cards"]
        optimized += data["optimized"]
        said.append(f"`{command}` ({what})")
    played = {c["player"].casefold() for c in cards}
    names = {n: resolve(n).name.casefold() for n in [*shipped_agents(), *BOTS, *SEARCHES]}
    left_out = [n for n, name in names.items() if name not in played]
    page_text = page(cards, quick, optimized, SECTIONS, " and ".join(said), left_out)
    out.write_text(page_text)
    out.with_suffix(".json").write_text(
        json.dumps({"cards": cards, "optimized": optimized}, indent=1) + "\n"
    )
    return page_text


if __name__ == "__main__":
    sys.exit(main())
