"""dominion play: a person at the terminal against bots, end to end through a pseudo-terminal;
what the person sees; card and option texts; bad input; leaving early (odd lines, Ctrl-C,
end of input, quit) saves the game so far, and --resume goes on with it exactly."""

import io
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import numpy as np
import pexpect
import pytest

from dominion_env.agents import get_bot
from dominion_env.cards import (
    COIN_VALUE,
    NAMES,
    PLUS_ACTIONS,
    PLUS_BUYS,
    PLUS_CARDS,
    PLUS_COINS,
    TABLE,
    TEXT,
    TREASURE,
    TYPES,
    VP,
    VP_FIXED,
    VP_RULE,
)
from dominion_env.cli import main
from dominion_env.engine.effects import CARDS
from dominion_env.engine.kingdoms import RECOMMENDED
from dominion_env.engine.layout import DEC_CHOOSE
from dominion_env.game import Game
from dominion_env.names import OPTION_TEXT
from dominion_env.play import Quit, _Shield, choices, parse_answer, play, resume
from dominion_env.records import ReplayMismatch, load, save

DOMINION = Path(sys.executable).parent / "dominion"
DECISION = re.compile(r"Your decision: ([^\r\n]*)\r\n((?:  \[\d+\] [^\r\n]*\r\n)+)> ")
RESULT = re.compile(r"Result: ([^\r\n]*)\r\n")


def big_money(kind: str, options: dict[str, int]) -> str:
    """The scripted person: Big Money by the listed names; the first listed choice otherwise."""
    if kind.startswith("buy"):
        for card in ("Province", "Gold", "Silver"):
            if card in options:
                return card if card == "Silver" else str(options[card])
        return "0"
    return str(min(options.values()))  # PASS (0) when it is legal, else the first card


def test_a_whole_game_through_the_terminal(tmp_path):
    exe = str(DOMINION) if DOMINION.exists() else shutil.which("dominion")
    assert exe, "the dominion command is not installed (pip install -e .)"
    child = pexpect.spawn(
        exe,
        ["play", "--opponent", "Big Money", "--seed", "1", "--kingdom", "First Game"],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=300,  # the first decision waits for the kernels (compiled, or from the cache)
        dimensions=(50, 200),
    )
    child.expect("P0 you, P1 Big Money")
    first, asked, decisions = True, set(), 0
    while child.expect([DECISION, RESULT]) == 0:
        kind = child.match.group(1)
        options = {
            re.sub(r" \(\$\d+\)$", "", label): int(k)
            for k, label in re.findall(r"  \[(\d+)\] ([^\r\n]*)\r\n", child.match.group(2))
        }
        if first:  # the commands besides answers: card text, a wrong answer, the log
            child.sendline("help Village")
            child.expect(r"Village \(\$3\): \+1 Card, \+2 Actions\.")
            child.sendline("? smithy")
            child.expect(r"Smithy \(\$4\): \+3 Cards\.")
            child.sendline("Platinum")
            child.expect("'Platinum' is not a legal choice now")
            child.sendline("99")
            child.expect("no choice 99")
            child.sendline("log")
            child.expect(r"--- turn 1: P\d ---")
            first = False
        asked.add(kind.split(",")[0])
        child.sendline(big_money(kind, options))
        decisions += 1
        assert decisions < 2000, "the game does not end"
    result = child.match.group(1)
    child.expect(r"Record: ([^\r\n]*)\r\n")
    path = tmp_path / child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "buy" in asked and decisions > 10
    m = re.fullmatch(
        r"(you won|you lost \(Big Money won\)|shared win) after (\d+) turns "
        r"\(you (-?\d+) VP, Big Money (-?\d+) VP\)",
        result,
    )
    assert m, result
    # the record is the game: replayed from its seed and actions, it ends the same way
    rec = load(path)
    assert [(p["kind"], p["name"]) for p in rec["players"]] == [
        ("human", "you"),
        ("bot", "Big Money"),
    ]
    assert rec["seed"] == 1 and sorted(rec["kingdom"]) == sorted(RECOMMENDED["First Game"])
    assert len(rec["decisions"]) >= decisions  # the person's answers and the bot's
    game = Game.from_record(rec)  # replays every decision, checking each and the result
    assert game.terminated and rec["result"]["status"] == "terminated"
    assert game.scores() == rec["result"]["scores"] == [int(m.group(3)), int(m.group(4))]
    won = {"you won": 1, "shared win": 0}.get(m.group(1), -1)
    assert game.rewards.tolist()[0] == rec["result"]["rewards"][0] == won


