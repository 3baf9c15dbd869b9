"""Intrigue card effects (1st edition).

Same conventions as ``base_cards``. The decisions each card asks, in order (player in
brackets; "mandatory" = no PASS), and after "bot:" the scripted bots' default play where the
card has its own (its ``*_bot`` function, next to the effect; the other decisions get the bots'
generic rule for their kind, ``bots.py``):

    Courtyard       topdeck a card from hand (mandatory) [you]
                    bot: an Action it cannot play this turn, else the lowest hand worth
    Pawn            one option of six pairs: 0 card+action, 1 card+buy, 2 card+$, 3 action+buy,
                    4 action+$, 5 buy+$ (both picked before either happens) [you]
                    bot: +Card +Action with an Action in hand and none left, else +Card +$1
    Secret Chamber  play: discard from hand one at a time, PASS to stop, +$1 each [you];
                    Reaction: +2 Cards, then topdeck 2 cards from hand one at a time
                    (mandatory) [the defender]
                    bot (topdeck): the best card (highest hand worth)
    Masquerade      each player with cards in hand, in turn order from you, picks the card to
                    pass left (mandatory) [each]; the picks wait face down in the picker's
                    ASIDE zone until all have picked, then move; then trash from hand or PASS
    Shanty Town     (no decision: +2 Cards if the revealed hand holds no Action)
    Steward         option 0 = +2 Cards, 1 = +$2, 2 = trash 2 from hand (then 2 mandatory
                    trashes, as many as possible) [you]
                    bot: trash 2 trash-worthy cards, else +$2 when that reaches $6 or $8, else
                    +2 Cards
    Swindler        each victim trashes its top card; you pick its gain from the Supply at
                    exactly that card's current cost (mandatory; none if no such card)
                    [you, dec_target = victim]
                    bot: the card worth least in a hand
    Wishing Well    name any card (mandatory); the revealed top card goes to hand if named
    Baron           discard an Estate for +$4 or PASS (then gain an Estate) [you]
    Bridge          (no decision: all costs -$1 this turn, cumulative, never below $0)
    Conspirator     (no decision: +1 Card +1 Action once 3+ Actions were played this turn)
    Coppersmith     (no decision: Copper +$1 this turn, cumulative)
    Ironworks       gain a card costing up to $4 (mandatory) [you]; Action +1 Action,
                    Treasure +$1, Victory +1 Card (a two-type card gives both)
    Mining Village  option 0 = trash it for +$2, PASS = keep (asked only while it is in play:
                    once under Throne Room) [you]
                    bot: trash it when its +$2 reaches $6 or $8
    Scout           revealed Victory cards go to hand; the rest are topdecked one at a time
                    while two different cards remain (mandatory) [you]; the others saw them
                    revealed but see the put-back (its order) only when all are of one kind
    Minion          after the reaction window: option 0 = +$2, option 1 = discard your hand,
                    +4 Cards, and each victim with 5+ cards discards its hand and draws 4 [you]
                    bot: +$2 when another Minion can follow or the $2 reaches $6 or $8, else
                    the attack
    Saboteur        each victim reveals until a card costing $3+, trashes it, then may gain a
                    card costing up to $2 less (PASS = none) [victim]; the rest is discarded
    Torturer        each victim in turn order: option 0 = discard 2 (then 2 mandatory
                    discards), option 1 = gain a Curse to hand (even with none left) [victim]
                    bot: discard 2 unless no Curse is left to gain
    Trading Post    trash 2 from hand (mandatory, as many as possible); Silver to hand if 2
    Tribute         (no decision) the left player reveals and discards its top 2 cards
    Upgrade         trash from hand (mandatory), then gain costing exactly $1 more
                    (mandatory; none if no such card) [you]
    Nobles          option 0 = +3 Cards, option 1 = +2 Actions [you]
                    bot: +2 Actions with an Action in hand and none left, else +3 Cards

The cards Secret Chamber and Torturer discard one at a time are one discard of several cards
(``zones.discard_pick``): the other players see how many and the top card only.

``CARDS`` at the end of the module declares each card's code as data (``card_code.CardCode``).
"""

