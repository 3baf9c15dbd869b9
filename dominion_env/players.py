"""Player names to players: the one resolver every command and face uses.

    resolve_player("big money")             a library bot (names match ignoring case)
    resolve_player("bots.toml:My Bot")      a strategy file's bot; "bots.toml" alone plays the
                                            file's bot for ``kingdom`` (``agents.file_bot``)
    resolve_player("search:ppo-pool:256")   a name form of ``NAME_FORMS`` (the search players:
                                            ``search``, ``search:N``, ``search:AGENT:N``,
                                            ``rollout:AGENT[:N]``)
    resolve_player("ppo-pool")              a trained agent: a shipped agent's name or an agent
                                            file (the train extra)

Name forms plug in: ``NAME_FORMS`` holds ``NameForm(parse, shown)`` entries tried in order after
the bots, where ``parse(name, seed) -> player | None`` returns None for a name not of its form
(and raises ValueError for one of its form that is wrong) and ``shown`` lists the forms as an
unknown name's message names them. A module with another kind of player adds its entry to the
tuple. Trained agents need torch: it is imported only when an agent is asked for.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import NamedTuple

from .agents import BOTS, file_bot, get_bot, unknown_name
from .checks import is_agent_file
from .envs.ismcts import ISMCTS_FORM, parse_ismcts_name
from .extras import install_hint
from .search import GUIDED_FORM, ROLLOUT_FORM, parse_search_name


def agent_network(agent: str):
    """The network of trained agent ``agent`` guiding a search (``search:AGENT:N``); a
    ValueError saying what to install without the train extra."""
    if importlib.util.find_spec("torch") is None:
        raise ValueError(f"agent {agent!r}: trained agents need {install_hint('torch')}")
    from .train.search_network import load_network as load  # the train extra (torch)

    return load(agent)


def trained_agents() -> tuple[tuple[str, ...], Callable | None]:
    """(the shipped agents' names, ``load_agent``), or ((), None) without the train extra."""
    if importlib.util.find_spec("torch") is None:
        return (), None
    from .train.policy import load_agent, shipped_agents  # the train extra (torch)

    return tuple(shipped_agents()), load_agent


class NameForm(NamedTuple):
    """A kind of player named by a pattern: ``parse(name, seed) -> player | None``."""

    parse: Callable[[str, int], object]
    shown: tuple[str, ...]


def _search(name: str, seed: int):
    return parse_search_name(name, seed=seed, load_network=agent_network)


NAME_FORMS: tuple[NameForm, ...] = (
    NameForm(_search, ("search", GUIDED_FORM, ROLLOUT_FORM)),
    NameForm(parse_ismcts_name, (ISMCTS_FORM,)),  # OpenSpiel's ISMCTS (the openspiel extra)
)


def resolve_player(name: str, *, file_bots=(), kingdom=None, seed: int = 0):
    """The player ``name`` names: a bot of ``file_bots`` (first) or of the library, a strategy
    file's bot (on ``kingdom``'s cards where the file holds one per kingdom), a player of a
    ``NAME_FORMS`` form (seeded ``seed``), else a trained agent; names match ignoring case.
    ValueError naming the closest known names otherwise (OSError for an unreadable file)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"player must be a non-empty name, got {name!r}")
    key = name.casefold()
    for b in file_bots:
        if b.name.casefold() == key:
            return b
    from_file = file_bot(name, kingdom)
    if from_file is not None:
        return from_file
    if key in {n.casefold() for n in BOTS}:
        return get_bot(name)
    for form in NAME_FORMS:
        player = form.parse(name, seed)
        if player is not None:
            return player
    agents, load_agent = trained_agents()
    if is_agent_file(name):
        if load_agent is None:
            raise ValueError(f"agent file {name!r}: trained agents need {install_hint('torch')}")
        return load_agent(name)
    for a in agents:
        if a.casefold() == key:
            return load_agent(a)
    known = [b.name for b in file_bots] + list(BOTS) + list(agents)
    known += [shown for form in NAME_FORMS for shown in form.shown] + ["FILE.toml:BOT"]
    raise ValueError(unknown_name("bot", name, known))
