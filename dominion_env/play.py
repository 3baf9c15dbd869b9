"""``dominion play``: a person against library bots or trained agents, in the terminal.

    dominion play                                        # you against Big Money, random kingdom
    dominion play --opponent "Big Money Ultimate" --opponent ppo-3p --kingdom "First Game"

One seat per ``--opponent`` (a bot name, a shipped agent's name or a saved agent's .pt file),
plus yours: 2 to 6 players. You sit in seat P0; who starts is drawn from ``--seed``. At each of
your decisions the terminal shows what you may know under the rules and nothing more: your
hand (and cards you set aside), every player's hand, deck and discard sizes, VP and cards in
play, the Supply with costs, the trash, and the events since your last decision as you see them
(``Game.log(viewer)``: your own draws by name, others' as counts). Then the
pending decision and its legal actions, numbered; answer with a number or a name:

    3 | Silver | pass      the action (PASS is always 0 when it is legal)
    help Witch | ? Witch   what a card does (``cards.TEXT``)
    ? | help               these commands
    log                    the public events of the whole game so far
    quit                   leave (no record is written)

At the end: the result line ("Result: you won ...", "you lost", "shared win", or "truncated")
with every player's VP, and the game's record (``dominion_env.records``; ``--record``, default
``dominion_game.json``): who sat where, the deal and every decision, so that
``dominion replay dominion_game.json`` shows the game again, in any player's view.

Bots answer with their compiled code (``Game.bot_action_id``), agents with their network on
their own honest observation (scaled as they were trained). Nothing here imports torch: the
command line resolves agents (``cli.resolve_player``) before calling ``play``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from . import records
from .agents import Bot, compile_bots
from .analysis.mixed import is_policy
from .cards import BASIC, COST, MAX_PLAYERS, TABLE, TEXT, card_id
from .engine.kingdoms import kingdom_arg
from .engine.layout import NUM_CARDS, PASS
from .engine.observation import obs_scale
from .game import Game
from .names import decision_text, describe_action, log_lines

YOU = 0  # your seat
DEFAULT_RECORD = "dominion_game.json"
HELP = (
    "Answer with a number or a name from the list (PASS is 0); 'help CARD' or '? CARD': what "
    "a card does; 'log': the public events so far; 'quit': leave."
)


class Quit(Exception):
    """The person left the game."""


def check_opponents(opponents: list) -> list:
    """Bots and policies, 1 to 5 of them (one seat each beside yours)."""
    if not isinstance(opponents, (list, tuple)) or not 1 <= len(opponents) <= MAX_PLAYERS - 1:
        raise ValueError(
            f"opponents must be 1 to {MAX_PLAYERS - 1} bots or agents (one seat each), got "
            f"{len(opponents) if isinstance(opponents, (list, tuple)) else repr(opponents)}"
        )
    players = len(opponents) + 1
    for o in opponents:
        if not isinstance(o, Bot) and not is_policy(o):
            raise TypeError(f"an opponent is a Bot or a policy with act(obs, masks), got {o!r}")
        info = getattr(o, "info", None)
        if info is not None and getattr(info, "players", players) != players:
            raise ValueError(
                f"agent {o.name!r} plays {info.players}-player games; this table has {players} "
                f"players ({len(opponents)} opponents)"
            )
    return list(opponents)


def play(
    opponents: list,
    kingdom="random",
    seed: int = 0,
    record: str | Path | None = DEFAULT_RECORD,
    *,
    read=input,
    write=print,
    turn_limit: int = 100,
) -> Game:
    """Play one game with a person at seat 0, reading answers with ``read(prompt)`` and showing
    the game with ``write(text)``. Returns the finished game (raises ``Quit`` if they left)."""
    opponents = check_opponents(opponents)
    P = len(opponents) + 1
    game = Game(kingdom, players=P, seed=seed, turn_limit=turn_limit)
    bots = [k for k, o in enumerate(opponents) if isinstance(o, Bot)]
    table = compile_bots([opponents[k] for k in bots]) if bots else None
    bot_id = {k: i for i, k in enumerate(bots)}
    rng = np.array([seed], np.uint64)  # a Random bot's stream
    scale = obs_scale(P)
    names = ["you"] + [o.name for o in opponents]
    write(
        f"Dominion, {P} players: "
        + ", ".join(f"P{p} {n}" for p, n in enumerate(names))
        + f"; P{game.turn_player} starts.\nKingdom: {', '.join(_kingdom(game))}\n{HELP}"
    )
    seen = 0  # log events already shown (events, not lines: a line may sum several)
    while not game.done:
        p = game.current_player
        if p == YOU:
            events = game.log_events()
            write(view(game, names, log_lines(events[seen:], YOU)))
            seen = len(events)
            a = ask(game, read, write)
        else:
            o = opponents[p - 1]
            if isinstance(o, Bot):
                a = game.bot_action_id(table, bot_id[p - 1], rng)
            elif hasattr(o, "act_games"):  # search decides from the game (dominion_env.search)
                a = int(o.act_games(game._vec, [0])[0])
            else:
                obs = game.observation()
                obs = obs / scale if o.scale_observations else obs
                a = int(o.act(obs[None], game.action_mask[None].copy())[0])
        game.step(int(a))
    write("\n".join(log_lines(game.log_events()[seen:], YOU)))
    write(result_line(game, names))
    if record:
        path = save_record(game, opponents, record)
        write(f"Record: {path}")
    return game


# -- what the person sees -------------------------------------------------------------------


def view(game: Game, names: list[str], events: list[str]) -> str:
    t = game.turn
    lines = []
    if events:
        lines += ["", *events]
    whose = "your" if t["player"] == YOU else f"P{t['player']} {names[t['player']]}'s"
    lines += [
        "",
        f"=== turn {t['turn_number']}, {whose} turn, {t['phase']} phase | Actions "
        f"{t['actions']}  Buys {t['buys']}  ${t['coins']} ===",
    ]
    supply = game.supply
    piles = [f"{n} ${TABLE[card_id(n), COST]} ({k})" for n, k in supply.items()]
    basic = [x for n, x in zip(supply, piles, strict=True) if n in BASIC]
    kingdom = [x for n, x in zip(supply, piles, strict=True) if n not in BASIC]
    lines += ["Supply: " + ", ".join(basic), "        " + ", ".join(kingdom)]
    lines.append("Trash: " + _names(game.trash))
    scores = game.scores()
    w = max(len(n) for n in names) + 4
    for p, name in enumerate(names):
        z = game.zones(p)
        lines.append(
            f"{f'P{p} {name}':<{w}} hand {sum(z['hand'].values()):>2}  deck {len(z['deck']):>2}  "
            f"discard {sum(z['discard'].values()):>2}  VP {scores[p]:>3}  in play: "
            f"{_names(z['in_play'])}"
        )
    mine = game.zones(YOU)
    lines.append("Your hand: " + _names(mine["hand"]))
    if mine["aside"]:
        lines.append("Your set-aside cards: " + _names(mine["aside"]))
    return "\n".join(lines)


def choices(game: Game) -> list[tuple[int, str]]:
    """(action, label) for each legal action, PASS first (number 0), then by action index."""
    d = game.decision
    legal = [int(a) for a in np.flatnonzero(game.action_mask)]
    legal.sort(key=lambda a: -1 if a == PASS else a)
    out = []
    for a in legal:
        label = describe_action(a, d["kind"], d["source"])
        if a < NUM_CARDS and d["kind"] in ("buy", "gain"):
            label += f" (${TABLE[a, COST]})"
        out.append((a, label))
    return out


def decision_line(game: Game) -> str:
    return "Your decision: " + decision_text(game.decision)


def ask(game: Game, read, write) -> int:
    """The person's answer to the pending decision: a legal action's index."""
    options = choices(game)
    numbered = list(enumerate(options, 0 if options[0][0] == PASS else 1))
    write(decision_line(game))
    write("\n".join(f"  [{k}] {label}" for k, (_, label) in numbered))
    while True:
        try:
            text = read("> ").strip()
        except EOFError:
            raise Quit from None
        answer = parse(text, numbered, game)
        if isinstance(answer, int):
            return answer
        if answer is not None:
            write(answer)


def parse(text: str, numbered: list, game: Game):
    """An action index, or a message to show (help, an error), or None (nothing typed)."""
    words = text.split(maxsplit=1)
    if not words:
        return None
    head = words[0].lower()
    if head in ("quit", "exit"):
        raise Quit
    if head in ("help", "?"):
        return card_text(words[1]) if len(words) > 1 else HELP
    if text.startswith("?"):
        return card_text(text[1:])
    if head == "log":
        return "\n".join(game.log(YOU))
    if text.isdigit():
        for k, (a, _) in numbered:
            if k == int(text):
                return a
        return f"no choice {text}: pick {numbered[0][0]}..{numbered[-1][0]}"
    key = text.lower()
    for _, (a, label) in numbered:
        name = label.split(" (")[0].split(":")[0].lower()
        if key == name or (a == PASS and key in ("pass", "done", "no")) or key == label.lower():
            return a
    return f"{text!r} is not a legal choice now; type its number or its name ('?' for help)"


def card_text(name: str) -> str:
    key = name.strip().lower()
    for n, text in TEXT.items():
        if n.lower() == key:
            return f"{n} (${TABLE[card_id(n), COST]}): {text}"
    return f"no card {name.strip()!r}; cards: {', '.join(TEXT)}"


def result_line(game: Game, names: list[str]) -> str:
    scores = ", ".join(f"{n} {s} VP" for n, s in zip(names, game.scores(), strict=True))
    turns = game.turn["turn_number"]
    if game.truncated:
        return f"Result: truncated at the turn limit after {turns} turns, nobody wins ({scores})"
    r = game.rewards
    if r[YOU] > 0:
        outcome = "you won"
    elif r[YOU] == 0:
        outcome = "shared win"
    else:
        winners = [names[p] for p in np.flatnonzero(r >= 0)]
        outcome = f"you lost ({' and '.join(winners)} won)"
    return f"Result: {outcome} after {turns} turns ({scores})"


# -- the record -----------------------------------------------------------------------------


def save_record(game: Game, opponents: list, path) -> Path:
    """The game's record (``records``) with who sat where, written to ``path``."""
    seats = [{"kind": "human", "name": "you"}] + [
        {"kind": "bot" if isinstance(o, Bot) else "agent", "name": o.name} for o in opponents
    ]
    return records.save(game.record(players=seats, meta={"played_by": "dominion play"}), path)


# -- the command line -----------------------------------------------------------------------


def run(opponents: list, args) -> int:
    """``dominion play`` with resolved opponents."""
    try:
        play(
            opponents,
            kingdom_arg(args.kingdom),
            args.seed,
            args.record or None,
            turn_limit=args.turn_limit,
        )
    except Quit:
        print("\nleft the game; no record written")
        return 1
    except (ValueError, TypeError, NotImplementedError) as e:
        raise SystemExit(str(e)) from None
    sys.stdout.flush()
    return 0


def _names(counts: dict) -> str:
    if not counts:
        return "-"
    return ", ".join(n if k == 1 else f"{n} x{k}" for n, k in counts.items())


def _kingdom(game: Game) -> list[str]:
    return [n for n in game.supply if n not in BASIC]
