"""``dominion serve``'s API through Starlette's TestClient: a whole game by requests checked
against its saved record, every bad request (4xx, a message, nothing changed), what a seat
may see (raw responses unchanged when another seat's hidden cards change; VP and log as the
seat knows them), watching, records, the store's cap, a slow agent that holds up only its own
game, the addresses served, and fuzzed bodies and names (hypothesis: deep JSON, huge numbers,
oversize bodies, control characters).

This file stays whole (over 800 lines): every test drives the same app through the same
client and helpers.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="dominion serve needs the web extra")
from starlette.testclient import TestClient  # noqa: E402

from dominion_env import Game, records  # noqa: E402
from dominion_env.agents import BOTS  # noqa: E402
from dominion_env.cards import NAMES  # noqa: E402
from dominion_env.cli import resolve_player  # noqa: E402
from dominion_env.engine.layout import DECK_LEN, HAND, KNOWN_TOP  # noqa: E402
from dominion_env.names import log_lines  # noqa: E402
from dominion_env.web import create_app  # noqa: E402
from dominion_env.web.app import MAX_BODY, MAX_DIGITS, running  # noqa: E402

KNOWN = list(BOTS)
NEW = {"mode": "play", "players": ["Big Money"], "kingdom": "First Game", "seed": 3}
PREFER = ("Province", "Gold", "Silver")  # the test's person plays Big Money by name


@pytest.fixture()
def client(tmp_path):
    app = create_app(resolve_player, KNOWN, tmp_path / "records")
    with TestClient(app) as c:
        c.folder = tmp_path / "records"
        c.tables = app.state.tables
        yield c


def new_game(client, **body):
    r = client.post("/api/games", json={**NEW, **body})
    assert r.status_code == 200, r.text
    return r.json()


def pick(view) -> int:
    """Big Money's choice among the legal actions, by their labels."""
    choices = view["decision"]["choices"]
    for name in PREFER:
        for c in choices:
            if c["label"].split(" (")[0] == name:
                return c["action"]
    (c,) = [c for c in choices if c["label"].startswith("PASS")]
    return c["action"]


def act(client, view, action, **extra):
    body = {"seat": 0, "action": action, "step": view["step"], **extra}
    return client.post(f"/api/games/{view['id']}/act", json=body)


def test_a_whole_game_by_requests_is_its_record(client):
    view = new_game(client)
    assert view["players"] == ["you", "Big Money"] and view["mode"] == "play"
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", view["id"])  # token_urlsafe(16)
    sent, log = [], list(view["log"])
    while view["result"] is None:
        a = pick(view)
        sent.append(a)
        r = act(client, view, a, since=view["events"])
        assert r.status_code == 200, r.text
        view = r.json()
        log += view["log"]
    table = client.tables.get(view["id"])
    assert log == table.game.log(viewer=0)  # the pieces sent add up to the seat's log
    res = view["result"]
    assert res["status"] == "terminated" and not res["abandoned"]
    assert res["text"].startswith("Result: ") and "you" in res["text"]  # won, lost or shared
    rec = records.load(client.folder / view["record"])
    assert [d["index"] for d in rec["decisions"] if d["player"] == 0] == sent
    assert rec["players"] == [
        {"seat": 0, "kind": "human", "name": "you"},
        {"seat": 1, "kind": "bot", "name": "Big Money"},
    ]
    assert rec["meta"] == {"played_by": "dominion serve", "mode": "play", "abandoned": False}
    replayed = Game.from_record(rec).result()
    assert {k: res[k] for k in replayed} == replayed
    assert view["vp"][-1] == [replayed["turns"], replayed["scores"]]
    assert view["step"] == len(rec["decisions"])
    # the record opens in the replay viewer, and is listed
    assert client.get("/api/records").json() == {"records": [view["record"]]}
    page = client.get(f"/replay/{view['record']}")
    assert page.status_code == 200 and "<title>Dominion replay: seed 3 game 0" in page.text


def test_the_same_seed_and_answers_give_the_same_game(client):
    views = []
    for _ in range(2):
        view = new_game(client, seed=11)
        for _ in range(6):
            view = act(client, view, pick(view)).json()
        views.append({k: v for k, v in view.items() if k != "id"})
    assert views[0] == views[1]


def _state(client, view):
    r = client.get(f"/api/games/{view['id']}")
    assert r.status_code == 200
    return r.text


