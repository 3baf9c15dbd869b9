"""The version histories live in docs/changelog.md; each module's docstring states only its
current version, which is the version its code carries, and the changelog has an entry for it."""

from __future__ import annotations

import importlib
import pathlib
import re

import pytest

import dominion_env

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHANGELOG = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")

# module -> (the sentence its docstring states its version in, the changelog's heading for it)
VERSIONED = {
    "dominion_env.vector": (r"Version (\d+) \(``VERSION``", "### VecGame v{}"),
    "dominion_env.envs.gym_env": (r"Version (\d+) \(``VERSION``: ``Dominion-v\1``\)", "#### v{}"),
    "dominion_env.envs.vector_env": (
        r"Version (\d+) \(``VERSION``: ``Dominion-v\1``\)",
        "#### v{}",
    ),
    "dominion_env.envs.sb3_vec_env": (r"Version (\d+) \(``VERSION``\)", "#### v{}"),
    "dominion_env.envs.pettingzoo_env": (
        r"Version (\d+) \(``VERSION``: ``dominion_v\1``\)",
        "#### v{}",
    ),
}


@pytest.mark.parametrize("name", sorted(VERSIONED))
def test_a_module_states_the_version_its_code_carries(name):
    module = importlib.import_module(name)
    pattern, heading = VERSIONED[name]
    found = re.search(pattern, module.__doc__)
    assert found, f"{name}'s docstring does not state its version"
    assert int(found.group(1)) == module.VERSION
    assert "docs/changelog.md" in module.__doc__
    assert heading.format(module.VERSION) + "\n" in CHANGELOG


def test_the_package_states_its_version_and_the_changelog_has_it():
    assert f"Version {dominion_env.__version__} (``__version__``)" in dominion_env.__doc__
    assert f"\n### {dominion_env.__version__}\n" in CHANGELOG
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'\nversion = "{dominion_env.__version__}"\n' in pyproject


def test_the_env_ids_in_the_docstring_are_the_registered_ones():
    from dominion_env.envs import ENV_ID, gym_env, pettingzoo_env, sb3_vec_env

    doc = dominion_env.envs.__doc__
    assert ENV_ID == f"Dominion-v{gym_env.VERSION}" and f"``{ENV_ID}``" in doc
    assert f"``dominion_v{pettingzoo_env.VERSION}``" in doc
    assert f"``DominionVecEnv`` v{sb3_vec_env.VERSION}" in doc


def test_no_module_keeps_a_version_history():
    # the histories moved to the changelog: a module's docstring says what it does now
    for path in sorted((ROOT / "dominion_env").rglob("*.py")):
        assert "Version history" not in path.read_text(encoding="utf-8"), path
