"""The turn and the driver: set up a game, run it to the next decision, resolve a decision.

The bottom frame of every game is the turn (``TURN_FRAME``), a small state machine::

    T_START -> T_ACTION <-> T_ACTION_ANSWER (card frames run above it) -> T_BUY_START
            -> [T_TREASURE <-> T_TREASURE_ANSWER] -> T_BUY <-> T_BUY_ANSWER -> T_CLEANUP
            -> (game end check) -> next player's T_START

The Action phase asks only when the player has an Action in hand and an Action left (with
no Action card there is no choice to make). Treasures are played all at once when
``cfg.autoplay_treasures`` (never worse with these cards), else one by one before buying;
as in the 2nd-edition rules no Treasure can be played after the first buy.
"""

from ..cards import ACTION, COPPER, ESTATE, PROVINCE, TREASURE, TYPES
from .effects import effect_step
from .frames import ask, has_type_in_hand, play_action_from_hand, play_treasure, push_frame
from .jit import njit
from .layout import (
    ACTIONS,
    ACTIONS_PLAYED,
    ANSWER,
    BUYS,
    COINS,
    COST_ANY_HI,
    COST_REDUCTION,
    DEC_BUY,
    DEC_KIND,
    DEC_NONE,
    DEC_PLAY_ACTION,
    DEC_PLAY_TREASURE,
    DEC_PLAYER,
    DECK_LEN,
    DISCARD,
    EV_BUY,
    EV_DISCARD,
    EV_END,
    EV_PHASE,
    EV_TURN,
    FR_CARD,
    FR_PLAYER,
    FR_STEP,
    HAND,
    IN_PLAY,
    IN_SUPPLY,
    PASS,
    PHASE,
    PHASE_ACTION,
    PHASE_BUY,
    PHASE_CLEANUP,
    PHASE_OVER,
    RUNNING,
    SP,
    STATUS,
    SUPPLY,
    T_ACTION,
    T_ACTION_ANSWER,
    T_BUY,
    T_BUY_ANSWER,
    T_BUY_START,
    T_CLEANUP,
    T_START,
    T_TREASURE,
    T_TREASURE_ANSWER,
    TERMINATED,
    TRASH,
    TRUNCATED,
    TURN_FRAME,
    TURN_NUMBER,
    TURN_PLAYER,
    TURNS_TAKEN,
    UNIVERSE_LEN,
    ZONE_HAND,
    ZONE_SUPPLY,
)
from .mask import write_mask
from .zones import below, current_cost, draw, gain, log_event, victory_points

HAND_SIZE = 5


@njit
def setup_game(s, T, cfg, g, kingdom, pile_sizes):
    """Start game g: Supply from ``pile_sizes`` (C,) for the basics and the kingdom card ids,
    7 Coppers and 3 Estates per player (not from the Supply), 5 cards each, first turn."""
    P = s.zone.shape[1]
    s.game[g, :] = 0
    s.zone[g] = 0
    s.pile[g] = 0
    s.player[g] = 0
    for c in range(7):  # the basic cards are always in the Supply
        s.pile[g, SUPPLY, c] = pile_sizes[c]
        s.pile[g, IN_SUPPLY, c] = 1
    for i in range(kingdom.shape[0]):
        c = kingdom[i]
        s.pile[g, SUPPLY, c] = pile_sizes[c]
        s.pile[g, IN_SUPPLY, c] = 1
    set_universe(s, g)
    s.game[g, STATUS] = RUNNING
    for p in range(P):
        s.reward[g, p] = 0.0
        s.zone[g, p, DISCARD, COPPER] = 7
        s.zone[g, p, DISCARD, ESTATE] = 3
        draw(s, cfg, g, p, HAND_SIZE)  # shuffles the 10 starting cards first
    first = cfg.first_player if cfg.first_player >= 0 else below(s.rng, g, P)
    s.game[g, TURN_PLAYER] = first
    s.game[g, TURN_NUMBER] = 1
    s.game[g, PHASE] = PHASE_ACTION
    s.game[g, DEC_PLAYER] = first
    push_frame(s, g, TURN_FRAME, first)


