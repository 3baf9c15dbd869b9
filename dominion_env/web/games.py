"""The games ``dominion serve`` holds: one ``Table`` per game (a ``Game`` and who sits where),
kept in a bounded ``Tables`` store. No web framework here: ``app.py`` is the thin HTTP face.

A table is either **played** (a person at seat P0, one bot or agent per other seat, as in
``dominion play``) or **watched** (a bot or agent at every seat, stepped on request). Bots and
agents answer through ``seats.seat_players``, the same code as ``dominion play``.

What a client sees (``Table.view``) is built only from what ``dominion play`` shows the
viewer: its own hand and set-aside cards, every seat's hand, deck and discard sizes, VP and
cards in play, the Supply with costs, the trash, the turn, the per-viewer log
(``names.log_lines``), the pending decision and legal actions when the viewer decides, and
the VP after each turn. A played table shows only the person's seat; a watched one shows any
seat's view or everything (``viewer=None``: hands, discards and draw piles by name).

A seat's view holds only what the engine lets that seat know. The VP are the seat's
observation's (``Game.observation_pieces``): with 3 or more players a Masquerade pass between
two others is unseen, so the true scores would tell which card went where (with 2 players
every pass involves the viewer, and the two agree); the game's end shows the true ones. The
log is sent only as far as no later step can rewrite it (``settled``): the engine shows the
top card of a discard of several cards so far and hides it again when the next pick covers
it, so a row that a next pick may still cover waits for the event after it.

Every request is checked before anything changes; a bad one raises ``WebError`` with the HTTP
status the face answers with (400 malformed or illegal, 403 not your seat, 404 unknown game,
409 the game is not waiting for this: over, another seat's decision, or moved on since the
client looked). Every finished game, and every abandoned one (left, evicted from the store,
or still running when the server stops), is saved as a record (``records``) in the records
folder. One request at a time holds a game: another one arriving meanwhile gets a 409 (busy)
rather than waiting, so a slow agent ties up no worker thread but its own game's.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from pathlib import Path

import numpy as np

from .. import play, records
from ..agents import Bot
from ..cards import BASIC, COST, MAX_PLAYERS, MIN_PLAYERS, TABLE, TEXT, card_id
from ..checks import check_int, check_seed
from ..engine.layout import EV_DECIDE, EV_DISCARD, NUM_ACTIONS, PASS, SEEN_TOP
from ..game import Game
from ..names import action_index, decision_text, log_lines
from ..seats import YOU, check_opponents, seat_players

MODES = ("play", "watch")
MAX_GAMES = 64  # games held in memory; past it the least recently used finished one goes
MAX_ADVANCE = 1000  # decisions one watch request may step (a whole game is a few hundred)
TURN_LIMIT = 100
RECORD_NAME = "game-{stamp}-{token}.json"  # its token is not the game's id
_NEW_GAME_KEYS = ("mode", "players", "kingdom", "seed")
_KEYS = "0123456789abcdefghijklmnopqrstuvwxyz"  # keyboard shortcuts of the choices, in order


class WebError(Exception):
    """A request refused before it changed anything; ``status`` is the HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def _pairs(counts: dict) -> list:
    return [[n, int(k)] for n, k in counts.items()]


