"""Bad inputs tried as a new user would, per face: how many get a clear error.

    python bench/bad_inputs.py [--face NAME] [--timeout 30] [--verbose]

Each case runs in a fresh process (a crash in one cannot hide another) and is classed:

    clear     refused with one message that names the argument (CLI: exit status 2, no traceback;
              Python: a ValueError/TypeError (or subclass), or a RuntimeError for a call made
              too early, whose message names it); or a valid input checked to work (CORRECT)
    unclear   refused, but the message does not name the argument, or the CLI printed a traceback
              while exiting 2
    silent    accepted: the command or call went on (or was still working at the timeout)
    crash     any other exception or exit status, with a traceback

The cases are reproductions of bad inputs found from outside, and their neighbours; the
figures go in the notes, before and after a change, from the same script.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
from collections import Counter, defaultdict
from pathlib import Path

TMP = Path(tempfile.mkdtemp(prefix="bad-inputs-"))
GARBAGE = TMP / "garbage.bin"
GARBAGE.write_bytes(bytes(range(256)) * 8)
JSON_PT = TMP / "json.pt"
JSON_PT.write_text('{"format": 1}')
NOT_DIR = TMP / "a-file"
NOT_DIR.write_text("x")
UNWRITABLE = "/proc/nope/out"
CRAFTED = TMP / "crafted.pt"
MARKER = TMP / "ran-code"
# a pickle whose loading runs os.system: the marker file shows whether it ran
CRAFTED.write_bytes(b"cos\nsystem\n(V" + f"touch {MARKER}".encode() + b"\ntR.")

# (face, what, argv for `dominion` | python source, the word the message must name)
CLI = [
    ("train", "--minutes 0", ["train", "--minutes", "0"], "minutes"),
    ("train", "--minutes -5", ["train", "--minutes", "-5"], "minutes"),
    ("train", "--minutes nan", ["train", "--minutes", "nan"], "minutes"),
    ("train", "--minutes inf", ["train", "--minutes", "inf"], "minutes"),
    ("train", "--minutes 1e308", ["train", "--minutes", "1e308"], "minutes"),
    ("train", "--bc-steps -5", ["train", "--bc-steps", "-5", "--steps", "1"], "bc-steps"),
    ("train", "--opponent Big Money:nan", ["train", "--opponent", "Big Money:nan"], "opponent"),
    ("train", "--opponent Big Money:inf", ["train", "--opponent", "Big Money:inf"], "opponent"),
    ("train", "--opponent Big Money:0", ["train", "--opponent", "Big Money:0"], "opponent"),
    ("train", "--hidden a,b", ["train", "--hidden", "a,b"], "hidden"),
    ("train", "--hidden 0", ["train", "--hidden", "0"], "hidden"),
    ("train", "--seed 2**64", ["train", "--seed", str(2**64)], "seed"),
    ("train", "--seed -1", ["train", "--seed", "-1"], "seed"),
    ("train", "--out unwritable", ["train", "--steps", "1", "--out", UNWRITABLE], "out"),
    ("train", "--eval-games -1", ["train", "--steps", "1", "--eval-games", "-1"], "eval-games"),
    ("train", "--num-envs 0", ["train", "--num-envs", "0"], "num-envs"),
    ("train", "--vp-shaping nan", ["train", "--vp-shaping", "nan"], "vp-shaping"),
    ("train", "--steps -1", ["train", "--steps", "-1"], "steps"),
    (
        "train",
        "--resume garbage checkpoint",
        ["train", "--resume", "--out", str(TMP / "gck")],
        "checkpoint",
    ),
    ("evaluate", "--games 10**12", ["evaluate", "ppo-pool", "--games", str(10**12)], "games"),
    ("evaluate", "--games 0", ["evaluate", "ppo-pool", "--games", "0"], "games"),
    ("evaluate", "--games nan", ["evaluate", "ppo-pool", "--games", "nan"], "games"),
    ("evaluate", "garbage .pt", ["evaluate", str(GARBAGE.with_suffix(".pt"))], "garbage"),
    ("evaluate", "JSON renamed .pt", ["evaluate", str(JSON_PT)], "json.pt"),
    ("evaluate", "crafted pickle", ["evaluate", str(CRAFTED)], "crafted"),
    ("evaluate", "no such agent", ["evaluate", "nope-agent"], "nope-agent"),
    ("evaluate", "--seed -3", ["evaluate", "ppo-pool", "--seed", "-3"], "seed"),
    ("play", "garbage agent", ["play", "--opponent", str(GARBAGE.with_suffix(".pt"))], "garbage"),
    ("play", "--seed nan", ["play", "--seed", "nan"], "seed"),
    ("play", "--turn-limit 10**30", ["play", "--turn-limit", str(10**30)], "turn-limit"),
    ("replay", "garbage.bin", ["replay", str(GARBAGE)], "garbage"),
    ("replay", "a folder", ["replay", str(TMP)], str(TMP.name)),
    ("replay", "missing file", ["replay", str(TMP / "missing.json")], "missing"),
]
GARBAGE.with_suffix(".pt").write_bytes(GARBAGE.read_bytes())
(TMP / "gck").mkdir()
(TMP / "gck" / "checkpoint.safetensors").write_bytes(GARBAGE.read_bytes()[:300])

PY = [
    ("agent files", "garbage .pt", f"load_agent({str(GARBAGE.with_suffix('.pt'))!r})", "garbage"),
    ("agent files", "JSON renamed .pt", f"load_agent({str(JSON_PT)!r})", "json.pt"),
    ("agent files", "crafted pickle runs no code", f"load_agent({str(CRAFTED)!r})", "crafted"),
    ("agent files", "half of a shipped agent", "half_agent()", "half"),
    ("records", "load a binary file", f"records.load({str(GARBAGE)!r})", "garbage"),
    ("records", "meta not JSON", "Game(seed=1).record(meta={'x': object()})", "meta"),
    ("records", "a record of a list", "records.check([1, 2])", "record"),
    ("snapshots", "hand count -5", "edited_snapshot('hand', -5)", "negative"),
    ("snapshots", "decider 9", "edited_snapshot('decider', 9)", "decider"),
    ("snapshots", "every byte 0xff", "edited_snapshot('all', 0xFF)", "snapshot"),
    ("VecGame", "opponent_weights 1e308", "vec_weights([1e308, 1e308])", "opponent_weights"),
    ("VecGame", "vp_shaping 1e300", "vec_shaping(1e300)", "vp_shaping"),
    ("VecGame", "random_actions before reset", "VecGame(3).random_actions()", "reset"),
    ("VecGame", "10**13 games", "VecGame(10**13)", "num_games"),
    ("VecGame", "turn_limit 10**30", "VecGame(2, turn_limit=10**30).reset(seed=0)", "turn_limit"),
    ("envs", "make_vec opponents=[]", "make_vec_env(opponents=[])", "opponents"),
    ("envs", "SB3 opponents=[]", "sb3_env(opponents=[])", "opponents"),
    ("envs", "opponents=lambda: 0", "gym_env_lambda()", "opponent"),
    ("envs", "record_dir is a file", f"gym_env(record_dir={str(NOT_DIR)!r})", "record_dir"),
    ("envs", "PettingZoo step before reset", "pz_step_before_reset()", "reset"),
    ("envs", "PettingZoo raw_env step before reset", "pz_step_before_reset(raw=True)", "reset"),
]

PRELUDE = textwrap.dedent(
    """
    import numpy as np
    from dominion_env import Game, VecGame, records
    from dominion_env.agents import compile_bots

    def load_agent(p):
        from dominion_env.train.policy import load_agent as la
        return la(p)

    def half_agent():
        from dominion_env.train.policy import shipped_agents
        import tempfile, pathlib
        src = shipped_agents()["ppo-pool"].read_bytes()
        p = pathlib.Path(tempfile.mkdtemp()) / "half.pt"
        p.write_bytes(src[: len(src) // 2])
        return load_agent(p)

    def edited_snapshot(what, value):
        g = Game(seed=3)
        s = g.snapshot()
        import dominion_env.snapshot as S
        from dominion_env.engine.layout import DEC_PLAYER, HAND
        from dominion_env.cards import ID
        arrays = {k: np.array(v, copy=True) for k, v in s.arrays.items()}
        st = arrays["state"]
        if what == "all":
            arrays["state"] = np.frombuffer(bytes([255]) * st.nbytes, st.dtype).reshape(st.shape)
        elif what == "hand":
            st["zone"][0, 0, HAND, ID["Copper"]] = value
        elif what == "decider":
            st["game"][0, DEC_PLAYER] = value
        return g.restore(S.Snapshot(arrays, s.settings, s.ready, dict(s.extra)))

    def vec_weights(w):
        v = VecGame(256, opponents=compile_bots(["Big Money", "Smithy"]), opponent_weights=w)
        v.reset(seed=0)
        bots = np.asarray(v.opponents.seat_bots)
        seated = np.unique(bots[bots >= 0])
        if len(seated) == 2:  # equal weights, however large: both bots sit at the tables
            print("CORRECT both bots are drawn")
            raise SystemExit(0)
        return v

    def vec_shaping(x):
        v = VecGame(4, opponents=compile_bots("Big Money"), vp_shaping=x)
        out = v.reset(seed=0)
        for _ in range(300):
            out = v.step(v.random_actions())
        return v

    def make_vec_env(**kw):
        import gymnasium as gym
        import dominion_env.envs  # noqa: F401
        mode = "vector_entry_point"
        return gym.make_vec("Dominion-v2", num_envs=2, vectorization_mode=mode, **kw)

    def sb3_env(**kw):
        from dominion_env.envs.sb3_vec_env import DominionVecEnv
        return DominionVecEnv(2, **kw)

    def gym_env(**kw):
        import gymnasium as gym
        import dominion_env.envs  # noqa: F401
        return gym.make("Dominion-v2", **kw)

    def gym_env_lambda():
        env = gym_env(opponents=lambda: 0)
        env.reset(seed=0)
        for _ in range(200):
            m = env.unwrapped.action_masks()
            env.step(int(np.flatnonzero(m)[0]))
        return env

    def pz_step_before_reset(raw=False):
        from dominion_env.envs import pettingzoo_env
        e = pettingzoo_env.raw_env() if raw else pettingzoo_env.env()
        try:
            e.step(0)
        except AssertionError as err:  # PettingZoo's own order-enforcing wrapper
            if "reset" in str(err):
                raise RuntimeError(f"(PettingZoo's wrapper) {err}") from None
            raise
    """
)


def run_cli(argv, timeout):
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    cmd = [sys.executable, "-m", "dominion_env.cli", *argv]
    try:
        p = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:
        return "silent", "still working at the timeout"
    err = p.stderr.strip()
    if p.returncode == 0:
        return "silent", "exit 0"
    last = err.splitlines()[-1] if err else ""
    if "Traceback" not in err:
        named = WORD in err.lower()
        return ("clear" if p.returncode == 2 and named else "unclear"), f"[{p.returncode}] {last}"
    # a traceback: an error the face meant to raise (it names the argument) is unclear, the
    # rest is a crash
    meant = last.startswith(("ValueError", "TypeError")) and WORD in last.lower()
    return ("unclear" if meant else "crash"), f"[{p.returncode}] {last}"


def run_py(src, timeout):
    code = PRELUDE + textwrap.dedent(
        f"""
        import sys
        try:
            {src}
        except (ValueError, TypeError, RuntimeError) as e:  # RuntimeError: "not now" (reset)
            print("REFUSED", type(e).__name__, str(e).replace(chr(10), " "))
            sys.exit(0)
        print("ACCEPTED")
        """
    )
    try:
        p = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "silent", "still working at the timeout"
    out = p.stdout.strip().splitlines()
    last = out[-1] if out else (p.stderr.strip().splitlines() or [""])[-1]
    if p.returncode != 0:
        meant = last.startswith(("ValueError", "TypeError")) and WORD in last.lower()
        return ("unclear" if meant else "crash"), last
    if last.startswith("CORRECT"):  # a valid input, handled as it should be
        return "clear", last
    if last.startswith("REFUSED"):
        return ("clear" if WORD in last.lower() else "unclear"), last
    return "silent", last


WORD = ""


def main():
    global WORD
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--face", action="append", help="only these faces (repeat)")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    counts = defaultdict(Counter)
    for face, what, payload, word in [*CLI, *PY]:
        if args.face and face not in args.face:
            continue
        WORD = word.lower()
        if MARKER.exists():
            MARKER.unlink()
        if isinstance(payload, list):
            verdict, msg = run_cli(payload, args.timeout)
        else:
            verdict, msg = run_py(payload, args.timeout)
        if MARKER.exists():
            verdict, msg = "crash", "LOADING RAN CODE: " + msg
        counts[face][verdict] += 1
        if args.verbose or verdict != "clear":
            print(f"{face:12} {verdict:8} {what:32} {msg[:110]}", flush=True)
    print(f"\n{'face':12} {'cases':>5} {'clear':>5} {'unclear':>7} {'silent':>6} {'crash':>5}")
    total = Counter()
    for face, c in counts.items():
        total.update(c)
        print(
            f"{face:12} {sum(c.values()):5} {c['clear']:5} {c['unclear']:7} "
            f"{c['silent']:6} {c['crash']:5}"
        )
    print(
        f"{'all':12} {sum(total.values()):5} {total['clear']:5} {total['unclear']:7} "
        f"{total['silent']:6} {total['crash']:5}"
    )


if __name__ == "__main__":
    main()
