// dominion serve's page: draws what the server sends and posts the person's answers. The
// server checks every request again (legality, seat, step); nothing here is trusted.
"use strict";

const $ = (id) => document.getElementById(id);
const COLORS = ["#c33", "#36c", "#2a7", "#a0a", "#d80", "#077"];
let options = null;   // /api/options
let game = null;      // the last view of the game on screen
let logLines = [];    // the log so far (the server sends the lines since `events`)
let timer = null;     // a watched game's auto-play
let busy = false;     // one request at a time

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

// -- new game ---------------------------------------------------------------------------

function mode() {
  return document.querySelector("input[name=mode]:checked").value;
}

function playerRow(name) {
  const sel = el("select", { class: "player" });
  for (const n of options.players) sel.append(el("option", { value: n }, n));
  sel.value = name;
  return el("div", {}, sel);
}

function fitPlayerRows() {
  const rows = $("playerRows");
  const [lo, hi] = mode() === "play" ? [1, 5] : [2, 6];
  $("playersLegend").textContent = mode() === "play" ? "Opponents (1 to 5)" : "Seats (2 to 6)";
  while (rows.children.length < lo) rows.append(playerRow("Big Money"));
  while (rows.children.length > hi) rows.lastChild.remove();
  $("addPlayer").disabled = rows.children.length >= hi;
  $("removePlayer").disabled = rows.children.length <= lo;
}

async function setUp() {
  options = await api("GET", "/api/options");
  for (const k of options.kingdoms) $("kingdom").append(el("option", { value: k }, k));
  $("kingdom").append(el("option", { value: "pick" }, "10 cards of my choice"));
  for (const n of options.kingdom_cards) {
    const c = options.cards[n];
    $("pickCards").append(el("label", { title: c.text },
      el("input", { type: "checkbox", value: n }), ` ${n} ($${c.cost}) `));
  }
  $("kingdom").addEventListener("change", () => {
    $("pickCards").hidden = $("kingdom").value !== "pick";
  });
  $("seed").value = Math.floor(Math.random() * 1e9);
  $("playerRows").append(playerRow("Big Money"));
  for (const r of document.querySelectorAll("input[name=mode]")) {
    r.addEventListener("change", fitPlayerRows);
  }
  $("addPlayer").addEventListener("click", () => {
    $("playerRows").append(playerRow("Big Money"));
    fitPlayerRows();
  });
  $("removePlayer").addEventListener("click", () => {
    $("playerRows").lastChild.remove();
    fitPlayerRows();
  });
  fitPlayerRows();
  $("newForm").addEventListener("submit", startGame);
  $("showNew").addEventListener("click", () => show("newGame"));
  $("showRecords").addEventListener("click", showRecords);
  $("leave").addEventListener("click", leave);
  $("stepOnce").addEventListener("click", () => advance(1));
  $("autoPlay").addEventListener("click", toggleAuto);
  $("speed").addEventListener("change", () => { if (timer) { toggleAuto(); toggleAuto(); } });
  $("viewSelect").addEventListener("change", () => refresh(true));
  document.addEventListener("keydown", onKey);
}

function show(id) {
  for (const s of ["newGame", "records", "game"]) $(s).hidden = s !== id;
}

async function startGame(ev) {
  ev.preventDefault();
  $("newError").textContent = "";
  let kingdom = $("kingdom").value;
  if (kingdom === "pick") {
    kingdom = [...$("pickCards").querySelectorAll("input:checked")].map((i) => i.value);
  }
  const body = {
    mode: mode(),
    players: [...document.querySelectorAll("#playerRows select")].map((s) => s.value),
    kingdom,
    seed: Number($("seed").value),
  };
  try {
    $("start").disabled = true;
    const view = await api("POST", "/api/games", body);
    stopAuto();
    logLines = [];
    const vs = $("viewSelect");
    vs.replaceChildren(el("option", { value: "all" }, "everything"));
    view.players.forEach((n, p) => vs.append(el("option", { value: String(p) }, `P${p} ${n}`)));
    $("watchBar").hidden = view.mode !== "watch";
    show("game");
    draw(view);
  } catch (e) {
    $("newError").textContent = e.message;
  } finally {
    $("start").disabled = false;
  }
}

