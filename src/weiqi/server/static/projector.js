// The projector view: the rows of the table one screenful at a time. As many rows as fit
// between the heading and the foot make a screen; every data-seconds seconds the next one comes
// up, and after the last the page reloads so that new results show (0 seconds: only the keys
// turn the screens). Keys: → ↓ PageDown space next, ← ↑ PageUp back, F full screen.
// window.weiqiProjector lets a test turn the screens without waiting. The head shows the time
// of day in the event's zone (data-time-zone), as the hall's clock reads — never the zone of
// the computer that drives the screen.
import { formatTime, pageZone } from "./local-time.js";

const root = document.getElementById("projector");
const table = root?.querySelector("table.data");
const rows = table ? [...table.tBodies[0].rows] : [];
const indicator = document.getElementById("projector-page");
const foot = document.querySelector(".projector-foot");
const seconds = Number(root?.dataset.seconds ?? 0);

let screens = [[0, rows.length]];
let current = 0;
let timer = null;

function show(index) {
  current = Math.max(0, Math.min(index, screens.length - 1));
  const [start, end] = screens[current];
  rows.forEach((row, i) => { row.hidden = i < start || i >= end; });
  if (indicator) indicator.textContent = screens.length > 1 ? `${current + 1} / ${screens.length}` : "";
}

// Split the rows into screens by their heights, all rows shown while measuring.
function layout() {
  if (!rows.length) return;
  document.documentElement.classList.add("paged");
  rows.forEach((row) => { row.hidden = false; });
  const body = table.tBodies[0].getBoundingClientRect();
  const after = [...root.querySelectorAll(".legend")].reduce((h, p) => h + p.offsetHeight, 0);
  const room = window.innerHeight - body.top - after - (foot ? foot.offsetHeight : 0) - 8;
  screens = [];
  let start = 0;
  let top = body.top;
  rows.forEach((row, i) => {
    const box = row.getBoundingClientRect();
    if (i > start && box.bottom - top > room) {
      screens.push([start, i]);
      start = i;
      top = box.top;
    }
  });
  screens.push([start, rows.length]);
  show(current);
}

function next() {
  if (current + 1 < screens.length) show(current + 1);
  else if (seconds > 0) window.location.reload();
  else show(0);
}

function previous() {
  show(current > 0 ? current - 1 : screens.length - 1);
}

function restart() {
  if (timer !== null) window.clearInterval(timer);
  timer = seconds > 0 ? window.setInterval(next, seconds * 1000) : null;
}

document.addEventListener("keydown", (event) => {
  if (["ArrowRight", "ArrowDown", "PageDown", " "].includes(event.key)) next();
  else if (["ArrowLeft", "ArrowUp", "PageUp"].includes(event.key)) previous();
  else if (event.key === "f" || event.key === "F") {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen?.();
    return;
  } else return;
  event.preventDefault();
  restart();
});
window.addEventListener("resize", layout);

const clock = document.getElementById("projector-clock");
function tick() {
  if (!clock) return;
  const now = Date.now();
  clock.textContent = formatTime(now, pageZone());
  clock.dateTime = new Date(now).toISOString();
}

tick(); // before the layout: the head's height is what it will be
layout();
restart();
window.setInterval(tick, 1000);

window.weiqiProjector = {
  get screens() { return screens.map(([start, end]) => end - start); },
  get current() { return current; },
  next, previous,
};
