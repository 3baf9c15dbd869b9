"""Per-kingdom evolutionary search over bots in the strategy language (Provincial's manner).

    res = optimize("First Game", players=2, minutes=2, seed=0)
    print(res.best.to_toml())      # loadable by --bots-file (simulate, tournament)
    print(describe(res.best))      # in words a player reads
    res.record                     # its games against the kingdom's library bots, fresh seeds

The loop (``optimize``), each generation:

1. score every bot of the population, and the anchor (the strongest library bot of the
   kingdom, ``STRENGTH_ORDER``), against the pool: the last ``leaders`` leaders (best bots of
   earlier generations) and the ``library`` (default 1) strongest library bots whose cards are
   in the kingdom; ``games`` games per (bot, opponent) pairing, seats rotated, compiled
   batches spread over ``map`` (``executor.RayMap`` for Ray). A result is 1 a win, 1/2 a
   shared win, 0 a loss or a game cut at the turn limit; a bot's score this generation is its
   mean result against the library bots and its mean against the leaders, half each (the
   library alone while there are no leaders): the leaders keep it general, the library holds
   it to the bar it is judged by. Common random numbers (``score``): every bot plays the very
   same games (deals, shuffles) against an opponent, so bots differ by what they do, not by
   their luck;
2. a bot's fitness is its advantage over the anchor on the same games, averaged over every
   generation it has played: a survivor is measured again each generation (its estimate
   tightens, a lucky one falls back), and a near copy of the anchor is measured finely (their
   games differ only where their rules do);
3. the fittest joins the leaders (coevolution: the pool grows stronger with the population),
   unless it is a leader or a library bot of the pool already;
4. the fittest quarter survives, the rest of the next population are their distinct mutants
   (a copy would replay a member's very games).

The first population is every library bot that fits the kingdom and a money + X template for
each kingdom card X. A mutant changes its rules one to three times: a gain rule's threshold
(through ``language.with_numbers``, by 1 or 2, or 10-25% for a fraction), a gain rule added
(a card of the kingdom or the basics, with a condition from a few templates), removed, moved
up, its card changed or its condition drawn anew, an endgame guard put ahead of the Province
rules (``GUARDS``: the penultimate Province rule, no losing last Province), or a threshold of
a play rule (play, trash, discard, choose; a seed bot's play rules are otherwise kept).

When the generations end (``generations``, or 85% of ``minutes``: the rest is for the two
steps below), a playoff picks the best bot: the fittest quarter, the last leaders and the
library part of the pool itself each play ``PLAYOFF x games`` (at least ``PLAYOFF_MIN``) games
against the library part of the pool, on a seed of their own (common random numbers again).
A found bot is taken only if its mean result beats the best library finalist's by more than
one standard error of their paired difference, the best such margin wins; a search that
found nothing better gives back the best library bot, renamed. Then the record: the best bot
against every library bot that fits the kingdom, ``judge_games`` games each, on seeds the
search never used.

Determinism: every game seed and every mutation is drawn from ``seed`` (game seeds from
``numpy.random.SeedSequence([seed, purpose, generation])``), so the same arguments and the same
number of generations give the same best bot and figures, bit for bit, with any executor. A time
budget only decides how many generations run: ``Result.generations`` says, and the same call
with ``generations=`` that number added repeats it (given the time to run them). ``games`` per
pairing (when not given) is fixed by ``minutes`` (``games_for``), not by a measured speed.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..agents import BOTS, STRENGTH_ORDER, Bot, Rule, compile_table
from ..agents.language import (
    Compare,
    Num,
    Quantity,
    numbers,
    parse,
    to_text,
    with_numbers,
)
from ..agents.strategy import RULE_SECTIONS
from ..cards import COST, ID, TABLE, check_players
from ..checks import check_agent_players, check_int, check_number, check_seed
from ..engine.kingdoms import random_kingdom, resolve_kingdom
from ..engine.layout import TERMINATED
from .arena import MAX_TURN_LIMIT, GameResults, play_games, summarize
from .executor import local_map
from .mixed import is_policy, play_mixed

MAX_POPULATION = 1024
MAX_GAMES_PER_PAIRING = 100_000
MAX_GENERATIONS = 1_000_000
MAX_GAIN_RULES = 14  # a priority list a person reads in one breath
BASICS = ("Province", "Gold", "Duchy", "Silver", "Estate")
TIME_SHARE = 0.85  # of minutes for the generations; the playoff and the record take the rest
LIBRARY_WEIGHT = 0.5  # of a bot's score: its mean against the library; the leaders weigh the rest
PLAYOFF = 120  # x games per pairing in the playoff, and at least PLAYOFF_MIN: the finalists are
PLAYOFF_MIN = 500  # close, and the best of a dozen noisy means is the luckiest, not the best
CHUNK = 2048  # games per piece of work (a Ray task)
# SeedSequence purposes: each kind of draw has its own stream
AGENT_WEIGHT = 0.5  # of a score, the mean against the agents of ``against`` (where given)

_MUTATE, _GENERATION, _PLAYOFF, _JUDGE, _AGENTS = 0, 1, 2, 3, 4


@dataclass
class Result:
    """What ``optimize`` found (see the module docstring)."""

    kingdom: tuple  # the 10 kingdom cards
    players: int
    seed: int
    best: Bot  # the bot found
    record: list  # per library bot of the kingdom: games, wins, ties, losses, win_rate, win_ci
    strongest: str  # the strongest library bot for the kingdom (STRENGTH_ORDER)
    history: list  # per generation: generation, games, best_score, mean_score (this generation's
    # scores), best_advantage (the fittest's fitness: its mean advantage over the anchor), best
    generations: int  # generations run
    games: int  # games played in all (search, playoff and record)
    seconds: float = field(default=0.0, compare=False)  # wall time (not part of the result)

    def to_toml(self) -> str:
        return self.best.to_toml()

    def against_strongest(self) -> dict:
        """The record's row against ``strongest``."""
        return next(r for r in self.record if r["bot"] == self.strongest)


