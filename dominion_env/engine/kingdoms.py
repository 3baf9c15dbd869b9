"""Kingdoms: the rulebooks' recommended sets, validation of a kingdom by card names, random draws.

In the engine layer because a kingdom may hold only cards the engine plays: ``is_implemented``
reads the effect dispatch's own rows (``effects.IMPLEMENTED_EFFECTS``).

A kingdom is 10 distinct kingdom cards. The basic cards (Copper .. Curse) are always in the
Supply and are never part of the kingdom list.
"""

from __future__ import annotations

import numpy as np

from ..cards import EFFECT_ID, EFFECT_NAMES, KINGDOM, KINGDOM_SIZE, TABLE, card_id
from . import effects
from .layout import IN_SUPPLY

RECOMMENDED: dict[str, tuple[str, ...]] = {
    # Base rulebook, 2nd edition: "For your very first game of Dominion, use these cards".
    "First Game": (
        "Cellar",
        "Market",
        "Merchant",
        "Militia",
        "Mine",
        "Moat",
        "Remodel",
        "Smithy",
        "Village",
        "Workshop",
    ),
    # Intrigue rulebook (1st edition): Intrigue only.
    "Victory Dance": (
        "Bridge",
        "Duke",
        "Great Hall",
        "Harem",
        "Ironworks",
        "Masquerade",
        "Nobles",
        "Pawn",
        "Scout",
        "Upgrade",
    ),
    "Secret Schemes": (
        "Conspirator",
        "Harem",
        "Ironworks",
        "Pawn",
        "Saboteur",
        "Shanty Town",
        "Steward",
        "Swindler",
        "Trading Post",
        "Tribute",
    ),
    "Best Wishes": (
        "Coppersmith",
        "Courtyard",
        "Masquerade",
        "Scout",
        "Shanty Town",
        "Steward",
        "Torturer",
        "Trading Post",
        "Upgrade",
        "Wishing Well",
    ),
    # Intrigue rulebook: Intrigue combined with Dominion.
    "Deconstruction": (
        "Bridge",
        "Mining Village",
        "Remodel",
        "Saboteur",
        "Secret Chamber",
        "Spy",
        "Swindler",
        "Thief",
        "Throne Room",
        "Torturer",
    ),
    "Hand Madness": (
        "Bureaucrat",
        "Chancellor",
        "Council Room",
        "Courtyard",
        "Mine",
        "Militia",
        "Minion",
        "Nobles",
        "Steward",
        "Torturer",
    ),
    "Underlings": (
        "Baron",
        "Cellar",
        "Festival",
        "Library",
        "Masquerade",
        "Minion",
        "Nobles",
        "Pawn",
        "Steward",
        "Witch",
    ),
}


def is_implemented(name: str) -> bool:
    """True when the card plays in the engine: it is vanilla (nothing beyond its table columns)
    or its effect has code (``engine.effects.IMPLEMENTED_EFFECTS``, derived from the set
    modules' ``CARDS`` rows that the effect dispatch is generated from)."""
    effect = EFFECT_NAMES[int(TABLE[card_id(name), EFFECT_ID])]
    return effect in effects.IMPLEMENTED_EFFECTS


def kingdom_arg(kingdom):
    """A kingdom as written on a command line: "a, b, ..." becomes a list of names; 'random',
    a recommended set's name, or a list pass through (validated where the setup is made)."""
    if isinstance(kingdom, str) and "," in kingdom:
        return [k.strip() for k in kingdom.split(",")]
    return kingdom


def playable_kingdom_cards() -> tuple[str, ...]:
    """Kingdom cards whose effects are fully implemented (what random kingdoms draw from)."""
    return tuple(n for n in KINGDOM if is_implemented(n))


def resolve_kingdom(kingdom) -> tuple[str, ...]:
    """Turn a recommended-set name or a list of 10 card names into a validated kingdom."""
    if isinstance(kingdom, str):
        if kingdom not in RECOMMENDED:
            raise ValueError(
                f"unknown kingdom {kingdom!r}; recommended sets are: "
                f"{', '.join(RECOMMENDED)} (or pass a list of 10 card names)"
            )
        kingdom = RECOMMENDED[kingdom]
    if not _names(kingdom):
        raise TypeError(
            f"kingdom must be 'random', a recommended set's name ({', '.join(RECOMMENDED)}) "
            f"or a list of {KINGDOM_SIZE} card names, got {kingdom!r}"
        )
    names = tuple(kingdom)
    for n in names:
        if n not in KINGDOM:
            card_id(n)  # raises "unknown card name" for a misspelling
            raise ValueError(
                f"{n!r} is a basic card, always in the Supply; a kingdom lists kingdom cards only"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"kingdom lists a card twice: {names}")
    if len(names) != KINGDOM_SIZE:
        raise ValueError(f"a kingdom has {KINGDOM_SIZE} cards, got {len(names)}: {names}")
    missing = [n for n in names if not is_implemented(n)]
    if missing:
        raise NotImplementedError(
            f"card effects not implemented yet: {', '.join(missing)}. Playable kingdom cards: "
            f"{', '.join(playable_kingdom_cards())}"
        )
    return names


def check_pool(pool=None) -> tuple[str, ...]:
    """Validate the cards random kingdoms are drawn from (default: every playable card)."""
    if pool is not None and not _names(pool):
        raise TypeError(f"pool must be a list of kingdom card names, got {pool!r}")
    names = tuple(pool) if pool is not None else playable_kingdom_cards()
    for n in names:
        if n not in KINGDOM:
            card_id(n)
            raise ValueError(f"{n!r} is a basic card; a kingdom pool lists kingdom cards only")
        if not is_implemented(n):
            raise NotImplementedError(f"card effect not implemented yet: {n}")
    if len(set(names)) < KINGDOM_SIZE:
        raise ValueError(
            f"a random kingdom needs a pool of at least {KINGDOM_SIZE} distinct "
            f"cards, got {len(set(names))}"
        )
    return tuple(sorted(set(names), key=card_id))


def _names(x) -> bool:
    """A collection of card names (not one name, not None)."""
    return isinstance(x, (list, tuple, set, frozenset, np.ndarray)) and all(
        isinstance(n, str) for n in x
    )


def random_kingdom(seed: int, pool=None) -> tuple[str, ...]:
    """10 distinct kingdom cards drawn from ``pool`` (default: every playable card) by ``seed``."""
    pool = check_pool(pool)
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(pool), KINGDOM_SIZE, replace=False)
    return resolve_kingdom(sorted((pool[i] for i in picks), key=card_id))


def supply_kingdoms(states) -> tuple[np.ndarray, np.ndarray]:
    """The distinct Supplies of game records ``states`` (N,): (flags (U, C) bool, a card has a
    pile in that game; inverse (N,), each record's row of flags), so that work per kingdom is
    done once per distinct kingdom, not once per game (the Supply is public to every seat)."""
    supply = np.asarray(states["pile"][:, IN_SUPPLY, :] > 0)
    flags, inverse = np.unique(supply, axis=0, return_inverse=True)
    return flags, inverse.reshape(-1)
