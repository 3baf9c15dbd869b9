"""Round-robin bot tournaments: pairwise win rates with 95% intervals and Bradley-Terry ratings.

    from dominion_env.analysis.tournament import run_tournament
    res = run_tournament(["Big Money", "Big Money Ultimate", "Smithy", "Random"], games=10_000)
    print(res.report())           # ratings table and win-rate matrix
    res.save("tournament_out")    # winrates.csv, ratings.csv, tables.csv, heatmap.png
    res.win_rate("Smithy", "Big Money"), res.interval("Smithy", "Big Money")

The command line is ``dominion tournament BOT BOT ... [--all] [--bots-file F.toml]``. What each
number means:

Tables. With P players every table seats P *distinct* bots. At 2 players every unordered pair
of bots is a table (a full round robin). At 3-6 players every combination of P bots is a table
while there are at most ``max_tables`` (default 2000) of them; beyond that ``max_tables``
combinations are drawn uniformly without replacement, deterministically from the seed (and the
result says so). A bot never meets itself.

Seating. ``games`` is the number of games per table. At 2 players the two seat orders alternate;
at 3-6 players the table cycles through the P rotations of its bots' order and the P rotations
of the reversed order, so every bot sits in every seat equally often and nobody always sits
directly before the same opponent. ``games`` is rounded up to a multiple of that cycle (2 at
2 players, 2P at 3-6), and the result notes it. Seat 0 starts.

Kingdom. By default (``kingdom=None``; ``--kingdom bots``) each table plays on
``agents.kingdom_for(its bots)``: every kingdom card its bots name (gain rules and
conditions), filled up to 10 with cards no bot buys unless it names them -- the way public
simulators run match-ups. A table whose bots need more than 10 kingdom cards between them is
skipped, and the result (and the command's output) names the bots and the cards. ``kingdom=``
"random" (every game draws its own kingdom), a recommended set name, or 10 card names puts every
table on that kingdom instead; bots naming cards missing from it are noted (they never get them).

Seeds. Each table plays the run seeded by a 62-bit hash of (master seed, the table's bot names in
table order); a table's bots are ordered by name. So the same seed gives the same results, and a
match-up plays exactly the same games whatever other bots are in the tournament and in whatever
order the bots were listed.

Pairwise outcomes. For bots A and B, every game where both sat counts once: A *beats* B when A's
reward is greater than B's (+1 sole win, 0 shared win, -1 loss), *ties* B when they are equal,
loses otherwise. At 2 players that is win / shared win / loss. At 3-6 players A beats B also when
A shares the win and B does not, and two bots that both lose to a third tie with each other. A
game truncated by the turn limit gives everyone reward 0, so it counts as a tie for every pair;
the ``truncated`` counts report how many of the ties were truncations. Because the losers of a
3-6 player game tie with each other, multiplayer scores sit closer to 50% and Elo gaps are
smaller than at 2 players (Random scores about 40% at 6 players); ``won`` (sole wins) shows the
spread directly. Cells satisfy
``wins[A,B] == losses[B,A]``, ``ties[A,B] == ties[B,A]`` and ``wins + ties + losses == games``.

Win rate and intervals. The win rate (or "score") of A against B is (wins + ties / 2) / games --
ties count half, as in chess. Its 95% interval is the Wilson score interval on that (fractional)
count: a little conservative when there are ties, since a tie has less variance than a coin
flip. A bot's overall score pools all its pairwise outcomes: per game it scores (opponents beaten
+ ties / 2) / (P - 1), and the overall score is the mean over the games it played; its Wilson
interval uses the number of games it played (not of pairwise outcomes, which are correlated within
a game at 3-6 players), which is valid, if conservative, for a mean of numbers in [0, 1]. ``won``
is the fraction of its games it won outright (reward +1).

Ratings. A Bradley-Terry model P(A beats B) = p_A / (p_A + p_B) is fitted to the pairwise
outcomes (a tie is half a win for each side) by the MM (Zermelo) iteration
p_i <- W_i / sum_j N_ij / (p_i + p_j) (Hunter 2004) until no log strength moves by more than
1e-10. Every pair that met also gets ``prior`` (default 1) virtual game, half won by each side,
so a bot that never wins or never loses (Random against anything) still gets a finite rating.
Strengths are normalised to geometric mean 1 and reported as Elo: 1500 + 400 log10(p), so the
ratings average 1500 and a 400-point gap means 10:1 odds. The +/- is 1.96 standard errors from the
model's Fisher information (ratings relative to the mean), treating each pairwise outcome as
independent. Bots are ranked by Elo. A bot whose tables were all skipped has no rating; if the
tables do not connect all bots (possible only when tables are sampled or skipped), ratings in
different groups are not comparable and the result notes it.

Files (``save``): ``winrates.csv`` -- one row per ordered pair that met: bot, opponent, games,
wins, ties, losses, truncated, win_rate, ci_lo, ci_hi; ``ratings.csv`` -- rank, bot, elo, elo_pm,
strength, score, score_lo, score_hi, won, games, truncated; ``tables.csv`` -- every table: bots,
kingdom, seed, games, truncated, mean turns per player (or why it was skipped); ``heatmap.png``
-- the win-rate matrix, row bot's win rate against column bot, bots ordered by rating, cells
annotated in percent. The PNG is drawn with matplotlib's object API (``Figure``, Agg canvas) and
never touches pyplot's global backend, so it is safe headless and inside notebooks.
"""

