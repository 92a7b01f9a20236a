// The game clock in the browser: a transcription of weiqi.clock (account.py and Clock in
// clock.py) over the numbers the server compiles (weiqi.server.voice_clock.plan). It decides
// nothing by rules of its own: the starting account, period lengths and every call-out with its
// offset and text come from the server, and POST /api/clock/replay replays this module's log
// through the Python clock so tests hold the two to each other. Times are whole milliseconds
// on the scale of the `now()` the Session is given. No DOM here: see clock-page.js.

export const BLACK = "B";
export const WHITE = "W";
export const opponent = (color) => (color === BLACK ? WHITE : BLACK);

// -- account.py -------------------------------------------------------------------------------

/** Milliseconds the next move may take before the flag falls (null: never). */
export function limit(plan, acc) {
  switch (plan.system) {
    case "untimed": return null;
    case "byo_yomi": return acc.main + acc.periods * plan.period_ms;
    case "moves_per_period": return acc.main + acc.period;
    default: return acc.main;
  }
}

/** The account after a completed move of `elapsed` ms (under the limit). */
export function charge(plan, acc, elapsed) {
  const used = acc.used + elapsed;
  switch (plan.system) {
    case "untimed": return { ...acc, used };
    case "absolute": return { ...acc, main: acc.main - elapsed, used };
    case "fischer": return { ...acc, main: acc.main - elapsed + plan.increment_ms, used };
    case "byo_yomi": {
      if (elapsed <= acc.main) return { ...acc, main: acc.main - elapsed, used };
      const spent = Math.floor((elapsed - acc.main) / plan.period_ms);
      return { ...acc, main: 0, periods: acc.periods - spent, used };
    }
    default: { // moves_per_period (R-TIME-4)
      if (elapsed < acc.main) return { ...acc, main: acc.main - elapsed, used };
      let period = acc.period - (elapsed - acc.main);
      let moves = acc.moves - 1;
      if (moves === 0) {
        moves = plan.moves;
        period = plan.carry_over ? period + plan.period_ms : plan.period_ms;
      }
      return { ...acc, main: 0, period, moves, used };
    }
  }
}

/** What the account has left `elapsed` ms into the current move (weiqi.clock.View, in s). */
export function view(plan, acc, elapsed) {
  const cap = limit(plan, acc);
  const flagged = cap !== null && elapsed >= cap;
  const total = cap === null ? null : Math.max(0, cap - elapsed) / 1000;
  const main = Math.max(0, acc.main - elapsed) / 1000;
  const over = Math.max(0, elapsed - acc.main);
  const overtime = (plan.system === "byo_yomi" || plan.system === "moves_per_period")
    && elapsed >= acc.main;
  const v = (m, periods, period, moves, inOvertime, t, f) => ({
    main: m, periods, period, moves, in_overtime: inOvertime, total: t, flagged: f,
  });
  switch (plan.system) {
    case "untimed": return v(0, null, null, null, false, null, false);
    case "byo_yomi": {
      if (flagged) return v(0, 0, 0, null, true, 0, true);
      const spent = Math.floor(over / plan.period_ms);
      const into = over - spent * plan.period_ms;
      return v(main, acc.periods - spent, (plan.period_ms - into) / 1000, null, overtime,
        total, false);
    }
    case "moves_per_period":
      return v(main, null, Math.max(0, acc.period - over) / 1000, acc.moves, overtime, total,
        flagged);
    default: return v(main, null, null, null, false, total, flagged);
  }
}

// -- clock.py: Clock ---------------------------------------------------------------------------

export class ClockError extends Error {}

/** Both players' clocks; every operation returns a new Clock (as the Python one does). */
export class Clock {
  constructor(plan, fields) {
    this.plan = plan;
    Object.assign(this, {
      black: { ...plan.initial },
      white: { ...plan.initial },
      status: "ready",
      to_move: null,
      since: null,
      elapsed: 0,
      flagged: null,
      flag_at: null,
      sealed: false,
      moves: 0,
      last: null,
    }, fields);
    Object.freeze(this);
  }

  static create(plan) { return new Clock(plan, {}); }

  evolve(changes) {
    const { plan, ...fields } = this;
    return new Clock(plan, { ...fields, ...changes });
  }

  account(color) { return color === BLACK ? this.black : this.white; }

  withAccount(color, acc, changes) {
    return this.evolve({ ...changes, [color === BLACK ? "black" : "white"]: acc });
  }

  get running() { return this.status === "running" ? this.to_move : null; }

  elapsedAt(now) {
    if (this.status === "running" && this.since !== null) {
      return this.elapsed + Math.max(0, now - this.since);
    }
    return this.elapsed;
  }

  /** The instant (ms) the running side's flag falls if nothing happens; null: none due. */
  deadline() {
    if (this.status !== "running" || this.to_move === null || this.since === null) return null;
    const cap = limit(this.plan, this.account(this.to_move));
    return cap === null ? null : this.since + cap - this.elapsed;
  }

