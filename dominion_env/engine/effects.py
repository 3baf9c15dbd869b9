"""Card effects: the special part of each card, dispatched on its effect id.

The vanilla part (+Cards, +Actions, +Buys, +$) was already applied by ``frames.play_card``;
a card's frame runs here only when its effect is not ``EFFECT_NONE``. Each effect is a small
state machine over its frame's step that may ``ask`` and return, and pops its frame when done
(``base_cards`` documents the decisions of every Base card). The reaction window of an Attack
is a frame of its own (``attacks.reaction_step``).

Effects land issue by issue (``cards.IMPLEMENTED_EFFECTS``); kingdoms and scenarios refuse a
card whose effect is not here, so the kernel never meets one.
"""

from ..cards import EFFECT, EFFECT_ID
from . import base_cards as b
from . import intrigue_cards as i
from .attacks import reaction_step
from .frames import apply_vanilla, pop_frame
from .jit import njit
from .layout import ATTACK_PENDING, FR_CARD, FR_PLAYER, FR_STEP, REACTION_FRAME, SP

E_CELLAR, E_CHAPEL, E_MOAT, E_HARBINGER, E_MERCHANT, E_VASSAL, E_WORKSHOP = (EFFECT[n] for n in (
    "Cellar", "Chapel", "Moat", "Harbinger", "Merchant", "Vassal", "Workshop"))
E_BUREAUCRAT, E_MILITIA, E_MONEYLENDER, E_POACHER, E_REMODEL, E_THRONE_ROOM = (
    EFFECT[n] for n in ("Bureaucrat", "Militia", "Moneylender", "Poacher", "Remodel",
                        "Throne Room"))
E_BANDIT, E_COUNCIL_ROOM, E_LIBRARY, E_MINE, E_SENTRY, E_WITCH, E_ARTISAN = (EFFECT[n] for n in (
    "Bandit", "Council Room", "Library", "Mine", "Sentry", "Witch", "Artisan"))
E_CHANCELLOR, E_FEAST, E_SPY, E_THIEF, E_ADVENTURER = (EFFECT[n] for n in (
    "Chancellor", "Feast", "Spy", "Thief", "Adventurer"))
E_COURTYARD, E_PAWN, E_SECRET_CHAMBER, E_MASQUERADE, E_SHANTY_TOWN, E_STEWARD, E_SWINDLER = (
    EFFECT[n] for n in ("Courtyard", "Pawn", "Secret Chamber", "Masquerade", "Shanty Town",
                        "Steward", "Swindler"))
E_WISHING_WELL, E_BARON, E_BRIDGE, E_CONSPIRATOR, E_COPPERSMITH, E_IRONWORKS = (
    EFFECT[n] for n in ("Wishing Well", "Baron", "Bridge", "Conspirator", "Coppersmith",
                        "Ironworks"))
E_MINING_VILLAGE, E_SCOUT, E_MINION, E_SABOTEUR, E_TORTURER, E_TRADING_POST, E_TRIBUTE = (
    EFFECT[n] for n in ("Mining Village", "Scout", "Minion", "Saboteur", "Torturer",
                        "Trading Post", "Tribute"))
E_UPGRADE, E_NOBLES = EFFECT["Upgrade"], EFFECT["Nobles"]


