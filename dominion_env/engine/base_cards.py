"""Base set card effects (2nd edition, plus the six 1st-edition cards).

Each function runs one step of its card's frame ``f`` (the vanilla bonuses were already
applied by ``frames.play_card``). Step 0 is the first run; a step that asks sets the next step
first and returns; the answer is in ANSWER when the frame resumes. The decisions each card asks,
in order (player in brackets; "mandatory" = no PASS), and after "bot:" the scripted bots'
default play where the card has its own (its ``*_bot`` function, next to the effect; the other
decisions get the bots' generic rule for their kind, ``bots.py``):

    Cellar       discard from hand, one at a time, PASS to stop [you]; then draw as many
    Chapel       trash from hand, up to 4, PASS to stop [you]
    Moat         (no play effect beyond +2 Cards); Reaction: its owner is unaffected by the
                 Attack (no decision)
    Harbinger    topdeck a card from your discard pile, or PASS [you]
                 bot: the best card (highest hand worth), PASS rather than junk
    Merchant     (no decision: +$1 on the first Silver played this turn, per Merchant)
    Vassal       discard the top card; if an Action: option 0 = play it, PASS = leave it [you]
                 bot: play it
    Workshop     gain a card costing up to $4, mandatory [you]
    Bureaucrat   gain a Silver onto your deck; each victim with a Victory card in hand
                 topdecks one (mandatory) [victim]
    Militia      each victim discards from hand until 3 remain (mandatory) [victim]
    Moneylender  trash a Copper from hand for +$3, or PASS [you]
    Poacher      discard one card per empty Supply pile, as many as possible (mandatory) [you]
    Remodel      trash from hand (mandatory), then gain costing up to $2 more (mandatory) [you]
    Throne Room  choose an Action in hand to play twice, or PASS [you]
    Bandit       gain a Gold; each victim reveals 2 and trashes a revealed non-Copper Treasure,
                 its choice when two differ [victim]; the rest is discarded
    Council Room (no decision: each other player draws a card)
    Library      for each Action drawn: option 0 = set it aside, PASS = keep it [you]
                 bot: set it aside only with no Action left to play it
    Mine         trash a Treasure from hand or PASS; then gain a Treasure to hand costing up to
                 $3 more (mandatory) [you]
                 bot: trash the best Treasure that still improves (below Gold's cost), else PASS
    Sentry       for each of the top 2 cards (dec_card): option 0 trash, 1 discard, 2 keep;
                 then, if two different cards are kept, topdeck them one by one [you]
                 bot: trash trash-worthy cards, discard other Victory-only cards, keep the rest
    Witch        each victim gains a Curse while Curses remain
    Artisan      gain a card costing up to $5 to hand (mandatory); topdeck a card from hand
                 (mandatory) [you]
                 bot (topdeck): an Action it cannot play this turn, else the lowest hand worth
    Chancellor   if the draw pile is not empty: option 0 = put it into the discard, PASS = no
                 bot: discard the deck
    Feast        trash it (once, even under Throne Room); gain a card costing up to $5 [you]
    Spy          for each player from you in turn order (victims only, you always): option 0 =
                 discard the revealed card, option 1 = put it back [you, dec_target = owner]
                 bot: discard a victim's good card (hand worth > 0) and its own junk
    Thief        for each victim: trash one of its revealed Treasures (mandatory) [you,
                 dec_target = victim]; then option 0 = gain the trashed card, PASS = leave it
                 bot: trash the victim's best Treasure (keep value); gain anything costing at
                 least Silver's cost
    Adventurer   (no decision)

The cards Cellar, Militia, Poacher and Sentry discard one at a time are one discard of several cards
(``zones.discard_pick``): the other players see how many and the top card only.

``CARDS`` at the end of the module declares each card's code as data (``card_code.CardCode``):
its step function, the decisions above with the bot default for each, its Reaction.

This file stays whole (over 800 lines): it is the Base set, each card's effect, decisions
and bot defaults beside the next card's, under the one contract above that the tests and the
reference engine read; a split would cut the set at an arbitrary card.
"""

