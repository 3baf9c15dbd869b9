"""Scenario tests for the end of the game: end conditions, scoring, tie-breaks, truncation."""

import numpy as np
import pytest

from dominion_env import NUM_ACTIONS, Game, VecGame

VANILLA = [
    "Village",
    "Smithy",
    "Laboratory",
    "Market",
    "Festival",
    "Woodcutter",
    "Great Hall",
    "Harem",
    "Gardens",
    "Duke",
]


def game(players=2, **kw):
    kw.setdefault("auto_resolve", False)
    kw.setdefault("autoplay_treasures", False)
    return Game(VANILLA, players=players, seed=0, **kw)


def rewards(g):
    return [float(x) for x in g.rewards]


def assert_running(g, player):
    assert not g.done and not g.terminated and not g.truncated
    assert g.current_player == player
    assert rewards(g) == [0.0] * g.players


def assert_terminated(g, expected_rewards):
    assert g.done and g.terminated and not g.truncated
    assert g.current_player == -1
    assert g.turn["phase"] == "over"
    assert g.legal_actions() == []
    assert rewards(g) == expected_rewards


# ---------------------------------------------------------------------------------------------
# End conditions
# ---------------------------------------------------------------------------------------------


def test_last_province_ends_game_at_end_of_turn_not_mid_turn():
    g = game()
    g.set_scenario(
        phase="buying", coins=8, buys=2, supply={"Province": 1}, decks={0: ["Copper"] * 5}
    )
    g.step("Province")
    assert g.supply["Province"] == 0
    # still P0's Buy phase: one Buy left, the game goes on until the turn ends
    assert_running(g, 0)
    assert g.decision["kind"] == "buy"
    assert g.turn["buys"] == 1 and g.turn["coins"] == 0
    g.step("Curse")  # the last Buy: the turn ends, then the game
    assert_terminated(g, [1.0, -1.0])
    assert g.zones(0)["discard"] == {"Province": 1, "Curse": 1}
    assert g.zones(0)["hand"] == {"Copper": 5}  # Clean-up ran before the end check
    assert g.scores() == [5, 0]


def test_empty_province_pile_at_turn_start_ends_after_that_turn():
    g = game()
    g.set_scenario(supply={"Province": 0}, hands={0: ["Village"]}, decks={0: ["Estate"]})
    assert_running(g, 0)
    assert g.decision["kind"] == "play_action"
    g.step("Village")
    assert_running(g, 0)
    g.step("PASS")  # buy nothing
    assert_terminated(g, [1.0, -1.0])  # P0 has an Estate, P1 nothing
    assert g.scores() == [1, 0]


def test_game_does_not_end_with_provinces_left():
    g = game()
    g.set_scenario(phase="buying", coins=8, supply={"Province": 2})
    g.step("Province")
    assert_running(g, 1)
    assert g.supply["Province"] == 1
    assert g.turn["player"] == 1


# players, piles emptied (before the turn), game over at the end of the turn
PILE_ROWS = [
    (2, ["Village", "Smithy"], False),
    (2, ["Village", "Smithy", "Market"], True),
    (2, ["Curse", "Estate", "Copper"], True),  # basic piles count too
    (2, ["Duke", "Gardens", "Harem"], True),  # so do Victory kingdom piles
    (2, ["Village", "Smithy", "Market", "Festival"], True),
    (3, ["Curse", "Smithy"], False),
    (3, ["Curse", "Smithy", "Great Hall"], True),
    (4, ["Silver", "Gold"], False),
    (4, ["Silver", "Gold", "Laboratory"], True),
    (5, ["Village", "Smithy"], False),
    (5, ["Village", "Smithy", "Market"], False),
    (5, ["Village", "Smithy", "Market", "Festival"], True),
    (6, ["Curse", "Estate", "Duchy"], False),
    (6, ["Curse", "Estate", "Duchy", "Woodcutter"], True),
    (5, ["Province"], True),
    (6, ["Province"], True),
]


