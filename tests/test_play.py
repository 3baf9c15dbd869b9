"""dominion play: a person at the terminal against bots, end to end through a pseudo-terminal;
what the person sees; card and option texts; bad input."""

import re
import shutil
import sys
from pathlib import Path

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
from dominion_env.play import choices, play
from dominion_env.records import load

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
    ],
)
def test_bad_input(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", None)  # never asks: the error comes first
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing written


def test_an_agent_for_another_table_size_is_refused(tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["play", "--opponent", "ppo-3p"])
    assert "agent 'ppo-3p' plays 3-player games; this table has 2" in capsys.readouterr().err
