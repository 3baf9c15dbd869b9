"""Property tests: the engine's invariants hold at every decision of many random games.

``dominion_env.engine.audit`` plays whole games with a uniformly random legal action at every
decision and checks, at each one: card conservation per card id, a non-empty mask while the
game runs, a valid decider, no negative count; and that every game ends (terminated, or
truncated by the turn limit) with well-formed rewards. Over 100,000 games across 2..6 players
here (a 60-turn limit bounds the random games), plus smaller runs with manual treasures and no
auto-resolve, and with fixed kingdoms. A few tests break a real position on purpose to show
each check can fire, and one replays audited games through VecGame to show the audit plays the
games it says it plays.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dominion_env import RECOMMENDED, Game, VecGame
from dominion_env.cards import NUM_CARDS
from dominion_env.engine.audit import CHECK_NAMES, audit, check_game
from dominion_env.engine.kingdoms import is_implemented, playable_kingdom_cards
from dominion_env.engine.layout import (
    COINS,
    DEC_PLAYER,
    DECK_LEN,
    DISCARD,
    HAND,
    STATUS,
    SUPPLY,
    TERMINATED,
    TRUNCATED,
    TURN_NUMBER,
)

TURN_LIMIT = 60

# players -> games: 40k + 4 x 15k = 100,000 random games
MAIN_RUN = {2: 40_000, 3: 15_000, 4: 15_000, 5: 15_000, 6: 15_000}


def assert_clean(summary, n_games):
    """No check failed in any game and every game ended."""
    info = {k: v for k, v in summary.items() if k != "per_game"}
    assert summary["violating_games"] == {name: 0 for name in CHECK_NAMES}, info
    assert summary["terminated"] + summary["truncated"] == n_games, info
    assert summary["ok"], info
    per_game = summary["per_game"]
    assert np.isin(per_game["status"], (TERMINATED, TRUNCATED)).all()
    assert (per_game["first_bad"] == -1).all()
    assert (per_game["decisions"] > 0).all(), "every game asks at least one decision"


@pytest.mark.parametrize("players", sorted(MAIN_RUN))
def test_random_games_keep_every_invariant(players):
    n = MAIN_RUN[players]
    audit(8, players, seed=players, turn_limit=TURN_LIMIT)  # compile outside the timing
    summary = audit(n, players, seed=1000 + players, turn_limit=TURN_LIMIT)
    assert_clean(summary, n)
    # the run is not vacuous: most random games end by the rules, well inside the limit
    assert summary["terminated"] > n // 2
    assert summary["decisions"] > 100 * n
    print(
        f"\n{players}p: {n} games, {summary['decisions']} decisions, "
        f"{summary['terminated']} terminated / {summary['truncated']} truncated, "
        f"{summary['seconds']:.2f} s = {summary['games_per_second']:.0f} games/s"
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_manual_treasures_and_no_auto_resolve(players):
    """Every decision stops, even forced ones, and Treasures are played one by one."""
    n = 3000
    summary = audit(
        n,
        players,
        seed=77 + players,
        turn_limit=TURN_LIMIT,
        autoplay_treasures=False,
        auto_resolve=False,
    )
    assert_clean(summary, n)


def _playable_recommended():
    return [name for name, cards in RECOMMENDED.items() if all(map(is_implemented, cards))]


def test_fixed_kingdoms():
    """The fixed-kingdom setup path: every recommended set that plays today (or, if none does
    yet, the first 10 playable kingdom cards)."""
    kingdoms = _playable_recommended() or [list(playable_kingdom_cards()[:10])]
    for kingdom in kingdoms:
        for players in (2, 4):
            summary = audit(2000, players, kingdom=kingdom, seed=5, turn_limit=TURN_LIMIT)
            assert_clean(summary, 2000)


def test_no_turn_limit_pressure():
    """With a generous turn limit random games still end, nearly all by the rules."""
    summary = audit(4000, 2, seed=9, turn_limit=500)
    assert_clean(summary, 4000)
    assert summary["truncated"] <= 4000 // 100


@pytest.mark.parametrize("players", [2, 3])
def test_audit_plays_the_games_vecgame_plays(players):
    """Audited game i is game i of VecGame(autoreset=False) reset with the same seed and
    stepped with VecGame.random_actions(): same number of decisions, same end, same turn."""
    n, seed = 24, 31
    summary = audit(n, players, seed=seed, turn_limit=TURN_LIMIT)
    vec = VecGame(n, players, turn_limit=TURN_LIMIT, autoreset=False)
    vec.reset(seed)
    decisions = np.zeros(n, np.int64)
    for _ in range(100_000):
        running = vec.running.copy()
        if not running.any():
            break
        decisions += running
        vec.step(vec.random_actions())
    assert not vec.running.any()
    per_game = summary["per_game"]
    np.testing.assert_array_equal(per_game["decisions"], decisions)
    np.testing.assert_array_equal(per_game["status"], vec.state["game"][:, STATUS])
    np.testing.assert_array_equal(per_game["turns"], vec.state["game"][:, TURN_NUMBER])


# -- the checks can fire --------------------------------------------------------------------


def _midgame(players=3, steps=60, seed=4):
    """A Game played ``steps`` random decisions in, still running."""
    g = Game("random", players=players, seed=seed, turn_limit=TURN_LIMIT)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    assert not g.done
    return g


def _failures(g, mask=None):
    work = np.zeros(3 * NUM_CARDS, np.int64)
    mask = g.action_mask.copy() if mask is None else mask
    bad = int(check_game(g.state, 0, g._vec.setup, mask, work))
    return {name for k, name in enumerate(CHECK_NAMES) if (bad >> k) & 1}


def test_checks_pass_on_a_real_position():
    assert _failures(_midgame()) == set()


def test_conservation_fires_on_a_card_from_nowhere():
    g = _midgame()
    p = g.current_player
    g.state["zone"][0, p, HAND, 0] += 1  # a Copper appears in a hand
    assert _failures(g) == {"conservation"}


def test_conservation_fires_on_a_lost_card():
    g = _midgame()
    s = g.state
    p = int(np.flatnonzero(s["player"][0, : g.players, DECK_LEN] > 0)[0])
    s["player"][0, p, DECK_LEN] -= 1  # the top card of a draw pile vanishes
    assert _failures(g) == {"conservation"}


def test_conservation_fires_per_card_id():
    """Totals match but not per id: a Silver lands in a discard pile while a Gold leaves the
    Supply."""
    g = _midgame()
    s = g.state
    s["zone"][0, 0, DISCARD, 1] += 1
    s["pile"][0, SUPPLY, 2] -= 1
    assert _failures(g) == {"conservation"}


def test_conservation_fires_on_a_draw_pile_count_that_disagrees_with_the_pile():
    """deck_count is the draw pile's composition: a row naming a Silver where the pile holds
    a Copper is caught, though no total changes."""
    g = _midgame()
    s = g.state
    p = int(np.flatnonzero(s["deck_count"][0, : g.players, 0] > 0)[0])
    s["deck_count"][0, p, 0] -= 1
    s["deck_count"][0, p, 1] += 1
    assert _failures(g) == {"conservation"}


def test_negative_fires():
    g = _midgame()
    s = g.state
    k = int(s["zone"][0, 1, DISCARD, 0])  # P1's Coppers in discard -> -1, the rest to hand:
    s["zone"][0, 1, DISCARD, 0] = -1  # every total still matches, one count is negative
    s["zone"][0, 1, HAND, 0] += k + 1
    assert _failures(g) == {"negative"}
    g2 = _midgame()
    g2.state["game"][0, COINS] = -1
    assert _failures(g2) == {"negative"}


def test_negative_fires_on_public_discards_beyond_the_pile():
    """pub_discard is a lower bound of the discard pile: a known card that is not there (one
    more than the pile holds) is caught, as a negative count of the unknown rest."""
    g = _midgame()
    s = g.state
    s["pub_discard"][0, 1, 0] = s["zone"][0, 1, DISCARD, 0] + 1
    assert _failures(g) == {"negative"}
    g2 = _midgame()
    g2.state["pub_discard"][0, 0, 0] = -1
    assert _failures(g2) == {"negative"}


def test_empty_mask_and_decider_fire():
    g = _midgame()
    assert _failures(g, mask=np.zeros_like(g.action_mask)) == {"empty_mask"}
    g.state["game"][0, DEC_PLAYER] = g.players  # no such seat
    assert _failures(g) == {"decider"}
    g.state["game"][0, DEC_PLAYER] = -1
    assert _failures(g) == {"decider"}


def test_audit_runs_as_plain_python_without_the_jit():
    """jit.py promises that with NUMBA_DISABLE_JIT=1 every kernel line runs as Python (for
    tracebacks and coverage): the audit of a couple of games must then run and pass too.

    A regression test: once the State became a numpy record per game, ``s[g]`` of a plain
    structured array was a ``numpy.void`` with no attribute access without the JIT, so the first
    ``r.rng`` raised AttributeError. ``new_state`` returns a recarray view under
    NUMBA_DISABLE_JIT, which this test keeps working."""
    code = (
        "from dominion_env.engine.audit import audit\n"
        "r = audit(2, 3, seed=1, turn_limit=20)\n"
        "assert r['ok'] and r['decisions'] > 0, r\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stderr[-2000:]
