"""The audit: play whole random games and check the engine's invariants at every decision.

``audit_random_games`` plays one game per record, choosing a uniformly random legal action at
every decision (``bots.random_action``, from a policy stream of its own), exactly as
``batch.play_bots_kernel`` plays bots: ``batch.new_game`` sets the game up and runs it to its
first decision, ``machine.resolve`` answers each decision and runs to the next one. Right
after setup and after every answer (so at every decision, and once more on the final state)
it checks:

``conservation``  for every card id: the cards each player owns (hand, discard, in play, aside,
                  draw pile) summed over every seat of the record (seats beyond the game's
                  players must stay empty), plus the Supply, plus the trash, equal the total at
                  setup: the Supply pile sizes of the game's piles plus 7 Coppers and 3 Estates
                  per player. The totals come from the setup arguments and the configured player
                  count, not from the engine's own bookkeeping; the Supply must also hold the 7
                  basic piles and exactly 10 kingdom piles, all drawn from the setup's pool, the
                  record's player count must be the configured one, every draw pile entry
                  must be a valid card id, and each draw pile's composition row
                  (``deck_count``) must match the cards in it.
``empty_mask``    while the game is running the mask ``advance`` wrote holds at least one legal
                  action; once it is over the mask is all False.
``decider``       while running, the player who decides is a seat 0..P-1, the decision kind is
                  a real one, the turn player is a seat, the phase one of play, the decision's
                  zone, target, source and card real ones, and the game's card list lists card
                  ids; once over, the status says how and the decider is -1 (P, the record's
                  player count, must itself be 2..MAX_PLAYERS).
``negative``      no count is negative: zone counts, Supply and trash piles, draw pile sizes
                  (which must also fit the deck array), turns taken, and the turn's Actions,
                  Buys, $, cost reduction and Actions played; the public record keeps within
                  what it records: publicly known top cards within the owner's known ones
                  (within the pile), publicly known hand cards within the hand, publicly
                  known discards within the discard pile.
``frames``        while running, the frame stack holds 1..FRAME_DEPTH frames: the turn's at
                  the bottom (the turn player's, at a turn step), card frames above it, each
                  of a seat: a card with an effect (only those get a frame), or an Attack's
                  reaction window right above its Attack, which waits (ATTACK_PENDING); the
                  pending decision's source is the top frame's (-1 for the turn, the Attack
                  for its reaction window); once over, none.
``not_ended``     the game ended (terminated by the rules or truncated by the turn limit) within
                  ``max_decisions`` decisions.
``reward``        when it ends: a terminated game has either one +1 and -1 for everyone else, or
                  at least two 0s (a shared win) and -1 for everyone else; a truncated game
                  has all-zero rewards.

Per game it returns how many checked states failed each check, the decision index of the
first failure (-1 if none; 0 is the state right after setup), the decisions answered, the final
status and the turns started. ``audit(...)`` is the Python entry point: it runs the kernel in
chunks and sums the results up in a dict. ``state_failures`` (one record) and ``check_game``
(record g of a batch, e.g. a ``Game``'s state) run the per-decision checks on their own, so a
test can break a position on purpose and see the right check fire. ``position_failures`` and
its batch kernel ``check_positions`` run the same checks on positions handed in from outside
(``VecGame.restore``: a snapshot), plus one: the mask is the one ``write_mask`` gives.

Record g plays game number ``first_index + g`` of the run seeded ``seed``: the same game, with the
same random actions, as row ``first_index + g`` of ``VecGame(..., autoreset=False)`` reset with
``seed`` and stepped with ``VecGame.random_actions()`` (the policy's stream is the run's
``STREAM_POLICY`` stream for that game), so a failing game can be replayed outside the audit.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from ..cards import (
    ATTACK,
    COPPER,
    EFFECT_ID,
    EFFECT_NONE,
    ESTATE,
    KINGDOM_SIZE,
    TABLE,
    TYPES,
    check_players,
)
from .batch import new_game, row_of
from .bots import random_action
from .config import make_config, make_setup
from .jit import kernel, njit, prange
from .layout import (
    ACTIONS,
    ACTIONS_PLAYED,
    ATTACK_PENDING,
    BUYS,
    COINS,
    COST_REDUCTION,
    DEC_CARD,
    DEC_KIND,
    DEC_PLAYER,
    DEC_SOURCE,
    DEC_TARGET,
    DEC_ZONE,
    DECK_LEN,
    DISCARD,
    FR_CARD,
    FR_PLAYER,
    FR_STEP,
    HAND,
    IN_SUPPLY,
    KNOWN_TOP,
    NUM_ACTIONS,
    NUM_DECISIONS,
    PHASE,
    PHASE_ACTION,
    PHASE_OVER,
    PLAYERS,
    PUBLIC_TOP,
    REACTION_FRAME,
    RUNNING,
    SP,
    STATUS,
    SUPPLY,
    T_CLEANUP,
    T_START,
    TERMINATED,
    TRASH,
    TRUNCATED,
    TURN_FRAME,
    TURN_NUMBER,
    TURN_PLAYER,
    TURNS_TAKEN,
    UNIVERSE_LEN,
    ZONE_ANY,
    ZONE_NONE,
    C,
    new_state,
)
from .machine import resolve
from .mask import write_mask
from .zones import STREAM_GAME, STREAM_POLICY, seed_game

# the card table as a constant of the frame check: the per-decision checks keep the signature
# tests call them with (no table); it never changes while a process runs
_TABLE = TABLE
BASIC_CARDS = 7  # card ids 0..6 are the basic cards, always in the Supply

# the checks, in the column order of AuditBuffers.violations
(
    CHECK_CONSERVATION,
    CHECK_EMPTY_MASK,
    CHECK_DECIDER,
    CHECK_NEGATIVE,
    CHECK_NOT_ENDED,
    CHECK_REWARD,
    CHECK_FRAMES,
) = range(7)
CHECK_NAMES = (
    "conservation",
    "empty_mask",
    "decider",
    "negative",
    "not_ended",
    "reward",
    "frames",
)
NUM_CHECKS = len(CHECK_NAMES)

DEFAULT_MAX_DECISIONS = 200_000  # far above any real game; only a runaway game gets there


class AuditBuffers(NamedTuple):
    """Work space and results of ``audit_random_games`` for N games (row g = game g)."""

    mask: np.ndarray  # (N, NUM_ACTIONS) bool, the mask advance writes
    scratch: np.ndarray  # (N, C) int64, the engine's work space (advance / resolve)
    work: np.ndarray  # (N, 2 * C) int64, the audit's own work space (card totals now, ...)
    expected: np.ndarray  # (N, C) int64, card totals at setup
    policy_rng: np.ndarray  # (N,) uint64, the random policy's stream
    violations: np.ndarray  # (N, NUM_CHECKS) int64, checked states failing each check
    first_bad: np.ndarray  # (N,) int64, decision index of the first failure, -1 none
    decisions: np.ndarray  # (N,) int64, decisions answered
    status: np.ndarray  # (N,) int64, final STATUS
    turns: np.ndarray  # (N,) int64, turns started


def new_buffers(n: int) -> AuditBuffers:
    return AuditBuffers(
        mask=np.zeros((n, NUM_ACTIONS), np.bool_),
        scratch=np.zeros((n, C), np.int64),
        work=np.zeros((n, 2 * C), np.int64),
        expected=np.zeros((n, C), np.int64),
        policy_rng=np.zeros(n, np.uint64),
        violations=np.zeros((n, NUM_CHECKS), np.int64),
        first_bad=np.zeros(n, np.int64),
        decisions=np.zeros(n, np.int64),
        status=np.zeros(n, np.int64),
        turns=np.zeros(n, np.int64),
    )


@njit
def _expected_totals(r, setup, g, players, out):
    """Card totals of the game in record r (row g) at setup into out (C,): each Supply pile's
    setup size plus the starting decks of ``players`` players. False if the Supply is not the 7
    basic piles plus 10 kingdom piles: row g's kingdom, or (a random row) drawn from the pool."""
    P = players
    ok = True
    kingdom = 0
    q = row_of(setup.row_kingdom, g)
    allowed = setup.pool if q < 0 else setup.kingdoms[q]
    for c in range(C):
        out[c] = 0
        if r.pile[IN_SUPPLY, c] == 0:
            continue
        out[c] = setup.pile_sizes[c]
        if c >= BASIC_CARDS:
            kingdom += 1
            in_pool = False
            for i in range(allowed.shape[0]):
                if allowed[i] == c:
                    in_pool = True
            ok = ok and in_pool
    for c in range(BASIC_CARDS):
        ok = ok and r.pile[IN_SUPPLY, c] == 1
    out[COPPER] += 7 * P
    out[ESTATE] += 3 * P
    return ok and kingdom == KINGDOM_SIZE