# (method, path suffix or None for the game's act, body, status, words in the message)
BAD_ACTS = [
    ({"seat": 0, "action": 70}, 400, "step"),  # a field missing
    ({"seat": 0, "action": 70, "step": 1, "x": 1}, 400, "unknown ['x']"),
    ({"seat": "0", "action": 70, "step": 1}, 400, "seat must be an int 0..1"),
    ({"seat": True, "action": 70, "step": 1}, 400, "seat must be an int"),
    ({"seat": 2, "action": 70, "step": 1}, 400, "seat must be an int 0..1"),
    ({"seat": 1, "action": 70, "step": 1}, 403, "seat P1 is played by Big Money"),
    ({"seat": 0, "action": 70.0, "step": 1}, 400, "action must be an int"),
    ({"seat": 0, "action": 999, "step": 1}, 400, "action must be an int 0..70"),
    ({"seat": 0, "action": "Bogus", "step": 1}, 400, "Bogus"),
    ({"seat": 0, "action": "Province", "step": 1}, 400, "not legal now; legal: PASS"),
    ({"seat": 0, "action": 70, "step": 0}, 409, "moved on"),
    ({"seat": 0, "action": 70, "step": -1}, 400, "step must be an int >= 0"),
    ({"seat": 0, "action": 70, "step": 1, "since": "x"}, 400, "since must be an int"),
]


@pytest.mark.parametrize(("body", "status", "words"), BAD_ACTS)
def test_a_bad_answer_is_refused_and_changes_nothing(client, body, status, words):
    view = new_game(client)
    assert view["step"] == 1  # Big Money took one decision first
    before = _state(client, view)
    r = client.post(f"/api/games/{view['id']}/act", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert _state(client, view) == before


@pytest.mark.parametrize(
    ("raw", "status", "words"),
    [
        (b"{not json", 400, "not JSON"),
        (b"[1, 2]", 400, "must be a JSON object, got list"),
        (b"\xff\xfe", 400, "not JSON"),
        (b"{" + b'"a": 1,' * 5000 + b'"b": 2}', 413, "at most 16384"),
        (b"[" * 16_000, 400, "nests too deeply"),
        (b'{"a":' * 2500 + b"1" + b"}" * 2500, 400, "nests too deeply"),
        (b'{"seat": 0, "action": 70, "step": ' + b"9" * 5000 + b"}", 400, "5000 digits"),
        (b'{"seat": -' + b"1" * 31 + b', "action": 70, "step": 1}', 400, "31 digits; at most 30"),
    ],
)
def test_a_malformed_body_is_refused(client, raw, status, words):
    view = new_game(client)
    before = _state(client, view)
    r = client.post(
        f"/api/games/{view['id']}/act", content=raw, headers={"content-type": "application/json"}
    )
    assert r.status_code == status and words in r.json()["error"], r.text
    assert _state(client, view) == before
    r = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == status and words in r.json()["error"], r.text
    assert list(client.tables.tables) == [view["id"]]


def test_a_body_past_the_limit_is_refused_before_it_is_read(client):
    json_ = {"content-type": "application/json"}
    # streamed with no Content-Length: refused as it passes the limit
    chunks = iter([b" " * 10_000] * 100)
    r = client.post("/api/games", content=chunks, headers=json_)
    assert r.status_code == 413 and "over 16384 bytes" in r.json()["error"], r.text
    for length, words in [("99999999999", "over 10**9"), ("16385", "16385 bytes"), ("x", "")]:
        r = client.post("/api/games", content=b"{}", headers={**json_, "content-length": length})
        assert r.status_code == (400 if words == "" else 413), r.text
        assert words in r.json()["error"]
    assert client.tables.tables == {}
    # a real server answers a declared megabyte at once, before the client sends it
    with running(create_app(resolve_player, KNOWN)) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            sock.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"
            )
            answer = ""
            while not answer.endswith("}"):  # the headers, then the JSON error
                answer += sock.recv(4096).decode()
    assert answer.startswith("HTTP/1.1 413") and "at most 16384" in answer, answer