from __future__ import annotations

import csv
import hashlib
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..agents import Bot, compile_bots, get_bot, kingdom_for
from ..cards import check_players
from ..engine.config import make_setup
from ..engine.layout import TERMINATED, TRUNCATED
from ..kingdoms import resolve_kingdom
from .arena import play_games, wilson

DEFAULT_MAX_TABLES = 2000
ELO_BASE = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of log strength


# ---------------------------------------------------------------------------------------------
# Bradley-Terry
# ---------------------------------------------------------------------------------------------


def bradley_terry(wins, prior: float = 1.0, tol: float = 1e-10, max_iter: int = 100_000):
    """Bradley-Terry strengths from ``wins[i, j]`` = how often i beat j (ties as half wins).

    MM (Zermelo) iteration p_i <- W_i / sum_j N_ij / (p_i + p_j) with ``prior`` virtual games,
    half won by each side, added to every pair that met. Returns (strengths, iterations):
    geometric mean 1 over the bots with games; NaN for bots without any."""
    w = np.array(wins, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"wins must be a square matrix, got shape {w.shape}")
    if (w < 0).any():
        raise ValueError("wins must be non-negative")
    if not prior > 0:
        raise ValueError(f"prior must be positive (it keeps unbeaten bots finite), got {prior}")
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    met = n > 0
    w = w + 0.5 * prior * met
    n = n + prior * met
    active = met.any(axis=1)
    p = np.where(active, 1.0, np.nan)
    if not active.any():
        return p, 0
    a = np.flatnonzero(active)
    w_i = w[np.ix_(a, a)].sum(axis=1)
    n_a = n[np.ix_(a, a)]
    q = np.ones(a.size)
    iterations, done = 0, False
    while not done and iterations < max_iter:
        new = w_i / (n_a / (q[:, None] + q[None, :])).sum(axis=1)
        new /= math.exp(np.log(new).mean())
        done = np.abs(np.log(new) - np.log(q)).max() < tol
        q = new
        iterations += 1
    p[a] = q
    return p, iterations