def games_for(minutes: float) -> int:
    """Games per (bot, opponent) pairing in a generation for a time budget: more for a longer
    budget (fewer, better-measured generations), even (both seat orders of a 2-player table)."""
    return 2 * int(np.clip(round(12 * math.sqrt(minutes)), 4, 200))


def library_bots_for(kingdom) -> list[Bot]:
    """The library bots (not Random) whose cards are all in ``kingdom``, strongest first."""
    have = set(kingdom)
    return [
        BOTS[n] for n in STRENGTH_ORDER if n != "Random" and set(BOTS[n].kingdom_cards()) <= have
    ]


def templates_for(kingdom) -> list[Bot]:
    """Money + X for each kingdom card X: Big Money Ultimate's greening with up to 2 X."""
    out = []
    for card in kingdom:
        rules = [
            ("Province", "money > 15"),
            ("Duchy", 'pile("Province") <= 4'),
            ("Estate", 'pile("Province") <= 2'),
            "Gold",
            (card, f'count("{card}") < 2'),
            "Silver",
        ]
        out.append(Bot(f"Money + {card}", rules, source="optimize: a money + X template"))
    return out


# Endgame guards: a Duchy instead of a Province that loses. The penultimate Province rule (not
# the second-last Province while behind: the opponent's last one would win) and DominionSim's
# "no suicide" (not a last Province that leaves the bot behind). Rules of their own ahead of
# the Province rules, where a library bot's Province condition has no room left for them.
GUARDS = (
    Rule("Duchy", parse("pile('Province') == 2 and vp_lead < 0")),
    Rule("Duchy", parse("pile('Province') == 1 and vp_lead < -6")),
)


def _with_guard(rules: list, guard: Rule):
    """The gain rules with ``guard`` ahead of the first Province rule, or None where it is
    there already or no rule gains a Province."""
    first = next((i for i, r in enumerate(rules) if r.target == "Province"), None)
    if first is None or guard in rules:
        return None
    return rules[:first] + [guard] + rules[first:]


# --- mutation ------------------------------------------------------------------------------


