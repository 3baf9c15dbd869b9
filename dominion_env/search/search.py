"""The search player: determinized flat Monte Carlo with sequential halving at the root.

At each of its decisions (one or many at once, one per game that waits for it):

determinize  each simulation deals the cards hidden from the deciding seat anew, consistently
             with what that seat knows (``engine.determinize``); nothing else of the game is
             read, and the game's own RNG state (its future shuffles) is replaced by the
             search's stream, so the decision depends only on what the seat could know
select       sequential halving over the arms: ``ceil(log2 K)`` rounds over K arms; each
             round takes an equal share of the simulations left for the rounds left (never
             so many that a later round cannot give each of its arms one), every arm still
             in plays the same number of them, on the same deals (common random numbers),
             and the better half (rounded up) by mean value goes on, the default always
             among them. The arms are every legal action when the budget gives each arm one
             simulation a round (K + K/2 + ... : 37 for an 18-way buy); with fewer, the most
             arms it does give that (5 simulations: 3 arms; 17: 8), the default and a
             uniform sample of the rest without replacement (Gumbel-top-k, from the
             decision's own stream): a decision spends at most ``budget`` simulations (at
             budget 1 no two arms fit: the default is played unsearched)
expand       a root arm is the decision answered with that action (one ply: flat, no tree)
roll out     compiled library bots play every seat to the game's end (``rollout.py``), all
             simulations of a round of every decision in one kernel call
back up      an arm's value is the mean of its simulations' values: the seat's result (+1 win,
             0 tie or turn limit, -1 loss) plus ``margin_weight`` x its final VP margin over the
             best other seat, clipped to +-MARGIN_CLIP VP: a tie-break that prefers winning by
             more and losing by less when the results alone do not separate the arms
choose       the rollout bot's own action at the root (the default; it is never eliminated)
             unless a surviving arm beats it on the same deals (paired: each simulation of
             the arm against the default's on its deal) by more than ``confidence`` standard
             errors of the mean difference (the arm with the largest mean difference); flat Monte
             Carlo over a few hundred noisy +-1 results otherwise picks among near-equal buys
             at random and plays worse than its own rollout bot (measured on development
             seeds at budget 200: 9 wins in 20 against Big Money without the default, 36 in
             40 with it)
race        a close call (the best surviving rival ahead of the default, but by less than
             ``confidence`` standard errors) gets more simulations, the rival and the default
             alone on the same new deals, a quarter budget each a round (at least
             MIN_RIVAL_VISITS), until one is clearly ahead or the next round would spend more
             than ``extend`` budgets in all: a decision spends at most ``(1 + extend) x
             budget`` simulations; the budget goes where the candidates are close, so hard
             decisions are searched harder while the median decision costs the same

Why flat determinized Monte Carlo (PIMC) rather than ISMCTS or a determinized tree: a Dominion
turn is many decisions (each play, each buy), and a tree over them spends its visits on
nodes whose children the rollout bots would answer well anyway; the strength that matters
is the choice of buys and plays against good rollouts. Sequential halving spends a fixed
budget with a simple-regret guarantee (Karnin et al. 2013), needs no exploration constant,
and its rounds batch naturally: every arm of every waiting decision is one kernel call.

The settings, measured by decision quality (``bench/bench_search.py --decisions``: 300
decisions of real games; each setting decides all of them; an oracle of 4,000 simulations per
action, on deals no setting saw, values what each chose; the figure is the mean value gained
over the rollout bot's own action per decision): at budget 800 without racing, confidence 1
gained +0.0117, 2 gained +0.0069 (it leaves the bot's action half as often, and most of those
departures were gains), 0.5 with racing +0.0125 and 0 (the best mean, no default) +0.0109;
racing (``extend`` 3) raised confidence 1 to +0.0134 for 16% more simulations on average,
about what budget 3200 without racing gave (+0.0144); budget 1600 with racing +0.0149;
``extend`` 8 gave what 3 gave (a race is decided within three budgets). The VP margin's
weight (0.01 or 0.03) made no difference. (Measured before the halving spent what earlier
rounds left over and kept the default in one of the better half's places, not beside them.)

Rollout policy: ``rollout="auto"`` (the default) plays the strongest library bot whose cards
are in the game's kingdom (``agents.strongest_bot_for``) in every seat; a bot name or ``Bot``
plays that bot everywhere.

Seeds: a Search seeded ``seed`` numbers its decisions in the order it makes them; decision d's
simulations draw from streams keyed by (seed, d, simulation), so the same games asked in the
same order get the same answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..agents import STRENGTH_ORDER, Bot, as_bot, compile_bots, strongest_bot_for
from ..cards import NAMES, NUM_CARDS, TABLE
from ..checks import check_int, check_number, check_seed
from ..engine.config import make_config
from ..engine.determinize import determinize_kernel, new_work
from ..engine.kingdoms import supply_kingdoms
from ..engine.layout import (
    NUM_ACTIONS,
    PLAYERS,
    RUNNING,
    STATUS,
    new_log,
    new_state,
)
from ..names import action_name
from . import halving
from .rollout import Rows, as_bytes, default_kernel, rollout_kernel

# simulations per decision: median decision time under 50 ms (docs/results/search.md)
DEFAULT_BUDGET = 800
MAX_BUDGET = 1 << 20  # a decision's simulations are numbered below this (their stream index)
MARGIN_CLIP = 20  # VP: the tie-break's reach
DEFAULT_MARGIN_WEIGHT = 0.01  # value per VP of margin: 20 VP is worth a fifth of a win
DEFAULT_CONFIDENCE = 1.0  # standard errors an arm must beat the default by
DEFAULT_EXTEND = 3.0  # a close call's extra simulations, in budgets (module docstring)
MAX_EXTEND = 64.0
MIN_RIVAL_VISITS = 8  # fewer simulations give no standard error worth the name
ROWS_PER_CALL = 4096  # simulations per kernel call (each row is a game record, a few KB)
PARALLEL_MIN_ROWS = 64  # below this a call runs the kernel's serial twin (engine/jit.py)


_ARM_STREAM = 1  # the arms' sample, beside the deals' streams


class Tally(NamedTuple):
    """A search's sums per root and action, (R, A) each."""

    sums: np.ndarray  # float64, results
    margins: np.ndarray  # float64, clipped VP margins
    visits: np.ndarray  # int64, simulations
    diffs: np.ndarray  # float64, values less the default's on the same deals
    diff_squares: np.ndarray  # float64, their squares

    @staticmethod
    def zeros(R: int) -> Tally:
        f = np.zeros
        shape = (R, NUM_ACTIONS)
        return Tally(f(shape), f(shape), f(shape, np.int64), f(shape), f(shape))

    def value(self, search) -> np.ndarray:
        return search._value(self.sums, self.margins)


