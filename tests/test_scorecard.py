"""``dominion scorecard``: any player (agent, bot, strategy file's bot, search) resolves or is
refused clearly before any game; the protocol's version, fixed seeds and games are in every
output; the same player gives the same figures twice; a section a player cannot sit at says so.
The figures of the shipped agents and the library's bots are on the docs' leaderboard, never
asserted here."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from dominion_env.agents import get_bot  # noqa: E402
from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.search import Search  # noqa: E402
from dominion_env.train import scorecard as sc  # noqa: E402
from dominion_env.train.policy import Agent  # noqa: E402

TWO_BOTS = """
[[bot]]
name = "Silver Line"
rules = ["Province", "Gold", "Silver"]

[[bot]]
name = "Smithy Line"
rules = ["Province", "Gold", "Smithy", "Silver"]
"""


def test_every_kind_of_player_resolves(tmp_path):
    assert sc.resolve("big money ultimate") is get_bot("Big Money Ultimate")
    assert isinstance(sc.resolve("ppo-pool"), Agent)
    assert isinstance(sc.resolve("search:50"), Search)
    path = tmp_path / "bots.toml"
    path.write_text(TWO_BOTS)
    assert sc.resolve(f"{path}:smithy line").name == "Smithy Line"
    one = tmp_path / "one.toml"
    one.write_text(TWO_BOTS.split("[[bot]]")[0] + "[[bot]]" + TWO_BOTS.split("[[bot]]")[1])
    assert sc.resolve(str(one)).name == "Silver Line"


@pytest.mark.parametrize(
    "name, said",
    [
        ("nobody", "unknown bot 'nobody'"),
        ("", "player must be a non-empty name, got ''"),
        ("search:0", "search's budget"),
        ("missing.toml", "no strategy file 'missing.toml'"),
        ("runs/none/agent.safetensors", "runs/none/agent.safetensors"),
    ],
)
def test_a_bad_player_is_refused_before_any_game(name, said, capsys):
    with pytest.raises(SystemExit) as e:
        cli(["scorecard", name, "--quick"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].startswith("dominion scorecard: error: argument player: ")
    assert said in err


def test_a_file_of_several_bots_needs_the_bots_name(tmp_path, capsys):
    path = tmp_path / "bots.toml"
    path.write_text(TWO_BOTS)
    for name, said in [
        (str(path), f"strategy file {str(path)!r} holds 2 bots, one per kingdom"),
        (str(path), f"or name one ({path}:Silver Line)"),
        (f"{path}:Gold Line", "has no bot 'Gold Line'; it has 'Silver Line', 'Smithy Line'"),
    ]:
        with pytest.raises(SystemExit):
            cli(["scorecard", name])
        assert said in capsys.readouterr().err


def test_a_bots_card_is_fixed_by_the_protocol_and_repeats_exactly():
    bot = get_bot("Big Money")
    sections = ("money", "multiplayer")
    card = sc.scorecard(bot, quick=True, sections=sections)
    assert card["protocol"] == sc.PROTOCOL and card["mode"] == "quick"
    assert card["seed"] == sc.SEED and card["games"] == sc.QUICK_GAMES
    assert list(card["money"]) == ["Big Money", "Big Money Ultimate", "strongest"]
    assert list(card["multiplayer"]) == ["3", "4", "5", "6"]
    for r in [*card["money"].values(), *card["multiplayer"].values()]:
        lo, hi = r["ci"]
        assert lo <= r["win_rate"] <= hi and r["wins"] + r["ties"] <= r["games"]
    mirror = card["money"]["Big Money"]["win_rate"]
    assert 0.3 < mirror < 0.6  # a mirror: about half, less the ties
    assert sc.scorecard(bot, quick=True, sections=sections) == card
    assert json.loads(json.dumps(card)) == card  # plain numbers: --json prints it


def test_the_cli_prints_the_protocol_and_what_a_player_cannot_sit_at(capsys):
    assert cli(["scorecard", "ppo-3p", "--quick", "--quiet", "--json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["protocol"] == sc.PROTOCOL and card["player"] == "ppo-3p"
    assert list(card["multiplayer"]) == ["3"]
    assert card["multiplayer"]["3"]["games"] == sc.QUICK_GAMES["multiplayer"]
    assert set(card["skipped"]) == {"money", "h2h", "tournament"}
    text = sc.format_scorecard(card)
    assert text.splitlines()[0] == (
        f"scorecard of ppo-3p: protocol {sc.PROTOCOL} (quick), seed {sc.SEED}"
    )
    assert "(money: not played: ppo-3p plays 3-player games only)" in text