def _condition(rng, card: str):
    """A random condition for a rule gaining ``card``, or None (always)."""
    kind = int(rng.integers(7))
    if kind == 0:
        return None
    if kind == 1:
        return parse(f'count("{card}") < {int(rng.integers(1, 5))}')
    if kind == 2:
        return parse(f'pile("Province") <= {int(rng.integers(1, 7))}')
    if kind == 3:
        return parse(f"money > {int(rng.integers(10, 23))}")
    if kind == 4:
        return parse(f"gains_to_end <= {int(rng.integers(1, 7))}")
    if kind == 5:
        return parse(f'count("{card}") < treasure_cards / {int(rng.integers(3, 13))}')
    return parse(f"vp_lead < {int(rng.integers(-12, 7))}")


def _rename(e, old: str, new: str):
    """The tree with quantities of card ``old`` reading ``new`` instead."""
    if isinstance(e, Quantity):
        return Quantity(e.name, new) if e.arg == old else e
    if e is None or isinstance(e, Num):
        return e
    fields = {}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, tuple):
            fields[f.name] = tuple(_rename(x, old, new) for x in v)
        elif not isinstance(v, str):
            fields[f.name] = _rename(v, old, new)
    return dataclasses.replace(e, **fields)


def _nudge(rng, v):
    """A threshold moved a little; one that was not negative stays so (a count, a pile, a
    number of gains below 0 makes a rule that never fires)."""
    if float(v).is_integer():
        new = int(v) + int(rng.choice([-2, -1, 1, 2]))
        return max(new, 0) if v >= 0 else new
    return round(float(v) * float(rng.choice([0.8, 0.9, 1.1, 1.25])), 3)


def _written(rule: Rule):
    """A rule as its bot's TOML writes it (a bot of these reads back equal from its TOML)."""
    text = rule.text()
    return text if isinstance(text, str) else tuple(text)


def _nudged(rng, when):
    """``when`` with one of its thresholds nudged (``_nudge``)."""
    vals = numbers(when)
    k = int(rng.integers(len(vals)))
    vals[k] = _nudge(rng, vals[k])
    return with_numbers(when, vals)


def mutate(bot: Bot, rng, cards: list[str], name: str) -> Bot:
    """A mutant of ``bot``: its rules changed 1 to 3 times (module docstring)."""
    for _ in range(100):  # a change the language refuses (too long...) is drawn again
        rules = list(bot.parsed["rules"])
        others = {key: list(bot.parsed[key]) for key in RULE_SECTIONS[1:]}
        tuned = [
            (key, j)
            for key in others
            for j, r in enumerate(others[key])
            if r.when and numbers(r.when)
        ]
        for _ in range(1 + min(int(rng.geometric(0.6)) - 1, 2)):
            op = int(rng.integers(8))
            i = int(rng.integers(len(rules)))
            r = rules[i]
            if op == 0 and r.when is not None and numbers(r.when):
                rules[i] = Rule(r.target, _nudged(rng, r.when))
            elif op == 1 and len(rules) < MAX_GAIN_RULES:
                card = cards[int(rng.integers(len(cards)))]
                rules.insert(int(rng.integers(len(rules) + 1)), Rule(card, _condition(rng, card)))
            elif op == 2 and len(rules) > 1:
                provinces = sum(x.target == "Province" for x in rules)
                if not (r.target == "Province" and provinces == 1):  # a bot that never greens
                    del rules[i]  # only truncates, and its games are slow
            elif op == 3 and i > 0:
                rules[i - 1], rules[i] = r, rules[i - 1]
            elif op == 4 and r.target != "Province":
                card = cards[int(rng.integers(len(cards)))]
                rules[i] = Rule(card, _rename(r.when, r.target, card))
            elif op == 5:
                rules[i] = Rule(r.target, _condition(rng, r.target))
            elif op == 6 and len(rules) < MAX_GAIN_RULES:
                rules = _with_guard(rules, GUARDS[int(rng.integers(len(GUARDS)))]) or rules
            elif op == 7 and tuned:
                key, j = tuned[int(rng.integers(len(tuned)))]
                x = others[key][j]
                others[key][j] = Rule(x.target, _nudged(rng, x.when), x.source)
        try:
            written = {key: [_written(r) for r in others[key]] for key in others}
            # equal to the bot its TOML reads back
            return dataclasses.replace(
                bot, name=name, rules=[_written(r) for r in rules], **written,
                source="dominion optimize",
            )  # fmt: skip
        except (ValueError, TypeError):
            continue
    return dataclasses.replace(bot, name=name)


