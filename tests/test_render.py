"""The table as a picture (``render.render_image``, ``render_mode="rgb_array"``): its shape,
that it shows only what the viewer may know, that it changes as the game goes, and that
gymnasium's RecordVideo films a Dominion episode with it."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dominion_env import Game
from dominion_env.envs.gym_env import DominionEnv
from dominion_env.envs.render import IMAGE_SHAPE, render_game, render_image

KINGDOM = "First Game"


def scenario(p0_hand, p1_hand, p1_deck, p0_deck=("Copper",) * 5):
    g = Game(KINGDOM, players=2)
    g.set_scenario(
        hands=[list(p0_hand), list(p1_hand)],
        decks=[list(p0_deck), list(p1_deck)],
        discards=[["Estate"], ["Copper", "Copper"]],
        in_play=[[], ["Silver"]],
    )
    return g


def test_the_picture_is_an_rgb_array_of_the_declared_shape():
    for players in (2, 6):
        g = Game(KINGDOM, players=players, seed=4)
        img = render_image(g)
        assert img.shape == IMAGE_SHAPE == (720, 960, 3)
        assert img.dtype == np.uint8
        # drawn, not blank: several colours (tiles by card type, text, the header)
        assert len(np.unique(img.reshape(-1, 3), axis=0)) > 20


def test_an_opponents_hand_and_anyones_deck_order_leave_the_picture_unchanged():
    base = scenario(
        ["Village", "Copper", "Copper", "Estate", "Smithy"],
        ["Gold", "Gold", "Copper", "Copper", "Copper"],
        ["Moat", "Estate", "Copper"],
        ["Copper", "Silver", "Copper", "Estate", "Copper"],
    )
    hidden_changed = scenario(
        ["Village", "Copper", "Copper", "Estate", "Smithy"],
        # P1's cards are public (every gain is), where they lie is not: hand and deck dealt anew
        ["Moat", "Estate", "Copper", "Copper", "Gold"],
        ["Copper", "Gold", "Copper"],
        ["Silver", "Copper", "Estate", "Copper", "Copper"],  # P0's own deck, other order
    )
    np.testing.assert_array_equal(render_image(base, viewer=0), render_image(hidden_changed, 0))
    # the same change seen by P1 (whose hand it is) shows
    assert not np.array_equal(render_image(base, viewer=1), render_image(hidden_changed, 1))
    # and so does a change to the viewer's own hand
    own_changed = scenario(
        ["Village", "Copper", "Copper", "Estate", "Festival"],
        ["Gold", "Gold", "Copper", "Copper", "Copper"],
        ["Moat", "Estate", "Copper"],
        ["Copper", "Silver", "Copper", "Estate", "Copper"],
    )
    assert not np.array_equal(render_image(base, viewer=0), render_image(own_changed, 0))


def test_another_seats_pending_decision_is_not_shown_to_the_viewer():
    g = scenario(
        ["Militia", "Copper", "Copper", "Estate", "Smithy"],
        ["Gold", "Gold", "Copper", "Copper", "Copper"],
        ["Estate", "Estate", "Copper"],
    )
    g.step("Militia")  # P1 now chooses what to discard, from a hand P0 does not see
    assert g.current_player == 1
    seen_by_p0 = render_image(g, viewer=0)
    # the same cards of P1 dealt otherwise between hand and deck: P0 sees no difference
    h = scenario(
        ["Militia", "Copper", "Copper", "Estate", "Smithy"],
        ["Estate", "Estate", "Copper", "Copper", "Gold"],
        ["Gold", "Copper", "Copper"],
    )
    h.step("Militia")
    assert h.current_player == 1
    np.testing.assert_array_equal(seen_by_p0, render_image(h, viewer=0))
    assert "Legal: Copper, Gold" in render_game(g)  # while the decider's own view lists them
    assert not np.array_equal(render_image(g), render_image(h))


def test_the_gym_env_renders_the_learners_view_and_refuses_unknown_modes():
    env = DominionEnv(players=2, kingdom=KINGDOM, render_mode="rgb_array", learner_seat=1)
    env.reset(seed=2)
    img = env.render()
    assert img.shape == IMAGE_SHAPE and img.dtype == np.uint8
    np.testing.assert_array_equal(img, render_image(env.game, viewer=1, seat_labels={1: "learner"}))
    # gymnasium's checker, through make so that it tries every declared render mode
    made = gymnasium.make("Dominion-v2", players=2, render_mode="rgb_array")
    check_env(made.unwrapped, skip_render_check=False)
    with pytest.raises(ValueError, match=r"render_mode must be None or one of .*'rgb_array'"):
        DominionEnv(players=2, render_mode="rgb")


def test_the_pettingzoo_env_renders_the_view_of_the_agent_to_act():
    from pettingzoo.test import render_test

    from dominion_env.envs import pettingzoo_env

    env = pettingzoo_env.env(players=3, kingdom=KINGDOM, render_mode="rgb_array")
    env.reset(seed=5)
    raw = env.unwrapped
    frames = []
    for _ in range(12):
        img = env.render()
        assert img.shape == IMAGE_SHAPE and img.dtype == np.uint8
        seat = raw.possible_agents.index(env.agent_selection)
        np.testing.assert_array_equal(img, render_image(raw.game, viewer=seat))
        frames.append(img)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert not np.array_equal(frames[0], frames[-1])
    # PettingZoo's own check of every render mode the env declares
    render_test(lambda render_mode: pettingzoo_env.env(players=2, render_mode=render_mode))


def test_record_video_films_an_episode(tmp_path):
    pytest.importorskip("moviepy", reason="RecordVideo needs moviepy (the dev extra)")
    from gymnasium.wrappers import RecordVideo
    from moviepy import VideoFileClip

    env = DominionEnv(players=2, kingdom=KINGDOM, render_mode="rgb_array", turn_limit=6)
    folder = tmp_path / "videos"
    env = RecordVideo(env, str(folder), episode_trigger=lambda e: True, disable_logger=True)
    _, info = env.reset(seed=7)
    rng = np.random.default_rng(0)
    steps, done = 0, False
    while not done:
        mask = env.unwrapped.action_masks()
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        done = terminated or truncated
    env.close()
    videos = sorted(folder.glob("*.mp4"))
    assert [v.name for v in videos] == ["rl-video-episode-0.mp4"]
    assert videos[0].stat().st_size > 10_000
    with VideoFileClip(str(videos[0])) as clip:
        assert clip.fps == env.unwrapped.metadata["render_fps"] == 4
        frames = list(clip.iter_frames())
    assert abs(len(frames) - (steps + 1)) <= 1  # one frame at reset and one per step
    assert frames[0].shape == IMAGE_SHAPE and frames[0].dtype == np.uint8
    # the frames change as the game goes (a lossy codec: compare by a large margin)
    pairs = zip(frames[:-1], frames[1:], strict=True)
    diffs = [np.abs(a.astype(int) - b.astype(int)).mean() for a, b in pairs]
    assert sum(d > 1.0 for d in diffs) >= len(diffs) // 2
