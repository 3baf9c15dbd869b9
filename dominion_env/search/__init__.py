"""Information-set search as a player (``search.py``: determinize, select, expand, roll out,
back up, choose; ``rollout.py``: the compiled simulations). Depends on the faces and the
engine, never the reverse.

    from dominion_env.search import Search
    s = Search(budget=800, rollout="auto", seed=0)
    s.analyze(game)  # each legal action's value and simulations, best first
"""

from .search import (
    DEFAULT_BUDGET,
    DEFAULT_EXTEND,
    ActionValue,
    Search,
    determinized,
    parse_search_name,
)

__all__ = [
    "ActionValue",
    "DEFAULT_BUDGET",
    "DEFAULT_EXTEND",
    "Search",
    "determinized",
    "parse_search_name",
]
