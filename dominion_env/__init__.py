"""dominion_env: a fast, faithful, vectorised Dominion environment for reinforcement learning.

    from dominion_env import Game, VecGame          # one game by names; N games in a batch
    import gymnasium; gymnasium.make("Dominion-v2", opponents="Big Money")   # registered here
    from dominion_env.envs import pettingzoo_env    # PettingZoo AEC; sb3_vec_env for SB3

Version history
    0.1.0  the engine: all 64 cards, 2-6 players, Game, VecGame, compiled bots, simulate
    0.2.0  learner mode (bots inside the step), Gymnasium / SB3 / PettingZoo adapters,
           MaskablePPO training, the bot library and strategy language in TOML, tournaments
    0.3.0  speed: batch 4096 at ~2M decisions/s (prefetching, int8 state), a 1-game step in
           ~15 us, cold compile ~1 min; VecGame v3 state record (same games, bit for bit)
    0.4.0  one direction of imports (agents/ and train/ installed as dominion_env.agents and
           dominion_env.train; the faces take compiled bot tables), a card in three places,
           every rule once, golden playthroughs; training that works: dominion train /
           evaluate, our PPO with imitation, self-play and an opponent pool, shipped agent
           ppo-pool, trained agents at simulate/tournament tables; VecGame v4 (same games)
    0.5.0  nothing silent: independent random streams per game (every game for a seed
           changes), strict inputs with clear errors on every face, no half-written state,
           public reveals in every player's observation and a per-viewer log, snapshot /
           restore / clone; conventions: Gymnasium Dominion-v2 (mask in the observation,
           autoreset modes, reset masks), PettingZoo dominion_v1 with state(), recipes for
           TorchRL, Tianshou and RLlib, Ray scale-out, LICENSE; watch and play: game records,
           dominion play, dominion replay (terminal and HTML), notebooks per user;
           VecGame v5
    0.6.0  every face strict: train/evaluate/play/replay arguments checked before any work,
           agent and checkpoint files that run no code when loaded (tensors + JSON, format 2;
           format-1 pickles refused, ``convert`` once), ``restore`` checks the audit's
           invariants, snapshots as no-pickle .npz files, ``dominion play`` never loses a game
           (--resume); what the rules keep hidden stays hidden (multi-card discards show their
           count and top card, Scout's order is its owner's: VecGame v6, same games,
           ``public_discards=True`` for the old view); Gymnasium Dominion-v2 (int8 info masks,
           NEXT_STEP autoreset, one option table for every env, ``rgb_array``); a researcher's
           Game (``decision``, ``observation_pieces``, ``public``, records of scenarios:
           record format 2); strategy: a bot language with expressions and play rules, a
           library as strong as the peers' (Smithy, Militia, Masquerade, Minion/Chapel
           rewritten: bot games change), a search player (``search:N``); ``dominion serve``
           (the browser); a documentation site (MkDocs)
    0.7.0  the same games (VecGame v6); the card-set view of an observation
           (``engine.observation.card_set``, Gymnasium ``observation="cards"``) and its network
           (``--network cards``; agent files keep format 2 with ``network``/``embed`` info);
           a 2.3x faster training loop (a sparse first layer, the update on the env's threads,
           one uniform per sampled row: seeded training runs change), ``--device``, a progress
           bar through every phase; search races close calls (``extend``: its decisions
           change for a seed where a call is close); the optimizer scores on paired games
           against the strongest library bot (its results change for a seed); ``dominion
           train`` refuses an ``--out`` holding a run unless ``--overwrite``; ``--ray`` without
           Ray is a usage error
    0.8.0  the same games (VecGame v6); a new ``ppo-pool``: the old one trained 62 minutes
           further (44M learner steps, ``dominion train --init ppo-pool``) with every library
           bot on its own kingdom in the pool (``--opponent "all bots"``), so its games change
           for a seed; training starts from a saved agent (``--init``), takes PPO's knobs on
           the command line, saves itself every 10 minutes and on SIGTERM; a shipped agent's
           name is a training opponent (it raised "unknown bot")
    0.8.1  the same games (VecGame v6) and agents; ``dominion train``'s default minibatch is
           2048 (was 4096: +2.1 points against Big Money Ultimate in five minutes, each of 5
           seeds), so a default run's weights change for a seed; ``train()`` reads its ``init``
           agent once (the CLI reads it once more, to take its layers before the run's config)
    0.9.0  the same games (VecGame v7: the record also keeps each seat's publicly known
           discards) and agents; the search's results change for a seed: its deals keep the
           cards everyone saw go into a discard pile until its shuffle, and ``search:N`` spends
           at most N simulations (arms sampled when N is below one each a round); faces that
           leak nothing: ``dominion serve`` sends a seat only its own knowledge (VP too), sizes
           a body before reading it, checks the Host on every loopback address and needs
           ``--public`` for any other; files choose nothing: a resumed run writes only in the
           ``--out`` it is given (checkpoints and agents hold no folder), Adam's state and an
           agent's layer widths are checked, an agent plays only its own table size, names
           from files print escaped; faces that agree: ``opponent_weights`` on the single env,
           strategy files the same way in every command (``FILE.toml:BOT``), ``dominion
           optimize --kingdom``, the language's limits as errors at their token; ``--device
           auto`` (the default of train and evaluate: on a GPU a run changes, and takes 4,096
           games unless given); ``dominion scorecard`` (protocol 1); ``search:AGENT:N``: a
           search guided by a trained agent's network (its prior and evaluator: Gumbel
           sequential halving, batched network playouts); agents and checkpoints written as
           ``.safetensors`` (the shipped agents renamed; ``.pt`` files of the same layout still
           read, an older run folder resumes); ``train/ppo.py`` split by concern (a seed
           trains the same weights, tested bit for bit); ``dominion selfplay``: Expert
           Iteration on the guided search (improved-policy and result targets, a league of past
           networks, library bots and the optimizer's bots; checkpoints of kind "selfplay")
    0.10.0 every game for a seed changes (VecGame v8): each seat shuffles from its own random
           stream, so one seat's choices no longer move another's shuffles (the search's paired
           noise and the optimizer's judging lose about a fifth of theirs, measured); records
           of v5-v7 games replay with the one shared stream. Mixed batches: a VecGame's rows
           (and a bot run's games) each carry their own kingdom, opponent bots and deal
           (``row_kingdoms``, ``row_opponents``, per-row game numbers), so the all-bots pool,
           ``tournament --all``, ``evaluate --opponent strongest`` (and strategy files), the
           optimizer's judging and scoring and self-play's league each step one batch: the
           same games as the batches they merge (the all-bots pool no longer spends a draw on
           a pool of one, so its training games change), a sampling or search player's own
           draws against "strongest" are seeded per chunk of games; self-play mixes its
           league rows with its own (league opponents drawn per game), saves a generation
           under way every two minutes and resumes at its next batch, and runs at 3-6
           players. The search's deals with 3+ players send the Masquerade passes its seat
           did not see along the way they went, so its view of every seat's cards is kept
           (its decisions change for a seed in such games). ``train --opponent FILE.toml:BOT``
           trains against one bot of a strategy file, as every command reads it.
           ``analysis.profile``: what each player buys and plays, and the round of its
           fourth Province
"""

from . import envs as _envs  # noqa: F401,E402,I001  registers "Dominion-v2" with Gymnasium (cheap)
from .cards import NAMES as CARD_NAMES
from .cards import NUM_CARDS
from .engine.kingdoms import RECOMMENDED, random_kingdom
from .engine.layout import NUM_ACTIONS, NUM_OPTIONS, PASS
from .game import Game
from .vector import VecGame

__all__ = [
    "Game",
    "VecGame",
    "CARD_NAMES",
    "NUM_CARDS",
    "NUM_ACTIONS",
    "NUM_OPTIONS",
    "PASS",
    "RECOMMENDED",
    "random_kingdom",
]
__version__ = "0.10.0"
