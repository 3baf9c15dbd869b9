"""The README's Python examples, run as written: the front door's code must work on a fresh
install. Each ```python block runs in its own namespace; the checks look at what it leaves."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def run(i: int) -> dict:
    scope = {"__name__": f"readme_{i}"}
    exec(compile(BLOCKS[i], f"{README}:block{i}", "exec"), scope)
    return scope


def block_with(text: str) -> int:
    (i,) = [i for i, b in enumerate(BLOCKS) if text in b]
    return i


def test_the_readme_has_one_example_per_kind_of_user():
    assert len(BLOCKS) == 3
    assert len(README.read_text().splitlines()) <= 250


def test_the_training_example_plays_a_whole_game_with_a_weighted_pool():
    r = run(block_with("gymnasium.make"))
    assert r["done"] and r["reward"] in (-1.0, 0.0, 1.0)
    assert r["venv"].num_envs == 1024
    r["venv"].close()


def test_the_bot_example_is_a_bot_of_the_language():
    r = run(block_with("Bot("))
    assert r["witch"].name == "My Witch" and "Witch" in r["witch"].kingdom_cards()


def test_the_notebook_example_sets_a_position_searches_and_steps():
    r = run(block_with("set_scenario"))
    in_play = r["g"].zones(0)["in_play"]
    assert in_play["Village"] == 1 and in_play["Smithy"] == 1  # both played, as written
    assert r["v"].action in ("Village", "Smithy", "PASS") and np.isfinite(r["v"].value)


@pytest.mark.parametrize(
    "command", ["simulate", "tournament", "optimize", "scorecard", "train", "selfplay"]
)
def test_every_command_the_readme_names_exists(command):
    from dominion_env.cli import build_parser

    assert f"dominion {command}" in README.read_text()
    assert command in build_parser()._subparsers._group_actions[0].choices