from ..cards import (
    ACTION,
    COPPER,
    COST,
    CURSE_ID,
    GOLD,
    ID,
    NUM_CARDS,
    SILVER,
    TREASURE,
    TYPES,
    VICTORY,
)
from .attacks import current_victim, next_victim
from .bot_values import (
    first_legal,
    first_option,
    hand_worth,
    keep_value,
    lowest_keep,
    lowest_worth,
    trash_worthy,
)
from .card_code import GENERIC, CardCode
from .frames import (
    ask_card,
    ask_options,
    exclude_all_but,
    exclude_card,
    has_type_in,
    has_type_in_hand,
    play_card,
    pop_frame,
)
from .jit import njit
from .layout import (
    ACTIONS,
    ANSWER,
    ASIDE,
    COINS,
    COST_ANY_HI,
    DEC_CARD,
    DEC_CHOOSE,
    DEC_COUNT,
    DEC_DISCARD,
    DEC_GAIN,
    DEC_PLAY_TWICE,
    DEC_TARGET,
    DEC_TOPDECK,
    DEC_TRASH,
    DECK_LEN,
    DISCARD,
    EV_DISCARD,
    EV_GAIN,
    EV_SET_ASIDE,
    FR_CARD,
    FR_PLAYER,
    FR_STEP,
    HAND,
    IN_PLAY,
    KNOWN_TOP,
    MERCHANTS,
    OPTION0,
    PASS,
    PLAYERS,
    PUBLIC_TOP,
    R0,
    R1,
    R2,
    SEEN_ALL,
    TRASH,
    UNAFFECTED,
    UNIVERSE_LEN,
    ZONE_ASIDE,
    ZONE_DISCARD,
    ZONE_HAND,
    ZONE_SUPPLY,
)
from .zones import (
    current_cost,
    discard_pick,
    discard_zone,
    draw,
    draw_one,
    empty_piles,
    enter_discard,
    enter_hand,
    gain,
    gain_to_deck,
    leave_discard,
    leave_hand,
    log_event,
    look_top,
    move,
    reveal_hand,
    reveal_top,
    seen_by,
    take_top,
    topdeck_card,
    trash_card,
    zone_size,
)

CELLAR, CHAPEL, HARBINGER, VASSAL, WORKSHOP = (
    ID[n] for n in ("Cellar", "Chapel", "Harbinger", "Vassal", "Workshop")
)
BUREAUCRAT, MILITIA, MONEYLENDER, POACHER, REMODEL, THRONE_ROOM = (
    ID[n] for n in ("Bureaucrat", "Militia", "Moneylender", "Poacher", "Remodel", "Throne Room")
)
BANDIT, LIBRARY, MINE, SENTRY, ARTISAN = (
    ID[n] for n in ("Bandit", "Library", "Mine", "Sentry", "Artisan")
)
CHANCELLOR, FEAST, SPY, THIEF = (ID[n] for n in ("Chancellor", "Feast", "Spy", "Thief"))