def _send_then_read(url: str, head: bytes, body) -> bytes:
    """A client that sends the whole request before it reads (as urllib does): everything
    the server answers, up to its close; an OSError if the connection is reset."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(head)
        for piece in body:
            sock.sendall(piece)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_10_mb_body_gets_a_413_it_can_read_then_a_close(framing):
    size, piece = 10 * 2**20, b" " * 2**16
    head = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += b"Connection: close\r\n"  # the server closes after its answer: unread bytes reset
    if framing == "chunked":
        head += b"Transfer-Encoding: chunked\r\n\r\n"
        body = [*[b"10000\r\n" + piece + b"\r\n"] * (size // len(piece)), b"0\r\n\r\n"]
    else:
        head += f"Content-Length: {size}\r\n\r\n".encode()
        body = [piece] * (size // len(piece))
    with running(create_app(resolve_player, KNOWN)) as url:
        answer = _send_then_read(url, head, body).decode()
        headers, _, text = answer.partition("\r\n\r\n")
        assert headers.startswith("HTTP/1.1 413") and "connection: close" in headers.lower()
        assert "at most 16384" in json.loads(text)["error"]
        # and a keep-alive client is told the connection closes, and it does
        head = head.replace(b"Connection: close\r\n", b"")
        assert _send_then_read(url, head, body).startswith(b"HTTP/1.1 413")
        # a body within the limit is read as before, the connection kept
        ok = json.dumps(NEW).encode()
        head = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        head += f"Content-Length: {len(ok)}\r\nConnection: close\r\n\r\n".encode()
        answer = _send_then_read(url, head, [ok]).decode()
        assert answer.startswith("HTTP/1.1 200") and "connection: close" in answer.lower()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"mode": "solo"}, "mode must be one of ('play', 'watch')"),
        ({"players": []}, "players must be a list of 1 to 5"),
        ({"players": ["Big Money"] * 6}, "players must be a list of 1 to 5"),
        ({"mode": "watch", "players": ["Big Money"]}, "players must be a list of 2 to 6"),
        ({"players": "Big Money"}, "players must be a list"),
        ({"players": ["Nope"]}, "unknown player 'Nope'; known: Random, Big Money"),
        ({"players": [3]}, "unknown player 3"),
        ({"players": ["/etc/passwd.pt"]}, "unknown player '/etc/passwd.pt'"),
        ({"kingdom": "Nowhere"}, "unknown kingdom 'Nowhere'"),
        ({"kingdom": ["Village"] * 10}, "Village"),
        ({"seed": -1}, "seed must be an int 0..2**63-1, got -1"),
        ({"seed": "7"}, "seed must be an int"),
        ({"seed": 2**63}, "seed must be an int"),
        ({"colour": "red"}, "unknown fields ['colour']"),
    ],
)
def test_a_bad_new_game_is_refused_and_holds_nothing(client, body, words):
    r = client.post("/api/games", json={**NEW, **body})
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]
    assert client.tables.tables == {}


def test_unknown_games_views_and_records_get_a_4xx(client):
    view = new_game(client)
    gid = view["id"]
    cases = [
        ("GET", "/api/games/nope", 404, "no such game"),
        ("POST", "/api/games/nope/act", 404, "no such game"),
        ("POST", "/api/games/nope/advance", 404, "no such game"),
        ("POST", "/api/games/nope/abandon", 404, "no such game"),
        ("GET", f"/api/games/{gid}?view=1", 403, "shows only your seat"),
        ("GET", f"/api/games/{gid}?view=all", 403, "shows only your seat"),
        ("GET", f"/api/games/{gid}?since=-1", 400, "since must be an event number"),
        ("GET", f"/api/games/{gid}?since=99999", 400, "since must be an event number 0.."),
        ("POST", f"/api/games/{gid}/advance", 415, "must be sent as application/json"),
        ("GET", "/replay/..%2F..%2Fetc%2Fpasswd", 404, "Not Found"),  # no route
        ("GET", "/replay/missing.json", 404, "no record 'missing.json'"),
        ("GET", "/replay/.hidden.json", 404, "no record"),
        ("GET", "/no/such/page", 404, "Not Found"),
        ("PUT", "/api/games", 405, "Method Not Allowed"),
    ]
    before = _state(client, view)
    for method, path, status, words in cases:
        r = client.request(method, path)
        assert r.status_code == status, (path, r.text)
        assert words in r.json()["error"], (path, r.text)
    r = client.post(f"/api/games/{gid}/advance", json={"steps": 1, "step": 1})
    assert r.status_code == 409 and "answer with act" in r.json()["error"]
    assert _state(client, view) == before


def test_another_sites_page_can_neither_post_nor_rebind(tmp_path, client):
    # a cross-site form or fetch without a preflight can only send text/plain and the like
    r = client.post("/api/games", content=json.dumps(NEW), headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "'text/plain'" in r.json()["error"]
    assert client.tables.tables == {}
    app = create_app(resolve_player, KNOWN, tmp_path, hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://127.0.0.1:8000") as local:
        assert local.get("/api/options").status_code == 200
        assert local.get("/api/options", headers={"host": "evil.example:8000"}).status_code == 400


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "localhost"])
def test_every_loopback_address_is_this_machine_only_and_checks_the_host(
    tmp_path, monkeypatch, capsys, host
):
    import uvicorn

    from dominion_env.web import app as web_app

    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append((app, kw)))
    web_app.serve(resolve_player, KNOWN, tmp_path, host, 8123)
    ((app, kw),) = served
    assert kw["host"] == host
    shown = f"[{host}]" if ":" in host else host
    line = capsys.readouterr().out
    assert line.startswith(f"dominion serve: open http://{shown}:8123/ (listening on {host}: ")
    assert "this machine only" in line
    with TestClient(app, base_url=f"http://{shown}:8123") as local:
        for name in {shown, "localhost", "127.0.0.1", "[::1]"}:
            r = local.get("/api/options", headers={"host": f"{name}:8123"})
            assert r.status_code == 200, name
        for name in ("evil.example:8123", "127.0.0.1.evil.example", "[::2]:8123", "10.0.0.1"):
            assert local.get("/api/options", headers={"host": name}).status_code == 400, name


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1"])
def test_a_host_others_can_reach_needs_public(tmp_path, monkeypatch, capsys, host):
    import uvicorn

    from dominion_env.web import app as web_app

    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    with pytest.raises(ValueError, match=f"host '{re.escape(host)}' is not a loopback address"):
        web_app.serve(resolve_player, KNOWN, tmp_path, host, 8123)
    assert served == [] and capsys.readouterr().out == ""
    web_app.serve(resolve_player, KNOWN, tmp_path, host, 8123, public=True)
    assert "the network" in capsys.readouterr().out
    with TestClient(served[0]) as anywhere:  # any Host: the user chose to serve others
        assert anywhere.get("/api/options", headers={"host": "box.lan"}).status_code == 200


def test_a_record_that_does_not_replay_is_a_400(client):
    client.folder.mkdir(parents=True)
    (client.folder / "bad.json").write_text(json.dumps({"format": "something else"}))
    r = client.get("/replay/bad.json")
    assert r.status_code == 400 and "record" in r.json()["error"]


# -- what a seat sees ---------------------------------------------------------------------------


def _perturb(game, p: int, rng) -> bool:
    """Change what seat ``p`` hides from the others in place, as
    ``test_observation.test_hidden_changes_never_show_in_a_real_game`` does: its draw pile in
    a new order (below the top cards it knows), and a hand card nobody else knows (not in
    ``pub_hand``) swapped with a draw pile card. False if there was nothing to swap."""
    s = game.state
    n = int(s["player"][0, p, DECK_LEN] - s["player"][0, p, KNOWN_TOP])
    s["deck"][0, p, :n] = rng.permutation(s["deck"][0, p, :n])
    hand = np.flatnonzero(s["zone"][0, p, HAND] > s["pub_hand"][0, p])
    if len(hand) == 0 or n == 0:
        return False
    x = int(rng.choice(hand))
    i = int(rng.integers(n))
    y = int(s["deck"][0, p, i])
    if x == y:
        return False
    s["zone"][0, p, HAND, x] -= 1  # x goes into the draw pile in y's place
    s["zone"][0, p, HAND, y] += 1
    s["deck"][0, p, i] = x
    s["deck_count"][0, p, x] += 1  # the pile's composition row goes with it
    s["deck_count"][0, p, y] -= 1
    return True


def _hidden_unchanged(client, view, path, p, rng):
    """The raw answer to ``path`` is the same after seat ``p``'s hidden cards change."""
    table = client.tables.get(view["id"])
    saved = table.game.state.copy()
    before = client.get(path).text
    try:
        changed = _perturb(table.game, p, rng)
        assert client.get(path).text == before
    finally:
        table.game.state[:] = saved
    assert client.get(path).text == before
    return changed


