"""Self-play that learns from the guided search: Expert Iteration / Gumbel AlphaZero (``dominion
selfplay``).

    from dominion_env.train.selfplay import SelfPlayConfig, selfplay
    loop = selfplay(SelfPlayConfig(generations=3, games=64, budget=32, out="runs/sp"))

Each generation:

play     ``games`` games, ``batch`` at a time: one VecGame whose seats are all external, one
         game a row, each row its own opponent and kingdom (self-play and the league's games
         side by side, ``plan``), one search call answering every row's learner decisions.
         Every decision of the learner's seats is the guided search's (``search.guided``,
         ``budget`` simulations, ``depth``) with the current network: each seat's first
         ``sample_moves`` decisions of a game are drawn from the search's improved policy
         (variety: the openings of greedy games repeat), the rest are the search's own
         choice. Recorded per decision (``replay_buffer.Decisions``): the decider's observation,
         its legal actions, the improved policy and the seat; at the game's end each row gets
         its seat's result z (+1 / 0 / -1; 0 at the turn limit).
league   a share ``league`` of the games seats the searching learner at one seat (a row's seat
         turns with the row) against, in equal parts: ``past``, one of the last ``max_past``
         generations' networks (greedy, drawn per game; the init agent is generation 0);
         ``bots``, a library bot (all but Random, drawn per game) on its own kingdom
         (``agents.kingdom_for``); ``optimized``, the optimizer's bot for each random kingdom
         (``agents/optimized.toml``, else the strongest library bot, ``seats.KingdomExperts``).
         Only the learner's decisions are recorded there. The rest of the games are self-play
         (the search at every seat).
learn    the network learns from the last ``window`` generations' decisions: ``epochs`` passes
         of minibatches of ``minibatch``, Adam (its state kept across generations), loss =
         cross-entropy to the improved policy + ``vf_coef`` x (value - (z - phi))^2, phi the
         VP potential at the decision (``vp_shaping`` x the seat's VP margin then): the value
         head keeps the init's meaning, the shaped return-to-go, and every agent the loop saves
         carries the init's ``vp_shaping``, which is how the guided search turns a value back
         into an expected result (value + phi, ``evaluator.NetEvaluator``).
measure  the new network against the previous generation's, both greedy, on ``eval_games``
         deals played twice with the seats turned (paired: the same seeds), and the learner's
         results in the generation's league games, per opponent: a row of ``history``
         (``progress.csv``; ``dominion selfplay``'s bar shows it).

The value's meaning: the init agent (``init``, a shipped agent's name or an agent file; by
default ``ppo-pool``) was trained by PPO on shaped returns, so its value head estimates the
result minus the VP potential, and its search reads it as such (value + phi, with the agent's
own ``vp_shaping``). The loop keeps that meaning in every generation (the target above). An
earlier form learned z itself and read later generations with ``vp_shaping`` 0: the first
update then had to move the head from one meaning to the other under a search that was
already reading it the new way (measured: docs/training.md).

Saving: after every generation, and within one after a batch once ``SAVE_SECONDS`` have
passed since the last save (a generation can take tens of minutes; a save takes about a
second), into ``out``: ``agent.safetensors`` (the current network), ``checkpoint.safetensors``
(the config, the network's layout, the generation, the time so far, Adam's state, the kept past
networks, the window's decisions, the generation under way's batches played so far and the
history: tensors plus JSON in ``tensorfile``'s layout, kind "selfplay"; loading runs no code and
checks every part, ``read_checkpoint``; a 0.9.0 file, without the generation under way, still
resumes) and ``progress.csv``. A stop (Ctrl-C, SIGTERM) loses only what was played since the
last save: ``resume`` continues from there, at the batch after the last one saved, and a run
resumed goes exactly as the run straight through would have (every stream, the search's too,
is keyed by (seed, generation, batch), not by a generator's state). ``generations`` and
``minutes`` are totals over every resumed part; a generation that starts is played to its end.

Threads: the search runs torch on ``torch_threads`` beside Numba's kernels; the update takes
as many threads as Numba's pool where both pools sleep when idle (``ppo.Trainer``'s rule). The
network acts and learns on ``device`` ("auto": CUDA where present, ``device.py``); the games
and the search's tree stay on the CPU.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import asdict
from pathlib import Path

import numba
import numpy as np
import torch

from ..agents import BOTS, compile_bots, kingdom_for, load_bot_file
from ..analysis.mixed import play_mixed
from ..engine.observation import obs_size
from ..search.guided import GuidedSearch
from ..shaping import vp_margin
from ..vector import VecGame
from . import tensorfile
from .checkpoint import (
    optimizer_parts,
)
from .device import check_device
from .evaluate import EVAL_SEED
from .opponents import LIBRARY_BOTS, KingdomExperts
from .policy import (
    Agent,
    AgentInfo,
    info_net,
    save_agent,
)
from .replay_buffer import Decisions, Window
from .search_network import NetEvaluator
from .selfplay_checkpoint import (
    is_missing,
    read_checkpoint,
    saved_checkpoint,
    saved_config,
    write_progress,
)
from .selfplay_settings import (
    AGENT_FILE,
    CHECKPOINT_FILE,
    DEFAULT_GENERATIONS,
    INT_BOUNDS,
    LEAGUE,
    NUMBER_BOUNDS,
    PREVIOUS,
    SAVE_SECONDS,
    SelfPlayConfig,
    check_config,
    check_init,
    league_games,
)
from .threads import PASSIVE_POOLS


def _key(*parts) -> int:
    """A seed from (seed, generation, batch, ...): streams that do not depend on the order
    anything else drew in."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1, np.uint64)[0] >> 1)