@dataclass(frozen=True)
class ActionValue:
    """One legal action of a searched decision: its mean result (-1..1), mean VP margin, the
    value the search ranked it by, and how many simulations it got."""

    action: str
    index: int
    result: float
    margin: float
    value: float
    visits: int
    default: bool  # the rollout bot's own choice here


def check_rollout(rollout) -> str | Bot:
    if isinstance(rollout, str) and rollout == "auto":
        return rollout
    if isinstance(rollout, (str, Bot)):
        return as_bot(rollout)  # a library name it does not know: ValueError naming it
    raise TypeError(
        f"rollout must be 'auto', a library bot's name or an agents.Bot, got {rollout!r}"
    )


def parse_search_name(name: str, seed: int = 0):
    """``search`` or ``search:N`` (N simulations per decision, 1..MAX_BUDGET-1) as a Search
    seeded ``seed``; None for any other name (a bot's or an agent's). ValueError naming the
    name when it starts with ``search:`` but N is not such a count."""
    key = name.casefold()
    if key == "search":
        return Search(seed=seed)
    if not key.startswith("search:"):
        return None
    budget = key[len("search:") :]
    if not (budget.isascii() and budget.isdigit()) or not 1 <= int(budget) < MAX_BUDGET:
        raise ValueError(
            f"player {name!r}: search's budget must be simulations per decision, an int "
            f"1..{MAX_BUDGET - 1} (search:200), got {budget!r}"
        )
    return Search(int(budget), seed=seed)


