"""Agent and checkpoint files: named tensors plus JSON, in a layout whose loading runs no code.

    write(path, "agent", {"pi.weight": tensor, ...}, {"info": {...}})
    tensors, meta = read(path, "agent")          # AgentFileError if anything is wrong

A file is in the safetensors layout (https://github.com/huggingface/safetensors), written and
read here with ``json`` and numpy (no new dependency; the safetensors library reads these
files too)::

    [8 bytes: N, little-endian u64][N bytes: UTF-8 JSON header][the tensors' raw bytes]

    header = {"pi.weight": {"dtype": "F32", "shape": [71, 128], "data_offsets": [0, 36352]},
              ...,
              "__metadata__": {"dominion_env": "agent" | "checkpoint" | "selfplay",
                               "format_version": "2",
                               "json": "<the file's JSON document: info, config, history ...>"}}

Loading parses JSON and copies bytes into arrays of the declared dtype and shape: there is no
pickle, so nothing in the file is ever executed, and every field is checked (header length,
JSON, kinds, versions, dtypes, shapes, offsets covering the data exactly, finite values) before
anything is built. Any fault is an ``AgentFileError`` (a ValueError) naming the file and what
is wrong. Files are named for the layout (``agent.safetensors``, ``checkpoint.safetensors``);
files named ``.pt`` by older releases hold the same layout and read the same
(``policy.is_agent_file``, ``policy.run_file``). The ``safetensors`` library opens them too:
``safetensors.numpy.load_file(path)`` (or ``safetensors.torch.load_file``) gives the tensors,
and the JSON document is the string ``metadata()["json"]`` of ``safetensors.safe_open(path,
"np")``.

Format versions: 1 was ``torch.save`` of a dict (a pickle: loading it can run any code); it is
refused with a message that says how to convert it (``legacy.convert``, for files one trusts).
2 (this one) is the layout above.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import struct
from functools import partial
from pathlib import Path

import numpy as np
import torch

from ..checks import file_fault

# the format_version written; bump when the layout or the JSON document changes
FILE_FORMAT_VERSION = 2
KINDS = ("agent", "checkpoint", "selfplay")  # selfplay: ``selfplay``'s checkpoint
MAX_HEADER = 100 * 2**20  # bytes; safetensors' own cap
# safetensors dtype name <-> numpy (little-endian, as the layout says)
DTYPES = {"F32": np.dtype("<f4"), "F64": np.dtype("<f8"), "I64": np.dtype("<i8")}
_NAMES = {v: k for k, v in DTYPES.items()}
_CONVERT = "dominion_env.train.convert(path) (python -m dominion_env.train.legacy PATH)"


class AgentFileError(ValueError):
    """An agent or checkpoint file that cannot be loaded: names the file and what is wrong."""

    def __init__(self, path, why: str):
        self.path = Path(path)
        super().__init__(f"{path}: {why}")


def write(path, kind: str, tensors: dict, meta: dict) -> Path:
    """Write ``tensors`` (name -> torch tensor) and ``meta`` (JSON-able) to ``path``, atomically
    (a temporary file renamed over it: an interrupted save leaves the old file whole)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    header, chunks, offset = {}, [], 0
    for name in sorted(tensors):
        a = tensors[name].detach().cpu().numpy()
        dtype = a.dtype.newbyteorder("<")
        if dtype not in _NAMES:
            raise ValueError(f"tensor {name!r} has dtype {a.dtype}; files hold {list(DTYPES)}")
        raw = np.ascontiguousarray(a, dtype).tobytes()
        header[name] = {
            "dtype": _NAMES[dtype],
            "shape": list(a.shape),
            "data_offsets": [offset, offset + len(raw)],
        }
        chunks.append(raw)
        offset += len(raw)
    header["__metadata__"] = {
        "dominion_env": kind,
        "format_version": str(FILE_FORMAT_VERSION),
        "json": json.dumps(meta, default=_plain),
    }
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)  # the layout pads the header to 8 bytes
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # a fresh name beside it (opened exclusively, with the usual permissions)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        with open(tmp, "xb") as f:
            f.write(struct.pack("<Q", len(text)))
            f.write(text)
            for c in chunks:
                f.write(c)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _plain(value):
    """numpy scalars (a config's np.float32, say) as the Python numbers JSON holds."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{value!r} ({type(value).__name__}) cannot be saved in a file's JSON")


def read(path, kind: str) -> tuple[dict, dict]:
    """(name -> torch tensor, the JSON document) of a ``kind`` file; AgentFileError otherwise.
    Tensors are checked for layout and finite values; the document's content is the caller's
    to check."""
    path = Path(path)
    fail = partial(AgentFileError, path)
    why = file_fault(path)  # before opening: a named pipe would block the read
    if why is not None:
        raise fail(why)
    try:  # the header first: a large file that is not ours is refused without reading it
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(8)
            n = struct.unpack("<Q", head)[0] if len(head) == 8 else None
            fits = n is not None and n <= min(MAX_HEADER, size - 8)
            text = f.read(n) if fits else b""
            data = f.read() if fits else b""
    except OSError as e:
        raise AgentFileError(path, f"cannot be read: {e.strerror or e}") from None
    try:
        if not fits:
            raise ValueError
        header = json.loads(text.decode("utf-8"))
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError and JSONDecodeError too
        # checked only now: a valid header's length may begin with these bytes
        if head[:4] == b"PK\x03\x04" or (head[:1] == b"\x80" and head[1:2] in b"\x02\x03\x04\x05"):
            raise fail(
                "is a torch/pickle file (dominion_env's format 1, or another program's): "
                "loading a pickle can run any code, so it is refused. If you trust where it "
                f"came from, convert it once: {_CONVERT}"
            ) from None
        if n is None:
            raise fail(f"is {size} bytes long, too short for a {kind} file") from None
        if not fits:
            raise fail(
                f"is not a dominion_env {kind} file, or is truncated: its first 8 bytes declare "
                f"a {n}-byte header, and the file has {size} bytes"
            ) from None
        raise fail(f"its header is not JSON ({type(e).__name__}): not a {kind} file") from None
    if not isinstance(header, dict):
        raise fail(f"its header is a {type(header).__name__}, not a JSON object")
    meta = header.pop("__metadata__", None)
    if not isinstance(meta, dict) or "dominion_env" not in meta:
        raise fail("has no dominion_env metadata: not a file saved by dominion_env")
    if meta["dominion_env"] != kind:
        raise fail(f"is a dominion_env {meta['dominion_env']!r} file, not a {kind} file")
    if meta.get("format_version") != str(FILE_FORMAT_VERSION):
        raise fail(
            f"has format version {meta.get('format_version')!r}; this dominion_env reads "
            f"version {FILE_FORMAT_VERSION} (a newer one wrote it? upgrade dominion_env)"
        )
    try:
        doc = json.loads(meta.get("json"))
    except (TypeError, ValueError, RecursionError) as e:
        raise fail(f"its metadata is not JSON ({type(e).__name__})") from None
    if not isinstance(doc, dict):
        raise fail(f"its metadata is a {type(doc).__name__}, not a JSON object")
    return _tensors(header, memoryview(data), fail), doc


def _tensors(header: dict, buf: memoryview, fail) -> dict:
    spans = []
    for name, entry in header.items():
        if not isinstance(entry, dict) or set(entry) != {"dtype", "shape", "data_offsets"}:
            raise fail(f"tensor {name!r}: entry {entry!r} is not dtype/shape/data_offsets")
        dtype, shape, span = entry["dtype"], entry["shape"], entry["data_offsets"]
        if dtype not in DTYPES:
            raise fail(f"tensor {name!r}: dtype {dtype!r} is not one of {list(DTYPES)}")
        if not isinstance(shape, list) or not all(_count(s) for s in shape):
            raise fail(f"tensor {name!r}: shape {shape!r} is not a list of ints >= 0")
        if not (isinstance(span, list) and len(span) == 2 and all(_count(s) for s in span)):
            raise fail(f"tensor {name!r}: data_offsets {span!r} is not [begin, end]")
        size = math.prod(shape) * DTYPES[dtype].itemsize
        if span[1] - span[0] != size:
            raise fail(
                f"tensor {name!r}: shape {shape} ({dtype}) needs {size} bytes, "
                f"data_offsets {span} hold {span[1] - span[0]}"
            )
        spans.append((span[0], span[1], name))
    spans.sort()
    end = 0
    for begin, stop, name in spans:
        if begin != end:
            raise fail(f"tensor {name!r} starts at byte {begin}, expected {end}")
        end = stop
    if end != len(buf):
        raise fail(
            f"its tensors need {end} bytes of data, the file holds {len(buf)}"
            + (": truncated" if end > len(buf) else "")
        )
    out = {}
    for begin, stop, name in spans:
        entry = header[name]
        a = np.frombuffer(buf[begin:stop], DTYPES[entry["dtype"]]).reshape(entry["shape"])
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            raise fail(f"tensor {name!r} holds NaN or infinite values")
        out[name] = torch.from_numpy(a.astype(a.dtype.newbyteorder("="), copy=True))
    return out


def _count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**62