# --- scoring -------------------------------------------------------------------------------


def _run_seed(seed: int, purpose: int, index: int = 0) -> int:
    state = np.random.SeedSequence([seed, purpose, index]).generate_state(2, np.uint32)
    return int(state[0]) << 31 | int(state[1]) >> 1  # 0 .. 2**63 - 1


def score(bots, opponents, kingdom, players, games, seed, *, turn_limit=100, map=local_map):
    """Each bot's results (win 1, shared win 1/2, else 0) in ``games`` games against each
    opponent (the bot in one seat, rotated; the opponent in every other seat), as (results
    (B, O, games), games played).

    Common random numbers: every bot plays the same games, game ``o * games + j`` of the run
    seeded ``seed`` against opponent o (the same deal, first hands and shuffles until the bots'
    decks differ), so two bots' scores differ by what they do more than by their luck: a small
    improvement shows in fewer games. Every bot's games are one ``arena.play_games`` run of
    one table (the bots, then the opponents) whose game numbers repeat for each bot, in
    pieces of ``CHUNK`` games for ``map``."""
    nb, no = len(bots), len(opponents)
    table = compile_table(list(bots) + list(opponents))
    n = no * games
    k = np.tile(np.arange(n) % games, nb)
    seat_bot = np.repeat((nb + np.tile(np.repeat(np.arange(no), games), nb))[:, None], players, 1)
    seat_bot[np.arange(nb * n), k % players] = np.repeat(np.arange(nb), n)
    res = play_games(
        table, nb * n, players, kingdom, seed=seed, seat_bot=seat_bot, turn_limit=turn_limit,
        chunk=CHUNK, map=map, game_numbers=np.tile(np.arange(n), nb),
    )  # fmt: skip
    done = res.status == TERMINATED
    mine = res.reward[np.arange(nb * n), k % players]
    result = (mine == 1) + 0.5 * ((mine == 0) & done)
    return result.reshape(nb, no, games), nb * n


def score_against(bots, agents, kingdom, players, games, seed, *, turn_limit=100):
    """``score`` against policies (trained agents): each bot's results (B, A, games) against
    each agent in every other seat, the bot's seat rotated; every bot plays the very same
    games, game ``a * games + j`` of the run seeded ``seed`` (common random numbers). The
    games run in ``mixed.play_mixed`` (one batched forward per agent and step) on this
    machine: an agent's network is not shipped to Ray tasks."""
    nb, na = len(bots), len(agents)
    n = na * games
    k = np.tile(np.arange(n) % games, nb)
    seat = np.repeat((nb + np.tile(np.repeat(np.arange(na), games), nb))[:, None], players, 1)
    seat[np.arange(nb * n), k % players] = np.repeat(np.arange(nb), n)
    res = play_mixed(
        list(bots) + list(agents), nb * n, players, kingdom, seed=seed, seat_player=seat,
        turn_limit=turn_limit, game_numbers=np.tile(np.arange(n), nb),
    )  # fmt: skip
    done = res.status == TERMINATED
    mine = res.reward[np.arange(nb * n), k % players]
    result = (mine == 1) + 0.5 * ((mine == 0) & done)
    return result.reshape(nb, na, games), nb * n


def judge(bot, opponents, kingdom, players=2, games=1000, seed=0, *, turn_limit=100, map=local_map):
    """``bot`` against each opponent in ``games`` games (seats rotated): per opponent, the
    ``arena.summarize`` row of ``bot`` with ``bot`` renamed to the opponent's name. Opponent
    i's games are games 0..games-1 of the run seeded ``_run_seed(seed, _JUDGE, i)``, every
    opponent's one ``arena.play_games`` run of one table (``bot``, then the opponents)."""
    no = len(opponents)
    if not no:
        return []
    table = compile_table([bot, *opponents])
    k = np.tile(np.arange(games), no)
    opp = np.repeat(np.arange(no), games)
    seat_bot = np.repeat((1 + opp)[:, None], players, axis=1)
    seat_bot[np.arange(no * games), k % players] = 0
    seeds = np.array([_run_seed(seed, _JUDGE, i) for i in range(no)], np.int64)[opp]
    res = play_games(
        table, no * games, players, kingdom, seed=seeds, game_numbers=k, seat_bot=seat_bot,
        turn_limit=turn_limit, chunk=CHUNK, map=map,
    )  # fmt: skip
    rows = []
    for i, o in enumerate(opponents):
        part = slice(i * games, (i + 1) * games)
        mine = GameResults(res.seat_bot[part], res.reward[part], res.turns[part], res.status[part])
        rows.append({**summarize(mine, [bot.name])[0], "bot": o.name})
    return rows