class League:
    """A batch's rows' opponents: row i plays ``kinds[i]``, "self" (the search at every seat)
    or a ``LEAGUE`` opponent at every seat but the learner's: "past", the greedy network
    ``agents[past[i]]``; "bots", library bot ``LIBRARY_BOTS[bots[i]]`` on its own kingdom
    (``agents.kingdom_for``); "optimized", the expert of the row's random kingdom
    (``KingdomExperts``). ``answer`` plays them all at once: a forward per past network, one
    compiled call for the bots (ids into one table of ``LIBRARY_BOTS``), one for the experts."""

    def __init__(self, kinds, past, bots, agents, library, experts):
        self.kinds, self.past, self.bots = kinds, past, bots
        self.agents, self.library, self.experts = agents, library, experts

    def kingdoms(self) -> list:
        """Each row's kingdom: a "bots" row its bot's, every other row a random one."""
        return [
            tuple(kingdom_for([BOTS[LIBRARY_BOTS[b]]])) if kind == "bots" else "random"
            for kind, b in zip(self.kinds, self.bots, strict=True)
        ]

    def answer(self, vec: VecGame, rows) -> np.ndarray:
        """The opponents' actions at ``rows`` (league rows, each waiting for a non-learner
        seat) of ``vec``."""
        out = np.full(len(rows), -1, np.int64)
        kind = self.kinds[rows]
        past = np.flatnonzero(kind == "past")
        for j in np.unique(self.past[rows[past]]):
            mine = past[self.past[rows[past]] == j]
            out[mine] = self.agents[j].act(vec.observation[rows[mine]], vec.action_mask[rows[mine]])
        bots = np.flatnonzero(kind == "bots")
        if len(bots):
            out[bots] = vec.bot_actions(self.library, self.bots)[rows[bots]]
        experts = np.flatnonzero(kind == "optimized")
        if len(experts):
            out[experts] = self.experts.actions(vec, rows[experts])
        return out