@njit
def _check_cards(r, expected, work):
    """Count every card of the game into work[:C]; return (conserved, nothing negative).

    Loops over every card id, not only the game's universe, and over every seat of the record
    (it has room for MAX_PLAYERS), so a card that should not exist in this game, or sits in a
    seat nobody plays, is caught too. (Inner loops run along the card axis without branches,
    so they compile to vector code: this runs at every decision.)"""
    S = r.zone.shape[0]
    Z = r.zone.shape[1]
    K = r.deck.shape[1]
    lowest = 0  # the smallest count seen; negative means some count is
    for c in range(C):
        supply = r.pile[SUPPLY, c]
        trash = r.pile[TRASH, c]
        lowest = min(lowest, supply, trash)
        work[c] = supply + trash
    for p in range(S):
        for z in range(Z):
            for c in range(C):
                k = r.zone[p, z, c]
                lowest = min(lowest, k)
                work[c] += k
    conserved = True
    for p in range(S):
        lowest = min(lowest, r.player[p, TURNS_TAKEN])
        n = r.player[p, DECK_LEN]
        # the known top cards and the unknown rest of the deck are counts too, and so are the
        # publicly known top cards (among the owner's known ones) and the rest of the known
        known, public = r.player[p, KNOWN_TOP], r.player[p, PUBLIC_TOP]
        lowest = min(lowest, known, n - known, public, known - public)
        for c in range(C):  # the publicly known cards of a hand and a discard pile are in it
            lowest = min(lowest, r.pub_hand[p, c], r.zone[p, HAND, c] - r.pub_hand[p, c])
            known_discard = r.pub_discard[p, c]
            lowest = min(lowest, known_discard, r.zone[p, DISCARD, c] - known_discard)
        if n < 0 or n > K:  # a broken size: do not read outside the deck array
            lowest = -1  # reported under "negative" as well
            conserved = False
            continue
        tally = work[C:]  # this pile's composition row, less each card found in the pile
        for c in range(C):
            tally[c] = r.deck_count[p, c]
        for i in range(n):
            c = r.deck[p, i]
            if c < 0 or c >= C:
                conserved = False
            else:
                work[c] += 1
                tally[c] -= 1
        for c in range(C):
            conserved = conserved and tally[c] == 0
    mismatch = 0
    for c in range(C):
        mismatch += work[c] != expected[c]
    for f in (ACTIONS, BUYS, COINS, COST_REDUCTION, ACTIONS_PLAYED):
        lowest = min(lowest, r.game[f])
    return conserved and mismatch == 0, lowest >= 0


