"""A recorded game, shown: per-decision frames, a text replay and a self-contained HTML viewer.

    from dominion_env import records
    from dominion_env.analysis import replay
    rec = records.load("game.json")
    print(replay.text(rec))                    # the game in the terminal, decision by decision
    replay.write_html(rec, "game.html")        # one page: no network, inline script and style

``frames(record)`` replays the record through ``Game`` (checking every decision, see
``Game.replay``) and takes one frame at each decision and one at the end. A frame is JSON:
what everyone sees (turn, phase, Actions/Buys/$, Supply, trash, VP, each seat's hand, deck and
discard sizes, in play, the pending decision's kind and who makes it) and one ``views`` entry
per viewer: "all" (everything: hands and discards by name, draw piles in order, the legal
actions and the answer, the whole log) and "0".."P-1" (what that player may know under the
rules: its own hand, discard, set-aside cards and draw-pile composition, not its order; its
own legal actions and answer; the log as ``Game.log(viewer)`` writes it, the cards it does not
see as counts). The viewer page only draws the frames it is given, so a player's view in the
page holds nothing that player could not know.

The page: buttons and arrow keys step decision by decision (Left/Right) and turn by turn
(Up/Down, or Shift+arrows), a slider goes anywhere, a selector switches views, and an SVG chart
shows every player's VP over the game with the current step marked.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path

from .. import records
from ..cards import BASIC
from ..engine.layout import TURNS_TAKEN
from ..game import Game
from ..names import log_lines, printable


def _pairs(counts: dict) -> list:
    return [[n, int(k)] for n, k in counts.items()]


def _frame(g: Game, chosen: str | None, new_events) -> dict:
    P = g.players
    t = g.turn
    zones = [g.zones(p) for p in range(P)]
    seats = []
    for p, z in enumerate(zones):
        seats.append(
            {
                "hand_size": sum(z["hand"].values()),
                "deck_size": len(z["deck"]),
                "discard_size": sum(z["discard"].values()),
                "aside_size": sum(z["aside"].values()),
                "in_play": _pairs(z["in_play"]),
                "turns": int(g.state["player"][0, p, TURNS_TAKEN]),
            }
        )
    decider = g.current_player
    decision = None
    legal: list[str] = []
    if decider >= 0:
        d = g.decision
        decision = {
            "player": decider,
            "kind": d["kind"],
            "source": d["source"],
            "card": d["card"],
            "target": d["target"],
            "count": d["count"],
            "cost": list(d["cost_range"]),
        }
        legal = g.legal_actions()
    views = {}
    for viewer in [None, *range(P)]:
        mine = range(P) if viewer is None else [viewer]
        views["all" if viewer is None else str(viewer)] = {
            "hands": {str(p): _pairs(zones[p]["hand"]) for p in mine},
            "discards": {str(p): _pairs(zones[p]["discard"]) for p in mine},
            "asides": {str(p): _pairs(zones[p]["aside"]) for p in mine},
            # a player knows what its draw pile holds, not its order
            "decks": {
                str(p): zones[p]["deck"]
                if viewer is None
                else _pairs({n: zones[p]["deck"].count(n) for n in sorted(set(zones[p]["deck"]))})
                for p in mine
            },
            "legal": legal if viewer in (None, decider) else None,
            "chosen": chosen if viewer in (None, decider) else None,
            "log": log_lines(new_events, viewer),
        }
    supply = g.supply
    return {
        "turn": t["turn_number"],
        "turn_player": t["player"],
        "phase": t["phase"],
        "actions": t["actions"],
        "buys": t["buys"],
        "coins": t["coins"],
        "basic": [[n, supply[n]] for n in BASIC if n in supply],
        "kingdom": [[n, k] for n, k in supply.items() if n not in BASIC],
        "trash": _pairs(g.trash),
        "vp": g.scores(),
        "seats": seats,
        "decision": decision,
        "result": None if decider >= 0 else g.result(),
        "views": views,
    }


def frames(record, *, check_version: bool = True) -> list[dict]:
    """One frame per decision of ``record`` (the game as it stands when it is asked) and one
    at the end; see the module docstring. Raises what ``Game.replay`` raises."""
    out = []
    decisions = record["decisions"] if isinstance(record, dict) else []
    seen = 0
    for i, g in Game.replay(record, check_version=check_version):
        events = g.log_events()
        chosen = decisions[i]["action"] if i < len(decisions) else None
        out.append(_frame(g, chosen, events[seen:]))
        seen = len(events)
    return out


def _seat_label(entry: dict) -> str:
    name = entry.get("name")
    return f"P{entry['seat']} ({printable(name or entry['kind'])})"


def text(record, viewer: int | None = None, *, check_version: bool = True) -> str:
    """The game as text: the log and each decision with its legal actions and answer, from
    ``viewer``'s view (None: everything; a seat: what that player may know)."""
    rec = records.check(record, check_version=check_version)
    P = rec["settings"]["players"]
    if viewer is not None and (isinstance(viewer, bool) or viewer not in range(P)):
        raise ValueError(f"viewer must be None (everything) or a seat 0..{P - 1}, got {viewer!r}")
    key = "all" if viewer is None else str(viewer)
    seats = ", ".join(_seat_label(e) for e in rec["players"])
    lines = [
        f"Game record: seed {rec['seed']} game {rec['game_index']}, {P} players: {seats}",
        f"Kingdom: {', '.join(rec['kingdom'])}",
        f"View: {'everything' if viewer is None else f'P{viewer}'}",
    ]
    fs = frames(rec, check_version=check_version)
    for i, f in enumerate(fs):
        v = f["views"][key]
        lines.extend("  " + x if not x.startswith("---") else x for x in v["log"])
        d = f["decision"]
        if d is None:
            continue
        what = d["kind"] + (f" for {d['source']}" if d["source"] else "")
        if v["legal"] is None:
            lines.append(f"  [{i}] P{d['player']} decides ({what})")
        else:
            lines.append(
                f"  [{i}] P{d['player']} {what}: {v['chosen']}   (legal: {', '.join(v['legal'])})"
            )
    res = fs[-1]["result"] or rec["result"]  # an unfinished game's (dominion play, left early)
    lines.append(
        f"Result: {res['status']} after {res['turns']} turns; VP "
        + ", ".join(f"P{p} {s}" for p, s in enumerate(res["scores"]))
        + "; rewards "
        + ", ".join(f"P{p} {r:+d}" for p, r in enumerate(res["rewards"]))
    )
    return "\n".join(lines) + "\n"


