"""Game: one game of Dominion as a Python object, by card names.

For notebooks, tests, humans and debugging; it runs on the same compiled engine as VecGame
(a batch of one with logging on and no autoreset)::

    g = Game(["Village", "Smithy", ...], players=2, seed=7)
    g.legal_actions()          # ['Smithy', 'PASS']
    g.step("Smithy")
    print("\\n".join(g.log()))

``Game(..., opponents=compile_bots("Big Money"))`` plays learner mode (see ``vector``): bots
answer every other seat's decisions, also after ``set_scenario``.

``set_scenario`` sets every zone of every player, the Supply, the trash, whose turn it is and
the phase, then runs to the first decision: the way to test "this exact hand, this exact deck".
Draw piles are given top card first.

``clone()`` gives an independent copy for search (it shares only the fixed tables);
``snapshot()`` and ``restore()`` save and rewind the game, log included (``dominion_env.snapshot``).
"""

from __future__ import annotations

import copy
from collections import Counter

import numpy as np

from .cards import KINGDOM, NAMES, NUM_CARDS, TABLE, card_id
from .engine.batch import Scenario, bot_action_game, observe_game, scenario_game, score_game
from .engine.kingdoms import is_implemented
from .engine.layout import (
    ACTIONS,
    ASIDE,
    BUYS,
    COINS,
    DEC_CAN_PASS,
    DEC_CARD,
    DEC_COST_HI,
    DEC_COST_LO,
    DEC_COUNT,
    DEC_KIND,
    DEC_PLAYER,
    DEC_SOURCE,
    DEC_TARGET,
    DECISION_NAMES,
    DECK_LEN,
    DISCARD,
    EV_BUY,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_GAIN,
    EV_PHASE,
    EV_PLAY,
    EV_REACT,
    EV_REVEAL,
    EV_SET_ASIDE,
    EV_SHUFFLE,
    EV_TOPDECK,
    EV_TRASH,
    EV_TURN,
    HAND,
    IN_PLAY,
    IN_SUPPLY,
    LOG_LEN,
    MAX_COPIES,
    NUM_ZONES,
    PHASE,
    PHASE_ACTION,
    PHASE_BUY,
    PHASE_NAMES,
    RUNNING,
    STATUS,
    SUPPLY,
    T_ACTION,
    T_BUY,
    T_BUY_START,
    TERMINATED,
    TRASH,
    TRUNCATED,
    TURN_NUMBER,
    TURN_PLAYER,
)
from .engine.observation import split
from .names import action_index, legal_action_names
from .snapshot import Snapshot
from .vector import VecGame

_ZONES = {"hand": HAND, "discard": DISCARD, "in_play": IN_PLAY, "aside": ASIDE}
# set_scenario's phases: where the turn starts (PHASE_*, the turn frame's step)
_PHASES = {
    "action": (PHASE_ACTION, T_ACTION),
    "buy": (PHASE_BUY, T_BUY_START),
    "buying": (PHASE_BUY, T_BUY),
}