class SelfPlay:
    """The loop (module docstring): ``run()`` plays, learns and saves generation after
    generation until ``generations`` or ``minutes``."""

    def __init__(self, cfg: SelfPlayConfig, init: Agent, progress=None):
        self.cfg = check_config(cfg)
        self.device = check_device(cfg.device)
        torch.set_num_threads(cfg.torch_threads)
        self.update_threads = (
            max(cfg.torch_threads, numba.config.NUMBA_NUM_THREADS)
            if PASSIVE_POOLS
            else cfg.torch_threads
        )
        i = init.info
        self.layout = {"hidden": list(i.hidden), "network": i.network, "embed": i.embed}
        # the init's value is a shaped return (module docstring): the loop's nets keep its meaning
        self.vp_shaping = NetEvaluator(init, cfg.init).vp_shaping
        self.layout["vp_shaping"] = self.vp_shaping
        self.generation = self.saved = 0  # generations done, and saved in out
        # the generation under way: {generation, batches (played), data, league} or None
        self.partial: dict | None = None
        self.saved_batches = 0  # batches of the generation under way saved in out
        self._saved_at = time.perf_counter()
        self.seconds = 0.0
        self.decisions = 0  # searched decisions so far
        self.history: list[dict] = []
        self.net = self._copy(init.net)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, eps=1e-5)
        self.past = [self._copy(self.net)]  # greedy league opponents, newest last
        self.window = Window(cfg.window)
        self.progress = progress
        self.phase, self.phase_done = "games", 0.0
        self.obs_dim = obs_size(cfg.players)
        self._experts = None  # the optimizer's bots, read when first needed
        self._library = None  # LIBRARY_BOTS compiled, when first needed

    # -- networks ------------------------------------------------------------------------------

    def _info(self, name=None) -> AgentInfo:
        cfg = self.cfg
        vp = self.vp_shaping
        return AgentInfo(
            name=name or cfg.name,
            players=cfg.players,
            hidden=tuple(self.layout["hidden"]),
            scale_observations=True,
            network=self.layout["network"],
            embed=self.layout["embed"],
            trained={
                "config": {"vp_shaping": vp},  # how the search reads the value head
                "selfplay": asdict(cfg),
                "generation": self.generation,
                "steps": self.decisions,
                "minutes": round(self.seconds / 60, 2),
            },
        )

    def _copy(self, net):
        new = info_net(self._info()).to(self.device)
        new.load_state_dict(net.state_dict())
        return new.eval()

    def agent(self, net=None, name=None) -> Agent:
        """A greedy Agent of ``net`` (the current network by default)."""
        return Agent(net if net is not None else self.net, self._info(name), greedy=True)

    def search(self, seed: int) -> GuidedSearch:
        """The guided search with the current network, seeded ``seed``."""
        cfg = self.cfg
        network = NetEvaluator(self.agent(), cfg.name, cfg.torch_threads)
        return GuidedSearch(network, cfg.budget, seed, cfg.depth)

    # -- the loop ------------------------------------------------------------------------------

    def finished(self) -> bool:
        cfg = self.cfg
        gens = cfg.generations
        if gens is None and cfg.minutes is None:
            gens = DEFAULT_GENERATIONS
        return (gens is not None and self.generation >= gens) or (
            cfg.minutes is not None and self.seconds >= 60 * cfg.minutes
        )

    def done(self) -> float:
        """How much of the run is done, 0..1 (generations or minutes, the larger)."""
        cfg = self.cfg
        gens = cfg.generations
        if gens is None and cfg.minutes is None:
            gens = DEFAULT_GENERATIONS
        return min(
            1.0,
            max(
                self.generation / gens if gens else 0.0,
                self.seconds / (60 * cfg.minutes) if cfg.minutes else 0.0,
            ),
        )

    def run(self) -> SelfPlay:
        t0 = time.perf_counter() - self.seconds
        while not self.finished():
            self.step(lambda: time.perf_counter() - t0)
            self.save()
        return self

    def step(self, clock=None) -> dict:
        """One generation: play, learn, measure; returns its history row."""
        clock = clock or (lambda: self.seconds)
        g = self.generation + 1
        data, league = self.play(g, clock)
        self._report("learning", 0.0, clock)
        previous = self.past[-1]
        stats = self.learn(g)
        self.generation = g
        self.decisions += len(data)
        self.past.append(self._copy(self.net))
        del self.past[: -self.cfg.max_past]
        self._report("measuring", 0.0, clock)
        row = {"generation": g, "minutes": 0.0, "decisions": len(data)}
        if self.cfg.eval_games:
            row[f"win_rate[{PREVIOUS}]"] = self.versus(self.net, previous)
        for kind, results in league.items():  # the league's games, where it has any
            if results:
                row[f"win_rate[{kind}]"] = round(float((np.asarray(results) == 1).mean()), 4)
        row.update({k: round(v, 5) for k, v in stats.items()})
        self.seconds = clock()
        row["minutes"] = round(self.seconds / 60, 3)
        self.history.append(row)
        self._report("done", 1.0, clock)
        return row

    def _report(self, phase: str, done: float, clock) -> None:
        self.phase, self.phase_done = phase, done
        self.seconds = clock()
        if self.progress is not None:
            self.progress(self)

    def plan(self, g: int) -> list[list[str]]:
        """The generation's batches, each its rows' opponents ("self" or a ``LEAGUE`` kind), at
        most ``batch`` rows: the generation's games in order, self-play first, then the
        league's (its games split evenly among ``LEAGUE``)."""
        cfg = self.cfg
        n = league_games(cfg)
        split = np.array_split(np.arange(n), len(LEAGUE))
        kinds = ["self"] * (cfg.games - n)
        kinds += [kind for kind, part in zip(LEAGUE, split, strict=True) for _ in part]
        return [kinds[s : s + cfg.batch] for s in range(0, cfg.games, cfg.batch)]

    def play(self, g: int, clock) -> tuple[Decisions, dict]:
        """Generation g's games: (their recorded decisions, the learner's results per league
        opponent). The batches played so far are kept in ``partial`` (saved with the run at
        most every ``SAVE_SECONDS``), so a stop loses only the batch under way; a resumed
        run starts at the batch after the last one saved."""
        plan = self.plan(g)
        parts, league, start = [], {k: [] for k in LEAGUE}, 0
        if self.partial is not None and self.partial["generation"] == g:
            start, parts = self.partial["batches"], [self.partial["data"]]
            league = {k: list(v) for k, v in self.partial["league"].items()}
        for b in range(start, len(plan)):
            self._report("games", b / len(plan), clock)
            # a search of its own per batch: a batch plays the same whether its generation
            # started in this process or was resumed at it
            search = self.search(_key(self.cfg.seed, g, 1, b))
            data, results = self.play_batch(search, plan[b], g, b)
            data.game = None
            parts.append(data)
            for kind, r in results.items():
                league[kind] += r.tolist()
            if b + 1 < len(plan):
                self.partial = {
                    "generation": g,
                    "batches": b + 1,
                    "data": Decisions.join(parts),
                    "league": league,
                }
                parts = [self.partial["data"]]
                if time.perf_counter() - self._saved_at >= SAVE_SECONDS:
                    self.seconds = clock()
                    self.save()
        data = Decisions.join(parts)
        data.game = None
        self.window.add(data)
        self.partial = None
        return data, league

    def league_rows(self, kinds, key: int) -> League:
        """Each row's league opponent for a batch whose rows play ``kinds``, drawn from ``key``
        (``League``)."""
        if self._experts is None and "optimized" in kinds:
            self._experts = KingdomExperts(self.cfg.players, load_bot_file("optimized"))
        if self._library is None:
            self._library = compile_bots(list(LIBRARY_BOTS))
        rng = np.random.default_rng(key)
        n = len(kinds)
        past = rng.integers(len(self.past), size=n)
        bots = rng.integers(len(LIBRARY_BOTS), size=n)
        agents = [self.agent(net, "past") for net in self.past]
        return League(np.asarray(kinds), past, bots, agents, self._library, self._experts)

    def play_batch(self, search, kinds, g: int, b: int):
        """Batch b of generation g, a VecGame whose row i plays ``kinds[i]`` ("self" or a
        ``LEAGUE`` opponent, ``League``): (the learner's decisions with their results, the
        learner's results per league opponent in the batch)."""
        cfg = self.cfg
        P = cfg.players
        league = self.league_rows(kinds, _key(cfg.seed, g, b))
        n = len(kinds)
        vec = VecGame(
            n,
            P,
            row_kingdoms=league.kingdoms(),
            autoreset=False,
            scale_observations=True,
            turn_limit=cfg.turn_limit,
        )
        vec.reset(_key(cfg.seed, g, b, 1))
        rng = np.random.default_rng(_key(cfg.seed, g, b, 2))
        games = np.arange(n)
        selfplay = league.kinds == "self"
        learner = np.where(selfplay, -1, (games + b) % P)  # -1: every seat
        moves = np.zeros((n, P), np.int64)
        reward = np.zeros((n, P), np.float64)
        parts = []
        while (live := vec.running).any():
            seat = vec.current_player.astype(np.int64)
            mine = live & ((learner < 0) | (seat == learner))
            actions = np.full(n, -1, np.int64)
            rows = np.flatnonzero(mine)
            if len(rows):
                chosen, policy = search.policy_games(vec, rows)
                u = rng.random(len(rows))
                c = np.cumsum(policy, axis=1)
                drawn = (c < (1.0 - u)[:, None] * c[:, -1:]).sum(axis=1)
                early = moves[rows, seat[rows]] < cfg.sample_moves
                actions[rows] = np.where(early, drawn, chosen)
                moves[rows, seat[rows]] += 1
                margin = vp_margin(vec.scores[rows], seat[rows])  # as it decides
                parts.append(
                    Decisions.of(
                        vec.observation[rows],
                        vec.action_mask[rows],
                        policy,
                        seat[rows],
                        rows,
                        margin,
                    )
                )
            other = np.flatnonzero(live & ~mine)
            if len(other):
                actions[other] = league.answer(vec, other)
            vec.step(actions)
            reward += vec.rewards
        data = Decisions.join(parts)
        data.z = reward[data.game, data.seat].astype(np.float32)
        results = {}
        for kind in LEAGUE:
            rows = np.flatnonzero(league.kinds == kind)
            if len(rows):
                results[kind] = reward[rows, learner[rows]]
        return data, results

    @contextlib.contextmanager
    def _update_threads(self):
        torch.set_num_threads(self.update_threads)
        try:
            yield
        finally:
            torch.set_num_threads(self.cfg.torch_threads)

    def learn(self, g: int) -> dict:
        """The network learns the window's decisions (module docstring): mean losses."""
        with self._update_threads():
            return self._learn(self.window.rows(), _key(self.cfg.seed, g, 3))

    def _learn(self, data: Decisions, key: int) -> dict:
        cfg = self.cfg
        gen = torch.Generator().manual_seed(key)
        mask = torch.from_numpy(data.mask).to(self.device)
        target = torch.from_numpy(data.policy).to(self.device)
        z = torch.from_numpy(self.value_target(data)).to(self.device)
        stats = {"policy_loss": 0.0, "value_loss": 0.0}
        steps = 0
        self.net.train()
        for _ in range(cfg.epochs):
            perm = torch.randperm(len(data), generator=gen)
            for i in range(0, len(data), cfg.minibatch):
                rows = perm[i : i + cfg.minibatch]
                r = rows.to(self.device)
                policy_loss, value_loss = self.losses(data, rows, mask[r], target[r], z[r])
                loss = policy_loss + cfg.vf_coef * value_loss
                self.opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), cfg.max_grad_norm)
                self.opt.step()
                stats["policy_loss"] += policy_loss.item()
                stats["value_loss"] += value_loss.item()
                steps += 1
        self.net.eval()
        return {k: v / max(1, steps) for k, v in stats.items()}

    def value_target(self, data: Decisions) -> np.ndarray:
        """The value head's target per decision: the shaped return-to-go, z less the potential
        at the decision (module docstring), so every generation's value means what the init's
        did."""
        return (data.z - self.vp_shaping * data.margin).astype(np.float32)

    def losses(self, data: Decisions, rows, mask, target, z):
        """(cross-entropy to the improved policy, squared error of the value to z), means over
        ``rows`` of ``data``."""
        logits, value = self.net(data.dense(rows, self.obs_dim, self.device), mask)
        logp = torch.log_softmax(logits, -1).masked_fill(~mask, 0.0)  # 0 x -inf is nan
        return -(target * logp).sum(-1).mean(), ((value - z) ** 2).mean()

    def versus(self, net, other) -> float:
        """``net``'s win rate against ``other``, both greedy, on ``eval_games`` deals each
        played twice, the seats turned (the same seeds): 2 x eval_games games."""
        cfg = self.cfg
        players = [self.agent(net, "new"), self.agent(other, "previous")]
        n, P = cfg.eval_games, cfg.players
        wins = 0
        for turn in (0, 1):
            seat = (np.arange(n) + turn) % P  # the new network's seat
            seats = np.where(np.arange(P)[None, :] == seat[:, None], 0, 1)
            res = play_mixed(
                players, n, P, seed=EVAL_SEED, seat_player=seats, turn_limit=cfg.turn_limit
            )
            wins += int((res.reward[np.arange(n), seat] == 1).sum())
        return round(wins / (2 * n), 4)

    # -- files ---------------------------------------------------------------------------------

    def save(self, out=None) -> dict:
        out = Path(out or self.cfg.out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"agent": save_agent(self.net, self._info(), out / AGENT_FILE)}
        tensors = {f"net.{k}": v for k, v in self.net.state_dict().items()}
        for j, net in enumerate(self.past):
            tensors.update({f"past.{j}.{k}": v for k, v in net.state_dict().items()})
        opt_tensors, opt_doc = optimizer_parts(self.opt.state_dict())
        tensors.update(opt_tensors)
        data = []
        for j, d in enumerate(self.window.generations):
            tensors.update({f"data.{j}.{k}": v for k, v in d.tensors().items()})
            data.append({"decisions": len(d), "width": int(d.idx.shape[1])})
        partial = None
        if self.partial is not None:
            d = self.partial["data"]
            tensors.update({f"partial.{k}": v for k, v in d.tensors().items()})
            partial = {
                "generation": self.partial["generation"],
                "batches": self.partial["batches"],
                "decisions": len(d),
                "width": int(d.idx.shape[1]),
                "league": {k: [float(x) for x in v] for k, v in self.partial["league"].items()},
            }
        doc = {
            "config": asdict(self.cfg),
            "layout": self.layout,
            "partial": partial,
            "generation": self.generation,
            "seconds": self.seconds,
            "decisions": self.decisions,
            "history": self.history,
            "optimizer": opt_doc,
            "past": len(self.past),
            "data": data,
        }
        paths["checkpoint"] = tensorfile.write(out / CHECKPOINT_FILE, "selfplay", tensors, doc)
        paths["csv"] = write_progress(self.history, out / "progress.csv")
        self.saved = self.generation
        self.saved_batches = 0 if self.partial is None else self.partial["batches"]
        self._saved_at = time.perf_counter()
        return paths

    @classmethod
    def resume(
        cls,
        out,
        generations: int | None = None,
        minutes: float | None = None,
        device: str | None = None,
        progress=None,
        checkpoint: dict | None = None,
    ) -> SelfPlay:
        """Continue the run saved in ``out``: ``generations`` and ``minutes`` are new totals,
        ``device`` moves it. The checkpoint is checked whole first (``read_checkpoint``; or
        ``checkpoint``, what it returned for ``out`` already: a file is read once); the run
        saves into ``out``, never where its config says it once was."""
        c = read_checkpoint(Path(out) / CHECKPOINT_FILE) if checkpoint is None else checkpoint
        cfg = c["config"]
        cfg.out = str(out)
        if generations is not None:
            cfg.generations = generations
        if minutes is not None:
            cfg.minutes = minutes
        if device is not None:
            cfg.device = device
        lay = c["layout"]
        info = AgentInfo(
            "init",
            cfg.players,
            tuple(lay["hidden"]),
            True,
            {"config": {"vp_shaping": lay["vp_shaping"]}},
            lay["network"],
            lay["embed"],
        )
        init = Agent(info_net(info), info)  # the run's value shaping, as the init had it
        init.net.load_state_dict(c["net"])
        loop = cls(cfg, init, progress)
        loop.opt.load_state_dict(c["opt"])
        loop.past = []
        for sd in c["past"]:
            loop.past.append(loop._copy(loop.net))
            loop.past[-1].load_state_dict(sd)
        for d in c["data"]:
            loop.window.add(d)
        loop.generation, loop.seconds = c["generation"], c["seconds"]
        loop.decisions, loop.history = c["decisions"], c["history"]
        loop.partial = c["partial"]
        loop.saved = loop.generation  # what out holds already, should the run stop at once
        loop.saved_batches = 0 if loop.partial is None else loop.partial["batches"]
        return loop


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM through the CLI) during ``selfplay``: ``loop.saved`` generations
    are in ``out`` (``loop`` itself may be part way through the next, which is lost)."""

    def __init__(self, loop: SelfPlay):
        super().__init__(f"interrupted; {saved_text(loop)} saved")
        self.loop = loop


def saved_text(loop: SelfPlay) -> str:
    """What a stopped run has in ``out``: its generations and the next one's batches."""
    more = f" and {loop.saved_batches} batch(es) of the next" if loop.saved_batches else ""
    return f"{loop.saved} generation(s){more}"


