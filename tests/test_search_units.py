"""The searches' two small units: sequential halving's schedules (``search.halving``) and
mctx's q-transform (``search.qtransform``), each against numbers worked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from dominion_env.search import halving, qtransform


def test_the_arms_of_each_round_halve_rounded_up():
    assert halving.arms(18) == [18, 9, 5, 3, 2]
    assert halving.arms(2) == [2] and halving.arms(1) == [] and halving.arms(0) == []
    assert halving.ROUNDS[18] == 5 and halving.ARMS[18, :6].tolist() == [18, 9, 5, 3, 2, 0]
    assert halving.LATER_COST[18, :5].tolist() == [19, 10, 5, 2, 0]


def test_the_most_arms_a_budget_searches():
    assert halving.most_arms(37) == 18 and halving.most_arms(36) == 17
    assert halving.most_arms(5) == 3 and halving.most_arms(1) == 1


def test_the_flat_share_leaves_every_later_round_one_simulation_per_arm():
    m = np.array([18, 18, 2, 1])
    # budget 200, nothing spent: 200 // 5 rounds // 18 arms = 2 each in round 0
    assert halving.flat_share(200, np.zeros(4, np.int64), m, 0).tolist() == [2, 2, 100, 0]
    # budget 37 for 18 arms: exactly one each in every round
    spent = np.zeros(1, np.int64)
    for j, k in enumerate([18, 9, 5, 3, 2]):
        n = halving.flat_share(37, spent, np.array([18]), j)
        assert n.tolist() == [1]
        spent += n * k
    assert spent.tolist() == [37]
    assert halving.flat_share(37, spent, np.array([18]), 5).tolist() == [0]  # past its rounds


def test_mctx_share_and_its_cut_round():
    # budget 64 over 16 arms: log2 16 = 4 rounds, 64 // (4 x 16) = 1 each
    n, spare = halving.mctx_share(64, np.array([0]), np.array([16]), np.array([16]))
    assert n.tolist() == [1] and spare.tolist() == [0]
    # 10 left for 4 arms at 4 each: the round is cut to 2 each and 2 spare for the best
    n, spare = halving.mctx_share(64, np.array([54]), np.array([4]), np.array([16]))
    assert n.tolist() == [2] and spare.tolist() == [2]


def test_rank_and_keep_best_break_ties_by_index():
    score = np.array([[0.5, 0.9, 0.5, -1.0]])
    assert halving.rank(score).tolist() == [[1, 0, 2, 3]]
    alive = np.array([[True, True, True, False]])
    assert halving.keep_best(alive, score, np.array([2])).tolist() == [[True, True, False, False]]
    # a dead arm never comes back, however well it scores
    dead_best = np.array([[0.0, 0.0, 0.0, 9.0]])
    assert not halving.keep_best(alive, dead_best, np.array([3]))[0, 3]


def test_completed_q_mixes_the_root_value_for_unvisited_actions():
    masks = np.array([[True, True, True, False]])
    logits = np.log(np.array([[0.5, 0.25, 0.25, 1.0]]))
    logits[0, 3] = -np.inf
    sums = np.array([[3.0, -1.0, 0.0, 0.0]])
    visits = np.array([[3, 1, 0, 0]])
    q = qtransform.complete(sums, visits, masks, logits, np.array([0.2]))
    # visited: their means; the unvisited: (0.2 + 4 x (0.5 x 1 + 0.25 x -1) / 0.75) / 5
    weighted = (0.5 * 1.0 + 0.25 * -1.0) / 0.75
    assert q[0, :3] == pytest.approx([1.0, -1.0, (0.2 + 4 * weighted) / 5])
    assert q[0, 3] == 0.0  # illegal


def test_sigma_rescales_to_the_legal_range_and_grows_with_visits():
    masks = np.array([[True, True, True, False]])
    completed = np.array([[1.0, -1.0, 0.0, 5.0]])
    visits = np.array([[3, 1, 0, 0]])
    s = qtransform.sigma(completed, visits, masks, c_visit=50.0, c_scale=0.1)
    assert s[0].tolist() == pytest.approx([5.3, 0.0, 2.65, 0.0])
    # however small the gap, the best gets the whole scale: noisy q become confident targets
    near = qtransform.sigma(np.array([[0.01, 0.0, 0.0, 0.0]]), visits, masks, 50.0, 0.1)
    assert near[0, 0] == pytest.approx(5.3) and near[0, 1] == 0.0


def test_softmax_gives_illegal_actions_nothing():
    p = qtransform.softmax(np.array([[0.0, 0.0, -np.inf]]))
    assert p.tolist() == [[0.5, 0.5, 0.0]]