def judge_against(bot, agents, kingdom, players=2, games=1000, seed=0, *, turn_limit=100):
    """``judge`` against policies (trained agents): per agent, the ``arena.summarize`` row of
    ``bot`` in ``games`` games (its seat rotated, the agent in every other seat) with ``bot``
    renamed to the agent's name; agent i's games are games 0..games-1 of the run seeded
    ``_run_seed(seed, _JUDGE, 1_000_000 + i)`` (no library bot's games use it)."""
    rows = []
    for i, agent in enumerate(agents):
        seat = np.ones((games, players), np.int64)
        seat[np.arange(games), np.arange(games) % players] = 0
        res = play_mixed(
            [bot, agent], games, players, kingdom, seed=_run_seed(seed, _JUDGE, 1_000_000 + i),
            seat_player=seat, turn_limit=turn_limit, game_numbers=np.arange(games),
        )  # fmt: skip
        rows.append({**summarize(res, [bot.name])[0], "bot": agent.name})
    return rows


def _check_against(against, players) -> list:
    """``optimize``'s agents: a list of policies that play ``players``-player tables."""
    if isinstance(against, (str, bytes)) or not isinstance(against, (list, tuple)):
        raise TypeError(
            f"against must be a list of trained agents (policies), got {against!r}; load one "
            "with dominion_env.train.policy.load_agent"
        )
    for a in against:
        if isinstance(a, Bot) or not is_policy(a):
            raise TypeError(
                f"against holds trained agents (policies with act(obs, masks)), got {a!r}; "
                "a library bot is in the pool already (library=)"
            )
        check_agent_players(a, players, "optimize")
    return list(against)


# --- the search ----------------------------------------------------------------------------


def check_settings(kingdom, players, minutes, seed, generations, population, games, judge_games):
    if isinstance(kingdom, str) and kingdom == "random":
        kingdom = random_kingdom(check_seed(seed))
    kingdom = resolve_kingdom(kingdom)
    players = check_players(players)
    seed = check_seed(seed)
    if minutes is None and generations is None:
        raise ValueError("give minutes (a time budget) or generations, or both")
    if minutes is not None:
        minutes = check_number("minutes", minutes)
        if minutes == 0:
            raise ValueError("minutes must be a finite number > 0 (or None), got 0")
    if generations is not None:
        generations = check_int("generations", generations, 1, MAX_GENERATIONS)
    population = check_int("population", population, 2, MAX_POPULATION)
    if games is None:
        games = games_for(minutes if minutes is not None else 2.0)
    games = check_int("games", games, 1, MAX_GAMES_PER_PAIRING, "per bot and opponent")
    judge_games = check_int("judge_games", judge_games, 1, MAX_GAMES_PER_PAIRING)
    return kingdom, players, minutes, seed, generations, population, games, judge_games