def selfplay(
    cfg: SelfPlayConfig,
    progress=None,
    resume: bool = False,
    *,
    init: Agent | None = None,
    checkpoint: dict | None = None,
) -> SelfPlay:
    """Run (or resume, from ``cfg.out``) the loop, saving after every generation; returns it.
    ``progress(loop)`` is called as it moves (``loop.phase``, ``loop.phase_done``). A caller
    that has loaded the init agent (``check_init``) or read the checkpoint to resume
    (``saved_checkpoint``) passes it as ``init`` or ``checkpoint``: each is loaded once."""
    if resume and (checkpoint is not None or not is_missing(Path(cfg.out) / CHECKPOINT_FILE)):
        loop = SelfPlay.resume(
            cfg.out, cfg.generations, cfg.minutes, cfg.device, progress, checkpoint
        )
    else:  # SelfPlay checks the settings
        loop = SelfPlay(cfg, check_init(cfg) if init is None else init, progress)
    try:
        return loop.run()
    except KeyboardInterrupt:
        raise Interrupted(loop) from None


__all__ = [
    "AGENT_FILE",
    "CHECKPOINT_FILE",
    "DEFAULT_GENERATIONS",
    "INT_BOUNDS",
    "Interrupted",
    "LEAGUE",
    "NUMBER_BOUNDS",
    "SelfPlay",
    "SelfPlayConfig",
    "check_config",
    "check_init",
    "read_checkpoint",
    "saved_checkpoint",
    "saved_config",
    "saved_text",
    "selfplay",
    "write_progress",
]
