// The game room (issue #11). The server is the truth: this script draws each snapshot the
// server pushes over the room's WebSocket (board, captures, moves, clocks, the ending), sends
// the player's actions with the record's length it saw (`seq`), and counts the running clock
// down between two pushes. It decides nothing by rules of its own: an illegal move comes back
// refused, with the reason in the reader's language. The board's geometry is the server's
// (weiqi.server.board.layout, R-BOARD-3), given in the page's config.
//
// Network lag (an online event's allowance, lichess-style): the player's move, pass, proposal
// to end or handicap placement says how long they thought (`think`, seconds), measured on this
// device from the arrival of the push that gave them the turn. The server's own clock still
// decides; it forgives at most its quota of the difference. A turn this page did not see begin
// (loaded or reconnected during it) says nothing: nothing of it is forgiven.

import { COLUMNS, lastMoveAttrs, stoneAttrs } from "./live-board.js";
import { fmt, mmss, sideText } from "./live-clock.js";

const SVG = "http://www.w3.org/2000/svg";

const config = JSON.parse(document.getElementById("live-config").textContent);
const g = config.geometry;
const labels = config.labels;
const svg = document.querySelector("#live-board svg.board");
const byId = (id) => document.getElementById(id);

let state = config.state;
let color = config.color || null;
let receivedAt = performance.now();
let turnKey = null; // the turn of this player that `turnSince` times (move number and colour)
let turnSince = null; // when the push that gave this player the turn arrived (null: not seen)
let pending = null; // a vertex tapped, waiting for "play here" (the confirm-move option)
let placing = new Set(); // Black's handicap stones chosen so far (free placement), not yet sent
let marking = new Set(state.dead || []);
let socket = null;
let soundOn = true;

// -- geometry ---------------------------------------------------------------------------------

function xy(vertex) {
  const col = COLUMNS.indexOf(vertex[0]) + 1;
  const row = parseInt(vertex.slice(1), 10);
  return [g.mx + (col - 1) * g.cw, g.my + (g.size - row) * g.ch];
}

function vertexAt(event) {
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const col = Math.round((p.x - g.mx) / g.cw) + 1;
  const row = g.size - Math.round((p.y - g.my) / g.ch);
  if (col < 1 || col > g.size || row < 1 || row > g.size) return null;
  return COLUMNS[col - 1] + row;
}

function neighbours(vertex) {
  const col = COLUMNS.indexOf(vertex[0]) + 1;
  const row = parseInt(vertex.slice(1), 10);
  return [[col - 1, row], [col + 1, row], [col, row - 1], [col, row + 1]]
    .filter(([c, r]) => c >= 1 && c <= g.size && r >= 1 && r <= g.size)
    .map(([c, r]) => COLUMNS[c - 1] + r);
}

function chain(vertex) {
  const color = state.stones[vertex];
  const seen = new Set([vertex]);
  const todo = [vertex];
  while (todo.length) {
    for (const n of neighbours(todo.pop())) {
      if (!seen.has(n) && state.stones[n] === color) { seen.add(n); todo.push(n); }
    }
  }
  return [...seen];
}

// -- drawing ----------------------------------------------------------------------------------

function circle(vertex, attrs) {
  const [cx, cy] = xy(vertex);
  const c = document.createElementNS(SVG, "circle");
  c.setAttribute("cx", cx);
  c.setAttribute("cy", cy);
  c.setAttribute("data-vertex", vertex);
  for (const [k, v] of Object.entries(attrs)) c.setAttribute(k, v);
  svg.appendChild(c);
  return c;
}

function stone(vertex, color, extra = "") {
  return circle(vertex, stoneAttrs(color, g.cw, extra));
}

