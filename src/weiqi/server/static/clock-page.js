// The voice clock page: two halves to press, the call-outs spoken (Web Speech API) and shown,
// pause/resume, the log. The clock itself is clock.js; this module only draws and listens.
// With ?simulate=1 time stands still until window.weiqiClock.advance(ms) moves it.
import { BLACK, WHITE, Session, opponent } from "./clock.js";

const data = JSON.parse(document.getElementById("clock-data").textContent);
const { plan, messages: M, simulate } = data;
const root = document.getElementById("voice-clock");
const $ = (id) => document.getElementById(id);

let fakeNow = 0;
const now = simulate ? () => fakeNow : () => Math.round(performance.now());

const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, k) => values[k] ?? "");
const pad = (n) => String(n).padStart(2, "0");

/** A count-down reading: whole seconds rounded up, tenths in the last ten seconds. */
function countdown(seconds) {
  if (seconds < 10) return (Math.ceil(seconds * 10) / 10).toFixed(1);
  const s = Math.ceil(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** A duration used (log, untimed games): m:ss.s. */
function used(ms) {
  const tenths = Math.floor(ms / 100);
  const m = Math.floor(tenths / 600);
  const s = (tenths % 600) / 10;
  return `${m}:${s < 10 ? "0" : ""}${s.toFixed(1)}`;
}

const sides = { top: WHITE, bottom: BLACK };
let soundOn = true;
let session;
const lastCall = { B: "", W: "" };

// -- speech -------------------------------------------------------------------------------------

function speak(text, { interrupt = true } = {}) {
  if (!soundOn || !("speechSynthesis" in window)) return;
  try {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = plan.speech_lang;
    u.rate = 1.1;
    // A call replaces one still being spoken: the voice must keep up with the clock.
    if (interrupt) window.speechSynthesis.cancel();
    window.speechSynthesis.speak(u);
  } catch (err) {
    console.warn("speech failed", err);
  }
}

// -- screen wake lock ---------------------------------------------------------------------------

let wakeLock = null;
async function keepAwake(on) {
  if (!("wakeLock" in navigator)) return;
  try {
    if (on && !wakeLock) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } else if (!on && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
    }
  } catch (err) {
    wakeLock = null; // refused (battery saver, hidden page): the clock runs regardless
  }
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && session.clock.status === "running") keepAwake(true);
});

// -- the log ------------------------------------------------------------------------------------

function describe(entry) {
  const color = entry.color ? M[entry.color] : "";
  switch (entry.kind) {
    case "start": return fill(M.log_start, { color });
    case "press": return fill(M.log_press, { color, move: entry.move, used: used(entry.used) });
    case "seal": return fill(M.log_seal, { color, used: used(entry.used) });
    case "callout": return fill(M.log_callout, { color, text: entry.call[plan.lang] });
    case "flag": return fill(M.log_flag, { color, outcome: entry.outcome });
    case "forfeit_turn": return fill(M.log_forfeit_turn, { color });
    default: return M[`log_${entry.kind}`];
  }
}

function onEntry(entry) {
  const li = document.createElement("li");
  li.dataset.kind = entry.kind;
  const origin = session.origin ?? entry.at;
  const time = document.createElement("time");
  time.textContent = used(Math.max(0, entry.at - origin));
  const text = document.createElement("span");
  text.textContent = describe(entry);
  li.append(time, " ", text);
  $("clock-log").append(li);
  if (entry.kind === "callout") {
    const said = entry.call[plan.lang];
    lastCall[entry.color] = said;
    speak(said);
  } else if (["press", "seal", "forfeit_turn"].includes(entry.kind)) {
    lastCall[entry.color] = "";
  }
  if (entry.kind === "flag") speak(entry.outcome, { interrupt: false }); // after the "10"
}

// -- drawing ------------------------------------------------------------------------------------