def scripted(answers):
    """A ``read`` that answers from a list, and a ``write`` that keeps what was shown."""
    shown, answers = [], list(answers)

    def read(prompt):
        return answers.pop(0) if answers else "0"

    return read, shown.append, shown


def test_the_person_sees_their_own_draws_and_counts_of_others():
    read, write, shown = scripted([])
    play([get_bot("Big Money")], "First Game", 3, None, read=read, write=write)
    text = "\n".join(shown)
    assert re.search(r"^P0 draws (\d x )?(Copper|Estate)", text, re.M)
    assert re.search(r"^P1 draws \d cards", text, re.M)
    assert not re.search(r"^P1 (draws|discards) (\d x )?[A-Z]", text, re.M)


def test_play_with_scripted_answers_writes_the_view_and_record(tmp_path):
    read, write, shown = scripted(["help Moat", "Silver"])
    g = play([get_bot("Big Money")], "First Game", 2, tmp_path / "r.json", read=read, write=write)
    text = "\n".join(shown)
    assert "Moat ($2): +2 Cards. Reaction" in text
    assert "Your hand:" in text and "Supply: Copper $0" in text and "Your decision: buy" in text
    assert re.search(r"Result: .* \(you \d+ VP, Big Money \d+ VP\)", text)
    assert Game.from_record(load(tmp_path / "r.json")).scores() == g.scores()
    # the opponents' hands never appear by name: only the person's own
    for view in (s for s in shown if "Your hand:" in s):
        assert "P1 Big Money's hand" not in view and not re.search(r"P1 draws [A-Z]", view)


def test_choices_name_options_and_pass():
    g = Game(["Steward"] + list(NAMES[8:17]), players=2, seed=0)
    g.set_scenario(hands={0: ["Steward", "Copper", "Copper", "Estate", "Estate"]})
    g.step("Steward")
    labels = [label for _, label in choices(g)]
    assert labels == [
        "option 0: +2 Cards",
        "option 1: +$2",
        "option 2: trash 2 cards from your hand",
    ]
    numbered = list(enumerate(choices(g)))
    option_1 = numbered[1][1][0]
    for typed in ("1", "option 1: +$2", "OPTION 1", "option 1"):  # digits in a name are a name
        assert parse_answer(typed, numbered, g) == option_1, typed
    assert parse_answer("option ٣", numbered, g).endswith("with the digits 0-9, or its name")
    g = Game("First Game", players=2, seed=0)
    g.set_scenario(hands={0: ["Village", "Copper"]})
    assert [label for _, label in choices(g)] == ["PASS (end the Action phase)", "Village"]


def test_every_option_is_named():
    asking = {c.name for c in CARDS if DEC_CHOOSE in c.decisions}
    assert asking == set(OPTION_TEXT), "OPTION_TEXT must name the options of exactly these cards"