def html(record, *, check_version: bool = True) -> str:
    """The viewer page for ``record``: one self-contained HTML document (see the module
    docstring)."""
    rec = records.check(record, check_version=check_version)
    data = {
        "players": rec["players"],
        "kingdom": rec["kingdom"],
        "seed": rec["seed"],
        "game_index": rec["game_index"],
        "frames": frames(rec, check_version=check_version),
    }
    title = html_lib.escape(
        f"Dominion replay: seed {rec['seed']} game {rec['game_index']}, "
        + " vs ".join(_seat_label(e) for e in rec["players"])
    )
    parts = {"TITLE": title, "STYLE": _STYLE, "SCRIPT": _SCRIPT, "DATA": script_json(data)}
    # one pass over the template: a name that reads "%DATA%" stays text
    return re.sub(r"%(TITLE|STYLE|SCRIPT|DATA)%", lambda m: parts[m.group(1)], _PAGE)


def script_json(data) -> str:
    """``data`` as JSON to put inside a <script> element: the characters that could end the
    element or open a comment in it ("</script>", "<!--": ``<``, ``>``, ``&``) and the line
    separators U+2028 and U+2029 are written as \\uXXXX escapes, which JSON reads as the same
    text (every other non-ASCII character too: ``ensure_ascii``)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=True).translate(_SCRIPT_SAFE)


_SCRIPT_SAFE = {ord(c): f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"}


def write_html(record, path, *, check_version: bool = True) -> Path:
    """Write the viewer page for ``record`` to ``path`` (folders made as needed)."""
    page = html(record, check_version=check_version)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>%STYLE%</style></head>
<body>
<header><h1>%TITLE%</h1>
<div id="controls">
<button id="first" title="first decision (Home)">|&lt;</button>
<button id="prevTurn" title="previous turn (Up)">&lt;&lt; turn</button>
<button id="prev" title="previous decision (Left)">&lt; step</button>
<button id="next" title="next decision (Right)">step &gt;</button>
<button id="nextTurn" title="next turn (Down)">turn &gt;&gt;</button>
<button id="last" title="the end (End)">&gt;|</button>
<input id="slider" type="range" min="0" value="0">
<span id="position"></span>
<label>View <select id="view"></select></label>
</div></header>
<main>
<section id="status"></section>
<section id="decision"></section>
<section id="table"></section>
<section id="piles"><div id="supply"></div><div id="trash"></div></section>
<section id="chart"></section>
<section id="logbox"><h2>Log</h2><ol id="log"></ol></section>
</main>
<script id="replay-data" type="application/json">%DATA%</script>
<script>%SCRIPT%</script>
</body></html>
"""

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#f6f4ee;color:#222}
header{position:sticky;top:0;background:#2d3b45;color:#fff;padding:6px 12px;z-index:1}
h1{font-size:16px;margin:2px 0 6px}h2{font-size:14px;margin:4px 0}
#controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center}
#controls button{padding:3px 8px}#slider{flex:1;min-width:160px}
main{display:grid;grid-template-columns:1fr 1fr;gap:10px;padding:10px}
section{background:#fff;border:1px solid #ccc;border-radius:6px;padding:8px}
#status,#decision,#table{grid-column:1/3}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:3px 6px;
text-align:left;vertical-align:top}
.decider{background:#fff4c2}.turnp{font-weight:bold}.hidden{color:#888;font-style:italic}
.legal span{display:inline-block;border:1px solid #999;border-radius:4px;padding:0 5px;margin:2px}
.legal span.chosen{background:#2d7d46;color:#fff;border-color:#2d7d46}
.card{white-space:nowrap}.empty{color:#b00}
#log{max-height:320px;overflow:auto;margin:0;padding-left:36px;font-family:monospace;font-size:12px}
#log li.now{background:#fff4c2}#chart svg{width:100%;height:auto}
"""

_SCRIPT = r"""
"use strict";
const D = JSON.parse(document.getElementById("replay-data").textContent);
const F = D.frames, P = D.players.length;
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
let cur = 0, view = "all";
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) =>
  ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
const label = (p) => "P" + p + " (" + esc(D.players[p].name || D.players[p].kind) + ")";
const cards = (pairs) => pairs && pairs.length ? pairs.map(([n, k]) =>
  '<span class="card">' + esc(n) + (k === 1 ? "" : " x" + k) + "</span>").join(", ") : "-";

function setup() {
  const sel = $("view");
  sel.innerHTML = '<option value="all">Full view (everything)</option>' +
    D.players.map((e, p) => '<option value="' + p + '">' + label(p) + "'s view</option>").join("");
  $("slider").max = F.length - 1;
  sel.onchange = () => { view = sel.value; draw(); };
  $("slider").oninput = () => go(Number($("slider").value));
  $("first").onclick = () => go(0);
  $("last").onclick = () => go(F.length - 1);
  $("prev").onclick = () => go(cur - 1);
  $("next").onclick = () => go(cur + 1);
  $("prevTurn").onclick = () => go(turnStart(cur, -1));
  $("nextTurn").onclick = () => go(turnStart(cur, 1));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    const k = {ArrowLeft: () => e.shiftKey ? turnStart(cur, -1) : cur - 1,
      ArrowRight: () => e.shiftKey ? turnStart(cur, 1) : cur + 1,
      ArrowUp: () => turnStart(cur, -1), ArrowDown: () => turnStart(cur, 1),
      Home: () => 0, End: () => F.length - 1}[e.key];
    if (k) { e.preventDefault(); go(k()); }
  });
}

// the first frame of the next (dir 1) or this/previous (dir -1) turn
function turnStart(i, dir) {
  const t = F[i].turn;
  if (dir > 0) {
    for (let j = i + 1; j < F.length; j++) if (F[j].turn !== t) return j;
    return F.length - 1;
  }
  let j = i;
  while (j > 0 && F[j - 1].turn === t) j--;
  if (j < i) return j;
  if (j === 0) return 0;
  const pt = F[j - 1].turn;
  while (j > 0 && F[j - 1].turn === pt) j--;
  return j;
}

function go(i) { cur = Math.max(0, Math.min(F.length - 1, i)); draw(); }

function draw() {
  const f = F[cur], v = f.views[view];
  $("slider").value = cur;
  $("position").textContent = "step " + cur + " / " + (F.length - 1) + " \u00b7 turn " + f.turn;
  let st = "<b>Turn " + f.turn + "</b>: " + label(f.turn_player) + "'s turn, " + esc(f.phase) +
    " phase \u00b7 Actions " + f.actions + " \u00b7 Buys " + f.buys + " \u00b7 $" + f.coins;
  if (f.result) st += ' \u00b7 <b id="result">Game ' + esc(f.result.status) + ": " +
    f.result.rewards.map((r, p) => "P" + p + " " + (r > 0 ? "wins" : r < 0 ? "loses" :
      f.result.status === "truncated" ? "—" : "shares the win")).join(", ") + "</b>";
  $("status").innerHTML = st;
  const d = f.decision;
  let dh = "";
  if (!d) dh = "<h2>No decision: the game is over</h2>";
  else {
    let what = esc(d.kind) + (d.source ? " for " + esc(d.source) : "") +
      (d.card ? " about " + esc(d.card) : "") + (d.target >= 0 ? " about P" + d.target : "") +
      (d.count ? ", " + d.count + " to pick" : "");
    dh = "<h2>Decision: " + label(d.player) + " \u2014 " + what + "</h2>";
    if (v.legal === null) dh += '<div class="hidden">' + label(d.player) +
      "'s legal actions and answer are not shown in this view</div>";
    else dh += '<div class="legal">Legal: ' + v.legal.map((a) => '<span' +
      (a === v.chosen ? ' class="chosen"' : "") + ">" + esc(a) + "</span>").join("") +
      "</div><div>Chosen: <b id=\"chosen\">" + esc(v.chosen) + "</b></div>";
  }
  $("decision").innerHTML = dh;
  let t = "<table><tr><th>seat</th><th>VP</th><th>turns</th><th>hand</th><th>deck</th>" +
    "<th>discard</th><th>in play</th><th>set aside</th></tr>";
  for (let p = 0; p < P; p++) {
    const s = f.seats[p], k = String(p), known = k in v.hands;
    const cls = (d && d.player === p ? "decider " : "") + (f.turn_player === p ? "turnp" : "");
    const deck = !known ? s.deck_size : view === "all"
      ? s.deck_size + (s.deck_size ? ' <span class="hidden">(top first)</span> ' +
        v.decks[k].map(esc).join(", ") : "")
      : s.deck_size + (s.deck_size ? ": " + cards(v.decks[k]) : "");
    t += '<tr class="' + cls + '" id="seat' + p + '"><td>' + label(p) + "</td><td>" + f.vp[p] +
      "</td><td>" + s.turns + "</td><td>" + (known ? s.hand_size + ": " + cards(v.hands[k])
        : s.hand_size + ' <span class="hidden">cards</span>') +
      "</td><td>" + deck + "</td><td>" + (known ? s.discard_size + ": " + cards(v.discards[k])
        : s.discard_size) + "</td><td>" + cards(s.in_play) + "</td><td>" +
      (known ? cards(v.asides[k]) : s.aside_size) + "</td></tr>";
  }
  $("table").innerHTML = t + "</table>";
  const pile = ([n, k]) => '<span class="card' + (k ? "" : " empty") + '">' + esc(n) + " " + k +
    "</span>";
  $("supply").innerHTML = "<h2>Supply</h2><div>" + f.basic.map(pile).join(", ") + "</div><div>" +
    f.kingdom.map(pile).join(", ") + "</div>";
  $("trash").innerHTML = "<h2>Trash</h2><div>" + cards(f.trash) + "</div>";
  let log = "";
  for (let i = 0; i <= cur; i++) for (const line of F[i].views[view].log)
    log += "<li" + (i === cur ? ' class="now"' : "") + ">" + esc(line) + "</li>";
  $("log").innerHTML = log;
  $("log").scrollTop = $("log").scrollHeight;
  chart();
}

function chart() {
  const W = 600, H = 220, L = 36, B = 24, n = F.length;
  let hi = 1, lo = 0;
  for (const f of F) for (const x of f.vp) { hi = Math.max(hi, x); lo = Math.min(lo, x); }
  const X = (i) => L + (W - L - 8) * (n > 1 ? i / (n - 1) : 0);
  const Y = (y) => 8 + (H - B - 8) * (1 - (y - lo) / (hi - lo));
  let s = '<svg viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="VP over the game">';
  s += '<line x1="' + L + '" y1="' + Y(0) + '" x2="' + W + '" y2="' + Y(0) + '" stroke="#999"/>';
  for (const y of [lo, Math.round((lo + hi) / 2), hi])
    s += '<text x="2" y="' + (Y(y) + 4) + '" font-size="11">' + y + "</text>";
  for (let p = 0; p < P; p++) {
    const pts = F.map((f, i) => X(i).toFixed(1) + "," + Y(f.vp[p]).toFixed(1)).join(" ");
    s += '<polyline class="vp-line" fill="none" stroke-width="2" stroke="' + COLORS[p] +
      '" points="' + pts + '"/>';
    s += '<text x="' + (L + 6 + 190 * p) + '" y="' + (H - 6) + '" font-size="11" fill="' +
      COLORS[p] + '">' + label(p) + " " + F[cur].vp[p] + " VP</text>";
  }
  s += '<line id="now" x1="' + X(cur) + '" y1="4" x2="' + X(cur) + '" y2="' + (H - B) +
    '" stroke="#444" stroke-dasharray="3,3"/></svg>';
  $("chart").innerHTML = "<h2>VP over the game</h2>" + s;
}

setup();
draw();
"""
