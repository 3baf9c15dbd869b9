"""``dominion serve``: a page to play bots and trained agents in the browser, watch them play
each other and open past games' records (``dominion_env.web``; the web extra). Everything the
server needs is checked before it starts: the extra, the address, the port, the records
folder and every saved agent."""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path

from ..agents import BOTS
from ..arguments import int_in, writable_dir
from ..checks import AGENT_SUFFIXES, is_agent_file
from ..extras import install_hint
from ..players import resolve_player, trained_agents
from ..search import DEFAULT_GUIDED_BUDGET

DEFAULT_RECORDS = "dominion_games"


def add_parser(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="play and watch games in the browser (the web extra)",
        description="Serve a page to play bots and trained agents, watch them play each other "
        "and open the records of past games in the replay viewer (see dominion_env/web). "
        "It listens on 127.0.0.1 (this machine only) unless --host says otherwise; an "
        "address other machines can reach needs --public.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1); a loopback one (127.0.0.0/8, ::1, "
        "localhost) answers only pages that name this machine",
    )
    p.add_argument(
        "--public",
        action="store_true",
        help="allow a --host other machines can reach (0.0.0.0, a LAN address): anyone who "
        "reaches it can start and play games and open the records",
    )
    p.add_argument("--port", type=int_in(1, 65535), default=8000, help="port (default 8000)")
    p.add_argument(
        "--records",
        metavar="DIR",
        default=DEFAULT_RECORDS,
        help=f"folder for every finished or abandoned game's record (default {DEFAULT_RECORDS})",
    )
    p.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="FILE.safetensors",
        help="a saved agent to offer beside the bots and shipped agents (repeatable)",
    )
    p.set_defaults(run=run, check=check, parser=p)


def check(args) -> None:
    for module in ("starlette", "uvicorn"):
        if importlib.util.find_spec(module) is None:
            args.parser.error(f"dominion serve needs {module}: {install_hint(module)}")
    _check_address(args)
    why = writable_dir(Path(args.records))
    if why:
        args.parser.error(f"argument --records: {args.records!r} cannot take the records: {why}")
    args.saved = {}  # loaded now: a bad file ends the command before the server starts
    for path in args.agent:
        if not is_agent_file(path):
            args.parser.error(
                f"argument --agent: {path!r} is not an agent file's name (it ends with "
                f"{' or '.join(AGENT_SUFFIXES)})"
            )
        try:
            args.saved[path] = resolve_player(path)
        except (ValueError, OSError) as e:
            args.parser.error(f"argument --agent: {e}")


def _check_address(args) -> None:
    """--host names an address here (a loopback one unless --public) and --port is free."""
    try:
        infos = socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        args.parser.error(f"argument --host: {args.host!r} is not an address here: {e}")
    from ..web.app import loopback  # the web extra (starlette), checked first

    if not args.public and not loopback(args.host):
        args.parser.error(
            f"argument --host: {args.host!r} is not a loopback address (127.0.0.0/8, ::1, "
            "localhost): other machines could reach the server; add --public to serve them"
        )
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:  # in use or not ours: say so now
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as e:
            args.parser.error(f"cannot listen on {args.host} port {args.port}: {e.strerror or e}")


def run(args) -> int:
    from ..web import serve  # the web extra, checked by check

    agents, _ = trained_agents()
    # the search player at its default budget and at a quicker one (dominion_env.search),
    # and guided by the 2-player agent at its default budget
    guided = [f"search:ppo-pool:{DEFAULT_GUIDED_BUDGET}"] if "ppo-pool" in agents else []
    known = list(BOTS) + list(agents) + ["search", "search:200", *guided] + list(args.saved)

    def resolve(name: str):
        return args.saved[name] if name in args.saved else resolve_player(name)

    try:
        serve(resolve, known, args.records, args.host, args.port, public=args.public)
    except KeyboardInterrupt:
        pass
    return 0