@njit
def _mask_count(mask_row):
    n = 0
    for a in range(NUM_ACTIONS):
        if mask_row[a]:
            n += 1
    return n


@njit
def _decider_ok(r):
    """While running: a seat decides a real decision kind on a seat's turn, in a phase of
    play, about what a game holds (its zone, target, source card and card are real ones, the
    game's card list lists card ids); over: nobody. The status is one of the three."""
    P = r.game[PLAYERS]
    if P < 2 or P > r.zone.shape[0]:
        return False
    st = r.game[STATUS]
    if st == RUNNING:
        p = r.game[DEC_PLAYER]
        k = r.game[DEC_KIND]
        tp = r.game[TURN_PLAYER]
        ok = 0 <= p < P and 0 < k < NUM_DECISIONS and 0 <= tp < P
        ok = ok and PHASE_ACTION <= r.game[PHASE] < PHASE_OVER
        ok = ok and ZONE_NONE <= r.game[DEC_ZONE] <= ZONE_ANY
        ok = ok and -1 <= r.game[DEC_TARGET] < P
        ok = ok and REACTION_FRAME <= r.game[DEC_SOURCE] < C and -1 <= r.game[DEC_CARD] < C
        n = r.game[UNIVERSE_LEN]
        if not (ok and 0 <= n <= r.universe.shape[0]):
            return False
        for u in range(n):
            ok = ok and r.universe[u] < C
        return ok
    return (st == TERMINATED or st == TRUNCATED) and r.game[DEC_PLAYER] == -1


