"""The scorecard: one versioned protocol that measures any player the same way, for papers.

    dominion scorecard ppo-pool                 # a shipped agent (the full protocol)
    dominion scorecard runs/a/agent.safetensors --quick  # an agent file, the quick protocol
    dominion scorecard "Big Money Ultimate" --json
    dominion scorecard search:200 --ray

    from dominion_env.train.scorecard import scorecard
    card = scorecard(load_agent("ppo-pool"), quick=True)   # a dict, as --json prints it

The player is a trained agent (a shipped agent's name or an agent file), a library bot, a bot
of a strategy file (``FILE.toml`` with one bot, or ``FILE.toml:NAME``) or a search player
(``search[:N]``). Everything else is fixed by the protocol (``PROTOCOL``; its version is in
every output, and a change to anything below that moves a figure bumps it):

1. ``money``: 2 players, random kingdoms (a random seat per game), against Big Money, Big
   Money Ultimate and the strongest library bot whose cards are in each kingdom (10 games
   per kingdom), ``GAMES["money"]`` games each on seed ``SEED`` (the games of ``dominion
   evaluate PLAYER --games N``).
2. ``h2h`` and ``tournament``: the round robin of the player and every library bot, each
   table on the kingdom holding its bots' cards (``agents.kingdom_for``), ``GAMES["h2h"]``
   games per table with the seats alternating, seed ``SEED + 1,000,000`` (``dominion
   tournament --all PLAYER``): the player's win rate against each library bot, and its rank
   by overall score (wins + ties / 2 against the whole field) and by Elo.
3. ``multiplayer``: for each of 3 to 6 players the player can sit at (an agent: its own
   table size; bots and the search: all), Big Money Ultimate in every other seat, random
   kingdoms, ``GAMES["multiplayer"]`` games on seed ``SEED + 2,000,000 + P``: the share of
   games it wins alone, beside the fair share 1/P.

A 2-player section is left out for a player that does not play 2-player games (and says
so). Every figure is wins (sole wins) over games with a 95% Wilson interval; the seeds are
fixed, so two runs of the same player give the same figures, and the intervals say how far
another set of games could move them. ``--quick`` keeps the shape with fewer games
(``QUICK_GAMES``: wider intervals, a few minutes on 2 cores).
"""

from __future__ import annotations

from ..agents import BOTS, Bot, compile_bots
from ..analysis.arena import wilson
from ..analysis.executor import local_map
from ..analysis.tournament import run_tournament
from ..cards import MAX_PLAYERS, MIN_PLAYERS
from ..players import resolve_player
from .evaluate import EVAL_SEED, evaluate
from .settings import STRONGEST

PROTOCOL = 1
SEED = EVAL_SEED
MONEY = ("Big Money", "Big Money Ultimate", STRONGEST)
MULTI_OPPONENT = "Big Money Ultimate"
GAMES = {"money": 4000, "h2h": 2000, "multiplayer": 2000}
QUICK_GAMES = {"money": 400, "h2h": 200, "multiplayer": 400}
H2H_SEED = SEED + 1_000_000
MULTI_SEED = SEED + 2_000_000
SECTIONS = ("money", "h2h", "tournament", "multiplayer")


class BotPlayer:
    """A compiled bot in the seat ``evaluate`` gives the player under test: it answers every
    decision of that seat as the bot would (``VecGame.bot_actions``)."""

    scale_observations = False
    info = None  # not a trained agent: any table size

    def __init__(self, bot):
        self.bot = bot
        self.name = bot.name
        self.table = compile_bots(bot)

    def kingdom_cards(self) -> list[str]:
        return self.bot.kingdom_cards()

    def with_seed(self, seed: int) -> BotPlayer:
        return self  # its random choices draw from each game's own expert stream

    def act_games(self, vec, rows):
        return vec.bot_actions(self.table, 0)[rows]


def resolve(name: str):
    """The player ``name`` names, as every command resolves it (``players.resolve_player``),
    its searches seeded ``SEED``; a ValueError naming it and what is allowed otherwise."""
    return resolve_player(name, seed=SEED)


def table_sizes(player) -> list[int]:
    """The table sizes ``player`` plays: a trained agent its own, any other player all."""
    info = getattr(player, "info", None)
    if info is not None:
        return [info.players]
    return list(range(MIN_PLAYERS, MAX_PLAYERS + 1))


def _rate(wins: int, games: int, ties: int | None = None) -> dict:
    lo, hi = wilson(wins, games)
    out = {"games": games, "wins": wins, "win_rate": wins / games, "ci": [lo, hi]}
    if ties is not None:
        out["ties"] = ties
    return out


