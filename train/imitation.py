"""The imitation warm start: an expert's decisions in the learner's seat, then epochs of
behaviour cloning on them (``TrainConfig.bc_*``).

    imitate(trainer)     # what ``Trainer.imitate`` runs on a new run without ``init``

The expert is a library bot, ``"strongest"`` (the strongest bot for each game's kingdom,
``opponents.KingdomExperts``; the batched expert API, ``VecGame.bot_actions``) or, with
``bc_expert="search:N"``, the strongest bot and then the search at budget N. Its decisions
are kept in a ``Rollout``; the policy head learns its actions (cross-entropy), the value head
those games' shaped returns. The trainer (``ppo.Trainer``) brings the network, Adam, the
device, the progress reports and the history row each phase appends.
"""

from __future__ import annotations

import time

import numpy as np
import torch

from ..agents import compile_bots
from ..search import parse_search_name
from ..search.search import Search
from .experience import Rollout
from .opponents import BotSeats, KingdomExperts
from .settings import PHASES, STRONGEST, is_bot, pool_bot


def imitate(trainer) -> None:
    """Warm start: behaviour cloning of ``bc_expert`` (a library bot, or "strongest": the
    strongest bot for each game's kingdom) on ``bc_steps`` of its decisions in the learner's
    seat, against the pool's bots (or itself); the policy head learns its actions, the value
    head those games' shaped returns (the unfinished tail of the rollout is dropped).

    With ``bc_expert="search:N"`` the bot imitated is "strongest" (the search's own
    rollout policy), then the search at budget N plays the learner's seat for
    ``bc_search_steps`` decisions and the policy learns its choices (every decision; the
    value head only those whose game's result is in the data)."""
    cfg = trainer.cfg
    search = parse_search_name(cfg.bc_expert, seed=cfg.seed)
    if cfg.bc_steps > 0:
        expert = STRONGEST if search is not None else cfg.bc_expert
        _imitate(trainer, expert, cfg.bc_steps, PHASES[1:3], 7919)
    if search is not None and cfg.bc_search_steps > 0:
        _imitate(trainer, search, cfg.bc_search_steps, PHASES[3:5], 104729)