  checkNow(now) {
    if (this.last !== null && now < this.last) {
      throw new ClockError(`time went backwards: ${now} ms is before ${this.last} ms`);
    }
  }

  /** The clock at `now` with nothing else happening: a flag due by then has fallen. */
  advance(now) {
    this.checkNow(now);
    let c = this;
    for (;;) {
      const due = c.deadline();
      if (due === null || due > now) return c.evolve({ last: now });
      c = c.evolve({ elapsed: c.elapsed + due - c.since, since: null, status: "flagged",
        flagged: c.to_move, flag_at: due });
    }
  }

  expect(statuses, action) {
    if (!statuses.includes(this.status)) {
      throw new ClockError(`clock is ${this.status}: cannot ${action}`);
    }
  }

  stopRunning(now) {
    if (this.status === "running" && this.since !== null) {
      return this.evolve({ elapsed: this.elapsed + now - this.since, since: null });
    }
    return this;
  }

  remaining(now, color) {
    const c = this.advance(now);
    const acc = c.account(color);
    if (color !== c.to_move || c.status === "ready") return view(c.plan, acc, 0);
    return view(c.plan, acc, c.elapsedAt(now));
  }

  start(now, color = BLACK) {
    this.checkNow(now);
    this.expect(["ready"], "start");
    return this.evolve({ status: "running", to_move: color, since: now, elapsed: 0, last: now });
  }

  press(now, color) {
    const c = this.advance(now);
    if (c.status !== "running") {
      if (c.status === "flagged") return c; // the flag fell before the press
      c.expect(["running"], `press for ${color}`);
    }
    if (color !== c.to_move) throw new ClockError(`it is ${c.to_move}'s turn, not ${color}'s`);
    const server = c.elapsed + now - c.since;
    const acc = c.account(color);
    const cap = limit(c.plan, acc);
    if (cap !== null && server >= cap) {
      return c.evolve({ elapsed: server, since: null, status: "flagged", flagged: color,
        flag_at: now });
    }
    return c.withAccount(color, charge(c.plan, acc, server), {
      to_move: opponent(color), since: now, elapsed: 0, moves: c.moves + 1,
    });
  }

  pause(now) {
    const c = this.advance(now);
    c.expect(["running"], "pause");
    return c.stopRunning(now).evolve({ status: "paused" });
  }

  resume(now) {
    const c = this.advance(now);
    c.expect(["paused"], "resume");
    return c.evolve({ status: "running", since: now, sealed: false });
  }

  /** Sealed move at an adjournment (封棋, R-TIME-5): the mover's clock runs until sealing,
   * then both stop; on resume the opponent's clock runs. */
  seal(now, color) {
    const c = this.press(now, color);
    if (c.status !== "running") return c;
    return c.stopRunning(now).evolve({ status: "paused", sealed: true });
  }

  stop(now) {
    const c = this.advance(now);
    if (c.status === "stopped") return c;
    return c.stopRunning(now).evolve({ status: "stopped" });
  }

  /** The flagged player's request: the last period's run-out is a forfeited turn (R-TIME-2). */
  forfeitTurn(now) {
    const c = this.advance(now);
    c.expect(["flagged"], "turn a flag into a forfeited turn");
    if (!c.plan.timeout_pass) throw new ClockError("the event does not allow a forfeited turn");
    const loser = c.flagged;
    const acc = { ...c.account(loser), main: 0, periods: 1, used: c.account(loser).used + c.elapsed };
    return c.withAccount(loser, acc, {
      status: "running", to_move: opponent(loser), since: now, elapsed: 0, flagged: null,
      flag_at: null, moves: c.moves + 1,
    });
  }

  /** (ms into the move, call) of the running player's byo-yomi in this move, up to `upto`. */
  *callsOfMove(upto) {
    if (this.plan.system !== "byo_yomi" || this.to_move === null) return;
    const acc = this.account(this.to_move);
    const period = this.plan.period_ms;
    for (let k = 0; k < acc.periods; k += 1) {
      const start = acc.main + k * period;
      if (upto !== null && start > upto) return;
      for (const call of this.plan.callouts[String(acc.periods - k)]) {
        const off = start + call.at_ms;
        if (upto !== null && off > upto) return;
        yield [off, call];
      }
    }
  }

  /** The call-outs due so far in the current move, oldest first (R-TIME-3). */
  announcements(now) {
    const c = this.advance(now);
    if (!["running", "paused", "flagged"].includes(c.status)) return [];
    return [...c.callsOfMove(c.elapsedAt(now))].map(([offset, call]) => ({ offset, call }));
  }