from ..cards import ACTION, COPPER, CURSE_ID, ESTATE, ID, SILVER, TREASURE, TYPES, VICTORY
from .attacks import current_victim, next_victim
from .base_cards import (
    THRONE_ROOM,
    topdeck_best,
    topdeck_for_next_turn,
    trash_self_once,
    trash_then_gain,
)
from .bot_values import lowest_worth, money_in_hand, threshold_hit, trash_worthy
from .card_code import GENERIC, CardCode
from .frames import (
    ask_card,
    ask_options,
    exclude_all_but,
    has_type_in_hand,
    pop_frame,
    push_frame,
)
from .jit import njit
from .layout import (
    ACTIONS,
    ACTIONS_PLAYED,
    ANSWER,
    ASIDE,
    BUYS,
    COINS,
    COPPER_BONUS,
    COST_ANY_HI,
    COST_REDUCTION,
    DEC_CARD,
    DEC_CHOOSE,
    DEC_COUNT,
    DEC_DISCARD,
    DEC_GAIN,
    DEC_NAME,
    DEC_PASS_CARD,
    DEC_TARGET,
    DEC_TOPDECK,
    DEC_TRASH,
    DISCARD,
    EV_DISCARD,
    EV_PASS,
    EV_REVEAL,
    EV_TRASH,
    FR_CARD,
    FR_PLAYER,
    FR_STEP,
    HAND,
    IN_PLAY,
    OPTION0,
    PASS,
    PLAYERS,
    R0,
    R1,
    SEEN_ALL,
    SP,
    SUPPLY,
    TRASH,
    UNAFFECTED,
    UNIVERSE_LEN,
    ZONE_ANY,
    ZONE_ASIDE,
    ZONE_HAND,
    ZONE_SUPPLY,
)
from .zones import (
    current_cost,
    discard_pick,
    discard_zone,
    draw,
    enter_hand,
    gain,
    leave_hand,
    log_event,
    move,
    put_on_deck,
    reveal_hand,
    reveal_top,
    seen_by,
    take_top,
    topdeck_card,
    trash_card,
    zone_size,
)

COURTYARD, PAWN, SECRET_CHAMBER, MASQUERADE, STEWARD, SWINDLER, WISHING_WELL = (
    ID[n]
    for n in (
        "Courtyard",
        "Pawn",
        "Secret Chamber",
        "Masquerade",
        "Steward",
        "Swindler",
        "Wishing Well",
    )
)
BARON, IRONWORKS, MINING_VILLAGE, MINION, SABOTEUR, TORTURER = (
    ID[n] for n in ("Baron", "Ironworks", "Mining Village", "Minion", "Saboteur", "Torturer")
)
TRADING_POST, UPGRADE, NOBLES, SCOUT, TRIBUTE = (
    ID[n] for n in ("Trading Post", "Upgrade", "Nobles", "Scout", "Tribute")
)

SC_REACTION_STEP = 10  # a Secret Chamber frame at this step runs its Reaction, not a play
# Pawn's pairs: bit set over (card, action, buy, $)
PAWN_PAIRS = (0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100)