class SearchPlayer:
    """What every search player shares as a player: it decides from the game (``act_games``,
    ``analyze``), never from an observation alone; plays any kingdom; numbers its decisions
    (its streams); pickles (a Ray task's copy) without its work space, rebuilt on use."""

    _decisions = 0
    _rows = None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_rows": None}

    def _work(self, m: int):
        """Per-row work space for m rows (records, mask, scratch, the determinizer's work,
        a stream per row), kept between calls (grown when needed)."""
        if self._rows is None or self._rows[0].shape[0] < m:
            state = new_state(m)
            self._rows = (
                state,
                np.zeros((m, NUM_ACTIONS), np.bool_),
                np.zeros((m, NUM_CARDS), np.int64),
                np.zeros((m, new_work(state["deck"].shape[2], NUM_CARDS).shape[0]), np.int64),
                np.zeros(m, np.uint64),
            )
        return self._rows

    @property
    def decisions(self) -> int:
        """Decisions searched so far (those with one legal action included)."""
        return self._decisions

    def kingdom_cards(self) -> list[str]:
        """Cards a table's kingdom must hold for this player: none (it plays any kingdom)."""
        return []

    def act(self, observations, masks):
        raise TypeError(
            f"{self.name} decides from the game, not from an observation: seat it where games "
            "are played in batches (simulate, tournament, evaluate, play) or call "
            "act_games(vec, rows) / analyze(game)"
        )


