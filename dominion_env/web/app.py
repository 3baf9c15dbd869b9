"""The HTTP face of ``dominion serve`` (Starlette, run by uvicorn): thin handlers that check
the request and call the game's ``Table`` (``games.py``); the page is plain HTML, JS and CSS
shipped in ``static/`` (nothing fetched from elsewhere: it works offline).

    GET  /                              the page: new game, play, watch, records
    GET  /api/options                   bots and agents to choose, kingdoms, cards and texts
    POST /api/games                     a new game {"mode", "players", "kingdom", "seed"}
    GET  /api/games/{id}?view=&since=   the game as that view may know it (see games.Table)
    POST /api/games/{id}/act            a person's answer {"seat", "action", "step"}
    POST /api/games/{id}/advance        a watched game's next decisions {"steps", "step"}
    POST /api/games/{id}/abandon        leave the game (saved as an abandoned record)
    GET  /api/records                   the records folder's games, newest first
    GET  /replay/{name}                 a record in the replay viewer (analysis.replay)

Errors are JSON {"error": message} with a 4xx status, and change nothing. A body is
at most ``MAX_BODY`` bytes (413: refused by its Content-Length, or as it streams in, before
the rest is read), and JSON too deeply nested or with an integer of more than ``MAX_DIGITS``
digits is a 400. An answer sent before its request's body was read (a 413, a refused Host)
says ``Connection: close`` and is sent whole, then the rest of the body is read and dropped
(``DrainBody``: up to ``DRAIN_BYTES`` or ``DRAIN_SECONDS``, as nginx's lingering close) before
the server closes: closing on unread bytes would reset the connection, and a client still
sending would never read the answer. Bots and agents
answer in a worker thread (``run_in_threadpool``), so a slow agent holds up only its own game.
Another site's page in the user's browser gets nowhere: POST bodies must be application/json
(which a cross-site request cannot send without a preflight this server never grants), and a
server on a loopback address (any of 127.0.0.0/8, ::1) answers only Host headers naming this
machine (no DNS rebinding: ``allowed_hosts``). ``serve`` binds another address only when told
``public=True`` (``dominion serve --public``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import socket
import threading
import time
from pathlib import Path

from ..analysis import replay
from ..engine.kingdoms import RECOMMENDED, playable_kingdom_cards
from ..extras import require
from .games import MAX_GAMES, Tables, WebError, card_texts, field_int

require("starlette", "dominion serve")
from starlette.applications import Starlette  # noqa: E402 (after the extra's check)
from starlette.concurrency import run_in_threadpool  # noqa: E402
from starlette.exceptions import HTTPException  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402
from starlette.middleware.trustedhost import TrustedHostMiddleware  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import FileResponse, HTMLResponse, JSONResponse  # noqa: E402
from starlette.routing import Mount, Route  # noqa: E402
from starlette.staticfiles import StaticFiles  # noqa: E402

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 16_384  # bytes: every request body is a few small fields
MAX_DIGITS = 30  # digits of a JSON integer in a body
# the rest of a refused body read and dropped, at most this much and this long (nginx's
# lingering close reads for up to 30 s, waiting at most 5 s for each read)
DRAIN_BYTES = 64 * 2**20
DRAIN_SECONDS = 30.0
DRAIN_WAIT = 5.0
# the page loads only what the server ships: no remote script, style, font or image
PAGE_CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'"


async def _body(request: Request) -> dict:
    # JSON only: another site's page cannot send that without the browser asking first (CORS
    # preflight), which this server never allows, so it cannot start or move games here
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WebError(415, f"the body must be sent as application/json, got {kind or 'none'!r}")
    raw = await _read_body(request)
    try:
        body = json.loads(raw, parse_int=_json_int)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise WebError(400, f"the body is not JSON: {e}") from None
    except RecursionError:  # the parser recurses once per nested array or object
        raise WebError(400, "the body is not JSON this server reads: it nests too deeply") from None
    if not isinstance(body, dict):
        raise WebError(400, f"the body must be a JSON object, got {type(body).__name__}")
    return body


async def _read_body(request: Request) -> bytes:
    """The body, refused (413) past ``MAX_BODY`` bytes before the rest is read: by its
    Content-Length when given, else as it streams in."""
    length = request.headers.get("content-length")
    if length is not None:
        if not (length.isascii() and length.isdigit()):
            raise WebError(400, f"Content-Length must be a number of bytes, got {length[:20]!r}")
        if len(length) > 9 or int(length) > MAX_BODY:
            size = length if len(length) <= 9 else "over 10**9"
            raise WebError(413, f"the body is {size} bytes; at most {MAX_BODY}")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise WebError(413, f"the body is over {MAX_BODY} bytes; at most {MAX_BODY}")
    return bytes(raw)


class DrainBody:
    """ASGI middleware: an answer sent while its request's body is still unread goes out whole
    with ``Connection: close``; then the rest of the body is read and dropped (at most
    ``DRAIN_BYTES``, ``DRAIN_SECONDS``, ``DRAIN_WAIT`` for each read) before the answer ends
    and the server closes the connection. A server that closes with unread bytes makes the
    kernel reset the connection, and a client still sending then gets the reset, not the
    answer (seen with a 10 MB body and ``Connection: close``)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        # a request without Content-Length or Transfer-Encoding has no body (RFC 9112, 6.3)
        unread = [b"transfer-encoding" in headers or headers.get(b"content-length", b"0") != b"0"]

        async def tracked():
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                unread[0] = False
            return message

        async def sending(message):
            if not unread[0]:
                await send(message)
            elif message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"connection"]
                await send({**message, "headers": [*kept, (b"connection", b"close")]})
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                await send({**message, "more_body": True})  # the answer whole, the end held
                await self._drain(tracked, unread)
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            else:
                await send(message)

        await self.app(scope, tracked, sending)

    @staticmethod
    async def _drain(receive, unread) -> None:
        loop = asyncio.get_running_loop()
        end, read = loop.time() + DRAIN_SECONDS, 0
        while unread[0] and read <= DRAIN_BYTES:
            wait = min(DRAIN_WAIT, end - loop.time())
            if wait <= 0:
                return
            try:
                message = await asyncio.wait_for(receive(), wait)
            except asyncio.TimeoutError:
                return
            read += len(message.get("body", b""))


