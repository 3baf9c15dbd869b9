"""Run once (done, for the record): convert the shipped agents from format 1 (torch pickles) to
format 2 (``train.tensorfile``), and write what each one was, in format 1, to
``tests/golden/shipped_agents.json``: a digest of its weights and its greedy actions on a fixed
batch of observations. ``tests/test_agent_files.py`` checks the converted agents against it.
The agents shipped then were ppo-pool, ppo-3p and ppo-4p; later ones were saved in format 2, so
this script is not to be run again (format 2 files are not torch pickles). ppo-pool was
replaced in 0.8.0 (trained further from the converted one, ``dominion train --init``), so
its entry was dropped from the JSON.

    python tests/golden/convert_shipped_agents.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

from dominion_env.engine.layout import NUM_ACTIONS
from dominion_env.engine.observation import obs_size
from dominion_env.train.legacy import convert
from dominion_env.train.policy import SHIPPED, PolicyNet, widen_inputs

OUT = Path(__file__).resolve().parent / "shipped_agents.json"
ROWS = 256


def weights_digest(state_dict: dict) -> str:
    """sha256 over the tensors' names and raw bytes, in name order: the same for the same
    weights whatever the file format."""
    h = hashlib.sha256()
    for k in sorted(state_dict):
        h.update(k.encode())
        h.update(state_dict[k].contiguous().numpy().tobytes())
    return h.hexdigest()


def probe_batch(players: int, rows: int = ROWS):
    """Fixed observations (uniform in [0, 1), as scaled ones lie) and masks (each action
    legal with probability 1/2, at least one legal per row)."""
    rng = np.random.default_rng(players)
    obs = rng.random((rows, obs_size(players)), dtype=np.float32)
    mask = rng.random((rows, NUM_ACTIONS)) < 0.5
    mask[np.arange(rows), rng.integers(NUM_ACTIONS, size=rows)] = True
    return obs, mask


def main() -> None:
    golden = {}
    for path in sorted(SHIPPED.glob("*.pt")):
        data = torch.load(path, map_location="cpu", weights_only=True)  # format 1, ours
        info = data["info"]
        net = PolicyNet(obs_size(info["players"]), tuple(info["hidden"]))
        net.load_state_dict(widen_inputs(data["state_dict"], obs_size(info["players"]), path))
        obs, mask = probe_batch(info["players"])
        actions = net.eval().act(obs, mask, greedy=True)[0]
        golden[path.stem] = {
            "players": info["players"],
            "weights_sha256": weights_digest(data["state_dict"]),
            "greedy_actions": actions.tolist(),
        }
        convert(path)
        print(f"converted {path}")
    rows = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in golden.items())
    OUT.write_text("{\n" + rows + "\n}\n")


if __name__ == "__main__":
    main()
