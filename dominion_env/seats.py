"""Who answers each seat of a game with people at it: the table's bots, agents and the search.

    opponents = check_opponents([get_bot("Big Money"), load_agent("ppo-3p")])
    answer = seat_players([None, *opponents], seed)   # None: a person's seat
    action = answer(game)                             # for the seat that decides now

``dominion play`` (``dominion_env.play``, the terminal) and ``dominion serve``
(``dominion_env.web.games``, the browser) seat their players through this module, so a bot,
an agent or the search plays the same in both. A person sits at seat ``YOU`` (P0) of a
played game. Not to be confused with ``dominion_env.train.seats``: the trainer's batches of
games, where a learner's opponents sit.
"""

from __future__ import annotations

import numpy as np

from .agents import Bot, compile_bots
from .analysis.mixed import is_policy
from .cards import MAX_PLAYERS
from .checks import check_agent_players
from .engine.observation import obs_scale
from .game import Game
from .protocols import decides_from_game

YOU = 0  # the person's seat in a played game


def check_opponents(opponents: list) -> list:
    """Bots and policies, 1 to 5 of them (one seat each beside yours)."""
    if not isinstance(opponents, (list, tuple)) or not 1 <= len(opponents) <= MAX_PLAYERS - 1:
        raise ValueError(
            f"opponents must be 1 to {MAX_PLAYERS - 1} bots or agents (one seat each), got "
            f"{len(opponents) if isinstance(opponents, (list, tuple)) else repr(opponents)}"
        )
    players = len(opponents) + 1
    for o in opponents:
        if not isinstance(o, Bot) and not is_policy(o):
            raise TypeError(f"an opponent is a Bot or a policy with act(obs, masks), got {o!r}")
        check_agent_players(o, players, "this table")
    return list(opponents)


def seat_players(seats: list, seed: int):
    """``answer(game) -> action index`` for the seat that decides now, where ``seats[p]`` is
    the Bot or policy at seat p (None: a person's seat, never asked). Bots answer with their
    compiled code (one BotTable for all of them; a Random bot draws from one stream seeded
    ``seed``), agents with their network on their own honest observation, scaled as they were
    trained, the search (``act_games``) from the game itself."""
    bots = [k for k, o in enumerate(seats) if isinstance(o, Bot)]
    table = compile_bots([seats[k] for k in bots]) if bots else None
    bot_id = {k: i for i, k in enumerate(bots)}
    rng = np.array([seed], np.uint64)  # a Random bot's stream
    scale = obs_scale(len(seats))

    def answer(game: Game) -> int:
        p = game.current_player
        o = seats[p]
        if o is None:
            raise ValueError(f"seat P{p} is a person's: it has no bot or agent to answer")
        if isinstance(o, Bot):
            return game.bot_action_id(table, bot_id[p], rng)
        if decides_from_game(o):  # the search (dominion_env.search)
            return int(o.act_games(game.vec, [0])[0])
        obs = game.observation()
        obs = obs / scale if o.scale_observations else obs
        return int(o.act(obs[None], game.action_mask[None].copy())[0])

    return answer