@njit
def _frames_ok(r):
    """While running: 1..FRAME_DEPTH frames, the turn's at the bottom (the turn player's, at
    a turn step), card frames above it (a card id, or an Attack's reaction window) each of a
    seat; over: no frame."""
    n = r.game[SP]
    if r.game[STATUS] != RUNNING:
        return n == 0
    P = r.game[PLAYERS]
    if n < 1 or n > r.frame.shape[0]:
        return False
    bottom = r.frame[0]
    if bottom[FR_CARD] != TURN_FRAME or bottom[FR_PLAYER] != r.game[TURN_PLAYER]:
        return False
    if not T_START <= bottom[FR_STEP] <= T_CLEANUP:
        return False
    for f in range(1, n):
        c = r.frame[f, FR_CARD]
        p = r.frame[f, FR_PLAYER]
        if not 0 <= p < P:
            return False
        if c == REACTION_FRAME:  # opened by an Attack, which waits right under it
            below = r.frame[f - 1]
            if f < 2 or below[FR_CARD] < 0 or below[FR_STEP] != ATTACK_PENDING:
                return False
            if not _TABLE[below[FR_CARD], TYPES] & ATTACK:
                return False
        elif not 0 <= c < C or _TABLE[c, EFFECT_ID] == EFFECT_NONE:
            return False  # only a card with an effect gets a frame (frames.play_card)
        elif r.frame[f, FR_STEP] < ATTACK_PENDING:
            return False
    # the pending decision is asked by the top frame: the turn (source -1), its card, or
    # for a reaction window the Attack under it
    top = r.frame[n - 1, FR_CARD]
    src = r.game[DEC_SOURCE]
    if top == TURN_FRAME:
        return src == -1
    if top == REACTION_FRAME:
        return src == r.frame[n - 2, FR_CARD]
    return src == top


@njit
def _rewards_ok(r):
    """The end-of-game rewards have the documented shape (see the module docstring)."""
    P = r.game[PLAYERS]
    wins = 0
    shared = 0
    losses = 0
    for p in range(P):
        x = r.reward[p]
        if x == 1.0:
            wins += 1
        elif x == 0.0:
            shared += 1
        elif x == -1.0:
            losses += 1
    if r.game[STATUS] == TRUNCATED:
        return shared == P
    return wins + shared + losses == P and (
        (wins == 1 and shared == 0) or (wins == 0 and shared >= 2)
    )


@njit
def state_failures(r, mask_row, expected, work):
    """The per-decision checks on the game in record r as it stands now, with the mask that
    ``advance`` left in mask_row and the setup totals in expected (C,); work: (2 * C,) scratch.
    Returns a bit set: bit CHECK_x set when check x fails (0: all good)."""
    bad = 0
    conserved, nonneg = _check_cards(r, expected, work)
    if not conserved:
        bad |= 1 << CHECK_CONSERVATION
    if not nonneg:
        bad |= 1 << CHECK_NEGATIVE
    n = _mask_count(mask_row)
    running = r.game[STATUS] == RUNNING
    if (running and n == 0) or (not running and n != 0):
        bad |= 1 << CHECK_EMPTY_MASK
    if not _decider_ok(r):
        bad |= 1 << CHECK_DECIDER
    if not _frames_ok(r):
        bad |= 1 << CHECK_FRAMES
    return bad