class Game:
    """One game by card names. ``kingdom``: 'random', a recommended set name, or 10 names."""

    def __init__(self, kingdom="random", players: int = 2, seed: int = 0, **options):
        self._vec = VecGame(1, players, kingdom, autoreset=False, log=True, **options)
        self.players = players
        self.reset(seed)

    # -- playing -------------------------------------------------------------------------

    def reset(self, seed: int = 0) -> "Game":
        self._vec.reset(seed)
        return self

    def legal_actions(self) -> list[str]:
        """The legal actions now, by name ('Village', 'option 0', 'PASS')."""
        return legal_action_names(self.action_mask)

    def step(self, action) -> "Game":
        """Take an action for the player who decides now, by name or by index."""
        if self.done:
            raise RuntimeError("the game is over; call reset()")
        self._vec.step(np.array([action_index(action)], dtype=np.int64))
        return self

    def bot_action_id(self, table, b: int, rng: np.ndarray) -> int:
        """The action index bot ``b`` of a compiled ``BotTable`` takes now; a random bot draws
        from ``rng``, a (1,) uint64 stream that advances with each draw."""
        if self.done:
            raise RuntimeError("the game is over; no decision is pending")
        return int(
            bot_action_game(
                self.state,
                0,
                TABLE,
                table,
                b,
                self._vec.action_mask[0],
                rng,
                self._vec.buffers.scratch[0],
            )
        )

    # -- save, restore, clone (dominion_env.snapshot) ------------------------------------

    def clone(self) -> "Game":
        """An independent copy of this game, for search: the clone owns copies of everything
        that playing changes (record, RNG streams, seats, log so far), shares the fixed
        tables, and plays on exactly as this game would for the same actions."""
        new = object.__new__(Game)
        new.__dict__ = {
            k: v.clone() if k == "_vec" else copy.deepcopy(v) for k, v in self.__dict__.items()
        }
        return new

    def snapshot(self) -> Snapshot:
        """This game as it is now, to ``restore`` later (``VecGame.snapshot``)."""
        return self._vec.snapshot()

    def restore(self, snapshot: Snapshot) -> "Game":
        """Put the game back as it was at ``snapshot`` (taken from a Game made with the same
        settings; otherwise a ValueError says what differs and nothing changes)."""
        self._vec.restore(snapshot)
        return self

    # -- what is going on ----------------------------------------------------------------

    @property
    def state(self):
        return self._vec.state

    @property
    def action_mask(self) -> np.ndarray:
        return self._vec.action_mask[0]

    @property
    def current_player(self) -> int:
        """Who decides now (-1 once the game is over)."""
        return int(self.state["game"][0, DEC_PLAYER])

    @property
    def learner_seat(self) -> int:
        """The learner's seat (a Game made with ``opponents=``), else -1."""
        return int(self._vec.learner_seat[0])

    @property
    def turn_player(self) -> int:
        return int(self.state["game"][0, TURN_PLAYER])

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.state["game"][0, PHASE])]

    @property
    def done(self) -> bool:
        return int(self.state["game"][0, STATUS]) != RUNNING

    @property
    def terminated(self) -> bool:
        return int(self.state["game"][0, STATUS]) == TERMINATED

    @property
    def truncated(self) -> bool:
        return int(self.state["game"][0, STATUS]) == TRUNCATED

    @property
    def rewards(self) -> np.ndarray:
        """(P,) +1 sole winner, 0 shared win, -1 otherwise; zeros until the game ends."""
        return self.state["reward"][0, : self.players].copy()

    @property
    def turn(self) -> dict:
        """Actions, Buys, $ and turn number of the turn in progress."""
        gm = self.state["game"][0]
        return {
            "turn_number": int(gm[TURN_NUMBER]),
            "player": int(gm[TURN_PLAYER]),
            "phase": self.phase,
            "actions": int(gm[ACTIONS]),
            "buys": int(gm[BUYS]),
            "coins": int(gm[COINS]),
        }

    @property
    def decision(self) -> dict:
        """The pending decision, by names."""
        gm = self.state["game"][0]
        src, card = int(gm[DEC_SOURCE]), int(gm[DEC_CARD])
        return {
            "kind": DECISION_NAMES[int(gm[DEC_KIND])],
            "player": int(gm[DEC_PLAYER]),
            "source": NAMES[src] if src >= 0 else None,
            "card": NAMES[card] if card >= 0 else None,
            "target": int(gm[DEC_TARGET]),
            "cost_range": (int(gm[DEC_COST_LO]), int(gm[DEC_COST_HI])),
            "count": int(gm[DEC_COUNT]),
            "can_pass": bool(gm[DEC_CAN_PASS]),
        }

    def zones(self, player: int) -> dict:
        """A player's zones by card names; 'deck' is the draw pile, top card first."""
        self._check_player(player)
        s = self.state
        out = {name: _counts(s["zone"][0, player, z]) for name, z in _ZONES.items()}
        n = int(s["player"][0, player, DECK_LEN])
        out["deck"] = [NAMES[int(c)] for c in s["deck"][0, player, :n][::-1]]
        return out

    @property
    def supply(self) -> dict:
        """Cards left per Supply pile of this game (empty piles included, as 0)."""
        s = self.state
        return {
            NAMES[c]: int(s["pile"][0, SUPPLY, c])
            for c in range(NUM_CARDS)
            if s["pile"][0, IN_SUPPLY, c]
        }

    @property
    def trash(self) -> dict:
        return _counts(self.state["pile"][0, TRASH])

    def scores(self) -> list[int]:
        """Victory points per player now (Gardens and Duke included)."""
        work = np.zeros(NUM_CARDS, np.int64)
        return [int(score_game(self.state, 0, TABLE, p, work)) for p in range(self.players)]

    def observation(self, player: int | None = None) -> np.ndarray:
        """The observation vector from ``player``'s view (default: who decides now)."""
        if player is None:
            if self.current_player < 0:
                raise RuntimeError("the game is over: name the player whose view you want")
            return self._vec.observation[0].copy()
        self._check_player(player)
        out = np.zeros(self._vec.observation.shape[1], np.float32)
        observe_game(self.state, 0, TABLE, player, self._vec.buffers, out)
        return out

    def observation_dict(self, player: int | None = None) -> dict:
        return split(self.observation(player), self.players)

    def log(self) -> list[str]:
        """The events so far, one readable line each (a perfect-information debug log).

        Repeats of one event in a row (a player drawing, playing, discarding ... the same card
        one at a time) are one line with their total: "P0 plays 4 x Copper"."""
        s = self.state
        buf = self._vec.config.log_buf
        n = min(int(s["game"][0, LOG_LEN]), buf.shape[0])
        rows: list[list[int]] = []
        for row in buf[:n]:
            ev, p, card, amount = map(int, row)
            if rows and ev in _COUNTED and rows[-1][:3] == [ev, p, card]:
                rows[-1][3] += amount
            else:
                rows.append([ev, p, card, amount])
        return [_event_text(*row) for row in rows]

    # -- scenarios -----------------------------------------------------------------------

    def set_scenario(
        self,
        *,
        hands=None,
        decks=None,
        discards=None,
        in_play=None,
        aside=None,
        supply=None,
        trash=None,
        turn_player: int = 0,
        phase: str = "action",
        actions: int = 1,
        buys: int = 1,
        coins: int = 0,
        turns_taken=None,
    ) -> "Game":
        """Put the game in an exact position and run to the first decision.

        Zones are given per player as lists of card names (``decks`` top card first) or
        name->count dicts; a player or zone left out is emptied. ``supply`` overrides pile sizes
        by name (a card not in the kingdom gets a pile). ``phase`` 'action' starts the Action
        phase with the given Actions/Buys/$; 'buy' starts the Buy phase (treasures are then
        played as configured) and 'buying' goes straight to buying with ``coins``.
        The game may hold at most 127 copies of a card in all (zones, decks, Supply, trash;
        card counts are int8); everything is checked before anything changes.
        """
        s = self.state
        P = self.players
        if not _is_count(turn_player) or turn_player >= P:
            raise ValueError(f"turn_player must be 0..{P - 1}, got {turn_player}")
        if phase not in _PHASES:
            raise ValueError(f"phase must be one of {list(_PHASES)}, got {phase!r}")
        for name, v in (("actions", actions), ("buys", buys), ("coins", coins)):
            if not _is_count(v):
                raise ValueError(f"{name} must be a non-negative int, got {v!r}")
        turns = np.zeros(P, np.int64)
        if turns_taken is not None:
            if not isinstance(turns_taken, (list, tuple, np.ndarray)) or len(turns_taken) != P:
                raise ValueError(f"turns_taken needs {P} values, got {turns_taken!r}")
            if not all(_is_count(t) for t in turns_taken):
                raise ValueError(f"turns_taken must be non-negative ints, got {turns_taken!r}")
            turns[:] = turns_taken
        # parse and check everything before writing anything: bad input leaves the game as is
        zones = [
            (p, z, _parse_cards(cards))
            for arg, z in ((hands, HAND), (discards, DISCARD), (in_play, IN_PLAY), (aside, ASIDE))
            for p, cards in self._per_player(arg).items()
        ]
        cap = s["deck"].shape[2]
        deck_ids = {}
        for p, cards in self._per_player(decks).items():
            if not isinstance(cards, (list, tuple)):
                raise TypeError("a deck is an ordered list of card names, top card first")
            ids = [card_id(n) for n in cards]
            for c in ids:
                _check_playable(c)
            if len(ids) > cap:
                raise ValueError(f"deck of {len(ids)} cards exceeds the capacity {cap}")
            deck_ids[p] = ids
        supply_counts = {} if supply is None else _parse_cards(supply, allow_zero=True)
        trash_counts = {} if trash is None else _parse_cards(trash)
        copies = Counter(trash_counts)
        for _, _, counts in zones:
            copies.update(counts)
        for ids in deck_ids.values():
            copies.update(ids)
        piles = {c: int(k) for c, k in enumerate(s["pile"][0, SUPPLY])}
        piles.update(supply_counts)
        copies.update(piles)
        for c, k in copies.items():
            if k > MAX_COPIES:
                raise ValueError(
                    f"{k} copies of {NAMES[c]} in the game; a game holds at most "
                    f"{MAX_COPIES} copies of a card (the most the rules have: "
                    f"120 Coppers with 6 players)"
                )
        # the position as arrays; the engine writes it (machine.setup_scenario)
        zone = np.zeros((P, NUM_ZONES, NUM_CARDS), np.int64)
        for p, z, counts in zones:
            zone[p, z, list(counts)] = list(counts.values())
        deck = np.zeros((P, cap), np.int64)
        deck_len = np.zeros(P, np.int64)
        for p, ids in deck_ids.items():
            deck[p, : len(ids)] = ids
            deck_len[p] = len(ids)
        new_piles = np.full(NUM_CARDS, -1, np.int64)
        new_piles[list(supply_counts)] = list(supply_counts.values())
        trash_row = np.zeros(NUM_CARDS, np.int64)
        trash_row[list(trash_counts)] = list(trash_counts.values())
        counters = (int(actions), int(buys), int(coins))
        turn = (int(turn_player), *_PHASES[phase], *counters)
        sc = Scenario(zone, deck, deck_len, new_piles, trash_row, turns, *turn)
        scenario_game(s, 0, TABLE, self._vec.config, self._vec.buffers, self._vec.opponents, sc)
        return self

    # -- helpers -------------------------------------------------------------------------

    def _check_player(self, p):
        if not isinstance(p, (int, np.integer)) or not 0 <= p < self.players:
            raise ValueError(f"player must be 0..{self.players - 1}, got {p!r}")

    def _per_player(self, arg) -> dict:
        if arg is None:
            return {}
        if isinstance(arg, dict):
            items = arg.items()
        elif (
            isinstance(arg, (list, tuple))
            and len(arg) == self.players
            and all(isinstance(x, (list, tuple, dict)) for x in arg)
        ):
            items = enumerate(arg)
        else:
            raise TypeError("give zones per player: {player: cards} or one list per player")
        out = {}
        for p, cards in items:
            self._check_player(p)
            out[int(p)] = cards
        return out