class Search(SearchPlayer):
    """A player that searches each of its decisions (module docstring).

    ``budget``: the most simulations per decision (``extend`` adds to it for close calls);
    ``rollout``: 'auto' or a bot; ``seed``: the search's own streams; ``margin_weight``: the
    value of one VP of final margin; ``confidence``: the standard errors by which an action
    must beat the rollout bot's own to be chosen; ``extend``: the most simulations a close
    call may add, in budgets (module docstring)."""

    scale_observations = False

    def __init__(
        self,
        budget: int = DEFAULT_BUDGET,
        rollout="auto",
        seed: int = 0,
        margin_weight: float = DEFAULT_MARGIN_WEIGHT,
        confidence: float = DEFAULT_CONFIDENCE,
        extend: float = DEFAULT_EXTEND,
    ):
        self.budget = check_int("budget", budget, 1, MAX_BUDGET - 1, "simulations per decision")
        self.rollout = check_rollout(rollout)
        self.seed = check_seed(seed)
        self.margin_weight = check_number("margin_weight", margin_weight)
        self.confidence = check_number("confidence", confidence)
        self.extend = check_number("extend", extend, 0.0, MAX_EXTEND)
        names = list(STRENGTH_ORDER) if self.rollout == "auto" else [self.rollout]
        self._bots = [as_bot(b) for b in names]
        self._table = compile_bots(self._bots)
        self._bot_of_kingdom: dict[bytes, int] = {}
        self._decisions = 0  # decisions searched so far: the next one's stream number
        self.simulations = 0  # simulations run so far (benchmarks read it)
        self._rows = None

    def with_seed(self, seed: int) -> Search:
        """A fresh Search with these settings seeded ``seed`` (its decisions numbered from 0)."""
        return Search(
            self.budget, self.rollout, seed, self.margin_weight, self.confidence, self.extend
        )

    @property
    def name(self) -> str:
        return f"search:{self.budget}"

    def __repr__(self) -> str:
        rollout = self.rollout if self.rollout == "auto" else self.rollout.name
        return (
            f"Search(budget={self.budget}, rollout={rollout!r}, seed={self.seed}, "
            f"confidence={self.confidence:g}, extend={self.extend:g})"
        )

    # -- as a player -------------------------------------------------------------------------

    def act_games(self, vec, rows) -> np.ndarray:
        """The actions for rows ``rows`` of VecGame ``vec``, each waiting for a decision of
        its current player (who this search plays)."""
        rows = np.asarray(rows, np.int64)
        return self.search(vec.state[rows], vec.action_mask[rows], vec.config)[0]

    def analyze(self, game) -> list[ActionValue]:
        """What search would do in ``game`` (a ``Game``) now, and why: every legal action of the
        pending decision with its value, simulations and whether it is the rollout bot's own
        choice, the chosen one first. Plays nothing (the search's decision count advances)."""
        if game.done:
            raise ValueError("the game is over: no decision to analyze")
        state = game.state[:1]
        chosen, sums, margins, visits, default = self.search(
            state, game.action_mask[None], game.vec.config
        )
        legal = np.flatnonzero(game.action_mask)
        out = []
        for a in legal:
            n = int(visits[0, a])
            res = float(sums[0, a] / n) if n else 0.0
            mar = float(margins[0, a] / n) if n else 0.0
            value = self._value(res, mar)
            out.append(
                ActionValue(action_name(int(a)), int(a), res, mar, value, n, bool(a == default[0]))
            )
        # the chosen action first, then the rest by how far the halving kept them, then value
        return sorted(out, key=lambda v: (v.index != chosen[0], -v.visits, -v.value, v.index))

    # -- the search ----------------------------------------------------------------------------

    def search(self, states, masks, cfg):
        """Search every game of ``states`` (records, each waiting for a decision) with its mask
        in ``masks`` (R, A). Returns (actions (R,), result sums (R, A), margin sums (R, A),
        simulations (R, A), the rollout bot's choices (R,)); a decision with one legal action is
        not searched."""
        R = states.shape[0]
        masks = np.asarray(masks, bool)
        if masks.shape != (R, NUM_ACTIONS):
            raise ValueError(f"masks must have shape ({R}, {NUM_ACTIONS}), got {masks.shape}")
        if R and (states["game"][:, STATUS] != RUNNING).any():
            raise ValueError("every game searched must be running (waiting for a decision)")
        cfg = cfg._replace(log=0, log_buf=new_log(False))
        roots = np.ascontiguousarray(states)
        first = self._decisions
        self._decisions += R
        stats = Tally.zeros(R)
        done = np.zeros(R, np.int64)  # simulations numbered so far per decision
        bot = self._rollout_bots(states)
        default = self._defaults(roots, masks, bot, first, cfg)
        one_hot = np.zeros((R, NUM_ACTIONS), bool)
        one_hot[np.arange(R), default] = True
        # the arms: every legal action where the budget gives each one simulation a round,
        # else as many as it does, the default and a uniform sample of the rest
        m = np.minimum(masks.sum(axis=1), halving.most_arms(self.budget))
        alive = self._sample_arms(masks, one_hot, m, first)
        rounds = halving.ROUNDS[m]
        for j in range(int(rounds.max(initial=0))):
            n = halving.flat_share(self.budget, stats.visits.sum(axis=1), m, j)
            self._round(roots, alive, n, first, done, default, bot, cfg, stats)
            halve = rounds > j + 1
            if halve.any():
                score = stats.value(self) / np.maximum(stats.visits, 1)
                score = np.where(one_hot, np.inf, score)  # the default stays in, in a place
                cut = halving.keep_best(alive, score, halving.ARMS[m, j + 1])
                alive = np.where(halve[:, None], cut, alive)
        # close calls: the best rival ahead of the default, but not yet by ``confidence``
        # standard errors, races the default alone on more deals (``extend``)
        extra = int(self.extend * self.budget)
        step = max(MIN_RIVAL_VISITS, self.budget // 4)
        spent = np.zeros(R, np.int64)
        while True:
            rivals, best, gap, se = self._rival(alive, stats, default)
            close = rivals & (gap > 0) & (gap <= self.confidence * se)
            close &= (spent + 2 * step <= extra) & (done + step < MAX_BUDGET)
            if not close.any():
                break
            pair = one_hot.copy()
            pair[np.arange(R), best] = True
            alive = np.where(close[:, None], alive & pair, alive)
            self._round(
                roots, alive, np.where(close, step, 0), first, done, default, bot, cfg, stats
            )
            spent += np.where(close, 2 * step, 0)
        return self._choose(alive, stats, default), stats.sums, stats.margins, stats.visits, default

    def _sample_arms(self, masks, one_hot, m, first) -> np.ndarray:
        """(R, A) the arms searched at each root: every legal action where there are m[r] of
        them, else the default and m[r] - 1 others drawn without replacement from a uniform
        prior (Gumbel-top-k: the m - 1 largest of i.i.d. Gumbel keys), from the stream of the
        decision (seed, its number): the choice reads nothing of the game but its mask."""
        alive = masks.copy()
        for r in np.flatnonzero(masks.sum(axis=1) > m):
            rng = np.random.default_rng([self.seed, first + r, _ARM_STREAM])
            keys = np.where(masks[r] & ~one_hot[r], rng.gumbel(size=NUM_ACTIONS), -np.inf)
            others = np.argsort(-keys, kind="stable")[: m[r] - 1]
            alive[r] = one_hot[r]
            alive[r, others] = True
        return alive

    def _round(self, roots, alive, n, first, done, default, bot, cfg, stats):
        """n[r] simulations of every arm still alive at root r, on deals numbered from done[r]
        (every arm of a root on the same ones); adds them to ``stats`` and n to done."""
        R = roots.shape[0]
        pair_root, pair_action = np.nonzero(alive & (n > 0)[:, None])
        reps = n[pair_root]
        row_root = np.repeat(pair_root, reps)
        row_action = np.repeat(pair_action, reps)
        starts = np.cumsum(reps) - reps
        sample = np.arange(row_root.shape[0]) - np.repeat(starts, reps)
        row_index = (first + row_root) * MAX_BUDGET + done[row_root] + sample
        value, margin = self._simulate(roots, row_root, row_action, row_index, bot[row_root], cfg)
        # each arm's simulation against the default's on the same deal (the same sample of a
        # round): paired, the difference is far less noisy than either value
        total = self._value(value, margin)
        is_default = pair_action == default[pair_root]
        default_pair = np.zeros(R, np.int64)
        default_pair[pair_root[is_default]] = np.flatnonzero(is_default)
        d = total - total[starts[default_pair[row_root]] + sample]
        at = (row_root, row_action)
        np.add.at(stats.diffs, at, d)
        np.add.at(stats.diff_squares, at, d**2)
        np.add.at(stats.sums, at, value)
        np.add.at(stats.margins, at, margin)
        np.add.at(stats.visits, at, 1)
        done += n

    def _rival(self, alive, stats, default):
        """Per root: whether it has a rival (a surviving arm other than the default with
        MIN_RIVAL_VISITS simulations), the rival ahead of the default by most on the same
        deals, that mean difference and its standard error."""
        R = alive.shape[0]
        n = np.maximum(stats.visits, 1)
        gap = stats.diffs / n
        se = np.sqrt(np.maximum(stats.diff_squares / n - gap**2, 0.0) / n)
        i = np.arange(R)
        rivals = alive & (stats.visits >= MIN_RIVAL_VISITS)
        rivals[i, default] = False
        best = np.argmax(np.where(rivals, gap, -np.inf), axis=1)
        return rivals.any(axis=1), best, gap[i, best], se[i, best]

    def _choose(self, alive, stats, default):
        """The rival, where it beats the default on the same deals by more than
        ``confidence`` standard errors of that mean difference, else the default (module
        docstring)."""
        rivals, best, gap, se = self._rival(alive, stats, default)
        beats = rivals & (gap > self.confidence * se)
        return np.where(beats, best, default).astype(np.int64)

    def _value(self, result, margin):
        return result + self.margin_weight * margin

    def _rollout_bots(self, states) -> np.ndarray:
        """(R,) the rollout bot id of each game: 'auto' picks by the game's kingdom."""
        if self.rollout != "auto":
            return np.zeros(states.shape[0], np.int64)
        keys, inverse = supply_kingdoms(states)
        ids = np.empty(keys.shape[0], np.int64)
        for u, key in enumerate(keys):  # one per distinct kingdom, not per game
            k = key.tobytes()
            if k not in self._bot_of_kingdom:
                best = strongest_bot_for([NAMES[c] for c in np.flatnonzero(key)])
                self._bot_of_kingdom[k] = [b.name for b in self._bots].index(best.name)
            ids[u] = self._bot_of_kingdom[k]
        return ids[inverse]

    def _defaults(self, roots, masks, bot, first, cfg) -> np.ndarray:
        """(R,) the rollout bot's action at each root, dealt as its simulation 0."""
        R = roots.shape[0]
        root = np.arange(R, dtype=np.int64)
        action = np.zeros(R, np.int64)  # written by the kernel
        self._run(default_kernel, roots, root, action, (first + root) * MAX_BUDGET, bot, cfg, masks)
        return action

    def _simulate(self, roots, row_root, row_action, row_index, row_bot, cfg):
        """The rows' simulations; returns (result (M,) float64, clipped margin (M,) float64)."""
        self.simulations += row_root.shape[0]
        value, margin = self._run(
            rollout_kernel, roots, row_root, row_action, row_index, row_bot, cfg
        )
        return value.astype(np.float64), np.clip(margin, -MARGIN_CLIP, MARGIN_CLIP).astype(
            np.float64
        )

    def _run(self, call, roots, root, action, index, bot, cfg, masks=None):
        """Run kernel ``call`` over rows (root, action, index, bot), at most ROWS_PER_CALL rows a
        call (``rollout.Rows``); ``masks`` (R, A): the roots' masks, given to rows that need
        them (the defaults). Returns the rows' (value, margin)."""
        M = root.shape[0]
        value = np.zeros(M, np.float32)
        margin = np.zeros(M, np.int64)
        records, *work = self._work(min(max(M, 1), ROWS_PER_CALL))
        roots_bytes = as_bytes(roots)
        for lo in range(0, M, ROWS_PER_CALL):
            hi = min(M, lo + ROWS_PER_CALL)
            m = hi - lo
            rows = Rows(
                root[lo:hi],
                action[lo:hi],
                index[lo:hi],
                bot[lo:hi],
                value[lo:hi],
                margin[lo:hi],
                as_bytes(records[:m]),
                *(x[:m] for x in work),
            )
            if masks is not None:
                rows.mask[:] = masks[rows.root]
            kernel = call if m >= PARALLEL_MIN_ROWS else call.serial
            kernel(
                records[:m],
                roots_bytes,
                rows,
                np.int64(self.seed),
                TABLE,
                cfg,
                self._table.kind,
                self._table.rules,
            )
        return value, margin


def determinized(states: np.ndarray, seat: int, seed: int = 0, first_index: int = 0):
    """Copies of game records ``states`` (N,), each dealt anew for ``seat`` (a seat of every
    game) from the streams of (seed, first_index + g), as the search deals them (each seat's
    shuffles from its own stream): for tests and notebooks (what may the
    hidden cards be?). The records must be running or finished games of a VecGame/Game."""
    out = np.array(states, copy=True)
    n = out.shape[0]
    players = out["game"][:, PLAYERS]
    seat = check_int("seat", seat, 0, int(players.min()) - 1, "a seat of every game")
    seed = check_seed(seed)
    first_index = check_int("first_index", first_index, 0, 1 << 62)
    work = np.zeros((n, new_work(out["deck"].shape[2], out["zone"].shape[3]).shape[0]), np.int64)
    index = np.arange(first_index, first_index + n, dtype=np.int64)
    cfg = make_config(int(players.min()))  # determinize reads its stream choice alone
    determinize_kernel.serial(out, cfg, np.full(n, seat, np.int64), np.int64(seed), index, work)
    return out


__all__ = ["ActionValue", "Search", "determinized", "parse_search_name"]