@njit
def check_game(s, g, setup, mask_row, work):
    """``state_failures`` for record g of a batch, the setup totals worked out from its Supply
    (for tests: take a Game's state mid-game, break it, see the check fire); the Supply-shape
    part of the conservation check is included. work: (3 * C,) int64 scratch."""
    expected = work[:C]
    ok = _expected_totals(s[g], setup, g, s[g].game[PLAYERS], expected)
    bad = state_failures(s[g], mask_row, expected, work[C:])
    if not ok:
        bad |= 1 << CHECK_CONSERVATION
    return bad


@njit
def position_failures(r, T, setup, g, mask_row, conserve, work, mask_work):
    """``state_failures`` for a position handed in from outside (``VecGame.restore``), plus
    one check no game of the engine can fail: while running, ``mask_row`` must be exactly
    the mask ``write_mask`` writes for the position (reported as ``empty_mask``). With
    ``conserve`` the card totals must be the setup's (as ``check_game``); without (a Game
    put in a position by ``set_scenario``: its totals are its own) only the rest of the
    conservation check applies (draw piles of card ids matching their composition rows).
    The mask is written only once every other check passed: ``write_mask`` reads the
    decision's fields as indices. work: (3 * C,) int64, mask_work: (NUM_ACTIONS,) bool."""
    expected = work[:C]
    shaped = _expected_totals(r, setup, g, r.game[PLAYERS], expected)
    if not conserve:
        _check_cards(r, expected, work[C:])  # the position's own totals, as expected
        for c in range(C):
            expected[c] = work[C + c]
        shaped = True
    bad = state_failures(r, mask_row, expected, work[C:])
    if not shaped:
        bad |= 1 << CHECK_CONSERVATION
    if bad == 0 and r.game[STATUS] == RUNNING:
        write_mask(r, T, mask_work)
        for a in range(NUM_ACTIONS):
            if mask_work[a] != mask_row[a]:
                bad |= 1 << CHECK_EMPTY_MASK
                break
    return bad


@kernel
def check_positions(s, T, setup, masks, conserve, work, mask_work, out):
    """``position_failures`` of every record of s with its mask row, into out (N,) int64.
    work: (N, 3 * C) int64, mask_work: (N, NUM_ACTIONS) bool."""
    for g in prange(s.shape[0]):
        out[g] = position_failures(s[g], T, setup, g, masks[g], conserve, work[g], mask_work[g])


def failed_checks(bits: int) -> list[str]:
    """The names of the checks set in a bit set of ``state_failures``."""
    return [name for k, name in enumerate(CHECK_NAMES) if (int(bits) >> k) & 1]


@njit
def _record(violations, first_bad, g, bad, decision):
    """Count the failing checks of one checked state of game g."""
    for k in range(NUM_CHECKS):
        if (bad >> k) & 1:
            violations[g, k] += 1
    if bad != 0 and first_bad[g] < 0:
        first_bad[g] = decision


@kernel
def audit_random_games(s, T, cfg, setup, buf, seed, first_index, max_decisions):
    """Play and audit one random game per record of s (see the module docstring).

    Record g plays game number first_index + g of the run seeded ``seed``; the random policy
    draws from buf.policy_rng[g], the game's STREAM_POLICY stream. Results go to buf's rows g.
    """
    # Take the arrays out of the tuple before the parallel loop: with parallel=True, writes
    # through ``buf.x[g] = ...`` inside a prange body are silently lost (numba issues #5872,
    # #7135, #10338); writes through a local name, or inside a called helper, land.
    mask, scratch, work, expected = buf.mask, buf.scratch, buf.work, buf.expected
    policy_rng, violations, first_bad = buf.policy_rng, buf.violations, buf.first_bad
    decisions, status, turns = buf.decisions, buf.status, buf.turns
    for g in prange(s.shape[0]):
        r = s[g]
        seed_game(r.rng, 0, seed, first_index + g, STREAM_GAME)  # as VecGame.reset
        seed_game(policy_rng, g, seed, first_index + g, STREAM_POLICY)  # as random_actions
        violations[g, :] = 0
        first_bad[g] = -1
        new_game(r, T, cfg, setup, g, mask[g], scratch[g])  # runs to the first decision
        ok = _expected_totals(r, setup, g, cfg.players, expected[g])
        bad = 0 if ok and r.game[PLAYERS] == cfg.players else 1 << CHECK_CONSERVATION
        bad |= state_failures(r, mask[g], expected[g], work[g])
        _record(violations, first_bad, g, bad, 0)
        d = 0  # decisions answered so far
        while r.game[STATUS] == RUNNING and d < max_decisions:
            if _mask_count(mask[g]) == 0:
                break  # already flagged: no legal action to take, the game cannot go on
            a = random_action(mask[g], policy_rng, g)
            resolve(r, T, cfg, a, mask[g], scratch[g])  # runs to the next decision
            d += 1
            _record(violations, first_bad, g, state_failures(r, mask[g], expected[g], work[g]), d)
        st = r.game[STATUS]
        if st != TERMINATED and st != TRUNCATED:
            _record(violations, first_bad, g, 1 << CHECK_NOT_ENDED, d)
        elif not _rewards_ok(r):
            _record(violations, first_bad, g, 1 << CHECK_REWARD, d)
        decisions[g] = d
        status[g] = st
        turns[g] = r.game[TURN_NUMBER]


