"""The guided search: a trained network as the search's prior and its evaluator (Gumbel search).

At each of its decisions (one or many at once, one per game that waits for it), with the
network's logits ``l`` and value at the root (the seat's own observation: nothing hidden):

determinize  each simulation deals the cards hidden from the deciding seat anew, consistently
             with what that seat knows (``engine.determinize``), from the search's streams
             (``Search``'s rule: a decision depends only on what the seat could know)
select       Gumbel-top-k without replacement: g(a) ~ Gumbel(0, 1) per action, keyed by
             (seed, decision number); the m = min(legal actions, budget, ``max_considered``)
             legal actions with the largest g + l are the arms; sequential halving over them
             in mctx's schedule (Danihelka et al. 2022): each round gives every arm still in
             max(1, floor(N / (ceil(log2 m) * k))) simulations (k arms in, N the budget), then
             keeps the best max(2, floor(k / 2)) by g + l + sigma(q), until the budget is spent;
             the last round is cut to what is left (the best-ranked arms get its spare
             simulations), so a decision runs at most N simulations (exactly N when m >= 2;
             none with one legal action or m = 1, whose choice is already made)
expand       a root arm is the decision answered with that action (one ply); arms are compared
             on the same deals (an arm's i-th simulation uses deal i)
simulate     the network chooses, greedily, for every seat for ``depth`` decisions (the game's
             end stops it sooner): each step is one batched forward over every simulation of
             every waiting decision, then one kernel call (``playout``)
evaluate     the simulation's value for the searching seat: its result where the game ended
             (+1 / 0 / -1; 0 at the turn limit), else the network's value at the leaf
back up      q(a) = the mean value of a's simulations
choose       among the arms with the most simulations, the one with the largest g + l + sigma(q)

What the value head predicts: the trainer shapes rewards with the potential phi = c x (the
seat's VP - the best other seat's VP) (``dominion_env.shaping``, c the agent's ``vp_shaping``),
each reward being phi's change since the seat's previous decision and the result at the end,
with gamma 1. The return from a decision s of the seat is therefore result - phi(s), and the
head estimates that: the seat's expected result at s is value(s) + phi(s), taken from the
record's VP and clipped to [-1, 1]. The leaf is one seat's decision: with 2 players its value
is for the decider there, and the searching seat's is minus it (zero-sum: +1 / 0 / -1);
with 3 to 6 the network reads the searching seat's own observation of the leaf (what
PettingZoo's ``state()`` writes for every seat) and its value is the searching seat's.

sigma and the improved policy are mctx's ``qtransform_completed_by_mix_value``: an arm never
simulated gets the mixed value (root value + the visited arms' prior-weighted mean q x their
visits) / (visits + 1); the completed q are rescaled to [0, 1] over the legal actions (min to
max), and sigma(q) = (``c_visit`` + the largest visit count) x ``c_scale`` x q. The improved
policy is softmax(l + sigma(completed q)) over the legal actions (``policy_games``): the target
a learner imitates (Expert Iteration / Gumbel AlphaZero), returned beside the chosen action.

Depth (``bench/bench_guided.py``, budget 256, ppo-pool, 100 games a figure, 2 players, random
kingdoms; docs/guide.md has the table): depth 1 won 41% against the network alone and 62%
against the strongest library bot per kingdom (the network alone: 72%); depth 4 won 54% and
72% with a median decision of 22 ms; 8 and 16 gave 57% / 69% and 58% / 67% at 2 and 3.5 times
the time. 4 is the default.

The network is any object with ``name``, ``players``, ``scale_observations`` (whether it reads
VecGame's scaled observations), ``vp_shaping`` (c above) and ``evaluate(obs, mask) ->
(logits (N, A), value (N,))``, numpy in and out; ``dominion_env.train.search_network`` adapts a
trained agent (this package imports no network library).

Seeds: decision d's Gumbel draws come from (seed, d) and its simulations' deals from
(seed, d, simulation), as ``Search``'s do, so the same games asked in the same order get the
same answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..cards import NUM_CARDS, TABLE
from ..checks import check_int, check_number, check_seed
from ..engine.batch import scores_kernel
from ..engine.layout import DEC_PLAYER, NUM_ACTIONS, PLAYERS, RUNNING, STATUS, new_log
from ..engine.observation import obs_offsets, obs_scale
from ..names import action_name
from ..shaping import vp_potential
from . import halving, qtransform
from .playout import Playout, gumbel_kernel, observe_kernel, start_kernel, step_kernel
from .rollout import as_bytes
from .search import MAX_BUDGET, PARALLEL_MIN_ROWS, SearchPlayer

# simulations per decision: median decision under 100 ms on a 2-core box (bench/bench_guided.py;
# docs/guide.md has the figures)
DEFAULT_GUIDED_BUDGET = 256
DEFAULT_DEPTH = 4  # network decisions per simulation before the leaf's value
MAX_DEPTH = 1000
DEFAULT_MAX_CONSIDERED = 16  # mctx's max_num_considered_actions
C_VISIT, C_SCALE = 50.0, 0.1  # mctx's maxvisit_init and value_scale
ROWS_PER_CALL = 4096  # simulations per batch (each row is a game record, a few KB)


class Decision(NamedTuple):
    """A guided search's answer for R decisions."""

    actions: np.ndarray  # (R,) int64, the chosen actions
    policy: np.ndarray  # (R, A) float64, the improved policy (0 on illegal actions)
    prior: np.ndarray  # (R, A) float64, the network's policy at the root
    q: np.ndarray  # (R, A) float64, completed values for the searching seat (-1..1)
    visits: np.ndarray  # (R, A) int64, simulations per action
    value: np.ndarray  # (R,) float64, the network's value of the root for its seat