def bt_standard_errors(wins, strengths, prior: float = 1.0) -> np.ndarray:
    """Standard errors of the log strengths (relative to their mean) from the Fisher information
    of the Bradley-Terry likelihood, with the same virtual games as ``bradley_terry``."""
    w = np.array(wins, dtype=np.float64)
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    n = n + prior * (n > 0)
    p = np.asarray(strengths, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    a = np.flatnonzero(np.isfinite(p))
    if a.size < 2:
        return out
    pa = p[a]
    pij = pa[:, None] / (pa[:, None] + pa[None, :])
    info = -n[np.ix_(a, a)] * pij * (1.0 - pij)
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    # the likelihood is flat along "all log strengths up by c": the pseudo-inverse is the
    # covariance of the log strengths under the constraint that they sum to zero
    cov = np.linalg.pinv(info)
    out[a] = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return out


def _components(met: np.ndarray, active: np.ndarray) -> list[list[int]]:
    """Connected groups of bots in the 'have met' graph (bots with games only)."""
    seen, groups = set(), []
    for s in np.flatnonzero(active):
        if s in seen:
            continue
        stack, group = [int(s)], []
        seen.add(int(s))
        while stack:
            i = stack.pop()
            group.append(i)
            for j in np.flatnonzero(met[i]):
                if int(j) not in seen:
                    seen.add(int(j))
                    stack.append(int(j))
        groups.append(sorted(group))
    return groups


# ---------------------------------------------------------------------------------------------
# Tables, seating, seeds
# ---------------------------------------------------------------------------------------------


def _unrank_combination(index: int, n: int, k: int) -> tuple[int, ...]:
    """The index-th k-subset of range(n) in lexicographic order."""
    out, x = [], 0
    for remaining in range(k, 0, -1):
        while True:
            c = math.comb(n - x - 1, remaining - 1)
            if index < c:
                break
            index -= c
            x += 1
        out.append(x)
        x += 1
    return tuple(out)


def plan_tables(num_bots: int, players: int, max_tables: int = DEFAULT_MAX_TABLES, seed: int = 0):
    """Index tuples of the tables (each P distinct bot indices, ascending) and whether they were
    sampled: every combination while there are at most ``max_tables``, else ``max_tables`` of
    them drawn uniformly without replacement, deterministically from ``seed``."""
    total = math.comb(num_bots, players)
    if total <= max_tables:
        return [_unrank_combination(i, num_bots, players) for i in range(total)], False
    rng = np.random.default_rng([seed, num_bots, players, 0x70A7])
    if total < 2**62:
        idx = sorted(int(i) for i in rng.choice(total, size=max_tables, replace=False))
    else:  # astronomically many: rejection sampling is as good and cheap
        chosen = set()
        while len(chosen) < max_tables:
            chosen.add(tuple(sorted(int(i) for i in rng.choice(num_bots, players, replace=False))))
        return sorted(chosen), True
    return [_unrank_combination(i, num_bots, players) for i in idx], True


def seat_cycle(players: int) -> np.ndarray:
    """The seatings a table cycles through: row r, seat s -> table-local bot index. Two rows at
    2 players (both orders); at 3-6 the P rotations of the order and the P of its reverse."""
    fwd = np.arange(players)
    rows = [np.roll(fwd, -k) for k in range(players)]
    if players >= 3:
        rev = fwd[::-1]
        rows += [np.roll(rev, -k) for k in range(players)]
    return np.array(rows, dtype=np.int64)


def table_seed(seed: int, names) -> int:
    """A table's run seed: a 62-bit hash of the master seed and the bot names in table order."""
    h = hashlib.blake2b(digest_size=8, person=b"dom-tourn")
    h.update(str(int(seed)).encode())
    for n in names:
        h.update(b"\x00" + str(n).encode())
    return int.from_bytes(h.digest(), "little") >> 2


# ---------------------------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------------------------


@dataclass
class TableRecord:
    bots: tuple[str, ...]
    kingdom: object  # list of names, "random", a set name; None when skipped
    seed: int
    games: int
    truncated: int = 0
    mean_turns: float = float("nan")  # turns per player
    skipped: str = ""  # why, when the table was not played


@dataclass
class TournamentResult:
    """Everything a tournament measured. Matrices are indexed [bot, opponent] in ``names`` order;
    ``order`` lists bot indices by rating, best first."""

    names: list[str]
    players: int
    games_per_table: int
    seed: int
    turn_limit: int
    kingdom: object
    tables: list[TableRecord]
    games: np.ndarray  # (n, n) games where both sat
    wins: np.ndarray  # (n, n) row beat column
    ties: np.ndarray  # (n, n) equal rewards (truncated games included)
    truncated: np.ndarray  # (n, n) of those ties, truncated games
    seats: np.ndarray  # (n,) games played
    won: np.ndarray  # (n,) sole wins
    strength: np.ndarray  # (n,) Bradley-Terry, geometric mean 1
    elo: np.ndarray  # (n,) 1500 + 400 log10(strength)
    elo_pm: np.ndarray  # (n,) 1.96 standard errors, in Elo points
    bt_iterations: int
    elapsed: float
    total_games: int
    sampled: bool = False
    notes: list[str] = field(default_factory=list)

    # -- derived numbers --------------------------------------------------------------------

    @property
    def losses(self) -> np.ndarray:
        return self.wins.T.copy()

    @property
    def score(self) -> np.ndarray:
        """(n, n) win rate of row against column, ties half; NaN where they never met."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.games > 0, (self.wins + 0.5 * self.ties) / self.games, np.nan)

    @property
    def ci(self) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) matrices: 95% Wilson intervals of ``score``."""
        n = len(self.names)
        lo, hi = np.full((n, n), np.nan), np.full((n, n), np.nan)
        for i in range(n):
            for j in range(n):
                if self.games[i, j]:
                    lo[i, j], hi[i, j] = wilson(self.wins[i, j] + 0.5 * self.ties[i, j],
                                                int(self.games[i, j]))
        return lo, hi

    @property
    def overall(self) -> np.ndarray:
        """(n,) overall score: mean per-game share of opponents beaten, ties half."""
        pts = (self.wins + 0.5 * self.ties).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.seats > 0, pts / (self.seats * (self.players - 1)), np.nan)

    def overall_ci(self, i: int) -> tuple[float, float]:
        s = int(self.seats[i])
        return wilson(float(self.overall[i]) * s, s) if s else (float("nan"), float("nan"))

    @property
    def order(self) -> list[int]:
        """Bot indices by Elo, best first (bots without a rating last)."""
        key = np.where(np.isfinite(self.elo), -self.elo, np.inf)
        return [int(i) for i in np.argsort(key, kind="stable")]

    @property
    def games_per_second(self) -> float:
        return self.total_games / self.elapsed if self.elapsed > 0 else float("nan")

    def index(self, bot) -> int:
        try:
            return self.names.index(bot) if isinstance(bot, str) else int(bot)
        except ValueError:
            raise ValueError(f"no bot {bot!r} in this tournament; bots: "
                             f"{', '.join(self.names)}") from None

    def win_rate(self, bot, opponent) -> float:
        """Win rate of ``bot`` against ``opponent`` (names or indices), ties half."""
        return float(self.score[self.index(bot), self.index(opponent)])

    def interval(self, bot, opponent) -> tuple[float, float]:
        i, j = self.index(bot), self.index(opponent)
        if not self.games[i, j]:
            return (float("nan"), float("nan"))
        return wilson(self.wins[i, j] + 0.5 * self.ties[i, j], int(self.games[i, j]))

    # -- rows -------------------------------------------------------------------------------

    def pair_rows(self) -> list[dict]:
        """One dict per ordered pair that met, bots by rating (the rows of winrates.csv)."""
        lo, hi = self.ci
        score = self.score
        rows = []
        for i in self.order:
            for j in self.order:
                if i == j or not self.games[i, j]:
                    continue
                rows.append({"bot": self.names[i], "opponent": self.names[j],
                             "games": int(self.games[i, j]), "wins": int(self.wins[i, j]),
                             "ties": int(self.ties[i, j]), "losses": int(self.wins[j, i]),
                             "truncated": int(self.truncated[i, j]),
                             "win_rate": float(score[i, j]), "ci_lo": float(lo[i, j]),
                             "ci_hi": float(hi[i, j])})
        return rows

    def rating_rows(self) -> list[dict]:
        """One dict per bot, best first (the rows of ratings.csv)."""
        rows = []
        trunc = self._truncated_seats
        for rank, i in enumerate(self.order, 1):
            lo, hi = self.overall_ci(i)
            s = int(self.seats[i])
            rows.append({"rank": rank if np.isfinite(self.elo[i]) else "",
                         "bot": self.names[i], "elo": float(self.elo[i]),
                         "elo_pm": float(self.elo_pm[i]), "strength": float(self.strength[i]),
                         "score": float(self.overall[i]), "score_lo": lo, "score_hi": hi,
                         "won": self.won[i] / s if s else float("nan"), "games": s,
                         "truncated": int(trunc[i])})
        return rows

    @property
    def _truncated_seats(self) -> np.ndarray:
        out = np.zeros(len(self.names), np.int64)
        for t in self.tables:
            if not t.skipped:
                for b in t.bots:
                    out[self.names.index(b)] += t.truncated
        return out

    # -- text -------------------------------------------------------------------------------

    def report(self, matrix: bool = True) -> str:
        """The ratings table, the win-rate matrix (percent) and notes, as text."""
        played = [t for t in self.tables if not t.skipped]
        kingdom = ("per table: every card its bots name, filled up (agents.kingdom_for)"
                   if self.kingdom is None else repr(self.kingdom))
        lines = [f"{len(self.names)} bots, {self.players} players, {len(played)} tables x "
                 f"{self.games_per_table} games = {self.total_games:,} games; seed {self.seed}, "
                 f"turn limit {self.turn_limit}", f"kingdom: {kingdom}", ""]
        w = max([len("bot")] + [len(n) for n in self.names])
        head = (f"{'rank':>4}  {'bot':<{w}}  {'elo':>6} {'+/-':>5}  {'score [95% CI]':>24}  "
                f"{'won':>6}  {'games':>8}")
        lines += [head, "-" * len(head)]
        for r in self.rating_rows():
            if r["games"]:
                sc = f"{r['score']:7.2%} [{r['score_lo']:6.2%},{r['score_hi']:6.2%}]"
                lines.append(f"{r['rank']:>4}  {r['bot']:<{w}}  {r['elo']:6.0f} "
                             f"{r['elo_pm']:5.0f}  {sc:>24}  {r['won']:6.1%}  {r['games']:>8,}")
            else:
                lines.append(f"{'':>4}  {r['bot']:<{w}}  {'-':>6} {'':>5}  {'no games':>24}")
        lines.append("")
        lines.append("score = win rate against the field, ties half (pairwise: beat / tied / lost "
                     "to each opponent at the table); won = sole wins; elo +/- = 95%")
        if matrix:
            lines += ["", self.matrix_text()]
        if self.notes:
            lines += [""] + [f"note: {n}" for n in self.notes]
        lines += ["", f"{self.total_games:,} games in {self.elapsed:.1f} s = "
                  f"{self.games_per_second:,.0f} games/s (wall time, including any compilation)"]
        return "\n".join(lines)

    def matrix_text(self) -> str:
        """Win rate (%) of each row bot against each column bot, bots by rating."""
        order, score = self.order, self.score
        w = max(len(n) for n in self.names)
        cw, dec = (6, 1) if len(order) <= 12 else (4, 0)  # compact cells for big fields
        lines = ["win rate % of row bot vs column bot (ties half; 95% intervals in winrates.csv)",
                 f"{'':>3} {'':<{w}} " + "".join(f"{k:>{cw}}" for k in range(1, len(order) + 1))]
        for k, i in enumerate(order, 1):
            cells = "".join(f"{'-':>{cw}}" if i == j or not np.isfinite(score[i, j])
                            else f"{100 * score[i, j]:{cw}.{dec}f}" for j in order)
            lines.append(f"{k:>3} {self.names[i]:<{w}} {cells}")
        return "\n".join(lines)

    # -- files ------------------------------------------------------------------------------

    def heatmap(self, ax=None):
        """Draw the win-rate matrix (bots by rating) on ``ax``, or on a new Figure (returned)."""
        from matplotlib.figure import Figure

        order, n = self.order, len(self.names)
        m = self.score[np.ix_(order, order)]
        fig = None
        if ax is None:
            side = max(5.0, 0.5 * n + 3.0)
            fig = Figure(figsize=(side + 1.5, side))
            ax = fig.add_subplot()
        im = ax.imshow(np.ma.masked_invalid(m), cmap="RdBu", vmin=0.0, vmax=1.0)
        size = max(5.0, min(10.0, 110.0 / max(n, 1)))
        for r in range(n):
            for c in range(n):
                if np.isfinite(m[r, c]):
                    ax.text(c, r, f"{100 * m[r, c]:.0f}", ha="center", va="center",
                            fontsize=size, color="white" if abs(m[r, c] - 0.5) > 0.3 else "black")
        labels = [f"{self.names[i]} ({self.elo[i]:.0f})" if np.isfinite(self.elo[i])
                  else self.names[i] for i in order]
        ax.set_xticks(range(n), [self.names[i] for i in order], rotation=45, ha="right",
                      fontsize=size)
        ax.set_yticks(range(n), labels, fontsize=size)
        ax.set_xlabel("opponent")
        ax.set_ylabel("bot (Elo)")
        ax.set_title(f"win rate % of row bot vs column bot (ties half)\n{self.players} players, "
                     f"{self.games_per_table:,} games per table, seed {self.seed}", fontsize=10)
        (fig or ax.figure).colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        if fig is not None:
            fig.tight_layout()
        return fig if fig is not None else ax.figure

    def save(self, out="tournament_out") -> dict[str, Path]:
        """Write winrates.csv, ratings.csv, tables.csv and heatmap.png into ``out``."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {k: out / f for k, f in (("winrates", "winrates.csv"), ("ratings", "ratings.csv"),
                                           ("tables", "tables.csv"), ("heatmap", "heatmap.png"))}
        _write_csv(paths["winrates"], self.pair_rows(),
                   ["bot", "opponent", "games", "wins", "ties", "losses", "truncated",
                    "win_rate", "ci_lo", "ci_hi"])
        _write_csv(paths["ratings"], self.rating_rows(),
                   ["rank", "bot", "elo", "elo_pm", "strength", "score", "score_lo", "score_hi",
                    "won", "games", "truncated"])
        rows = []
        for k, t in enumerate(self.tables):
            kd = t.kingdom if isinstance(t.kingdom, str) or t.kingdom is None \
                else ", ".join(t.kingdom)
            rows.append({"table": k, "bots": " | ".join(t.bots), "kingdom": kd or "",
                         "seed": t.seed, "games": t.games if not t.skipped else 0,
                         "truncated": t.truncated, "mean_turns": t.mean_turns,
                         "skipped": t.skipped})
        _write_csv(paths["tables"], rows, ["table", "bots", "kingdom", "seed", "games",
                                           "truncated", "mean_turns", "skipped"])
        self.heatmap().savefig(paths["heatmap"], dpi=110)
        return paths


def _write_csv(path: Path, rows: list[dict], fields: list[str]) -> None:
    def fmt(v):
        if isinstance(v, float):
            return "" if not math.isfinite(v) else f"{v:.6g}" if abs(v) > 1e-12 else "0"
        return v

    with open(path, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=fields)
        wr.writeheader()
        for r in rows:
            wr.writerow({k: fmt(r[k]) for k in fields})


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def resolve_bots(bots) -> list:
    """Bots from ``agents.Bot`` objects or library names; names must be unique."""
    out = []
    for b in bots:
        if isinstance(b, str):
            out.append(get_bot(b))
        elif isinstance(b, Bot):
            out.append(b)
        else:
            raise TypeError(f"a bot is an agents.Bot or a bot name, got {b!r}")
    names = [b.name for b in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"bot names must be unique in a tournament; given twice: {', '.join(dup)}")
    return out


def _check_kingdom(kingdom, players):
    """Validate a fixed kingdom once, before any table plays; returns it as make_setup takes it."""
    if kingdom is None:
        return None
    if isinstance(kingdom, str) and kingdom != "random" and "," in kingdom:
        kingdom = [k.strip() for k in kingdom.split(",")]
    if not isinstance(kingdom, str):
        kingdom = list(kingdom)
    make_setup(players, kingdom)  # raises for unknown sets / cards, wrong sizes
    return kingdom


def run_tournament(bots, games: int = 10_000, players: int = 2, kingdom=None, seed: int = 0, *,
                   turn_limit: int = 100, max_tables: int = DEFAULT_MAX_TABLES,
                   prior: float = 1.0, progress=False, chunk: int = 16384) -> TournamentResult:
    """Play a round robin between ``bots`` (``agents.Bot`` objects or library names) and rate them.

    ``games`` per table (rounded up to a whole seating cycle), ``players`` 2-6, ``kingdom`` None
    (each table on ``kingdom_for`` its bots), "random", a recommended set name, 10 card names or
    a comma-separated string of them. ``progress``: True for a tqdm bar, or a callable taking a
    number of games just played. See the module docstring for what every number means."""
    players = check_players(players)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if isinstance(turn_limit, bool) or not isinstance(turn_limit, (int, np.integer)) \
            or turn_limit < 1:
        raise ValueError(f"turn_limit must be a positive int, got {turn_limit!r}")
    if isinstance(max_tables, bool) or not isinstance(max_tables, (int, np.integer)) \
            or max_tables < 1:
        raise ValueError(f"max_tables must be a positive int, got {max_tables!r}")
    bots = resolve_bots(bots)
    nb = len(bots)
    if nb < players:
        raise ValueError(f"a {players}-player tournament needs at least {players} bots (every "
                         f"table seats {players} distinct bots); got {nb}"
                         + (f": {bots[0].name}" if nb == 1 else ""))
    fixed = _check_kingdom(kingdom, players)
    names = [b.name for b in bots]
    table_bot_table = compile_bots(bots)  # raises for bad rules, naming the bot
    notes: list[str] = []

    cycle = seat_cycle(players)
    per_table = -(-int(games) // len(cycle)) * len(cycle)
    if per_table != games:
        notes.append(f"games per table rounded up from {games} to {per_table} (a multiple of "
                     f"{len(cycle)}, so every seating of the cycle plays equally often)")

    plan, sampled = plan_tables(nb, players, max_tables, seed)
    if sampled:
        notes.append(f"{math.comb(nb, players):,} possible tables of {players} bots; played "
                     f"{len(plan):,} drawn uniformly at random (raise max_tables / --max-tables "
                     "to play more)")

    # a table's bots in name order, so its games do not depend on the listing order
    tables: list[TableRecord] = []
    todo: list[tuple[np.ndarray, TableRecord]] = []
    for combo in plan:
        ids = sorted(combo, key=lambda i: names[i])
        tnames = tuple(names[i] for i in ids)
        rec = TableRecord(tnames, None, table_seed(seed, tnames), per_table)
        if fixed is None:
            try:
                rec.kingdom = kingdom_for([bots[i] for i in ids])
            except ValueError as e:
                rec.skipped = str(e)
        else:
            rec.kingdom = fixed
        tables.append(rec)
        if not rec.skipped:
            todo.append((np.array(ids, np.int64), rec))
    skipped = [t for t in tables if t.skipped]
    if skipped:
        notes.append(f"{len(skipped)} table(s) skipped because their bots need more than 10 "
                     "kingdom cards between them:")
        notes += [f"  {' vs '.join(t.bots)}: {t.skipped}" for t in skipped[:20]]
        if len(skipped) > 20:
            notes.append(f"  ... and {len(skipped) - 20} more (see tables.csv)")
    if not todo:
        raise ValueError("no table can be played: " + "; ".join(t.skipped for t in skipped[:5]))
    if fixed is not None and fixed != "random":
        have = set(resolve_kingdom(fixed))
        for b in bots:
            miss = [c for c in b.kingdom_cards() if c not in have]
            if miss:
                notes.append(f"{b.name} names cards not in the kingdom: {', '.join(miss)}")

    n = nb
    g_mat = np.zeros((n, n), np.int64)
    w_mat = np.zeros((n, n), np.int64)
    t_mat = np.zeros((n, n), np.int64)
    tr_mat = np.zeros((n, n), np.int64)
    seats = np.zeros(n, np.int64)
    won = np.zeros(n, np.int64)
    local = cycle[np.arange(per_table) % len(cycle)]  # (G, P) seat -> table-local bot
    inverse = np.argsort(local, axis=1)  # (G, P) table-local bot -> seat
    total = per_table * len(todo)

    bar = None
    update = None
    if progress is True:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", desc="tournament", smoothing=0.1)
        update = bar.update
    elif callable(progress):
        update = progress
    start = time.perf_counter()
    try:
        for ids, rec in todo:
            res = play_games(table_bot_table, per_table, players, rec.kingdom, seed=rec.seed,
                             seat_bot=ids[local], turn_limit=turn_limit, chunk=chunk,
                             progress=update)
            by_bot = np.take_along_axis(res.reward, inverse, axis=1)  # (G, P) reward per bot
            trunc = res.status == TRUNCATED
            if not ((res.status == TERMINATED) | trunc).all():
                raise RuntimeError(f"table {rec.bots}: a game neither terminated nor truncated")
            rec.truncated = int(trunc.sum())
            rec.mean_turns = float(res.turns.mean() / players)
            for u in range(players):
                a = ids[u]
                seats[a] += per_table
                won[a] += int((by_bot[:, u] == 1).sum())
                for v in range(players):
                    if u != v:
                        b = ids[v]
                        g_mat[a, b] += per_table
                        w_mat[a, b] += int((by_bot[:, u] > by_bot[:, v]).sum())
                        t_mat[a, b] += int((by_bot[:, u] == by_bot[:, v]).sum())
                        tr_mat[a, b] += rec.truncated
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - start

    score_wins = w_mat + 0.5 * t_mat
    strength, iters = bradley_terry(score_wins, prior=prior)
    se = bt_standard_errors(score_wins, strength, prior=prior)
    with np.errstate(divide="ignore", invalid="ignore"):
        elo = ELO_BASE + ELO_SCALE * np.log(strength)
    elo_pm = 1.96 * ELO_SCALE * se
    unrated = [names[i] for i in range(n) if not np.isfinite(strength[i])]
    if unrated:
        notes.append(f"no games, so no rating: {', '.join(unrated)}")
    groups = _components(g_mat > 0, seats > 0)
    if len(groups) > 1:
        notes.append("the tables do not connect all bots; ratings are comparable only within "
                     "each group: " + " / ".join(", ".join(names[i] for i in g) for g in groups))
    return TournamentResult(
        names=names, players=players, games_per_table=per_table, seed=int(seed),
        turn_limit=int(turn_limit), kingdom=fixed, tables=tables, games=g_mat, wins=w_mat,
        ties=t_mat, truncated=tr_mat, seats=seats, won=won, strength=strength, elo=elo,
        elo_pm=elo_pm, bt_iterations=iters, elapsed=elapsed, total_games=total,
        sampled=sampled, notes=notes)