function reading(color) {
  const c = session.clock;
  const v = session.remaining(color);
  const acc = c.account(color);
  switch (plan.system) {
    case "untimed": {
      const running = c.to_move === color && c.status !== "ready";
      const ms = acc.used + (running ? c.elapsedAt(now()) : 0);
      return [used(ms).replace(/\.\d$/, ""), M.untimed];
    }
    case "absolute": return [countdown(v.main), M.absolute];
    case "fischer": return [countdown(v.main), fill(M.increment, { s: plan.increment_ms / 1000 })];
    case "byo_yomi":
      if (v.in_overtime) return [countdown(v.period), fill(M.periods_left, { n: v.periods })];
      return [countdown(v.main),
        `${M.main_time} · ${fill(M.byo_yomi_next, { n: v.periods, s: plan.period_ms / 1000 })}`];
    default:
      if (v.in_overtime) return [countdown(v.period), fill(M.moves_left, { n: v.moves })];
      return [countdown(v.main), `${M.main_time} · ${fill(M.moves_next, { n: plan.moves })}`];
  }
}

function render() {
  const c = session.clock;
  root.dataset.status = c.status;
  const readings = { B: reading(BLACK), W: reading(WHITE) };
  // One digit size for both halves, fitted to the longer reading.
  const chars = Math.max(4, readings.B[0].length, readings.W[0].length);
  for (const [side, color] of Object.entries(sides)) {
    const face = root.querySelector(`.face-${side}`);
    const [digits, detail] = readings[color];
    face.dataset.color = color;
    face.classList.toggle("running", c.status === "running" && c.to_move === color);
    face.classList.toggle("waiting", c.status === "paused" && c.to_move === color);
    face.classList.toggle("flagged", c.status === "flagged" && c.flagged === color);
    face.querySelector(".name").textContent = M[color];
    const flagged = c.status === "flagged" && c.flagged === color;
    const shown = face.querySelector(".digits");
    shown.textContent = digits;
    shown.style.setProperty("--chars", String(chars));
    face.querySelector(".detail").textContent = flagged ? M.flag : detail;
    face.querySelector(".call").textContent = c.to_move === color ? lastCall[color] : "";
    let hint = "";
    if (c.status === "ready") hint = M.tap_to_start;
    else if (c.status === "running" && c.to_move === color) hint = M.tap_to_press;
    else if (c.status === "flagged") hint = plan.outcome[c.flagged];
    face.querySelector(".hint").textContent = hint;
  }
  let status = "";
  if (c.status === "ready") status = M.ready;
  else if (c.status === "paused") status = c.sealed ? M.sealed : M.paused;
  else if (c.status === "stopped") status = M.stopped;
  else if (c.status === "flagged") status = plan.outcome[c.flagged];
  $("clock-status").textContent = status;
  $("clock-start").hidden = c.status !== "ready";
  $("clock-pause").hidden = !["running", "paused"].includes(c.status);
  $("clock-pause").textContent = c.status === "paused" ? M.resume : M.pause;
  $("clock-stop").hidden = !["running", "paused"].includes(c.status);
  $("clock-seal").hidden = c.status !== "running";
  $("clock-forfeit").hidden = !(c.status === "flagged" && plan.timeout_pass);
  $("clock-reset").disabled = c.status === "running";
  $("clock-swap").hidden = c.status !== "ready";
}

// -- actions ------------------------------------------------------------------------------------

function act(fn) {
  try {
    fn();
  } catch (err) {
    console.warn(err.message);
  }
  keepAwake(session.clock.status === "running");
  render();
}

/** The player of `color` pressed their half: start the opponent's clock, or end the move. */
function pressBy(color) {
  const c = session.clock;
  if (c.status === "ready") {
    speak(""); // a first utterance inside the tap: mobile browsers allow speech after it
    act(() => session.start(opponent(color)));
  } else if (c.status === "running" && c.to_move === color) {
    act(() => session.press(color));
  }
}

function reset() {
  session = new Session(plan, now, onEntry);
  $("clock-log").replaceChildren();
  $("clock-verdict").textContent = "";
  lastCall.B = "";
  lastCall.W = "";
  render();
}

