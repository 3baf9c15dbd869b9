"""A tournament's result: win rates, intervals and ratings, as text, CSV files and a heatmap.

Win rate and intervals. The win rate (or "score") of A against B is (wins + ties / 2) / games --
ties count half, as in chess. Its 95% interval is the Wilson score interval on that (fractional)
count: a little conservative when there are ties, since a tie has less variance than a coin
flip. A bot's overall score pools all its pairwise outcomes: per game it scores (opponents beaten
+ ties / 2) / (P - 1), and the overall score is the mean over the games it played; its Wilson
interval uses the number of games it played (not of pairwise outcomes, which are correlated within
a game at 3-6 players), which is valid, if conservative, for a mean of numbers in [0, 1]. ``won``
is the fraction of its games it won outright (reward +1). Bots are ranked by Elo (see
``rating``); bots without a rating come last.

Files (``save``): ``winrates.csv`` -- one row per ordered pair that met: bot, opponent, games,
wins, ties, losses, truncated, win_rate, win_ci_low, win_ci_high; ``ratings.csv`` -- rank, bot,
elo, elo_pm, strength, score, score_ci_low, score_ci_high, won, games, truncated (intervals are
named ``<quantity>_ci_low`` / ``_ci_high`` in every output, ``ci_fields``; the files of 0.6 and
before said ci_lo, ci_hi, score_lo, score_hi); ``tables.csv`` -- every table: bots,
kingdom, seed, games, truncated, mean turns per player (or why it was skipped); ``heatmap.png``
-- the win-rate matrix, row bot's win rate against column bot in percent (cells and colour
bar), bots ordered by rating, cells annotated up to 16 bots; the figure grows with the field so
that 33 bots stay legible. The PNG is drawn with matplotlib's object API (``Figure``, Agg
canvas) and never touches pyplot's global backend, so it is safe headless and inside notebooks;
matplotlib is imported only when a heatmap is drawn.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..extras import require
from ..names import printable
from .arena import wilson
from .planning import TableRecord

# Interval keys in every JSON / CSV that simulate, tournament and evaluate write:
# "<quantity>_ci_low" / "<quantity>_ci_high" (whole words, as evaluate and the notebooks
# already read them; simulate wrote _ci_lo/_ci_hi and the tournament ci_lo/ci_hi, score_lo/hi).
CI_SUFFIXES = ("_ci_low", "_ci_high")


def ci_fields(quantity: str, interval) -> dict:
    """``{quantity + "_ci_low": lo, quantity + "_ci_high": hi}``: an interval as the output
    files name it (``CI_SUFFIXES``)."""
    lo, hi = interval
    return {quantity + CI_SUFFIXES[0]: float(lo), quantity + CI_SUFFIXES[1]: float(hi)}


# heatmap legibility: the smallest cell (inches), the tick-label size (points) and the largest
# field whose cells carry their numbers
HEATMAP_CELL_IN = 0.32
HEATMAP_FONT = 8
HEATMAP_ANNOTATE_MAX = 16


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
    records: list[dict] = field(default_factory=list)  # games kept (run_tournament's
    #                                                    record_games), meta: table and game

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
                    lo[i, j], hi[i, j] = wilson(
                        self.wins[i, j] + 0.5 * self.ties[i, j], int(self.games[i, j])
                    )
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
            raise ValueError(
                f"no bot {bot!r} in this tournament; bots: {', '.join(self.names)}"
            ) from None

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
                rows.append(
                    {
                        "bot": self.names[i],
                        "opponent": self.names[j],
                        "games": int(self.games[i, j]),
                        "wins": int(self.wins[i, j]),
                        "ties": int(self.ties[i, j]),
                        "losses": int(self.wins[j, i]),
                        "truncated": int(self.truncated[i, j]),
                        "win_rate": float(score[i, j]),
                        **ci_fields("win", (lo[i, j], hi[i, j])),
                    }
                )
        return rows

    def rating_rows(self) -> list[dict]:
        """One dict per bot, best first (the rows of ratings.csv)."""
        rows = []
        trunc = self._truncated_seats
        for rank, i in enumerate(self.order, 1):
            lo, hi = self.overall_ci(i)
            s = int(self.seats[i])
            rows.append(
                {
                    "rank": rank if np.isfinite(self.elo[i]) else "",
                    "bot": self.names[i],
                    "elo": float(self.elo[i]),
                    "elo_pm": float(self.elo_pm[i]),
                    "strength": float(self.strength[i]),
                    "score": float(self.overall[i]),
                    **ci_fields("score", (lo, hi)),
                    "won": self.won[i] / s if s else float("nan"),
                    "games": s,
                    "truncated": int(trunc[i]),
                }
            )
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
        kingdom = (
            "per table: every card its bots name, filled up (agents.kingdom_for)"
            if self.kingdom is None
            else repr(self.kingdom)
        )
        lines = [
            f"{len(self.names)} bots, {self.players} players, {len(played)} tables x "
            f"{self.games_per_table} games = {self.total_games:,} games; seed {self.seed}, "
            f"turn limit {self.turn_limit}",
            f"kingdom: {kingdom}",
            "",
        ]
        w = max([len("bot")] + [len(n) for n in self.names])
        head = (
            f"{'rank':>4}  {'bot':<{w}}  {'elo':>6} {'+/-':>5}  {'score [95% CI]':>24}  "
            f"{'won':>6}  {'games':>8}"
        )
        lines += [head, "-" * len(head)]
        for r in self.rating_rows():
            if r["games"]:
                sc = f"{r['score']:7.2%} [{r['score_ci_low']:6.2%},{r['score_ci_high']:6.2%}]"
                lines.append(
                    f"{r['rank']:>4}  {r['bot']:<{w}}  {r['elo']:6.0f} "
                    f"{r['elo_pm']:5.0f}  {sc:>24}  {r['won']:6.1%}  {r['games']:>8,}"
                )
            else:
                lines.append(f"{'':>4}  {r['bot']:<{w}}  {'-':>6} {'':>5}  {'no games':>24}")
        lines.append("")
        lines.append(
            "score = win rate against the field, ties half (pairwise: beat / tied / lost "
            "to each opponent at the table); won = sole wins; elo +/- = 95%"
        )
        if matrix:
            lines += ["", *self.matrix_text().split("\n")]
        if self.notes:
            lines += [""] + [f"note: {n}" for n in self.notes]
        lines += [
            "",
            f"{self.total_games:,} games in {self.elapsed:.1f} s = "
            f"{self.games_per_second:,.0f} games/s (wall time, including any compilation)",
        ]
        return "\n".join(map(printable, lines))  # a bot's name may come from a file

    def matrix_text(self) -> str:
        """Win rate (%) of each row bot against each column bot, bots by rating."""
        order, score = self.order, self.score
        w = max(len(n) for n in self.names)
        cw, dec = (6, 1) if len(order) <= 12 else (4, 0)  # compact cells for big fields
        lines = [
            "win rate % of row bot vs column bot (ties half; 95% intervals in winrates.csv)",
            f"{'':>3} {'':<{w}} " + "".join(f"{k:>{cw}}" for k in range(1, len(order) + 1)),
        ]
        for k, i in enumerate(order, 1):
            cells = "".join(
                f"{'-':>{cw}}"
                if i == j or not np.isfinite(score[i, j])
                else f"{100 * score[i, j]:{cw}.{dec}f}"
                for j in order
            )
            lines.append(f"{k:>3} {self.names[i]:<{w}} {cells}")
        return "\n".join(map(printable, lines))

    # -- files ------------------------------------------------------------------------------

    def heatmap(self, ax=None):
        """Draw the win-rate matrix (bots by rating) on ``ax``, or on a new Figure (returned).

        Cells and colour bar are both in percent. The figure grows with the field so that every
        row keeps a cell of at least ``HEATMAP_CELL_IN`` inches and tick labels of
        ``HEATMAP_FONT`` points; above ``HEATMAP_ANNOTATE_MAX`` bots the cells carry no numbers
        (they would not fit; the numbers are in ``matrix_text`` and winrates.csv). In Jupyter,
        ``%matplotlib inline`` lets the returned Figure show itself (the Figure is made without
        pyplot, so nothing else registers its display)."""
        Figure = require("matplotlib.figure", "the heatmap").Figure

        order, n = self.order, len(self.names)
        m = 100.0 * self.score[np.ix_(order, order)]
        fig = None
        if ax is None:
            # room for the longest label left of and below the matrix, plus the colour bar
            label_in = 0.075 * max(len(self._elo_label(i)) for i in order) + 0.4
            side = max(4.0, HEATMAP_CELL_IN * n)
            fig = Figure(figsize=(side + label_in + 1.6, side + label_in + 0.9))
            ax = fig.add_subplot()
        im = ax.imshow(np.ma.masked_invalid(m), cmap="RdBu", vmin=0.0, vmax=100.0)
        if n <= HEATMAP_ANNOTATE_MAX:
            size = HEATMAP_FONT if n > 8 else HEATMAP_FONT + 1
            for r in range(n):
                for c in range(n):
                    if np.isfinite(m[r, c]):
                        ax.text(
                            c,
                            r,
                            f"{m[r, c]:.0f}",
                            ha="center",
                            va="center",
                            fontsize=size,
                            color="white" if abs(m[r, c] - 50.0) > 30.0 else "black",
                        )
        ax.set_xticks(
            range(n),
            [self.names[i] for i in order],
            rotation=60,
            ha="right",
            rotation_mode="anchor",
            fontsize=HEATMAP_FONT,
        )
        ax.set_yticks(range(n), [self._elo_label(i) for i in order], fontsize=HEATMAP_FONT)
        ax.set_xlabel("opponent")
        ax.set_ylabel("bot (Elo)")
        ax.set_title(
            f"win rate % of row bot vs column bot (ties half)\n{self.players} players, "
            f"{self.games_per_table:,} games per table, seed {self.seed}",
            fontsize=10,
        )
        bar = (fig or ax.figure).colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        bar.set_label("win rate %")
        if fig is not None:
            fig.tight_layout()
        return fig if fig is not None else ax.figure

    def _elo_label(self, i: int) -> str:
        return f"{self.names[i]} ({self.elo[i]:.0f})" if np.isfinite(self.elo[i]) else self.names[i]

    def save(self, out="tournament_out") -> dict[str, Path]:
        """Write winrates.csv, ratings.csv, tables.csv and heatmap.png into ``out``."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {
            k: out / f
            for k, f in (
                ("winrates", "winrates.csv"),
                ("ratings", "ratings.csv"),
                ("tables", "tables.csv"),
                ("heatmap", "heatmap.png"),
            )
        }
        _write_csv(
            paths["winrates"],
            self.pair_rows(),
            [
                "bot",
                "opponent",
                "games",
                "wins",
                "ties",
                "losses",
                "truncated",
                "win_rate",
                "win_ci_low",
                "win_ci_high",
            ],
        )
        _write_csv(
            paths["ratings"],
            self.rating_rows(),
            [
                "rank",
                "bot",
                "elo",
                "elo_pm",
                "strength",
                "score",
                "score_ci_low",
                "score_ci_high",
                "won",
                "games",
                "truncated",
            ],
        )
        rows = []
        for k, t in enumerate(self.tables):
            kd = (
                t.kingdom
                if isinstance(t.kingdom, str) or t.kingdom is None
                else ", ".join(t.kingdom)
            )
            rows.append(
                {
                    "table": k,
                    "bots": " | ".join(t.bots),
                    "kingdom": kd or "",
                    "seed": t.seed,
                    "games": t.games if not t.skipped else 0,
                    "truncated": t.truncated,
                    "mean_turns": t.mean_turns,
                    "skipped": t.skipped,
                }
            )
        _write_csv(
            paths["tables"],
            rows,
            ["table", "bots", "kingdom", "seed", "games", "truncated", "mean_turns", "skipped"],
        )
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