def optimize(
    kingdom,
    players: int = 2,
    minutes: float | None = 2.0,
    seed: int = 0,
    *,
    generations: int | None = None,
    population: int = 16,
    games: int | None = None,
    leaders: int = 4,
    library: int = 1,
    judge_games: int = 1000,
    turn_limit: int = 100,
    name: str = "Optimized",
    against=(),
    map=local_map,
    progress=None,
) -> Result:
    """Search the strategy language for a strong bot on ``kingdom`` (10 card names, a
    recommended set's name, or "random": drawn from ``seed``) at ``players`` players, for
    ``minutes`` of wall time and/or ``generations`` (module docstring). ``against``: trained
    agents (policies) the bot is also judged against, in every generation and the playoff, at
    ``AGENT_WEIGHT`` of its score (a specialist made to beat that agent on this kingdom); the
    record then has a row per agent. ``progress(row)`` is called after each generation with
    its history row and ``elapsed`` seconds."""
    kingdom, players, minutes, seed, generations, population, games, judge_games = check_settings(
        kingdom, players, minutes, seed, generations, population, games, judge_games
    )
    leaders, library, turn_limit = _check_search(leaders, library, turn_limit, map, progress, name)
    against = _check_against(against, players)
    start = time.perf_counter()
    deadline = None if minutes is None else start + TIME_SHARE * 60 * minutes
    rng = np.random.default_rng(np.random.SeedSequence([seed, _MUTATE]))
    cards = list(BASICS) + [c for c in kingdom if c not in BASICS]
    fits = library_bots_for(kingdom)
    pool_library = fits[:library]
    library_keys = {_key(b) for b in pool_library}
    run = dict(turn_limit=turn_limit, map=map)
    n_elite = max(2, population // 4)

    anchor = pool_library[0]  # scored every generation: the yardstick of every other bot
    pop, leader_bots, history, played, gen = _evolve(
        _distinct(fits + templates_for(kingdom)),
        anchor,
        pool_library,
        kingdom=kingdom,
        players=players,
        seed=seed,
        games=games,
        population=population,
        leaders=leaders,
        generations=generations,
        deadline=deadline,
        rng=rng,
        cards=cards,
        run=run,
        progress=progress,
        start=start,
        against=against,
    )

    # the playoff: the best of the last population (by all their games), the last leaders and
    # the library pool itself (a search that found nothing better returns the best library
    # bot), on games of their own against the library
    finalists = _distinct(pop[:n_elite] + leader_bots[::-1][: max(leaders, 1)] + pool_library)
    final_games = max(PLAYOFF * games, PLAYOFF_MIN)
    res, n = score(
        finalists, pool_library, kingdom, players, final_games, _run_seed(seed, _PLAYOFF), **run
    )
    played += n
    parts = [res.mean(axis=1)]  # (finalists, games): the mean over the library opponents
    if against:
        agent_res, n = score_against(
            finalists, against, kingdom, players, final_games, _run_seed(seed, _AGENTS, 1),
            turn_limit=turn_limit,
        )  # fmt: skip
        played += n
        parts.append(agent_res.mean(axis=1))  # and over the agents
    lib = [_key(f) in library_keys for f in finalists]
    best_bot = finalists[_playoff_winner(parts, lib)]
    best_bot = dataclasses.replace(
        best_bot,
        **{key: [_written(r) for r in best_bot.parsed[key]] for key in RULE_SECTIONS},
        name=name,
        source=f"dominion optimize: kingdom {', '.join(kingdom)}; {players} players; "
        f"seed {seed}; {gen} generations",
    )
    record = judge(best_bot, fits, kingdom, players, judge_games, seed, **run)
    played += judge_games * len(fits)
    if against:
        record += judge_against(best_bot, against, kingdom, players, judge_games, seed,
                                turn_limit=turn_limit)  # fmt: skip
        played += judge_games * len(against)
    return Result(
        kingdom=kingdom,
        players=players,
        seed=seed,
        best=best_bot,
        record=record,
        strongest=fits[0].name,
        history=history,
        generations=gen,
        games=played,
        seconds=time.perf_counter() - start,
    )


def _check_search(leaders, library, turn_limit, map, progress, name) -> tuple[int, int, int]:
    """``optimize``'s other arguments checked: (leaders, library, turn_limit)."""
    leaders = check_int("leaders", leaders, 0, MAX_POPULATION)
    library = check_int("library", library, 1, len(BOTS))
    turn_limit = check_int("turn_limit", turn_limit, 1, MAX_TURN_LIMIT)
    if not callable(map) or (progress is not None and not callable(progress)):
        what = "map" if not callable(map) else "progress"
        raise TypeError(f"{what} must be callable, got {locals()[what]!r}")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name (the best bot's) must be a non-empty string, got {name!r}")
    return leaders, library, turn_limit


def _evolve(
    pop,
    anchor,
    pool_library,
    *,
    kingdom,
    players,
    seed,
    games,
    population,
    leaders,
    generations,
    deadline,
    rng,
    cards,
    run,
    progress,
    start,
    against=(),
):
    """The generations: each population scored against the library pool and the leaders
    (and the agents of ``against``, at ``AGENT_WEIGHT``), the best joining the leaders, the
    elite bred. Returns (the last population, the leaders, the history, games played,
    generations)."""
    library_keys = {_key(b) for b in pool_library}
    n_elite = max(2, population // 4)
    leader_bots: list[Bot] = []
    history: list[dict] = []
    tally: dict = {}  # bot key -> [sum of its advantages over the anchor, generations]
    played = 0
    gen = 0
    while (generations is None or gen < generations) and (
        deadline is None or gen == 0 or time.perf_counter() < deadline
    ):
        pool = pool_library + leader_bots[-leaders:] if leaders else pool_library
        scored = _distinct(pop + [anchor])
        res, n = score(scored, pool, kingdom, players, games, _run_seed(seed, _GENERATION, gen),
                       **run)  # fmt: skip
        played += n
        now = _weigh(res.mean(axis=2), len(pool_library))
        if against:
            agent_res, n_agents = score_against(
                scored, against, kingdom, players, games, _run_seed(seed, _AGENTS, 2 * gen),
                turn_limit=run["turn_limit"],
            )  # fmt: skip
            played += n_agents
            now = (1 - AGENT_WEIGHT) * now + AGENT_WEIGHT * agent_res.mean(axis=(1, 2))
        scores = _advantages(scored, now, anchor, tally)
        order = np.argsort(-scores, kind="stable")
        best = scored[int(order[0])]
        # a leader joins once: a bot that stays the best is not its own opponent many times
        # over, and a library bot of the pool is in it already
        if _key(best) not in library_keys | {_key(x) for x in leader_bots}:
            leader_bots.append(dataclasses.replace(best, name=f"leader {gen}"))
        history.append(
            {
                "generation": gen,
                "games": n,
                "best_score": float(now[order[0]]),
                "mean_score": float(now.mean()),
                "best_advantage": float(scores[order[0]]),
                "best": best.describe(),
            }
        )
        if progress is not None:
            progress({**history[-1], "elapsed": time.perf_counter() - start})
        elite = [scored[int(i)] for i in order[:n_elite]]
        pop = _breed(elite, population, anchor, rng, cards, gen + 1)
        gen += 1
    return pop, leader_bots, history, played, gen


def _advantages(scored: list, now: np.ndarray, anchor: Bot, tally: dict) -> np.ndarray:
    """Each scored bot's mean advantage over ``anchor`` across the generations it was scored
    in (``tally``: bot key -> [sum of its advantages, generations], updated with ``now``)."""
    base = now[[_key(b) for b in scored].index(_key(anchor))]
    for b, x in zip(scored, now, strict=True):
        t = tally.setdefault(_key(b), [0.0, 0])
        t[0] += float(x - base)
        t[1] += 1
    return np.array([tally[_key(b)][0] / tally[_key(b)][1] for b in scored])


def _breed(elite: list, population: int, anchor: Bot, rng, cards, gen: int) -> list:
    """The next population: ``elite``, then mutants of its members, none a copy of another
    member or of ``anchor``."""
    pop = list(elite)
    keys = {_key(b) for b in pop} | {_key(anchor)}
    for c in range(population - len(elite)):
        for _ in range(20):  # a copy of a member would replay its very games
            child = mutate(elite[int(rng.integers(len(elite)))], rng, cards, f"g{gen}c{c}")
            if _key(child) not in keys:
                break
        keys.add(_key(child))
        pop.append(child)
    return pop


def _playoff_winner(parts: list, lib: list) -> int:
    """The playoff's winner among finalists with results ``parts``: (finalists, games) arrays,
    the mean over the library opponents, then over the agents where there are any (weighed
    ``1 - AGENT_WEIGHT`` and ``AGENT_WEIGHT``). The best library bot (``lib``) stays unless a
    finalist beats it by more than the standard error of its paired difference (the same
    games: a near copy is measured finely)."""
    if len(parts) == 1:
        (per_game,) = parts
        best_lib = int(np.argmax(np.where(lib, per_game.mean(axis=1), -np.inf)))
        diff = per_game - per_game[best_lib]
        gain = diff.mean(axis=1) - diff.std(axis=1) / math.sqrt(per_game.shape[1])
    else:
        weights = [1 - AGENT_WEIGHT, AGENT_WEIGHT]
        mean = sum(w * p.mean(axis=1) for w, p in zip(weights, parts, strict=True))
        best_lib = int(np.argmax(np.where(lib, mean, -np.inf)))
        diffs = [p - p[best_lib] for p in parts]
        var = sum(w**2 * d.var(axis=1) / d.shape[1] for w, d in zip(weights, diffs, strict=True))
        gain = mean - mean[best_lib] - np.sqrt(var)
    gain = np.where(lib, -np.inf, gain)
    return int(np.argmax(gain)) if gain.max() > 0 else best_lib


def _key(bot: Bot) -> tuple:
    """What a bot does (its rules, every list), without its name and source."""
    return tuple(tuple(_written(r) for r in bot.parsed[key]) for key in RULE_SECTIONS)


def _weigh(means, n_library):
    """Scores (B,) from mean results (B, O) against a pool whose first ``n_library`` are the
    library's: the library's mean, weighed with the leaders' where there are any."""
    lib = means[:, :n_library].mean(axis=1)
    if means.shape[1] == n_library:
        return lib
    return LIBRARY_WEIGHT * lib + (1 - LIBRARY_WEIGHT) * means[:, n_library:].mean(axis=1)


def _distinct(bots) -> list[Bot]:
    """Bots with distinct rules, first kept (a leader often survives as itself)."""
    seen, out = set(), []
    for b in bots:
        if _key(b) not in seen:
            seen.add(_key(b))
            out.append(b)
    return out


# --- words ---------------------------------------------------------------------------------


def _plural(v, word: str) -> str:
    return f"{v} {word}" if v == 1 else f"{v} {word}s"


def _when(e, target: str) -> str:
    """A condition of a rule gaining ``target`` in words where it has a familiar shape, else
    as the language writes it."""
    if isinstance(e, Compare) and isinstance(e.right, Num) and isinstance(e.left, Quantity):
        q, op, v = e.left, e.op, e.right.value
        v = int(v) if float(v).is_integer() else v
        if q.name == "count" and q.arg:
            what = "" if q.arg == target else f" {q.arg}"
            if op in ("<", "<=") and (v if op == "<" else v + 1) <= 0:
                return "never (" + to_text(e) + ")"
            if op == "<":
                return f"until it has {v}{what}" if what == "" else f"while it has < {v}{what}"
            if op == "<=":
                return f"until it has {v + 1}" if what == "" else f"while it has <= {v}{what}"
            if op == ">":
                return f"once it has more than {v}{what or ' ' + target}"
            if op == ">=":
                return f"once it has {v}{what or ' ' + target} or more"
        if q.name in ("pile", "gains_to_end") and op == "<=" and v < 0:
            return "never (" + to_text(e) + ")"
        if q.name == "pile" and op == "<=":
            return f"when {v} or fewer are left in the {q.arg} pile"
        if q.name == "pile" and op == "==" and v == 0:
            return f"once the {q.arg} pile is empty"
        if q.name == "money" and op == ">":
            return f"once its Treasures total more than ${v}"
        if q.name == "money" and op == ">=":
            return f"once its Treasures total ${v} or more"
        if q.name == "gains_to_end" and op == "<=":
            return f"when the game can end within {_plural(v, 'gain')}"
    return f"when {to_text(e)}"


def describe(bot: Bot) -> str:
    """The bot's gain rules in words a player reads, one line each, in priority order:
    "buys Witch at $5+ until it has 2", then ``Bot.describe``'s line for any play rules."""
    if bot.random:
        return bot.describe()
    lines = []
    for r in bot.parsed["rules"]:
        cost = int(TABLE[ID[r.target], COST])
        line = f"buys {r.target} at ${cost}+"
        if r.when is not None:
            line += " " + _when(r.when, r.target)
        lines.append(line)
    others = bot.describe().split("\n")[1:]  # Bot.describe: the gain rules' line first
    return "\n".join(lines + others)