def scorecard(player, quick: bool = False, sections=SECTIONS, map=local_map, progress=None):
    """The protocol's figures for ``player`` (a resolved player: ``resolve``) as a dict:
    ``protocol``, ``player``, ``mode``, ``seed``, ``games`` (per figure) and one entry per
    section played (``skipped`` says why one was not). ``progress(label)`` is called before
    each piece of work; ``map`` runs the games (``executor.RayMap``: the same figures)."""
    games = QUICK_GAMES if quick else GAMES
    step = progress or (lambda label: None)
    name = player.name
    scored = BotPlayer(player) if isinstance(player, Bot) else player
    sizes = table_sizes(player)
    out = {
        "protocol": PROTOCOL,
        "player": name,
        "mode": "quick" if quick else "full",
        "seed": SEED,
        "games": dict(games),
        "skipped": {},
    }
    two = 2 in sizes
    if not two:
        for s in ("money", "h2h", "tournament"):
            if s in sections:
                out["skipped"][s] = f"{name} plays {sizes[0]}-player games only"
    if two and "money" in sections:
        step("against Big Money, Big Money Ultimate and the strongest bot")
        out["money"] = _money(scored, games["money"], map)
    if two and ("h2h" in sections or "tournament" in sections):
        step("the all-bots tournament (head to head on each bot's kingdom)")
        field = [player, *(b for b in BOTS.values() if b.name.casefold() != name.casefold())]
        res = run_tournament(field, games["h2h"], 2, None, H2H_SEED, map=map)
        if "h2h" in sections:
            out["h2h"] = _head_to_head(res, res.index(name))
        if "tournament" in sections:
            out["tournament"] = _standing(res, res.index(name))
    if "multiplayer" in sections:
        multi = _multiplayer(scored, sizes, games["multiplayer"], map, step)
        if multi:
            out["multiplayer"] = multi
        else:
            out["skipped"]["multiplayer"] = f"{name} plays no table of 3 to 6 players"
    return out


def _ci(rate: dict) -> str:
    lo, hi = rate["ci"]
    return f"{rate['win_rate']:6.1%} [{lo:5.1%}, {hi:5.1%}]"


def format_scorecard(card: dict) -> str:
    """The scorecard as the table ``dominion scorecard`` prints."""
    g = card["games"]
    lines = [
        f"scorecard of {card['player']}: protocol {card['protocol']} ({card['mode']}), "
        f"seed {card['seed']}"
    ]
    if "money" in card:
        lines += ["", f"2 players, random kingdoms, {g['money']:,} games each:"]
        lines.append(f"  {'against':<36}{'win rate [95% CI]':>22}{'ties':>7}{'VP margin':>11}")
        for opp, r in card["money"].items():
            label = "the strongest bot per kingdom" if opp == STRONGEST else opp
            lines.append(f"  {label:<36}{_ci(r):>22}{r['ties']:>7}{r['vp_margin']:>+11.1f}")
    if "h2h" in card:
        rows = list(card["h2h"].items())
        at60 = sum(r["win_rate"] >= 0.6 for _, r in rows)
        lines += [
            "",
            f"head to head, each library bot on its own kingdom, {g['h2h']:,} games each "
            f"(seats alternating): {at60} of {len(rows)} at 60% or more",
        ]
        for other, r in rows:
            lines.append(f"  {other:<36}{_ci(r):>22}{r['ties']:>7}")
    if "tournament" in card:
        t = card["tournament"]
        lo, hi = t["ci"]
        lines += [
            "",
            f"the all-bots tournament ({t['players']} players): rank {t['rank_by_score']} by "
            f"score ({t['score']:.1%} [{lo:.1%}, {hi:.1%}]), {t['rank_by_elo']} by Elo "
            f"({t['elo']:.0f}); first by score: {t['first']}",
        ]
    if "multiplayer" in card:
        lines += ["", f"Big Money Ultimate in every other seat, {g['multiplayer']:,} games each:"]
        for p, r in card["multiplayer"].items():
            lines.append(f"  {p} players{'':<27}{_ci(r):>22}   fair share {r['fair_share']:.1%}")
    for section, why in card["skipped"].items():
        lines.append(f"({section}: not played: {why})")
    return "\n".join(lines)


def _money(scored, games: int, map) -> dict:
    """Against each of ``MONEY`` on random kingdoms: rates, VP margin, buys."""
    rows = evaluate(scored, list(MONEY), games=games, seed=SEED, map=map)
    return {
        r["opponent"]: {
            **_rate(r["wins"], r["games"], r["ties"]),
            "vp_margin": r["mean_vp_margin"],
            "buys_per_game": r["buys_per_game"],
        }
        for r in rows
    }


def _head_to_head(res, me: int) -> dict:
    """The player's record against each bot of the tournament ``res``, best first."""
    h2h = {}
    for j, other in enumerate(res.names):
        if j != me and res.games[me, j]:
            g, w, t = int(res.games[me, j]), int(res.wins[me, j]), int(res.ties[me, j])
            h2h[other] = _rate(w, g, t)
    return dict(sorted(h2h.items(), key=lambda kv: -kv[1]["win_rate"]))


def _standing(res, me: int) -> dict:
    """The player's place in the tournament ``res``: ranks, score with its interval, Elo."""
    overall = res.overall
    lo, hi = res.overall_ci(me)
    return {
        "players": len(res.names),  # plain ints and floats: --json
        "rank_by_score": 1 + int((overall > overall[me]).sum()),
        "rank_by_elo": 1 + int(list(res.order).index(me)),
        "score": float(overall[me]),
        "ci": [float(lo), float(hi)],
        "elo": float(res.elo[me]),
        "first": res.names[int(overall.argmax())],
    }


def _multiplayer(scored, sizes, games: int, map, step) -> dict:
    """At each table size 3 to 6 the player plays: its wins against ``MULTI_OPPONENT`` in
    every other seat, and the fair share."""
    multi = {}
    for p in (s for s in sizes if s > 2):
        step(f"{p} players against Big Money Ultimate in every other seat")
        (r,) = evaluate(
            scored,
            [MULTI_OPPONENT],
            games=games,
            players=p,
            seed=MULTI_SEED + p,
            map=map,
        )
        multi[str(p)] = {**_rate(r["wins"], r["games"], r["ties"]), "fair_share": 1 / p}
    return multi