def _json_int(text: str) -> int:
    # every number the API takes fits in 19 digits (a seed below 2**63); a longer one would
    # only cost time to convert (and past 4300 digits Python refuses it)
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise WebError(
            400, f"the body has a number of {len(text.lstrip('-'))} digits; at most {MAX_DIGITS}"
        )
    return int(text)


def _fields(body: dict, required: tuple[str, ...], optional: dict | None = None) -> list:
    """The body's ``required`` fields, then each ``optional`` one (its default if absent)."""
    optional = optional or {}
    missing = [k for k in required if k not in body]
    extra = sorted(set(body) - set(required) - set(optional))
    if missing or extra:
        raise WebError(
            400,
            f"the body takes the fields {list(required)} and optionally {list(optional)}; "
            f"missing {missing}, unknown {extra}",
        )
    return [body[k] for k in required] + [body.get(k, v) for k, v in optional.items()]


def _since(request: Request) -> int:
    text = request.query_params.get("since", "0")
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise WebError(400, f"since must be an event number (0 or more), got {text!r}")
    return int(text)


def create_app(
    resolve, known, records=None, *, max_games: int = MAX_GAMES, hosts: list | None = None
) -> Starlette:
    """The app. ``resolve(name)``: a bot or agent for a name of ``known`` (the names a client
    may choose, e.g. ``cli.resolve_player`` with the library's bots and shipped agents);
    ``records``: the folder every finished or abandoned game is saved in (None: not saved);
    ``hosts``: the Host headers answered (None: any), so that a page on another site cannot
    reach a loopback server through a name it controls (DNS rebinding)."""
    tables = Tables(resolve, known, records, max_games)
    options = {
        "players": list(tables.known.values()),
        "kingdoms": ["random", *RECOMMENDED],
        "kingdom_cards": list(playable_kingdom_cards()),
        "cards": card_texts(),
    }

    async def index(request: Request):
        return FileResponse(STATIC / "index.html", headers={"Content-Security-Policy": PAGE_CSP})

    async def get_options(request: Request):
        return JSONResponse(options)

    async def new_game(request: Request):
        body = await _body(request)
        table = await run_in_threadpool(tables.create, body)
        return JSONResponse(await run_in_threadpool(table.view, table.check_viewer(None)))

    async def get_game(request: Request):
        table = tables.get(request.path_params["id"])
        viewer = table.check_viewer(request.query_params.get("view"))
        return JSONResponse(await run_in_threadpool(table.view, viewer, _since(request)))

    async def act(request: Request):
        table = tables.get(request.path_params["id"])
        body = await _body(request)
        seat, action, step, since = _fields(body, ("seat", "action", "step"), {"since": 0})
        since = field_int("since", since, 0, None)
        await run_in_threadpool(table.act, seat, action, step)
        return JSONResponse(await run_in_threadpool(table.view, table.check_viewer(None), since))

    async def advance(request: Request):
        table = tables.get(request.path_params["id"])
        steps, step = _fields(await _body(request), ("steps", "step"))
        await run_in_threadpool(table.advance, steps, step)
        return JSONResponse({"step": table.moves, "over": table.over})

    async def abandon(request: Request):
        table = tables.get(request.path_params["id"])
        (since,) = _fields(await _body(request), (), {"since": 0})
        since = field_int("since", since, 0, None)
        await run_in_threadpool(table.abandon)
        return JSONResponse(await run_in_threadpool(table.view, table.check_viewer(None), since))

    async def list_records(request: Request):
        return JSONResponse({"records": tables.record_names()})

    async def show_replay(request: Request):
        rec = await run_in_threadpool(tables.record, request.path_params["name"])
        try:
            page = await run_in_threadpool(replay.html, rec)
        except (ValueError, TypeError) as e:  # records.RecordError, ReplayMismatch
            raise WebError(400, str(e)) from None
        return HTMLResponse(page)

    async def web_error(request: Request, exc: WebError):
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await run_in_threadpool(tables.close)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/options", get_options),
            Route("/api/games", new_game, methods=["POST"]),
            Route("/api/games/{id}", get_game),
            Route("/api/games/{id}/act", act, methods=["POST"]),
            Route("/api/games/{id}/advance", advance, methods=["POST"]),
            Route("/api/games/{id}/abandon", abandon, methods=["POST"]),
            Route("/api/records", list_records),
            Route("/replay/{name}", show_replay),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={WebError: web_error, HTTPException: http_error},
        middleware=[
            Middleware(DrainBody),  # outermost: every early answer drains its request
            *([Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []),
        ],
        lifespan=lifespan,
    )
    app.state.tables = tables
    return app