@njit
def effect_step(r, T, cfg, scratch):
    """Run one step of the top frame's card effect."""
    f = r.game[SP] - 1
    c = r.frame[f, FR_CARD]
    if c == REACTION_FRAME:
        reaction_step(r, T, cfg, f)
        return
    if r.frame[f, FR_STEP] == ATTACK_PENDING:  # the reaction window has closed
        r.frame[f, FR_STEP] = 0
        apply_vanilla(r, T, cfg, r.frame[f, FR_PLAYER], c)
    e = T[c, EFFECT_ID]
    if e == E_CELLAR:
        b.cellar(r, T, cfg, f)
    elif e == E_CHAPEL:
        b.chapel(r, T, cfg, f)
    elif e == E_HARBINGER:
        b.harbinger(r, T, cfg, f)
    elif e == E_MERCHANT:
        b.merchant(r, T, cfg, f)
    elif e == E_VASSAL:
        b.vassal(r, T, cfg, f)
    elif e == E_WORKSHOP:
        b.workshop(r, T, cfg, f)
    elif e == E_BUREAUCRAT:
        b.bureaucrat(r, T, cfg, f)
    elif e == E_MILITIA:
        b.militia(r, T, cfg, f)
    elif e == E_MONEYLENDER:
        b.moneylender(r, T, cfg, f)
    elif e == E_POACHER:
        b.poacher(r, T, cfg, f)
    elif e == E_REMODEL:
        b.remodel(r, T, cfg, f)
    elif e == E_THRONE_ROOM:
        b.throne_room(r, T, cfg, f)
    elif e == E_BANDIT:
        b.bandit(r, T, cfg, f)
    elif e == E_COUNCIL_ROOM:
        b.council_room(r, T, cfg, f)
    elif e == E_LIBRARY:
        b.library(r, T, cfg, f)
    elif e == E_MINE:
        b.mine(r, T, cfg, f)
    elif e == E_SENTRY:
        b.sentry(r, T, cfg, f)
    elif e == E_WITCH:
        b.witch(r, T, cfg, f)
    elif e == E_ARTISAN:
        b.artisan(r, T, cfg, f)
    elif e == E_CHANCELLOR:
        b.chancellor(r, T, cfg, f)
    elif e == E_FEAST:
        b.feast(r, T, cfg, f)
    elif e == E_SPY:
        b.spy(r, T, cfg, f)
    elif e == E_THIEF:
        b.thief(r, T, cfg, f)
    elif e == E_ADVENTURER:
        b.adventurer(r, T, cfg, f)
    elif e < E_COURTYARD:  # Moat: nothing on play beyond +2 Cards (Reaction: attacks.py)
        pop_frame(r)
    else:
        intrigue_step(r, T, cfg, f, e)


@njit
def intrigue_step(r, T, cfg, f, e):
    if e == E_COURTYARD:
        i.courtyard(r, T, cfg, f)
    elif e == E_PAWN:
        i.pawn(r, T, cfg, f)
    elif e == E_SECRET_CHAMBER:
        i.secret_chamber(r, T, cfg, f)
    elif e == E_MASQUERADE:
        i.masquerade(r, T, cfg, f)
    elif e == E_SHANTY_TOWN:
        i.shanty_town(r, T, cfg, f)
    elif e == E_STEWARD:
        i.steward(r, T, cfg, f)
    elif e == E_SWINDLER:
        i.swindler(r, T, cfg, f)
    elif e == E_WISHING_WELL:
        i.wishing_well(r, T, cfg, f)
    elif e == E_BARON:
        i.baron(r, T, cfg, f)
    elif e == E_BRIDGE:
        i.bridge(r, T, cfg, f)
    elif e == E_CONSPIRATOR:
        i.conspirator(r, T, cfg, f)
    elif e == E_COPPERSMITH:
        i.coppersmith(r, T, cfg, f)
    elif e == E_IRONWORKS:
        i.ironworks(r, T, cfg, f)
    elif e == E_MINING_VILLAGE:
        i.mining_village(r, T, cfg, f)
    elif e == E_SCOUT:
        i.scout(r, T, cfg, f)
    elif e == E_MINION:
        i.minion(r, T, cfg, f)
    elif e == E_SABOTEUR:
        i.saboteur(r, T, cfg, f)
    elif e == E_TORTURER:
        i.torturer(r, T, cfg, f)
    elif e == E_TRADING_POST:
        i.trading_post(r, T, cfg, f)
    elif e == E_TRIBUTE:
        i.tribute(r, T, cfg, f)
    elif e == E_UPGRADE:
        i.upgrade(r, T, cfg, f)
    else:
        i.nobles(r, T, cfg, f)
