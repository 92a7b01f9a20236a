// A live game's clock as both live pages show it (the game room, live.js; every board of a
// round, live-round.js): one side's time left from the server's snapshot and the seconds
// counted down since it came; and the pages' translated labels with their values filled in.
//
//   import { fmt, mmss, sideText } from "./live-clock.js";
//   mmss(3725)                                   // "1:02:05"
//   sideText(clock, clock.black, elapsed, labels) // "4:59 + …" or "28″ · …" or labels.time_up
//   fmt("Move %(n)s", { n: 12 })                 // "Move 12": a label's placeholders filled

// A translated label with its ``%(name)s`` placeholders filled in from ``args``.
export const fmt = (text, args) => text.replace(/%\((\w+)\)s/g, (_, k) => String(args[k] ?? ""));

// Seconds as m:ss (h:mm:ss from an hour), never below zero.
export function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// One side's clock text ``elapsed`` seconds after the snapshot: main time (with its byo-yomi
// periods), then the current period and the periods left; ``labels`` holds the page's
// translated ``periods`` and ``time_up``.
export function sideText(clock, side, elapsed, labels) {
  if (clock.system === "byo_yomi") {
    const main = side.main - elapsed;
    if (main > 0 || !side.periods) {
      return side.periods
        ? `${mmss(main)} + ${fmt(labels.periods, { n: side.periods, s: clock.period_time })}`
        : mmss(main);
    }
    const over = -main + (side.in_overtime ? clock.period_time - side.period : 0);
    const used = Math.floor(over / clock.period_time);
    const periods = side.periods - used;
    if (periods <= 0) return labels.time_up;
    const left = clock.period_time - (over - used * clock.period_time);
    return `${Math.max(0, Math.ceil(left))}″ · ${fmt(labels.periods, { n: periods, s: clock.period_time })}`;
  }
  return mmss((side.total ?? side.main) - elapsed);
}
