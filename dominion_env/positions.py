"""A game's position by card names, as ``Game.set_scenario`` takes it: parsed, checked and
turned into the engine's ``Scenario`` (``machine.setup_scenario`` writes it), with the whole
position as ``set_scenario``'s arguments for the game's record.

Everything is checked before anything is written: a bad argument raises (TypeError for the
wrong kind of value, ValueError out of range, NotImplementedError for a card the engine does
not play) and leaves the game as it was. Zones are given per player as lists of card names
(``decks`` top card first) or name->count dicts.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .cards import KINGDOM, NAMES, NUM_CARDS, card_id
from .checks import check_int, is_int
from .engine.batch import Scenario
from .engine.kingdoms import is_implemented
from .engine.layout import (
    ASIDE,
    DISCARD,
    HAND,
    IN_PLAY,
    IN_SUPPLY,
    MAX_COPIES,
    MAX_THRONE_ROOMS,
    NUM_ZONES,
    PHASE_ACTION,
    PHASE_BUY,
    SUPPLY,
    T_ACTION,
    T_BUY,
    T_BUY_START,
)

THRONE_ROOM = card_id("Throne Room")
# a scenario's Actions, Buys and $ at most this: far above any turn, and low enough that no
# turn from there takes the observation's counters past their Box bounds (obs_bounds)
MAX_SCENARIO_COUNTER = 10_000
# set_scenario's phases: where the turn starts (PHASE_*, the turn frame's step)
TURN_STARTS = {
    "action": (PHASE_ACTION, T_ACTION),
    "buy": (PHASE_BUY, T_BUY_START),
    "buying": (PHASE_BUY, T_BUY),
}
ZONE_ARGS = (("hands", HAND), ("discards", DISCARD), ("in_play", IN_PLAY), ("aside", ASIDE))


def counts_by_name(row) -> dict:
    """A (NUM_CARDS,) count row as {card name: count} for the cards it holds."""
    return {NAMES[c]: int(row[c]) for c in np.flatnonzero(row)}


def build_position(state, players: int, turn_limit: int, **kw) -> tuple[Scenario, dict]:
    """The position ``kw`` (``Game.set_scenario``'s arguments) on the game ``state`` (one
    row) of ``players`` players: (the engine's ``Scenario``, the whole position as
    ``set_scenario``'s arguments, every pile given)."""
    turn_player, phase = kw["turn_player"], kw["phase"]
    check_int("turn_player", turn_player, 0, players - 1)
    if not isinstance(phase, str) or phase not in TURN_STARTS:
        raise ValueError(f"phase must be one of {list(TURN_STARTS)}, got {phase!r}")
    counters = tuple(
        check_int(k, kw[k], 0, MAX_SCENARIO_COUNTER) for k in ("actions", "buys", "coins")
    )
    turns = _turns_taken(kw["turns_taken"], players, turn_limit)
    cap = state["deck"].shape[2]
    zones = [
        (p, z, parse_cards(cards))
        for arg, z in ZONE_ARGS
        for p, cards in per_player(kw[arg], players).items()
    ]
    deck_ids = _decks(kw["decks"], players, cap)
    supply_counts = {} if kw["supply"] is None else parse_cards(kw["supply"], allow_zero=True)
    trash_counts = {} if kw["trash"] is None else parse_cards(kw["trash"])
    piles = {c: int(k) for c, k in enumerate(state["pile"][0, SUPPLY])}
    piles.update(supply_counts)
    _check_copies(zones, deck_ids, piles, trash_counts, cap)
    zone = np.zeros((players, NUM_ZONES, NUM_CARDS), np.int64)
    for p, z, counts in zones:
        zone[p, z, list(counts)] = list(counts.values())
    deck = np.zeros((players, cap), np.int64)
    deck_len = np.zeros(players, np.int64)
    for p, ids in deck_ids.items():
        deck[p, : len(ids)] = ids
        deck_len[p] = len(ids)
    new_piles = np.full(NUM_CARDS, -1, np.int64)
    new_piles[list(supply_counts)] = list(supply_counts.values())
    trash_row = np.zeros(NUM_CARDS, np.int64)
    trash_row[list(trash_counts)] = list(trash_counts.values())
    turn = (int(turn_player), *TURN_STARTS[phase], *counters)
    sc = Scenario(zone, deck, deck_len, new_piles, trash_row, turns, *turn)
    # the position as set_scenario's arguments, whole (every pile, not only those given):
    # a record replays it on the freshly dealt game whatever came before (records.py)
    in_supply = state["pile"][0, IN_SUPPLY]
    position = {arg: [counts_by_name(zone[p, z]) for p in range(players)] for arg, z in ZONE_ARGS}
    position["decks"] = [[NAMES[c] for c in deck_ids.get(p, [])] for p in range(players)]
    position["supply"] = {
        NAMES[c]: k for c, k in piles.items() if in_supply[c] or c in supply_counts
    }
    position["trash"] = counts_by_name(trash_row)
    position.update(
        turn_player=int(turn_player),
        phase=phase,
        actions=counters[0],
        buys=counters[1],
        coins=counters[2],
        turns_taken=[int(t) for t in turns],
    )
    return sc, position


def _turns_taken(turns_taken, players: int, limit: int) -> np.ndarray:
    turns = np.zeros(players, np.int64)
    if turns_taken is None:
        return turns
    if not isinstance(turns_taken, (list, tuple, np.ndarray)) or len(turns_taken) != players:
        raise ValueError(
            f"turns_taken must be a list of {players} ints 0..{limit} (turn_limit), "
            f"got {turns_taken!r}"
        )
    if not all(is_int(t) and 0 <= t <= limit for t in turns_taken):
        raise ValueError(
            f"turns_taken must be {players} ints 0..{limit} (turn_limit), got {turns_taken!r}"
        )
    turns[:] = turns_taken
    return turns


def _decks(decks, players: int, cap: int) -> dict[int, list[int]]:
    """Each given player's draw pile as card ids, top card first."""
    out = {}
    for p, cards in per_player(decks, players).items():
        if not isinstance(cards, (list, tuple)):
            raise TypeError("a deck is an ordered list of card names, top card first")
        ids = [card_id(n) for n in cards]
        for c in ids:
            check_playable(c)
        if len(ids) > cap:
            raise ValueError(f"deck of {len(ids)} cards exceeds the capacity {cap}")
        out[p] = ids
    return out


def _check_copies(zones, deck_ids, piles, trash_counts, cap: int) -> None:
    """The position's cards fit the engine: at most ``cap`` in all, MAX_COPIES of a card and
    MAX_THRONE_ROOMS Throne Rooms."""
    copies = Counter(trash_counts)
    for _, _, counts in zones:
        copies.update(counts)
    for ids in deck_ids.values():
        copies.update(ids)
    copies.update(piles)
    total = sum(copies.values())
    if total > cap:
        raise ValueError(
            f"the position holds {total} cards in all (zones, decks, Supply, trash); a game "
            f"holds at most {cap} (a draw pile's capacity: every card a 6-player game deals)"
        )
    if copies[THRONE_ROOM] > MAX_THRONE_ROOMS:
        raise ValueError(
            f"{copies[THRONE_ROOM]} Throne Rooms in the game; a game holds at most "
            f"{MAX_THRONE_ROOMS} (a chain of them must fit the engine's frame stack)"
        )
    for c, k in copies.items():
        if k > MAX_COPIES:
            raise ValueError(
                f"{k} copies of {NAMES[c]} in the game; a game holds at most "
                f"{MAX_COPIES} copies of a card (the most the rules have: "
                f"120 Coppers with 6 players)"
            )


def per_player(arg, players: int) -> dict:
    """Zones given per player ({player: cards} or one entry per player) as {player: cards}."""
    if arg is None:
        return {}
    if isinstance(arg, dict):
        items = arg.items()
    elif (
        isinstance(arg, (list, tuple))
        and len(arg) == players
        and all(isinstance(x, (list, tuple, dict)) for x in arg)
    ):
        items = enumerate(arg)
    else:
        raise TypeError("give zones per player: {player: cards} or one list per player")
    out = {}
    for p, cards in items:
        if not is_int(p) or not 0 <= p < players:
            raise ValueError(f"player must be 0..{players - 1}, got {p!r}")
        out[int(p)] = cards
    return out


def check_playable(c: int) -> None:
    if NAMES[c] in KINGDOM and not is_implemented(NAMES[c]):
        raise NotImplementedError(f"card effect not implemented yet: {NAMES[c]}")


def parse_cards(cards, allow_zero: bool = False) -> dict[int, int]:
    """Cards as a list of names or a name->count dict: {card id: count}."""
    if isinstance(cards, dict):
        items = cards.items()
    elif isinstance(cards, (list, tuple)):
        items = Counter(cards).items()
    else:
        raise TypeError(f"cards are a list of names or a name->count dict, got {cards!r}")
    out: dict[int, int] = {}
    for name, k in items:
        c = card_id(name)
        check_playable(c)
        if not is_int(k) or k < 0 or (k == 0 and not allow_zero):
            raise ValueError(f"count for {name!r} must be a positive int, got {k!r}")
        out[c] = out.get(c, 0) + int(k)
    return out
