"""Checks of the arguments the faces take (Game, VecGame and the env adapters), in one place.

Every check refuses rather than coerces: no float rounded to an action, no string parsed into
one, no bool taken for 0 or 1, no array reshaped, no unsigned value wrapped to -1. Its error
names the argument, the value and what is allowed, and is raised before anything changes:

    TypeError                  the wrong kind of value (a float, a string, a bool, None ...)
    ValueError                 the right kind out of range (a seed of -1, a seat of 7 ...)
    names.IllegalActionError   an action out of range or not legal now (a ValueError)

Seeds are ints 0 .. 2**63 - 1 where they seed a game (``Game``, ``VecGame``, the vector
envs' ``reset``): a game's stream is seeded from a signed 64-bit int, and negative seeds are
refused rather than folded onto positive ones (numpy's and Gymnasium's generators refuse them
too). A seed that seeds an env's generator (every env's constructor ``seed``, the Gymnasium
and PettingZoo single-game envs' ``reset(seed=...)``) is any int >= 0
(``check_generator_seed``): numpy's ``SeedSequence`` takes all of its bits and the generator
draws each game's seed below 2**62, so a seed past 2**63 is a different run, deterministically,
and every smaller seed plays as before. ``None`` is allowed where a face documents it (the
envs then draw a seed from their generator).
"""

from __future__ import annotations

import errno
import os
import stat

import numpy as np

from .engine.layout import NUM_ACTIONS
from .names import IllegalActionError

MAX_SEED = 2**63 - 1
# a game's turn limit at most this on every face (no game of any bot lasts 1,000 turns per
# player; the kernels count turns in int64, and 10**30 was an OverflowError)
MAX_TURN_LIMIT = 100_000


def is_int(value) -> bool:
    """A Python or numpy integer, not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value, lo: int, hi: int | None = None, why: str = "") -> int:
    """``value`` as an int in lo..hi (hi None: no upper bound); ``why``: the bound's reason,
    said in the message."""
    allowed = f"an int {lo}..{hi}" if hi is not None else f"an int >= {lo}"
    if why:
        allowed += f" ({why})"
    if not is_int(value):
        raise TypeError(f"{name} must be {allowed}, got {value!r} ({type(value).__name__})")
    if value < lo or (hi is not None and value > hi):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return int(value)


def check_seed(seed, name: str = "seed", allow_none: bool = False) -> int | None:
    """A seed: an int 0 .. 2**63 - 1 (or None where ``allow_none``)."""
    if seed is None and allow_none:
        return None
    if not is_int(seed) or not 0 <= seed <= MAX_SEED:
        allowed = "None or an int" if allow_none else "an int"
        kind = TypeError if not is_int(seed) else ValueError
        raise kind(f"{name} must be {allowed} 0..2**63-1, got {seed!r}")
    return int(seed)


def check_per_row(name: str, value, n: int, what: str) -> np.ndarray:
    """``value`` given per row (seeds, game numbers): an (n,) int array of ints 0..2**63-1,
    as int64; ``what`` names one entry in the message ("game numbers")."""
    a = np.asarray(value)
    if a.shape != (n,) or a.dtype.kind not in "iu":
        raise ValueError(
            f"{name} must be a non-negative int or ({n},) {what}, got shape {a.shape}, "
            f"dtype {a.dtype}"
        )
    bad = np.flatnonzero((a < 0) | (a > MAX_SEED))
    if bad.size:
        g = int(bad[0])
        raise ValueError(f"{name}[{g}] must be 0..2**63-1, got {a[g]}")
    return a.astype(np.int64)


def is_per_row(value) -> bool:
    """A value given per row (a sequence or an array), not one value for every row."""
    return isinstance(value, (list, tuple, np.ndarray))


def check_generator_seed(seed, name: str = "seed", allow_none: bool = False) -> int | None:
    """A seed of a numpy generator: any int >= 0, of any size (or None where ``allow_none``)."""
    if seed is None and allow_none:
        return None
    if not is_int(seed) or seed < 0:
        allowed = "None or an int" if allow_none else "an int"
        kind = TypeError if not is_int(seed) else ValueError
        raise kind(f"{name} must be {allowed} >= 0 (of any size), got {seed!r}")
    return int(seed)


def check_number(name: str, value, lo: float = 0.0, hi: float | None = None) -> float:
    """A finite real number >= lo (and <= hi unless None): an int or a float, not a bool."""
    bound = f">= {lo}" if hi is None else f"{lo:g}..{hi:g}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"{name} must be a number {bound}, got {value!r}")
    if not np.isfinite(value) or value < lo or (hi is not None and value > hi):
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    return float(value)


def check_choice(name: str, value, allowed) -> str:
    """``value`` if it is one of the strings ``allowed`` (no case folding, no stripping)."""
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r} "
            f"({type(value).__name__})"
        )
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


# what an agent file's name ends with: the safetensors layout it is written in
# (``train.tensorfile``), or ``.pt``, the name older releases gave the same files
AGENT_SUFFIXES = (".safetensors", ".pt")


def is_agent_file(name) -> bool:
    """Whether ``name`` (a str or a path) names an agent file by its extension
    (``AGENT_SUFFIXES``); nothing is read. Here, not in ``dominion_env.train``, so that the
    command line tells an agent's file from a bot's name without torch."""
    return isinstance(name, (str, os.PathLike)) and os.fspath(name).endswith(AGENT_SUFFIXES)


MISSING = "no such file"


def file_fault(path) -> str | None:
    """Why ``path`` cannot be read as a file of data, in words, or None where it is a regular
    file (a symbolic link to one included): ``MISSING``, "is a directory", "is a named pipe,
    not a regular file", "is a symbolic link loop", "is a broken symbolic link ...", ... Nothing
    is opened: a named pipe would block its reader until something writes to it. Every face
    that reads an agent, a checkpoint or a strategy file asks this first, so that what is at
    the path is named rather than reported missing."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "is a symbolic link loop"
        if e.errno == errno.ENOENT:
            if os.path.islink(path):
                return "is a broken symbolic link (its target does not exist)"
            return MISSING
        if e.errno == errno.ENOTDIR:
            return f"{MISSING} (a part of its path is not a directory)"
        return f"cannot be read: {e.strerror or e}"
    except ValueError:  # a NUL character, which no file name holds
        return f"{MISSING} (a file name cannot hold a NUL character)"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    kinds = {
        stat.S_ISFIFO: "a named pipe",
        stat.S_ISSOCK: "a socket",
        stat.S_ISCHR: "a character device",
        stat.S_ISBLK: "a block device",
    }
    kind = next((k for test, k in kinds.items() if test(mode)), "not a file of data")
    return f"is {kind}, not a regular file"