function drawBoard() {
  svg.querySelectorAll(".stone, .last-move, .pending").forEach((el) => el.remove());
  const counting = state.phase === "counting";
  for (const [vertex, color] of Object.entries(state.stones)) {
    stone(vertex, color, counting && marking.has(vertex) ? "dead" : "");
  }
  if (state.last_move && state.stones[state.last_move]) {
    circle(state.last_move, lastMoveAttrs(state.stones[state.last_move], g.cw));
  }
  if (pending) stone(pending, color, "pending");
  if (placingNow()) for (const v of placing) stone(v, "B", "pending placing");
}

function placingNow() { return state.handicap_to_place > 0 && color === "B"; }

function colorName(c) { return c === "B" ? labels.black : labels.white; }

function drawMoves() {
  const list = byId("live-moves");
  list.replaceChildren(...state.moves.map((m) => {
    const li = document.createElement("li");
    li.dataset.seq = m.seq;
    li.textContent = `${colorName(m.color)} ${m.vertex || labels.pass}`;
    return li;
  }));
  list.scrollTop = list.scrollHeight;
}

function drawStatus() {
  let text;
  if (state.result) {
    text = fmt(state.confirmed ? labels.confirmed : labels.finished, { result: state.result_text || state.result });
  } else if (!state.started && state.starts_in != null) {
    // the server starts the game at the round's start time, whoever is in the room
    const left = state.starts_in - (performance.now() - receivedAt) / 1000;
    text = fmt(labels.starts_in, { time: mmss(left) });
  } else if (!state.started) {
    text = labels.not_started;
  } else if (state.handicap_to_place > 0) {
    text = color === "B"
      ? fmt(labels.place_handicap, { n: placing.size, total: state.handicap_to_place })
      : labels.placing_handicap;
  } else if (state.paused) {
    text = labels.paused;
  } else if (state.phase === "counting") {
    text = `${labels.counting} · ${state.proposed ? labels.proposal : fmt(labels.marked_by, { color: colorName(state.dead_marked_by) })}`;
  } else if (state.end_proposed_by) {
    text = fmt(labels.end_proposed, { color: colorName(state.end_proposed_by) });
  } else if (color && state.to_move === color) {
    text = labels.your_turn;
  } else {
    text = fmt(labels.to_move, { color: colorName(state.to_move) });
  }
  byId("live-status").textContent = text;
  for (const c of ["B", "W"]) {
    byId(`captures-${c}`).textContent = state.captures[c];
    byId(`player-${c}`).classList.toggle("to-move", state.phase === "playing" && state.started && state.to_move === c);
  }
}

function show(el, on) { if (el) el.hidden = !on; }

function drawControls() {
  if (!byId("live-controls")) return;
  const playing = state.phase === "playing" && state.started && !state.paused;
  const myTurn = playing && state.to_move === color;
  const toPlace = playing && placingNow();
  show(byId("live-place-handicap"), toPlace);
  if (toPlace) byId("live-place-handicap").disabled = placing.size !== state.handicap_to_place;
  byId("live-pass").disabled = !myTurn || state.handicap_to_place > 0;
  const proposed = playing && state.end_proposed_by && state.end_proposed_by !== color;
  byId("live-propose-end").disabled = !myTurn || Boolean(state.end_proposed_by);
  show(byId("live-end-answer"), Boolean(proposed));
  byId("live-resign").disabled = !(playing || state.phase === "counting");
  show(byId("live-resign-confirm"), false);
  show(byId("live-confirm"), myTurn && pending !== null);
  const counting = state.phase === "counting";
  show(byId("live-counting"), counting);
  if (counting) {
    const theirs = state.dead_marked_by && state.dead_marked_by !== color;
    const mine = [...marking].some((v) => state.stones[v] === color);
    byId("live-dispute").disabled = !(theirs && mine && sameAsMarked());
  }
  const finished = state.phase === "finished";
  show(byId("live-confirm-result"), finished && !(state.confirmations || []).includes(color));
  // the last period ran out where the event allows a forfeited turn: ask, or accept the loss
  // (the server rules the loss itself at asking_until)
  show(byId("live-asking"), state.asking === color);
}

