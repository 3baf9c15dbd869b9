"""docs/recipes.md, run as written: each library's recipe plays a few hundred steps, every
action it takes legal. A recipe is skipped only where its library is not installed (RLlib is
kept out of the dev install: docs/recipes.md says why)."""

import re
from pathlib import Path

import numpy as np
import pytest

RECIPES = Path(__file__).resolve().parent.parent / "docs" / "recipes.md"


def recipe(name: str) -> dict:
    """Run the code block under ``<!-- recipe: name -->`` and return its globals."""
    text = RECIPES.read_text()
    found = re.search(rf"<!-- recipe: {name} -->\n```python\n(.*?)```", text, re.S)
    assert found, f"no recipe {name!r} in {RECIPES}"
    scope = {"__name__": f"recipe_{name}"}
    exec(compile(found.group(1), f"{RECIPES}:{name}", "exec"), scope)
    return scope


def test_torchrl_recipe():
    pytest.importorskip("torchrl", reason="TorchRL not installed (the recipes extra has it)")
    r = recipe("torchrl")
    for td in (r["random_rollout"], r["rollout"]):
        assert td.batch_size == (300,)
        mask, action = td["action_mask"], td["action"]
        assert mask.gather(-1, action.unsqueeze(-1)).all(), "an illegal action was taken"
        assert td["next", "done"].any(), "no game ended in 300 steps"
        assert td["next", "action_mask"].any(-1).all(), "an empty mask"
    assert "sample_log_prob" in r["rollout"].keys() or "action_log_prob" in r["rollout"].keys()


def test_tianshou_recipe():
    pytest.importorskip("tianshou", reason="Tianshou not installed (the recipes extra has it)")
    r = recipe("tianshou")
    assert r["stats"].n_collected_steps == 400 and r["stats"].n_collected_episodes >= 1
    batch, _ = r["collector"].buffer.sample(0)
    assert len(batch) == 400
    assert batch.obs.mask[np.arange(len(batch)), batch.act].all(), "an illegal action was taken"
    assert np.isfinite(r["update"].loss)


def test_rllib_recipe():
    pytest.importorskip(
        "ray.rllib", reason="RLlib not installed (kept out of CI: docs/recipes.md says why)"
    )
    r = recipe("rllib")
    result = r["result"]
    steps = result.get("num_env_steps_sampled_lifetime")
    if steps is None:
        steps = result["env_runners"]["num_env_steps_sampled_lifetime"]
    assert steps >= 400


def test_openspiel_recipes():
    pytest.importorskip("pyspiel", reason="OpenSpiel not installed (the openspiel extra)")
    r = recipe("openspiel_bots")
    assert r["returns"].shape == (20, 2) and set(r["returns"].ravel()) <= {-1.0, 0.0, 1.0}
    assert r["returns"][:, 0].mean() > 0  # Big Money Ultimate beats Big Money on the whole
    assert len(r["ismcts_returns"]) == 1
    pytest.importorskip("torch", reason="OpenSpiel's PyTorch learners")
    r = recipe("openspiel_pg")
    assert r["games"] >= 1 and 0.0 <= r["wins"] <= 1.0