def _is_count(v) -> bool:
    """A non-negative int (a numpy int too, not a bool)."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and v >= 0


def _check_playable(c: int) -> None:
    if NAMES[c] in KINGDOM and not is_implemented(NAMES[c]):
        raise NotImplementedError(f"card effect not implemented yet: {NAMES[c]}")


def _parse_cards(cards, allow_zero: bool = False) -> dict[int, int]:
    if isinstance(cards, dict):
        items = cards.items()
    elif isinstance(cards, (list, tuple)):
        items = Counter(cards).items()
    else:
        raise TypeError(f"cards are a list of names or a name->count dict, got {cards!r}")
    out: dict[int, int] = {}
    for name, k in items:
        c = card_id(name)
        _check_playable(c)
        if not isinstance(k, (int, np.integer)) or k < 0 or (k == 0 and not allow_zero):
            raise ValueError(f"count for {name!r} must be a positive int, got {k!r}")
        out[c] = out.get(c, 0) + int(k)
    return out


def _counts(row) -> dict:
    return {NAMES[c]: int(row[c]) for c in np.flatnonzero(row)}


# events whose amount counts cards, so that repeats add up
_COUNTED = frozenset(
    {EV_DRAW, EV_PLAY, EV_BUY, EV_GAIN, EV_TRASH, EV_DISCARD, EV_TOPDECK, EV_REVEAL, EV_SET_ASIDE}
)


def _event_text(ev: int, p: int, card: int, amount: int) -> str:
    name = NAMES[card] if card >= 0 else ""
    who = f"P{p}"
    many = f"{amount} x {name}" if amount != 1 else name
    if ev == EV_TURN:
        return f"--- turn {amount}: {who} ---"
    if ev == EV_SHUFFLE:
        return f"{who} shuffles {amount} cards"
    if ev == EV_END:
        return "game over: " + ("terminated" if amount == TERMINATED else "truncated")
    if ev == EV_PHASE:
        return f"{who} starts the {PHASE_NAMES[amount]} phase"
    verbs = {
        EV_DRAW: "draws",
        EV_PLAY: "plays",
        EV_BUY: "buys",
        EV_GAIN: "gains",
        EV_TRASH: "trashes",
        EV_DISCARD: "discards",
        EV_TOPDECK: "puts onto the deck",
        EV_REVEAL: "reveals",
        EV_REACT: "reveals in reaction",
        EV_SET_ASIDE: "sets aside",
    }
    verb = verbs.get(ev, f"event {ev}")
    return f"{who} {verb} {many}"