function sameAsMarked() {
  const dead = new Set(state.dead);
  return dead.size === marking.size && [...dead].every((v) => marking.has(v));
}

// -- clocks -----------------------------------------------------------------------------------

function drawClocks() {
  const clock = state.clock;
  for (const c of ["B", "W"]) {
    const el = byId(`clock-${c}`);
    if (!clock) { el.textContent = "–"; continue; }
    const side = c === "B" ? clock.black : clock.white;
    const running = clock.running === c;
    const elapsed = running ? (performance.now() - receivedAt) / 1000 : 0;
    el.textContent = sideText(clock, running ? side : { ...side, main: side.main }, elapsed, labels);
    el.classList.toggle("low", running && side.total !== null && side.total - elapsed < 10);
  }
}

// -- speech (as the voice clock speaks its call-outs) ------------------------------------------

function speak(text) {
  if (!soundOn || !("speechSynthesis" in window) || !text) return;
  try {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = document.documentElement.lang || "zh-CN";
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(u);
  } catch (err) {
    console.warn("speech failed", err);
  }
}

// -- messages ---------------------------------------------------------------------------------

function drawNotices() {
  const box = byId("live-notices");
  if (!box) return;
  const texts = state.notices_text || [];
  box.hidden = texts.length === 0;
  byId("live-notices-list").replaceChildren(...texts.map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    return li;
  }));
}

function drawReferee() {
  // The referee console's forms (live_console_game.html): the record's length they act on,
  // and pause or resume as the game stands.
  document.querySelectorAll("input[data-live-seq]").forEach((i) => { i.value = state.seq; });
  document.querySelectorAll("[data-when-paused]").forEach((el) => { el.hidden = !state.paused; });
  document.querySelectorAll("[data-when-running]").forEach((el) => { el.hidden = Boolean(state.paused); });
}

function drawNigiri() {
  // the colours drawn by nigiri when the game opened (猜先): who held, the guess, the count
  const el = byId("live-nigiri");
  const n = state.nigiri;
  if (!el) return;
  el.hidden = !n;
  if (!n) return;
  el.textContent = fmt(labels.nigiri, {
    holder: n.holder, guesser: n.guesser, guess: n.guess === "odd" ? labels.odd : labels.even,
    count: n.count, black: n.black, seed: n.seed,
  });
  const you = byId("live-you");
  if (you && color) you.textContent = color === "B" ? labels.you_black : labels.you_white;
}

function render() {
  drawNigiri();
  drawReferee();
  drawNotices();
  drawBoard();
  drawMoves();
  drawStatus();
  drawControls();
  drawClocks();
}

function message(text) {
  const el = byId("live-message");
  el.textContent = text || "";
  el.hidden = !text;
}

// Whether it is this player's turn on the clock (a pause does not end the turn: its time then
// counts in the think time too, which only ever forgives less).
function myTurn() {
  return Boolean(color) && Boolean(state.clock) && state.started && !state.result
    && state.phase === "playing" && state.to_move === color;
}

// After each push: a turn of this player that began with an update is timed from its arrival;
// the first message of a connection (`state`) may come in the middle of a turn already begun.
function noteTurn(fresh) {
  if (!myTurn()) { turnKey = null; turnSince = null; return; }
  const key = `${state.move_number}/${state.to_move}`;
  if (key === turnKey) return;
  turnKey = key;
  turnSince = fresh ? receivedAt : null;
}