@njit
def cellar(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 1:
        a = r.game[ANSWER]
        if a == PASS:
            draw(r, cfg, p, r.frame[f, R0])
            pop_frame(r)
            return
        discard_pick(r, cfg, p, a, HAND)
        r.frame[f, R0] += 1
    ask_card(r, f, 1, DEC_DISCARD, p, CELLAR, ZONE_HAND, 0, 0, COST_ANY_HI, 1)


@njit
def chapel(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 1:
        a = r.game[ANSWER]
        if a == PASS:
            pop_frame(r)
            return
        trash_card(r, cfg, p, a, HAND)
        r.frame[f, R0] += 1
        if r.frame[f, R0] == 4:
            pop_frame(r)
            return
    ask_card(r, f, 1, DEC_TRASH, p, CHAPEL, ZONE_HAND, 0, 0, COST_ANY_HI, 1)
    r.game[DEC_COUNT] = 4 - r.frame[f, R0]


@njit(inline="always")
def moat(r, T, cfg, f):
    pop_frame(r)


@njit(inline="always")
def moat_reaction(r, T, cfg, d):
    r.game[UNAFFECTED] |= 1 << d


@njit
def harbinger(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        ask_card(r, f, 1, DEC_TOPDECK, p, HARBINGER, ZONE_DISCARD, 0, 0, COST_ANY_HI, 1)
        return
    a = r.game[ANSWER]
    if a != PASS:
        topdeck_card(r, cfg, p, a, DISCARD, seen_by(p))  # looked through, not revealed
    pop_frame(r)


@njit(inline="always")
def topdeck_best(T, mask_row):
    """The card worth most in a hand (onto the deck for the next hand, or away from an
    attack); PASS rather than junk (hand worth <= 0) when PASS is legal."""
    best = -1
    for c in range(NUM_CARDS):
        if mask_row[c] and (best < 0 or hand_worth(T, c) > hand_worth(T, best)):
            best = c
    if best >= 0 and not (mask_row[PASS] and hand_worth(T, best) <= 0):
        return best
    return PASS if mask_row[PASS] else first_legal(mask_row)


@njit(inline="always")
def harbinger_bot(r, T, p, mask_row, owned):
    return topdeck_best(T, mask_row)


@njit(inline="always")
def merchant(r, T, cfg, f):
    r.game[MERCHANTS] += 1
    pop_frame(r)


@njit
def vassal(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        c = take_top(r, cfg, p)
        if c < 0:
            pop_frame(r)
            return
        enter_discard(r, p, c, 1, SEEN_ALL)
        log_event(r, cfg, EV_DISCARD, p, c, 1, SEEN_ALL)
        if not T[c, TYPES] & ACTION:
            pop_frame(r)
            return
        r.frame[f, R0] = c
        r.frame[f, FR_STEP] = 1
        ask_options(r, DEC_CHOOSE, p, VASSAL, 1, 1)
        r.game[DEC_CARD] = c
        return
    c = r.frame[f, R0]
    pop_frame(r)
    if r.game[ANSWER] == OPTION0:  # play it: from the discard pile into play, no Action used
        leave_discard(r, p, c, SEEN_ALL)
        r.zone[p, IN_PLAY, c] += 1
        play_card(r, T, cfg, p, c)


@njit(inline="always")
def vassal_bot(r, T, p, mask_row, owned):
    return first_option(mask_row)  # play it


@njit
def _gain_step(r, T, cfg, f, source, hi, types, dest, next_step):
    """Ask for a mandatory gain from the Supply costing up to ``hi`` into zone ``dest``."""
    p = r.frame[f, FR_PLAYER]
    ask_card(r, f, next_step, DEC_GAIN, p, source, ZONE_SUPPLY, types, 0, hi, 0)
    r.frame[f, R2] = dest


@njit
def _take_gain(r, cfg, f):
    a = r.game[ANSWER]
    if a != PASS:
        gain(r, cfg, r.frame[f, FR_PLAYER], a, r.frame[f, R2])


@njit
def workshop(r, T, cfg, f):
    if r.frame[f, FR_STEP] == 0:
        _gain_step(r, T, cfg, f, WORKSHOP, 4, 0, DISCARD, 1)
        return
    _take_gain(r, cfg, f)
    pop_frame(r)


@njit
def bureaucrat(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 0:
        gain_to_deck(r, cfg, p, SILVER)
    if step == 2:
        a = r.game[ANSWER]
        if a != PASS:
            topdeck_card(r, cfg, current_victim(r, f, p), a, HAND, SEEN_ALL)  # revealed
    while True:
        v = next_victim(r, f, p)
        if v < 0:
            pop_frame(r)
            return
        if has_type_in_hand(r, T, v, VICTORY):
            ask_card(r, f, 2, DEC_TOPDECK, v, BUREAUCRAT, ZONE_HAND, VICTORY, 0, COST_ANY_HI, 0)
            return
        reveal_hand(r, cfg, v)  # a hand with no Victory card is revealed


@njit
def militia(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 2:
        v = current_victim(r, f, p)
        a = r.game[ANSWER]
        discard_pick(r, cfg, v, a, HAND)
        if _ask_down_to_3(r, f, v):
            return
    while True:
        v = next_victim(r, f, p)
        if v < 0:
            pop_frame(r)
            return
        if _ask_down_to_3(r, f, v):
            return


@njit
def _ask_down_to_3(r, f, v):
    n = zone_size(r, v, HAND)
    if n <= 3:
        return False
    ask_card(r, f, 2, DEC_DISCARD, v, MILITIA, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
    r.game[DEC_COUNT] = n - 3
    return True


@njit
def moneylender(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        if r.zone[p, HAND, COPPER] == 0:
            pop_frame(r)
            return
        ask_card(r, f, 1, DEC_TRASH, p, MONEYLENDER, ZONE_HAND, 0, 0, COST_ANY_HI, 1)
        exclude_all_but(r, COPPER)
        return
    if r.game[ANSWER] == COPPER:
        trash_card(r, cfg, p, COPPER, HAND)
        r.game[COINS] += 3
    pop_frame(r)


@njit
def poacher(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        empty = empty_piles(r)
        n = zone_size(r, p, HAND)
        r.frame[f, R0] = empty if empty < n else n
    else:
        discard_pick(r, cfg, p, r.game[ANSWER], HAND)
        r.frame[f, R0] -= 1
    if r.frame[f, R0] <= 0:
        pop_frame(r)
        return
    ask_card(r, f, 1, DEC_DISCARD, p, POACHER, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
    r.game[DEC_COUNT] = r.frame[f, R0]


@njit
def trash_then_gain(r, T, cfg, f, source, trash_types, may_skip, more, gain_types, dest, exact):
    """Trash a card from hand (with ``trash_types``; PASS allowed when ``may_skip``), then gain
    a card with ``gain_types`` costing up to $``more`` more than it (exactly that when
    ``exact``) into zone ``dest``; no trash, no gain. Remodel, Mine and Upgrade."""
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 0:
        ask_card(r, f, 1, DEC_TRASH, p, source, ZONE_HAND, trash_types, 0, COST_ANY_HI, may_skip)
        return
    if step == 1:
        a = r.game[ANSWER]
        if a == PASS:
            pop_frame(r)
            return
        trash_card(r, cfg, p, a, HAND)
        cost = current_cost(r, T, a) + more
        ask_card(
            r, f, 2, DEC_GAIN, p, source, ZONE_SUPPLY, gain_types, cost if exact else 0, cost, 0
        )
        r.frame[f, R2] = dest
        return
    _take_gain(r, cfg, f)
    pop_frame(r)


@njit(inline="always")
def remodel(r, T, cfg, f):
    trash_then_gain(r, T, cfg, f, REMODEL, 0, 0, 2, 0, DISCARD, False)


@njit
def throne_room(r, T, cfg, f):
    """R0 = the chosen card; R1 = 1 once that card left play (Feast trashed itself)."""
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 0:
        ask_card(r, f, 1, DEC_PLAY_TWICE, p, THRONE_ROOM, ZONE_HAND, ACTION, 0, COST_ANY_HI, 1)
        return
    if step == 1:
        a = r.game[ANSWER]
        if a == PASS:
            pop_frame(r)
            return
        r.frame[f, R0] = a
        r.frame[f, R1] = 0
        leave_hand(r, p, a, SEEN_ALL)
        r.zone[p, IN_PLAY, a] += 1
        r.frame[f, FR_STEP] = 2
        play_card(r, T, cfg, p, a)
        return
    if step == 2:
        r.frame[f, FR_STEP] = 3
        play_card(r, T, cfg, p, r.frame[f, R0])
        return
    pop_frame(r)


@njit
def trash_self_once(r, cfg, f, c):
    """Trash card c, the card of frame f, from play, unless this copy is already gone: under
    Throne Room the second play finds it trashed (counts cannot tell copies apart, so the
    Throne Room frame below remembers)."""
    p = r.frame[f, FR_PLAYER]
    under_throne = (
        f > 0
        and r.frame[f - 1, FR_CARD] == THRONE_ROOM
        and r.frame[f - 1, R0] == c
        and r.frame[f - 1, FR_STEP] >= 2
    )
    if under_throne and r.frame[f - 1, R1]:
        return False
    if r.zone[p, IN_PLAY, c] <= 0:
        return False
    trash_card(r, cfg, p, c, IN_PLAY)
    if under_throne:
        r.frame[f - 1, R1] = 1
    return True


@njit
def bandit(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 0:
        gain(r, cfg, p, GOLD, DISCARD)
    if step == 2:
        v = current_victim(r, f, p)
        trash_card(r, cfg, v, r.game[ANSWER], ASIDE)
        discard_zone(r, cfg, v, ASIDE)
    while True:
        v = next_victim(r, f, p)
        if v < 0:
            pop_frame(r)
            return
        reveal_top(r, cfg, v)
        reveal_top(r, cfg, v)
        if _bandit_target(r, T, v):
            ask_card(r, f, 2, DEC_TRASH, v, BANDIT, ZONE_ASIDE, TREASURE, 0, COST_ANY_HI, 0)
            exclude_card(r, COPPER)
            return
        discard_zone(r, cfg, v, ASIDE)


@njit
def _bandit_target(r, T, v):
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if r.zone[v, ASIDE, c] > 0 and (T[c, TYPES] & TREASURE) and c != COPPER:
            return True
    return False


@njit
def council_room(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    P = r.game[PLAYERS]
    for k in range(1, P):
        draw(r, cfg, (p + k) % P, 1)
    pop_frame(r)


@njit
def library(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 1 and r.game[ANSWER] == OPTION0:
        move(r, cfg, p, r.frame[f, R0], HAND, ASIDE, EV_SET_ASIDE)
    while zone_size(r, p, HAND) < 7:
        c = draw_one(r, cfg, p)
        if c < 0:
            break
        if T[c, TYPES] & ACTION:
            r.frame[f, R0] = c
            r.frame[f, FR_STEP] = 1
            ask_options(r, DEC_CHOOSE, p, LIBRARY, 1, 1)
            r.game[DEC_CARD] = c
            return
    discard_zone(r, cfg, p, ASIDE)
    pop_frame(r)


@njit(inline="always")
def library_bot(r, T, p, mask_row, owned):
    """Set an Action aside only when no Action can be played."""
    return OPTION0 if mask_row[OPTION0] and r.game[ACTIONS] == 0 else PASS


@njit(inline="always")
def mine(r, T, cfg, f):
    trash_then_gain(r, T, cfg, f, MINE, TREASURE, 1, 3, TREASURE, HAND, False)


@njit(inline="always")
def mine_bot(r, T, p, mask_row, owned):
    """Improve the best Treasure that still improves: Silver, then Copper."""
    best = -1
    for c in range(NUM_CARDS):
        if mask_row[c] and T[c, COST] < T[GOLD, COST] and (best < 0 or T[c, COST] > T[best, COST]):
            best = c
    if best >= 0:
        return best
    return PASS if mask_row[PASS] else lowest_keep(T, mask_row)


@njit
def sentry(r, T, cfg, f):
    """R0, R1 = the two cards looked at (-1 if none); each is decided in turn."""
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 0:
        r.frame[f, R0] = look_top(r, cfg, p)
        r.frame[f, R1] = look_top(r, cfg, p) if r.frame[f, R0] >= 0 else -1
    elif step == 1 or step == 2:  # the answer about card R0 (step 1) or R1 (step 2)
        c = r.frame[f, R0 + step - 1]
        a = r.game[ANSWER]
        if a == OPTION0:
            trash_card(r, cfg, p, c, ASIDE)
        elif a == OPTION0 + 1:
            discard_pick(r, cfg, p, c, ASIDE)
    elif step == 3:
        topdeck_card(r, cfg, p, r.game[ANSWER], ASIDE, seen_by(p))
    if step <= 1:
        c = r.frame[f, R0 + step]
        if c >= 0:
            r.frame[f, FR_STEP] = step + 1
            ask_options(r, DEC_CHOOSE, p, SENTRY, 0b111, 0)
            r.game[DEC_CARD] = c
            return
    # put the kept cards back: a choice only when two different cards remain
    kept = zone_size(r, p, ASIDE)
    if kept == 2 and step != 3:
        a, b = r.frame[f, R0], r.frame[f, R1]
        if a != b:
            ask_card(r, f, 3, DEC_TOPDECK, p, SENTRY, ZONE_ASIDE, 0, 0, COST_ANY_HI, 0)
            return
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        while r.zone[p, ASIDE, c] > 0:
            topdeck_card(r, cfg, p, c, ASIDE, seen_by(p))
    pop_frame(r)


@njit(inline="always")
def sentry_bot(r, T, p, mask_row, owned):
    """Trash junk, discard other Victory cards, keep the rest."""
    card = r.game[DEC_CARD]
    if card >= 0 and trash_worthy(r, T, p, card, owned):
        return OPTION0
    if card >= 0 and hand_worth(T, card) < 0:
        return OPTION0 + 1
    return OPTION0 + 2


@njit
def witch(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    while True:
        v = next_victim(r, f, p)
        if v < 0:
            break
        gain(r, cfg, v, CURSE_ID, DISCARD)
    pop_frame(r)


@njit
def artisan(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 0:
        _gain_step(r, T, cfg, f, ARTISAN, 5, 0, HAND, 1)
        return
    if step == 1:
        _take_gain(r, cfg, f)
        ask_card(r, f, 2, DEC_TOPDECK, p, ARTISAN, ZONE_HAND, 0, 0, COST_ANY_HI, 0)
        return
    a = r.game[ANSWER]
    if a != PASS:
        topdeck_card(r, cfg, p, a, HAND, seen_by(p))
    pop_frame(r)


@njit(inline="always")
def topdeck_for_next_turn(r, T, mask_row):
    """From hand, for next turn: an Action that cannot be played this turn, else the card that
    least changes this turn's buy (the lowest hand worth). Artisan and Courtyard."""
    if r.game[ACTIONS] == 0:
        best = -1
        for c in range(NUM_CARDS):
            if mask_row[c] and (T[c, TYPES] & ACTION) and (best < 0 or T[c, COST] > T[best, COST]):
                best = c
        if best >= 0:
            return best
    best = lowest_worth(T, mask_row)
    return best if best >= 0 else first_legal(mask_row)


@njit(inline="always")
def artisan_bot(r, T, p, mask_row, owned):
    return topdeck_for_next_turn(r, T, mask_row)


@njit
def chancellor(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 0:
        if r.player[p, DECK_LEN] == 0:
            pop_frame(r)
            return
        r.frame[f, FR_STEP] = 1
        ask_options(r, DEC_CHOOSE, p, CHANCELLOR, 1, 1)
        return
    if r.game[ANSWER] == OPTION0:  # the deck goes to the discard pile as it is (not a discard)
        for u in range(r.game[UNIVERSE_LEN]):
            c = r.universe[u]
            r.zone[p, DISCARD, c] += r.deck_count[p, c]
            r.deck_count[p, c] = 0
        r.player[p, DECK_LEN] = 0
        r.player[p, KNOWN_TOP] = 0
        r.player[p, PUBLIC_TOP] = 0
    pop_frame(r)


@njit(inline="always")
def chancellor_bot(r, T, p, mask_row, owned):
    return first_option(mask_row)  # discard the deck


@njit
def feast(r, T, cfg, f):
    if r.frame[f, FR_STEP] == 0:
        trash_self_once(r, cfg, f, FEAST)
        _gain_step(r, T, cfg, f, FEAST, 5, 0, DISCARD, 1)
        return
    _take_gain(r, cfg, f)
    pop_frame(r)


@njit
def spy(r, T, cfg, f):
    """R0 = seat offset of the player whose top card is being decided (0 = you)."""
    p = r.frame[f, FR_PLAYER]
    P = r.game[PLAYERS]
    step = r.frame[f, FR_STEP]
    if step == 0:
        r.frame[f, R0] = -1
    if step == 2:
        o = (p + r.frame[f, R0]) % P
        c = r.frame[f, R1]
        if r.game[ANSWER] == OPTION0:
            move(r, cfg, o, c, ASIDE, DISCARD, EV_DISCARD)
        else:
            topdeck_card(r, cfg, o, c, ASIDE, SEEN_ALL)  # revealed, put back in view
    while True:
        r.frame[f, R0] += 1
        k = r.frame[f, R0]
        if k >= P:
            pop_frame(r)
            return
        o = (p + k) % P
        if k > 0 and (r.game[UNAFFECTED] >> o) & 1:
            continue
        c = reveal_top(r, cfg, o)
        if c < 0:
            continue
        r.frame[f, R1] = c
        r.frame[f, FR_STEP] = 2
        ask_options(r, DEC_CHOOSE, p, SPY, 0b11, 0)
        r.game[DEC_CARD] = c
        r.game[DEC_TARGET] = o
        return


@njit(inline="always")
def spy_bot(r, T, p, mask_row, owned):
    """Discard the owner's good cards when it is a victim, junk when it is the bot."""
    card = r.game[DEC_CARD]
    good = card >= 0 and hand_worth(T, card) > 0
    return OPTION0 if (good != (r.game[DEC_TARGET] == p)) else OPTION0 + 1


@njit
def thief(r, T, cfg, f):
    """R1 = the Treasure trashed from the current victim (offered to you)."""
    p = r.frame[f, FR_PLAYER]
    step = r.frame[f, FR_STEP]
    if step == 2:  # you chose which revealed Treasure the victim trashes
        v = current_victim(r, f, p)
        c = r.game[ANSWER]
        trash_card(r, cfg, v, c, ASIDE)
        discard_zone(r, cfg, v, ASIDE)
        r.frame[f, R1] = c
        r.frame[f, FR_STEP] = 3
        ask_options(r, DEC_CHOOSE, p, THIEF, 1, 1)
        r.game[DEC_CARD] = c
        return
    if step == 3:
        if r.game[ANSWER] == OPTION0:  # gain it from the trash
            c = r.frame[f, R1]
            r.pile[TRASH, c] -= 1
            enter_discard(r, p, c, 1, SEEN_ALL)
            log_event(r, cfg, EV_GAIN, p, c, 1, SEEN_ALL)
    while True:
        v = next_victim(r, f, p)
        if v < 0:
            pop_frame(r)
            return
        reveal_top(r, cfg, v)
        reveal_top(r, cfg, v)
        if has_type_in(r, T, v, ASIDE, TREASURE):
            ask_card(r, f, 2, DEC_TRASH, p, THIEF, ZONE_ASIDE, TREASURE, 0, COST_ANY_HI, 0)
            r.game[DEC_TARGET] = v
            return
        discard_zone(r, cfg, v, ASIDE)


@njit(inline="always")
def thief_trash_bot(r, T, p, mask_row, owned):
    """Trash the victim's best Treasure (the highest keep value)."""
    best = -1
    for c in range(NUM_CARDS):
        if mask_row[c] and (best < 0 or keep_value(T, c) > keep_value(T, best)):
            best = c
    return best if best >= 0 else first_legal(mask_row)


@njit(inline="always")
def thief_gain_bot(r, T, p, mask_row, owned):
    """Take anything better than Copper."""
    card = r.game[DEC_CARD]
    return OPTION0 if card >= 0 and T[card, COST] >= T[SILVER, COST] else PASS


@njit
def adventurer(r, T, cfg, f):
    p = r.frame[f, FR_PLAYER]
    found = 0
    while found < 2:
        c = reveal_top(r, cfg, p)
        if c < 0:
            break
        if T[c, TYPES] & TREASURE:
            r.zone[p, ASIDE, c] -= 1
            enter_hand(r, p, c, SEEN_ALL)
            found += 1
    discard_zone(r, cfg, p, ASIDE)
    pop_frame(r)


CARDS = (
    CardCode("Cellar", cellar, {DEC_DISCARD: GENERIC}),
    CardCode("Chapel", chapel, {DEC_TRASH: GENERIC}),
    CardCode("Moat", moat, {}, reaction=moat_reaction),
    CardCode("Harbinger", harbinger, {DEC_TOPDECK: harbinger_bot}),
    CardCode("Merchant", merchant, {}),
    CardCode("Vassal", vassal, {DEC_CHOOSE: vassal_bot}),
    CardCode("Workshop", workshop, {DEC_GAIN: GENERIC}),
    CardCode("Bureaucrat", bureaucrat, {DEC_TOPDECK: GENERIC}),
    CardCode("Militia", militia, {DEC_DISCARD: GENERIC}),
    CardCode("Moneylender", moneylender, {DEC_TRASH: GENERIC}),
    CardCode("Poacher", poacher, {DEC_DISCARD: GENERIC}),
    CardCode("Remodel", remodel, {DEC_TRASH: GENERIC, DEC_GAIN: GENERIC}),
    CardCode("Throne Room", throne_room, {DEC_PLAY_TWICE: GENERIC}),
    CardCode("Bandit", bandit, {DEC_TRASH: GENERIC}),
    CardCode("Council Room", council_room, {}),
    CardCode("Library", library, {DEC_CHOOSE: library_bot}),
    CardCode("Mine", mine, {DEC_TRASH: mine_bot, DEC_GAIN: GENERIC}),
    CardCode("Sentry", sentry, {DEC_CHOOSE: sentry_bot, DEC_TOPDECK: GENERIC}),
    CardCode("Witch", witch, {}),
    CardCode("Artisan", artisan, {DEC_GAIN: GENERIC, DEC_TOPDECK: artisan_bot}),
    CardCode("Chancellor", chancellor, {DEC_CHOOSE: chancellor_bot}),
    CardCode("Feast", feast, {DEC_GAIN: GENERIC}),
    CardCode("Spy", spy, {DEC_CHOOSE: spy_bot}),
    CardCode("Thief", thief, {DEC_TRASH: thief_trash_bot, DEC_CHOOSE: thief_gain_bot}),
    CardCode("Adventurer", adventurer, {}),
)
