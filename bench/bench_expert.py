"""Does an expert beat the shipped agent head to head? Candidates against the agent alone, on
paired deals (each deal played twice, the seats turned), random kingdoms.

    python bench/bench_expert.py [--agent ppo-pool] [--pairs 400] [--seed 20261205]
        [--candidates endgame,network,bots,kingdom] [--budget 200] [--confidence 2]
        [--endgame 4] [--kingdoms 8] [--minutes 1] [--quick]

Candidates (``search.NetworkSearch`` and ``analysis.specialist.KingdomExpert``):

endgame   the flat search around the agent: its greedy action is the default, left only where
          the agent itself playing every seat to the end says another is better on the same
          deals by ``--confidence`` standard errors; only decisions with ``--endgame``
          Provinces or fewer left (or a pile short of the end) are searched
network   the same on every decision
bots      the same, the playouts by the strongest library bot of the kingdom in every seat
kingdom   the agent, replaced on each kingdom by the optimizer's bot made in ``--minutes``
          against it (and the kingdom's library bots) where that bot was judged to beat it;
          ``--kingdoms`` kingdoms of ``--pairs`` / ``--kingdoms`` pairs each (a making per
          kingdom)

Each row: wins / ties / losses of the candidate with the 95% interval of its wins, how often a
searched decision left the agent's action, and the search's time per searched decision in
batches (every waiting game's decision in the same calls; the box's load changes it).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dominion_env.analysis.arena import wilson
from dominion_env.analysis.mixed import play_mixed
from dominion_env.analysis.specialist import KingdomExpert
from dominion_env.engine.kingdoms import random_kingdom
from dominion_env.search.network_search import NO_ENDGAME, NetworkSearch
from dominion_env.train.policy import load_agent
from dominion_env.train.search_network import load_network


class CountedSearch:
    """A search player that counts its searched decisions, departures and time."""

    def __init__(self, player):
        self.player = player
        self.name = player.name
        self.scale_observations = False
        self.seconds = 0.0
        self.searched = 0
        self.left = 0

    def kingdom_cards(self):
        return []

    def act(self, obs, masks):
        return self.player.act(obs, masks)

    def act_games(self, vec, rows):
        t = time.perf_counter()
        rows = np.asarray(rows, np.int64)
        out = self.player.search(vec.state[rows], vec.action_mask[rows], vec.config)
        self.seconds += time.perf_counter() - t
        searched = out[3].sum(axis=1) > 0
        self.searched += int(searched.sum())
        self.left += int((out[0] != out[4])[searched].sum())
        return out[0]


def paired(player, agent, pairs: int, seed: int, kingdom="random") -> np.ndarray:
    """The player's results (+1 / 0 / -1) in 2 x pairs games against ``agent``: deal i is
    played twice, the player at seat 0 then at seat 1 (seat 0 starts)."""
    n = 2 * pairs
    seats = np.stack([np.arange(n) % 2, 1 - np.arange(n) % 2], axis=1)
    res = play_mixed([player, agent], n, 2, kingdom, seed=seed, seat_player=seats,
                     game_numbers=np.arange(n) // 2)  # fmt: skip
    return res.reward[res.seat_bot == 0]


def row(name: str, r: np.ndarray, extra: str = "") -> str:
    w, t, n = int((r > 0).sum()), int((r == 0).sum()), len(r)
    lo, hi = wilson(w, n)
    return (f"{name:<34} {n:>5} games  wins {w / n:6.1%} [{lo:.1%}, {hi:.1%}]  "
            f"ties {t / n:5.1%}  losses {1 - (w + t) / n:6.1%}  {extra}")  # fmt: skip


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", default="ppo-pool")
    ap.add_argument("--pairs", type=int, default=400)
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--candidates", default="endgame,network,bots,kingdom")
    ap.add_argument("--budget", type=int, default=200)
    ap.add_argument("--confidence", type=float, default=2.0)
    ap.add_argument("--endgame", type=int, default=4)
    ap.add_argument("--kingdoms", type=int, default=8)
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--quick", action="store_true", help="10 pairs, budget 32, 1 kingdom")
    args = ap.parse_args(argv)
    if args.quick:
        args.pairs, args.budget, args.kingdoms, args.minutes = 10, 32, 1, 0.1
    agent = load_agent(args.agent)
    network = load_network(args.agent, "cpu")
    print(f"against {args.agent} alone (greedy), {2 * args.pairs} games a row, paired deals, "
          f"random kingdoms, seed {args.seed}")  # fmt: skip
    settings = dict(budget=args.budget, seed=args.seed, confidence=args.confidence)
    searches = {
        "endgame": NetworkSearch(network, endgame=args.endgame, **settings),
        "network": NetworkSearch(network, endgame=NO_ENDGAME, **settings),
        "bots": NetworkSearch(network, rollout="auto", endgame=NO_ENDGAME, **settings),
    }
    for name in args.candidates.split(","):
        t = time.perf_counter()
        if name in searches:
            p = CountedSearch(searches[name])
            r = paired(p, agent, args.pairs, args.seed)
            label = f"{name} (budget {args.budget}, conf {args.confidence:g})"
            ms = 1000 * p.seconds / max(p.searched, 1)
            extra = f"left the agent {p.left}/{p.searched}, {ms:.0f} ms/searched decision"
        elif name == "kingdom":
            expert = KingdomExpert(agent, minutes=args.minutes, seed=args.seed)
            per = max(1, args.pairs // args.kingdoms)
            parts = []
            for k in range(args.kingdoms):
                kingdom = random_kingdom(args.seed + k)
                spec = expert.make(kingdom)
                parts.append(paired(expert, agent, per, args.seed + k, kingdom))
                print(f"    {', '.join(spec.kingdom)}: judged {spec.score:.1%} over "
                      f"{spec.games} games, {'plays' if spec.plays else 'the agent plays'}; "
                      f"here {np.mean(parts[-1] > 0):.1%} wins", flush=True)  # fmt: skip
            r = np.concatenate(parts)
            plays = sum(s.plays for s in expert.specialists.values())
            label = f"kingdom ({args.minutes:g} min a kingdom)"
            extra = f"a specialist plays {plays} of {args.kingdoms} kingdoms"
        else:
            ap.error(f"--candidates: unknown {name!r} (endgame, network, bots, kingdom)")
        print(row(label, r, extra + f"  [{time.perf_counter() - t:.0f} s]"), flush=True)


if __name__ == "__main__":
    main()
