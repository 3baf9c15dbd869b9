"""Golden playthroughs: whole games written out as readable text traces (OpenSpiel-style).

Run ``python tests/golden/regenerate.py`` to (re)write ``tests/golden/<name>.txt`` for every
game in ``GAMES``; ``tests/test_golden.py`` plays every game again in memory and compares it
line by line with the file. A difference means the engine's games changed: read the diff, and
if the change is intended, regenerate and commit the new traces with the change.

Each game is a ``dominion_env.Game`` (public API only: names, ``decision``, ``legal_actions``,
``step``, ``log``, ``zones``, ``supply``, ``scores``, ``rewards``) driven by a small seeded
policy (``Policy``): it draws from a ``numpy`` Generator (``random()`` only, one stream per
game) among the legal actions, prefers playing Actions and buying the cards of a per-game
wish list, so that games end in a readable number of decisions. A trace stops at ``max_decisions``
and then says that it was truncated.

Trace layout (see any .txt file): a header; the setup's log lines; then per decision
``#n turn t Pp | kind [from Source] [...] | A/B/$ of the turn | legal: ...``, the action taken
(``-> ...``) and the log lines the action caused (indented); at the end of each turn the zones
of the player whose turn it was (taken at the next decision), the VP and the empty piles; at
the end the zones of every player, the Supply, the trash, the scores and the rewards.
``Game.log()`` merges repeats of one event into one line ("P0 discards 2 x Copper"); when a
decision's events extend the previous decision's last log line, the trace shows only the
increment, so that every event is written once.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import dominion_env
from dominion_env import RECOMMENDED, Game
from dominion_env.vector import VERSION

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class GameSpec:
    """One golden game: where it is played and how the policy plays it."""

    name: str
    about: str
    kingdom: str | tuple[str, ...]
    players: int
    seed: int
    policy_seed: int
    # buy/gain preferences by card name (weight; a card not named weighs `other`)
    wishes: dict[str, float] = field(default_factory=dict)
    other: float = 1.0
    max_decisions: int = 400


_MONEY = {
    "Province": 100.0,
    "Gold": 30.0,
    "Duchy": 4.0,
    "Silver": 8.0,
    "Estate": 0.3,
    "Copper": 0.2,
    "Curse": 0.0,
}

GAMES: tuple[GameSpec, ...] = (
    GameSpec(
        name="first_game_2p",
        about="2 players on the Base rulebook's First Game kingdom",
        kingdom="First Game",
        players=2,
        seed=1,
        policy_seed=11,
        wishes={
            **_MONEY,
            "Market": 12,
            "Smithy": 10,
            "Militia": 10,
            "Moat": 3,
            "Village": 4,
            "Remodel": 4,
            "Mine": 4,
            "Cellar": 2,
            "Merchant": 4,
            "Workshop": 2,
        },
    ),
    GameSpec(
        name="underlings_3p",
        about="3 players on Intrigue's Underlings: Masquerade, Minion, Witch, Baron, Pawn",
        kingdom="Underlings",
        players=3,
        seed=2,
        policy_seed=22,
        wishes={
            **_MONEY,
            "Witch": 14,
            "Minion": 15,
            "Masquerade": 10,
            "Library": 7,
            "Festival": 5,
            "Nobles": 6,
            "Baron": 4,
            "Steward": 5,
            "Pawn": 3,
            "Cellar": 2,
        },
    ),
    GameSpec(
        name="intrigue_attacks_3p",
        about="3 players: attacks (Militia, Minion, Torturer, Swindler) against Moat and "
        "Secret Chamber, and Masquerade",
        kingdom=(
            "Moat",
            "Secret Chamber",
            "Masquerade",
            "Minion",
            "Torturer",
            "Militia",
            "Swindler",
            "Courtyard",
            "Wishing Well",
            "Great Hall",
        ),
        players=3,
        seed=3,
        policy_seed=33,
        wishes={
            **_MONEY,
            "Torturer": 20,
            "Minion": 18,
            "Militia": 7,
            "Masquerade": 9,
            "Swindler": 8,
            "Moat": 8,
            "Secret Chamber": 8,
            "Courtyard": 5,
            "Wishing Well": 3,
            "Great Hall": 3,
        },
    ),
    GameSpec(
        name="piles_5p",
        about="5 players buying cheap kingdom cards (Witch against Moats in 4 other seats): "
        "the game goes on with 3 empty piles and ends on 4",
        kingdom=(
            "Cellar",
            "Moat",
            "Village",
            "Workshop",
            "Woodcutter",
            "Festival",
            "Market",
            "Ironworks",
            "Great Hall",
            "Witch",
        ),
        players=5,
        seed=9,
        policy_seed=55,
        wishes={
            "Province": 20,
            "Gold": 3,
            "Duchy": 2,
            "Silver": 1,
            "Estate": 0.5,
            "Copper": 0.1,
            "Curse": 0.0,
            "Witch": 40,
            "Workshop": 25,
            "Woodcutter": 25,
            "Ironworks": 25,
            "Moat": 24,
            "Village": 20,
            "Cellar": 15,
            "Great Hall": 20,
            "Festival": 15,
            "Market": 15,
        },
    ),
    GameSpec(
        name="throne_room_2p",
        about="2 players on Deconstruction: Throne Room on Remodel, Swindler, Thief, Spy, ...",
        kingdom="Deconstruction",
        players=2,
        seed=4,
        policy_seed=44,
        wishes={
            **_MONEY,
            "Throne Room": 25,
            "Remodel": 10,
            "Swindler": 8,
            "Thief": 6,
            "Spy": 6,
            "Saboteur": 6,
            "Torturer": 10,
            "Mining Village": 6,
            "Secret Chamber": 4,
            "Bridge": 4,
        },
    ),
)


class Policy:
    """A small seeded policy over legal action names (deterministic given its seed)."""

    def __init__(self, spec: GameSpec):
        self.spec = spec
        self.rng = np.random.default_rng(spec.policy_seed)

    def _uniform(self) -> float:
        return float(self.rng.random())

    def _weighted(self, names: list[str], weights: list[float]) -> str:
        total = sum(weights)
        if total <= 0:
            return names[int(self._uniform() * len(names))]
        u = self._uniform() * total
        acc = 0.0
        for n, w in zip(names, weights, strict=True):
            acc += w
            if u < acc:
                return n
        return names[-1]

    def _wish(self, name: str) -> float:
        return self.spec.wishes.get(name, self.spec.other)

    def choose(self, decision: dict, legal: list[str]) -> str:
        kind = decision["kind"]
        cards = [a for a in legal if a != "PASS"]
        if not cards:
            return legal[0]
        if kind in ("play_action", "play_twice", "play_treasure"):
            # play something almost always; PASS now and then
            if "PASS" in legal and self._uniform() < 0.05:
                return "PASS"
            return self._weighted(cards, [1.0] * len(cards))
        if kind in ("buy", "gain"):
            # mostly the most wished-for card; sometimes a weighted draw (PASS weighs 0.5)
            names = legal
            weights = [0.5 if a == "PASS" else self._wish(a) for a in legal]
            if self._uniform() < 0.7:
                return names[int(np.argmax(weights))]
            return self._weighted(names, weights)
        if kind == "react":
            return cards[0] if self._uniform() < 0.75 else "PASS"
        # everything else (discard, trash, choose, name, pass_card, topdeck, order):
        # uniform over the legal actions, PASS included where it is legal
        return self._weighted(legal, [1.0] * len(legal))


_VERBS = (
    "draws",
    "plays",
    "buys",
    "gains",
    "trashes",
    "discards",
    "puts onto the deck",
    "reveals",
    "sets aside",
)
_COUNTED_LINE = re.compile(rf"^(P\d+) ({'|'.join(_VERBS)}) (?:(\d+) x )?(.+)$")


def new_log_lines(before: list[str], after: list[str]) -> list[str]:
    """The events in ``after`` that are not in ``before`` (``after`` extends ``before``; only
    its last line may have grown, when new events repeat it: then its increment is given)."""
    k = 0
    while k < len(before) and k < len(after) and before[k] == after[k]:
        k += 1
    if k == len(before):
        return after[k:]
    if k != len(before) - 1:
        raise AssertionError(f"the log changed before its last line: {before[k]!r}")
    old, new = _COUNTED_LINE.match(before[k]), _COUNTED_LINE.match(after[k])
    if not old or not new or old.group(1, 2, 4) != new.group(1, 2, 4):
        raise AssertionError(f"log line {before[k]!r} became {after[k]!r}")
    extra = int(new.group(3) or 1) - int(old.group(3) or 1)
    who, verb, _, name = new.groups()
    many = f"{extra} x {name}" if extra != 1 else name
    return [f"{who} {verb} {many}"] + after[k + 1 :]


def _counts(d: dict) -> str:
    return ", ".join(f"{k} {n}" if k != 1 else n for n, k in d.items()) or "-"


def _zones(g: Game, p: int) -> list[str]:
    z = g.zones(p)
    deck = z["deck"]
    lines = [
        f"  P{p} hand: {_counts(z['hand'])}",
        f"  P{p} deck ({len(deck)}, top first): {', '.join(deck) or '-'}",
        f"  P{p} discard: {_counts(z['discard'])}",
        f"  P{p} in play: {_counts(z['in_play'])}",
    ]
    if z["aside"]:
        lines.append(f"  P{p} aside: {_counts(z['aside'])}")
    return lines


def _supply(g: Game) -> str:
    return ", ".join(f"{name} {k}" for name, k in g.supply.items())


def _empty_piles(g: Game) -> str:
    return ", ".join(n for n, k in g.supply.items() if k == 0) or "none"


def _scores(g: Game) -> str:
    return ", ".join(f"P{p} {v}" for p, v in enumerate(g.scores()))


def _describe(d: dict) -> str:
    parts = [d["kind"]]
    if d["source"] is not None:
        parts.append(f"from {d['source']}")
    if d["card"] is not None:
        parts.append(f"card {d['card']}")
    if d["target"] >= 0:
        parts.append(f"target P{d['target']}")
    if d["count"]:
        parts.append(f"count {d['count']}")
    lo, hi = d["cost_range"]
    if d["kind"] in ("buy", "gain") and hi < 1000:
        parts.append(f"cost ${lo}-${hi}")
    return " ".join(parts)


def trace(spec: GameSpec) -> str:
    """Play ``spec``'s game and return its trace (deterministic: same text every run)."""
    g = Game(spec.kingdom, players=spec.players, seed=spec.seed)
    policy = Policy(spec)
    kingdom = RECOMMENDED[spec.kingdom] if isinstance(spec.kingdom, str) else spec.kingdom
    set_name = f"{spec.kingdom}: " if isinstance(spec.kingdom, str) else ""
    out = [
        f"# golden trace {spec.name}: {spec.about}",
        "# written by tests/golden/regenerate.py, checked by tests/test_golden.py",
        f"# engine: dominion_env {dominion_env.__version__}, dominion_env.vector.VERSION {VERSION}",
        f"# kingdom: {set_name}{', '.join(kingdom)}",
        f"# players: {spec.players}  game seed: {spec.seed}  policy seed: {spec.policy_seed}  "
        f"decision cap: {spec.max_decisions}",
        "# options: defaults (treasures auto-played; a decision with one legal action is "
        "taken automatically)",
        "# legend: #n turn t Pp | decision (kind, source, ...) | Actions/Buys/$ of the turn | "
        "legal actions; '-> x' = action taken, indented lines = its log events",
        "",
        "== setup ==",
        f"  supply: {_supply(g)}",
    ]
    log = g.log()
    out += [f"    {line}" for line in log]
    n = 0
    while not g.done and n < spec.max_decisions:
        n += 1
        d, legal, t = g.decision, g.legal_actions(), g.turn
        p = g.current_player
        whose = "" if p == t["player"] else f" (in P{t['player']}'s turn)"
        out.append(
            f"#{n} turn {t['turn_number']} P{p}{whose} | {_describe(d)} | "
            f"A{t['actions']} B{t['buys']} ${t['coins']} | legal: {', '.join(legal)}"
        )
        action = policy.choose(d, legal)
        g.step(action)
        out.append(f"  -> {action}")
        after = g.log()
        out += [f"    {line}" for line in new_log_lines(log, after)]
        log = after
        if g.done or g.turn["turn_number"] != t["turn_number"]:
            tp = t["player"]
            out.append(f"== end of turn {t['turn_number']} (P{tp}); P{tp}'s zones now ==")
            out += _zones(g, tp)
            out.append(f"  VP: {_scores(g)}; empty piles: {_empty_piles(g)}")
    out.append("")
    if g.done:
        out.append(
            f"== game over after {n} decisions: "
            f"{'terminated' if g.terminated else 'truncated (turn limit)'} =="
        )
    else:
        out.append(
            f"== TRUNCATED by the trace's decision cap ({spec.max_decisions}): the game "
            "was not finished =="
        )
    for p in range(spec.players):
        out += _zones(g, p)
    out.append(f"  supply: {_supply(g)}")
    out.append(f"  empty piles: {_empty_piles(g)}")
    out.append(f"  trash: {_counts(g.trash)}")
    out.append(f"  scores: {_scores(g)}")
    out.append("  rewards: " + ", ".join(f"P{p} {int(r):+d}" for p, r in enumerate(g.rewards)))
    return "\n".join(out) + "\n"


def path_of(spec: GameSpec) -> Path:
    return HERE / f"{spec.name}.txt"


def main(argv: list[str]) -> int:
    names = set(argv)
    for spec in GAMES:
        if names and spec.name not in names:
            continue
        text = trace(spec)
        path_of(spec).write_text(text, encoding="utf-8")
        print(
            f"wrote {path_of(spec).relative_to(HERE.parent.parent)} "
            f"({len(text.encode())} bytes, {text.count(chr(10))} lines)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