  /** The instant of the next call-out if nothing happens before it (null: none). */
  nextCallout(now) {
    const c = this.advance(now);
    if (c.status !== "running" || c.since === null) return null;
    const e = c.elapsedAt(now);
    for (const [off] of c.callsOfMove(null)) {
      if (off > e) return c.since + off - c.elapsed;
    }
    return null;
  }

  /** The fields of Clock.to_dict() this page uses, in its JSON form. */
  toDict() {
    const acc = (a) => ({ main: a.main, periods: a.periods, period: a.period, moves: a.moves,
      used: a.used });
    return {
      black: acc(this.black), white: acc(this.white), status: this.status,
      to_move: this.to_move, since: this.since, elapsed: this.elapsed, flagged: this.flagged,
      flag_at: this.flag_at, sealed: this.sealed, moves: this.moves,
    };
  }

  apply(event) {
    const now = Math.round(event.now * 1000);
    switch (event.op) {
      case "start": return this.start(now, event.color || BLACK);
      case "press": return this.press(now, event.color);
      case "seal": return this.seal(now, event.color);
      case "pause": return this.pause(now);
      case "resume": return this.resume(now);
      case "stop": return this.stop(now);
      case "forfeit_turn": return this.forfeitTurn(now);
      case "advance": return this.advance(now);
      default: throw new ClockError(`unknown op ${event.op}`);
    }
  }
}

// -- a game on the clock: the log and the call-outs as they fall --------------------------------

/**
 * One game on the clock. `now()` returns integer milliseconds (injected: the page passes
 * performance.now, tests a fake). `listener(entry)` hears every log entry as it happens:
 * {kind: "start"|"press"|"pause"|"resume"|"stop"|"callout"|"flag"|"forfeit_turn", at, color,
 * move, used, call, offset}. `events` is the log in the form POST /api/clock/replay reads.
 */
export class Session {
  constructor(plan, now, listener = () => {}) {
    this.plan = plan;
    this.now = now;
    this.listener = listener;
    this.clock = Clock.create(plan);
    this.events = [];
    this.entries = [];
    this.callouts = [];
    this.seen = 0;
    this.origin = null;
  }

  record(entry) {
    this.entries.push(entry);
    this.listener(entry);
  }

  /** Make the call-outs due by `t` and let a due flag fall (at its own instant). */
  catchUp(t) {
    const c = this.clock;
    if (c.status === "ready" || c.status === "stopped") return;
    const due = c.announcements(t);
    for (const { offset, call } of due.slice(this.seen)) {
      const entry = { kind: "callout", color: c.to_move, move: c.moves, offset, call,
        at: this.instantOf(offset) };
      this.callouts.push({ move: c.moves, color: c.to_move, offset_ms: offset, zh: call.zh,
        en: call.en, kind: call.kind, value: call.value, at: call.at });
      this.record(entry);
    }
    this.seen = due.length;
    const after = c.advance(t);
    if (after.status === "flagged" && c.status === "running") {
      this.clock = after;
      this.events.push({ op: "advance", now: after.flag_at / 1000 });
      this.record({ kind: "flag", color: after.flagged, at: after.flag_at,
        outcome: this.plan.outcome[after.flagged], move: after.moves });
    }
  }

  /** The instant (ms) a call `offset` ms into the current move falls, pauses counted out. */
  instantOf(offset) {
    const c = this.clock;
    if (c.since === null) return c.flag_at ?? c.last;
    return c.since + offset - c.elapsed;
  }

  tick() {
    this.catchUp(this.now());
    return this.clock;
  }

  act(op, color) {
    const t = this.now();
    this.catchUp(t);
    const before = this.clock;
    const event = color ? { op, now: t / 1000, color } : { op, now: t / 1000 };
    const after = before.apply(event);
    if (before.status === "flagged" && after.status === "flagged") return before; // too late

    this.clock = after;
    this.events.push(event);
    if (after.moves !== before.moves) this.seen = 0;
    if (this.origin === null) this.origin = t;
    const entry = { kind: op, at: t, color: color ?? before.to_move, move: after.moves };
    if (op === "press" || op === "seal") entry.used = before.elapsedAt(t);
    if (op === "start") entry.color = after.to_move;
    this.record(entry);
    return after;
  }

  start(color = BLACK) { return this.act("start", color); }

  press(color) { return this.act("press", color); }

  seal() { return this.act("seal", this.clock.to_move); }

  pause() { return this.act("pause"); }

  resume() { return this.act("resume"); }

  stop() { return this.act("stop"); }

  forfeitTurn() { return this.act("forfeit_turn"); }

  remaining(color) { return this.clock.remaining(this.now(), color); }

  /** The next instant (ms) something is due by itself: a call-out or a flag. */
  nextWakeup() {
    const t = this.now();
    const times = [this.clock.nextCallout(t), this.clock.advance(t).deadline()]
      .filter((x) => x !== null);
    return times.length ? Math.min(...times) : null;
  }
}
