"""``dominion play``: a person against library bots or trained agents, in the terminal.

    dominion play                                        # you against Big Money, random kingdom
    dominion play --opponent "Big Money Ultimate" --opponent ppo-3p --kingdom "First Game"

One seat per ``--opponent`` (a bot name, a shipped agent's name or a saved agent's file),
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
    quit                   leave (the game so far is saved, see below)

Anything else is answered and asked again: numbers are ASCII digits (``²`` or ``٣`` are not
taken for 2 or 3), an unknown name gets a hint; no line ends the game. Lines are read as bytes
(``read_line``), so a line holding a NUL byte is answered at once.

At the end: the result line ("Result: you won ...", "you lost", "shared win", or "truncated")
with every player's VP, and the game's record (``dominion_env.records``; ``--record``, default
``dominion_game.json``): who sat where, the deal and every decision, so that
``dominion replay dominion_game.json`` shows the game again, in any player's view.

Leaving early never loses the game: ``quit``, the end of input (Ctrl-D, a closed pipe) and
Ctrl-C all save the record of the game so far (result status "running") and say where, in
one line, without a traceback. Exit status: 0 for a game played to its end, 1 when the person
left (quit, or the input ended: the game is not finished, which a script should see), 130 for
Ctrl-C (the shell's convention for SIGINT). Ctrl-C while the game steps waits for the step to
end, so the record is always of a whole game. An error on the way (an agent that fails) saves
the record too, before it is raised. ``dominion play --resume RECORD`` (``resume``)
replays such a record, checking every decision and asking each bot again at its own (so a
random bot's stream goes on where it stopped), and goes on at the person's next decision; the
record fixes the opponents, kingdom, seed and turn limit, and the record is written back to
RECORD unless ``--record`` says otherwise. If the record cannot be written where asked, it is
written to a new file in the temporary folder and that is said.

Who answers each seat (bots with their compiled code, agents with their network on their own
honest observation, the search from the game) is ``dominion_env.seats``, shared with ``dominion
serve``; this module is the terminal's face. Nothing here imports torch: the command line
resolves agents (``players.resolve_player``) before calling ``play``.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from . import records
from .agents import Bot
from .cards import BASIC, COST, TABLE, TEXT, card_id
from .engine.kingdoms import kingdom_arg
from .engine.layout import NUM_CARDS, PASS
from .game import Game
from .names import action_name, decision_text, describe_action, log_lines, printable
from .seats import YOU, check_opponents, seat_players

DEFAULT_RECORD = "dominion_game.json"
MAX_ANSWER_DIGITS = 6  # longer numbers name no choice (and int() of 4,300+ digits raises)
HELP = (
    "Answer with a number or a name from the list (PASS is 0); 'help CARD' or '? CARD': what "
    "a card does; 'log': the public events so far; 'quit': leave."
)


class Quit(Exception):
    """The person left before the end: ``why`` is "quit" (they typed it), "eof" (the input
    ended) or "interrupt" (Ctrl-C); ``game`` is the game so far, ``path`` where its record was
    saved (None: no record was asked for)."""

    def __init__(self, why: str = "quit", game: Game | None = None, path: Path | None = None):
        super().__init__(why)
        self.why, self.game, self.path = why, game, path


def check_files(files, n: int) -> list:
    """``files`` (None, or per opponent a file name or None) as a list of ``n``."""
    if files is None:
        return [None] * n
    if (
        not isinstance(files, (list, tuple))
        or len(files) != n
        or any(f is not None and not isinstance(f, str) for f in files)
    ):
        raise ValueError(
            f"files must be one file name (str) or None per opponent ({n}), got {files!r}"
        )
    return list(files)


class Table:
    """A game with the person in seat 0 and ``opponents`` in seats 1..: their compiled bots
    and the stream a random bot draws from (seeded with the game's seed). ``files``: per
    opponent, the agent file it was loaded from, or None (kept in the record, for --resume:
    a file agent's own name does not find its file)."""

    def __init__(self, game: Game, opponents: list, files: list | None = None):
        self.game, self.opponents = game, opponents
        self.files = check_files(files, len(opponents))
        self.answer = seat_players([None, *opponents], game.seed)
        self.names = ["you"] + [printable(o.name) for o in opponents]  # as the terminal shows
        self.seen = 0  # log events already shown (events, not lines: a line may sum several)

    def opponent_action(self) -> int:
        """What the opponent deciding now plays."""
        return self.answer(self.game)


def resume_names(record: dict) -> list[str]:
    """The opponents of a ``dominion play`` record whose game is not over (seat 0 the person,
    every other seat a bot or an agent), as names to resolve: a bot's or shipped agent's name,
    or the file an agent was loaded from; ValueError saying what else the record is."""
    rec = records.check(record)
    status = rec["result"]["status"]
    if status != "running":
        raise ValueError(f"the game of this record is over ({status}): nothing to resume")
    seats = rec["players"]
    if seats[YOU]["kind"] != "human" or any(
        s["kind"] not in ("bot", "agent")
        or not isinstance(s.get("name"), str)
        or not isinstance(s.get("file", ""), str)
        for s in seats[1:]
    ):
        raise ValueError(
            "a game to resume has the person in seat 0 (kind 'human') and a named bot or agent "
            f"in every other seat, as dominion play writes it; this record has "
            f"{[(s['kind'], s.get('name')) for s in seats]}"
        )
    return [s.get("file") or s["name"] for s in seats[1:]]


def resume(record: dict, opponents: list) -> Table:
    """The table of an unfinished ``dominion play`` record, replayed to its last decision
    (``Game.replay``: each decision checked). ``opponents`` are the record's (``resume_names``,
    resolved); each bot is asked again at its recorded decisions, so a random bot's stream goes
    on where it stopped, and a bot that would have played otherwise is refused."""
    resume_names(record)
    names = [s["name"] for s in record["players"][1:]]
    opponents = check_opponents(opponents)
    got = [o.name for o in opponents]
    if [n.casefold() for n in got] != [n.casefold() for n in names]:
        raise ValueError(f"opponents must be the record's {names}, got {got}")
    decisions = record["decisions"]
    table = None
    for i, g in Game.replay(record):
        if table is None:
            table = Table(g, opponents, [s.get("file") for s in record["players"][1:]])
        if i == len(decisions):
            break
        p = decisions[i]["player"]
        if p == YOU:
            table.seen = len(g.log_events())
        elif isinstance(opponents[p - 1], Bot):
            a = table.opponent_action()
            if a != decisions[i]["index"]:
                raise records.ReplayMismatch(
                    f"decision {i}: the record has {names[p - 1]!r} (seat {p}) play "
                    f"{decisions[i]['action']!r}, the bot plays {action_name(a)!r} there",
                    i,
                )
    return table


def play(
    opponents: list,
    kingdom="random",
    seed: int = 0,
    record: str | Path | None = DEFAULT_RECORD,
    *,
    read=None,
    write=print,
    turn_limit: int = 100,
    resume_from: dict | Table | None = None,
    files: list | None = None,
) -> Game:
    """Play one game with a person at seat 0, reading answers with ``read(prompt)`` (default
    ``read_line``) and showing the game with ``write(text)``. Returns the finished game. If the
    person leaves (quit, end of input, Ctrl-C), the record of the game so far is saved to
    ``record`` and ``Quit`` is raised. ``resume_from``: an unfinished game's record (or its
    ``resume`` table) to go on with: kingdom, seed, turn_limit and files are the record's (left
    at their defaults here), the opponents too (a table's own; a record's are checked).
    ``files``: per opponent, the agent file it was loaded from, or None (``Table``)."""
    read = read_line if read is None else read
    table = _table(opponents, kingdom, seed, turn_limit, resume_from, files)
    game, names = table.game, table.names
    if resume_from is None:
        head = f"P{game.turn_player} starts"
    else:
        head = f"resumed at turn {game.turn['turn_number']} ('log': the game so far)"
    write(
        f"Dominion, {game.players} players: "
        + ", ".join(f"P{p} {n}" for p, n in enumerate(names))
        + f"; {head}.\nKingdom: {', '.join(_kingdom(game))}\n{HELP}"
    )
    with _Shield() as shield:
        try:
            while not game.done:
                if game.current_player == YOU:
                    events = game.log_events()
                    write(view(game, names, log_lines(events[table.seen :], YOU)))
                    table.seen = len(events)
                    a = ask_person(game, read, write)
                else:
                    a = table.opponent_action()
                with shield.step():
                    game.step(int(a))
        except (Quit, KeyboardInterrupt) as e:
            shield.busy = True  # leaving already: another Ctrl-C must not cut the record short
            why = e.why if isinstance(e, Quit) else "interrupt"
            path = save_record(table, record, write) if record else None
            raise Quit(why, game, path) from None
        except Exception:  # an opponent failed (an agent's network ...): keep the game anyway
            shield.busy = True
            if record:
                write(f"the game so far is saved in {save_record(table, record, write)}")
            raise
        shield.busy = True  # the game is over: nothing left to interrupt but its record
        write("\n".join(log_lines(game.log_events()[table.seen :], YOU)))
        write(result_line(game, names))
        if record:
            path = save_record(table, record, write)
            write(f"Record: {path}")
    return game


def _table(opponents, kingdom, seed, turn_limit, resume_from, files) -> Table:
    """The game and its seats: a new one, or the ``resume_from`` record's (which fixes the
    kingdom, seed, turn limit and files: giving them too is a ValueError)."""
    if resume_from is None:
        opponents = check_opponents(opponents)
        files = check_files(files, len(opponents))
        game = Game(kingdom, players=len(opponents) + 1, seed=seed, turn_limit=turn_limit)
        return Table(game, opponents, files)
    asked = {"kingdom": kingdom, "seed": seed, "turn_limit": turn_limit, "files": files}
    default = {"kingdom": "random", "seed": 0, "turn_limit": 100, "files": None}
    given = [
        k
        for k, v in asked.items()
        if not (v is default[k] or (type(v) is type(default[k]) and v == default[k]))
    ]
    if given:
        raise ValueError(
            f"{', '.join(given)} cannot be given with resume_from: the record fixes them"
        )
    return resume_from if isinstance(resume_from, Table) else resume(resume_from, opponents)


class _Shield:
    """Ctrl-C while the game steps takes effect once the step is over, so that the record
    saved on the way out is a whole game; anywhere else (at the prompt) it acts at once.
    While ``busy`` stays set (saving the record on the way out) it is dropped."""

    def __init__(self):
        self.busy = self.pending = False
        self.old = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc):
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)

    def _handler(self, signum, frame):
        if self.busy:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def step(self):
        self.busy = True
        try:
            yield
        finally:
            self.busy = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


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


