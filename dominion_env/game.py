"""Game: one game of Dominion as a Python object, by card names.

For notebooks, tests, humans and debugging; it runs on the same compiled engine as VecGame
(a batch of one with logging on and no autoreset)::

    g = Game(["Village", "Smithy", ...], players=2, seed=7)
    g.legal_actions()          # ['Smithy', 'PASS']
    g.step("Smithy")
    print("\\n".join(g.log()))          # perfect information: every player's cards
    print("\\n".join(g.log(viewer=1)))  # what player 1 may know: "P0 draws 5 cards"

The API, by what it is for:

* playing: ``step(action)`` (a name or an index), ``legal_actions()``, ``action_mask``,
  ``reset(seed, game_index)``, ``bot_action_id``; ``done``, ``terminated``, ``truncated``,
  ``rewards``, ``result()``.
* the pending decision: ``decision``, a ``Decision``: its kind, who decides, the card whose
  effect asks (``source``) and which play of a Throne Room asks it (``play`` 1 or 2,
  ``played_by``), the legal actions as (index, name, label) with the options' meanings
  ("+1 Card +1 Buy" for Pawn's option 1: ``names.OPTION_TEXT``), picks still wanted, the
  cost cap, and ``auto_resolvable`` (one legal action: ``auto_resolve=True`` would not stop
  there). ``decision.text`` says it in words. A decision with nothing to choose (PASS alone)
  never stops, auto_resolve or not; ``Decision`` lists which those are and why.
* the position: ``zones(p)`` (the draw pile in order), ``supply``, ``trash``, ``kingdom``,
  ``turn``, ``phase``, ``current_player``, ``turn_player``, ``scores()``, ``turns_taken``
  (completed turns per player); ``public(seat)``: what every player knows of a seat (sizes,
  cards in play, the known cards in its hand and on its deck, its owned cards).
* observations: ``observation(p)`` (the agent's vector), ``observation_dict(p)`` (its named
  pieces, seats rotated as the agent sees them: p is seat 0), ``observation_pieces(p)`` (named
  pieces with the per-seat ones in the players' own seat numbers).
* logs: ``log(viewer)``, ``log_events()``, ``decisions()``.
* scenarios: ``set_scenario`` sets every zone of every player, the Supply, the trash, whose
  turn it is and the phase, then runs to the first decision: the way to test "this exact
  hand, this exact deck". Draw piles are given top card first.
* records (``dominion_env.records``): ``record(players)`` is the game as versioned JSON (seed,
  game number, settings, the ``set_scenario`` position if one was set, every decision
  answered, bots' inside learner mode included, and the result); ``Game.from_record(rec)`` /
  ``Game.replay(rec)`` deal it again (and set the position) and re-step it, checking every
  decision and the result. ``reset(seed, game_index)`` deals game number ``game_index`` of the
  run seeded ``seed``: the arena's and a VecGame's game of that number.
* copies: ``clone()`` gives an independent copy for search (it shares only the fixed tables);
  ``snapshot()`` and ``restore()`` save and rewind the game, log included, ``save(path)`` and
  ``load(path)`` to and from a file (``dominion_env.snapshot``).

``Game(..., opponents=compile_bots("Big Money"))`` plays learner mode (see ``vector``): bots
answer every other seat's decisions, also after ``set_scenario``.

Positions by card names (``set_scenario``'s arguments checked and made the engine's) are
``dominion_env.positions``.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import positions, records
from .cards import KINGDOM, NAMES, NUM_CARDS, TABLE
from .checks import MAX_SEED, check_int, check_seed, is_int
from .engine.batch import bot_action_game, observe_game, scenario_game, score_game
from .engine.config import row_kingdom_ids
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
    EV_DECIDE,
    FR_CARD,
    FR_STEP,
    HAND,
    IN_PLAY,
    IN_SUPPLY,
    LOG_CAP,
    LOG_LEN,
    PHASE,
    PHASE_NAMES,
    PUBLIC_TOP,
    R0,
    RUNNING,
    SP,
    STATUS,
    SUPPLY,
    TERMINATED,
    TRASH,
    TRUNCATED,
    TURN_NUMBER,
    TURN_PLAYER,
    TURNS_TAKEN,
)
from .engine.observation import PER_SEAT_PIECES, split
from .names import (
    action_index,
    action_label,
    action_name,
    decision_text,
    legal_action_names,
    log_lines,
)
from .positions import THRONE_ROOM, counts_by_name
from .snapshot import Snapshot
from .snapshot import load as load_snapshot
from .snapshot import save as save_snapshot
from .vector import VecGame

_ATOMIC = (int, bool, str, float, type(None))  # attribute values a clone may share

_ZONES = {"hand": HAND, "discard": DISCARD, "in_play": IN_PLAY, "aside": ASIDE}

# a Throne Room frame's step while it plays its card (``base_cards.throne_room``): the play
# under way, 1st or 2nd
_THRONE_PLAY = {2: 1, 3: 2}
# the observation's pieces of one entry per seat (rotated: the viewer is seat 0); the P*C ones
# are observation.PER_SEAT_PIECES (tests/test_game_api.py checks this list against the layout)
SEAT_PIECES = (
    "turn_seat",
    "hand_size",
    "draw_size",
    "discard_size",
    "vp",
    "turns_taken",
    "dec_target",
)


@dataclass(frozen=True)
class Decision:
    """The pending decision of a Game (``Game.decision``), by names.

    ``kind``: the verb (``layout.DECISION_NAMES``: 'play_action', 'buy', 'trash', 'choose' ...;
    'none' once the game is over); ``player``: who decides (-1 once over); ``source``: the
    card whose effect asks (None for the turn's own: play an Action, play a Treasure, buy);
    ``card``: the card it is about (Vassal's, Library's, Sentry's ..., else None);
    ``target``: the seat it is about (a victim an attacker chooses for), else -1;
    ``cost_range``: (lowest, highest) cost of a card to pick ($2**20: no cap); ``count``:
    picks still wanted (Chapel, Militia ...), 0 if that does not apply; ``can_pass``: PASS is
    legal. ``played_by`` and ``play``: when the source card is being played by a Throne Room,
    'Throne Room' and which of its plays asks, 1 or 2 (a Militia's victims are asked once in
    each play); else None and None. A card that another card plays (Vassal's) is that card's,
    not the Throne Room's, even when the Vassal was Throne-Roomed.

    ``legal``: the legal actions as (index, name, label) in index order: (6, 'Chapel',
    'trash Chapel'), (53, 'option 1', '+1 Card +1 Buy') for Pawn, (59, 'PASS', 'end the
    turn') in the Buy phase (``names.action_label``; option labels are ``names.OPTION_TEXT``).
    ``auto_resolvable``: there is one legal action, so ``auto_resolve=True`` takes it without
    stopping (a Game made with ``auto_resolve=False`` stops and asks).

    A decision whose only legal action is PASS (or with none) never stops, auto_resolve or
    not: it has nothing to choose (Cellar or Chapel with an empty hand, Throne Room with no
    Action in hand, Harbinger with an empty discard pile, a Buy with no card left to
    afford), so the rules' "do as much as you can" takes it (``machine.advance``): the
    engine's rule, so that an agent is never asked a question with one answer that changes
    nothing, and records hold only real choices. Card effects also ask
    nothing where the rules leave no choice: an Action phase with no Action card in hand,
    Moneylender with no Copper, Militia's victim with 3 cards or fewer, Sentry's and Scout's
    put-back once the cards left are all of one kind (their order is no choice) (the engine's
    card modules list each card's decisions). Those are the decisions of one possible answer
    a Game never shows; every other one stops when ``auto_resolve=False``.

    Read as a dict too, as ``Game.decision`` was before: ``d["kind"]``, ``d.as_dict()``.
    """

    kind: str
    player: int
    source: str | None
    card: str | None
    target: int
    cost_range: tuple[int, int]
    count: int
    can_pass: bool
    played_by: str | None
    play: int | None
    legal: tuple[tuple[int, str, str], ...]
    auto_resolvable: bool

    def __getitem__(self, key: str):
        if key not in self.keys():
            raise KeyError(f"a Decision has no field {key!r}; fields: {self.keys()}")
        return getattr(self, key)

    def keys(self) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(self))

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.keys()}

    @property
    def text(self) -> str:
        """The decision in words (``names.decision_text``), with the play of a Throne Room:
        "trash, for Chapel, 4 to pick, 2nd play of Throne Room"."""
        words = decision_text(self)
        if self.play is not None:
            words += f", {('1st', '2nd')[self.play - 1]} play of {self.played_by}"
        return words


class Game:
    """One game by card names. ``kingdom``: 'random', a recommended set name, or 10 names."""

    def __init__(
        self, kingdom="random", players: int = 2, seed: int = 0, *, game_index: int = 0, **options
    ):
        self._vec = VecGame(1, players, kingdom, autoreset=False, log=True, **options)
        self.players = players
        self.reset(seed, game_index)

    # -- playing -------------------------------------------------------------------------

    def reset(self, seed: int = 0, game_index: int = 0) -> "Game":
        """Deal game number ``game_index`` of the run seeded ``seed`` (the game the arena and
        a VecGame reset with ``seed`` play as their game ``game_index``)."""
        self._vec.reset(seed, game_index)
        self.seed, self.game_index = int(seed), int(game_index)
        # set_scenario's position (the record's "scenario") and the dealt kingdom; {}: none
        self._scenario: dict = {}
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
            k: v.clone() if k == "_vec" else v if type(v) in _ATOMIC else copy.deepcopy(v)
            for k, v in self.__dict__.items()
        }
        return new

    def snapshot(self) -> Snapshot:
        """This game as it is now, to ``restore`` later: its VecGame's snapshot with the
        Game's own attributes (seed, game number, scenario) as ``extra``."""
        own = {k: v for k, v in self.__dict__.items() if k != "_vec"}
        return self._vec.snapshot().with_extra(own)

    def restore(self, snapshot: Snapshot) -> "Game":
        """Put the game back as it was at ``snapshot`` (from ``Game.snapshot`` of a Game made
        with the same settings; otherwise a ValueError says what differs, nothing changes)."""
        if not isinstance(snapshot, Snapshot):
            raise TypeError(
                f"snapshot must be a Snapshot (from Game.snapshot()), got {type(snapshot).__name__}"
            )
        if snapshot.extra is None:
            raise ValueError(
                "snapshot is a VecGame's: a Game restores what Game.snapshot() took "
                "(the game's seed and game number besides its arrays)"
            )
        own = {k: v for k, v in self.__dict__.items() if k != "_vec"}
        extra = dict(snapshot.extra)
        if type(extra.get("_scenario")) is bool:  # taken before records held scenarios
            extra["_scenario"] = {"kingdom": None} if extra["_scenario"] else {}
        if extra.keys() != own.keys() or any(type(extra[k]) is not type(own[k]) for k in own):
            raise ValueError(
                f"snapshot's Game attributes are {sorted(extra)}, a Game has "
                f"{sorted(own)} of types {[type(v).__name__ for v in own.values()]}"
            )
        if extra["players"] != self.players:
            raise ValueError(
                f"snapshot is of a {extra['players']}-player Game, this one has "
                f"{self.players} players"
            )
        check_seed(extra["seed"], "snapshot seed")
        check_int("snapshot game_index", extra["game_index"], 0, MAX_SEED)
        self._vec.restore(snapshot)
        self.__dict__.update(copy.deepcopy(extra))
        return self

    def save(self, path) -> Path:
        """Write ``snapshot()`` to ``path`` as a file whose loading runs no code (an .npz
        without pickle: ``dominion_env.snapshot.save``). Returns the path."""
        return save_snapshot(self.snapshot(), path)

    def load(self, path) -> "Game":
        """``restore`` the snapshot file ``path`` that ``save`` wrote (of a Game made with the
        same settings); a bad file or a refused snapshot changes nothing."""
        return self.restore(load_snapshot(path))

    # -- what is going on ----------------------------------------------------------------

    @property
    def vec(self):
        """The one-row ``VecGame`` this game plays in (row 0): what a player that decides from
        the game reads (``protocols.GamePlayer``: ``act_games(game.vec, [0])``)."""
        return self._vec

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
    def decision(self) -> Decision:
        """The pending decision, by names, with its legal actions and labels (``Decision``)."""
        gm = self.state["game"][0]
        src, card = int(gm[DEC_SOURCE]), int(gm[DEC_CARD])
        kind = DECISION_NAMES[int(gm[DEC_KIND])]
        source = NAMES[src] if src >= 0 else None
        legal = tuple(
            (int(a), action_name(a), action_label(a, kind, source))
            for a in np.flatnonzero(self.action_mask)
        )
        play = self._throne_play(src)
        return Decision(
            kind=kind,
            player=int(gm[DEC_PLAYER]),
            source=source,
            card=NAMES[card] if card >= 0 else None,
            target=int(gm[DEC_TARGET]),
            cost_range=(int(gm[DEC_COST_LO]), int(gm[DEC_COST_HI])),
            count=int(gm[DEC_COUNT]),
            can_pass=bool(gm[DEC_CAN_PASS]),
            played_by=None if play is None else NAMES[THRONE_ROOM],
            play=play,
            legal=legal,
            auto_resolvable=len(legal) == 1,
        )

    def _throne_play(self, src: int) -> int | None:
        """1 or 2 when card ``src`` asks in the 1st or 2nd play a Throne Room gives it: its
        frame (the topmost of that card: a reaction window may sit above an Attack's) lies
        right on a Throne Room's frame that is playing that card."""
        if src < 0 or self.done:
            return None
        fr = self.state["frame"][0]
        for f in range(int(self.state["game"][0, SP]) - 1, 0, -1):
            if fr[f, FR_CARD] == src:
                below = fr[f - 1]
                if below[FR_CARD] == THRONE_ROOM and below[R0] == src:
                    return _THRONE_PLAY.get(int(below[FR_STEP]))
                return None
        return None

    @property
    def turns_taken(self) -> list[int]:
        """Completed turns per player (the rules' tie-break: fewer turns wins a tied score)."""
        return [int(t) for t in self.state["player"][0, : self.players, TURNS_TAKEN]]

    def public(self, seat: int) -> dict:
        """What every player knows of ``seat`` now: its hand, draw pile and discard sizes,
        cards in play, turns taken; ``public_hand``: the cards every player knows to be in
        its hand (revealed, gained to hand ...: a lower bound of the hand); ``public_top``:
        the cards on top of its draw pile every player knows, top card first; ``owned``:
        the cards it owns as every player knows them (gains and trashes are public; with 3+
        players, Masquerade passes are known only to the two players of each pass, so these
        counts leave them out: the seat counts what it passed and not what it received; a
        count may go negative, see the observation's ``owned``). Card counts by name.
        The same facts as the observation's public pieces (``observation_pieces``) of any
        player who took part in none of the seat's passes."""
        self._check_player(seat)
        s, p = self.state, seat
        zone = s["zone"][0, p].astype(np.int64)
        owned = zone.sum(axis=0) + s["deck_count"][0, p]
        if self.players > 2:
            owned = owned - s["masq_in"][0, p] + s["masq_out"][0, p]
        n, k = int(s["player"][0, p, DECK_LEN]), int(s["player"][0, p, PUBLIC_TOP])
        return {
            "hand_size": int(zone[HAND].sum()),
            "draw_size": n,
            "discard_size": int(zone[DISCARD].sum()),
            "in_play": counts_by_name(zone[IN_PLAY]),
            "turns_taken": int(s["player"][0, p, TURNS_TAKEN]),
            "public_hand": counts_by_name(s["pub_hand"][0, p]),
            "public_top": [NAMES[int(c)] for c in s["deck"][0, p, n - k : n][::-1]],
            "owned": counts_by_name(owned),
        }

    def zones(self, player: int) -> dict:
        """A player's zones by card names; 'deck' is the draw pile, top card first."""
        self._check_player(player)
        s = self.state
        out = {name: counts_by_name(s["zone"][0, player, z]) for name, z in _ZONES.items()}
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
        return counts_by_name(self.state["pile"][0, TRASH])

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
        """The observation from ``player``'s view as named pieces (``observation.split``):
        views into one vector, seats rotated as the agent sees them (``player`` is seat 0).
        For seats by their own numbers, see ``observation_pieces``."""
        return split(self.observation(player), self.players)

    def observation_pieces(self, seat: int) -> dict[str, np.ndarray]:
        """``seat``'s observation (what that player may know now) as named pieces, each its
        own array, with the per-seat pieces indexed by the players' own seat numbers:
        ``pieces["owned"][2]`` is player 2's owned cards as ``seat`` knows them,
        ``pieces["hand_size"][0]`` player 0's hand size, whoever ``seat`` is (the agent's
        vector puts the viewer first: ``observation_dict``). Card pieces are indexed by card
        id (``cards.NAMES``); values are the vector's (scaled when the Game was made with
        ``scale_observations=True``)."""
        self._check_player(seat)
        out = {}
        for name, piece in split(self.observation(seat), self.players).items():
            if name in SEAT_PIECES or name in PER_SEAT_PIECES:
                piece = np.roll(piece, seat, axis=0)  # rotated seat k is player seat + k
            out[name] = piece.copy()
        return out

    def log(self, viewer: int | None = None) -> list[str]:
        """The events so far, one readable line each (``names.log_lines``).

        ``viewer=None`` (the default): the perfect-information log, every player's cards
        shown ("P1 draws 3 x Copper, ..."), for debugging. ``viewer=p``: what player p may
        know, the cards it does not see left out ("P1 draws 5 cards"). Repeats of one event
        in a row are one line with their total: "P0 plays 4 x Copper"."""
        if viewer is not None:
            self._check_player(viewer)
        return log_lines(self.log_events(), viewer)

    def log_events(self) -> np.ndarray:
        """The raw events so far, a copy: (n, 5) int32 rows (event ``layout.EV_*``, player,
        card id or -1, amount, seen: bit set of the players who see the card, -1 all)."""
        buf = self._vec.config.log_buf
        n = min(int(self.state["game"][0, LOG_LEN]), buf.shape[0])
        return buf[:n].copy()

    # -- records -------------------------------------------------------------------------

    def decisions(self) -> list[tuple[int, int]]:
        """Every decision answered so far, in order, as (player, action index): the players'
        and, in learner mode, the bots' (auto-resolved decisions are not listed)."""
        s = self.state
        n = int(s["game"][0, LOG_LEN])
        if n > LOG_CAP:
            raise RuntimeError(
                f"this game logged {n} events, more than the log keeps ({LOG_CAP}): its "
                f"decisions are not all known"
            )
        buf = self._vec.config.log_buf[:n]
        rows = buf[buf[:, 0] == EV_DECIDE]
        return [(int(p), int(a)) for p, a in rows[:, 1:3]]

    def settings(self) -> dict:
        """Everything that made this game besides its seed and actions, as a record keeps it
        (``records``): players, how the kingdom was asked for, the rules options."""
        cfg, setup = self._vec.config, self._vec.setup
        ids = row_kingdom_ids(setup, 0)
        return {
            "players": self.players,
            "kingdom": "random" if ids is None else [NAMES[int(c)] for c in ids],
            "pool": [NAMES[int(c)] for c in setup.pool] if ids is None else None,
            "autoplay_treasures": bool(cfg.autoplay_treasures),
            "auto_resolve": bool(cfg.auto_resolve),
            "turn_limit": int(cfg.turn_limit),
            "first_player": None if cfg.first_player < 0 else int(cfg.first_player),
        }

    @property
    def kingdom(self) -> list[str]:
        """The 10 kingdom cards of this game, in card-id order."""
        pile = self.state["pile"][0]
        return [NAMES[c] for c in range(NUM_CARDS) if pile[IN_SUPPLY, c] and NAMES[c] in KINGDOM]

    def result(self) -> dict:
        """Status ('running', 'terminated', 'truncated'), rewards, scores and turns now."""
        status = "terminated" if self.terminated else "truncated" if self.truncated else "running"
        return {
            "status": status,
            "rewards": [int(r) for r in self.rewards],
            "scores": self.scores(),
            "turns": int(self.state["game"][0, TURN_NUMBER]),
        }

    def record(self, players=None, meta: dict | None = None) -> dict:
        """This game (finished or not) as a record (``dominion_env.records``): seed, settings,
        the ``set_scenario`` position if one was set (then the decisions since), every
        decision and the result. ``players``: who sat in each seat, one entry per seat
        (``records.player_entries``); ``meta``: any JSON-able facts to keep beside it."""
        sc = self._scenario
        if sc and "position" not in sc:
            raise RuntimeError(
                "this game's set_scenario position is unknown (it was restored from a snapshot "
                "taken before records held scenarios): it has no record"
            )
        return records.build(
            seed=self.seed,
            game_index=self.game_index,
            players=records.player_entries(players, self.players),
            kingdom=sc["kingdom"] if sc else self.kingdom,
            settings=self.settings(),
            decisions=self.decisions(),
            result=self.result(),
            meta=meta,
            scenario={"position": sc["position"], "rng": sc["rng"]} if sc else None,
            # a replayed v5-v7 game goes on with their one stream: it is one of their games
            engine_version=records.SHARED_STREAM_VERSION
            if self._vec.config.shared_stream
            else records.ENGINE_VERSION,
        )

    @classmethod
    def replay(cls, record, *, check_version: bool = True):
        """Replay ``record`` decision by decision: yields (i, game) with the game at decision
        i (before it is taken) for every recorded decision, then (len(decisions), game) at the
        end, once the result is checked. Raises ``records.RecordError`` for a bad record or
        another engine version (``check_version=False`` tries anyway) and
        ``records.ReplayMismatch`` where the game leaves the record. The game is the same
        object throughout: copy what you keep."""
        rec = records.check(record, check_version=check_version)
        g = cls._dealt(rec)
        decisions = rec["decisions"]
        for i, d in enumerate(decisions):
            where = f"decision {i} of {len(decisions)} (turn {g.turn['turn_number']})"
            if g.done:
                raise records.ReplayMismatch(
                    f"{where}: the replayed game is already over, the record goes on", i
                )
            yield i, g
            a = d["index"]
            g._check_recorded(d, where, i)
            g.step(a)
        got, want = g.result(), rec["result"]
        if got != want:
            diff = {k: (want[k], got[k]) for k in got if got[k] != want.get(k)}
            raise records.ReplayMismatch(
                f"the replayed game's result differs from the record's (recorded, replayed): "
                f"{diff}",
                len(decisions),
            )
        yield len(decisions), g

    @classmethod
    def _dealt(cls, rec: dict) -> "Game":
        """The checked record's game dealt again, at its scenario's position if it has one."""
        st = rec["settings"]
        try:
            g = cls(
                st["kingdom"],
                st["players"],
                rec["seed"],
                game_index=rec["game_index"],
                pool=st["pool"],
                autoplay_treasures=st["autoplay_treasures"],
                auto_resolve=st["auto_resolve"],
                turn_limit=st["turn_limit"],
                first_player=st.get("first_player"),
            )
        except (ValueError, TypeError, NotImplementedError) as e:
            raise records.RecordError(f"the record's settings do not make a game: {e}") from None
        if records.shared_stream(rec):  # an older engine's game: dealt again, its way
            g._vec.config = g._vec.config._replace(shared_stream=1)
            g.reset(rec["seed"], rec["game_index"])
        if g.kingdom != rec["kingdom"]:
            raise records.ReplayMismatch(
                f"replay dealt the kingdom {g.kingdom}, the record has {rec['kingdom']}", 0
            )
        sc = rec.get("scenario")  # format 1 records have none
        if sc is not None:
            rng = g.state["rng"][0, 0]
            g.state["rng"][0, 0] = sc["rng"]  # before the position: its first turn may shuffle
            try:
                g.set_scenario(**sc["position"])
            except (ValueError, TypeError, KeyError, NotImplementedError) as e:
                g.state["rng"][0, 0] = rng
                raise records.RecordError(
                    f"the record's scenario does not make a position: {e}"
                ) from None
        return g

    def _check_recorded(self, d: dict, where: str, i: int) -> None:
        """The recorded decision ``d`` (number ``i``) is this game's now: its player, and its
        action named as recorded and legal; ``records.ReplayMismatch`` otherwise."""
        a = d["index"]
        if action_name(a) != d["action"]:
            raise records.ReplayMismatch(
                f"{where}: the record names action {d['action']!r} but its index {a} is "
                f"{action_name(a)!r}",
                i,
            )
        if self.current_player != d["player"]:
            raise records.ReplayMismatch(
                f"{where}: player {self.current_player} decides in the replay, the record "
                f"has player {d['player']} ({d['action']!r})",
                i,
            )
        if not self.action_mask[a]:
            raise records.ReplayMismatch(
                f"{where}: {d['action']!r} is not legal for player {d['player']} "
                f"({self.decision.kind}); legal: {self.legal_actions()}",
                i,
            )

    @classmethod
    def from_record(cls, record, *, check_version: bool = True) -> "Game":
        """The game of ``record`` replayed to its end and checked (see ``replay``)."""
        *_, (_, g) = cls.replay(record, check_version=check_version)
        return g

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
        card counts are int8), at most 490 cards in all (a draw pile's capacity) and at most
        28 Throne Rooms (``layout.MAX_THRONE_ROOMS``: a chain must fit the frame stack);
        ``actions``, ``buys`` and ``coins`` are ints 0..10000, ``turns_taken`` ints
        0..turn_limit. Everything is checked before anything changes: on an error the game
        is as it was. The game keeps the position whole (every zone, every pile) and its RNG
        state then: ``record()`` holds them, and the record replays from that position.
        """
        sc, position = positions.build_position(
            self.state,
            self.players,
            self._vec.config.turn_limit,
            hands=hands,
            decks=decks,
            discards=discards,
            in_play=in_play,
            aside=aside,
            supply=supply,
            trash=trash,
            turn_player=turn_player,
            phase=phase,
            actions=actions,
            buys=buys,
            coins=coins,
            turns_taken=turns_taken,
        )
        s = self.state
        self._scenario = {
            "position": position,
            "rng": int(s["rng"][0, 0]),
            "kingdom": self._scenario.get("kingdom") or self.kingdom,  # the dealt one
        }
        scenario_game(s, 0, TABLE, self._vec.config, self._vec.buffers, self._vec.opponents, sc)
        return self

    # -- helpers -------------------------------------------------------------------------

    def _check_player(self, p):
        if not is_int(p) or not 0 <= p < self.players:
            raise ValueError(f"player must be 0..{self.players - 1}, got {p!r}")
