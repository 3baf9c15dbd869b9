"""What each player of a match buys and plays, and when it takes its fourth Province.

    from dominion_env.analysis.profile import profile_match
    prof = profile_match([load_agent("ppo-pool"), BOTS["Double Witch"]], kingdom, 200, seed=0)
    prof.rows()          # per player: games, win rate, round of its 4th Province, top buys/plays
    prof.per_game("Village", "plays")   # Villages played per game, per player

A strategy shows in what a player does with a kingdom: an engine buys Villages, draw and
trashing and plays many actions a turn; money buys Silver and Gold and plays a few. The match
is ``analysis.mixed.play_mixed`` (seats rotated, seat 0 first, every player a bot or a policy:
a trained agent or a search), watched round by round (``BuyPlayCounts``): a *buy* is a buy decision
answered with a card; a *play* is an Action card chosen at an action decision (``play_action``),
and a card Throne Room plays twice (``play_twice``) counts two; treasures played automatically
are not counted. The *fourth Province* is the round (turns of every player together, over the player
count, rounded up) of the turn in which a player buys its fourth Province; games where it never
does count in ``reached_four`` only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import ID, NAMES, NUM_CARDS
from ..engine.layout import DECISION_NAMES
from .mixed import play_mixed

BUY = DECISION_NAMES.index("buy")
PLAY = DECISION_NAMES.index("play_action")
PLAY_TWICE = DECISION_NAMES.index("play_twice")  # Throne Room's choice: that card plays twice
PROVINCE = ID["Province"]


class BuyPlayCounts:
    """``play_mixed``'s watcher: buys and plays per (game, seat, card), and the round of each
    seat's fourth Province."""

    def __init__(self, n_games: int, players: int):
        self.players = players
        self.buys = np.zeros((n_games, players, NUM_CARDS), np.int32)
        self.plays = np.zeros((n_games, players, NUM_CARDS), np.int32)
        self.fourth = np.full((n_games, players), np.nan)

    def __call__(self, vec, start: int, actions: np.ndarray) -> None:
        card = (actions >= 0) & (actions < NUM_CARDS)
        kind, seat = vec.decision_kind, vec.current_player
        bought = np.flatnonzero(card & (kind == BUY))
        g, p, c = start + bought, seat[bought], actions[bought]
        np.add.at(self.buys, (g, p, c), 1)
        for k, times in ((PLAY, 1), (PLAY_TWICE, 2)):
            played = np.flatnonzero(card & (kind == k))
            np.add.at(self.plays, (start + played, seat[played], actions[played]), times)
        four = (c == PROVINCE) & (self.buys[g, p, PROVINCE] == 4) & np.isnan(self.fourth[g, p])
        rounds = -(-vec.turn_number[bought] // self.players)  # turns of all, over P, rounded up
        self.fourth[g[four], p[four]] = rounds[four]


@dataclass
class Profile:
    """Per player (the match's order): games played, wins and ties (a shared win), and per game
    the mean buys and plays of each card; ``fourth`` the rounds of its fourth Provinces."""

    names: list[str]
    games: np.ndarray  # (K,)
    wins: np.ndarray  # (K,)
    ties: np.ndarray  # (K,)
    buys: np.ndarray  # (K, C) mean per game
    plays: np.ndarray  # (K, C) mean per game
    fourth: list[np.ndarray]  # per player: the round of each game's 4th Province (reached only)

    def win_rate(self, k: int) -> float:
        return float((self.wins[k] + 0.5 * self.ties[k]) / self.games[k])

    def per_game(self, card: str, what: str = "buys") -> dict[str, float]:
        """``card``'s mean ``what`` ("buys" or "plays") per game, per player."""
        table = {"buys": self.buys, "plays": self.plays}[what]
        return {n: float(table[k, ID[card]]) for k, n in enumerate(self.names)}

    def rows(self, top: int = 6) -> list[dict]:
        """One summary per player: win rate (a tie half a win), the median round of its fourth
        Province and the share of games it got there, and its ``top`` cards bought and played
        per game."""
        out = []
        for k, name in enumerate(self.names):
            f = self.fourth[k]
            out.append(
                {
                    "player": name,
                    "games": int(self.games[k]),
                    "win_rate": round(self.win_rate(k), 3),
                    "4th Province, median round": float(np.median(f)) if len(f) else None,
                    "reached 4 Provinces": round(len(f) / self.games[k], 3),
                    "buys per game": _top(self.buys[k], top),
                    "plays per game": _top(self.plays[k], top),
                }
            )
        return out


def _top(per_card: np.ndarray, n: int) -> dict[str, float]:
    order = np.argsort(-per_card, kind="stable")[:n]
    return {NAMES[c]: round(float(per_card[c]), 2) for c in order if per_card[c] > 0}


def profile_match(
    players: list, kingdom, games: int, *, seed: int = 0, n_players: int = 2, **kw
) -> Profile:
    """Play ``games`` games of ``players`` (bots and policies, ``play_mixed``'s) on ``kingdom``
    with the seats rotated, and profile each player over the seats it held. ``kw`` goes to
    ``play_mixed`` (turn_limit, chunk, progress)."""
    tally = BuyPlayCounts(games, n_players)
    res = play_mixed(players, games, n_players, kingdom, seed=seed, watch=tally, **kw)
    K = len(players)
    seats = res.seat_bot  # (G, P) player id per seat
    won = res.reward == 1
    shared = won.sum(axis=1, keepdims=True) > 1
    out = dict(games=np.zeros(K), wins=np.zeros(K), ties=np.zeros(K))
    buys, plays, fourth = np.zeros((K, NUM_CARDS)), np.zeros((K, NUM_CARDS)), []
    for k in range(K):
        at = seats == k
        out["games"][k] = at.sum()
        out["wins"][k] = (won & ~shared & at).sum()
        out["ties"][k] = (won & shared & at).sum()
        n = max(at.sum(), 1)
        buys[k] = tally.buys[at].sum(axis=0) / n
        plays[k] = tally.plays[at].sum(axis=0) / n
        f = tally.fourth[at]
        fourth.append(f[np.isfinite(f)])
    names = [getattr(p, "name", str(p)) for p in players]
    return Profile(names, out["games"], out["wins"], out["ties"], buys, plays, fourth)
