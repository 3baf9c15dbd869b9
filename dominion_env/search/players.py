"""The search players' names, as every face (simulate, tournament, evaluate, play, serve, the
envs' opponents) resolves them:

    search            Search at its default budget (library bots as rollouts)
    search:N          Search with N simulations per decision
    search:AGENT:N    GuidedSearch guided by AGENT (a shipped agent's name or an agent file),
                      at most N simulations per decision

AGENT is whatever precedes the last colon (a file's path keeps its case). A face passes
``load_network(AGENT) -> network`` (``dominion_env.train.evaluator.load_network``: this package
imports no network library); without it a guided name is refused with what it needs.
"""

from __future__ import annotations

from .guided import GuidedSearch
from .search import MAX_BUDGET
from .search import parse_search_name as parse_flat_name

GUIDED_FORM = "search:AGENT:N"


def parse_search_name(name: str, seed: int = 0, load_network=None):
    """``search``, ``search:N`` (a Search) or ``search:AGENT:N`` (a GuidedSearch) seeded
    ``seed``; None for any other name (a bot's or an agent's). ValueError naming the name when
    it starts with ``search:`` but is none of these, when no ``load_network`` is given for a
    guided name, or when the agent cannot be loaded (the loader's error, with the name)."""
    key = name.casefold()
    rest = name[len("search:") :]
    if not key.startswith("search:") or ":" not in rest:
        return parse_flat_name(name, seed)
    agent, budget = rest.rsplit(":", 1)
    if not agent:
        raise ValueError(f"player {name!r}: {GUIDED_FORM} names an agent before the budget")
    if not (budget.isascii() and budget.isdigit()) or not 1 <= int(budget) < MAX_BUDGET:
        raise ValueError(
            f"player {name!r}: a guided search's budget must be simulations per decision, an "
            f"int 1..{MAX_BUDGET - 1} ({GUIDED_FORM}, e.g. search:ppo-pool:32), got {budget!r}"
        )
    if load_network is None:
        raise ValueError(
            f"player {name!r}: a search guided by a trained agent needs the train extra "
            "(torch) and a face that loads agents"
        )
    try:
        network = load_network(agent)
    except (ValueError, OSError) as e:
        raise ValueError(f"player {name!r}: {e}") from None
    return GuidedSearch(network, int(budget), seed)


__all__ = ["GUIDED_FORM", "parse_search_name"]
