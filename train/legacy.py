"""Format-1 agent and checkpoint files (``torch.save`` of a dict, a pickle), rewritten once in
format 2 (``tensorfile``):

    convert("old.pt")                      # in place; or convert("old.pt", "new.pt")
    python -m dominion_env.train.legacy FILE [FILE ...]

``convert`` reads the old file with torch's restricted unpickler (``weights_only=True``, which
refuses anything but tensors and plain containers) and checks its content as ``load_agent`` /
``read_checkpoint`` would before writing. That unpickler has had bypasses (CVE-2025-32434 in
torch < 2.6), so this is UNSAFE FOR UNTRUSTED FILES: convert only files whose origin you trust.
Loading a format-2 file never unpickles.

A converted file keeps its name unless ``out`` gives another: a format-2 file named ``.pt``
reads everywhere a ``.safetensors`` one does (``policy.is_agent_file``); give ``out`` as
``NAME.safetensors`` to write it under the name new files get.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import torch

from .checkpoint import write_checkpoint
from .policy import check_agent, write_agent
from .tensorfile import AgentFileError


def convert(path, out=None) -> Path:
    """Rewrite a format-1 agent or checkpoint (``torch.save`` of a dict) in format 2, at
    ``out`` (default: in place). UNSAFE FOR UNTRUSTED FILES: it unpickles, with torch's
    restricted ``weights_only=True`` loader, which has had bypasses; convert only files whose
    origin you trust. Returns the path written."""
    path = Path(path)
    out = path if out is None else Path(out)
    try:
        with warnings.catch_warnings():  # torch warns of pickle protocols it did not write
            warnings.simplefilter("ignore", UserWarning)
            data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # torch raises many kinds for a file it cannot unpickle
        raise AgentFileError(path, f"is not a format-1 torch file: {e}") from None
    if isinstance(data, dict) and data.get("format") == 1 and "state_dict" in data:
        doc = {"info": json.loads(json.dumps(data.get("info")))}  # tuples as JSON has them
        info, state = check_agent(data["state_dict"], doc, path)  # before anything is written
        return write_agent(state, info, out)
    if isinstance(data, dict) and data.get("format", 1) == 1 and "opt" in data:
        return write_checkpoint(out, **{k: v for k, v in data.items() if k != "format"})
    raise AgentFileError(path, "is a torch file but neither a format-1 agent nor a checkpoint")


def _main(argv) -> int:
    if not argv or any(a.startswith("-") for a in argv):
        print(
            "usage: python -m dominion_env.train.legacy FILE [FILE ...]\n"
            "rewrites format-1 (torch pickle) agents and checkpoints in place in format 2; "
            "convert only files you trust",
            file=sys.stderr,
        )
        return 2
    for p in argv:
        try:
            print(f"converted {convert(p)}")
        except (AgentFileError, OSError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
