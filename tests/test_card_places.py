"""A card lives in three places, and nothing is missing from any of them.

1. its row in the card table (``dominion_env/cards.py``);
2. its code in its set's module (``engine/base_cards.py``, ``engine/intrigue_cards.py``): the
   effect's step function, the decisions it asks with the bots' default play for each, its
   Reaction, declared in one ``CardCode`` row of the module's ``CARDS``;
3. its tests: at least one scenario test (``tests/scenario.py``: ``card_rows``, ``covers``)
   and its generator in the reference engine (``tests/reference.py``).

Everything else is generated from these, and these tests fail when one is incomplete: an
effect id with no step function, a decision with no bot default, a Reaction with no reaction,
a card with no scenario test.
"""

import ast
import linecache
from types import SimpleNamespace

import numpy as np
import pytest
import scenario
import test_base_cards  # noqa: F401  (registers its scenarios)
import test_intrigue_cards  # noqa: F401
import test_turn_rules  # noqa: F401
from reference import ReferenceGame

from dominion_env import VecGame
from dominion_env.cards import (
    ACTION,
    ATTACK,
    EFFECT,
    EFFECT_ID,
    EFFECT_NAMES,
    EFFECT_NONE,
    ID,
    NAMES,
    NUM_CARDS,
    REACTION,
    SETS,
    TABLE,
    TYPES,
)
from dominion_env.engine import base_cards, bots, effects, frames, intrigue_cards, layout
from dominion_env.engine.card_code import GENERIC
from dominion_env.engine.kingdoms import is_implemented
from dominion_env.engine.layout import (
    CARD_WORDS,
    DEC_BUY,
    DEC_EXCLUDE,
    DEC_KIND,
    DEC_NONE,
    DEC_PLAY_ACTION,
    DEC_PLAY_TREASURE,
    DEC_REACT,
    DEC_SOURCE,
    DECISION_NAMES,
    MAX_PLAYERS,
    NUM_REACTIONS,
    REACTED,
    REACTED_WORDS,
    REACTION_CARDS,
    REVEAL_BITS,
)

CODE = {code.name: code for code in effects.CARDS}
SET_MODULES = {"base2": base_cards, "base1": base_cards, "intrigue1": intrigue_cards}


def py(fn):
    """The Python function of an engine function (itself under NUMBA_DISABLE_JIT)."""
    return getattr(fn, "py_func", fn)


# -- effects ----------------------------------------------------------------------------------


def test_every_effect_has_exactly_one_card_code_row_in_its_sets_module():
    names = [code.name for code in effects.CARDS]
    assert len(names) == len(set(names)), "a card with two CardCode rows"
    assert set(names) == set(EFFECT_NAMES) - {EFFECT_NAMES[EFFECT_NONE]}
    for code in effects.CARDS:
        module = SET_MODULES[SETS[ID[code.name]]]
        assert code in module.CARDS, f"{code.name}: its row belongs in {module.__name__}"
        assert callable(code.step)


def switch_cases(name):
    """The key values of each branch of a ``jit.switch`` function, from its generated source."""
    tree = ast.parse("".join(linecache.getlines(f"<switch {name}>")))
    chain = tree.body[0].body[0]
    cases = []
    while isinstance(chain, ast.If):
        tests = chain.test.values if isinstance(chain.test, ast.BoolOp) else [chain.test]
        cases.append(tuple(t.comparators[0].value for t in tests))
        chain = chain.orelse[0] if chain.orelse else None
    return cases


def test_every_effect_id_has_exactly_one_dispatch_branch():
    cases = switch_cases("run_effect")
    ids = [e for (e,) in cases]
    assert sorted(ids) == list(range(1, len(EFFECT_NAMES))), "effect ids without a branch"
    assert len(ids) == len(set(ids)), "an effect id with two branches"
    for c in range(NUM_CARDS):  # and every card's effect id is one of them (or none)
        e = int(TABLE[c, EFFECT_ID])
        assert e == EFFECT_NONE or e in ids, NAMES[c]


def test_an_effect_id_without_a_branch_is_an_error_not_another_cards_effect():
    source = "".join(linecache.getlines("<switch run_effect>"))
    assert source.rstrip().splitlines()[-1].strip() == "return _otherwise(e, r, T, cfg, f)"
    with pytest.raises(RuntimeError, match="no step function"):
        py(effects._no_effect)(len(EFFECT_NAMES), None, None, None, 0)


def test_implemented_is_what_the_dispatch_holds():
    assert effects.IMPLEMENTED_EFFECTS == set(EFFECT_NAMES)
    assert all(is_implemented(n) for n in NAMES)


# -- decisions and the bots' defaults --------------------------------------------------------


def test_every_decision_a_card_asks_has_a_bot_default():
    missing = [
        (code.name, DECISION_NAMES[kind])
        for code in effects.CARDS
        for kind, default in code.decisions.items()
        if default is GENERIC and kind not in bots.GENERIC_KINDS
    ]
    assert not missing, f"decisions with neither a card default nor a generic rule: {missing}"
    assert set(bots.GENERIC_KINDS) < set(range(1, len(DECISION_NAMES)))


def test_every_card_default_is_dispatched():
    declared = sorted(
        (ID[code.name], kind)
        for code in effects.CARDS
        for kind, default in code.decisions.items()
        if default is not GENERIC
    )
    assert sorted(switch_cases("card_default")) == declared


