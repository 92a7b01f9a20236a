// Every time of day a script draws from a timestamp goes through here, in the event's time
// zone: the IANA name the page carries in data-time-zone (the same zone as the server's
// `localtime` filter, weiqi.tournament.details), never the browser's zone or UTC. A page of no
// event (the free voice clock at /clock) carries none: its times are the browser's own zone,
// the device's in the hall. The text is the server's pattern, 2027-05-01 09:30(:15).

/** The time zone of the page's event (data-time-zone on any element), or undefined. */
export function pageZone(root = document) {
  return root.querySelector("[data-time-zone]")?.dataset.timeZone || undefined;
}

/** `ms` (milliseconds since the epoch) in `zone`: "HH:MM", with seconds "HH:MM:SS", with
 * the date "YYYY-MM-DD HH:MM". An unknown zone falls back to the browser's rather than fail. */
export function formatTime(ms, zone, { seconds = false, date = false } = {}) {
  const options = { hourCycle: "h23", hour: "2-digit", minute: "2-digit" };
  if (seconds) options.second = "2-digit";
  if (date) Object.assign(options, { year: "numeric", month: "2-digit", day: "2-digit" });
  let format;
  try {
    format = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: zone });
  } catch (e) {
    format = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: undefined });
  }
  const part = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const time = [part.hour, part.minute, seconds ? part.second : null].filter(Boolean).join(":");
  return date ? `${part.year}-${part.month}-${part.day} ${time}` : time;
}
