"""The turn and the driver: set up a game (or a scenario's position), run it to the next
decision, resolve a decision.

The bottom frame of every game is the turn (``TURN_FRAME``), a small state machine::

    T_START -> T_ACTION <-> T_ACTION_ANSWER (card frames run above it) -> T_BUY_START
            -> [T_TREASURE <-> T_TREASURE_ANSWER] -> T_BUY <-> T_BUY_ANSWER -> T_CLEANUP
            -> (game end check) -> next player's T_START

The Action phase asks only when the player has an Action in hand and an Action left (with
no Action card there is no choice to make). Treasures are played all at once when
``cfg.autoplay_treasures`` (never worse with these cards), else one by one before buying;
as in the 2nd-edition rules no Treasure can be played after the first buy.
"""

from ..cards import ACTION, COPPER, ESTATE, NUM_BASIC, PROVINCE, TREASURE, TYPES
from .effects import effect_step
from .frames import ask, has_type_in_hand, play_action_from_hand, play_treasure, push_frame
from .jit import njit
from .layout import (
    ACTIONS,
    ACTIONS_PLAYED,
    ANSWER,
    BUYS,
    COINS,
    COPPER_BONUS,
    COST_ANY_HI,
    COST_REDUCTION,
    DEC_BUY,
    DEC_KIND,
    DEC_NONE,
    DEC_PLAY_ACTION,
    DEC_PLAY_TREASURE,
    DEC_PLAYER,
    DISCARD,
    EV_BUY,
    EV_DECIDE,
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
    MERCHANTS,
    NUM_ZONES,
    PASS,
    PHASE,
    PHASE_ACTION,
    PHASE_BUY,
    PHASE_CLEANUP,
    PHASE_OVER,
    PLAYERS,
    RUNNING,
    SEEN_ALL,
    SILVER_PLAYED,
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
from .zones import (
    below,
    current_cost,
    draw,
    gain,
    log_event,
    piles_end_game,
    seed_seats,
    seen_by,
    stack_deck,
    victory_points,
)

HAND_SIZE = 5


@njit
def setup_game(r, T, cfg, kingdom, pile_sizes):
    """Start the game: Supply from ``pile_sizes`` (C,) for the basics and the kingdom card ids,
    7 Coppers and 3 Estates per player (not from the Supply), 5 cards each, first turn."""
    P = cfg.players
    clear_game(r, P)
    r.pile[:] = 0
    for c in range(NUM_BASIC):  # the basic cards are always in the Supply
        r.pile[SUPPLY, c] = pile_sizes[c]
        r.pile[IN_SUPPLY, c] = 1
    for i in range(kingdom.shape[0]):
        c = kingdom[i]
        r.pile[SUPPLY, c] = pile_sizes[c]
        r.pile[IN_SUPPLY, c] = 1
    set_universe(r)
    for p in range(P):
        r.zone[p, DISCARD, COPPER] = 7
        r.zone[p, DISCARD, ESTATE] = 3
        draw(r, cfg, p, HAND_SIZE)  # shuffles the 10 starting cards first
    first = cfg.first_player if cfg.first_player >= 0 else below(r.rng, 0, P)
    start_turn(r, first, 1, PHASE_ACTION, T_START)


@njit
def setup_scenario(r, cfg, sc):
    """Put the game in the position ``sc`` (a ``batch.Scenario``, checked by
    ``Game.set_scenario``) the way setup_game starts one: every player's zones and draw pile as
    given, the Supply as it is but for the piles sc.supply gives, the trash as given, and the
    turn frame of player sc.turn_player at sc.step of sc.phase with the given Actions, Buys
    and $. Its turn number is one more than the turns taken. Draws nothing from the game's
    stream; starts the seat streams from its state, as a deal does (a record of the scenario
    keeps that state and replays the same shuffles)."""
    P = cfg.players
    seed_seats(r)
    clear_game(r, P)
    for c in range(r.pile.shape[1]):
        r.pile[TRASH, c] = sc.trash[c]
        if sc.supply[c] >= 0:
            r.pile[SUPPLY, c] = sc.supply[c]
            r.pile[IN_SUPPLY, c] = 1
    turns = 0
    for p in range(P):
        for z in range(NUM_ZONES):
            for c in range(r.zone.shape[2]):
                r.zone[p, z, c] = sc.zone[p, z, c]
        stack_deck(r, p, sc.deck[p], sc.deck_len[p])
        r.player[p, TURNS_TAKEN] = sc.turns_taken[p]
        turns += sc.turns_taken[p]
    set_universe(r)
    start_turn(r, sc.turn_player, turns + 1, sc.phase, sc.step)
    r.game[ACTIONS] = sc.actions
    r.game[BUYS] = sc.buys
    r.game[COINS] = sc.coins


@njit
def clear_game(r, players):
    """Empty the record for a new game of ``players`` players, running: the game row (no turn
    yet, the log empty) and the players' zones, draw piles, public hands and discards,
    counters, Masquerade counts and rewards. The piles (Supply, trash) are the caller's to set."""
    r.game[:] = 0
    r.game[PLAYERS] = players
    r.game[STATUS] = RUNNING
    # only the players' rows: the seats beyond P stay empty all game (new_state zeroes them)
    r.zone[:players] = 0
    r.deck_count[:players] = 0
    r.pub_hand[:players] = 0
    r.pub_discard[:players] = 0
    r.player[:players] = 0
    r.masq_in[:players] = 0
    r.masq_out[:players] = 0
    r.reward[:players] = 0.0


@njit
def start_turn(r, p, number, phase, step):
    """Make it turn ``number``, player p's, with the turn frame as the only frame, at ``step``
    of ``phase``: T_START of the Action phase for a new game (setup_game), the step a scenario
    asks for (setup_scenario). The turn runs from there at the next ``advance``."""
    r.game[TURN_PLAYER] = p
    r.game[TURN_NUMBER] = number
    r.game[PHASE] = phase
    r.game[DEC_PLAYER] = p
    r.game[SP] = 0
    push_frame(r, TURN_FRAME, p)
    r.frame[0, FR_STEP] = step


@njit
def set_universe(r):
    """List the cards that exist in this game: those with a Supply pile or in any zone.

    Branch-free over every card, seat and zone (a card is there when any of its counts is
    nonzero): it runs at every new game, and this way measured as fast as a scan of the
    Supply alone, where the scan with early exits it replaces was not."""
    n = 0
    for c in range(r.pile.shape[1]):
        held = r.pile[IN_SUPPLY, c] | r.pile[TRASH, c]
        for p in range(r.game[PLAYERS]):
            held |= r.deck_count[p, c]
            for z in range(r.zone.shape[1]):
                held |= r.zone[p, z, c]
        if held != 0:
            r.universe[n] = c
            n += 1
    r.game[UNIVERSE_LEN] = n


@njit
def finish_game(r, T, cfg, status, scratch):
    """End the game: rewards per player (+1 sole winner, 0 shared win, -1 otherwise)."""
    P = r.game[PLAYERS]
    r.game[STATUS] = status
    r.game[PHASE] = PHASE_OVER
    r.game[DEC_KIND] = DEC_NONE
    r.game[DEC_PLAYER] = -1
    r.game[SP] = 0
    for p in range(P):
        r.reward[p] = 0.0
    log_event(r, cfg, EV_END, -1, -1, status, SEEN_ALL)
    if status != TERMINATED:
        return
    # no allocation in helpers: the scores wait in the reward row until turned into rewards
    best = -(1 << 30)
    for p in range(P):
        v = victory_points(r, T, p, scratch)
        r.reward[p] = v
        if v > best:
            best = v
    fewest = 1 << 30
    for p in range(P):
        if r.reward[p] == best and r.player[p, TURNS_TAKEN] < fewest:
            fewest = r.player[p, TURNS_TAKEN]
    winners = 0
    for p in range(P):
        if r.reward[p] == best and r.player[p, TURNS_TAKEN] == fewest:
            winners += 1
    for p in range(P):
        if r.reward[p] == best and r.player[p, TURNS_TAKEN] == fewest:
            r.reward[p] = 1.0 if winners == 1 else 0.0
        else:
            r.reward[p] = -1.0


@njit
def game_over(r, cfg):
    """The end condition checked at the end of every turn."""
    return r.pile[SUPPLY, PROVINCE] == 0 or piles_end_game(r)


@njit
def _cleanup(r, cfg, p):
    r.game[PHASE] = PHASE_CLEANUP
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        k = r.zone[p, HAND, c] + r.zone[p, IN_PLAY, c]
        # the cards in play and those known in hand go where everyone knows they go
        r.pub_discard[p, c] += r.zone[p, IN_PLAY, c] + r.pub_hand[p, c]
        r.pub_hand[p, c] = 0
        if k > 0:
            r.zone[p, DISCARD, c] += k
            r.zone[p, HAND, c] = 0
            r.zone[p, IN_PLAY, c] = 0
            # all at once: the others see how many (the cards in play they saw played)
            log_event(r, cfg, EV_DISCARD, p, c, k, seen_by(p))
    draw(r, cfg, p, HAND_SIZE)
    r.player[p, TURNS_TAKEN] += 1


@njit
def turn_step(r, T, cfg, scratch):
    """Run the turn frame (the bottom frame) until a decision is pending, a card frame was
    pushed above it, or the game is over (one call per decision, not one per step)."""
    f = r.game[SP] - 1
    while r.game[DEC_KIND] == DEC_NONE and r.game[SP] - 1 == f and r.game[STATUS] == RUNNING:
        step = r.frame[f, FR_STEP]
        p = r.game[TURN_PLAYER]
        if step == T_START:
            r.game[PHASE] = PHASE_ACTION
            r.game[ACTIONS] = 1
            r.game[BUYS] = 1
            r.game[COINS] = 0
            r.game[COST_REDUCTION] = 0
            r.game[ACTIONS_PLAYED] = 0
            r.game[MERCHANTS] = 0
            r.game[SILVER_PLAYED] = 0
            r.game[COPPER_BONUS] = 0
            log_event(r, cfg, EV_TURN, p, -1, r.game[TURN_NUMBER], SEEN_ALL)
            r.frame[f, FR_STEP] = T_ACTION
        elif step == T_ACTION:
            if r.game[ACTIONS] > 0 and has_type_in_hand(r, T, p, ACTION):
                r.frame[f, FR_STEP] = T_ACTION_ANSWER
                ask(r, DEC_PLAY_ACTION, p, -1, ZONE_HAND, ACTION, 0, COST_ANY_HI, 0, 1)
            else:
                r.frame[f, FR_STEP] = T_BUY_START
        elif step == T_ACTION_ANSWER:
            a = r.game[ANSWER]
            if a == PASS:
                r.frame[f, FR_STEP] = T_BUY_START
            else:
                r.game[ACTIONS] -= 1
                r.frame[f, FR_STEP] = T_ACTION
                play_action_from_hand(r, T, cfg, p, a)
        elif step == T_BUY_START:
            r.game[PHASE] = PHASE_BUY
            log_event(r, cfg, EV_PHASE, p, -1, PHASE_BUY, SEEN_ALL)
            if cfg.autoplay_treasures:
                for u in range(r.game[UNIVERSE_LEN]):
                    c = r.universe[u]
                    if T[c, TYPES] & TREASURE:
                        while r.zone[p, HAND, c] > 0:
                            play_treasure(r, T, cfg, p, c)
                r.frame[f, FR_STEP] = T_BUY
            else:
                r.frame[f, FR_STEP] = T_TREASURE
        elif step == T_TREASURE:
            if has_type_in_hand(r, T, p, TREASURE):
                r.frame[f, FR_STEP] = T_TREASURE_ANSWER
                ask(r, DEC_PLAY_TREASURE, p, -1, ZONE_HAND, TREASURE, 0, COST_ANY_HI, 0, 1)
            else:
                r.frame[f, FR_STEP] = T_BUY
        elif step == T_TREASURE_ANSWER:
            a = r.game[ANSWER]
            if a == PASS:
                r.frame[f, FR_STEP] = T_BUY
            else:
                r.frame[f, FR_STEP] = T_TREASURE
                play_treasure(r, T, cfg, p, a)
        elif step == T_BUY:
            if r.game[BUYS] > 0:
                r.frame[f, FR_STEP] = T_BUY_ANSWER
                ask(r, DEC_BUY, p, -1, ZONE_SUPPLY, 0, 0, r.game[COINS], 0, 1)
            else:
                r.frame[f, FR_STEP] = T_CLEANUP
        elif step == T_BUY_ANSWER:
            a = r.game[ANSWER]
            if a == PASS:
                r.frame[f, FR_STEP] = T_CLEANUP
            else:
                r.game[BUYS] -= 1
                r.game[COINS] -= current_cost(r, T, a)
                log_event(r, cfg, EV_BUY, p, a, 1, SEEN_ALL)
                gain(r, cfg, p, a, DISCARD)
                r.frame[f, FR_STEP] = T_BUY
        else:  # T_CLEANUP
            _cleanup(r, cfg, p)
            if game_over(r, cfg):
                finish_game(r, T, cfg, TERMINATED, scratch)
                return
            nxt = (p + 1) % r.game[PLAYERS]
            if r.player[nxt, TURNS_TAKEN] >= cfg.turn_limit:
                finish_game(r, T, cfg, TRUNCATED, scratch)
                return
            r.game[TURN_PLAYER] = nxt
            r.game[TURN_NUMBER] += 1
            r.frame[f, FR_PLAYER] = nxt
            r.frame[f, FR_STEP] = T_START


@njit
def advance(r, T, cfg, mask_row, scratch):
    """Run the game until a decision is pending or the game is over.

    Leaves the decision's mask in ``mask_row``. With ``cfg.auto_resolve`` a decision with
    exactly one legal action is taken at once. ``scratch`` is a (C,) int64 work array.
    """
    while r.game[STATUS] == RUNNING:
        if r.game[DEC_KIND] != DEC_NONE:
            n, only = write_mask(r, T, mask_row)
            if n == 0 or (n == 1 and only == PASS):
                # nothing to choose (no card, no option): not a decision the rules give, so it
                # never stops, whatever auto_resolve says; the effect does what it can
                r.game[ANSWER] = PASS
                r.game[DEC_KIND] = DEC_NONE
                continue
            if n == 1 and cfg.auto_resolve:
                r.game[ANSWER] = only
                r.game[DEC_KIND] = DEC_NONE
                continue
            return
        if r.frame[r.game[SP] - 1, FR_CARD] == TURN_FRAME:
            turn_step(r, T, cfg, scratch)
        else:
            effect_step(r, T, cfg, scratch)
    mask_row[:] = False


@njit(inline="always")
def resolve(r, T, cfg, action, mask_row, scratch):
    """Answer the pending decision with ``action`` (already checked legal) and advance.

    Every answer given from outside the rules (a player's, a bot's inside learner mode) passes
    here and only here, so the log's EV_DECIDE rows are the game's whole decision list: what a
    game record keeps (auto-resolved and empty decisions do not pass here: a replay repeats
    them by itself)."""
    log_event(r, cfg, EV_DECIDE, r.game[DEC_PLAYER], action, 0, SEEN_ALL)
    r.game[ANSWER] = action
    r.game[DEC_KIND] = DEC_NONE
    advance(r, T, cfg, mask_row, scratch)
