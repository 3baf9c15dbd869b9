"""The MLP's first layer on the observation's non-zero entries only (the CPU training path).

A scaled 2-player observation has 1,129 entries of which about 77 are non-zero (6.8%,
measured over random play): 47 of the 64 card slots of each zone are empty in every game. A
dense first layer (1,129 x 128) was most of the PPO update's time; reading only the non-zero
entries does ~15x less work and computes the same function (up to float rounding)::

    rows (N, D) float32  ->  idx (N, K) int32, val (N, K) float32   K = the most non-zeros
    row i:  [0, .3, 0, 0, 1, 0 ...]  ->  idx [1, 4, 0 ...]  val [.3, 1, 0 ...]   (0-padded)

    first layer   h = embedding_bag(idx, W.T, per_sample_weights=val, mode="sum") + b
    its gradient  dW.T[idx[n, k]] += val[n, k] * dh[n]      (``_scatter_grad``, compiled)

A padding slot (index 0, value 0) adds 0 x W[:, 0] = 0. torch's own embedding_bag backward
with per-sample weights took ~90 ms a 4096-row minibatch, the dense weight gradient ~33 ms
and the compiled scatter ~8 ms (CPU time on the 2-core box, measured).

``SparseRows.write`` turns a batch of observations into rows in place (one compiled pass,
``_to_rows``); ``forward(net, idx, val, mask)`` is ``PolicyNet.forward`` on them. Only a
``PolicyNet`` on the CPU with a hidden layer, whose forward this one reproduces, takes this path
(``supports``); any other network, and any network on a GPU, reads dense rows.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.nn import functional as F

from ..engine.jit import kernel, njit, prange
from ..vector import PARALLEL_MIN_GAMES
from .policy import PolicyNet


@kernel
def _to_rows(obs, idx, val, counts):
    """Each row's non-zero entries to the front of idx/val (the rest 0); counts[i] = how
    many, written even past idx's width (then the caller widens and calls again)."""
    width = idx.shape[1]
    for i in prange(obs.shape[0]):
        c = 0
        for j in range(obs.shape[1]):
            x = obs[i, j]
            if x != 0.0:
                if c < width:
                    idx[i, c] = j
                    val[i, c] = x
                c += 1
        counts[i] = c
        for k in range(min(c, width), width):
            idx[i, k] = 0
            val[i, k] = 0.0


@njit
def _scatter_grad(idx, val, grad, out):
    """out (D, H) = X.T @ grad for the sparse rows X = (idx, val); grad (N, H)."""
    out[:] = 0.0
    width = grad.shape[1]
    for n in range(idx.shape[0]):
        g = grad[n]
        for k in range(idx.shape[1]):
            v = val[n, k]
            if v != 0.0:
                row = out[idx[n, k]]
                for h in range(width):  # contiguous rows: vectorized
                    row[h] += v * g[h]


class SparseRows:
    """(idx, val) of up to ``n`` rows, widened when a batch has more non-zeros than fit."""

    def __init__(self, shape: tuple, width: int = 96):
        self.idx = np.zeros((*shape, width), np.int32)  # half the memory of int64
        self.val = np.zeros((*shape, width), np.float32)
        self.width = 0  # the most non-zeros of any row written so far

    def write(self, obs: np.ndarray, at=()) -> None:
        """Rows ``obs`` (..., D) into ``self[at]`` (``at``: an index into the leading dims)."""
        n = obs.shape[0]
        counts = np.zeros(n, np.int64)
        # no thread pool woken (nor started) for a few rows, as VecGame
        fn = _to_rows if n >= PARALLEL_MIN_GAMES else _to_rows.serial
        fn(obs, self.idx[at], self.val[at], counts)
        most = int(counts.max()) if n else 0
        if most > self.idx.shape[-1]:  # widen (keeping rows already written) and redo
            pad = [(0, 0)] * (self.idx.ndim - 1) + [(0, most + 32 - self.idx.shape[-1])]
            self.idx, self.val = np.pad(self.idx, pad), np.pad(self.val, pad)
            fn(obs, self.idx[at], self.val[at], counts)
        self.width = max(self.width, most)

    def rows(self, at=()):
        """(idx, val) tensors of ``self[at]``, cut to the widest row written (shared memory)."""
        w = max(1, self.width)
        return torch.from_numpy(self.idx[at][..., :w]), torch.from_numpy(self.val[at][..., :w])


class _SparseLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, idx, val, weight, bias):
        ctx.save_for_backward(idx, val)
        ctx.shape = weight.shape
        # (D, H), an entry's weights in one row: embedding_bag read the strided
        # transpose ~2x slower (measured); the copy is 0.6 MB
        table = weight.detach().t().contiguous()
        return F.embedding_bag(idx, table, per_sample_weights=val, mode="sum") + bias

    @staticmethod
    def backward(ctx, grad):
        idx, val = ctx.saved_tensors
        h, d = ctx.shape
        out = np.empty((d, h), np.float32)
        _scatter_grad(idx.numpy(), val.numpy(), grad.contiguous().numpy(), out)
        return None, None, torch.from_numpy(out).t(), grad.sum(0)


def supports(net) -> bool:
    """Whether ``net`` takes the sparse path: a PolicyNet on the CPU whose trunk starts with a
    Linear, and whose forward ``forward`` reproduces on a few random rows (so a network whose
    forward changes shape falls back to the dense path rather than computing something else)."""
    if not (
        isinstance(net, PolicyNet)
        and len(net.trunk) > 0
        and isinstance(net.trunk[0], torch.nn.Linear)
        and net.trunk[0].weight.device.type == "cpu"
    ):
        return False
    gen = torch.Generator().manual_seed(0)
    d = net.trunk[0].in_features
    obs = torch.rand(8, d, generator=gen) * (torch.rand(8, d, generator=gen) < 0.1)
    mask = torch.ones(8, net.pi.out_features, dtype=torch.bool)
    rows = SparseRows((8,))
    rows.write(obs.numpy())
    with torch.no_grad():
        dense, sparse = net(obs, mask), forward(net, *rows.rows(), mask)
    return all(torch.allclose(a, b, atol=1e-4) for a, b in zip(dense, sparse, strict=True))


def forward(net: PolicyNet, idx: torch.Tensor, val: torch.Tensor, mask: torch.Tensor):
    """``net(obs, mask)`` computed from obs's sparse rows (``supports(net)`` must hold)."""
    first = net.trunk[0]
    h = _SparseLinear.apply(idx, val, first.weight, first.bias)
    return net.heads(net.trunk[1:](h), mask)
