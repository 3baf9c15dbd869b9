"""A path that is not a regular file, given where an agent, a checkpoint or a strategy file is
read, is named for what it is (``checks.file_fault``) on every face, never reported missing,
and nothing opens it (a named pipe would block the reader)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")

from dominion_env.agents import load_bot_file  # noqa: E402
from dominion_env.checks import MISSING, file_fault  # noqa: E402
from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.train import Trainer, load_agent  # noqa: E402
from dominion_env.train.checkpoint import (
    read_checkpoint,  # noqa: E402
    saved_config,  # noqa: E402
)
from dominion_env.train.tensorfile import AgentFileError  # noqa: E402

KINDS = {
    "directory": (os.mkdir, "is a directory"),
    "named pipe": (os.mkfifo, "is a named pipe, not a regular file"),
    "symbolic link loop": (lambda p: os.symlink(p, p), "is a symbolic link loop"),
    "broken symbolic link": (
        lambda p: os.symlink(p + ".gone", p),
        "is a broken symbolic link (its target does not exist)",
    ),
}


def made(tmp_path, kind: str, name: str) -> str:
    path = str(tmp_path / name)
    KINDS[kind][0](path)
    return path


def test_file_fault_names_each_kind(tmp_path):
    assert file_fault(tmp_path / "missing") == MISSING
    (tmp_path / "regular").write_bytes(b"x")
    os.symlink(tmp_path / "regular", tmp_path / "link")
    assert file_fault(tmp_path / "regular") is None and file_fault(tmp_path / "link") is None
    for kind, (_, why) in KINDS.items():
        assert file_fault(made(tmp_path, kind, kind.replace(" ", "_"))) == why
    assert (
        file_fault(tmp_path / "regular" / "x")
        == f"{MISSING} (a part of its path is not a directory)"
    )
    assert file_fault("/dev/null") == "is a character device, not a regular file"
    assert file_fault("a\x00b") == f"{MISSING} (a file name cannot hold a NUL character)"


@pytest.mark.parametrize("kind", KINDS)
def test_an_agent_path_is_named_for_what_it_is(tmp_path, kind, capsys):
    path = made(tmp_path, kind, "agent.safetensors")
    why = KINDS[kind][1]
    with pytest.raises(AgentFileError) as e:
        load_agent(path)
    assert str(e.value) == f"{path}: {why}"
    with pytest.raises(AgentFileError) as e:
        read_checkpoint(path)
    assert str(e.value) == f"{path}: {why}"
    # the command line: an evaluated agent, a scorecard's agent
    for argv in (["evaluate", path, "--games", "1"], ["scorecard", path]):
        with pytest.raises(SystemExit) as exit_:
            cli(argv)
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and "Traceback" not in err, argv
        assert why in err and MISSING not in err, (argv, err)


@pytest.mark.parametrize("kind", KINDS)
def test_a_checkpoint_to_resume_is_named_for_what_it_is(tmp_path, kind, capsys):
    run = tmp_path / "run"
    run.mkdir()
    path = made(run, kind, "checkpoint.safetensors")
    why = KINDS[kind][1]
    with pytest.raises(AgentFileError) as e:
        Trainer.resume(run)
    assert str(e.value) == f"{path}: {why}"
    with pytest.raises(AgentFileError) as e:
        saved_config(run)
    assert str(e.value) == f"{path}: {why}: no run to resume in {run}"
    with pytest.raises(SystemExit) as exit_:
        cli(["train", "--resume", "--out", str(run)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert f"argument --resume: {path}: {why}" in err


def test_a_missing_checkpoint_is_still_nothing_to_resume(tmp_path):
    (tmp_path / "run").mkdir()
    with pytest.raises(AgentFileError, match="no such file \\(nothing to resume\\)"):
        Trainer.resume(tmp_path / "run")


@pytest.mark.parametrize("kind", KINDS)
def test_a_strategy_file_is_named_for_what_it_is(tmp_path, kind, capsys):
    path = made(tmp_path, kind, "bots.toml")
    why = KINDS[kind][1]
    with pytest.raises(ValueError) as e:
        load_bot_file(path)
    assert str(e.value) == f"strategy file {path!r} {why}"
    with pytest.raises(SystemExit) as exit_:
        cli(["simulate", f"{path}:Smithy", "Big Money", "--games", "2"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err and why in err