def test_every_card_has_a_text_agreeing_with_its_row():
    assert set(TEXT) == set(NAMES)
    for c, name in enumerate(NAMES):
        text, row = TEXT[name], TABLE[c]
        for col, word in ((PLUS_CARDS, "Card"), (PLUS_ACTIONS, "Action"), (PLUS_BUYS, "Buy")):
            if row[col]:
                assert f"+{row[col]} {word}" in text, (name, word)
        if row[PLUS_COINS]:
            assert f"+${row[PLUS_COINS]}" in text, name
        if row[TYPES] & TREASURE:
            assert f"${row[COIN_VALUE]}" in text, name
        if row[VP_RULE] == VP_FIXED and row[VP]:
            assert f"{row[VP]} VP" in text, name


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "--opponent", "Nobody"], "argument --opponent: unknown bot 'Nobody'"),
        (["play", "--kingdom", "Nowhere"], "argument --kingdom: unknown kingdom 'Nowhere'"),
        (["play"] + ["--opponent", "Big Money"] * 6, "6 opponents; allowed: 1 to 5"),
        (["play", "--seed", "-1"], "argument --seed: -1 is out of range"),
        (["play", "--record", "."], "argument --record: cannot write '.': it is a folder"),
        (["play", "--seed", "nan"], "argument --seed: 'nan' is not a whole number"),
        (["play", "--seed", "1e308"], "argument --seed: '1e308' is not a whole number"),
        (["play", "--seed", str(2**64)], "argument --seed: 18,446,744,073,709,551,616 is out"),
        (["play", "--turn-limit", "inf"], "argument --turn-limit: 'inf' is not a whole number"),
        (["play", "--turn-limit", "0"], "argument --turn-limit: 0 is out of range"),
        (["play", "--turn-limit", "9" * 30], "argument --turn-limit: 999,999,999,999,999"),
        (["play", "--opponent", ""], "argument --opponent: player must be a non-empty name"),
        (["play", "--kingdom", "Cellar,nan"], "argument --kingdom:"),
        (["play", "--record", "a\x00b.json"], "cannot write 'a\\x00b.json': it holds a NUL"),
        (
            ["play", "--record", "f/g.json"],
            "argument --record: cannot write 'f/g.json': f is a file",
        ),
    ],
)
def test_bad_input(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").write_text("a file, not a folder")
    monkeypatch.setattr("sys.stdin", None)  # never asks: the error comes first
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err
    assert [f.name for f in tmp_path.iterdir()] == ["f"]  # nothing written


@pytest.mark.parametrize("name, players", [("ppo-3p", 3), ("ppo-5p", 5), ("ppo-6p", 6)])
def test_an_agent_for_another_table_size_is_refused(name, players, tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["play", "--opponent", name])
    assert e.value.code == 2
    assert (
        f"agent '{name}' plays {players}-player games; this table has 2" in capsys.readouterr().err
    )
    assert list(tmp_path.iterdir()) == []  # refused before a record is written


# -- leaving early and resuming (dominion play never loses a game) --------------------------


def spawn(args, cwd):
    exe = str(DOMINION) if DOMINION.exists() else shutil.which("dominion")
    assert exe, "the dominion command is not installed (pip install -e .)"
    return pexpect.spawn(
        exe, ["play", *args], cwd=str(cwd), encoding="utf-8", timeout=300, dimensions=(50, 200)
    )


def ours(output: str) -> str:
    """A terminal's output without the colour reset that colorama's atexit hook writes when
    Numba's error formatting has started colorama (it does when colorama is installed)."""
    return output.removesuffix("\x1b[0m")


def answer(child, n):
    """Answer the next ``n`` decisions as ``big_money``; returns False if the game ended."""
    for _ in range(n):
        if child.expect([DECISION, RESULT]) == 1:
            return False
        options = {
            re.sub(r" \(\$\d+\)$", "", label): int(k)
            for k, label in re.findall(r"  \[(\d+)\] ([^\r\n]*)\r\n", child.match.group(2))
        }
        child.sendline(big_money(child.match.group(1), options))
    return True


def test_odd_lines_are_answered_ctrl_c_saves_and_resume_goes_on(tmp_path):
    child = spawn(["--opponent", "Random", "--seed", "5", "--kingdom", "First Game"], tmp_path)
    child.expect(DECISION)
    # digits of other scripts are refused with a hint (int("²") used to end the program)
    for line in ("²", "⁵3", "٣"):
        child.sendline(line)
        child.expect("type a choice's number .* with the digits 0-9, or its name", timeout=20)
    # a NUL byte: answered at once, not after a second Enter (input() waited for one)
    child.sendline("a\x00b")
    child.expect(r"'a\\x00b' is not a legal choice now", timeout=20)
    child.sendline("9" * 5000)
    child.expect(r"no choice 9{40}\.\.\.: pick", timeout=20)
    child.sendline("0")
    assert answer(child, 15)
    child.expect(DECISION)
    child.sendintr()  # Ctrl-C at the prompt
    child.expect(pexpect.EOF)
    child.close()
    out = ours(child.before)
    assert child.exitstatus == 130 and "Traceback" not in out
    assert re.search(
        r"interrupted; the game so far is saved in dominion_game\.json "
        r"\(dominion play --resume dominion_game\.json\)\r\n$",
        out,
    ), out
    rec = load(tmp_path / "dominion_game.json")
    assert rec["result"]["status"] == "running"
    assert sum(d["player"] == 0 for d in rec["decisions"]) == 16  # odd lines were asked again
    before = Game.from_record(rec).snapshot()

    child = spawn(["--resume", "dominion_game.json"], tmp_path)
    child.expect(r"P0 you, P1 Random; resumed at turn \d+")
    assert answer(child, 5)
    child.expect(DECISION)
    child.sendeof()  # Ctrl-D at the prompt: the end of input
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and "Traceback" not in child.before
    assert ours(child.before).endswith(
        "the input ended; the game so far is saved in dominion_game.json "
        "(dominion play --resume dominion_game.json)\r\n"
    )
    assert sum(d["player"] == 0 for d in load(tmp_path / "dominion_game.json")["decisions"]) == 21

    child = spawn(["--resume", "dominion_game.json"], tmp_path)
    child.expect(r"P0 you, P1 Random; resumed at turn \d+")
    while answer(child, 200):
        pass
    child.expect(r"Record: dominion_game\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    done = load(tmp_path / "dominion_game.json")  # written back to the file it resumed
    assert done["decisions"][: len(rec["decisions"])] == rec["decisions"]
    assert len(done["decisions"]) > len(rec["decisions"])
    game = Game.from_record(done)
    assert game.done and done["result"]["status"] in ("terminated", "truncated")
    # the resumed game went on from exactly the state it was left in
    *_, (_, resumed) = Game.replay({**done, "decisions": rec["decisions"], "result": rec["result"]})
    assert_same_state(resumed.snapshot(), before)


def assert_same_state(a, b):
    assert a.arrays.keys() == b.arrays.keys()
    for k in a.arrays:
        assert np.array_equal(a.arrays[k], b.arrays[k]), k


def test_end_of_input_saves_the_game_so_far(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xff\n\x00\n0\n")))
    status = main(["play", "--seed", "2", "--kingdom", "First Game", "--record", "g.json"])
    out = capsys.readouterr().out
    assert status == 1
    assert out.endswith(
        "\nthe input ended; the game so far is saved in g.json (dominion play --resume g.json)\n"
    )
    assert "'\ufffd' is not a legal choice now" in out and "'\\x00' is not a legal" in out
    rec = load(tmp_path / "g.json")
    assert rec["result"]["status"] == "running"
    assert sum(d["player"] == 0 for d in rec["decisions"]) == 1  # the one "0" answered
    # an unfinished game replays like any other
    assert main(["replay", "g.json", "--viewer", "0"]) == 0
    turns, scores = rec["result"]["turns"], rec["result"]["scores"]
    assert capsys.readouterr().out.endswith(
        f"Result: running after {turns} turns; VP P0 {scores[0]}, P1 {scores[1]}; "
        "rewards P0 +0, P1 +0\n"
    )


def test_quit_saves_too_and_no_record_when_asked(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--kingdom", "First Game"]) == 1
    assert capsys.readouterr().out.endswith(
        "\nleft the game; the game so far is saved in dominion_game.json "
        "(dominion play --resume dominion_game.json)\n"
    )
    assert load(tmp_path / "dominion_game.json")["result"]["status"] == "running"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--kingdom", "First Game", "--record", ""]) == 1
    assert capsys.readouterr().out.endswith("\nthe input ended; no record written (--record '')\n")


def interrupted_after(n):
    """A ``read`` answering as the person (first choice; Silver when it can) that presses
    Ctrl-C at its (n+1)-th decision, counting its answers in ``read.answers``."""

    def read(prompt):
        if read.answers == n:
            raise KeyboardInterrupt
        read.answers += 1
        return "Silver" if read.answers % 3 == 0 else "0"

    read.answers = 0
    return read


@pytest.mark.parametrize("bot", ["Random", "Big Money"])
def test_interrupted_and_resumed_is_the_uninterrupted_game(bot, tmp_path):
    """Left at a decision and resumed from the saved record, the game goes on as if never
    left: the same state at the break (a random bot's stream included) and the same game."""
    path = tmp_path / "r.json"
    with pytest.raises(Quit) as e:
        play(
            [get_bot(bot)], "First Game", 11, path, read=interrupted_after(12), write=list().append
        )
    assert e.value.why == "interrupt" and e.value.path == path
    left = e.value.game
    table = resume(load(path), [get_bot(bot)])
    assert_same_state(table.game.snapshot(), left.snapshot())
    read = interrupted_after(10**6)
    read.answers = 12
    resumed = play([get_bot(bot)], record=None, read=read, write=list().append, resume_from=table)
    whole = play(
        [get_bot(bot)], "First Game", 11, None, read=interrupted_after(10**6), write=list().append
    )
    assert resumed.decisions() == whole.decisions() and resumed.scores() == whole.scores()
    assert_same_state(resumed.snapshot(), whole.snapshot())


def test_a_record_the_bot_would_not_have_played_is_refused(tmp_path):
    path = tmp_path / "r.json"
    with pytest.raises(Quit):
        play(
            [get_bot("Big Money")],
            "First Game",
            4,
            path,
            read=interrupted_after(8),
            write=[].append,
        )
    rec = load(path)
    rec["players"][1]["name"] = "Random"  # Big Money's answers, claimed to be Random's
    with pytest.raises(
        ReplayMismatch, match=r"the record has 'Random' \(seat 1\) play '\w+', the bot plays"
    ):
        resume(rec, [get_bot("Random")])
    with pytest.raises(
        ValueError, match=r"opponents must be the record's \['Random'\], got \['Smithy'\]"
    ):
        resume(rec, [get_bot("Smithy")])


def test_resume_from_takes_no_settings_of_its_own(tmp_path):
    path = tmp_path / "r.json"
    with pytest.raises(Quit):
        play([get_bot("Smithy")], "First Game", 4, path, read=interrupted_after(2), write=[].append)
    rec = load(path)
    for kw, msg in (({"seed": 4}, "seed cannot"), ({"kingdom": "First Game"}, "kingdom cannot")):
        with pytest.raises(ValueError, match=f"^{msg} be given with resume_from: the record fixes"):
            play([get_bot("Smithy")], record=None, resume_from=rec, **kw)
    assert load(path) == rec  # nothing played, nothing written


def _resume_files(tmp_path):
    """Records that cannot be resumed, by name."""
    with pytest.raises(Quit):
        play(
            [get_bot("Big Money")],
            "First Game",
            4,
            tmp_path / "left.json",
            read=interrupted_after(3),
            write=[].append,
        )
    left = load(tmp_path / "left.json")
    g = play(
        [get_bot("Big Money")],
        "First Game",
        4,
        tmp_path / "over.json",
        read=lambda p: "0",
        write=[].append,
    )
    assert g.done
    (tmp_path / "garbage.json").write_bytes(b"\x00\xff not json")
    bots = Game("First Game", players=2, seed=1).record(players=["Big Money", "Smithy"])
    save(bots, tmp_path / "bots.json")
    bad = {
        **left,
        "decisions": left["decisions"][:-1]
        + [{**left["decisions"][-1], "index": 0, "action": "PASS"}],
    }
    save(bad, tmp_path / "bad.json")


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--resume", "left.json", "--seed", "3"],
            "argument --resume: --seed cannot be given with --resume",
        ),
        (
            ["--resume", "left.json", "--opponent", "Smithy", "--kingdom", "First Game"],
            "argument --resume: --opponent, --kingdom cannot be given",
        ),
        (["--resume", "missing.json"], "argument --resume: 'missing.json': cannot read record"),
        (["--resume", "garbage.json"], "argument --resume: 'garbage.json':"),
        (
            ["--resume", "over.json"],
            "the game of this record is over (terminated): nothing to resume",
        ),
        (["--resume", "bots.json"], "a game to resume has the person in seat 0 (kind 'human')"),
        (["--resume", "bad.json"], "argument --resume: 'bad.json' does not replay:"),
        (["--resume", "a\x00b"], "argument --resume: no file 'a\\x00b': it holds a NUL character"),
        (
            ["--resume", "left.json", "--record", "."],
            "argument --record: cannot write '.': it is a folder",
        ),
    ],
)
def test_bad_resume(argv, message, tmp_path, monkeypatch, capsys):
    _resume_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", None)  # never asks: the error comes first
    files = {f: f.read_bytes() for f in tmp_path.iterdir()}
    with pytest.raises(SystemExit) as e:
        main(["play", *argv])
    assert e.value.code == 2
    assert message in capsys.readouterr().err
    assert {f: f.read_bytes() for f in tmp_path.iterdir()} == files  # nothing written


def test_ctrl_c_while_the_game_steps_waits_for_the_step():
    before, done = signal.getsignal(signal.SIGINT), []
    with _Shield() as shield:
        with pytest.raises(KeyboardInterrupt):
            with shield.step():
                os.kill(os.getpid(), signal.SIGINT)
                done.append("the step went on")  # the interrupt waits for the step's end
        assert done == ["the step went on"]
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)  # outside a step (at the prompt): at once
            done.append("never")
        assert done == ["the step went on"]
    assert signal.getsignal(signal.SIGINT) is before