async function showRecords() {
  const data = await api("GET", "/api/records");
  const list = $("recordList");
  list.replaceChildren();
  for (const n of data.records) {
    list.append(el("li", {}, el("a", { href: `/replay/${encodeURIComponent(n)}`, target: "_blank" }, n)));
  }
  if (!data.records.length) list.append(el("li", {}, "none yet"));
  show("records");
}

// -- playing ----------------------------------------------------------------------------

function choiceFor(action) {
  const d = game && game.decision;
  return d && d.choices ? d.choices.find((c) => c.action === action) : undefined;
}

async function act(action) {
  if (busy || !game || game.result) return;
  busy = true;
  $("error").textContent = "";
  try {
    draw(await api("POST", `/api/games/${game.id}/act`,
      { seat: 0, action, step: game.step, since: game.events }));
  } catch (e) {
    $("error").textContent = e.message;
  } finally {
    busy = false;
  }
}

async function leave() {
  if (!game || game.result) return;
  try {
    draw(await api("POST", `/api/games/${game.id}/abandon`, { since: game.events }));
  } catch (e) {
    $("error").textContent = e.message;
  }
}

function onKey(ev) {
  if ($("game").hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  if (game && game.mode === "watch") {
    if (ev.key === " ") { ev.preventDefault(); toggleAuto(); }
    if (ev.key === "n" || ev.key === "ArrowRight") advance(1);
    return;
  }
  const d = game && game.decision;
  const c = d && d.choices && d.choices.find((x) => x.key === ev.key.toLowerCase());
  if (c) { ev.preventDefault(); act(c.action); }
}

// -- watching ---------------------------------------------------------------------------

function viewParam() { return $("viewSelect").value; }

async function refresh(again) {
  if (again) logLines = [];
  const since = again ? 0 : game.events;
  draw(await api("GET", `/api/games/${game.id}?view=${viewParam()}&since=${since}`));
}

async function advance(steps) {
  if (busy) return;  // the previous step is still on its way: this tick is skipped
  if (!game || game.result || game.mode !== "watch") { stopAuto(); return; }
  busy = true;
  try {
    await api("POST", `/api/games/${game.id}/advance`, { steps, step: game.step });
    await refresh(false);
  } catch (e) {
    $("error").textContent = e.message;
    stopAuto();
  } finally {
    busy = false;
  }
  if (game.result) stopAuto();
}

function toggleAuto() {
  if (timer) { stopAuto(); return; }
  timer = setInterval(() => advance(1), Number($("speed").value));
  $("autoPlay").textContent = "Pause";
}

function stopAuto() {
  if (timer) clearInterval(timer);
  timer = null;
  $("autoPlay").textContent = "Play";
}

// -- drawing ----------------------------------------------------------------------------

function card(name, extra, action) {
  const info = options.cards[name] || { text: "", cost: "?" };
  const b = el("button", { type: "button", class: "card", title: `${name} ($${info.cost}): ${info.text}` },
    el("span", { class: "name" }, name));
  if (extra !== undefined) b.append(el("span", { class: "count" }, String(extra)));
  b.dataset.card = name;
  const c = action === undefined ? undefined : choiceFor(action);
  if (c) {
    b.classList.add("legal");
    b.addEventListener("click", () => act(c.action));
  } else {
    b.disabled = true;
  }
  return b;
}

function names(pairs) {
  return pairs.length ? pairs.map(([n, k]) => (k === 1 ? n : `${n} x${k}`)).join(", ") : "-";
}

function draw(view) {
  game = view;
  const t = view.turn;
  const who = view.mode === "play" && t.player === 0 ? "your" : `P${t.player} ${view.players[t.player]}'s`;
  $("status").textContent = `Turn ${t.turn_number}, ${who} turn, ${t.phase} phase | ` +
    `Actions ${t.actions}  Buys ${t.buys}  $${t.coins}  (step ${view.step})`;

  const supply = $("supply");
  supply.replaceChildren();
  for (const s of view.supply) {
    const b = card(s.name, s.count, options.cards[s.name].id);
    b.prepend(el("span", { class: "cost" }, `$${s.cost} `));
    if (!s.count) b.classList.add("empty");
    supply.append(b);
  }

  const seats = $("seats");
  seats.replaceChildren(el("tr", {}, ...["seat", "hand", "deck", "discard", "VP", "in play"]
    .map((h) => el("th", {}, h))));
  for (const s of view.seats) {
    const row = el("tr", { class: s.seat === t.player ? "turn" : "" },
      el("td", {}, `P${s.seat} ${s.name}`), el("td", {}, String(s.hand_size)),
      el("td", {}, String(s.deck_size)), el("td", {}, String(s.discard_size)),
      el("td", {}, String(s.vp)), el("td", {}, names(s.in_play)));
    seats.append(row);
  }

  // the hand(s) this view may see: yours when playing, a seat's or everyone's when watching
  const hand = $("hand");
  hand.replaceChildren();
  const others = $("others");
  others.replaceChildren();
  const seen = Object.keys(view.cards);
  $("handTitle").textContent = view.mode === "play" ? "Your hand" : `P${seen[0]}'s hand`;
  seen.forEach((p, i) => {
    const c = view.cards[p];
    const box = i === 0 ? hand : el("div", { class: "cards" });
    if (i > 0) others.append(el("h3", {}, `P${p}'s hand`), box);
    for (const [n, k] of c.hand) for (let j = 0; j < k; j++) box.append(card(n, undefined, options.cards[n].id));
    if (c.aside.length) box.append(el("span", {}, ` set aside: ${names(c.aside)}`));
    if (c.discard) box.append(el("span", {}, ` discard: ${names(c.discard)}`));
    if (c.deck) box.append(el("span", {}, ` deck (top first): ${c.deck.join(", ") || "-"}`));
  });

  const d = view.decision;
  $("decision").textContent = !d ? "" : d.text !== undefined
    ? `P${d.player} ${view.players[d.player]}: ${d.text}` : `P${d.player} decides`;
  const choices = $("choices");
  choices.replaceChildren();
  for (const c of (d && d.choices) || []) {
    const b = el("button", { type: "button", class: "choice", "data-action": String(c.action) });
    if (c.key !== null) b.append(el("kbd", {}, c.key), " ");
    b.append(c.label);
    b.addEventListener("click", () => act(c.action));
    choices.append(b);
  }
  $("trash").textContent = `Trash: ${names(view.trash)}`;

  logLines.push(...view.log);
  const log = $("log");
  log.textContent = logLines.join("\n");
  log.scrollTop = log.scrollHeight;
  drawChart(view);

  const res = $("result");
  res.hidden = !view.result;
  res.replaceChildren();
  if (view.result) {
    res.append(el("p", { id: "resultText" }, view.result.text));
    if (view.record) {
      res.append(el("a", { id: "replayLink", href: `/replay/${encodeURIComponent(view.record)}`,
        target: "_blank" }, "the game's replay"), ` (record ${view.record})`);
    } else if (view.record_error) {
      res.append(el("p", { class: "error" }, view.record_error));
    }
  }
  $("leave").disabled = !!view.result;
}

function drawChart(view) {
  const svg = $("chart");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const pts = view.vp;
  const W = 360, H = 180, pad = 24;
  const all = pts.flatMap(([, s]) => s);
  const lo = Math.min(0, ...all), hi = Math.max(10, ...all);
  const x = (i) => pad + (i * (W - 2 * pad)) / Math.max(1, pts.length - 1);
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo);
  view.players.forEach((n, p) => {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", pts.map(([, s], i) => `${x(i)},${y(s[p])}`).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", COLORS[p]);
    line.setAttribute("stroke-width", "2");
    svg.append(line);
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", String(pad + 80 * p));
    label.setAttribute("y", "14");
    label.setAttribute("fill", COLORS[p]);
    label.setAttribute("font-size", "11");
    label.textContent = `P${p} ${n}`;
    svg.append(label);
  });
}

setUp().catch((e) => { $("newError").textContent = `cannot load the options: ${e.message}`; });
