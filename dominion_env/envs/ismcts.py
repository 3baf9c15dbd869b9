"""The name ``ismcts[:N]``: OpenSpiel's ISMCTS as a player wherever a player name is accepted.

    ismcts            ISMCTSPlayer at its default budget (``DEFAULT_SIMULATIONS``)
    ismcts:N          ISMCTSPlayer with N simulations per decision, 1..2**20-1

The player itself (``envs.openspiel_game.ISMCTSPlayer``) needs the ``openspiel`` extra; this
module does not, so a face can parse the name without it and say how to install it.
"""

from __future__ import annotations

import importlib.util

from ..extras import install_hint

ISMCTS_FORM = "ismcts:N"
_MAX = (1 << 20) - 1  # openspiel_game.MAX_SIMULATIONS - 1 (that module needs open-spiel)


def parse_ismcts_name(name: str, seed: int = 0):
    """``ismcts`` or ``ismcts:N`` as an ISMCTSPlayer seeded ``seed``; None for any other name.
    ValueError naming the name when it starts with ``ismcts:`` but N is not a count
    1..2**20-1, or when open-spiel is not installed (with the command that installs it)."""
    if not isinstance(name, str):
        return None
    key = name.casefold()
    if key != "ismcts" and not key.startswith("ismcts:"):
        return None
    simulations = None
    if key != "ismcts":
        n = key[len("ismcts:") :]
        if not (n.isascii() and n.isdigit()) or not 1 <= int(n) <= _MAX:
            raise ValueError(
                f"player {name!r}: ismcts's budget must be simulations per decision, an int "
                f"1..{_MAX} ({ISMCTS_FORM}, e.g. ismcts:100), got {n!r}"
            )
        simulations = int(n)
    if importlib.util.find_spec("pyspiel") is None:
        raise ValueError(f"player {name!r}: OpenSpiel's ISMCTS needs {install_hint('pyspiel')}")
    from .openspiel_game import DEFAULT_SIMULATIONS, ISMCTSPlayer  # the openspiel extra

    return ISMCTSPlayer(simulations or DEFAULT_SIMULATIONS, seed=seed)


__all__ = ["ISMCTS_FORM", "parse_ismcts_name"]