def read_line(prompt: str) -> str:
    """One line from standard input (without its line end), ``prompt`` shown first; EOFError
    at the end of input. Read as bytes, not with ``input()``: on a terminal ``input()`` takes
    a line holding a NUL byte for an unfinished one (it measures lines with C's strlen) and
    waits for another Enter; undecodable bytes become U+FFFD rather than an error."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    line = stream.readline() if stream is not None else ""
    if not line:
        raise EOFError
    if isinstance(line, bytes):
        line = line.decode(getattr(sys.stdin, "encoding", None) or "utf-8", errors="replace")
    return line.rstrip("\r\n")


def ask_person(game: Game, read, write) -> int:
    """The person's answer to the pending decision: a legal action's index. Anything else
    they type is answered (a message) and asked again; the end of input raises ``Quit``."""
    options = choices(game)
    numbered = list(enumerate(options, 0 if options[0][0] == PASS else 1))
    write(decision_line(game))
    write("\n".join(f"  [{k}] {label}" for k, (_, label) in numbered))
    while True:
        try:
            text = read("> ").strip()
        except EOFError:
            raise Quit("eof") from None
        answer = parse_answer(text, numbered, game)
        if isinstance(answer, int):
            return answer
        if answer is not None:
            write(answer)


def parse_answer(text: str, numbered: list, game: Game):
    """An action index, or a message to show (help, an error), or None (nothing typed).
    Raises ``Quit`` for quit/exit. Numbers are ASCII digits only: ``str.isdigit`` is also
    true for "²" or "٣", which ``int`` refuses or reads as another number."""
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
    span = f"{numbered[0][0]}..{numbered[-1][0]}"
    if text.isascii() and text.isdigit():
        if len(text) <= MAX_ANSWER_DIGITS:
            for k, (a, _) in numbered:
                if k == int(text):
                    return a
        return f"no choice {_short(text)}: pick {span}"
    key = text.lower()
    for _, (a, label) in numbered:
        name = label.split(" (")[0].split(":")[0].lower()
        if key == name or (a == PASS and key in ("pass", "done", "no")) or key == label.lower():
            return a
    if any(c.isdigit() for c in text):
        return f"{_short(text)!r}: type a choice's number ({span}) with the digits 0-9, or its name"
    return f"{_short(text)!r} is not a legal choice now; type its number or its name ('?' for help)"


def _short(text: str, n: int = 40) -> str:
    """``text`` cut to ``n`` characters for a message (a pasted page is not echoed back)."""
    return text if len(text) <= n else text[:n] + "..."


def card_text(name: str) -> str:
    key = name.strip().lower()
    for n, text in TEXT.items():
        if n.lower() == key:
            return f"{n} (${TABLE[card_id(n), COST]}): {text}"
    return f"no card {_short(name.strip())!r}; cards: {', '.join(TEXT)}"


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


def save_record(table: Table, path, write=print) -> Path:
    """The record (``records``) of the table's game, with who sat where (and the file each
    file agent came from), written to ``path``; if that fails (the disk filled, the folder went
    away), to a new file in the temporary folder, said with ``write``: a game is never lost
    to its record's path."""
    seats = [{"kind": "human", "name": "you"}] + [
        {"kind": "bot" if isinstance(o, Bot) else "agent", "name": o.name}
        | ({"file": f} if f else {})
        for o, f in zip(table.opponents, table.files, strict=True)
    ]
    rec = table.game.record(players=seats, meta={"played_by": "dominion play"})
    try:
        return records.save(rec, path)
    except (OSError, ValueError) as e:
        fd, spare = tempfile.mkstemp(prefix="dominion_game_", suffix=".json")
        os.close(fd)
        write(f"cannot write the record to {str(path)!r} ({e}); writing it to {spare}")
        return records.save(rec, spare)


# -- the command line -----------------------------------------------------------------------

LEFT = {  # how the game was left: what is said, and the exit status
    "quit": ("left the game", 1),
    "eof": ("the input ended", 1),
    "interrupt": ("interrupted", 130),
}


def run(opponents: list, args) -> int:
    """``dominion play`` with resolved opponents (or ``args.resume_table``, a resumed game)."""
    try:
        play(
            opponents,
            kingdom_arg(args.kingdom),
            args.seed,
            args.record or None,
            turn_limit=args.turn_limit,
            resume_from=getattr(args, "resume_table", None),
            files=getattr(args, "files", None),
        )
    except Quit as e:
        said, status = LEFT[e.why]
        if e.path is None:
            print(f"\n{said}; no record written (--record '')")
        else:
            print(
                f"\n{said}; the game so far is saved in {e.path} (dominion play --resume {e.path})"
            )
        return status
    except KeyboardInterrupt:  # before the game began (building it, compiling kernels)
        print("\ninterrupted before the game began; nothing to save")
        return 130
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