def test_a_player_never_sees_another_seats_hidden_cards(client):
    view = new_game(client, seed=5)
    path = f"/api/games/{view['id']}?since=0"
    rng = np.random.default_rng(5)
    perturbed = 0
    while view["result"] is None:
        perturbed += _hidden_unchanged(client, view, path, 1, rng)
        r = act(client, view, pick(view))
        body = r.text
        view = r.json()
        # the raw answer names only the person's own hand, never P1's draws
        assert list(view["cards"]) == ["0"] and view["view"] == 0
        assert '"deck":null' in body.replace(" ", "") and '"discard":null' in body.replace(" ", "")
        assert not re.search(r"P1 (draws|discards|sets aside) (\d+ x )?[A-Z][a-z]", body), body
    assert perturbed > 10


def test_a_watched_game_shows_any_seat_or_everything(client):
    view = new_game(client, mode="watch", players=["Big Money", "Smithy"], seed=2)
    assert view["view"] == "all" and set(view["cards"]) == {"0", "1"}
    assert view["cards"]["0"]["deck"] is not None  # everything: draw piles in order too
    gid = view["id"]
    step = view["step"]
    for _ in range(3):
        r = client.post(f"/api/games/{gid}/advance", json={"steps": 7, "step": step})
        assert r.status_code == 200, r.text
        assert r.json()["step"] == step + 7
        step += 7
    rng = np.random.default_rng(2)
    assert sum(
        _hidden_unchanged(client, view, f"/api/games/{gid}?view=1", 0, rng) for _ in range(5)
    )
    seat = client.get(f"/api/games/{gid}?view=1").json()
    assert list(seat["cards"]) == ["1"] and seat["cards"]["1"]["deck"] is None
    assert client.get(f"/api/games/{gid}?view=2").status_code == 400
    r = client.post(f"/api/games/{gid}/act", json={"seat": 0, "action": 70, "step": step})
    assert r.status_code == 409 and "watched" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/advance", json={"steps": 1001, "step": step})
    assert r.status_code == 400 and "steps must be an int 1..1000" in r.json()["error"]
    while not client.post(f"/api/games/{gid}/advance", json={"steps": 1000, "step": step}).json()[
        "over"
    ]:
        step = client.get(f"/api/games/{gid}").json()["step"]
    end = client.get(f"/api/games/{gid}").json()
    assert end["result"]["status"] in ("terminated", "truncated") and end["decision"] is None
    rec = records.load(client.folder / end["record"])
    assert rec["meta"]["mode"] == "watch" and Game.from_record(rec).result() == {
        k: end["result"][k] for k in ("status", "rewards", "scores", "turns")
    }
    r = client.post(f"/api/games/{gid}/advance", json={"steps": 1, "step": end["step"]})
    assert r.status_code == 409 and "over" in r.json()["error"]


