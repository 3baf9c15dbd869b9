"""PPO on VecGame with torch: the default trainer (``dominion train``): ``Trainer`` and ``train``.

    from dominion_env.train import TrainConfig, train
    result = train(TrainConfig(steps=2_000_000, opponents={"Big Money Ultimate": 1}))

The trainer's parts, each in its own module (imports run one way: settings, experience, teacher,
imitation and checkpoint below this one):

``settings``    ``TrainConfig``, the settings' bounds, ``check_config``, the opponent pool's
                names (``opponent_kind``), ``check_init``, ``PHASES``.
``experience``  ``Rollout``: one rollout's (T, N) arrays and its advantages (GAE).
``imitation``   the imitation warm start: an expert's decisions, then behaviour cloning.
``teacher``     the search as a teacher during PPO (``Teacher``, ``draw_teacher``).
``checkpoint``  ``write_checkpoint``/``read_checkpoint``/``saved_config``, the progress log
                and curve.
``opponents``  where the learner's games come from; ``device`` where the network runs.

This module re-exports the names scripts have long imported from it (``TrainConfig``,
``check_config``, ``PHASES``, the bounds, ``Rollout``, ``read_checkpoint``, ``write_checkpoint``,
``saved_config``, ``opponent_kind`` ...), so ``from dominion_env.train.ppo import X`` goes on
working.

The recipe, and why each piece is there (each was measured: docs/results/training.md):

* **gamma = 1** (no discount per decision): with a per-decision discount a losing learner's best
  move is to delay its -1 by inventing decisions (Cellar loops, PASS), and games balloon to
  200-300 decisions.
* **potential-based VP shaping** (``dominion_env.shaping``): early credit for buys that score,
  with every game's return still exactly its result; ``vp_shaping=0`` turns it off.
* **scaled observations** (``VecGame(scale_observations=True)``): raw counts stall the network.
* **imitation warm start** (``bc_steps``, ``imitation``): the policy first copies a library
  bot's choices (the batched expert API, ``VecGame.bot_actions``) on games that bot plays, and
  its value head learns those games' returns; PPO then starts from a player that already wins
  some games.
* **or a saved agent as the start** (``init``): the run starts from an agent's weights (a
  shipped agent's name or an agent file, of the run's players, network and sizes) instead of
  imitation (``bc_steps`` must then be 0): to train a shipped agent further, or on one
  kingdom. Adam's state and the snapshots start fresh.
* **the network** (``network``): "mlp" (``policy.PolicyNet``, the default) or "cards"
  (``policy.CardSetNet``: the game's cards as a set, each embedded by id); see
  docs/results/training.md for how they compare on the same time budget.
* **the search player as a teacher** (``dominion_env.search``; off by default;
  docs/results/training.md has what it measured): ``bc_expert="search:N"`` imitates the
  strongest bot for ``bc_steps`` decisions (the search's own rollout policy), then the search
  at budget N in the learner's seat for ``bc_search_steps`` decisions (phases "search data", "search
  epochs"; its chosen actions are the targets); ``teacher_coef`` > 0 is expert iteration:
  before each update, ``teacher_positions`` of the rollout's own positions are searched at
  ``teacher_budget`` and every minibatch's loss adds ``teacher_coef`` x the cross-entropy of
  the policy there against the search's choices (``teacher``; a resumed run goes the same way).
* **an opponent pool** (``opponents``): library bots by weight, plus ``"self"``, frozen
  snapshots of the learner taken every ``snapshot_every`` steps (self-play against its past),
  plus ``"strongest"`` (the strongest library bot for each game's kingdom), plus ``"all
  bots"`` (every library bot but Random, each on its own kingdom: ``dominion tournament``'s
  tables, ``opponents.LibrarySeats``; random kingdoms only), plus saved agents
  by path, plus strategy files (a ``.toml`` path of ``[[bot]]`` tables, or ``"optimized"``,
  the optimizer's per-kingdom bots shipped in ``agents/optimized.toml``): on each game's
  kingdom the other seats play the file's first bot whose cards are all in it, else the
  strongest library bot (``opponents.KingdomExperts``). A file is read (no code runs) and every
  bot checked by ``check_config``. Rows of the batch are split between them by weight.

One learner step is one decision of the learner. A rollout is ``rollout`` steps of every row;
advantages by GAE(lambda) with gamma 1; ``epochs`` passes of clipped PPO over minibatches
(``collect``, ``advantages``, ``update``). The rollout runs torch on ``torch_threads`` (1) beside
Numba's env: on 2 cores their thread pools otherwise fight. The update and the imitation epochs
never run beside the env, so torch takes as many threads as Numba's pool there
(``update_threads``; one where a pool started before ``OMP_WAIT_POLICY=PASSIVE`` was set, see
``dominion_env.train``). On the CPU the network's first layer reads only the observation's
non-zero entries (``sparse``: ~7% of them; the same function, ~15x less work); on a GPU
(``device`` "auto", the default, where CUDA is present; or "cuda") the network acts and learns
there, dense, while the games stay on the CPU (``device.py``).

``progress(steps, trainer)`` (``Trainer(progress=...)``) is called as the run moves through
``PHASES`` (those it has: the search's two only with ``bc_expert="search:N"``):
``trainer.phase`` names the phase, ``trainer.phase_done`` says how much of it is done (0..1),
``steps`` the learner steps since the last call and ``trainer.seconds`` the training time so
far (imitation's included): ``dominion train``'s bar shows all three.

Logged while training (``progress.csv`` in ``out``): steps, minutes, the true win rate of the
learner's finished training games against each opponent (stochastic policy; not the shaped
return), mean game length in learner decisions, losses and entropy (with expert iteration also
``teacher_loss``; ``teacher_agreement``, the policy's argmax against the search's choices;
``teacher_departures``, how often the search left its rollout bot's own choice; and
``teacher_seconds``, the last rollout's search time); ``curve.png`` plots the win rates against
steps and minutes. The run saves all of it every ``SAVE_EVERY_SECONDS`` (10 minutes) of PPO
and at the end. ``out/agent.safetensors`` is the final agent, ``out/checkpoint.safetensors``
resumes training (``resume=True``; ``checkpoint`` has its layout and checks; an older run's
``checkpoint.pt`` resumes too, ``policy.run_file``). Neither file holds the run's
folder: a run is resumed from, and saves into, the ``out`` it is given.

Every setting is checked by ``check_config`` before anything is built (``settings``). Ctrl-C
during PPO saves the run so far and raises ``Interrupted`` (a KeyboardInterrupt); during
imitation nothing is saved.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from dataclasses import asdict
from pathlib import Path

import numba
import numpy as np
import torch

from ..engine.observation import obs_size
from . import imitation, sparse
from .checkpoint import (
    ADAM_STATE,
    CHECKPOINT_KEYS,
    plot_progress,
    read_checkpoint,
    saved_config,
    write_checkpoint,
    write_progress,
)
from .device import check_device
from .experience import Rollout
from .opponents import LIBRARY_BOTS, BotSeats, LibrarySeats, PolicySeats, StrongestSeats
from .policy import AGENT_SUFFIX, AgentInfo, load_agent, make_net, run_file, sample, save_agent
from .settings import (
    ADDED_SETTINGS,
    ALL_BOTS,
    DEFAULT_STEPS,
    INT_BOUNDS,
    MAX_BC_SEARCH_STEPS,
    MAX_BC_STEPS,
    MAX_LAYERS,
    MAX_MINUTES,
    MAX_NUM_ENVS,
    MAX_STEPS,
    MAX_TEACHER_COEF,
    MAX_TEACHER_POSITIONS,
    MAX_VP_SHAPING,
    MAX_WEIGHT,
    MAX_WIDTH,
    MIN_MINUTES,
    MIN_WEIGHT,
    NUMBER_BOUNDS,
    PHASES,
    SELF,
    STRONGEST,
    TrainConfig,
    bot_files,
    check_config,
    check_expert,
    check_hidden,
    check_init,
    opponent_kind,
    pool_bot,
    pooled,
    split_rows,
)
from .teacher import Teacher, draw_teacher
from .threads import PASSIVE_POOLS

# the names other modules, tests and scripts import from here, though they live in the
# modules above (``from dominion_env.train.ppo import X`` keeps working)
__all__ = [
    "ADAM_STATE",
    "ADDED_SETTINGS",
    "ALL_BOTS",
    "CHECKPOINT_KEYS",
    "DEFAULT_STEPS",
    "INT_BOUNDS",
    "MAX_BC_SEARCH_STEPS",
    "MAX_BC_STEPS",
    "MAX_LAYERS",
    "MAX_MINUTES",
    "MAX_NUM_ENVS",
    "MAX_STEPS",
    "MAX_TEACHER_COEF",
    "MAX_TEACHER_POSITIONS",
    "MAX_VP_SHAPING",
    "MAX_WEIGHT",
    "MAX_WIDTH",
    "MIN_MINUTES",
    "MIN_WEIGHT",
    "NUMBER_BOUNDS",
    "PHASES",
    "SAVE_EVERY_SECONDS",
    "SELF",
    "STRONGEST",
    "Interrupted",
    "Rollout",
    "Teacher",
    "TrainConfig",
    "Trainer",
    "check_config",
    "check_expert",
    "check_hidden",
    "check_init",
    "opponent_kind",
    "plot_progress",
    "read_checkpoint",
    "saved_config",
    "train",
    "write_checkpoint",
    "write_progress",
]

# a run saves itself (agent, checkpoint, progress.csv, curve) this often while PPO runs, so a
# crash or a killed job loses at most this much training and a long run's curve can be read
# while it goes; the saves only read the run's state, so they change nothing in it
SAVE_EVERY_SECONDS = 600.0


class Trainer:
    """PPO against a pool of opponents (see the module docstring)."""

    def __init__(self, cfg: TrainConfig, progress=None):
        self.cfg = check_config(cfg)
        self.device = check_device(cfg.device)
        self.phase, self.phase_done = PHASES[0], 0.0  # building games, compiling kernels
        torch.set_num_threads(cfg.torch_threads)
        # the env (Numba's pool) and the update never run at once: the update takes as many
        # threads as the env does, where both pools sleep when idle (``PASSIVE_POOLS``)
        self.update_threads = (
            max(cfg.torch_threads, numba.config.NUMBA_NUM_THREADS)
            if PASSIVE_POOLS
            else cfg.torch_threads
        )
        torch.manual_seed(cfg.seed)
        self.rng = np.random.default_rng(cfg.seed)
        self.obs_dim = obs_size(cfg.players)
        self.net = self._new_net()
        self.sparse = sparse.supports(self.net)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, eps=1e-5)
        self.snapshots: list[torch.nn.Module] = []
        self.groups = []
        kw = dict(vp_shaping=cfg.vp_shaping, turn_limit=cfg.turn_limit)
        bots, row_groups = pooled(cfg.opponents)
        files = bot_files(cfg.opponents)
        for name, rows in split_rows(cfg.num_envs, row_groups).items():
            if name == "bots" and bots:
                group = BotSeats(
                    rows,
                    cfg.players,
                    cfg.kingdom,
                    [pool_bot(b) for b in bots],
                    list(bots.values()),
                    labels=list(bots),  # a file's bot may share a library bot's name
                    **kw,
                )
            elif name == STRONGEST:
                group = StrongestSeats(rows, cfg.players, cfg.kingdom, STRONGEST, **kw)
            elif name in files:
                group = StrongestSeats(rows, cfg.players, cfg.kingdom, name, bots=files[name], **kw)
            elif name == ALL_BOTS:
                group = LibrarySeats(rows, cfg.players, LIBRARY_BOTS, **kw)
            elif name == SELF:
                group = PolicySeats(
                    rows, cfg.players, cfg.kingdom, self._snapshot_policy, SELF, **kw
                )
            else:
                group = PolicySeats(
                    rows, cfg.players, cfg.kingdom, load_agent(name).act, name, **kw
                )
            self.groups.append(group)
        self.steps = 0
        self.seconds = 0.0
        self.history: list[dict] = []
        self.progress = progress
        # finished training games' results per opponent, logged and cleared at each log row
        self._games: dict[str, list] = {k: [] for k, w in cfg.opponents.items() if w > 0}
        self._lengths: list[int] = []
        self._episode_len = np.zeros(cfg.num_envs, np.int64)
        # the games are built; their first step compiles the engine's kernels (or loads them)
        self.report(PHASES[0], 0.0)

    def report(self, phase: str, done: float, steps: int = 0) -> None:
        """Tell ``progress`` where the run is: ``phase`` (one of ``PHASES``), ``done`` of it
        (0..1; PPO's is steps over the run's steps, or seconds over its minutes) and the
        learner steps taken since the last report."""
        self.phase, self.phase_done = phase, done
        if self.progress is not None:
            self.progress(steps, self)

    # -- policies ------------------------------------------------------------------------

    def _snapshot_policy(self, obs, mask):
        """A random past snapshot per call (the current net before the first snapshot)."""
        net = self.snapshots[self.rng.integers(len(self.snapshots))] if self.snapshots else self.net
        if not self.sparse:
            return net.act(obs, mask)[0]
        rows = sparse.SparseRows((len(obs),))
        rows.write(obs)
        idx, val = rows.rows()
        with torch.no_grad():  # on the nets' device, as the learner's own rows (``_forward``)
            logits, _ = sparse.forward(
                net, idx.to(self.device), val.to(self.device), self.tensor(np.array(mask))
            )
            return sample(logits)[0].cpu().numpy()

    def _new_net(self):
        cfg = self.cfg
        return make_net(cfg.players, cfg.network, cfg.hidden, cfg.embed).to(self.device)

    def take_snapshot(self):
        snap = self._new_net()
        snap.load_state_dict(self.net.state_dict())
        self.snapshots.append(snap.eval())
        del self.snapshots[: -self.cfg.max_snapshots]

    # -- the loop --------------------------------------------------------------------------

    def _reset(self, seed):
        obs, mask = [], []
        for k, g in enumerate(self.groups):
            o, m = g.reset(seed * 1000 + k)
            obs.append(o)
            mask.append(m)
        return np.concatenate(obs), np.concatenate(mask)

    def _step(self, actions):
        obs, mask, reward, done = [], [], [], []
        start = 0
        for g in self.groups:
            o, m, r, d, fin = g.step(actions[start : start + g.num_games])
            obs.append(o)
            mask.append(m)
            reward.append(r)
            done.append(d)
            for label, result in zip(fin.opponent, fin.result.tolist(), strict=True):
                self._games.setdefault(label, []).append(result)
            start += g.num_games
        return (
            np.concatenate(obs),
            np.concatenate(mask),
            np.concatenate(reward),
            np.concatenate(done),
        )

    def warm_start(self, init=None):
        """The start of a new run: the weights of ``init`` where it names an agent (``init``:
        that agent as ``check_init`` returned it, else it is loaded and checked here), else
        imitation (``imitate``)."""
        if self.cfg.init is None:
            self.imitate()
            return
        agent = init if init is not None else check_init(self.cfg)
        self.net.load_state_dict(agent.net.state_dict())

    def imitate(self):
        """Warm start: behaviour cloning of ``bc_expert`` (``imitation.imitate``)."""
        imitation.imitate(self)

    def learn(self):
        """Run PPO until the step or time limit (continues a resumed run)."""
        cfg = self.cfg
        n = cfg.num_envs
        obs, mask = self._reset(cfg.seed + len(self.history))
        buf = Rollout(cfg.rollout, n, self.obs_dim, mask.shape[1], self.sparse)
        next_log = (self.steps // cfg.log_every + 1) * cfg.log_every
        next_snap = (self.steps // cfg.snapshot_every + 1) * cfg.snapshot_every
        if not self.snapshots:
            self.take_snapshot()
        t0 = time.perf_counter() - self.seconds
        next_save = self.seconds + SAVE_EVERY_SECONDS
        while not self._finished():
            teacher = draw_teacher(cfg, self.steps) if cfg.teacher_coef > 0 else None
            obs, mask = self.collect(buf, obs, mask, teacher)
            if teacher is not None:
                teacher.search(self.groups)
            adv, ret = self.advantages(buf, obs, mask)
            stats = self.update(buf, adv, ret, teacher)
            self.steps += cfg.rollout * n
            self.seconds = time.perf_counter() - t0
            self.report(PHASES[-1], self._done(), cfg.rollout * n)
            if self.steps >= next_snap:
                self.take_snapshot()
                next_snap += cfg.snapshot_every
            if self.steps >= next_log or self._finished():
                self._log(stats)
                next_log += cfg.log_every
            if self.seconds >= next_save and not self._finished():
                self.save()
                next_save = self.seconds + SAVE_EVERY_SECONDS
        return self

    def collect(self, buf: Rollout, obs, mask, teacher: Teacher | None = None):
        """Fill ``buf`` with one rollout from the rows' decisions ``obs``/``mask``; returns the
        decisions that follow it. ``teacher``: copies its positions' games as they come."""
        self.net.eval()
        for t in range(buf.reward.shape[0]):
            # the net reads the rollout's own (writable) copy: seats may hand back VecGame's
            # read-only views, which torch.from_numpy warns about
            buf.put(t, obs, mask)
            if teacher is not None:
                teacher.copy(t, self.groups, mask)
            a, logp, v = self._act(buf, t)
            buf.action[t] = a
            buf.logp[t] = logp
            buf.value[t] = v
            obs, mask, reward, done = self._step(a)
            buf.reward[t] = reward
            buf.done[t] = done
            self._episode_len += 1
            ended = np.flatnonzero(done)
            self._lengths.extend(self._episode_len[ended].tolist())
            self._episode_len[ended] = 0
        return obs, mask

    def advantages(self, buf: Rollout, obs, mask):
        """(advantages, returns) of ``buf``, bootstrapped from the values at ``obs``."""
        last = Rollout(1, len(obs), self.obs_dim, mask.shape[1], self.sparse)
        last.put(0, obs, mask)
        last_v = self._forward(last, 0)[1].cpu().numpy()
        return buf.advantages(last_v, self.cfg.gamma, self.cfg.lam)

    def _finished(self) -> bool:
        return self._done() >= 1.0

    def _done(self) -> float:
        """How much of the run is done: the larger of steps and minutes over their limits."""
        cfg = self.cfg
        steps = DEFAULT_STEPS if cfg.steps is None and cfg.minutes is None else cfg.steps
        return max(
            self.steps / steps if steps is not None else 0.0,
            self.seconds / (60 * cfg.minutes) if cfg.minutes is not None else 0.0,
        )

    # -- the network's inputs: sparse rows on the CPU, dense tensors on the device ------------

    def tensor(self, a: np.ndarray) -> torch.Tensor:
        """``a`` as a tensor on the network's device."""
        return torch.from_numpy(a).to(self.device)

    def inputs(self, buf: Rollout, keep: int | None = None):
        """``forward(rows) -> (logits, values)`` over the first ``keep`` steps of ``buf``
        (all of them by default), rows numbered step-major."""
        m = self.tensor(buf.mask[:keep].reshape(-1, buf.mask.shape[2]))
        if buf.rows is not None:
            idx, val = buf.rows.rows()
            idx, val = idx[:keep].flatten(0, 1), val[:keep].flatten(0, 1)
            return lambda rows: sparse.forward(self.net, idx[rows], val[rows], m[rows])
        o = self.tensor(buf.obs[:keep].reshape(-1, self.obs_dim))
        return lambda rows: self.net(o[rows], m[rows])

    @torch.no_grad()
    def _forward(self, buf: Rollout, t: int):
        """The net's (logits, values) at step ``t`` of ``buf``."""
        m = self.tensor(buf.mask[t])
        if buf.rows is not None:
            return sparse.forward(self.net, *buf.rows.rows(t), m)
        return self.net(self.tensor(buf.obs[t]), m)

    def _act(self, buf: Rollout, t: int):
        """(actions, log-probabilities, values) of the net, sampled, at step ``t`` of ``buf``."""
        logits, value = self._forward(buf, t)
        with torch.no_grad():
            a, logp = sample(logits)
        return a.cpu().numpy(), logp.cpu().numpy(), value.cpu().numpy()

    @contextlib.contextmanager
    def learning_threads(self):
        """torch on ``update_threads`` inside, back on ``torch_threads`` after (a call costs
        under a microsecond, measured)."""
        torch.set_num_threads(self.update_threads)
        try:
            yield
        finally:
            torch.set_num_threads(self.cfg.torch_threads)

    def update(self, buf: Rollout, adv, ret, teacher: Teacher | None = None) -> dict:
        """``epochs`` passes of clipped PPO over ``buf``: mean losses and entropy. With a
        searched ``teacher``, every minibatch's loss adds ``teacher_coef`` x the cross-entropy
        of the policy at the teacher's positions against the search's choices."""
        with self.learning_threads():
            return self._update_epochs(buf, adv, ret, teacher)

    def _update_epochs(self, buf: Rollout, adv, ret, teacher: Teacher | None = None) -> dict:
        cfg = self.cfg
        self.net.train()
        forward = self.inputs(buf)
        m = self.tensor(buf.mask.reshape(-1, buf.mask.shape[2]))
        a = self.tensor(buf.action.reshape(-1))
        old_logp = self.tensor(buf.logp.reshape(-1))
        adv_t = self.tensor(adv.reshape(-1))
        ret_t = self.tensor(ret.reshape(-1))
        total = len(a)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "n": 0}
        taught = teacher is not None and len(teacher.rows) > 0
        if taught:
            t_rows = self.tensor(teacher.rows)
            t_action = self.tensor(teacher.action)
            stats.update(teacher_loss=0.0, teacher_agreement=0.0)
        for _ in range(cfg.epochs):
            perm = torch.randperm(total).to(self.device)
            for i in range(0, total, cfg.minibatch):
                idx = perm[i : i + cfg.minibatch]
                logits, value = forward(idx)
                logp_all = torch.log_softmax(logits, -1)
                logp = logp_all.gather(-1, a[idx, None]).squeeze(-1)
                p = logp_all.exp()
                entropy = -(p * logp_all.masked_fill(~m[idx], 0.0)).sum(-1).mean()
                ad = adv_t[idx]
                ad = (ad - ad.mean()) / (ad.std() + 1e-8)
                ratio = (logp - old_logp[idx]).exp()
                pg = -torch.min(ratio * ad, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * ad).mean()
                vl = ((value - ret_t[idx]) ** 2).mean()
                loss = pg + cfg.vf_coef * vl - cfg.ent_coef * entropy
                if taught:
                    t_logits, _ = forward(t_rows)
                    tl = torch.nn.functional.cross_entropy(t_logits, t_action)
                    loss = loss + cfg.teacher_coef * tl
                    stats["teacher_loss"] += tl.item()
                    agree = (t_logits.argmax(-1) == t_action).float().mean()
                    stats["teacher_agreement"] += agree.item()
                self.opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), cfg.max_grad_norm)
                self.opt.step()
                stats["policy_loss"] += pg.item()
                stats["value_loss"] += vl.item()
                stats["entropy"] += entropy.item()
                stats["n"] += 1
        k = max(1, stats.pop("n"))
        stats = {key: v / k for key, v in stats.items()}
        if taught:  # how often the search left its rollout bot's own choice
            stats["teacher_departures"] = teacher.departures / len(teacher.rows)
            stats["teacher_seconds"] = teacher.seconds
        return stats

    def _log(self, stats: dict):
        row = {"steps": self.steps, "minutes": round(self.seconds / 60, 3)}
        for label, results in self._games.items():
            r = np.array(results)
            row[f"win_rate[{label}]"] = round(float((r == 1).mean()), 4) if len(r) else math.nan
            row[f"games[{label}]"] = len(r)
            results.clear()
        row["mean_length"] = round(float(np.mean(self._lengths)), 1) if self._lengths else math.nan
        self._lengths.clear()
        row.update({k: round(v, 5) for k, v in stats.items()})
        self.history.append(row)

    # -- files -----------------------------------------------------------------------------

    def info(self) -> AgentInfo:
        # the settings it was trained with; not the folder (a path on the trainer's machine)
        cfg = {k: v for k, v in asdict(self.cfg).items() if k != "out"}
        return AgentInfo(
            name=self.cfg.name,
            players=self.cfg.players,
            hidden=tuple(self.cfg.hidden),
            scale_observations=True,
            network=self.cfg.network,
            embed=self.cfg.embed,
            trained={"config": cfg, "steps": self.steps, "minutes": round(self.seconds / 60, 2)},
        )

    def save(self, out=None) -> dict:
        out = Path(out or self.cfg.out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"agent": save_agent(self.net, self.info(), out / f"agent{AGENT_SUFFIX}")}
        paths["checkpoint"] = write_checkpoint(
            out / f"checkpoint{AGENT_SUFFIX}",
            config=asdict(self.cfg),
            net=self.net.state_dict(),
            opt=self.opt.state_dict(),
            steps=self.steps,
            seconds=self.seconds,
            history=self.history,
            snapshots=[s.state_dict() for s in self.snapshots],
        )
        paths["csv"] = write_progress(self.history, out / "progress.csv")
        paths["png"] = plot_progress(self.history, out / "curve.png")
        return paths

    @classmethod
    def resume(
        cls,
        out,
        steps: int | None = None,
        progress=None,
        minutes: float | None = None,
        device: str | None = None,
    ) -> "Trainer":
        """Continue a saved run; ``steps`` and ``minutes`` are new totals (the run's own
        settings otherwise): a 45-minute run resumed with minutes=60 trains 15 more; ``device``
        moves it (a run is the same run on any device). The
        checkpoint is checked whole before anything is built (``read_checkpoint``); the run
        saves into ``out`` (a moved folder, or a file from elsewhere, never writes back to the
        folder named in its config)."""
        data = read_checkpoint(run_file(out, "checkpoint"))
        cfg = data["config"]  # its out is ``out``: saves go where it was read
        if steps is not None:
            cfg.steps = steps
        if minutes is not None:
            cfg.minutes = minutes
        if device is not None:
            cfg.device = device
        t = cls(cfg, progress)
        t.net.load_state_dict(data["net"])
        t.opt.load_state_dict(data["opt"])
        t.steps, t.seconds, t.history = data["steps"], data["seconds"], data["history"]
        for sd in data["snapshots"]:
            snap = t._new_net()
            snap.load_state_dict(sd)
            t.snapshots.append(snap.eval())
        return t


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during ``train``: ``trainer`` is the run so far, ``paths`` what was saved
    (empty if it stopped during imitation, which a resume would not redo)."""

    def __init__(self, trainer: Trainer, paths: dict):
        super().__init__(f"interrupted after {trainer.steps} learner steps")
        self.trainer = trainer
        self.paths = paths


def train(cfg: TrainConfig, progress=None, resume: bool = False) -> Trainer:
    """Train (or resume, from ``cfg.out``) and save; returns the Trainer. Ctrl-C during PPO
    saves the run so far (the weights as they are: the steps of the last whole rollout, plus
    at most one minibatch update under way) and raises ``Interrupted``."""
    # whatever is there (a directory, a pipe ...) is read, or named by the error
    if resume and os.path.lexists(run_file(cfg.out, "checkpoint")):
        t = Trainer.resume(cfg.out, cfg.steps, progress, cfg.minutes, cfg.device)
    else:
        # the agent to start from, checked before the games are built and the kernels compile
        init = check_init(cfg) if cfg.init is not None else None
        t = Trainer(cfg, progress)
        try:
            t.warm_start(init)
        except KeyboardInterrupt:
            raise Interrupted(t, {}) from None
    try:
        t.learn()
    except KeyboardInterrupt:
        raise Interrupted(t, t.save()) from None
    t.save()
    return t