@njit
def courtyard(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        ask_card(r, f, 1, DEC_TOPDECK, p, COURTYARD, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
        return
    if r.game[ANSWER] != PASS:
        topdeck_card(r, cfg, p, r.game[ANSWER], HAND, seen_by(p))
    pop_frame(r)


@njit(inline="always")
def courtyard_bot(r, T, p, mask_row, owned):
    return topdeck_for_next_turn(r, T, mask_row)


@njit
def pawn(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        r.frame[f, FR_STEP] = 1
        ask_options(r, DEC_CHOOSE, p, PAWN, 0b111111, 0)
        return
    pair = PAWN_PAIRS[r.game[ANSWER] - OPTION0]
    pop_frame(r)
    if pair & 1:
        draw(r, cfg, p, 1)
    if pair & 2:
        r.game[ACTIONS] += 1
    if pair & 4:
        r.game[BUYS] += 1
    if pair & 8:
        r.game[COINS] += 1


@njit(inline="always")
def pawn_bot(r, T, p, mask_row, owned):
    """+Card +Action with an Action to play next, else +Card +$1."""
    return OPTION0 if has_type_in_hand(r, T, p, ACTION) and r.game[ACTIONS] == 0 else OPTION0 + 2


@njit
def secret_chamber(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step >= SC_REACTION_STEP:  # the Reaction: +2 Cards, then put 2 cards back, one by one
        if step == SC_REACTION_STEP:
            draw(r, cfg, p, 2)
        else:
            topdeck_card(r, cfg, p, r.game[ANSWER], HAND, seen_by(p))
        if step == SC_REACTION_STEP + 2 or zone_size(r, p, HAND) == 0:
            pop_frame(r)
            return
        ask_card(r, f, step + 1, DEC_TOPDECK, p, SECRET_CHAMBER, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
        r.game[DEC_COUNT] = SC_REACTION_STEP + 2 - step
        return
    if step == 1:
        a = r.game[ANSWER]
        if a == PASS:
            pop_frame(r)
            return
        discard_pick(r, cfg, p, a, HAND)
        r.game[COINS] += 1
    ask_card(r, f, 1, DEC_DISCARD, p, SECRET_CHAMBER, ZONE_HAND, 0, 0, COST_ANY_HI, 1)


@njit(inline="always")
def secret_chamber_reaction(r, T, cfg, d):
    """Its Reaction runs as a frame of its own above the reaction window, then back there."""
    push_frame(r, SECRET_CHAMBER, d)
    r.frame[r.game[SP] - 1, FR_STEP] = SC_REACTION_STEP


@njit(inline="always")
def secret_chamber_bot(r, T, p, mask_row, owned):
    return topdeck_best(T, mask_row)  # keep the best card away from the attack


@njit
def masquerade(r, T, cfg, f):
    """R0 = seat offset of the player picking now (0 = you)."""
    p = r.frame[f, FR_PLAYER]
    P = r.game[PLAYERS]
    step = r.frame[f, FR_STEP]
    if step == 3:  # your optional trash, after the pass
        if r.game[ANSWER] != PASS:
            trash_card(r, cfg, p, r.game[ANSWER], HAND)
        pop_frame(r)
        return
    if step == 0:
        r.frame[f, R0] = -1
    else:  # step 1: the pick of the player at offset R0 waits face down in its ASIDE zone
        o = (p + r.frame[f, R0]) % P
        leave_hand(r, o, r.game[ANSWER], _pass_seen(o, P))
        r.zone[o, ASIDE, r.game[ANSWER]] += 1
    while True:
        r.frame[f, R0] += 1
        k = r.frame[f, R0]
        if k >= P:
            break
        o = (p + k) % P
        if zone_size(r, o, HAND) > 0:
            ask_card(r, f, 1, DEC_PASS_CARD, o, MASQUERADE, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
            return
    for o in range(P):  # every pick moves at once, each to the player on the left
        left = (o + 1) % P
        for u in range(r.game[UNIVERSE_LEN]):
            c = r.universe[u]
            k = r.zone[o, ASIDE, c]
            if k > 0:
                r.zone[o, ASIDE, c] = 0
                for _ in range(k):
                    enter_hand(r, left, c, _pass_seen(o, P))
                r.masq_out[o, c] += k
                r.masq_in[left, c] += k
                log_event(r, cfg, EV_PASS, o, c, k, _pass_seen(o, P))
    ask_card(r, f, 3, DEC_TRASH, p, MASQUERADE, ZONE_HAND, 0, 0, COST_ANY_HI, 1)


@njit(inline="always")
def _pass_seen(o, P):
    """A card o passes is seen by o and the player on its left."""
    return seen_by(o) | seen_by((o + 1) % P)


@njit
def shanty_town(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    reveal_hand(r, cfg, p)
    if not has_type_in_hand(r, T, p, ACTION):
        draw(r, cfg, p, 2)
    pop_frame(r)


@njit
def steward(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 0:
        r.frame[f, FR_STEP] = 1
        ask_options(r, DEC_CHOOSE, p, STEWARD, 0b111, 0)
        return
    if step == 1:
        a = r.game[ANSWER] - OPTION0
        if a == 0:
            draw(r, cfg, p, 2)
        elif a == 1:
            r.game[COINS] += 2
        else:
            r.frame[f, R0] = 2
            ask_card(r, f, 2, DEC_TRASH, p, STEWARD, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
            r.game[DEC_COUNT] = 2
            return
        pop_frame(r)
        return
    if r.game[ANSWER] != PASS:
        trash_card(r, cfg, p, r.game[ANSWER], HAND)
    r.frame[f, R0] -= 1
    if r.frame[f, R0] > 0 and zone_size(r, p, HAND) > 0:
        ask_card(r, f, 2, DEC_TRASH, p, STEWARD, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
        r.game[DEC_COUNT] = r.frame[f, R0]
        return
    pop_frame(r)


@njit(inline="always")
def steward_bot(r, T, p, mask_row, owned):
    """Trash 2 junk, else +$2 when it buys a Gold/Province, else +2 Cards."""
    junk = 0
    for c in (CURSE_ID, ESTATE, COPPER):
        if r.zone[p, HAND, c] > 0 and trash_worthy(r, T, p, c, owned):
            junk += r.zone[p, HAND, c]
    if junk >= 2:
        return OPTION0 + 2
    return OPTION0 + 1 if threshold_hit(money_in_hand(r, T, p), 2) else OPTION0


@njit
def swindler(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 2 and r.game[ANSWER] != PASS:
        gain(r, cfg, current_victim(r, f, p), r.game[ANSWER], DISCARD)
    while True:
        v = next_victim(r, f, p)
        if v < 0:
            pop_frame(r)
            return
        c = take_top(r, cfg, v)
        if c < 0:
            continue
        r.pile[TRASH, c] += 1
        log_event(r, cfg, EV_TRASH, v, c, 1, SEEN_ALL)
        cost = current_cost(r, T, c)
        ask_card(r, f, 2, DEC_GAIN, p, SWINDLER, ZONE_SUPPLY, 0, cost, cost, 0)
        r.game[DEC_TARGET] = v
        r.game[DEC_CARD] = c
        return


@njit(inline="always")
def swindler_bot(r, T, p, mask_row, owned):
    return lowest_worth(T, mask_row)  # a gain for the victim: the card worth least in a hand


@njit
def wishing_well(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        ask_card(r, f, 1, DEC_NAME, p, WISHING_WELL, ZONE_ANY, 0, 0, COST_ANY_HI, 0)
        return
    pop_frame(r)
    c = take_top(r, cfg, p)
    if c < 0:
        return
    log_event(r, cfg, EV_REVEAL, p, c, 1, SEEN_ALL)
    if c == r.game[ANSWER]:
        enter_hand(r, p, c, SEEN_ALL)
    else:
        put_on_deck(r, p, c, SEEN_ALL)


@njit
def baron(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0 and r.zone[p, HAND, ESTATE] > 0:
        ask_card(r, f, 1, DEC_DISCARD, p, BARON, ZONE_HAND, 0, 0, COST_ANY_HI, 1)
        exclude_all_but(r, ESTATE)
        return
    pop_frame(r)
    if r.frame[f, FR_STEP] == 1 and r.game[ANSWER] == ESTATE:
        move(r, cfg, p, ESTATE, HAND, DISCARD, EV_DISCARD)
        r.game[COINS] += 4
    else:
        gain(r, cfg, p, ESTATE, DISCARD)


@njit(inline="always")
def bridge(r, T, cfg, f):
    r.game[COST_REDUCTION] += 1
    pop_frame(r)


@njit(inline="always")
def conspirator(r, T, cfg, f):
    if r.game[ACTIONS_PLAYED] >= 3:
        draw(r, cfg, r.frame[f, FR_PLAYER], 1)
        r.game[ACTIONS] += 1
    pop_frame(r)


@njit(inline="always")
def coppersmith(r, T, cfg, f):
    r.game[COPPER_BONUS] += 1
    pop_frame(r)


@njit
def ironworks(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        ask_card(r, f, 1, DEC_GAIN, p, IRONWORKS, ZONE_SUPPLY, 0, 0, 4, 0)
        return
    pop_frame(r)
    c = r.game[ANSWER]
    if c == PASS or not gain(r, cfg, p, c, DISCARD):
        return
    t = T[c, TYPES]
    if t & ACTION:
        r.game[ACTIONS] += 1
    if t & TREASURE:
        r.game[COINS] += 1
    if t & VICTORY:
        draw(r, cfg, p, 1)


@njit
def mining_village(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        if _gone(r, f) or r.zone[p, IN_PLAY, MINING_VILLAGE] == 0:
            pop_frame(r)
            return
        r.frame[f, FR_STEP] = 1
        ask_options(r, DEC_CHOOSE, p, MINING_VILLAGE, 1, 1)
        return
    if r.game[ANSWER] == OPTION0 and trash_self_once(r, cfg, f, MINING_VILLAGE):
        r.game[COINS] += 2
    pop_frame(r)


@njit(inline="always")
def mining_village_bot(r, T, p, mask_row, owned):
    """Trash it when the +$2 buys a Gold or a Province."""
    return OPTION0 if threshold_hit(money_in_hand(r, T, p), 2) else PASS


@njit
def _gone(r, f):
    """Under Throne Room, True once this copy has been trashed by its first play."""
    return (
        f > 0
        and r.frame[f - 1, FR_CARD] == THRONE_ROOM
        and r.frame[f - 1, R0] == MINING_VILLAGE
        and r.frame[f - 1, R1] == 1
    )


@njit
def scout(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        for _ in range(4):
            c = reveal_top(r, cfg, p)
            if c < 0:
                break
            if T[c, TYPES] & VICTORY:
                r.zone[p, ASIDE, c] -= 1
                enter_hand(r, p, c, SEEN_ALL)
    else:  # the owner orders the put-back: others see the cards go back, not their order
        topdeck_card(r, cfg, p, r.game[ANSWER], ASIDE, seen_by(p))
    kinds = 0
    for u in range(r.game[UNIVERSE_LEN]):
        if r.zone[p, ASIDE, r.universe[u]] > 0:
            kinds += 1
    if kinds >= 2:
        ask_card(r, f, 1, DEC_TOPDECK, p, SCOUT, ZONE_ASIDE, 0, 0, COST_ANY_HI, 0)
        return
    # cards of one kind left: in view when all were (no order chosen), else the rest of an
    # order only their owner knows
    seen = SEEN_ALL if r.frame[f, FR_STEP] == 0 else seen_by(p)
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        while r.zone[p, ASIDE, c] > 0:
            topdeck_card(r, cfg, p, c, ASIDE, seen)
    pop_frame(r)


@njit
def minion(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    P = r.game[PLAYERS]
    step = r.frame[f, FR_STEP]
    if step == 0:
        r.frame[f, FR_STEP] = 2
        ask_options(r, DEC_CHOOSE, p, MINION, 0b11, 0)
        return
    pop_frame(r)
    if r.game[ANSWER] == OPTION0:
        r.game[COINS] += 2
        return
    discard_zone(r, cfg, p, HAND)
    draw(r, cfg, p, 4)
    for k in range(1, P):
        v = (p + k) % P
        if (r.game[UNAFFECTED] >> v) & 1 or zone_size(r, v, HAND) < 5:
            continue
        discard_zone(r, cfg, v, HAND)
        draw(r, cfg, v, 4)


@njit(inline="always")
def minion_bot(r, T, p, mask_row, owned):
    """+$2 when another Minion follows or it lifts the buy to $6 or $8, else the attack."""
    if threshold_hit(money_in_hand(r, T, p), 2) or (
        r.zone[p, HAND, MINION] > 0 and r.game[ACTIONS] > 0
    ):
        return OPTION0
    return OPTION0 + 1


@njit
def saboteur(r, T, cfg, f):
    """R1 = cost of the card the current victim trashed."""
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 2:
        v = current_victim(r, f, p)
        if r.game[ANSWER] != PASS:
            gain(r, cfg, v, r.game[ANSWER], DISCARD)
        discard_zone(r, cfg, v, ASIDE)
    while True:
        v = next_victim(r, f, p)
        if v < 0:
            pop_frame(r)
            return
        found = -1
        while True:
            c = reveal_top(r, cfg, v)
            if c < 0:
                break
            if current_cost(r, T, c) >= 3:
                found = c
                break
        if found < 0:
            discard_zone(r, cfg, v, ASIDE)
            continue
        cost = current_cost(r, T, found)
        trash_card(r, cfg, v, found, ASIDE)
        ask_card(r, f, 2, DEC_GAIN, v, SABOTEUR, ZONE_SUPPLY, 0, 0, cost - 2, 1)
        return


@njit
def torturer(r, T, cfg, f):
    """R1 = discards the current victim still owes."""
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 2:  # the victim chose
        v = current_victim(r, f, p)
        if r.game[ANSWER] == OPTION0 + 1:
            gain(r, cfg, v, CURSE_ID, HAND)
        else:
            r.frame[f, R1] = 2
            if _ask_torturer_discard(r, f, v):
                return
    elif step == 3:
        v = current_victim(r, f, p)
        discard_pick(r, cfg, v, r.game[ANSWER], HAND)
        r.frame[f, R1] -= 1
        if _ask_torturer_discard(r, f, v):
            return
    v = next_victim(r, f, p)
    if v < 0:
        pop_frame(r)
        return
    r.frame[f, FR_STEP] = 2
    ask_options(r, DEC_CHOOSE, v, TORTURER, 0b11, 0)


@njit(inline="always")
def torturer_bot(r, T, p, mask_row, owned):
    """Discard 2 (as many as it can), unless no Curse is left to gain."""
    return OPTION0 + 1 if r.pile[SUPPLY, CURSE_ID] == 0 else OPTION0


@njit
def _ask_torturer_discard(r, f, v):
    if r.frame[f, R1] <= 0 or zone_size(r, v, HAND) == 0:
        return False
    ask_card(r, f, 3, DEC_DISCARD, v, TORTURER, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
    r.game[DEC_COUNT] = r.frame[f, R1]
    return True


@njit
def trading_post(r, T, cfg, f):
    """R0 = cards trashed so far."""
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 1:
        if r.game[ANSWER] != PASS:
            trash_card(r, cfg, p, r.game[ANSWER], HAND)
            r.frame[f, R0] += 1
    if r.frame[f, R0] < 2 and zone_size(r, p, HAND) > 0:
        ask_card(r, f, 1, DEC_TRASH, p, TRADING_POST, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
        r.game[DEC_COUNT] = 2 - r.frame[f, R0]
        return
    if r.frame[f, R0] == 2:
        gain(r, cfg, p, SILVER, HAND)
    pop_frame(r)


@njit
def tribute(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    left = (p + 1) % r.game[PLAYERS]
    a = reveal_top(r, cfg, left)
    b = reveal_top(r, cfg, left) if a >= 0 else -1
    discard_zone(r, cfg, left, ASIDE)
    for i in range(2):
        c = a if i == 0 else b
        if c < 0 or (i == 1 and c == a):
            continue
        t = T[c, TYPES]
        if t & ACTION:
            r.game[ACTIONS] += 2
        if t & TREASURE:
            r.game[COINS] += 2
        if t & VICTORY:
            draw(r, cfg, p, 2)
    pop_frame(r)


@njit(inline="always")
def upgrade(r, T, cfg, f):
    trash_then_gain(r, T, cfg, f, UPGRADE, 0, 0, 1, 0, DISCARD, True)


@njit
def nobles(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        r.frame[f, FR_STEP] = 1
        ask_options(r, DEC_CHOOSE, p, NOBLES, 0b11, 0)
        return
    pop_frame(r)
    if r.game[ANSWER] == OPTION0:
        draw(r, cfg, p, 3)
    else:
        r.game[ACTIONS] += 2


@njit(inline="always")
def nobles_bot(r, T, p, mask_row, owned):
    """+2 Actions with an Action in hand and none left, else +3 Cards."""
    return OPTION0 + 1 if has_type_in_hand(r, T, p, ACTION) and r.game[ACTIONS] == 0 else OPTION0


CARDS = (
    CardCode("Courtyard", courtyard, {DEC_TOPDECK: courtyard_bot}),
    CardCode("Pawn", pawn, {DEC_CHOOSE: pawn_bot}),
    CardCode(
        "Secret Chamber",
        secret_chamber,
        {DEC_DISCARD: GENERIC, DEC_TOPDECK: secret_chamber_bot},
        reaction=secret_chamber_reaction,
    ),
    CardCode("Masquerade", masquerade, {DEC_PASS_CARD: GENERIC, DEC_TRASH: GENERIC}),
    CardCode("Shanty Town", shanty_town, {}),
    CardCode("Steward", steward, {DEC_CHOOSE: steward_bot, DEC_TRASH: GENERIC}),
    CardCode("Swindler", swindler, {DEC_GAIN: swindler_bot}),
    CardCode("Wishing Well", wishing_well, {DEC_NAME: GENERIC}),
    CardCode("Baron", baron, {DEC_DISCARD: GENERIC}),
    CardCode("Bridge", bridge, {}),
    CardCode("Conspirator", conspirator, {}),
    CardCode("Coppersmith", coppersmith, {}),
    CardCode("Ironworks", ironworks, {DEC_GAIN: GENERIC}),
    CardCode("Mining Village", mining_village, {DEC_CHOOSE: mining_village_bot}),
    CardCode("Scout", scout, {DEC_TOPDECK: GENERIC}),
    CardCode("Minion", minion, {DEC_CHOOSE: minion_bot}),
    CardCode("Saboteur", saboteur, {DEC_GAIN: GENERIC}),
    CardCode("Torturer", torturer, {DEC_CHOOSE: torturer_bot, DEC_DISCARD: GENERIC}),
    CardCode("Trading Post", trading_post, {DEC_TRASH: GENERIC}),
    CardCode("Tribute", tribute, {}),
    CardCode("Upgrade", upgrade, {DEC_TRASH: GENERIC, DEC_GAIN: GENERIC}),
    CardCode("Nobles", nobles, {DEC_CHOOSE: nobles_bot}),
)
