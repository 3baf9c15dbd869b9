"""Strategy profiles (``analysis.profile``): buys, plays and the fourth Province, counted
exactly, and a match's win rates the arena's."""

from types import SimpleNamespace

import numpy as np

from dominion_env import Game
from dominion_env.agents import BOTS
from dominion_env.analysis.mixed import play_mixed
from dominion_env.analysis.profile import BUY, PROVINCE, BuyPlayCounts, profile_match
from dominion_env.cards import ID, NUM_CARDS
from dominion_env.engine.layout import DECISION_NAMES, DISCARD, HAND, IN_PLAY


def test_buys_are_what_each_seat_gained_in_big_money_games():
    """Big Money only buys (no trashing, no other gains on First Game), so each seat's cards at
    the end are its starting deck plus what the tally saw it buy."""
    seen = {}

    def watch(vec, start, actions):
        seen["vec"] = vec
        tally(vec, start, actions)

    tally = BuyPlayCounts(40, 2)
    play_mixed([BOTS["Big Money"], BOTS["Big Money Ultimate"]], 40, 2, "First Game", seed=4,
               watch=watch)  # fmt: skip
    s = seen["vec"].state
    owned = s["zone"][:, :2, [HAND, DISCARD, IN_PLAY]].sum(axis=2) + s["deck_count"][:, :2]
    start = np.zeros(NUM_CARDS, np.int64)
    start[ID["Copper"]], start[ID["Estate"]] = 7, 3
    np.testing.assert_array_equal(tally.buys, owned - start)
    assert tally.buys[:, :, ID["Province"]].sum() > 40


def test_plays_count_each_action_chosen_and_twice_what_throne_room_plays():
    kingdom = ["Throne Room", "Village", "Smithy", "Cellar", "Market"]
    kingdom += ["Militia", "Mine", "Moat", "Remodel", "Workshop"]
    g = Game(kingdom, 2, seed=1)
    g.set_scenario(hands={0: ["Village", "Throne Room", "Smithy", "Copper", "Estate"]})
    tally = BuyPlayCounts(1, 2)
    kinds = []
    for card in ("Village", "Throne Room", "Smithy"):
        kinds.append(DECISION_NAMES[g._vec.decision_kind[0]])
        tally(g._vec, 0, np.array([ID[card]]))
        g.step(card)
    assert kinds == ["play_action", "play_action", "play_twice"]
    assert tally.plays[0, 0, ID["Village"]] == tally.plays[0, 0, ID["Throne Room"]] == 1
    assert tally.plays[0, 0, ID["Smithy"]] == 2
    assert tally.plays.sum() == 4 and tally.buys.sum() == 0


def test_the_fourth_province_is_the_round_of_its_buy():
    """Three players: a Province bought in turn t is in round ceil(t / 3); the fourth counts,
    the fifth does not move it, and a seat with three has none."""
    tally = BuyPlayCounts(2, 3)
    buys = [(0, 0, 2), (0, 0, 5), (1, 1, 6), (0, 0, 8), (0, 0, 13), (0, 0, 16), (1, 1, 9)]
    for game, seat, turn in buys:
        vec = SimpleNamespace(
            decision_kind=np.array([BUY, BUY]),
            current_player=np.array([seat, seat]),
            turn_number=np.array([turn, turn]),
        )
        actions = np.full(2, -1)
        actions[game] = PROVINCE
        tally(vec, 0, actions)
    assert tally.fourth[0, 0] == 5  # the fourth Province in turn 13: round 5 of 3 players
    assert np.isnan(tally.fourth[1, 1]) and np.isnan(tally.fourth[0, 1])
    assert tally.buys[0, 0, PROVINCE] == 5


def test_a_profile_holds_the_matchs_results_and_means():
    players = [BOTS["Smithy"], BOTS["Big Money"]]
    prof = profile_match(players, "First Game", 60, seed=2)
    res = play_mixed(players, 60, 2, "First Game", seed=2)
    mine = res.reward[res.seat_bot == 0]
    assert prof.wins[0] == (mine == 1).sum() and prof.games.tolist() == [60, 60]
    assert prof.per_game("Smithy", "plays")["Big Money"] == 0
    assert prof.per_game("Smithy", "plays")["Smithy"] > 1
    rows = prof.rows()
    assert [r["player"] for r in rows] == ["Smithy", "Big Money"]
    assert 0 < rows[0]["4th Province, median round"] < 30
    assert abs(prof.win_rate(0) + prof.win_rate(1) - 1) < 1e-9  # 2 players: rates sum to 1