function receive(data) {
  if (data.type === "state" || data.type === "update") {
    const snap = data.snapshot;
    // an update lists the moves from its `since` on: the earlier ones are those already here
    const earlier = data.type === "update" && snap.since > 0
      ? state.moves.filter((m) => m.seq < snap.since) : [];
    state = { ...snap, moves: earlier.concat(snap.moves), result_text: data.result_text,
      notices_text: data.notices_text };
    if (data.type === "state" && data.color !== undefined) color = data.color;
    receivedAt = performance.now();
    noteTurn(data.type === "update");
    pending = null;
    if (!(state.handicap_to_place > 0)) placing = new Set();
    marking = new Set(state.dead || []);
    if (data.type === "update") message("");
    render();
  } else if (data.type === "refused") {
    message(data.message);
  } else if (data.type === "call") {
    const mine = color && data.calls && data.calls[color] !== undefined;
    const el = byId("live-call-referee");
    if (el) el.disabled = Boolean(mine);
    if (mine) byId("live-callout").textContent = labels.referee_called;
  } else if (data.type === "callout") {
    byId("live-callout").textContent = data.text;
    speak(data.text);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + config.ws);
  socket.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  socket.addEventListener("open", () => { document.body.dataset.live = "open"; message(""); });
  socket.addEventListener("close", () => {
    document.body.dataset.live = "closed";
    message(labels.disconnected);
    setTimeout(connect, 1000);
  });
}

const PRESSES = new Set(["move", "pass", "propose_end", "place_handicap"]);

function send(action, extra = {}) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { message(labels.connecting); return; }
  const body = { type: "act", action, seq: state.seq, ...extra };
  if (PRESSES.has(action) && turnSince !== null && myTurn()) {
    body.think = Math.round(performance.now() - turnSince) / 1000;
  }
  socket.send(JSON.stringify(body));
}

// -- the player's hands -----------------------------------------------------------------------

function confirmMoves() { const box = byId("live-confirm-moves"); return box && box.checked; }

svg.addEventListener("click", (event) => {
  if (!color) return;
  const vertex = vertexAt(event);
  if (!vertex) return;
  if (state.phase === "counting") {
    if (!state.stones[vertex]) return;
    const group = chain(vertex);
    const dead = marking.has(vertex);
    for (const v of group) { if (dead) marking.delete(v); else marking.add(v); }
    drawBoard();
    drawControls();
    return;
  }
  if (state.phase !== "playing" || state.to_move !== color || state.paused) return;
  if (placingNow()) {  // free handicap placement: tap to choose or take back, then place
    if (state.stones[vertex]) return;
    if (placing.has(vertex)) placing.delete(vertex);
    else if (placing.size < state.handicap_to_place) placing.add(vertex);
    drawBoard();
    drawStatus();
    drawControls();
    return;
  }
  if (confirmMoves()) {
    pending = vertex;
    drawBoard();
    drawControls();
    return;
  }
  send("move", { vertex });
});

function on(id, handler) { const el = byId(id); if (el) el.addEventListener("click", handler); }

on("live-confirm", () => { if (pending) { send("move", { vertex: pending }); } });
on("live-pass", () => send("pass"));
on("live-place-handicap", () => send("place_handicap", { stones: [...placing] }));
on("live-propose-end", () => send("propose_end"));
on("live-accept-end", () => send("accept_end"));
on("live-refuse-end", () => send("refuse_end"));
on("live-resign", () => { show(byId("live-resign-confirm"), true); });
on("live-resign-confirm", () => { show(byId("live-resign-confirm"), false); send("resign"); });
on("live-accept", () => {
  if (state.dead_marked_by && state.dead_marked_by !== color && sameAsMarked()) send("agree_dead");
  else send("mark_dead", { stones: [...marking] });
});
on("live-dispute", () => send("dispute"));
on("live-forfeit-turn", () => send("forfeit_turn"));
on("live-accept-time-loss", () => send("accept_time_loss"));
on("live-confirm-result", () => send("confirm"));
on("live-call-referee", () => {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "call_referee" }));
  else message(labels.connecting);
});

const sound = byId("live-sound");
if (sound) sound.addEventListener("change", () => { soundOn = sound.checked; speak(""); });
const confirmBox = byId("live-confirm-moves");
if (confirmBox) confirmBox.checked = window.matchMedia("(max-width: 600px)").matches;

render();
setInterval(() => {
  drawClocks();
  if (!state.started && state.starts_in != null) drawStatus();  // the countdown to the start
}, 250);
connect();