@pytest.mark.parametrize(
    "players,empty,over",
    PILE_ROWS,
    ids=[f"{p}p-{len(e)}-{'end' if o else 'go on'}" for p, e, o in PILE_ROWS],
)
def test_empty_piles_end_condition(players, empty, over):
    g = game(players)
    # $3: something is left to buy (a Buy with nothing to choose is never asked)
    g.set_scenario(phase="buying", coins=3, supply={c: 0 for c in empty}, hands={0: ["Estate"]})
    assert_running(g, 0)
    g.step("PASS")
    if over:
        assert_terminated(g, [1.0] + [-1.0] * (players - 1))  # P0 has the only VP
    else:
        assert_running(g, 1)
        assert g.turn["player"] == 1


@pytest.mark.parametrize("players,already_empty", [(2, 2), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_emptying_the_last_needed_pile_ends_at_end_of_turn(players, already_empty):
    piles = ["Village", "Smithy", "Festival", "Laboratory"][:already_empty]
    g = game(players)
    g.set_scenario(
        phase="buying",
        coins=5,
        buys=2,
        supply={**{c: 0 for c in piles}, "Market": 1},
        hands={0: ["Estate"]},
    )
    g.step("Market")
    assert g.supply["Market"] == 0
    assert_running(g, 0)  # mid-turn: not over yet
    g.step("PASS")
    # P0 has 1 VP (Estate) and the others nothing: P0 wins alone
    assert_terminated(g, [1.0] + [-1.0] * (players - 1))


def test_end_check_runs_after_every_players_turn():
    g = game(3)
    g.set_scenario(
        phase="buying", turn_player=2, coins=8, supply={"Province": 1}, hands={1: ["Estate"]}
    )
    g.step("Province")  # the only Buy: P2's turn ends and so does the game
    assert_terminated(g, [-1.0, -1.0, 1.0])
    assert g.scores() == [0, 1, 6]


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------

# P0's cards per zone (hand, deck, discard, in_play, aside) and P0's expected score
SCORE_ROWS = [
    ("basics", dict(hands=["Estate", "Duchy", "Province"]), 10),
    ("curses", dict(hands=["Curse", "Curse"], discards=["Curse"]), -3),
    ("great hall and harem", dict(hands=["Great Hall"], decks=["Harem", "Harem"]), 5),
    ("gardens 9 cards", dict(hands=["Gardens"], decks=["Copper"] * 8), 0),
    ("gardens 10 cards", dict(hands=["Gardens"], decks=["Copper"] * 9), 1),
    ("gardens 19 cards", dict(hands=["Gardens"], decks=["Copper"] * 9, discards=["Copper"] * 9), 1),
    (
        "gardens 20 cards all zones",
        dict(
            hands=["Gardens", "Copper"],
            decks=["Copper"] * 5,
            discards=["Copper"] * 6,
            in_play=["Village"] * 4,
            aside=["Silver"] * 3,
        ),
        2,
    ),
    ("gardens counts curses", dict(hands=["Gardens"], decks=["Curse"] * 9), 1 - 9),
    ("two gardens 30 cards", dict(hands=["Gardens", "Gardens"], discards=["Copper"] * 28), 6),
    ("gardens 39 cards", dict(hands=["Gardens"], discards=["Estate"] * 38), 3 + 38),
    ("duke no duchy", dict(hands=["Duke"]), 0),
    ("duke three duchies", dict(hands=["Duke"], decks=["Duchy", "Duchy"], discards=["Duchy"]), 12),
    ("two dukes two duchies", dict(hands=["Duke", "Duchy"], in_play=["Duke"], aside=["Duchy"]), 10),
    (
        "mixed",
        dict(
            hands=["Province", "Duchy", "Estate", "Curse", "Curse", "Great Hall", "Harem"],
            decks=["Gardens"],
            discards=["Duke"] * 2,
        ),
        11 + 1 + 2,
    ),
    ("no cards", dict(), 0),
]


@pytest.mark.parametrize(
    "zones,expected", [r[1:] for r in SCORE_ROWS], ids=[r[0] for r in SCORE_ROWS]
)
def test_scores(zones, expected):
    g = game()
    g.set_scenario(**{k: {0: v} for k, v in zones.items()}, trash={"Province": 2}, phase="buying")
    # the trash and the other player's cards do not count for P0
    assert g.scores() == [expected, 0]


def test_scores_per_player_and_other_players_cards_do_not_count():
    g = game(3)
    g.set_scenario(
        hands={0: ["Gardens"], 1: ["Duke"], 2: ["Curse"]},
        decks={0: ["Copper"] * 9, 2: ["Duchy"] * 2},
        discards={1: ["Estate"] * 20},
    )
    assert g.scores() == [1, 20, 5]


def test_rewards_follow_scores_not_who_ended_the_game():
    g = game()
    g.set_scenario(
        phase="buying", coins=8, supply={"Province": 1}, hands={1: ["Province", "Province"]}
    )
    g.step("Province")  # P0 takes the last Province but P1 has more VP
    assert_terminated(g, [-1.0, 1.0])
    assert g.scores() == [6, 12]


def test_gardens_scores_count_at_game_end():
    g = game()
    g.set_scenario(
        phase="buying",
        coins=4,
        supply={"Province": 0},
        hands={0: ["Gardens"]},
        decks={0: ["Copper"] * 8},
        discards={1: ["Estate"]},
    )
    assert g.scores() == [0, 1]
    g.step("Gardens")  # 10 cards, 2 Gardens: 2 VP
    assert_terminated(g, [1.0, -1.0])
    assert g.scores() == [2, 1]


# ---------------------------------------------------------------------------------------------
# Tie-breaks
# ---------------------------------------------------------------------------------------------


def test_tie_fewer_turns_wins():
    """P0 ends the game on its turn: P0 has had one more turn than P1, so P1 wins the tie."""
    g = game()
    g.set_scenario(
        phase="buying",
        turn_player=0,
        turns_taken=[5, 5],
        supply={"Province": 0},
        hands={0: ["Duchy"], 1: ["Estate"] * 3},
    )
    g.step("PASS")
    assert g.scores() == [3, 3]
    assert_terminated(g, [-1.0, 1.0])


def test_tie_same_turns_shared_win():
    g = game()
    g.set_scenario(
        phase="buying",
        turn_player=1,
        turns_taken=[5, 4],
        supply={"Province": 0},
        hands={0: ["Duchy"], 1: ["Estate"] * 3},
    )
    g.step("PASS")
    assert g.scores() == [3, 3]
    assert_terminated(g, [0.0, 0.0])


def test_more_vp_beats_fewer_turns():
    g = game()
    g.set_scenario(
        phase="buying",
        turn_player=0,
        turns_taken=[5, 5],
        supply={"Province": 0},
        hands={0: ["Duchy", "Estate"], 1: ["Estate"] * 3},
    )
    g.step("PASS")
    assert_terminated(g, [1.0, -1.0])


@pytest.mark.parametrize(
    "turn_player,turns_taken,expected",
    [
        # P0 and P2 tie on VP; P1 is behind
        (2, [3, 3, 2], [0.0, -1.0, 0.0]),  # equal turns (3 each): shared win
        (0, [3, 3, 3], [-1.0, -1.0, 1.0]),  # P0 ends with 4 turns, P2 has 3: P2 wins
        (1, [3, 2, 2], [-1.0, -1.0, 1.0]),  # P1's turn ends it: P0 3 turns, P2 2 turns
    ],
)
def test_three_player_tie_breaks(turn_player, turns_taken, expected):
    g = game(3)
    g.set_scenario(
        phase="buying",
        turn_player=turn_player,
        turns_taken=turns_taken,
        supply={"Province": 0},
        hands={0: ["Province"], 1: ["Duchy"], 2: ["Duchy", "Duchy"]},
    )
    g.step("PASS")
    assert g.scores() == [6, 3, 6]
    assert_terminated(g, expected)


def test_all_zero_vp_and_equal_turns_is_shared_by_all():
    g = game(4)
    g.set_scenario(phase="buying", turn_player=3, turns_taken=[2, 2, 2, 1], supply={"Province": 0})
    g.step("PASS")
    assert_terminated(g, [0.0] * 4)


def test_zero_vp_first_player_ends_game_loses_tie():
    g = game(3)
    g.set_scenario(phase="buying", turn_player=0, turns_taken=[1, 1, 1], supply={"Province": 0})
    g.step("PASS")
    assert_terminated(g, [-1.0, 0.0, 0.0])


# ---------------------------------------------------------------------------------------------
# Turn limit
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,limit", [(2, 1), (2, 3), (3, 2)])
def test_turn_limit_truncates_with_zero_rewards(players, limit):
    g = Game(VANILLA, players=players, seed=1, turn_limit=limit, first_player=0)
    steps = 0
    while not g.done:
        g.step("PASS")  # every decision here can pass (no Actions in the starting deck)
        steps += 1
    assert steps == players * limit  # every player had exactly ``limit`` turns
    assert g.truncated and not g.terminated
    assert rewards(g) == [0.0] * players
    assert g.current_player == -1
    assert sum(line.startswith("--- turn") for line in g.log()) == players * limit


def test_turn_limit_truncation_ignores_scores():
    g = game(turn_limit=3)
    g.set_scenario(phase="buying", turn_player=1, turns_taken=[3, 2], hands={0: ["Province"] * 3})
    g.step("PASS")
    assert g.truncated and not g.terminated and g.done
    assert rewards(g) == [0.0, 0.0]
    assert g.scores() == [18, 0]


def test_turn_limit_not_reached_goes_on():
    g = game(turn_limit=3)
    g.set_scenario(phase="buying", turn_player=0, turns_taken=[2, 2])
    g.step("PASS")
    assert_running(g, 1)


def test_game_end_on_the_last_allowed_turn_is_terminated_not_truncated():
    g = game(turn_limit=3)
    g.set_scenario(
        phase="buying", turn_player=1, turns_taken=[3, 2], coins=8, supply={"Province": 1}
    )
    g.step("Province")
    assert_terminated(g, [-1.0, 1.0])


def test_vecgame_truncation_and_termination_flags():
    vec = VecGame(2, players=2, kingdom=VANILLA, turn_limit=1, autoreset=False, first_player=0)
    vec.reset(seed=3)
    PASS = vec.action_mask.shape[1] - 1
    seen_trunc = np.zeros(2, bool)
    for _ in range(10):
        if not vec.running.any():
            break
        out = vec.step(np.full(2, PASS, np.int64))
        seen_trunc |= out.truncated
        assert not out.terminated.any()
        assert (out.rewards == 0).all()
    assert not vec.running.any()
    assert seen_trunc.all()
    assert (vec.current_player == -1).all()


def test_vecgame_reports_each_finished_game_on_its_last_step():
    """Play random games (no autoreset): on the step a game ends, VecGame.step must return
    terminated or truncated for it and its final rewards (+1 / 0 / -1, as in the state)."""
    n = 8
    vec = VecGame(n, players=2, kingdom=VANILLA, turn_limit=20, autoreset=False)
    vec.reset(seed=11)
    rng = np.random.default_rng(0)
    ended_on_step = {}
    for _ in range(20000):
        if not vec.running.any():
            break
        before = vec.running.copy()
        actions = np.full(n, NUM_ACTIONS - 1, np.int64)  # PASS for finished games (ignored)
        for g in np.flatnonzero(before):
            actions[g] = rng.choice(np.flatnonzero(vec.action_mask[g]))
        out = vec.step(actions)
        for g in np.flatnonzero(before & ~vec.running):
            ended_on_step[int(g)] = (
                bool(out.terminated[g]),
                bool(out.truncated[g]),
                out.rewards[g].tolist(),
            )
        # a game still running reports nothing
        assert not (out.terminated | out.truncated)[vec.running].any()
    assert not vec.running.any() and len(ended_on_step) == n
    for g, (term, trunc, rew) in ended_on_step.items():
        assert term != trunc, f"game {g}: terminated={term} truncated={trunc}"
        if term:
            assert sorted(rew) in ([-1.0, 1.0], [0.0, 0.0]), f"game {g}: {rew}"
        else:
            assert rew == [0.0, 0.0]
