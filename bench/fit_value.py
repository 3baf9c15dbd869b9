"""Does a better value head make the guided search beat its network? Fit an agent's value head
on the results of its own games, then let the guided search play with it.

    python bench/fit_value.py [--agent ppo-pool] [--games 4000] [--epochs 3] [--match 200]
        [--budget 256] [--depth 4] [--seed 0] [--out runs/fit-value]

The self-play loop stalls because its search target is not better than its network: a
playout of ``--depth`` network decisions ends on the value head, whose squared error to the
result stays near 0.7 (docs/training.md). This measures whether that error is the head's or
the game's, and what a lower one is worth:

1. data    ``--games`` games of the agent against itself (greedy, 2 players, random kingdoms;
           ``EVAL_SEED`` is far away), every decision of both seats: its observation, legal
           actions, the network's policy there and the seat's VP margin; the target is the
           head's own meaning, the shaped return-to-go z - c x margin (c the agent's
           ``vp_shaping``). A tenth of the games is held out.
2. fit     ``--epochs`` passes of Adam over the rest: the value's squared error plus the KL
           divergence from the network's own policy (so the policy stays what it was).
3. report  the held-out squared error before and after, beside the error of the best constant
           and, per stage of the game (the decision's turn), the share of greedy actions kept.
4. match   the guided search with the fitted network and with the original against the
           original network alone (greedy), ``--match`` games each on the same random
           kingdoms and deals (``play_mixed``, seats rotated), win rates with 95% intervals.
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path

import numpy as np
import torch

from dominion_env import VecGame
from dominion_env.analysis.arena import wilson
from dominion_env.analysis.mixed import play_mixed
from dominion_env.engine.observation import obs_size
from dominion_env.train.evaluator import guided_search
from dominion_env.train.policy import load_agent, save_agent
from dominion_env.train.replay_buffer import Decisions


def collect(agent, games: int, seed: int, batch: int = 1000):
    """Self-play decisions of ``agent`` (greedy): (Decisions with z set, turn per decision,
    game id per decision)."""
    parts, turns, gids = [], [], []
    for start in range(0, games, batch):
        n = min(batch, games - start)
        vec = VecGame(n, 2, autoreset=False, scale_observations=True)
        vec.reset(seed + start)
        reward = np.zeros((n, 2))
        mine = []
        while (live := vec.running).any():
            rows = np.flatnonzero(live)
            obs, mask = vec.observation[rows], vec.action_mask[rows]
            with torch.no_grad():
                logits, _ = agent.net(torch.from_numpy(obs.copy()), torch.from_numpy(mask.copy()))
            probs = torch.softmax(logits, -1).numpy()
            seat = vec.current_player[rows].astype(np.int64)
            vp = vec.scores[rows].astype(np.float64)
            own = vp[np.arange(len(rows)), seat]
            vp[np.arange(len(rows)), seat] = -np.inf
            d = Decisions.of(obs, mask, probs, seat, rows, own - vp.max(axis=1))
            mine.append(d)
            turns.append(vec.turn_number[rows].copy())
            actions = np.full(n, -1, np.int64)
            actions[rows] = probs.argmax(axis=1)
            vec.step(actions)
            reward += vec.rewards
        data = Decisions.join(mine)
        data.z = reward[data.game, data.seat].astype(np.float32)
        gids.append(data.game + start)
        parts.append(data)
    data = Decisions.join(parts)
    return data, np.concatenate(turns), np.concatenate(gids)


def value_error(net, data, rows, target, obs_dim):
    with torch.no_grad():
        _, v = net(data.dense(rows, obs_dim, "cpu"), torch.from_numpy(data.mask[rows.numpy()]))
    return float(((v - target[rows]) ** 2).mean())


def fit(agent, data, train_rows, target, epochs, obs_dim, lr=3e-4, minibatch=1024, kl=1.0):
    net = copy.deepcopy(agent.net)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    old = torch.from_numpy(data.policy)
    mask = torch.from_numpy(data.mask)
    gen = torch.Generator().manual_seed(0)
    net.train()
    for _ in range(epochs):
        perm = train_rows[torch.randperm(len(train_rows), generator=gen)]
        for i in range(0, len(perm), minibatch):
            r = perm[i : i + minibatch]
            logits, v = net(data.dense(r, obs_dim, "cpu"), mask[r])
            logp = torch.log_softmax(logits, -1).masked_fill(~mask[r], 0.0)
            p = old[r]
            kl_loss = (p * (torch.log(p.clamp_min(1e-12)) - logp)).sum(-1).mean()
            loss = ((v - target[r]) ** 2).mean() + kl * kl_loss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
    net.eval()
    return net


def kept(net, data, rows, obs_dim) -> float:
    with torch.no_grad():
        logits, _ = net(data.dense(rows, obs_dim, "cpu"), torch.from_numpy(data.mask[rows.numpy()]))
    return float((logits.argmax(-1).numpy() == data.policy[rows.numpy()].argmax(1)).mean())


def match(player, opponent, games: int, seed: int) -> tuple[int, int]:
    seats = np.stack([np.arange(games) % 2, 1 - np.arange(games) % 2], axis=1)  # player id
    res = play_mixed([player, opponent], games, 2, seed=seed, seat_player=seats)
    mine = res.reward[res.seat_bot == 0]
    return int((mine == 1).sum()), int((mine == 0).sum())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", default="ppo-pool")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--match", type=int, default=200)
    ap.add_argument("--budget", type=int, default=256)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/fit-value")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    agent = load_agent(a.agent)
    agent.greedy = True
    obs_dim = obs_size(2)
    c = float(agent.info.trained.get("config", {}).get("vp_shaping", 0.0) or 0.0)
    t0 = time.perf_counter()
    data, turns, gids = collect(agent, a.games, 10_000 + a.seed)
    target = torch.from_numpy((data.z - c * data.margin).astype(np.float32))
    held = gids % 10 == 0
    train_rows = torch.from_numpy(np.flatnonzero(~held))
    test_rows = torch.from_numpy(np.flatnonzero(held))
    print(f"{len(data):,} decisions of {a.games:,} games in {time.perf_counter() - t0:.0f} s")
    const = float(((target[test_rows] - target[train_rows].mean()) ** 2).mean())
    before = value_error(agent.net, data, test_rows, target, obs_dim)
    t0 = time.perf_counter()
    net = fit(agent, data, train_rows, target, a.epochs, obs_dim)
    after = value_error(net, data, test_rows, target, obs_dim)
    print(f"fit: {time.perf_counter() - t0:.0f} s")
    print(
        f"held-out squared error: best constant {const:.3f}, the head {before:.3f}, "
        f"fitted {after:.3f}"
    )
    stage = turns[test_rows.numpy()]
    for lo, hi in ((0, 10), (10, 20), (20, 30), (30, 1000)):
        rows = test_rows[torch.from_numpy((stage >= lo) & (stage < hi))]
        if len(rows):
            b = value_error(agent.net, data, rows, target, obs_dim)
            f = value_error(net, data, rows, target, obs_dim)
            print(
                f"  turns {lo}-{hi}: {len(rows):,} decisions, error {b:.3f} -> {f:.3f}, "
                f"greedy action kept {kept(net, data, rows, obs_dim):.1%}"
            )
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    save_agent(net, agent.info, out / "fitted.safetensors")
    fitted = load_agent(out / "fitted.safetensors")
    fitted.greedy = True
    if a.match:
        for label, who in (("original", agent), ("fitted", fitted)):
            search = guided_search(who, a.budget, seed=a.seed, device="cpu", depth=a.depth)
            t0 = time.perf_counter()
            w, t = match(search, agent, a.match, 20_000 + a.seed)
            lo, hi = wilson(w, a.match)
            print(
                f"guided search ({label} value) vs {a.agent} alone: {w / a.match:.1%} "
                f"[{lo:.0%}, {hi:.0%}], ties {t / a.match:.1%} ({time.perf_counter() - t0:.0f} s)"
            )


if __name__ == "__main__":
    main()