class Table:
    """One game held by the server: the ``Game``, the player at each seat (None: the person),
    the VP after each turn, and the record once saved."""

    def __init__(
        self,
        game_id: str,
        mode: str,
        seats: list,
        names: list[str],
        game: Game,
        seed,
        folder: Path | None = None,
    ):
        self.id = game_id
        self.folder = folder  # where its record goes (None: nowhere)
        self.mode = mode
        self.seats = seats
        self.names = names
        self.game = game
        self.answer = seat_players(seats, seed)
        self.lock = threading.Lock()
        self.moves = 0  # decisions taken so far: a client names the one it answers
        self.used = time.monotonic()
        # the VP after each turn as each seat knew them, then the true ones (``_known_vp``)
        self.vp = [[game.turn["turn_number"], self._known_vp()]]
        self.record_path: Path | None = None
        self.record_error: str | None = None
        self.abandoned = False

    # -- moving ------------------------------------------------------------------------------

    def _step(self, a: int) -> None:
        g = self.game
        turn = g.turn["turn_number"]
        g.step(int(a))
        self.moves += 1
        if g.done or g.turn["turn_number"] != turn:
            self.vp.append([g.turn["turn_number"], self._known_vp()])

    def _known_vp(self) -> list[list[int]]:
        """Every seat's VP as seat 0, 1 ... knows them, then the true ones (viewer None);
        once the game is over, the true ones for every viewer (the cards are counted)."""
        g = self.game
        true = g.scores()
        if g.done:
            return [true] * (g.players + 1)
        known = [[int(v) for v in g.observation_pieces(p)["vp"]] for p in range(g.players)]
        return [*known, true]

    def _run_players(self, limit: int) -> None:
        """Let bots and agents answer until a person decides, the game ends or ``limit``."""
        g = self.game
        for _ in range(limit):
            if g.done or self.seats[g.current_player] is None:
                return
            self._step(self.answer(g))

    @contextlib.contextmanager
    def _busy(self):
        """Hold the game for one request; a request that finds it held is refused at once
        (409), so requests never queue behind a slow agent and the worker threads stay free
        for other games."""
        if not self.lock.acquire(blocking=False):
            raise WebError(
                409, "the game is busy: its players are answering; ask again in a moment"
            )
        try:
            self.used = time.monotonic()
            yield
        finally:
            self.lock.release()

    def start(self) -> None:
        with self.lock:
            if self.mode == "play":
                self._run_players(10**9)  # a game always ends (turn limit)
                self._finish()

    def act(self, seat, action, step) -> None:
        """The person at ``seat`` answers the pending decision of step ``step`` with
        ``action`` (an index or a name); then the other seats answer until it is theirs again."""
        with self._busy():
            if self.mode != "play":
                raise WebError(409, "this game is watched: nobody plays a seat (use advance)")
            seat = field_int("seat", seat, 0, self.game.players - 1)
            if self.seats[seat] is not None:
                raise WebError(
                    403, f"seat P{seat} is played by {self.names[seat]}; you play seat P{YOU}"
                )
            step = field_int("step", step, 0, None)
            a = self._legal(action)
            self._check_turn(seat, step)
            if not self.game.action_mask[a]:
                legal = ", ".join(label for _, label in play.choices(self.game))
                raise WebError(400, f"action {action!r} is not legal now; legal: {legal}")
            self._step(a)
            self._run_players(10**9)
            self._finish()

    def advance(self, steps, step) -> None:
        """A watched game: let the players take the next ``steps`` decisions."""
        with self._busy():
            if self.mode != "watch":
                raise WebError(409, "only a watched game advances by itself; answer with act")
            steps = field_int("steps", steps, 1, MAX_ADVANCE)
            step = field_int("step", step, 0, None)
            self._check_turn(None, step)
            self._run_players(steps)
            self._finish()

    def abandon(self) -> None:
        """Leave the game: it is over for the server and saved as an abandoned record."""
        with self._busy():
            if self.game.done or self.abandoned:
                raise WebError(409, "the game is already over")
            self.abandoned = True
            self._save()

    def _check_turn(self, seat, step: int) -> None:
        g = self.game
        if g.done or self.abandoned:
            raise WebError(409, "the game is over")
        if step != self.moves:
            raise WebError(
                409,
                f"the game has moved on: it is at step {self.moves}, the request answers "
                f"step {step} (reload the game)",
            )
        if seat is not None and g.current_player != seat:
            raise WebError(409, f"it is P{g.current_player}'s decision, not P{seat}'s")

    @staticmethod
    def _legal(action) -> int:
        if isinstance(action, str):
            try:
                return action_index(action)
            except (ValueError, TypeError) as e:
                raise WebError(400, f"action: {e}") from None
        return field_int("action", action, 0, NUM_ACTIONS - 1)

    # -- records -----------------------------------------------------------------------------

    def _finish(self) -> None:
        if self.game.done and self.record_path is None and self.record_error is None:
            self._save()

    def _save(self) -> None:
        if self.folder is None:
            return
        seats = [
            {"kind": "human", "name": "you"}
            if o is None
            else {"kind": "bot" if isinstance(o, Bot) else "agent", "name": n}
            for o, n in zip(self.seats, self.names, strict=True)
        ]
        meta = {"played_by": "dominion serve", "mode": self.mode, "abandoned": self.abandoned}
        name = RECORD_NAME.format(stamp=time.strftime("%Y%m%d-%H%M%S"), token=secrets.token_hex(4))
        try:
            rec = self.game.record(players=seats, meta=meta)
            self.record_path = records.save(rec, self.folder / name)
        except (RuntimeError, OSError) as e:  # a log past its cap, a full disk
            self.record_error = f"the game's record was not saved: {e}"

    def save_if_running(self) -> None:
        """Saved as abandoned when the server lets go of a game nobody finished."""
        with self.lock:
            if not self.game.done and not self.abandoned:
                self.abandoned = True
                self._save()

    @property
    def over(self) -> bool:
        return self.game.done or self.abandoned

    # -- what a client sees ------------------------------------------------------------------

    def view(self, viewer, since=0) -> dict:
        """The game as ``viewer`` (a seat, or None: everything) may know it, with the log
        lines of the events from number ``since`` on (``events`` in the answer: the next)."""
        with self._busy():
            return self._view(viewer, since)

    def check_viewer(self, text) -> int | None:
        """``view=`` as given (a query string): 'all' or a seat number."""
        P = self.game.players
        if self.mode == "play":
            if text not in (None, str(YOU)):
                raise WebError(403, f"a played game shows only your seat: view must be {YOU}")
            return YOU
        if text in (None, "all"):
            return None
        if text not in [str(p) for p in range(P)]:
            raise WebError(400, f"view must be 'all' or a seat 0..{P - 1}, got {text!r}")
        return int(text)

    def _view(self, viewer, since) -> dict:
        g = self.game
        P = g.players
        events = g.log_events()
        shown = len(events) if self.over else settled(events, viewer)
        if not (isinstance(since, int) and 0 <= since <= shown):
            raise WebError(400, f"since must be an event number 0..{shown}, got {since!r}")
        who = P if viewer is None else viewer
        scores = self._known_vp()[who]
        zones = [g.zones(p) for p in range(P)]
        seats = [
            {
                "seat": p,
                "name": self.names[p],
                "hand_size": sum(z["hand"].values()),
                "deck_size": len(z["deck"]),
                "discard_size": sum(z["discard"].values()),
                "vp": scores[p],
                "in_play": _pairs(z["in_play"]),
            }
            for p, z in enumerate(zones)
        ]
        mine = range(P) if viewer is None else [viewer]
        cards = {
            str(p): {
                "hand": _pairs(zones[p]["hand"]),
                "aside": _pairs(zones[p]["aside"]),
                # a seat's view shows what `dominion play` shows: its hand and set-aside cards
                "discard": _pairs(zones[p]["discard"]) if viewer is None else None,
                "deck": zones[p]["deck"] if viewer is None else None,
            }
            for p in mine
        }
        decider = -1 if self.over else g.current_player
        decision = None
        if decider >= 0:
            decision = {"player": decider}
            if viewer in (None, decider):
                decision["text"] = decision_text(g.decision)
                if self.seats[decider] is None:  # a person answers: the choices, with keys
                    decision["choices"] = [
                        {"action": a, "label": label, "key": _KEYS[k] if k < len(_KEYS) else None}
                        for k, (a, label) in _numbered(play.choices(g))
                    ]
        result = None
        if self.over:
            result = {**g.result(), "abandoned": self.abandoned, "text": self._result_text()}
        supply = g.supply
        return {
            "id": self.id,
            "mode": self.mode,
            "view": "all" if viewer is None else viewer,
            "players": self.names,
            "step": self.moves,
            "turn": g.turn,
            "kingdom": [n for n in supply if n not in BASIC],
            "supply": [
                {"name": n, "cost": int(TABLE[card_id(n), COST]), "count": k, "basic": n in BASIC}
                for n, k in supply.items()
            ],
            "trash": _pairs(g.trash),
            "seats": seats,
            "cards": cards,
            "decision": decision,
            "log": log_lines(events[since:shown], viewer),
            "events": shown,
            "vp": [[turn, vp[who]] for turn, vp in self.vp],
            "result": result,
            "record": self.record_path.name if self.record_path else None,
            "record_error": self.record_error,
        }

    def _result_text(self) -> str:
        g = self.game
        if self.abandoned and not g.done:
            return f"abandoned after {g.turn['turn_number']} turns"
        if self.mode == "play":
            return play.result_line(g, ["you", *self.names[1:]])
        scores = ", ".join(f"{n} {s} VP" for n, s in zip(self.names, g.scores(), strict=True))
        if g.truncated:
            return f"Result: truncated at the turn limit ({scores})"
        winners = [self.names[p] for p in np.flatnonzero(g.rewards >= 0)]
        return f"Result: {' and '.join(winners)} won ({scores})"


