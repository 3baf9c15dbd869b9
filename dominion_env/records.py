"""Game records: one game as a versioned JSON document that ``Game`` replays bit for bit.

    rec = game.record(players=[{"kind": "bot", "name": "Big Money"}, {"kind": "human"}])
    records.save(rec, "games/0001.json")
    rec = records.load("games/0001.json")          # checked: format, versions, fields
    g = Game.from_record(rec)                      # re-steps every decision, checks each one
    for g, decision in Game.replay(rec): ...       # the same, one decision at a time

A game of this engine is fixed by its deal (seed, game number, kingdom, settings) and the
actions taken, so that is what a record keeps; everything else (zones, the log) comes back by
replaying it. The record is plain JSON::

    {
      "format": "dominion-env game record",   # what the file is
      "format_version": 2,                     # FORMAT_VERSION: the layout of this document
      "package_version": "0.4.0",              # dominion-env that played it
      "engine_version": 4,                     # VecGame.VERSION that played it (rules, RNG)
      "seed": 7, "game_index": 0,              # game number game_index of the run seeded seed
      "players": [{"seat": 0, "kind": "bot", "name": "Big Money"}, ...],
      "kingdom": ["Cellar", ...],              # the 10 kingdom cards this game was dealt
      "settings": {"players": 2, "kingdom": "random" or [10 names], "pool": [names] or null,
                   "autoplay_treasures": true, "auto_resolve": true, "turn_limit": 100,
                   "first_player": null or a seat},
      "scenario": null or {"position": {...}, "rng": 123},  # a game set up by set_scenario
      "decisions": [{"player": 0, "action": "Village", "index": 12}, ...],
      "result": {"status": "terminated" | "truncated" | "running", "rewards": [1, -1],
                 "scores": [31, 22], "turns": 34},
      "meta": {...}                            # free: what played it, when, the tournament ...
    }

``players[p].kind`` says who sat in seat p: "bot" (``name``: a library or file bot), "agent"
(a trained agent: its name or file), "policy" (any other program), "human", "random", or
"unknown". ``decisions`` are every answer the players gave, in order, bots' answers inside
learner mode included (the engine logs each, ``machine.resolve``); decisions the engine takes
by itself (a single legal action with ``auto_resolve``) are not listed, the replay takes them
too. ``settings.kingdom`` is how the kingdom was asked for ("random" draws it from the game's
own RNG out of ``pool``, so a replay must ask the same way); ``kingdom`` is what was dealt.

``scenario`` is null for a game played from its deal. For a game put in a position by
``Game.set_scenario`` it holds that position: ``position`` the keyword arguments of
``set_scenario`` that make it (every zone of every player, the draw piles top card first,
every Supply pile, the trash, whose turn, the phase, Actions, Buys, $ and turns taken), and
``rng`` the game's RNG state when it was set (an int 0 .. 2**64-1: the seats' shuffles after it
draw from streams started from it, ``zones.seed_seats``; before v8 from it directly). The
replay deals the game, sets that RNG state and that position, then re-steps the decisions,
which are the ones answered since the position was set.

Format versions: 1, the first; 2 adds ``scenario`` (records of scenario games). Version 1
records are still read (as games from their deal).

A replay refuses a record from an engine version whose games differ from this one's (the same
actions may make another game there; ``SAME_GAMES`` lists the versions whose games it plays,
e.g. v5, whose observations differ from v6's but whose games do not; v5-v7 shuffled every seat
from the game's one stream, and their records replay with it, ``Config.shared_stream``) unless
asked not to check,
and stops at the first decision that does not fit: the wrong player, an illegal action, a name
that is not the index's, or a result that differs.

This module is the format (build, check, save, load); ``Game.record``, ``Game.from_record`` and
``Game.replay`` are the game side.
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

from .cards import KINGDOM_SIZE, NAMES
from .engine.layout import NUM_ACTIONS
from .names import action_name
from .vector import VERSION as ENGINE_VERSION

# engine versions whose games, for a seed and the same actions, this version plays: v6 changed
# only what the observation shows of multi-card discards, v7 only what the record keeps beside
# the game (each seat's publicly known discards, for the search); v8 gave each seat its own
# shuffle stream, and replays v5-v7 games with their one stream (``shared_stream``)
SAME_GAMES = (5, 6, 7, ENGINE_VERSION)
# the engine versions before it whose seats all shuffled from the game's stream, the last of
# them what a game played that way records (a v5-v7 game resumed, ``Game.record``)
SEAT_STREAMS_SINCE = 8
SHARED_STREAM_VERSION = 7

FORMAT = "dominion-env game record"
FORMAT_VERSION = 2
PLAYER_KINDS = ("bot", "agent", "policy", "human", "random", "unknown")
STATUSES = ("running", "terminated", "truncated")
SETTINGS = ("players", "kingdom", "pool", "autoplay_treasures", "auto_resolve", "turn_limit")
FIELDS = (
    "format",
    "format_version",
    "package_version",
    "engine_version",
    "seed",
    "game_index",
    "players",
    "kingdom",
    "settings",
    "decisions",
    "result",
)
# set_scenario's keyword arguments: what a record's scenario position may hold (format 2)
SCENARIO_ARGS = (
    "hands",
    "decks",
    "discards",
    "in_play",
    "aside",
    "supply",
    "trash",
    "turn_player",
    "phase",
    "actions",
    "buys",
    "coins",
    "turns_taken",
)
RNG_STATES = 1 << 64  # the RNG state is a uint64


class RecordError(ValueError):
    """A record that is not one, or one this version cannot replay (see ``check``)."""


class ReplayMismatch(RecordError):
    """The replay left the record: a decision or the result differs from what was recorded.
    ``step`` is the index of the decision (len(decisions) for the result)."""

    def __init__(self, message: str, step: int):
        super().__init__(message)
        self.step = step


def package_version() -> str:
    try:
        return metadata.version("dominion-env")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


def player_entries(players, n: int) -> list[dict]:
    """``players`` as the record's per-seat list: None (every seat "unknown"), or one entry per
    seat: a dict with ``kind`` (PLAYER_KINDS) and optional ``name`` and other JSON fields, or a
    string: a bot name (kind "bot"), "human" or "random"."""
    if players is None:
        return [{"seat": p, "kind": "unknown"} for p in range(n)]
    if not isinstance(players, (list, tuple)) or len(players) != n:
        raise ValueError(f"players must list one entry per seat ({n}), got {players!r}")
    out = []
    for p, e in enumerate(players):
        if isinstance(e, str):
            e = {"kind": e} if e in ("human", "random") else {"kind": "bot", "name": e}
        if not isinstance(e, dict) or e.get("kind") not in PLAYER_KINDS:
            raise ValueError(
                f"players[{p}] must be a dict with 'kind' one of {PLAYER_KINDS} (and a 'name'), "
                f"or a bot name, 'human' or 'random'; got {e!r}"
            )
        entry = {"seat": p, **e}
        try:
            json.dumps(entry)
        except TypeError as err:
            raise ValueError(f"players[{p}] must be JSON data: {err}") from None
        out.append(entry)
    return out


def build(
    *,
    seed: int,
    game_index: int,
    players: list[dict],
    kingdom: list[str],
    settings: dict,
    decisions: list[tuple[int, int]],
    result: dict,
    meta: dict | None = None,
    scenario: dict | None = None,
    engine_version: int = ENGINE_VERSION,
) -> dict:
    """A record from its parts (``Game.record`` calls this); ``decisions`` as (player, index);
    ``scenario``: None, or {"position": set_scenario's arguments, "rng": the RNG state};
    ``engine_version``: the engine whose games it is (one of ``SAME_GAMES``)."""
    rec = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "package_version": package_version(),
        "engine_version": engine_version,
        "seed": int(seed),
        "game_index": int(game_index),
        "players": players,
        "kingdom": list(kingdom),
        "settings": dict(settings),
        "scenario": None if scenario is None else dict(scenario),
        "decisions": [
            {"player": int(p), "action": action_name(a), "index": int(a)} for p, a in decisions
        ],
        "result": result,
        "meta": {} if meta is None else dict(meta) if isinstance(meta, dict) else meta,
    }
    return check(rec)


def shared_stream(record: dict) -> bool:
    """Whether ``record``'s game shuffled every seat from the game's stream (engines before
    v8): its replay must (``Config.shared_stream``)."""
    ev = record["engine_version"]
    return _is_int(ev) and ev < SEAT_STREAMS_SINCE


def _fail(msg: str):
    raise RecordError(f"not a valid game record: {msg}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check(record, *, check_version: bool = True) -> dict:
    """The record, checked: every field there and of its type, format and engine version this
    package's (``check_version=False`` skips the engine version only). Raises RecordError."""
    if not isinstance(record, dict):
        _fail(f"a record is a JSON object (dict), got {type(record).__name__}")
    if record.get("format") != FORMAT:
        _fail(f"'format' must be {FORMAT!r}, got {record.get('format')!r}")
    missing = [k for k in FIELDS if k not in record]
    if missing:
        _fail(f"missing field(s) {missing}")
    fv = record["format_version"]
    if not _is_int(fv) or not 1 <= fv <= FORMAT_VERSION:
        raise RecordError(
            f"record format_version {fv!r} is not one this package reads (1..{FORMAT_VERSION}); "
            f"it was written by dominion-env {record.get('package_version')!r}"
        )
    ev = record["engine_version"]
    if check_version and ev not in SAME_GAMES:
        raise RecordError(
            f"record played by engine version {ev!r} (dominion-env "
            f"{record.get('package_version')!r}); this is engine version {ENGINE_VERSION} "
            f"(dominion-env {package_version()}): the same actions may make another game. "
            f"Replay it with check_version=False to try anyway"
        )
    for k in ("seed", "game_index"):
        if not _is_int(record[k]) or record[k] < 0:
            _fail(f"{k!r} must be a non-negative int, got {record[k]!r}")
    st = record["settings"]
    if not isinstance(st, dict) or [k for k in SETTINGS if k not in st]:
        _fail(f"'settings' must hold {SETTINGS} (and 'first_player'), got {st!r}")
    n = st["players"]
    if not _is_int(n) or not 2 <= n <= 6:
        _fail(f"settings.players must be 2..6, got {n!r}")
    pl = record["players"]
    if not isinstance(pl, list) or len(pl) != n:
        _fail(f"'players' must list {n} seats, got {pl!r}")
    for p, e in enumerate(pl):
        if not isinstance(e, dict) or e.get("seat") != p or e.get("kind") not in PLAYER_KINDS:
            _fail(f"players[{p}] must be {{'seat': {p}, 'kind': one of {PLAYER_KINDS}}}, got {e!r}")
    k = record["kingdom"]
    if not isinstance(k, list) or len(k) != KINGDOM_SIZE or any(c not in NAMES for c in k):
        _fail(f"'kingdom' must list {KINGDOM_SIZE} card names, got {k!r}")
    decs = record["decisions"]
    if not isinstance(decs, list):
        _fail("'decisions' must be a list")
    for i, d in enumerate(decs):
        if (
            not isinstance(d, dict)
            or not _is_int(d.get("player"))
            or not 0 <= d["player"] < n
            or not _is_int(d.get("index"))
            or not 0 <= d["index"] < NUM_ACTIONS
            or not isinstance(d.get("action"), str)
        ):
            _fail(
                f"decisions[{i}] must be {{'player': 0..{n - 1}, 'action': name, 'index': "
                f"0..{NUM_ACTIONS - 1}}}, got {d!r}"
            )
    res = record["result"]
    if (
        not isinstance(res, dict)
        or res.get("status") not in STATUSES
        or not isinstance(res.get("rewards"), list)
        or len(res["rewards"]) != n
        or not isinstance(res.get("scores"), list)
        or len(res["scores"]) != n
        or not _is_int(res.get("turns"))
    ):
        _fail(
            f"'result' must be {{'status': one of {STATUSES}, 'rewards': {n} numbers, "
            f"'scores': {n} ints, 'turns': int}}, got {res!r}"
        )
    if not all(type(x) in (int, float) and x in (-1, 0, 1) for x in res["rewards"]) or not all(
        _is_int(x) for x in res["scores"]
    ):
        _fail(f"'result' rewards must be -1, 0 or 1 and scores ints, got {res!r}")
    _check_scenario(record, fv)
    if not isinstance(record["meta"], dict):
        _fail(f"'meta' must be a JSON object (dict), got {record['meta']!r}")
    _check_json(record["meta"], "meta", 0)
    return record


def _check_scenario(record: dict, fv: int) -> None:
    """The record's scenario (format 2): null, or a position by set_scenario's argument names
    (JSON values; set_scenario checks them when the replay sets the position) and an RNG
    state. Format 1 has none."""
    if fv < 2:
        if "scenario" in record:
            _fail("'scenario' came with format_version 2; this record says format_version 1")
        return
    if "scenario" not in record:
        _fail("missing field(s) ['scenario'] (format_version 2: null or the position)")
    sc = record["scenario"]
    if sc is None:
        return
    if not isinstance(sc, dict) or set(sc) != {"position", "rng"}:
        _fail(f"'scenario' must be null or {{'position': {{...}}, 'rng': int}}, got {sc!r}")
    pos, rng = sc["position"], sc["rng"]
    if not isinstance(pos, dict) or not set(pos) <= set(SCENARIO_ARGS):
        _fail(
            f"scenario 'position' must be a dict of set_scenario's arguments "
            f"{SCENARIO_ARGS}, got {pos!r}"
        )
    if not _is_int(rng) or not 0 <= rng < RNG_STATES:
        _fail(f"scenario 'rng' must be an int 0..2**64-1 (the RNG state), got {rng!r}")
    _check_json(pos, "scenario position", 0)


_JSON_DEPTH = 32  # meta nested deeper than this is refused (a record's meta is a few levels)


def _check_json(v, where: str, depth: int) -> None:
    """``v`` (meta, a scenario position) holds JSON values only, as they load back: str, int,
    finite float, bool, None, lists, and dicts with str keys (json.dumps would turn 1 into
    "1", take NaN, or fail only when the record is saved)."""
    if depth > _JSON_DEPTH:
        _fail(f"{where} is nested deeper than {_JSON_DEPTH} levels")
    if v is None or isinstance(v, (str, bool, int)):
        return
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            _fail(f"{where} is {v!r}: JSON holds finite numbers only")
        return
    if isinstance(v, list):
        for i, x in enumerate(v):
            _check_json(x, f"{where}[{i}]", depth + 1)
        return
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                _fail(f"{where} has the key {k!r}: JSON object keys are str")
            _check_json(x, f"{where}[{k!r}]", depth + 1)
        return
    _fail(
        f"{where} is {v!r} ({type(v).__name__}): a record holds JSON values only (str, int, "
        f"float, bool, None, lists, dicts with str keys)"
    )


def dumps(record) -> str:
    """The record as JSON text: one decision per line, so records diff line by line."""
    check(record, check_version=False)
    fields = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in record.items() if k != "decisions"]
    lines = [json.dumps(d) for d in record["decisions"]]
    decisions = "[\n    " + ",\n    ".join(lines) + "\n  ]" if lines else "[]"
    fields.append(f'  "decisions": {decisions}')
    return "{\n" + ",\n".join(fields) + "\n}\n"


def save(record, path) -> Path:
    """Write ``record`` to ``path`` (folders made as needed); returns the path."""
    path = Path(path)
    text = dumps(record)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def load(path, *, check_version: bool = True) -> dict:
    """Read and check a record file (see ``check``)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read record {str(path)!r}: {e}") from None
    except UnicodeDecodeError as e:
        raise RecordError(
            f"{str(path)!r} is not a game record: not UTF-8 text (byte {e.start} is "
            f"{e.object[e.start : e.start + 1]!r})"
        ) from None
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{str(path)!r} is not JSON: {e}") from None
    except RecursionError:
        raise RecordError(f"{str(path)!r} is not a game record: JSON nested too deep") from None
    try:
        return check(rec, check_version=check_version)
    except RecordError as e:
        raise RecordError(f"{str(path)!r}: {e}") from None
