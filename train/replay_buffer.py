"""What the self-play loop learns from: one generation's searched decisions, and a window of them.

    data = Decisions.of(obs, mask, policy, seat, game, margin)  # one search call (z set later)
    gen = Decisions.join(parts)                           # a generation's rows, in play order
    window = Window(2); window.add(gen); rows = window.rows()

Per decision: the observation of the deciding seat (scaled, as the network reads it) as sparse
rows (its non-zero entries, ``sparse.SparseRows``: about 77 of 1,129 in a 2-player game, so
~0.8 kB a decision instead of 4.5 kB), the legal actions, the guided search's improved policy
(float32, 0 on illegal actions, summing to 1 over the legal ones), the seat that decided and
the result z (+1 / 0 / -1, 0 for a game stopped by the turn limit) that seat got at the end
of the game, and the seat's VP margin when it decided (its VP less the best other seat's:
the shaping potential's argument, which turns z into the value head's target).
``dense(rows)`` gives the observations back exactly (a scatter of the stored entries into
zeros).

In a checkpoint (``tensors``/``from_tensors``) each array is its bytes in an int64 tensor (the
file format holds F32/F64/I64 only): ``idx`` int32 pairs, the mask's packed bits, and checked
on the way back (sizes, indices inside the observation, finite policies that sum to 1 over
legal actions, results in {-1, 0, 1}, whole VP margins within ``MAX_MARGIN``) before anything
is built.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..engine.layout import NUM_ACTIONS
from .sparse import SparseRows

DECISION_FIELDS = ("idx", "val", "mask", "policy", "seat", "z", "margin")
MAX_MARGIN = 10_000  # VP: far past any game's (every card of a game's Supply is a few hundred)


@dataclass
class Decisions:
    """Rows of searched decisions (module docstring); ``game`` numbers each row's game while
    the generation plays (not saved)."""

    idx: np.ndarray  # (n, W) int32, the observation's non-zero entries (0-padded)
    val: np.ndarray  # (n, W) float32, their values
    mask: np.ndarray  # (n, A) bool
    policy: np.ndarray  # (n, A) float32, the improved policy
    seat: np.ndarray  # (n,) int64
    z: np.ndarray  # (n,) float32, the seat's result
    margin: np.ndarray  # (n,) float32, the seat's VP less the best other seat's, as it decided
    game: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.z)

    @classmethod
    def of(cls, obs, mask, policy, seat, game, margin) -> Decisions:
        rows = SparseRows((len(obs),))
        rows.write(np.asarray(obs, np.float32))
        w = max(1, rows.width)
        return cls(
            rows.idx[:, :w].copy(),
            rows.val[:, :w].copy(),
            np.array(mask, bool),
            np.asarray(policy, np.float32),
            np.asarray(seat, np.int64),
            np.zeros(len(obs), np.float32),
            np.asarray(margin, np.float32),
            np.asarray(game, np.int64),
        )

    @classmethod
    def join(cls, parts: list[Decisions]) -> Decisions:
        w = max([p.idx.shape[1] for p in parts] + [1])

        def pad(a):
            return np.pad(a, ((0, 0), (0, w - a.shape[1])))

        games = [p.game for p in parts if p.game is not None]
        return cls(
            np.concatenate([pad(p.idx) for p in parts]) if parts else np.zeros((0, 1), np.int32),
            np.concatenate([pad(p.val) for p in parts]) if parts else np.zeros((0, 1), np.float32),
            _cat([p.mask for p in parts], (0, NUM_ACTIONS), bool),
            _cat([p.policy for p in parts], (0, NUM_ACTIONS), np.float32),
            _cat([p.seat for p in parts], (0,), np.int64),
            _cat([p.z for p in parts], (0,), np.float32),
            _cat([p.margin for p in parts], (0,), np.float32),
            np.concatenate(games) if len(games) == len(parts) and parts else None,
        )

    def dense(self, rows: torch.Tensor, obs_dim: int, device) -> torch.Tensor:
        """The observations of ``rows`` (a CPU index tensor) as (n, obs_dim) float32 on
        ``device``: each stored entry scattered into zeros (padding adds 0 to entry 0)."""
        idx = torch.from_numpy(self.idx)[rows].to(device, torch.int64)
        val = torch.from_numpy(self.val)[rows].to(device)
        return torch.zeros(len(rows), obs_dim, device=device).scatter_add_(1, idx, val)

    # -- in a checkpoint ----------------------------------------------------------------------

    def tensors(self) -> dict:
        packed = {
            "idx": self.idx,
            "val": self.val,
            "mask": np.packbits(self.mask, axis=1),
            "policy": self.policy,
            "seat": self.seat,
            "z": self.z,
            "margin": self.margin,
        }
        return {k: _as_int64(v) for k, v in packed.items()}

    @classmethod
    def from_tensors(cls, t: dict, n: int, width: int, obs_dim: int, players: int, fail):
        """The rows saved by ``tensors`` (n rows, ``width`` entries each), every part
        checked; ``fail(why)`` makes the error raised."""
        if sorted(t) != sorted(DECISION_FIELDS):
            raise fail(f"its data must hold exactly {list(DECISION_FIELDS)}")
        A = NUM_ACTIONS
        shapes = {
            "idx": ((n, width), np.int32),
            "val": ((n, width), np.float32),
            "mask": ((n, -(-A // 8)), np.uint8),
            "policy": ((n, A), np.float32),
            "seat": ((n,), np.int64),
            "z": ((n,), np.float32),
            "margin": ((n,), np.float32),
        }
        a = {k: _from_int64(t[k], *shapes[k], k, fail) for k in DECISION_FIELDS}
        mask = np.unpackbits(a["mask"], axis=1, count=A).astype(bool)
        d = cls(a["idx"], a["val"], mask, a["policy"], a["seat"], a["z"], a["margin"])
        if n and (d.idx.min() < 0 or d.idx.max() >= obs_dim or not np.isfinite(d.val).all()):
            raise fail(f"its observations must be entries 0..{obs_dim - 1} with finite values")
        if n and not mask.any(axis=1).all():
            raise fail("every decision must have a legal action")
        p = d.policy
        bad = ~np.isfinite(p).all(axis=1) | (p < 0).any(axis=1) | (p[~mask] != 0).any()
        if n and (bad.any() or (np.abs(p.sum(axis=1) - 1) > 1e-3).any()):
            raise fail("its policies must be finite, >= 0, 0 on illegal actions and sum to 1")
        if n and (((d.seat < 0) | (d.seat >= players)).any() or not np.isin(d.z, (-1, 0, 1)).all()):
            raise fail(f"its seats must be 0..{players - 1} and its results -1, 0 or 1")
        m = d.margin
        if n and (~np.isfinite(m) | (m != np.round(m)) | (np.abs(m) > MAX_MARGIN)).any():
            raise fail(f"its VP margins must be whole numbers within +-{MAX_MARGIN}")
        return d


class Window:
    """The last ``size`` generations' decisions: what each generation's network learns from."""

    def __init__(self, size: int):
        self.size = size
        self.generations: list[Decisions] = []

    def add(self, data: Decisions) -> None:
        self.generations.append(data)
        del self.generations[: -self.size]

    def rows(self) -> Decisions:
        return Decisions.join(self.generations)

    def __len__(self) -> int:
        return sum(len(g) for g in self.generations)


def _cat(arrays, empty_shape, dtype) -> np.ndarray:
    return np.concatenate(arrays) if arrays else np.zeros(empty_shape, dtype)


def _as_int64(a: np.ndarray) -> torch.Tensor:
    """``a``'s rows' bytes, each row padded to whole 8 bytes, as an (n, k) int64 tensor."""
    a = np.ascontiguousarray(a)
    flat = a.reshape(len(a), int(np.prod(a.shape[1:], dtype=np.int64))).view(np.uint8)
    flat = np.pad(flat, ((0, 0), (0, -flat.shape[1] % 8)))
    return torch.from_numpy(np.ascontiguousarray(flat).view("<i8").copy())


def _from_int64(t, shape, dtype, name, fail) -> np.ndarray:
    """The (``shape``, ``dtype``) array ``_as_int64`` saved as ``t``; ``fail`` if it is not one."""
    n = shape[0]
    row = int(np.prod(shape[1:], dtype=np.int64)) * np.dtype(dtype).itemsize
    if not isinstance(t, torch.Tensor) or t.dtype != torch.int64 or t.ndim != 2:
        raise fail(f"data {name!r} must be an int64 matrix")
    if tuple(t.shape) != (n, -(-row // 8)):
        raise fail(f"data {name!r} has shape {list(t.shape)}, expected [{n}, {-(-row // 8)}]")
    raw = t.numpy().view(np.uint8).reshape(n, -1)[:, :row]
    return np.ascontiguousarray(raw).view(dtype).reshape(shape).copy()