def settled(events, viewer) -> int:
    """How many of the log's first ``events`` rows ``viewer`` may be sent now: all but a
    last discard row shown to every player as the top card so far (``SEEN_TOP``), which the
    owner's next pick would hide again (``zones.discard_pick`` covers the last row but the
    answers between); the next event settles it. The owner and ``viewer=None`` see every
    card of it either way."""
    n = len(events)
    i = n - 1
    while i >= 0 and events[i, 0] == EV_DECIDE:
        i -= 1
    if (
        viewer is not None
        and i >= 0
        and events[i, 0] == EV_DISCARD
        and events[i, 4] == SEEN_TOP
        and events[i, 1] != viewer
    ):
        return i
    return n


def _numbered(options: list) -> list:
    """``dominion play``'s numbering: PASS is 0 when legal, the others count from 1."""
    first = 0 if options and options[0][0] == PASS else 1
    return [(k + first, o) for k, o in enumerate(options)]


def field_int(name: str, value, lo: int, hi: int | None) -> int:
    try:
        return check_int(name, value, lo, hi)
    except (TypeError, ValueError) as e:
        raise WebError(400, str(e)) from None


class Tables:
    """The games the server holds, at most ``max_games``: a new one evicts the least recently
    used finished game, else the least recently used running one (saved as abandoned).
    ``resolve(name)`` makes a bot or agent of a name in ``known`` (the names a client may
    choose; matched ignoring case), once per name."""

    def __init__(self, resolve, known, folder=None, max_games: int = MAX_GAMES):
        self.resolve = resolve
        self.known = {n.casefold(): n for n in known}
        self.folder = Path(folder) if folder is not None else None
        self.max_games = check_int("max_games", max_games, 1)
        self.tables: dict[str, Table] = {}
        self.players: dict[str, object] = {}  # resolved once: an agent's network is loaded once
        # the store's lock guards only the dict (``get`` runs on the event loop): nothing slow
        # happens under it; loading an agent holds its own lock
        self.lock = threading.Lock()
        self.loading = threading.Lock()

    def _player(self, name):
        if not isinstance(name, str) or name.casefold() not in self.known:
            raise WebError(400, f"unknown player {name!r}; known: {', '.join(self.known.values())}")
        key = self.known[name.casefold()]
        with self.loading:
            if key not in self.players:
                self.players[key] = self.resolve(key)
            return self.players[key]

    def create(self, body) -> Table:
        """A new table from a request body: {"mode": "play" | "watch", "players": [names],
        "kingdom": "random" | a recommended set | [10 names], "seed": int}. ``players`` are
        the opponents (1 to 5) of a played game, every seat (2 to 6) of a watched one."""
        if not isinstance(body, dict):
            raise WebError(400, f"the body must be a JSON object, got {type(body).__name__}")
        extra = sorted(set(body) - set(_NEW_GAME_KEYS))
        if extra:
            raise WebError(400, f"unknown fields {extra}; allowed: {', '.join(_NEW_GAME_KEYS)}")
        mode = body.get("mode", "play")
        if mode not in MODES:
            raise WebError(400, f"mode must be one of {MODES}, got {mode!r}")
        names = body.get("players", ["Big Money"])
        lo, hi = (1, MAX_PLAYERS - 1) if mode == "play" else (MIN_PLAYERS, MAX_PLAYERS)
        if not isinstance(names, list) or not lo <= len(names) <= hi:
            raise WebError(
                400,
                f"players must be a list of {lo} to {hi} bot or agent names for a {mode} "
                f"game, got {names!r}",
            )
        try:
            seed = check_seed(body.get("seed", secrets.randbelow(2**31)))
        except (TypeError, ValueError) as e:
            raise WebError(400, str(e)) from None
        kingdom = body.get("kingdom", "random")
        players = [self._player(n) for n in names]
        canonical = [self.known[n.casefold()] for n in names]
        try:
            # check_opponents counts the person's seat; a watched game has none, so each
            # seat is checked in one of two calls (every agent against the table's size)
            check_opponents(players if mode == "play" else players[1:])
            if mode == "watch":
                check_opponents(players[:-1])
            game = Game(kingdom, len(players) + (mode == "play"), seed, turn_limit=TURN_LIMIT)
        except (ValueError, TypeError, NotImplementedError) as e:
            raise WebError(400, str(e)) from None
        seats = [None, *players] if mode == "play" else players
        names = ["you", *canonical] if mode == "play" else canonical
        table = Table(secrets.token_urlsafe(16), mode, seats, names, game, seed, self.folder)
        table.start()
        self._admit(table)
        return table

    def _admit(self, table: Table) -> None:
        gone = []
        with self.lock:
            while len(self.tables) >= self.max_games:
                done = [t for t in self.tables.values() if t.over]
                victim = min(done or self.tables.values(), key=lambda t: t.used)
                del self.tables[victim.id]
                gone.append(victim)
            self.tables[table.id] = table
        for victim in gone:  # out of the store's lock: a victim may be busy for a while
            victim.save_if_running()

    def get(self, game_id) -> Table:
        with self.lock:
            table = self.tables.get(game_id) if isinstance(game_id, str) else None
        if table is None:
            raise WebError(
                404,
                "no such game (unknown id, or evicted: the server holds "
                f"{self.max_games} games at most)",
            )
        return table

    def close(self) -> None:
        """The server stops: every game still running is saved as abandoned."""
        with self.lock:
            tables = list(self.tables.values())
        for t in tables:
            t.save_if_running()

    # -- records -----------------------------------------------------------------------------

    def record_names(self) -> list[str]:
        if self.folder is None or not self.folder.is_dir():
            return []
        return sorted((p.name for p in self.folder.glob("*.json")), reverse=True)

    def record(self, name) -> dict:
        """A record of the folder by file name (no path: a name with a folder part is refused)."""
        if (
            self.folder is None
            or not isinstance(name, str)
            or Path(name).name != name
            or not name.endswith(".json")
            or name.startswith(".")
        ):
            raise WebError(404, f"no record {name!r}")
        path = self.folder / name
        if not path.is_file():
            raise WebError(404, f"no record {name!r}")
        try:
            return records.load(path)
        except records.RecordError as e:
            raise WebError(400, str(e)) from None


def card_texts() -> dict:
    """What each card does and costs, for the page's hover texts."""
    return {
        n: {"id": card_id(n), "text": t, "cost": int(TABLE[card_id(n), COST])}
        for n, t in TEXT.items()
    }
