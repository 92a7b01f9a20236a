// The boards of a live round (issue #11): the spectators' round page and the referee console.
// The server is the truth: each board is redrawn from the snapshot the round's socket pushes
// (stones, last move, clocks, result; for referees, who is connected and the alerts), and the
// running clock is counted down between two pushes. The boards' geometry is read from their
// SVG (weiqi.server.board, R-BOARD-3).

import { COLUMNS, lastMoveAttrs, stoneAttrs } from "./live-board.js";
import { fmt, mmss, sideText } from "./live-clock.js";

const SVG = "http://www.w3.org/2000/svg";
const config = JSON.parse(document.getElementById("round-config").textContent);
const labels = config.labels;
const boards = new Map(); // board ref (its number, a team board's "match.board.sitting") -> {data, receivedAt}

function colorName(c) { return c === "B" ? labels.black : labels.white; }

function geometry(svg) {
  const g = config.geometry; // the server's layout of the round's board size, no coordinates
  return { size: Number(svg.dataset.size), mx: g.mx, my: g.my, cw: g.cw, ch: g.ch };
}

function drawStones(el, b) {
  const svg = el.querySelector("svg");
  if (!svg) return;
  const g = geometry(svg);
  svg.querySelectorAll(".stone, .last-move").forEach((n) => n.remove());
  const put = (vertex, attrs) => {
    const col = COLUMNS.indexOf(vertex[0]) + 1;
    const row = parseInt(vertex.slice(1), 10);
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", g.mx + (col - 1) * g.cw);
    c.setAttribute("cy", g.my + (g.size - row) * g.ch);
    c.setAttribute("data-vertex", vertex);
    for (const [k, v] of Object.entries(attrs)) c.setAttribute(k, v);
    svg.appendChild(c);
  };
  for (const [vertex, color] of Object.entries(b.stones || {})) put(vertex, stoneAttrs(color, g.cw));
  if (b.last_move && b.stones[b.last_move]) put(b.last_move, lastMoveAttrs(b.stones[b.last_move], g.cw));
}

function drawClocks() {
  for (const [n, entry] of boards) {
    const el = document.getElementById(`board-${n}`);
    const clock = entry.data.clock;
    for (const c of ["B", "W"]) {
      const span = el && el.querySelector(`[data-clock="${c}"]`);
      if (!span) continue;
      if (!clock) { span.textContent = "–"; continue; }
      const side = c === "B" ? clock.black : clock.white;
      const running = clock.running === c;
      const elapsed = running ? (performance.now() - entry.receivedAt) / 1000 : 0;
      span.textContent = sideText(clock, side, elapsed, labels);
      span.classList.toggle("running", running);
    }
  }
}

function alertText(a) {
  const [kind, color] = a.split(":");
  return fmt(labels[kind] || kind, { color: colorName(color) });
}

function drawBoard(b) {
  const ref = b.ref ?? b.board;
  const el = document.getElementById(`board-${ref}`);
  if (!el) return;
  boards.set(ref, { data: b, receivedAt: performance.now() });
  drawStones(el, b);
  let state;
  if (b.result) state = b.result_text || b.result;
  else if (!b.started) state = labels.not_started;
  else if (b.paused) state = labels.paused;
  else if (b.phase === "counting") state = labels.counting;
  else state = fmt(labels.move, { n: b.move_number });
  el.querySelector('[data-field="state"]').textContent = state;
  el.dataset.phase = b.phase;
  const list = el.querySelector('[data-field="alerts"]');
  if (list && b.alerts) {
    list.replaceChildren(...b.alerts.map((a) => {
      const li = document.createElement("li");
      li.className = `alert alert-${a.split(":")[0]}`;
      li.dataset.alert = a;
      li.textContent = alertText(a);
      return li;
    }));
    el.classList.toggle("has-alerts", b.alerts.length > 0);
  }
  for (const c of ["B", "W"]) {
    const p = el.querySelector(`[data-presence="${c}"]`);
    if (p && b.present) p.dataset.online = b.present.includes(c) ? "yes" : "no";
  }
}

function receive(data) {
  if (data.type === "round") data.boards.forEach(drawBoard);
  else if (data.type === "board") drawBoard(data.board);
  drawClocks();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + config.ws);
  const status = document.getElementById("round-live-status");
  socket.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  socket.addEventListener("open", () => { document.body.dataset.live = "open"; status.textContent = ""; });
  socket.addEventListener("close", () => {
    document.body.dataset.live = "closed";
    status.textContent = labels.disconnected;
    setTimeout(connect, 1000);
  });
}

config.boards.forEach(drawBoard);
setInterval(drawClocks, 250);
connect();