def _imitate(trainer, expert, decisions: int, phases, salt: int) -> None:
    """Collect ``decisions`` of ``expert`` (a bot's name, "strongest" or a Search) in the
    learner's seat and learn them (``bc_epochs``), reporting ``phases`` (data, epochs)."""
    t0, before = time.perf_counter(), trainer.seconds

    def clock() -> None:  # imitation is training time
        trainer.seconds = before + time.perf_counter() - t0

    buf, returns = _collect(trainer, expert, decisions, phases[0], salt, clock)
    searched = isinstance(expert, Search)
    t_len = buf.action.shape[0]
    # the last rows' games are unfinished: their returns lack the result; drop the tail
    keep = t_len - min(t_len // 2, 64)
    # a bot's decisions are cheap: its tail is dropped whole; the search's are not: the
    # policy learns them all, the value head only the kept steps
    forward = trainer.inputs(buf, t_len if searched else keep)
    a = trainer.tensor(buf.action[: t_len if searched else keep].reshape(-1))
    ret = trainer.tensor(returns[:keep].reshape(-1))
    valued = keep * buf.action.shape[1]  # rows are step-major: the first ``valued`` have returns
    with trainer.learning_threads():
        _learn(trainer, forward, a, ret, valued, phases[1], clock)
        agree = _agreement(forward, a)
    clock()
    trainer.history.append(
        {
            "phase": "imitation",
            "expert": expert.name if searched else expert,
            "decisions": int(len(a)),
            "agreement": round(agree, 4),
            "seconds": round(trainer.seconds, 1),
        }
    )


def _collect(trainer, expert, decisions: int, phase: str, salt: int, clock):
    """``decisions`` of ``expert`` in the learner's seat against the pool's bots (or the
    expert itself): the filled ``Rollout`` and its returns (gamma 1, no bootstrap)."""
    cfg = trainer.cfg
    searched = isinstance(expert, Search)
    n = min(cfg.num_envs, decisions)
    t_len = max(1, decisions // n)
    every = max(1, t_len // 100)  # progress reports
    seats, experts, table = _expert_seats(cfg, expert, n)
    obs, mask = seats.reset(cfg.seed + salt)
    buf = Rollout(t_len, n, trainer.obs_dim, mask.shape[1], trainer.sparse)
    action = np.zeros(n, np.int64)
    rows = np.arange(n)
    for t in range(t_len):
        if t == 1 and trainer.phase == PHASES[0]:  # the first step compiled (or loaded) kernels
            trainer.report(PHASES[0], 1.0)
        # a search step takes seconds: each is reported, from the first once compiled
        ready = t >= 1 or (searched and trainer.phase != PHASES[0])
        if ready and (searched or (t - 1) % every == 0):
            clock()
            trainer.report(phase, t / t_len)
        buf.put(t, obs, mask)
        if searched:
            action[:] = expert.act_games(seats.vec, rows)
        elif experts is not None:
            action[:] = experts.actions(seats.vec)
        else:
            action[:] = seats.vec.bot_actions(table, 0)
        buf.action[t] = action
        obs, mask, reward, done, _ = seats.step(action)
        buf.reward[t] = reward
        buf.done[t] = done
    _, returns = buf.advantages(np.zeros(n, np.float32), 1.0, 1.0)
    return buf, returns


def _expert_seats(cfg, expert, n: int):
    """(the games' BotSeats, the per-kingdom experts or None, the expert bot's table or
    None): "strongest" and the search play against the training pool's bots, a named bot
    against itself."""
    pool = {k: w for k, w in cfg.opponents.items() if w > 0 and is_bot(k)}
    experts = table = None
    searched = isinstance(expert, Search)
    if expert == STRONGEST or searched:  # against the training pool's bots
        experts = KingdomExperts(cfg.players) if not searched else None
        pool = pool or {"Big Money Ultimate": 1}
    else:
        table = compile_bots(expert)
        pool = {expert: 1.0}
    seats = BotSeats(
        n,
        cfg.players,
        cfg.kingdom,
        [pool_bot(k) for k in pool],
        list(pool.values()),
        labels=list(pool),
        vp_shaping=cfg.vp_shaping,
        turn_limit=cfg.turn_limit,
    )
    return seats, experts, table


def _learn(trainer, forward, a, ret, valued: int, phase: str, clock) -> None:
    """``bc_epochs`` passes of cross-entropy on the actions ``a`` plus the value loss on the
    first ``valued`` rows' returns ``ret``."""
    cfg = trainer.cfg
    batches = -(-len(a) // cfg.minibatch)
    for epoch in range(cfg.bc_epochs):
        perm = torch.randperm(len(a)).to(trainer.device)
        for b, i in enumerate(range(0, len(a), cfg.minibatch)):
            if b % max(1, batches // 20) == 0:
                clock()
                trainer.report(phase, (epoch + b / batches) / cfg.bc_epochs)
            idx = perm[i : i + cfg.minibatch]
            logits, value = forward(idx)
            if valued < len(a):
                v = idx < valued
                value_loss = ((value[v] - ret[idx[v]]) ** 2).sum() / v.sum().clamp(min=1)
            else:
                value_loss = ((value - ret[idx]) ** 2).mean()
            loss = torch.nn.functional.cross_entropy(logits, a[idx]) + cfg.vf_coef * value_loss
            trainer.opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainer.net.parameters(), cfg.max_grad_norm)
            trainer.opt.step()


def _agreement(forward, a) -> float:
    """The share of rows whose greedy action is the expert's."""
    agree = 0
    with torch.no_grad():
        for i in range(0, len(a), 65536):  # the hidden layer of every row at once: GBs
            logits, _ = forward(torch.arange(i, min(len(a), i + 65536)))
            agree += int((logits.argmax(-1) == a[i : i + 65536]).sum())
    return agree / len(a)
