"""The card-set view and the card-set network.

The view (``engine.observation.card_set``) must say the same facts as the flat vector: for
states of played games, every per-card feature is the flat entry its layout names (checked
against ``split``, the flat vector's own named view), the card ids are exactly the game's
piles, the globals are every other entry, and no nonzero flat entry is left out. Gymnasium's
Dict space (``observation="cards"``) contains every observation an episode gives. The network
(``train.policy.CardSetNet``) gives the same logits and value for any order of the cards, reads
the flat vector as it reads the view, and saves and loads as a format-2 agent file whose
tensors are checked against its info.
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from dominion_env import Game, VecGame  # noqa: E402
from dominion_env.cards import NAMES, NUM_CARDS  # noqa: E402
from dominion_env.engine.observation import (  # noqa: E402
    CARD_SET_SIZE,
    NO_CARD,
    card_set,
    card_set_layout,
    obs_size,
    split,
)
from dominion_env.envs.gym_env import DominionEnv  # noqa: E402
from dominion_env.train import tensorfile  # noqa: E402
from dominion_env.train.policy import (  # noqa: E402
    AgentInfo,
    CardSetNet,
    PolicyNet,
    load_agent,
    save_agent,
)
from dominion_env.train.ppo import TrainConfig, Trainer, check_config, train  # noqa: E402
from dominion_env.train.tensorfile import AgentFileError  # noqa: E402


def played_states(players, scaled=False, n=48, steps=(30, 90, 200), seed=3):
    """Observations of random legal play at several points of the games (many kingdoms)."""
    vec = VecGame(n, players, kingdom="random", scale_observations=scaled)
    out = vec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    obs = []
    for t in range(max(steps) + 1):
        if t in steps:
            obs.append(out.observation.copy())
        legal = out.action_mask
        # a random legal action per game, vectorised: argmax of noise over the legal ones
        out = vec.step(np.argmax(rng.random(legal.shape) * legal, axis=1))
    return np.concatenate(obs)


@pytest.mark.parametrize("players,scaled", [(2, False), (3, True), (4, False)])
def test_the_card_set_view_says_what_the_flat_vector_says(players, scaled):
    obs = played_states(players, scaled)
    view = card_set(obs, players)
    lay = card_set_layout(players)
    named = split(obs, players)
    ids, cards, glob = view["card_ids"], view["cards"], view["globals"]
    f_dim, g_dim = len(lay["card_features"]), len(lay["globals"])
    assert ids.shape == (len(obs), CARD_SET_SIZE) and ids.dtype == np.int64
    assert cards.shape == (len(obs), CARD_SET_SIZE, f_dim) and cards.dtype == np.float32
    assert glob.shape == (len(obs), g_dim) and glob.dtype == np.float32
    assert f_dim == 11 + 3 * players
    # the ids are the game's piles, by id: 17 in every dealt game
    for n in range(len(obs)):
        assert ids[n].tolist() == np.flatnonzero(named["in_supply"][n]).tolist()
    rows = np.arange(len(obs))[:, None]
    for f, (name, piece, seat) in enumerate(lay["card_features"]):
        flat = named[piece] if seat is None else named[piece][:, seat]
        assert name == (piece if seat is None else f"{piece}[{seat}]")
        np.testing.assert_array_equal(cards[:, :, f], flat[rows, ids])
    for g, (_, piece, j) in enumerate(lay["globals"]):
        np.testing.assert_array_equal(glob[:, g], named[piece][:, j])
    # nothing left out: every entry is a global or a card's feature, and the cards outside
    # the set have nothing to say
    every = lay["feature_offsets"][None, :] + np.arange(NUM_CARDS)[:, None]  # (C, F)
    covered = np.concatenate([every.ravel(), lay["global_index"]])
    assert sorted(covered.tolist()) == list(range(obs_size(players)))
    outside = np.ones((len(obs), NUM_CARDS), bool)
    outside[rows, ids] = False
    assert not obs[:, every][outside].any()
    # the facts vary in these states (the check above is not a check of zeros)
    assert (cards != 0).sum() > 10 * len(obs) and len(np.unique(ids)) > 30


def test_one_observation_and_scenarios_with_more_or_fewer_cards():
    g = Game("First Game", 2, seed=1)
    one = card_set(g.observation(), 2)
    assert one["card_ids"].shape == (CARD_SET_SIZE,) and one["cards"].ndim == 2
    # a card handed out without a pile is one of the game's cards too: 18 need k=18
    g.set_scenario(hands=[["Witch", "Copper"], []])
    with pytest.raises(ValueError, match=r"row 0 holds 18 cards .* more than k=17 .* k=18"):
        card_set(g.observation(), 2)
    wide = card_set(g.observation(), 2, k=20)
    witch = NAMES.index("Witch")
    assert (wide["card_ids"] >= 0).sum() == 18 and witch in wide["card_ids"]
    assert wide["card_ids"][-2:].tolist() == [NO_CARD, NO_CARD]
    assert not wide["cards"][-2:].any()
    hand = [name for name, _, _ in card_set_layout(2)["card_features"]].index("hand")
    assert wide["cards"][list(wide["card_ids"]).index(witch), hand] == 1
    for bad, k in (
        (np.zeros(5, np.float32), 17),
        (np.zeros((2, obs_size(3)), np.float32), 17),
        (np.zeros(obs_size(2), np.int64), 17),
        (g.observation(), 0),
        (g.observation(), 65),
        (g.observation(), True),
    ):
        with pytest.raises(ValueError, match="obs must be|k \\(card slots\\)"):
            card_set(bad, 2, k)


@pytest.mark.parametrize("mask_in_observation", [False, True])
def test_gym_dict_space_contains_every_observation(mask_in_observation):
    env = DominionEnv(
        players=2,
        opponents="Big Money",
        observation="cards",
        mask_in_observation=mask_in_observation,
        seed=5,
    )
    space = env.observation_space
    flat = DominionEnv(players=2, opponents="Big Money", seed=5)
    rng = np.random.default_rng(0)
    seen = 0
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        ref, _ = flat.reset(seed=episode)
        done = False
        while not done:
            assert space.contains(obs), obs
            view = obs["observation"] if mask_in_observation else obs
            expected = card_set(ref, 2)
            for key in ("card_ids", "cards", "globals"):
                np.testing.assert_array_equal(view[key], expected[key])
            a = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
            obs, _, term, trunc, _ = env.step(a)
            ref, *_ = flat.step(a)
            done = term or trunc
            seen += 1
        assert space.contains(obs)
    assert seen > 100
    with pytest.raises(ValueError, match="observation must be one of 'flat', 'cards', got 'Cards'"):
        DominionEnv(observation="Cards")
    with pytest.raises(TypeError, match="observation must be one of"):
        DominionEnv(observation=None)


def _batch(players=2, n=64):
    obs = played_states(players, True, n=n, steps=(40, 120))
    vec = VecGame(1, players)
    mask = np.ones((len(obs), vec.reset(seed=0).action_mask.shape[1]), bool)
    mask[::3, 5:40] = False  # a few illegal actions, so -inf logits are in the comparison
    return obs, mask


@pytest.mark.parametrize("players", [2, 3])
def test_card_set_net_is_the_same_for_any_order_of_the_cards(players):
    torch.manual_seed(1)
    net = CardSetNet(players, embed=16, hidden=(32, 32)).eval()
    obs, mask = _batch(players)
    o, m = torch.from_numpy(obs), torch.from_numpy(mask)
    view = card_set(obs, players)
    ids = torch.from_numpy(view["card_ids"])
    cards = torch.from_numpy(view["cards"])
    glob = torch.from_numpy(view["globals"])
    with torch.no_grad():
        logits, value = net(o, m)
        # the flat vector and the view are read alike
        l2, v2 = net.forward_cards(ids, cards, ids >= 0, glob, m)
        torch.testing.assert_close(l2, logits, atol=1e-5, rtol=0)
        torch.testing.assert_close(v2, value, atol=1e-5, rtol=0)
        gen = torch.Generator().manual_seed(2)
        for _ in range(3):  # each row's slots in its own random order
            perm = torch.argsort(torch.rand(ids.shape, generator=gen), 1)
            l3, v3 = net.forward_cards(
                ids.gather(1, perm),
                cards.gather(1, perm[:, :, None].expand_as(cards)),
                (ids >= 0).gather(1, perm),
                glob,
                m,
            )
            torch.testing.assert_close(l3, logits, atol=1e-5, rtol=0)
            torch.testing.assert_close(v3, value, atol=1e-5, rtol=0)
    assert torch.isinf(logits[~m]).all() and torch.isfinite(logits[m]).all()
    assert logits[m].std() > 0 and value.std() > 0  # it reads the cards: rows differ


def test_card_set_agents_save_load_and_play(tmp_path):
    torch.manual_seed(3)
    net = CardSetNet(2, embed=8, hidden=(16,))
    info = AgentInfo(name="cards", players=2, hidden=(16,), network="cards", embed=8)
    path = save_agent(net, info, tmp_path / "a.pt")
    agent = load_agent(path)
    assert isinstance(agent.net, CardSetNet) and agent.info == info
    obs, mask = _batch()
    with torch.no_grad():
        for a, b in zip(
            net(torch.from_numpy(obs), torch.from_numpy(mask)),
            agent.net(torch.from_numpy(obs), torch.from_numpy(mask)),
            strict=True,
        ):
            torch.testing.assert_close(a, b, atol=0, rtol=0)
    assert agent.act(obs, mask).shape == (len(obs),)
    # a file from before the network field is an MLP
    mlp = PolicyNet(obs_size(2), (16,))
    old = asdict(AgentInfo(name="old", players=2, hidden=(16,)))
    del old["network"], old["embed"]
    tensorfile.write(tmp_path / "old.pt", "agent", mlp.state_dict(), {"info": old})
    loaded = load_agent(tmp_path / "old.pt")
    assert isinstance(loaded.net, PolicyNet) and loaded.info.network == "mlp"


def _crafted(tmp_path, change):
    torch.manual_seed(0)
    net = CardSetNet(2, embed=8, hidden=(16,))
    info = asdict(AgentInfo(name="c", players=2, hidden=(16,), network="cards", embed=8))
    sd = dict(net.state_dict())
    change(sd, info)
    return tensorfile.write(tmp_path / "bad.pt", "agent", sd, {"info": info})


@pytest.mark.parametrize(
    "change,message",
    [
        (
            lambda sd, info: sd.update({"embed.weight": torch.zeros(NUM_CARDS, 9)}),
            r"tensor 'embed.weight' is torch.float32 of shape \[64, 9\], expected float32 of "
            r"shape \[64, 8\]",
        ),
        (lambda sd, info: info.update(embed=16), r"tensor 'embed.weight' .* expected .*\[64, 16\]"),
        (lambda sd, info: info.update(players=3), r"tensor 'features.weight' .* \[8, 20\]"),
        (lambda sd, info: sd.pop("query.bias"), r"missing \['query.bias'\]"),
        (lambda sd, info: info.update(network="mlp"), r"first layer reads 24 inputs, which no"),
        (lambda sd, info: info.update(network="transformer"), r"info.network must be one of"),
        (lambda sd, info: info.update(embed=0), r"info.embed must be an int 1..1024, got 0"),
        (lambda sd, info: info.update(embed="8"), r"info.embed must be an int"),
    ],
)
def test_a_crafted_card_set_file_is_refused(tmp_path, change, message):
    path = _crafted(tmp_path, change)
    with pytest.raises(AgentFileError, match=message):
        load_agent(path)


def test_network_setting_is_checked():
    with pytest.raises(ValueError, match="network must be one of 'mlp', 'cards', got 'set'"):
        check_config(TrainConfig(network="set"))
    with pytest.raises(TypeError, match="network must be one of"):
        check_config(TrainConfig(network=None))
    with pytest.raises(ValueError, match="embed must be an int 1..1024, got 0"):
        check_config(TrainConfig(embed=0))


def test_trainer_smoke_with_the_card_set_network(tmp_path):
    cfg = TrainConfig(
        steps=1024,
        num_envs=32,
        rollout=16,
        epochs=1,
        minibatch=256,
        hidden=(16,),
        network="cards",
        embed=8,
        bc_steps=256,
        opponents={"Big Money": 1, "self": 1},
        log_every=512,
        snapshot_every=512,
        out=str(tmp_path / "run"),
    )
    t = train(cfg)
    assert isinstance(t.net, CardSetNet) and all(isinstance(s, CardSetNet) for s in t.snapshots)
    agent = load_agent(tmp_path / "run" / "agent.safetensors")
    assert agent.info.network == "cards" and agent.info.embed == 8
    resumed = Trainer.resume(tmp_path / "run", steps=2048)
    assert isinstance(resumed.net, CardSetNet) and resumed.steps == t.steps
    for a, b in zip(resumed.net.state_dict().values(), t.net.state_dict().values(), strict=True):
        torch.testing.assert_close(a, b, atol=0, rtol=0)
    resumed.learn()
    assert resumed.steps >= 2048
