"""PPO's knobs on the command line, and a run that starts from a saved agent
(``TrainConfig.init``, ``dominion train --init``): the weights are the agent's when PPO
starts, imitation does not run, an agent that does not fit the run is refused at the public
face, and a resumed run does not need the agent again.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from test_training_loop import read_without, tiny_config  # noqa: E402  (shared with it)

from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.train import ppo, settings  # noqa: E402
from dominion_env.train.policy import load_agent  # noqa: E402
from dominion_env.train.ppo import PHASES, Trainer, train  # noqa: E402


@pytest.fixture(scope="module")
def tiny_agent(tmp_path_factory):
    """A tiny trained agent's file (hidden (16,), 2 players)."""
    tmp = tmp_path_factory.mktemp("agent")
    train(tiny_config(tmp, steps=512))
    return tmp / "run" / "agent.safetensors"


def test_the_run_starts_from_the_agents_weights_without_imitation(tmp_path, tiny_agent):
    phases = []
    t = Trainer(
        tiny_config(tmp_path, init=str(tiny_agent), bc_steps=0),
        progress=lambda steps, tr: phases.append(tr.phase),
    )
    t.warm_start()
    agent = load_agent(tiny_agent)
    for name, w in agent.net.state_dict().items():
        assert torch.equal(t.net.state_dict()[name], w), name
    assert set(phases) == {PHASES[0]}  # no imitation phase ran
    assert t.steps == 0


def test_a_run_from_an_agent_trains_and_saves_where_it_was_started(tmp_path, tiny_agent):
    t = train(tiny_config(tmp_path, init=str(tiny_agent), bc_steps=0, steps=512))
    assert t.steps == 512
    start = load_agent(tiny_agent).net.state_dict()
    after = load_agent(tmp_path / "run" / "agent.safetensors")
    assert after.info.trained["config"]["init"] == str(tiny_agent)
    assert any(not torch.equal(after.net.state_dict()[k], w) for k, w in start.items())


def test_a_run_reads_the_agent_it_starts_from_once(tmp_path, tiny_agent, monkeypatch):
    loads = []
    real = settings.load_agent
    monkeypatch.setattr(settings, "load_agent", lambda name: loads.append(name) or real(name))
    train(tiny_config(tmp_path, init=str(tiny_agent), bc_steps=0, steps=256))
    assert loads == [str(tiny_agent)]  # checked before the games are built, then used as is


def test_a_resumed_run_does_not_need_the_agent_it_started_from(tmp_path, tiny_agent):
    copy = tmp_path / "start.pt"
    copy.write_bytes(tiny_agent.read_bytes())
    train(tiny_config(tmp_path, init=str(copy), bc_steps=0, steps=512))
    copy.unlink()
    r = Trainer.resume(tmp_path / "run", steps=1024)
    r.learn()
    assert r.steps == 1024 and r.cfg.init == str(copy)


def test_a_checkpoint_from_before_init_reads_as_a_run_from_imitation(tmp_path):
    assert read_without(tmp_path, "init").init is None


@pytest.mark.parametrize(
    "settings, error, message",
    [
        (
            {"bc_steps": 256},
            ValueError,
            r"init='AGENT' starts the run .* set bc_steps=0 \(got 256\)",
        ),
        ({"hidden": (32,)}, ValueError, r"init='AGENT' is an agent for .*hidden=\(16,\); this run"),
        ({"network": "cards"}, ValueError, r"network='mlp'.* this run has .*network='cards'"),
    ],
)
def test_an_agent_that_does_not_fit_the_run_is_refused(
    tmp_path, tiny_agent, settings, error, message
):
    cfg = tiny_config(tmp_path, init=str(tiny_agent), **{"bc_steps": 0, **settings})
    with pytest.raises(
        error, match=message.replace("AGENT", str(tiny_agent).replace("\\", "\\\\"))
    ):
        train(cfg)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("init", ["", 3])
def test_init_of_the_wrong_type_is_refused(tmp_path, init):
    with pytest.raises(TypeError, match=r"init must be None or an agent .* got "):
        Trainer(tiny_config(tmp_path, init=init, bc_steps=0))


def test_a_missing_agent_is_refused_naming_it(tmp_path):
    with pytest.raises(ValueError, match=r"no agent 'nowhere\.pt'"):
        train(tiny_config(tmp_path, init="nowhere.pt", bc_steps=0))
    assert not (tmp_path / "run").exists()


def test_the_cli_takes_the_agents_layers_and_skips_imitation(tmp_path, tiny_agent, capsys):
    out = tmp_path / "run"
    argv = ["train", "--init", str(tiny_agent), "--steps", "512", "--num-envs", "32"]
    assert cli([*argv, "--eval-games", "0", "--opponent", "Big Money", "--out", str(out)]) == 0
    cfg = ppo.read_checkpoint(out / "checkpoint.safetensors")["config"]
    assert (cfg.init, cfg.hidden, cfg.bc_steps) == (str(tiny_agent), (16,), 0)
    err = capsys.readouterr().err
    assert PHASES[1] not in err and PHASES[-1] in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--bc-steps", "100"], "argument --bc-steps: --init"),
        (["--expert", "Big Money"], "argument --expert: --init"),
        (["--hidden", "32"], "argument --init: init="),
        (["--players", "3"], "plays 2-player games; this run has 3 players"),
    ],
)
def test_the_cli_refuses_init_beside_what_it_replaces(tmp_path, tiny_agent, capsys, argv, message):
    with pytest.raises(SystemExit) as e:
        cli(["train", "--init", str(tiny_agent), "--out", str(tmp_path / "run"), *argv])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert message in err.splitlines()[-1]
    assert not (tmp_path / "run").exists()


def test_the_cli_names_a_missing_agent(tmp_path, capsys):
    with pytest.raises(SystemExit):
        cli(["train", "--init", "no-such-agent", "--out", str(tmp_path / "run")])
    assert "argument --init: no agent 'no-such-agent'" in capsys.readouterr().err


def test_the_cli_takes_ppos_knobs(tmp_path):
    out = tmp_path / "run"
    argv = "--steps 512 --num-envs 32 --hidden 16 --bc-steps 0 --eval-games 0 --epochs 2 "
    argv += "--minibatch 128 --lr 0.001 --ent-coef 0.02"
    assert cli(["train", *argv.split(), "--opponent", "Big Money", "--out", str(out)]) == 0
    cfg = ppo.read_checkpoint(out / "checkpoint.safetensors")["config"]
    assert (cfg.epochs, cfg.minibatch, cfg.lr, cfg.ent_coef) == (2, 128, 0.001, 0.02)


@pytest.mark.parametrize(
    "option, value, allowed",
    [
        ("--epochs", "0", "1 to 1,000"),
        ("--minibatch", "2.5", "1 to 10,000,000"),
        ("--lr", "nan", "0 to 1"),
        ("--ent-coef", "-1", "0 to 100"),
    ],
)
def test_the_cli_refuses_ppos_knobs_out_of_range(tmp_path, capsys, option, value, allowed):
    with pytest.raises(SystemExit) as e:
        cli(["train", option, value, "--out", str(tmp_path / "run")])
    last = capsys.readouterr().err.splitlines()[-1]
    assert (
        e.value.code == 2 and f"argument {option}: " in last and value in last and allowed in last
    )