for (const side of ["top", "bottom"]) {
  $(`face-${side}`).addEventListener("pointerdown", (e) => {
    e.preventDefault();
    pressBy(sides[side]);
  });
  // Keyboard users reach the halves with Tab and Enter; pointer presses are handled above.
  $(`face-${side}`).addEventListener("keydown", (e) => {
    if (e.key === "Enter") pressBy(sides[side]);
  });
}

document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.repeat) return;
  if (e.code === "Space") {
    e.preventDefault();
    const c = session.clock;
    if (c.status === "ready") { speak(""); act(() => session.start(BLACK)); }
    else if (c.status === "running") pressBy(c.to_move);
  } else if (e.code === "ShiftLeft") {
    pressBy(sides.top);
  } else if (e.code === "ShiftRight") {
    pressBy(sides.bottom);
  }
});

const onClick = (id, fn) => $(id).addEventListener("click", (e) => { e.currentTarget.blur(); fn(); });
onClick("clock-start", () => { speak(""); act(() => session.start(BLACK)); });
onClick("clock-pause", () => act(() => (session.clock.status === "paused" ? session.resume() : session.pause())));
onClick("clock-stop", () => act(() => session.stop()));
onClick("clock-seal", () => act(() => session.seal()));
onClick("clock-forfeit", () => act(() => session.forfeitTurn()));
onClick("clock-reset", () => { if (session.clock.status !== "running") reset(); });
onClick("clock-swap", () => {
  [sides.top, sides.bottom] = [sides.bottom, sides.top];
  render();
});
onClick("clock-sound", () => {
  soundOn = !soundOn;
  if (!soundOn && "speechSynthesis" in window) window.speechSynthesis.cancel();
  $("clock-sound").textContent = soundOn ? M.sound_on : M.sound_off;
  $("clock-sound").setAttribute("aria-pressed", String(soundOn));
});
const showLog = (open) => {
  $("clock-log-panel").hidden = !open;
  $("clock-log-toggle").setAttribute("aria-expanded", String(open));
};
onClick("clock-log-toggle", () => showLog($("clock-log-panel").hidden));
onClick("clock-log-close", () => showLog(false));

/** Replay this game's log on the server (weiqi.clock) and compare with this page's clock. */
async function verify() {
  const t = now();
  session.tick();
  const events = [...session.events, { op: "advance", now: t / 1000 }];
  const response = await fetch("/api/clock/replay", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]').content,
    },
    body: JSON.stringify({ tc: plan.settings, events }),
  });
  const python = await response.json();
  const js = { state: session.clock.toDict(), callouts: session.callouts.map(
    ({ move, color, offset_ms: offset, zh }) => ({ move, color, offset_ms: offset, zh })) };
  const theirs = python.state ? {
    state: Object.fromEntries(Object.keys(js.state).map((k) => [k, python.state[k]])),
    callouts: python.callouts.map(({ move, color, offset_ms: offset, zh }) =>
      ({ move, color, offset_ms: offset, zh })),
  } : python;
  const agree = JSON.stringify(js) === JSON.stringify(theirs);
  $("clock-verdict").textContent = agree ? M.agree : M.disagree;
  return { agree, js, python: theirs };
}
onClick("clock-verify", () => verify());

window.weiqiClock = {
  plan,
  simulate,
  get session() { return session; },
  now,
  /** Move simulated time on by `ms` (with ?simulate=1 only) and let due calls and flags fall. */
  advance(ms) {
    if (!simulate) throw new Error("advance() needs ?simulate=1");
    fakeNow += Math.round(ms);
    session.tick();
    render();
    return session.clock.toDict();
  },
  press: (color) => pressBy(color),
  state: () => session.clock.toDict(),
  events: () => structuredClone(session.events),
  callouts: () => structuredClone(session.callouts),
  verify,
};

reset();
if (!simulate) {
  setInterval(() => {
    const before = session.clock.status;
    session.tick();
    if (session.clock.status !== before) keepAwake(false);
    render();
  }, 50);
}
root.dataset.ready = "true";