def test_a_record_that_cannot_be_written_goes_to_the_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    (tmp_path / "f").write_text("a file, not a folder")
    asked, shown = tmp_path / "f" / "r.json", []
    g = play([get_bot("Big Money")], "First Game", 2, asked, read=lambda p: "0", write=shown.append)
    [spare] = (tmp_path / "tmp").glob("dominion_game_*.json")
    assert shown[-2].startswith(f"cannot write the record to {str(asked)!r} (")
    assert shown[-2].endswith(f"); writing it to {spare}") and shown[-1] == f"Record: {spare}"
    assert Game.from_record(load(spare)).scores() == g.scores()


def test_a_file_agent_is_found_again_on_resume(tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from dominion_env.train.policy import shipped_agents

    shutil.copy(shipped_agents()["ppo-pool"], tmp_path / "mine.pt")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("0\n0\n"))
    assert (
        main(["play", "--opponent", "mine.pt", "--kingdom", "First Game", "--record", "g.json"])
        == 1
    )
    rec = load(tmp_path / "g.json")
    assert rec["players"][1] == {"seat": 1, "kind": "agent", "name": "ppo-pool", "file": "mine.pt"}
    assert sum(d["player"] == 0 for d in rec["decisions"]) == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("0\n"))
    assert main(["play", "--resume", "g.json"]) == 1
    assert "P0 you, P1 ppo-pool; resumed at turn" in capsys.readouterr().out
    again = load(tmp_path / "g.json")
    assert again["decisions"][: len(rec["decisions"])] == rec["decisions"]
    assert sum(d["player"] == 0 for d in again["decisions"]) == 3
    assert again["players"] == rec["players"]


class Failing:
    """A policy that plays its first legal action, then fails at its third decision."""

    name = "Failing"
    scale_observations = False

    def __init__(self):
        self.calls = 0

    def act(self, obs, masks):
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("the network is gone")
        return np.array([int(np.flatnonzero(masks[0])[0])])


def test_an_opponent_that_fails_does_not_lose_the_game(tmp_path):
    shown = []
    with pytest.raises(RuntimeError, match="the network is gone"):
        play(
            [Failing()],
            "First Game",
            1,
            tmp_path / "r.json",
            read=lambda p: "0",
            write=shown.append,
        )
    assert shown[-1] == f"the game so far is saved in {tmp_path / 'r.json'}"
    rec = load(tmp_path / "r.json")
    assert rec["result"]["status"] == "running" and rec["players"][1]["kind"] == "agent"
    assert sum(d["player"] == 1 for d in rec["decisions"]) == 2
    assert Game.from_record(rec).decisions() == [
        (d["player"], d["index"]) for d in rec["decisions"]
    ]
