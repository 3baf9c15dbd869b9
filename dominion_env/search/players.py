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

from collections.abc import Callable
from typing import NamedTuple

from .guided import DEFAULT_GUIDED_BUDGET, GuidedSearch
from .network_search import DEFAULT_ROLLOUT_BUDGET, NetworkSearch
from .search import MAX_BUDGET
from .search import parse_search_name as parse_flat_name

GUIDED_FORM = "search:AGENT:N"
ROLLOUT_FORM = "rollout:AGENT[:N]"


class AgentForm(NamedTuple):
    """A search around a trained agent, by name: ``form`` as messages show it, the budget when
    the name gives none, an example, and ``make(network, budget, seed) -> player``."""

    form: str
    default: int
    example: str
    make: Callable


GUIDED = AgentForm(GUIDED_FORM, DEFAULT_GUIDED_BUDGET, "search:ppo-pool:32", GuidedSearch)
ROLLOUT = AgentForm(
    ROLLOUT_FORM,
    DEFAULT_ROLLOUT_BUDGET,
    "rollout:ppo-pool:200",
    lambda network, budget, seed: NetworkSearch(network, budget, seed=seed),
)


def parse_search_name(name: str, seed: int = 0, load_network=None):
    """``search``, ``search:N`` (a Search), ``search:AGENT[:N]`` (a GuidedSearch) or
    ``rollout:AGENT[:N]`` (a NetworkSearch with its defaults: ``network_search``) seeded
    ``seed``; None for any other name (a bot's or an agent's). ValueError naming the name when
    it starts with ``search:`` but is none of these, when no ``load_network`` is given for a
    guided name, or when the agent cannot be loaded (the loader's error, with the name)."""
    key = name.casefold()
    if key.startswith("rollout:"):
        return _agent_search(name, name[len("rollout:") :], ROLLOUT, seed, load_network)
    rest = name[len("search:") :]
    # a count is a budget; without a loader (a face that cannot load agents) so is any word
    budget_like = not rest or rest.lstrip("+-").isdigit() or load_network is None
    if not key.startswith("search:") or (":" not in rest and budget_like):
        return parse_flat_name(name, seed)
    also = "" if ":" in rest else " (nor is it search:N, N simulations per decision)"
    return _agent_search(name, rest, GUIDED, seed, load_network, also)


def _agent_search(name: str, rest: str, kind: AgentForm, seed: int, load_network, also=""):
    """The search ``kind`` around the agent ``rest`` names (AGENT or AGENT:N); ``also``: what
    a loader's refusal adds."""
    agent, budget = rest.rsplit(":", 1) if ":" in rest else (rest, str(kind.default))
    if not agent:
        raise ValueError(f"player {name!r}: {kind.form} names an agent before the budget")
    if not (budget.isascii() and budget.isdigit()) or not 1 <= int(budget) < MAX_BUDGET:
        raise ValueError(
            f"player {name!r}: a search's budget must be simulations per decision, an int "
            f"1..{MAX_BUDGET - 1} ({kind.form}, e.g. {kind.example}), got {budget!r}"
        )
    if load_network is None:
        raise ValueError(
            f"player {name!r}: a search around a trained agent needs the train extra (torch) "
            "and a face that loads agents"
        )
    try:
        network = load_network(agent)
    except (ValueError, OSError) as e:
        raise ValueError(f"player {name!r}: {e}{also}") from None
    return kind.make(network, int(budget), seed)


__all__ = ["GUIDED_FORM", "ROLLOUT_FORM", "parse_search_name"]