def _watch_each_step(client, view, steps: int):
    """Advance a watched game one decision at a time (``steps`` at most), yielding after each."""
    gid = view["id"]
    step = view["step"]
    for _ in range(steps):
        r = client.post(f"/api/games/{gid}/advance", json={"steps": 1, "step": step})
        assert r.status_code == 200, r.text
        if r.json()["over"]:
            return
        step = r.json()["step"]
        yield step


def test_a_seats_vp_are_what_it_knows_after_a_masquerade_pass(client):
    # with 3 players, a pass between the two others is unseen: the true VP would tell the card
    body = {"players": ["Masquerade"] * 3, "kingdom": "Victory Dance", "seed": 4}
    view = new_game(client, mode="watch", **body)
    table = client.tables.get(view["id"])
    g = table.game
    differ = turns = 0
    for _ in _watch_each_step(client, view, 120):
        new_turn = len(table.vp) > turns
        turns = len(table.vp)
        for p in range(3):
            seen = client.get(f"/api/games/{view['id']}?view={p}").json()
            known = [int(v) for v in g.observation_pieces(p)["vp"]]
            assert [s["vp"] for s in seen["seats"]] == known
            if new_turn:  # the VP history's point of this turn too
                assert seen["vp"][-1] == [g.turn["turn_number"], known]
            differ += known != g.scores()
        everything = client.get(f"/api/games/{view['id']}").json()
        assert [s["vp"] for s in everything["seats"]] == g.scores()
    assert differ > 0  # some pass hid a Victory card from a seat
    if not g.done:  # the watched steps may have reached the end already
        r = client.post(
            f"/api/games/{view['id']}/advance", json={"steps": 1000, "step": table.moves}
        )
        assert r.json()["over"]
    assert g.done
    for p in range(3):  # the end shows every seat the true score
        seen = client.get(f"/api/games/{view['id']}?view={p}").json()
        assert [s["vp"] for s in seen["seats"]] == g.scores() == seen["vp"][-1][1]


def test_with_two_players_a_seat_knows_the_true_vp(client):
    body = {"players": ["Masquerade"] * 2, "kingdom": "Victory Dance", "seed": 4}
    view = new_game(client, mode="watch", **body)
    g = client.tables.get(view["id"]).game
    for _ in _watch_each_step(client, view, 150):
        for p in range(2):
            seen = client.get(f"/api/games/{view['id']}?view={p}").json()
            assert [s["vp"] for s in seen["seats"]] == g.scores()


def test_a_watcher_polling_mid_discard_sees_no_more_than_the_final_log(client):
    # Militia's victims discard one card per decision: each pick shows as the top card so
    # far until the next one covers it, so a poll between picks must not get it
    body = {"players": ["Militia", "Militia", "Big Money"], "kingdom": "First Game", "seed": 1}
    view = new_game(client, mode="watch", **body)
    g = client.tables.get(view["id"]).game
    sent = {p: [] for p in range(3)}  # (first row, rows sent, rows logged, lines) per poll
    since = dict.fromkeys(range(3), 0)
    for _ in _watch_each_step(client, view, 300):
        for p in range(3):
            seen = client.get(f"/api/games/{view['id']}?view={p}&since={since[p]}").json()
            sent[p].append((since[p], seen["events"], len(g.log_events()), seen["log"]))
            since[p] = seen["events"]
    final = g.log_events()
    held = 0
    for p in range(3):
        for lo, hi, n, lines in sent[p]:
            assert lines == log_lines(final[lo:hi], p), (p, lo, hi)
            held += hi < n
    assert held > 10  # polls came between the picks of a discard


# -- records and the store -----------------------------------------------------------------------