@contextlib.contextmanager
def running(app, host: str = "127.0.0.1"):
    """``app`` served by uvicorn in a thread on a free port of ``host`` (tests, benchmarks):
    yields its URL, stops the server on exit."""
    uvicorn = require("uvicorn", "dominion serve")
    sock = socket.socket()
    sock.bind((host, 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        yield f"http://{host}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def loopback(host: str) -> bool:
    """Whether every address ``host`` names is this machine's own: 127.0.0.0/8 or ::1
    (``localhost`` and the like resolve to those); a name that does not resolve is not."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return False
    return bool(infos) and all(
        ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback for info in infos
    )


def allowed_hosts(host: str) -> list[str] | None:
    """The Host headers a server bound to ``host`` answers: on a loopback address, only the
    names of this machine (the address itself, localhost, 127.0.0.1, [::1]; any port), so
    that a page of another site cannot reach it through a name it controls (DNS
    rebinding); None (any) on an address other machines reach (``serve(public=True)``)."""
    if not loopback(host):
        return None
    return sorted({_url_host(host).lower(), "localhost", "127.0.0.1", "[::1]"})


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host  # an IPv6 address in a URL or Host header


def serve(
    resolve, known, records=None, host: str = "127.0.0.1", port: int = 8000, public: bool = False
) -> None:
    """Run the app with uvicorn until interrupted, saying where to open it. ``host`` must be
    a loopback address unless ``public`` (anyone who reaches the server can start games)."""
    uvicorn = require("uvicorn", "dominion serve")
    hosts = allowed_hosts(host)
    if hosts is None and not public:
        raise ValueError(
            f"host {host!r} is not a loopback address (127.0.0.0/8, ::1, localhost): other "
            "machines could reach the server; pass public=True (--public) to serve them"
        )
    app = create_app(resolve, known, records, hosts=hosts)
    where = "the network" if hosts is None else "this machine only"
    print(
        f"dominion serve: open http://{_url_host(host)}:{port}/ (listening on {host}: {where}; "
        f"records in {records or 'nowhere'}); Ctrl+C stops it",
        flush=True,
    )
    uvicorn.run(app, host=host, port=port, log_level="warning")
