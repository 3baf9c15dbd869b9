"""Every player name resolves through one function (``players.resolve_player``) in every
command; a new kind of name plugs in as a ``NameForm``; the faces tell players apart by the
``protocols`` contract, not by probing attributes."""

from __future__ import annotations

import numpy as np
import pytest

from dominion_env import players
from dominion_env.agents import get_bot
from dominion_env.players import NameForm, resolve_player
from dominion_env.protocols import GamePlayer, ObservationPlayer, decides_from_game
from dominion_env.search import Search


def test_names_resolve_ignoring_case():
    assert resolve_player("big money ultimate") is get_bot("Big Money Ultimate")
    assert isinstance(resolve_player("Search:12"), Search)
    assert resolve_player("search:12", seed=5).budget == 12


@pytest.mark.parametrize("name", ["", "   ", None, 3])
def test_an_empty_or_odd_name_is_refused(name):
    with pytest.raises(ValueError, match="player must be a non-empty name"):
        resolve_player(name)


def test_an_unknown_name_says_what_is_known():
    with pytest.raises(ValueError) as e:
        resolve_player("Big Mony")
    said = str(e.value)
    assert "unknown bot 'Big Mony'" in said and "Did you mean 'Big Money'" in said
    assert "search:AGENT:N" in said and "FILE.toml:BOT" in said


def test_a_name_form_plugs_in(monkeypatch):
    class Echo:
        def __init__(self, n, seed):
            self.name, self.n, self.seed = f"echo:{n}", n, seed

    def parse(name, seed):
        head, _, n = name.partition(":")
        return Echo(int(n), seed) if head.casefold() == "echo" else None

    monkeypatch.setattr(players, "NAME_FORMS", (*players.NAME_FORMS, NameForm(parse, ("echo:N",))))
    got = resolve_player("echo:7", seed=3)
    assert (got.n, got.seed) == (7, 3)
    assert resolve_player("big money") is get_bot("Big Money")  # the other forms still first
    with pytest.raises(ValueError, match="echo:N"):
        resolve_player("nobody")


def test_the_search_is_a_game_player_and_a_bot_is_neither():
    search = resolve_player("search:8")
    assert decides_from_game(search) and isinstance(search, GamePlayer)
    bot = get_bot("Big Money")
    assert not decides_from_game(bot)
    assert not isinstance(bot, ObservationPlayer)

    class Policy:
        name = "first legal"
        scale_observations = False

        def act(self, observations, masks):
            return np.argmax(masks, axis=1)

    assert isinstance(Policy(), ObservationPlayer) and not decides_from_game(Policy())


def test_the_scorecard_takes_the_names_every_command_takes(capsys):
    pytest.importorskip("torch", reason="a trained agent guides it (the train extra)")
    from dominion_env.cli import parse_args
    from dominion_env.search import GuidedSearch
    from dominion_env.train.scorecard import SEED, resolve

    guided = resolve("search:ppo-pool:4")
    assert isinstance(guided, GuidedSearch) and guided.budget == 4
    args = parse_args(["scorecard", "search:ppo-pool:4", "--quick"])
    assert isinstance(args.player_resolved, GuidedSearch)
    assert resolve("search:3").seed == SEED