def test_an_abandoned_game_is_saved_and_over(client):
    view = new_game(client)
    view = act(client, view, pick(view)).json()
    r = client.post(f"/api/games/{view['id']}/abandon", json={})
    assert r.status_code == 200, r.text
    end = r.json()
    assert end["result"]["abandoned"] and end["result"]["status"] == "running"
    assert end["decision"] is None
    rec = records.load(client.folder / end["record"])
    assert rec["meta"]["abandoned"] and rec["result"]["status"] == "running"
    assert len(rec["decisions"]) == view["step"]
    assert Game.from_record(rec).turn["turn_number"] == view["turn"]["turn_number"]
    again = client.post(f"/api/games/{view['id']}/abandon", json={})
    assert again.status_code == 409
    r = act(client, view, pick(view))
    assert r.status_code == 409 and "over" in r.json()["error"]


def test_the_store_is_bounded_and_saves_what_it_lets_go(tmp_path):
    app = create_app(resolve_player, KNOWN, tmp_path, max_games=2)
    with TestClient(app) as client:
        ids = [client.post("/api/games", json=NEW).json()["id"] for _ in range(2)]
        client.get(f"/api/games/{ids[0]}")  # the first is now the more recently used
        third = client.post("/api/games", json=NEW).json()["id"]
        assert client.get(f"/api/games/{ids[1]}").status_code == 404
        assert client.get(f"/api/games/{ids[0]}").status_code == 200
        (saved,) = tmp_path.glob("*.json")
        assert records.load(saved)["meta"]["abandoned"]
    # stopping the server saves the games still running
    assert len(list(tmp_path.glob("*.json"))) == 3
    assert third not in {p.name for p in tmp_path.iterdir()}  # a record's name is not an id


def test_a_finished_game_goes_before_a_running_one(tmp_path):
    app = create_app(resolve_player, KNOWN, tmp_path, max_games=2)
    with TestClient(app) as client:
        running = client.post("/api/games", json=NEW).json()["id"]
        done = client.post("/api/games", json=NEW).json()["id"]
        assert client.post(f"/api/games/{done}/abandon", json={}).status_code == 200
        client.post("/api/games", json=NEW)  # the running game is the least recently used
        assert client.get(f"/api/games/{done}").status_code == 404
        assert client.get(f"/api/games/{running}").status_code == 200


class Waiting:
    """An agent that answers only when the test lets it (a slow network)."""

    name = "Waiting"
    scale_observations = False

    def __init__(self):
        self.asked = threading.Event()
        self.go = threading.Event()

    def act(self, obs, masks):
        self.asked.set()
        assert self.go.wait(60)
        return np.array([int(np.flatnonzero(masks[0])[-1])])


def test_a_slow_agent_holds_up_only_its_own_game(tmp_path):
    agent = Waiting()
    resolve = lambda n: agent if n == "Waiting" else resolve_player(n)  # noqa: E731
    app = create_app(resolve, [*KNOWN, "Waiting"], tmp_path)
    with TestClient(app) as client:
        other = client.post("/api/games", json=NEW).json()
        slow = client.post(
            "/api/games", json={"mode": "watch", "players": ["Waiting", "Big Money"], "seed": 1}
        ).json()
        out = {}
        t = threading.Thread(
            target=lambda: out.update(
                r=client.post(f"/api/games/{slow['id']}/advance", json={"steps": 4, "step": 0})
            )
        )
        t.start()
        assert agent.asked.wait(60)
        # the agent is thinking: the other game still answers, and moves
        r = act(client, other, pick(other))
        assert r.status_code == 200 and r.json()["step"] > other["step"]
        assert "r" not in out
        # a request for the busy game is refused at once rather than queued behind the agent
        for r in (
            client.get(f"/api/games/{slow['id']}"),
            client.post(f"/api/games/{slow['id']}/advance", json={"steps": 1, "step": 0}),
            client.post(f"/api/games/{slow['id']}/abandon", json={}),
        ):
            assert r.status_code == 409 and "busy" in r.json()["error"], r.text
        agent.go.set()
        t.join(60)
        assert out["r"].status_code == 200 and out["r"].json() == {"step": 4, "over": False}


def test_an_agent_plays_a_seat(client):
    pytest.importorskip("torch", reason="trained agents need the train extra")
    from dominion_env.web.games import Tables

    tables = Tables(resolve_player, ["ppo-pool"], None)
    table = tables.create({"players": ["ppo-pool"], "kingdom": "First Game", "seed": 4})
    view = table.view(0)
    for _ in range(5):
        table.act(0, pick(view), view["step"])
        view = table.view(0)
    assert view["step"] > 5 and table.seats[1] is tables.players["ppo-pool"]
    assert not table.game.done and NAMES  # the agent answered its own decisions