def _asked_in_random_games():
    """(source card id, decision kind) of every decision random games stop at."""
    seen = set()
    for players in (2, 3, 4, 6):
        vec = VecGame(256, players=players, autoplay_treasures=False, auto_resolve=False)
        vec.reset(seed=players)
        for _ in range(600):
            vec.step(vec.random_actions())
            game = vec.state["game"]
            seen.update(zip(game[:, DEC_SOURCE].tolist(), game[:, DEC_KIND].tolist(), strict=True))
    return seen


def _asked_in_scenarios():
    """The same for the decisions of the card scenario rows, replayed."""
    for module in (test_base_cards, test_intrigue_cards):
        for _, setup, steps, *_ in module.CARD_ROWS:
            module.Scenario(steps=steps, **setup).run(steps)
    return {
        (ID[source] if source else -1, DECISION_NAMES.index(kind))
        for source, kind in scenario.ASKED
    }


@pytest.fixture(scope="module")
def observed():
    return _asked_in_random_games() | _asked_in_scenarios()


def test_cards_ask_only_the_decisions_their_row_declares(observed):
    """The declarations are the truth: a decision a card asks that its row does not list
    would reach the bots' fallback unnoticed."""
    undeclared = []
    for source, kind in observed:
        if kind == DEC_NONE:
            continue
        if source < 0:
            assert kind in (DEC_PLAY_ACTION, DEC_PLAY_TREASURE, DEC_BUY), DECISION_NAMES[kind]
        elif kind == DEC_REACT:  # the reaction window of an Attack (attacks.py)
            assert TABLE[source, TYPES] & ATTACK, NAMES[source]
        elif kind not in CODE[NAMES[source]].decisions:
            undeclared.append((NAMES[source], DECISION_NAMES[kind]))
    assert not undeclared, f"decisions missing from their card's CardCode row: {undeclared}"


def test_every_declared_decision_is_asked(observed):
    unseen = [
        (code.name, DECISION_NAMES[kind])
        for code in effects.CARDS
        for kind in code.decisions
        if (ID[code.name], kind) not in observed
    ]
    assert not unseen, f"declared but asked neither in random games nor in scenarios: {unseen}"


# -- Reactions and card bit sets --------------------------------------------------------------


def test_reactions_are_the_reaction_cards_of_the_table_each_with_its_reaction():
    table = [c for c in range(NUM_CARDS) if TABLE[c, TYPES] & REACTION]
    assert list(REACTION_CARDS) == table and NUM_REACTIONS == len(table)
    with_reaction = sorted(ID[code.name] for code in effects.CARDS if code.reaction is not None)
    assert with_reaction == table
    assert sorted(c for (c,) in switch_cases("react")) == table


def test_reveal_counts_have_room_for_every_player_and_reaction():
    assert REACTED_WORDS * 64 >= REVEAL_BITS * MAX_PLAYERS * NUM_REACTIONS
    assert 64 % REVEAL_BITS == 0  # a count never straddles two words
    assert layout.NUM_GAME_FIELDS == layout.PLAYERS + 1 > REACTED + REACTED_WORDS - 1


def test_card_bit_sets_hold_every_card_id():
    assert CARD_WORDS * 64 >= NUM_CARDS
    assert layout.UNAFFECTED == DEC_EXCLUDE + CARD_WORDS  # the words are the set's own


@pytest.mark.parametrize("card", [0, 1, 63, 64, 65, 127, 128, 190])
def test_card_bit_set_helpers_past_64_cards(card):
    """The helpers address word c // 64: a set of 3 words holds card ids up to 191."""
    r = SimpleNamespace(game=np.zeros(DEC_EXCLUDE + 3, np.int64))
    py(frames.exclude_card)(r, card)
    assert [c for c in range(192) if py(frames.card_in_set)(r.game, DEC_EXCLUDE, c)] == [card]
    py(frames.exclude_card)(r, 5)
    assert py(frames.card_in_set)(r.game, DEC_EXCLUDE, 5) == 1


def test_exclude_all_but_keeps_one_card():
    r = SimpleNamespace(game=np.zeros(layout.NUM_GAME_FIELDS, np.int64))
    py(frames.exclude_all_but)(r, ID["Estate"])
    kept = [c for c in range(NUM_CARDS) if not py(frames.card_in_set)(r.game, DEC_EXCLUDE, c)]
    assert kept == [ID["Estate"]]


# -- tests ------------------------------------------------------------------------------------


def test_every_card_has_a_scenario_test():
    missing = [n for n in NAMES if not scenario.SCENARIOS.get(n)]
    assert not missing, f"cards with no scenario test (scenario.card_rows / covers): {missing}"
    assert set(scenario.SCENARIOS) <= set(NAMES)


def test_every_card_has_its_printed_cost_in_the_scenario_oracle():
    assert set(scenario.COST) == set(NAMES)  # tests/scenario.py, independent of the table


def test_every_action_card_has_a_reference_implementation():
    missing = [
        n
        for n in NAMES
        if TABLE[ID[n], TYPES] & ACTION
        and not hasattr(ReferenceGame, "card_" + n.lower().replace(" ", "_"))
    ]
    assert not missing, f"Action cards missing from tests/reference.py: {missing}"


def test_effect_names_are_card_names():
    assert all(name in ID for name in EFFECT_NAMES[1:])
    assert all(EFFECT[name] == TABLE[ID[name], EFFECT_ID] for name in EFFECT_NAMES[1:])
