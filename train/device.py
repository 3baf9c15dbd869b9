"""Where a network runs: the ``device`` setting of training, evaluation and the search.

``device`` is ``"auto"`` (the default), ``"cpu"``, ``"cuda"`` or ``"cuda:N"``. ``"auto"``
resolves to ``"cuda"`` where torch sees a CUDA device and to ``"cpu"`` elsewhere, when the
run starts (a resumed run resolves it anew, so a run saved on a GPU box continues on a laptop
and back). The games always run on the CPU (Numba); only the network moves.

On a GPU a run also takes sizes for the machine unless the user gave them
(``sizes_for``): more games per batch, so each forward pass carries more rows and the card's
fixed cost per call is spread. The figures behind them were measured on one H100 with 16
cores by ``dominion train --minutes 5 --device cuda`` (1,000 unseen games each): 512 games
reached 83.0% against Big Money Ultimate and 59.3% against the strongest bot, 4,096 games
83.7% and 64.7%; the minibatch stays the CPU's 2,048 (more gradient steps per sample won on
the CPU, measured beside 4,096). ``bench/gpu_check.py`` prints the loop's speed per set-up on
such a machine.
"""

from __future__ import annotations

import re

import torch

AUTO = "auto"
DEVICE = re.compile(r"auto|cpu|cuda(:\d{1,3})?")
# the sizes a CUDA run takes where not given: TrainConfig field -> value
CUDA_SIZES = {"num_envs": 4096, "minibatch": 2048}


def check_device_name(device) -> str:
    """``device`` if it is one of the names above; a ValueError naming it otherwise."""
    if not isinstance(device, str) or not DEVICE.fullmatch(device):
        raise ValueError(f"device must be 'auto', 'cpu', 'cuda' or 'cuda:N', got {device!r}")
    return device


def resolve_device(device: str) -> str:
    """``device`` with ``"auto"`` replaced by what this machine has ("cuda" or "cpu")."""
    check_device_name(device)
    if device == AUTO:
        return "cuda" if torch.cuda.is_available() else "cpu"
    return device


def check_device(device: str) -> torch.device:
    """``device`` (resolved) as a torch device, if this machine has it: a ValueError naming it
    otherwise (CUDA needs a GPU and a torch built with CUDA)."""
    name = resolve_device(device)
    if name.startswith("cuda"):
        if not torch.cuda.is_available():
            raise ValueError(
                f"device {device!r}: CUDA is not available here (torch {torch.__version__}, "
                f"built with CUDA: {torch.version.cuda is not None}); use device 'cpu' or 'auto'"
            )
        index = int(name[5:] or 0)
        if index >= torch.cuda.device_count():
            raise ValueError(
                f"device {device!r}: this machine has {torch.cuda.device_count()} CUDA "
                f"device(s), 0 to {torch.cuda.device_count() - 1}"
            )
    return torch.device(name)


def sizes_for(device: str, given) -> dict:
    """The sizes a run on ``device`` takes for the fields not in ``given`` (names of the
    settings the user gave): ``CUDA_SIZES`` on a GPU, nothing on the CPU (the defaults are
    the CPU's)."""
    if not resolve_device(device).startswith("cuda"):
        return {}
    return {k: v for k, v in CUDA_SIZES.items() if k not in given}


def describe(device: str) -> str:
    """One line for the start of a run: the device it resolved to, and the card's name."""
    name = resolve_device(device)
    if name.startswith("cuda") and torch.cuda.is_available():
        index = int(name[5:] or 0)
        return f"{name} ({torch.cuda.get_device_name(index)})"
    return name