@njit
def set_universe(s, g):
    """List the cards that exist in game g: those with a Supply pile or in any zone."""
    n = 0
    for c in range(s.pile.shape[2]):
        present = s.pile[g, IN_SUPPLY, c] > 0 or s.pile[g, TRASH, c] > 0
        for p in range(s.zone.shape[1]):
            for z in range(s.zone.shape[2]):
                present = present or s.zone[g, p, z, c] > 0
            for i in range(s.player[g, p, DECK_LEN]):
                present = present or s.deck[g, p, i] == c
        if present:
            s.universe[g, n] = c
            n += 1
    s.game[g, UNIVERSE_LEN] = n


@njit
def finish_game(s, T, cfg, g, status, scratch):
    """End game g: rewards per player (+1 sole winner, 0 shared win, -1 otherwise)."""
    P = s.zone.shape[1]
    s.game[g, STATUS] = status
    s.game[g, PHASE] = PHASE_OVER
    s.game[g, DEC_KIND] = DEC_NONE
    s.game[g, DEC_PLAYER] = -1
    s.game[g, SP] = 0
    for p in range(P):
        s.reward[g, p] = 0.0
    log_event(s, cfg, g, EV_END, -1, -1, status)
    if status != TERMINATED:
        return
    # no allocation in helpers: the scores wait in the reward row until turned into rewards
    best = -(1 << 30)
    for p in range(P):
        v = victory_points(s, T, g, p, scratch)
        s.reward[g, p] = v
        if v > best:
            best = v
    fewest = 1 << 30
    for p in range(P):
        if s.reward[g, p] == best and s.player[g, p, TURNS_TAKEN] < fewest:
            fewest = s.player[g, p, TURNS_TAKEN]
    winners = 0
    for p in range(P):
        if s.reward[g, p] == best and s.player[g, p, TURNS_TAKEN] == fewest:
            winners += 1
    for p in range(P):
        if s.reward[g, p] == best and s.player[g, p, TURNS_TAKEN] == fewest:
            s.reward[g, p] = 1.0 if winners == 1 else 0.0
        else:
            s.reward[g, p] = -1.0


@njit
def game_over(s, cfg, g):
    """The end condition checked at the end of every turn."""
    if s.pile[g, SUPPLY, PROVINCE] == 0:
        return True
    empty = 0
    for u in range(s.game[g, UNIVERSE_LEN]):
        c = s.universe[g, u]
        if s.pile[g, IN_SUPPLY, c] and s.pile[g, SUPPLY, c] == 0:
            empty += 1
    return empty >= cfg.end_piles


@njit
def _cleanup(s, cfg, g, p):
    s.game[g, PHASE] = PHASE_CLEANUP
    for u in range(s.game[g, UNIVERSE_LEN]):
        c = s.universe[g, u]
        k = s.zone[g, p, HAND, c] + s.zone[g, p, IN_PLAY, c]
        if k > 0:
            s.zone[g, p, DISCARD, c] += k
            s.zone[g, p, HAND, c] = 0
            s.zone[g, p, IN_PLAY, c] = 0
            log_event(s, cfg, g, EV_DISCARD, p, c, k)
    draw(s, cfg, g, p, HAND_SIZE)
    s.player[g, p, TURNS_TAKEN] += 1