def audit(
    n_games: int,
    players: int = 2,
    kingdom="random",
    seed: int = 0,
    turn_limit: int = 60,
    *,
    autoplay_treasures: bool = True,
    auto_resolve: bool = True,
    pool=None,
    first_player: int | None = None,
    chunk: int = 16384,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
) -> dict:
    """Audit ``n_games`` random games (game i = game i of the run seeded ``seed``).

    Returns a summary dict: ``ok`` (no violation and every game ended), per-check counts of
    games that failed it (``violating_games``) and of failing states (``violating_states``),
    ``bad_games`` (the first indices of failing games), totals of decisions, terminated and
    truncated games, timing, and the per-game arrays under ``per_game``.
    """
    players = check_players(players)
    cfg = make_config(
        players,
        autoplay_treasures=autoplay_treasures,
        auto_resolve=auto_resolve,
        turn_limit=turn_limit,
        first_player=first_player,
    )
    setup = make_setup(players, kingdom, pool)
    violations = np.zeros((n_games, NUM_CHECKS), np.int64)
    first_bad = np.zeros(n_games, np.int64)
    decisions = np.zeros(n_games, np.int64)
    status = np.zeros(n_games, np.int64)
    turns = np.zeros(n_games, np.int64)
    size = max(1, min(chunk, n_games))
    s = new_state(size)
    buf = new_buffers(size)
    t0 = time.perf_counter()
    for start in range(0, n_games, size):
        n = min(size, n_games - start)
        if n < size:
            s = new_state(n)
            buf = new_buffers(n)
        audit_random_games(
            s,
            TABLE,
            cfg,
            setup,
            buf,
            int(seed),
            start,
            int(max_decisions),
        )
        sl = slice(start, start + n)
        violations[sl] = buf.violations
        first_bad[sl] = buf.first_bad
        decisions[sl] = buf.decisions
        status[sl] = buf.status
        turns[sl] = buf.turns
    seconds = time.perf_counter() - t0
    bad = np.flatnonzero(violations.any(axis=1))
    return {
        "ok": bool(len(bad) == 0 and np.isin(status, (TERMINATED, TRUNCATED)).all()),
        "games": int(n_games),
        "players": players,
        "violating_games": {
            name: int((violations[:, i] > 0).sum()) for i, name in enumerate(CHECK_NAMES)
        },
        "violating_states": {
            name: int(violations[:, i].sum()) for i, name in enumerate(CHECK_NAMES)
        },
        "bad_games": [int(i) for i in bad[:20]],
        "decisions": int(decisions.sum()),
        "max_decisions_in_a_game": int(decisions.max()) if n_games else 0,
        "terminated": int((status == TERMINATED).sum()),
        "truncated": int((status == TRUNCATED).sum()),
        "mean_turns": float(turns.mean()) if n_games else 0.0,
        "seconds": seconds,
        "games_per_second": n_games / seconds if seconds > 0 else float("inf"),
        "per_game": {
            "violations": violations,
            "first_bad": first_bad,
            "decisions": decisions,
            "status": status,
            "turns": turns,
        },
    }