def check_agent_players(policy, players: int, where: str = "") -> None:
    """A trained agent (a policy with ``info.players``, ``dominion_env.train.Agent``) plays only
    games of the player count it was trained for: a ValueError naming it, its count and
    ``players`` otherwise (``where``: what has ``players`` players, "this table"), raised
    before any game is built; so does a search guided by one (its ``players``). Bots, the
    flat search and other policies pass."""
    # a trained agent's own count (its info), or the count of the network a search plays by
    info = getattr(policy, "info", None)
    trained = getattr(info if info is not None else policy, "players", None)
    if trained is not None and trained != players:
        name = getattr(policy, "name", "agent")
        raise ValueError(
            f"agent {name!r} plays {trained}-player games; {where or 'these games'} "
            f"{'has' if where else 'have'} {players} players"
        )


def check_action(action, name: str = "action") -> int:
    """One action index: an int (or a 0-d integer array) 0..NUM_ACTIONS-1. Out of range is an
    ``IllegalActionError``; anything but an integer is a TypeError."""
    a = action
    if isinstance(a, np.ndarray) and a.ndim == 0 and a.dtype.kind in "iu":
        a = a[()]
    if not is_int(a):
        raise TypeError(
            f"{name} must be an int action index 0..{NUM_ACTIONS - 1}, got {action!r} "
            f"({type(action).__name__})"
        )
    if not 0 <= a < NUM_ACTIONS:
        raise IllegalActionError(f"{name} {int(a)} out of range 0..{NUM_ACTIONS - 1}", -1, int(a))
    return int(a)


def check_actions(actions, n: int, name: str = "actions", skip: bool = True) -> np.ndarray:
    """One action per game: an (n,) array (or list) of ints, as int64. The range is checked
    against the masks by the step (``VecGame._check_actions``) except for what the cast to
    int64 would hide: unsigned values past NUM_ACTIONS-1 (2**64-1 would become -1, a skip),
    and -1 where ``skip`` is False."""
    allowed = f"an integer array of shape ({n},), action indices 0..{NUM_ACTIONS - 1}" + (
        " (or -1 to skip a game)" if skip else ""
    )
    if isinstance(actions, (str, bytes)) or actions is None:
        raise TypeError(f"{name} must be {allowed}, got {actions!r}")
    a = np.asarray(actions)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name} must be {allowed}, got dtype {a.dtype} ({_short(a)})")
    if a.shape != (n,):
        raise ValueError(f"{name} must be {allowed}, got shape {a.shape} ({_short(a)})")
    lo = -1 if skip else 0
    if a.dtype.kind == "u":
        bad = np.flatnonzero(a > NUM_ACTIONS - 1)
    else:
        bad = np.flatnonzero((a < lo) | (a > NUM_ACTIONS - 1))
    if bad.size:
        g = int(bad[0])
        raise IllegalActionError(
            f"{name}[{g}] = {a[g]} out of range: {name} must be {allowed}", g, int(a[g])
        )
    return np.ascontiguousarray(a, dtype=np.int64)


def _short(a: np.ndarray) -> str:
    text = np.array2string(a.reshape(-1)[:8], separator=", ")
    return text if a.size <= 8 else text[:-1] + ", ...]"