# -- the command line ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--port", "0"], "argument --port: 0 is out of range; allowed: 1 to 65,535"),
        (["--port", "http"], "argument --port: 'http' is not a whole number"),
        (["--host", "no.such.host.invalid"], "argument --host: 'no.such.host.invalid' is not"),
        (["--records", "{file}/x"], "argument --records: '{file}/x' cannot take the records"),
        (["--port", "{busy}"], "cannot listen on 127.0.0.1 port {busy}"),
        (["--agent", "{file}"], "argument --agent: '{file}' is not an agent file's name (it ends"),
        (["--agent", "{file}.pt"], "argument --agent: "),
        (["--host", "0.0.0.0"], "argument --host: '0.0.0.0' is not a loopback address"),
        (["--host", "::"], "argument --host: '::' is not a loopback address"),
    ],
)
def test_serve_arguments_are_checked_before_serving(tmp_path, capsys, argv, words):
    from dominion_env import cli

    (tmp_path / "f").write_text("")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        fill = {"file": tmp_path / "f", "busy": busy.getsockname()[1]}
        with pytest.raises(SystemExit) as e:
            cli.parse_args(["serve", *[a.format(**fill) for a in argv]])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("dominion serve: error: ") and words.format(**fill) in err[-1]


def test_serve_public_takes_an_address_others_can_reach(tmp_path):
    from dominion_env import cli

    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    argv = ["serve", "--host", "0.0.0.0", "--port", str(port), "--records", str(tmp_path)]
    assert cli.parse_args([*argv, "--public"]).public
    assert not cli.parse_args(["serve", *argv[3:]]).public  # 0.0.0.0 alone is refused above


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch, capsys):
    from dominion_env import cli

    monkeypatch.setitem(sys.modules, "starlette", None)  # as if it were not installed
    with pytest.raises(SystemExit) as e:
        cli.parse_args(["serve"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == (
        "dominion serve: error: dominion serve needs starlette: pip install 'dominion-env[web]'"
    )


def test_dominion_serve_says_where_it_listens_and_serves_the_page(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "dominion_env.cli", "serve", "--port", str(port)]
    server = subprocess.Popen([*cmd, "--records", str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith(f"dominion serve: open http://127.0.0.1:{port}/ (listening on ")
        assert "this machine only" in line
        for _ in range(600):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    page = r.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert '<script src="/static/app.js" defer></script>' in page
        assert "http" not in page.replace("http://www.w3.org", "")  # nothing from elsewhere
        new = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games",
            data=json.dumps(NEW).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(new, timeout=60) as r:
            assert json.loads(r.read())["result"] is None
    finally:
        server.terminate()
        # uvicorn shuts down gracefully, then re-raises the signal it caught (-SIGTERM)
        assert server.wait(60) in (0, -signal.SIGTERM)
    # stopping saves the game still running, as abandoned
    (saved,) = tmp_path.glob("*.json")
    assert records.load(saved)["meta"]["abandoned"]


def test_the_page_fetches_nothing_from_elsewhere():
    from dominion_env.web.app import STATIC

    files = sorted(p.name for p in STATIC.iterdir())
    assert files == ["app.js", "index.html", "style.css"]
    for name in files:
        text = (STATIC / name).read_text().replace('"http://www.w3.org/2000/svg"', "")
        assert not re.search(r"https?:|//[a-z]|@import|url\(", text), name


ODD = [None, {}, [], 5, -1, 2**70, "x", True, 1.5, ["Big Money"], [None], [[]], {"a": 1}]


def test_no_odd_field_value_gets_past_the_checks(client):
    """Every field of every request, given each odd value: a 4xx with a message, or a 200
    where the value happens to be a fine one; never a server error."""

    def fine(r):
        return r.status_code == 200 or (400 <= r.status_code < 500 and r.json()["error"])

    for key in ("mode", "players", "kingdom", "seed"):
        for v in ODD:
            r = client.post("/api/games", json={**NEW, key: v})
            assert fine(r), (key, v, r.text)
    view = new_game(client)
    watch = new_game(client, mode="watch", players=["Big Money", "Smithy"])
    accepted = set()
    for key in ("seat", "action", "step", "since"):
        for v in ODD:
            step = client.get(f"/api/games/{view['id']}").json()["step"]
            body = {"seat": 0, "action": 70, "step": step, key: v}
            r = client.post(f"/api/games/{view['id']}/act", json=body)
            assert fine(r), (key, v, r.text)
            if r.status_code == 200:
                accepted.add(("act", key, repr(v)))
    for key in ("steps", "step"):
        for v in ODD:
            step = client.get(f"/api/games/{watch['id']}").json()["step"]
            body = {"steps": 1, "step": step, key: v}
            r = client.post(f"/api/games/{watch['id']}/advance", json=body)
            assert fine(r), (key, v, r.text)
            if r.status_code == 200:
                accepted.add(("advance", key, repr(v)))
    # only 5 is ever a fine value: as since, as steps, and as step when the game is there
    assert (
        {("act", "since", "5"), ("advance", "steps", "5")}
        <= accepted
        <= {
            ("act", "since", "5"),
            ("act", "step", "5"),
            ("advance", "steps", "5"),
            ("advance", "step", "5"),
        }
    )


# -- fuzzing the bodies and names ------------------------------------------------------------

FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FIELDS = st.sampled_from(["seat", "action", "step", "since", "players", "seed", "kingdom"])


def _nested(depth: int, objects: bool, leaf: bytes = b"1") -> bytes:
    if objects:
        return b'{"a":' * depth + leaf + b"}" * depth
    return b"[" * depth + leaf + b"]" * depth


def _with(key: str, value: bytes, base=None) -> bytes:
    """A body of ``base``'s fields (an act's by default) with ``key`` set to raw ``value``."""
    fields = {**(base or {"seat": 0, "action": 70, "step": 0}), key: None}  # step 0: stale
    text = json.dumps(fields).encode()
    return text.replace(f'"{key}": null'.encode(), f'"{key}": '.encode() + value)


NAME_TEXT = st.text(
    st.characters(codec="utf-8", categories=["Cc", "Cf", "Zl", "Zp", "Zs", "Lu", "Ll", "Nd"]),
    max_size=40,
)
BODIES = st.one_of(
    # deep JSON: nested arrays or objects, as the whole body or as a field's value
    st.builds(_nested, st.integers(1, 5000), st.booleans()),
    st.builds(lambda k, d, o: _with(k, _nested(d, o)), FIELDS, st.integers(1, 5000), st.booleans()),
    # huge numbers: integers of up to 6000 digits, signed, or as floats with an exponent
    st.builds(
        lambda k, n, sign, tail: _with(k, sign + b"7" * n + tail),
        FIELDS,
        st.integers(1, 6000),
        st.sampled_from([b"", b"-"]),
        st.sampled_from([b"", b".5", b"e9999", b"E-400"]),
    ),
    # oversize bodies: a fine answer padded with spaces to around the limit, and far past it
    st.builds(
        lambda n: _with("since", b" " * n + b"0"), st.integers(MAX_BODY - 100, MAX_BODY + 100)
    ),
    st.integers(MAX_BODY + 1, 20 * MAX_BODY).map(lambda n: b"[" + b"0," * (n // 2) + b"0]"),
    # control characters (and other odd ones) in names: players, kingdoms, actions, modes
    st.builds(
        lambda k, t: _with(k, json.dumps([t] if k == "players" else t).encode(), NEW),
        st.sampled_from(["players", "kingdom", "mode"]),
        NAME_TEXT,
    ),
    st.builds(lambda t: _with("action", json.dumps(t).encode()), NAME_TEXT),
)


def _digits(raw: bytes) -> int:
    return max((len(m) for m in re.findall(rb"\d+", raw)), default=0)


@FUZZ
@given(raw=BODIES)
def test_no_body_gets_a_server_error(client, raw):
    """Any body to a new game or an answer: a 200, or a 4xx with a message that changed
    nothing; past the size limit a 413, with a number too long to read a 400."""
    if not hasattr(client, "fuzzed"):  # one game for all the examples (the client is shared)
        client.fuzzed = new_game(client)
    view = client.fuzzed
    before = _state(client, view)
    held = set(client.tables.tables)
    json_ = {"content-type": "application/json"}
    for path in ("/api/games", f"/api/games/{view['id']}/act"):
        r = client.post(path, content=raw, headers=json_)
        assert r.status_code == 200 or (400 <= r.status_code < 500 and r.json()["error"]), r.text
        if len(raw) > MAX_BODY:
            assert r.status_code == 413, r.text
        elif _digits(raw.split(b"e")[0].split(b"E")[0]) > MAX_DIGITS:
            assert r.status_code == 400 and "digits" in r.json()["error"], r.text
        if r.status_code != 200:
            assert _state(client, view) == before and set(client.tables.tables) >= held
        if path == "/api/games" and r.status_code == 200:
            held.add(r.json()["id"])
    assert _state(client, view) == before  # every answer is to step 0, long past


@FUZZ
@given(text=NAME_TEXT)
def test_odd_names_in_paths_and_queries_get_a_4xx(client, text):
    if not hasattr(client, "fuzzed"):  # one game for all the examples (the client is shared)
        client.fuzzed = new_game(client, mode="watch", players=["Big Money"] * 2)
    gid = client.fuzzed["id"]
    quoted = urllib.parse.quote(text, safe="")
    for path in (
        f"/api/games/{gid}?view={quoted}",
        f"/api/games/{gid}?since={quoted}",
        f"/api/games/{quoted}",
        f"/replay/{quoted}.json",
    ):
        r = client.get(path)
        assert r.status_code == 200 or (400 <= r.status_code < 500 and r.json()["error"]), path
