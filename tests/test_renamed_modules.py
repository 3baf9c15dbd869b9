"""Modules renamed for what they are keep their old import paths for one release: each old
path gives the new module's names and a DeprecationWarning naming the new path."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch", reason="the renamed modules are the train extra's")

# old path -> (new path, a name both give)
RENAMED = {
    "dominion_env.train.config": ("dominion_env.train.settings", "TrainConfig"),
    "dominion_env.train.rollout": ("dominion_env.train.experience", "Rollout"),
    "dominion_env.train.seats": ("dominion_env.train.opponents", "BotSeats"),
    "dominion_env.train.evaluator": ("dominion_env.train.search_network", "load_network"),
    "dominion_env.train.commands": ("dominion_env.commands.train", "DEFAULT_EVAL"),
}


def test_old_paths_still_import_and_warn():
    script = textwrap.dedent(f"""
        import importlib, json, warnings
        out = {{}}
        for old, (new, name) in {RENAMED!r}.items():
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                module = importlib.import_module(old)
            same = getattr(module, name) is getattr(importlib.import_module(new), name)
            said = [str(w.message) for w in caught if w.category is DeprecationWarning]
            out[old] = [same, said]
        print(json.dumps(out))
    """)
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout.strip().splitlines()[-1])
    for old, (new, _) in RENAMED.items():
        same, said = got[old]
        assert same, old
        # the warning names the new path (the commands' package for the torch commands)
        told = new if old != "dominion_env.train.commands" else "dominion_env.commands"
        assert any(s.startswith(f"{old} is now {told}") for s in said), (old, said)
