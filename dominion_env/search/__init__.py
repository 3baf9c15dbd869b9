"""Information-set search as a player (``search.py``: determinize, select, expand, roll out,
back up, choose; ``rollout.py``: the compiled simulations; ``guided.py``: the search guided
by a trained network, Gumbel sequential halving, ``playout.py`` its compiled steps;
``network_search.py``: the flat search around a trained network, its action the default and
the network playing every seat of its playouts (``rollout:AGENT``); ``halving.py``: sequential
halving's two schedules, shared by the searches; ``qtransform.py``:
mctx's completed q and sigma; ``players.py``: the players' names). Depends on the faces and
the engine, never the reverse.

    from dominion_env.search import Search
    s = Search(budget=800, rollout="auto", seed=0)
    s.analyze(game)  # each legal action's value and simulations, best first

    from dominion_env.train.search_network import guided_search   # the network adapter (torch)
    g = guided_search("ppo-pool", budget=256, seed=0)         # plays as "search:ppo-pool:256"
    g.analyze(game)  # each legal action's prior, value, simulations and improved policy
"""

from .guided import DEFAULT_GUIDED_BUDGET, Decision, GuidedSearch, GuidedValue
from .network_search import NetworkSearch
from .players import GUIDED_FORM, ROLLOUT_FORM, parse_search_name
from .search import DEFAULT_BUDGET, DEFAULT_EXTEND, ActionValue, Search, determinized

__all__ = [
    "ActionValue",
    "DEFAULT_BUDGET",
    "DEFAULT_EXTEND",
    "DEFAULT_GUIDED_BUDGET",
    "Decision",
    "GUIDED_FORM",
    "GuidedSearch",
    "GuidedValue",
    "NetworkSearch",
    "ROLLOUT_FORM",
    "Search",
    "determinized",
    "parse_search_name",
]
