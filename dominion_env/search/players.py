"""The search players' names, as every face (simulate, tournament, evaluate, play, serve, the
envs' opponents) resolves them:

    search            Search at its default budget (library bots as rollouts)
    search:N          Search with N simulations per decision
    search:AGENT:N    GuidedSearch guided by AGENT (a shipped agent's name or an agent file),
                      at most N simulations per decision
    search:AGENT      the same at its default budget (``DEFAULT_GUIDED_BUDGET``), as ``search``
                      is Search at its own
    rollout:AGENT[:N] NetworkSearch around AGENT: its greedy action unless the agent itself,
                      playing every seat to the end on the same deals, says another is better
                      (the endgame's decisions only; N simulations, default
                      ``DEFAULT_ROLLOUT_BUDGET``)

After ``search:``, a count alone is a budget (``search:200``); anything else names an agent
(where the face can load agents: ``load_network``), and with a colon AGENT is whatever
precedes the last one (a file's path keeps its case) and N follows it. A face passes
``load_network(AGENT) -> network`` (``dominion_env.train.search_network.load_network``: this package
imports no network library); without it a guided name is refused with what it needs.
"""

from __future__ import annotations

from .guided import DEFAULT_GUIDED_BUDGET, GuidedSearch
from .network_search import DEFAULT_ROLLOUT_BUDGET, NetworkSearch
from .search import MAX_BUDGET
from .search import parse_search_name as parse_flat_name

GUIDED_FORM = "search:AGENT:N"
ROLLOUT_FORM = "rollout:AGENT[:N]"


def parse_search_name(name: str, seed: int = 0, load_network=None):
    """``search``, ``search:N`` (a Search), ``search:AGENT[:N]`` (a GuidedSearch) or
    ``rollout:AGENT[:N]`` (a NetworkSearch with its defaults: ``network_search``) seeded
    ``seed``; None for any other name (a bot's or an agent's). ValueError naming the name when
    it starts with ``search:`` but is none of these, when no ``load_network`` is given for a
    guided name, or when the agent cannot be loaded (the loader's error, with the name)."""
    key = name.casefold()
    if key.startswith("rollout:"):
        return _parse_rollout_name(name, seed, load_network)
    rest = name[len("search:") :]
    # a count is a budget; without a loader (a face that cannot load agents) so is any word
    budget_like = not rest or rest.lstrip("+-").isdigit() or load_network is None
    if not key.startswith("search:") or (":" not in rest and budget_like):
        return parse_flat_name(name, seed)
    agent, budget = rest.rsplit(":", 1) if ":" in rest else (rest, str(DEFAULT_GUIDED_BUDGET))
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
        also = "" if ":" in rest else " (nor is it search:N, N simulations per decision)"
        raise ValueError(f"player {name!r}: {e}{also}") from None
    return GuidedSearch(network, int(budget), seed)


def _parse_rollout_name(name: str, seed: int, load_network):
    rest = name[len("rollout:") :]
    agent, budget = rest.rsplit(":", 1) if ":" in rest else (rest, str(DEFAULT_ROLLOUT_BUDGET))
    if not agent:
        raise ValueError(f"player {name!r}: {ROLLOUT_FORM} names an agent (rollout:ppo-pool)")
    if not (budget.isascii() and budget.isdigit()) or not 1 <= int(budget) < MAX_BUDGET:
        raise ValueError(
            f"player {name!r}: a rollout search's budget must be simulations per decision, an "
            f"int 1..{MAX_BUDGET - 1} ({ROLLOUT_FORM}, e.g. rollout:ppo-pool:200), got {budget!r}"
        )
    if load_network is None:
        raise ValueError(
            f"player {name!r}: a search around a trained agent needs the train extra (torch) "
            "and a face that loads agents"
        )
    try:
        network = load_network(agent)
    except (ValueError, OSError) as e:
        raise ValueError(f"player {name!r}: {e}") from None
    return NetworkSearch(network, int(budget), seed=seed)


__all__ = ["GUIDED_FORM", "ROLLOUT_FORM", "parse_search_name"]
