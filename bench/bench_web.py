"""Load on ``dominion serve``: many games at once over HTTP on the loopback address.

    python bench/bench_web.py                 # 32 games at once for 5 s
    python bench/bench_web.py --games 64 --seconds 10

The server runs as ``dominion serve`` in a subprocess on 127.0.0.1 (a free port, records in
a temporary folder); one client thread per game (stdlib http.client, a kept-alive
connection each) starts a game against Big Money on First Game and answers as Big Money
would (Province, Gold, Silver, else PASS, by the choices' labels) until the time is up,
starting a new game when one ends. Printed: the person's moves per second (each answer is
one request; the server also plays Big Money's reply in it), all decisions per second, and
the median and 99th percentile response time of the answers. Baseline, same run: the same
answers given straight to the game store (``web.games.Tables``, no HTTP) in one thread.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

PREFER = ("Province", "Gold", "Silver")
NEW = {"mode": "play", "players": ["Big Money"], "kingdom": "First Game"}


def pick(view) -> int:
    choices = view["decision"]["choices"]
    for name in PREFER:
        for c in choices:
            if c["label"].split(" (")[0] == name:
                return c["action"]
    return next(c["action"] for c in choices if c["label"].startswith("PASS"))


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def post(self, path: str, body: dict) -> dict:
        self.conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        r = self.conn.getresponse()
        data = json.loads(r.read())
        if r.status != 200:
            raise RuntimeError(f"{path}: {r.status} {data}")
        return data


def player(port: int, seed: int, until: float, out: dict) -> None:
    c = Client(port)
    times, moves, decisions, games = [], 0, 0, 0
    while time.perf_counter() < until:
        view = c.post("/api/games", {**NEW, "seed": seed + games})
        games += 1
        while view["result"] is None and time.perf_counter() < until:
            step = view["step"]
            t = time.perf_counter()
            view = c.post(
                f"/api/games/{view['id']}/act",
                {"seat": 0, "action": pick(view), "step": step, "since": view["events"]},
            )
            times.append(time.perf_counter() - t)
            moves += 1
            decisions += view["step"] - step
    out[seed] = (times, moves, decisions, games)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def over_http(games: int, seconds: float, folder: str) -> dict:
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dominion_env.cli",
            "serve",
            "--port",
            str(port),
            "--records",
            folder,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()  # "dominion serve: open http://127.0.0.1:PORT/ ..."
        if "open http://127.0.0.1" not in line:
            raise RuntimeError(f"the server did not start: {line!r}")
        deadline = time.perf_counter() + 60  # the line comes just before uvicorn binds
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.perf_counter() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.05)
        for k in range(5):  # warm the server (its first game compiles nothing: cache)
            player(port, 10_000 + k, time.perf_counter() + 0.2, {})
        out: dict = {}
        until = time.perf_counter() + seconds
        t0 = time.perf_counter()
        threads = [
            threading.Thread(target=player, args=(port, 1000 * i, until, out)) for i in range(games)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
    finally:
        server.terminate()
        server.wait(30)
    times = np.concatenate([np.array(v[0]) for v in out.values()])
    return {
        "wall": wall,
        "moves": sum(v[1] for v in out.values()),
        "decisions": sum(v[2] for v in out.values()),
        "games": sum(v[3] for v in out.values()),
        "p50_ms": 1000 * float(np.percentile(times, 50)),
        "p99_ms": 1000 * float(np.percentile(times, 99)),
    }


def in_process(seconds: float) -> dict:
    from dominion_env.agents import BOTS
    from dominion_env.cli import resolve_player
    from dominion_env.web.games import Tables

    tables = Tables(resolve_player, list(BOTS), None, max_games=4)
    warm = tables.create({**NEW, "seed": 0})  # loads the cached kernels: not timed
    warm.act(0, pick(warm.view(0)), warm.moves)
    moves = decisions = games = 0
    t0 = time.perf_counter()
    until = t0 + seconds
    while time.perf_counter() < until:
        table = tables.create({**NEW, "seed": games})
        games += 1
        view = table.view(0)
        while view["result"] is None and time.perf_counter() < until:
            step = view["step"]
            table.act(0, pick(view), step)
            view = table.view(0, view["events"])
            moves += 1
            decisions += view["step"] - step
    return {
        "wall": time.perf_counter() - t0,
        "moves": moves,
        "decisions": decisions,
        "games": games,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=32, help="games at once (client threads)")
    ap.add_argument("--seconds", type=float, default=5.0, help="how long each part runs")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args()
    if args.quick:
        args.games, args.seconds = 2, 0.5
    if not (1 <= args.games <= 256 and 0 < args.seconds <= 60):
        ap.error("--games is 1 to 256 and --seconds 0 to 60 (a bounded benchmark)")
    print(f"machine: {os.cpu_count()} cores; {args.games} games at once, {args.seconds} s each")
    base = in_process(args.seconds)
    with tempfile.TemporaryDirectory() as folder:
        web = over_http(args.games, args.seconds, folder)
    for name, r in (("in process (no HTTP), 1 game at a time", base), ("over HTTP", web)):
        line = (
            f"{name:<40} {r['moves'] / r['wall']:8.0f} moves/s  "
            f"{r['decisions'] / r['wall']:8.0f} decisions/s  {r['games']} games"
        )
        if "p99_ms" in r:
            line += f"  response p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms"
        print(line)


if __name__ == "__main__":
    main()