@dataclass(frozen=True)
class GuidedValue:
    """One legal action of a decision searched with a network: its prior probability, its
    value for the searching seat (the mean of its simulations; never simulated: the mixed
    value the search completed it with), its simulations and its improved-policy weight."""

    action: str
    index: int
    prior: float
    value: float
    visits: int
    policy: float


def check_network(network) -> None:
    missing = [
        k
        for k in ("name", "players", "scale_observations", "vp_shaping", "evaluate")
        if not hasattr(network, k)
    ]
    if missing or not callable(network.evaluate):
        raise TypeError(
            "network must have name, players, scale_observations, vp_shaping and "
            f"evaluate(obs, mask) -> (logits, value) (dominion_env.train.search_network); "
            f"{network!r} lacks {', '.join(missing) or 'a callable evaluate'}"
        )


class GuidedSearch(SearchPlayer):
    """A player that searches each decision with a network as prior and evaluator (module
    docstring). ``network``: the evaluator; ``budget``: simulations per decision (at most);
    ``seed``: the search's own streams; ``depth``: network decisions per simulation;
    ``max_considered``: the most arms; ``c_visit``, ``c_scale``: sigma's constants."""

    def __init__(
        self,
        network,
        budget: int = DEFAULT_GUIDED_BUDGET,
        seed: int = 0,
        depth: int = DEFAULT_DEPTH,
        max_considered: int = DEFAULT_MAX_CONSIDERED,
        c_visit: float = C_VISIT,
        c_scale: float = C_SCALE,
    ):
        check_network(network)
        self.network = network
        self.budget = check_int("budget", budget, 1, MAX_BUDGET - 1, "simulations per decision")
        self.seed = check_seed(seed)
        self.depth = check_int("depth", depth, 0, MAX_DEPTH, "network decisions per simulation")
        self.max_considered = check_int("max_considered", max_considered, 1, NUM_ACTIONS)
        self.c_visit = check_number("c_visit", c_visit, 0.0)
        self.c_scale = check_number("c_scale", c_scale, 0.0)
        self.players = int(network.players)
        self.scale_observations = False  # it reads the game, not an observation
        self._decisions = 0
        self.simulations = 0  # simulations run so far (tests and benchmarks read it)
        self._rows = None
        # the observation's layout and scale, computed once (each costs milliseconds)
        self._offsets = obs_offsets(self.players)
        scaled = network.scale_observations
        self._scale = obs_scale(self.players) if scaled else np.zeros(0, np.float32)

    def with_seed(self, seed: int) -> GuidedSearch:
        """A fresh GuidedSearch with these settings seeded ``seed``."""
        return GuidedSearch(
            self.network,
            self.budget,
            seed,
            self.depth,
            self.max_considered,
            self.c_visit,
            self.c_scale,
        )

    @property
    def name(self) -> str:
        return f"search:{self.network.name}:{self.budget}"

    def __repr__(self) -> str:
        return (
            f"GuidedSearch(network={self.network.name!r}, budget={self.budget}, "
            f"seed={self.seed}, depth={self.depth}, max_considered={self.max_considered})"
        )

    # -- as a player -------------------------------------------------------------------------

    def act_games(self, vec, rows) -> np.ndarray:
        """The actions for rows ``rows`` of VecGame ``vec`` (each waiting for a decision of
        the seat this search plays)."""
        return self.policy_games(vec, rows)[0]

    def policy_games(self, vec, rows) -> tuple[np.ndarray, np.ndarray]:
        """(actions (n,), improved policies (n, A)) for rows ``rows`` of VecGame ``vec``: the
        chosen actions and the targets a learner imitates (module docstring)."""
        rows = np.asarray(rows, np.int64)
        d = self.search(vec.state[rows], vec.action_mask[rows], vec.config)
        return d.actions, d.policy

    def analyze(self, game) -> list[GuidedValue]:
        """What the guided search would do in ``game`` (a ``Game``) now: every legal action's
        prior, value, simulations and improved-policy weight, the chosen one first, then by
        simulations and weight. Plays nothing (the decision count advances)."""
        if game.done:
            raise ValueError("the game is over: no decision to analyze")
        d = self.search(game.state[:1], game.action_mask[None], game.vec.config)
        out = [
            GuidedValue(
                action_name(int(a)),
                int(a),
                float(d.prior[0, a]),
                float(d.q[0, a]),
                int(d.visits[0, a]),
                float(d.policy[0, a]),
            )
            for a in np.flatnonzero(game.action_mask)
        ]
        chosen = int(d.actions[0])
        return sorted(out, key=lambda v: (v.index != chosen, -v.visits, -v.policy, v.index))

    # -- the search ----------------------------------------------------------------------------

    def search(self, states, masks, cfg) -> Decision:
        """Search every game of ``states`` (records, each waiting for a decision) with its
        mask in ``masks`` (R, A); a decision with one legal action is not simulated."""
        R = states.shape[0]
        masks = np.asarray(masks, bool)
        if masks.shape != (R, NUM_ACTIONS):
            raise ValueError(f"masks must have shape ({R}, {NUM_ACTIONS}), got {masks.shape}")
        if R and (states["game"][:, STATUS] != RUNNING).any():
            raise ValueError("every game searched must be running (waiting for a decision)")
        other = states["game"][:, PLAYERS][states["game"][:, PLAYERS] != self.players]
        if other.size:
            raise ValueError(
                f"{self.name} is guided by {self.network.name!r}, which plays "
                f"{self.players}-player games; got a game of {int(other[0])} players"
            )
        cfg = cfg._replace(log=0, log_buf=new_log(False))
        roots = np.ascontiguousarray(states)
        first = self._decisions
        self._decisions += R
        seat = roots["game"][:, DEC_PLAYER].astype(np.int64)
        obs = self.observe(roots, np.full(R, -1, np.int64))
        logits, value = self._evaluate(obs, masks)
        root_value = self._expected(value, self._scores(roots), seat)
        gumbel = np.zeros((R, NUM_ACTIONS))
        decision = first + np.arange(R, dtype=np.int64)
        self._call(gumbel_kernel, R, np.int64(self.seed), decision, np.zeros(R, np.uint64), gumbel)
        legal = masks.sum(axis=1)
        m = np.minimum(np.minimum(legal, self.budget), self.max_considered)
        # Gumbel-top-m without replacement: the m legal actions with the largest g + l
        base = np.where(masks, gumbel + logits, -np.inf)
        first_rank = halving.rank(base)
        alive = masks & (first_rank < m[:, None])
        sums = np.zeros((R, NUM_ACTIONS))
        visits = np.zeros((R, NUM_ACTIONS), np.int64)
        spent = np.zeros(R, np.int64)
        searched = m >= 2  # m = 1: the one arm is the choice, nothing to compare
        while True:
            k = alive.sum(axis=1)
            if not np.where(searched, self.budget - spent, 0).any():
                break
            n, spare = halving.mctx_share(self.budget, np.where(searched, spent, self.budget), k, m)
            score = self._score(base, sums, visits, masks, logits, root_value)
            order = halving.rank(np.where(alive, score, -np.inf))
            count = np.where(alive, n[:, None] + (order < spare[:, None]), 0)
            self._round(roots, count, visits, sums, first, cfg)
            spent += count.sum(axis=1)
            score = self._score(base, sums, visits, masks, logits, root_value)
            alive = halving.keep_best(alive, score, np.maximum(2, k // 2))
        completed, sigma = self._completed(sums, visits, masks, logits, root_value)
        score = np.where(masks, gumbel + logits + sigma, -np.inf)
        most = visits == visits.max(axis=1, keepdims=True)
        pick = np.where(searched[:, None], most & (visits > 0), first_rank == 0) & masks
        actions = np.argmax(np.where(pick, score, -np.inf), axis=1).astype(np.int64)
        policy = qtransform.softmax(np.where(masks, logits + sigma, -np.inf))
        return Decision(actions, policy, qtransform.softmax(logits), completed, visits, root_value)

    def _score(self, base, sums, visits, masks, logits, root_value):
        return base + self._completed(sums, visits, masks, logits, root_value)[1]

    def _completed(self, sums, visits, masks, logits, root_value):
        """(completed q (R, A), sigma of them) (``qtransform``)."""
        completed = qtransform.complete(sums, visits, masks, logits, root_value)
        return completed, qtransform.sigma(completed, visits, masks, self.c_visit, self.c_scale)

    def _round(self, roots, count, visits, sums, first, cfg):
        """count[r, a] simulations of action a at root r, on the deals numbered from
        visits[r, a] (every arm's i-th simulation on deal i); adds them to sums and visits."""
        row_root, row_action = np.nonzero(count)
        reps = count[row_root, row_action]
        root = np.repeat(row_root, reps)
        action = np.repeat(row_action, reps)
        starts = np.cumsum(reps) - reps
        sample = np.arange(root.shape[0]) - np.repeat(starts, reps)
        index = (first + root) * MAX_BUDGET + visits[root, action] + sample
        value = self.simulate(roots, root, action, index, cfg)
        np.add.at(sums, (root, action), value)
        np.add.at(visits, (root, action), 1)

    def simulate(self, roots, root, action, index, cfg) -> np.ndarray:
        """The rows' values for their searching seats (module docstring), ROWS_PER_CALL rows a
        batch: one forward per network decision of the batch."""
        M = root.shape[0]
        self.simulations += M
        out = np.zeros(M)
        roots_bytes = as_bytes(roots)
        for lo in range(0, M, ROWS_PER_CALL):
            hi = min(M, lo + ROWS_PER_CALL)
            m = hi - lo
            records, mask, scratch, work, rng = self._work(min(M, ROWS_PER_CALL))
            rows = Playout(
                root[lo:hi],
                action[lo:hi],
                index[lo:hi],
                np.zeros(m, np.int64),
                as_bytes(records[:m]),
                mask[:m],
                scratch[:m],
                work[:m],
                rng[:m],
            )
            self._call(
                start_kernel, m, records[:m], roots_bytes, rows, np.int64(self.seed), TABLE, cfg
            )
            for _ in range(self.depth):
                live = np.flatnonzero(records["game"][:m, STATUS] == RUNNING)
                if not live.size:
                    break
                obs = self.observe(records[:m], np.full(m, -1, np.int64))
                logits, _ = self._evaluate(obs[live], rows.mask[live])
                actions = np.full(m, -1, np.int64)
                actions[live] = np.argmax(logits, axis=1)
                self._call(step_kernel, m, records[:m], actions, rows, TABLE, cfg)
            out[lo:hi] = self._leaf(records[:m], rows)
        return out

    def _leaf(self, records, rows) -> np.ndarray:
        """Each row's value for its searching seat: its result where the game ended, else the
        network's (module docstring)."""
        m = records.shape[0]
        seat = rows.seat
        value = records["reward"][np.arange(m), seat].astype(np.float64)
        live = np.flatnonzero(records["game"][:, STATUS] == RUNNING)
        if not live.size:
            return value
        decider = records["game"][live, DEC_PLAYER].astype(np.int64)
        # 2 players: the decider's own view (its value, negated for the other seat); more:
        # the searching seat's view of the leaf
        two = self.players == 2
        viewer = np.full(m, -1, np.int64) if two else seat
        obs = self.observe(records, viewer)[live]
        _, v = self._evaluate(obs, rows.mask[live])
        scores = self._scores(records)[live]
        if two:
            e = self._expected(v, scores, decider)
            value[live] = np.where(decider == seat[live], e, -e)
        else:
            value[live] = self._expected(v, scores, seat[live])
        return value

    def _expected(self, value, scores, seat) -> np.ndarray:
        """The seat's expected result from the value head's shaped return-to-go: value +
        phi, phi = vp_shaping x (its VP - the best other VP), clipped to [-1, 1]."""
        phi = vp_potential(scores, seat, float(self.network.vp_shaping))
        return np.clip(np.asarray(value, np.float64) + phi, -1.0, 1.0)

    def _evaluate(self, obs, mask):
        logits, value = self.network.evaluate(obs, mask)
        logits = np.where(mask, np.asarray(logits, np.float64), -np.inf)
        return logits, np.asarray(value, np.float64)

    def observe(self, records, viewer) -> np.ndarray:
        """(n, O) float32: each record as ``viewer[g]`` sees it (-1: its decider), as the
        network reads it (scaled where it was trained so)."""
        n = records.shape[0]
        out = np.zeros((n, self._offsets[-1]), np.float32)
        self._call(observe_kernel, n, records, TABLE, viewer, self._offsets, self._scale, out)
        return out

    def _scores(self, records) -> np.ndarray:
        n = records.shape[0]
        out = np.zeros((n, self.players), np.int64)
        self._call(scores_kernel, n, records, TABLE, np.zeros((n, NUM_CARDS), np.int64), out)
        return out

    @staticmethod
    def _call(kernel, n, *args):
        (kernel if n >= PARALLEL_MIN_ROWS else kernel.serial)(*args)


__all__ = ["Decision", "GuidedSearch", "GuidedValue", "DEFAULT_GUIDED_BUDGET"]