@njit
def turn_step(s, T, cfg, g, scratch):
    """Run the turn frame (the bottom frame) until a decision is pending, a card frame was
    pushed above it, or the game is over (one call per decision, not one per step)."""
    f = s.game[g, SP] - 1
    while (s.game[g, DEC_KIND] == DEC_NONE and s.game[g, SP] - 1 == f
           and s.game[g, STATUS] == RUNNING):
        step = s.frame[g, f, FR_STEP]
        p = s.game[g, TURN_PLAYER]
        if step == T_START:
            s.game[g, PHASE] = PHASE_ACTION
            s.game[g, ACTIONS] = 1
            s.game[g, BUYS] = 1
            s.game[g, COINS] = 0
            s.game[g, COST_REDUCTION] = 0
            s.game[g, ACTIONS_PLAYED] = 0
            log_event(s, cfg, g, EV_TURN, p, -1, s.game[g, TURN_NUMBER])
            s.frame[g, f, FR_STEP] = T_ACTION
        elif step == T_ACTION:
            if s.game[g, ACTIONS] > 0 and has_type_in_hand(s, T, g, p, ACTION):
                s.frame[g, f, FR_STEP] = T_ACTION_ANSWER
                ask(s, g, DEC_PLAY_ACTION, p, -1, ZONE_HAND, ACTION, 0, COST_ANY_HI, 0, 1)
            else:
                s.frame[g, f, FR_STEP] = T_BUY_START
        elif step == T_ACTION_ANSWER:
            a = s.game[g, ANSWER]
            if a == PASS:
                s.frame[g, f, FR_STEP] = T_BUY_START
            else:
                s.game[g, ACTIONS] -= 1
                s.frame[g, f, FR_STEP] = T_ACTION
                play_action_from_hand(s, T, cfg, g, p, a)
        elif step == T_BUY_START:
            s.game[g, PHASE] = PHASE_BUY
            log_event(s, cfg, g, EV_PHASE, p, -1, PHASE_BUY)
            if cfg.autoplay_treasures:
                for u in range(s.game[g, UNIVERSE_LEN]):
                    c = s.universe[g, u]
                    if T[c, TYPES] & TREASURE:
                        while s.zone[g, p, HAND, c] > 0:
                            play_treasure(s, T, cfg, g, p, c)
                s.frame[g, f, FR_STEP] = T_BUY
            else:
                s.frame[g, f, FR_STEP] = T_TREASURE
        elif step == T_TREASURE:
            if has_type_in_hand(s, T, g, p, TREASURE):
                s.frame[g, f, FR_STEP] = T_TREASURE_ANSWER
                ask(s, g, DEC_PLAY_TREASURE, p, -1, ZONE_HAND, TREASURE, 0, COST_ANY_HI, 0, 1)
            else:
                s.frame[g, f, FR_STEP] = T_BUY
        elif step == T_TREASURE_ANSWER:
            a = s.game[g, ANSWER]
            if a == PASS:
                s.frame[g, f, FR_STEP] = T_BUY
            else:
                s.frame[g, f, FR_STEP] = T_TREASURE
                play_treasure(s, T, cfg, g, p, a)
        elif step == T_BUY:
            if s.game[g, BUYS] > 0:
                s.frame[g, f, FR_STEP] = T_BUY_ANSWER
                ask(s, g, DEC_BUY, p, -1, ZONE_SUPPLY, 0, 0, s.game[g, COINS], 0, 1)
            else:
                s.frame[g, f, FR_STEP] = T_CLEANUP
        elif step == T_BUY_ANSWER:
            a = s.game[g, ANSWER]
            if a == PASS:
                s.frame[g, f, FR_STEP] = T_CLEANUP
            else:
                s.game[g, BUYS] -= 1
                s.game[g, COINS] -= current_cost(s, T, g, a)
                log_event(s, cfg, g, EV_BUY, p, a, 1)
                gain(s, cfg, g, p, a, DISCARD)
                s.frame[g, f, FR_STEP] = T_BUY
        else:  # T_CLEANUP
            _cleanup(s, cfg, g, p)
            if game_over(s, cfg, g):
                finish_game(s, T, cfg, g, TERMINATED, scratch)
                return
            nxt = (p + 1) % s.zone.shape[1]
            if s.player[g, nxt, TURNS_TAKEN] >= cfg.turn_limit:
                finish_game(s, T, cfg, g, TRUNCATED, scratch)
                return
            s.game[g, TURN_PLAYER] = nxt
            s.game[g, TURN_NUMBER] += 1
            s.frame[g, f, FR_PLAYER] = nxt
            s.frame[g, f, FR_STEP] = T_START


@njit
def advance(s, T, cfg, g, mask_row, scratch):
    """Run game g until a decision is pending or the game is over.

    Leaves the decision's mask in ``mask_row``. With ``cfg.auto_resolve`` a decision with
    exactly one legal action is taken at once. ``scratch`` is a (C,) int64 work array.
    """
    while s.game[g, STATUS] == RUNNING:
        if s.game[g, DEC_KIND] != DEC_NONE:
            n, only = write_mask(s, T, g, mask_row)
            if n == 1 and cfg.auto_resolve:
                s.game[g, ANSWER] = only
                s.game[g, DEC_KIND] = DEC_NONE
                continue
            return
        if s.frame[g, s.game[g, SP] - 1, FR_CARD] == TURN_FRAME:
            turn_step(s, T, cfg, g, scratch)
        else:
            effect_step(s, T, cfg, g, scratch)
    mask_row[:] = False


@njit
def resolve(s, T, cfg, g, action, mask_row, scratch):
    """Answer game g's pending decision with ``action`` (already checked legal) and advance."""
    s.game[g, ANSWER] = action
    s.game[g, DEC_KIND] = DEC_NONE
    advance(s, T, cfg, g, mask_row, scratch)
