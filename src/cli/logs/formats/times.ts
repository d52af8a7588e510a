import { isoFromMs, quote, skip, type Skipped } from "../fields.js";

/** The time notations access logs use, each read to epoch milliseconds (NaN when the text is not one). */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
// nginx $time_local and Apache %t, with or without the brackets the log line puts around it.
const CLF_TIME = /^\[?(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-]\d{2})(\d{2})\]?$/;
// strftime's %z writes +0000 (Fastly), RFC 3339 +00:00 (nginx $time_iso8601, Netlify, Caddy's iso8601).
const ISO_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/i;
const EPOCH = /^(\d+)(?:\.(\d+))?$/;

export function clfMs(text: string): number {
  const [, day, month, year, hours, minutes, seconds, offsetHours, offsetMinutes] = CLF_TIME.exec(text) ?? [];
  const monthIndex = MONTHS.indexOf(month ?? "");
  if (monthIndex === -1) return NaN;
  const [h, m, s] = [Number(hours), Number(minutes), Number(seconds)];
  // Built from numbers, not parsed from a string built per line; a time that is no time of day,
  // or a day its month lacks (31 Feb, which Date would roll over into March), is no time.
  if (h > 23 || m > 59 || s > 59 || Number(offsetMinutes) > 59) return NaN;
  const ms = Date.UTC(Number(year), monthIndex, Number(day), h, m, s);
  if (new Date(ms).getUTCDate() !== Number(day)) return NaN;
  const sign = offsetHours?.startsWith("-") ? -1 : 1;
  return ms - sign * (Math.abs(Number(offsetHours)) * 60 + Number(offsetMinutes)) * 60_000;
}

/** An ISO 8601 date-time; one without a zone only when `zonelessUtc` (Fastly's strftime times are GMT). */
export function isoMs(text: string, zonelessUtc = false): number {
  const [, local, zone] = ISO_TIME.exec(text) ?? [];
  if (local === undefined || (zone === undefined && !zonelessUtc)) return NaN;
  const offset = zone === undefined ? "Z" : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  return Date.parse(`${local}${offset}`);
}

/**
 * Epoch seconds (with a fraction: Caddy's `ts`, nginx's `$msec`), milliseconds, microseconds or
 * nanoseconds, told apart by magnitude for a date since 1970. Integers are read as BigInt: unixnano
 * exceeds 2^53.
 */
export function epochMs(value: unknown): number {
  const text = typeof value === "number" ? (Number.isFinite(value) && value >= 0 ? String(value) : "") : typeof value === "string" ? value : "";
  const [, whole, fraction = ""] = EPOCH.exec(text) ?? [];
  if (whole === undefined) return NaN;
  const epoch = BigInt(whole);
  const digits = whole.replace(/^0+(?=\d)/, "").length;
  // The fraction's first three digits, as digits: 0.291 * 1000 is 290.99999999999994 in floating point.
  if (digits <= 11) return Number(epoch * 1000n) + Number(`${fraction}000`.slice(0, 3));
  if (digits <= 14) return Number(epoch);
  if (digits <= 17) return Number(epoch / 1000n);
  return Number(epoch / 1_000_000n);
}

// A log's lines come in time order, many to a second: the last time read is usually the next one's.
let lastClf = { text: "", iso: "" };

export function readClfTime(time: string): string | Skipped {
  if (time === lastClf.text) return lastClf.iso;
  const iso = isoFromMs(clfMs(time));
  if (iso === undefined) return skip("malformed", `time ${quote(time)} is not dd/Mon/yyyy:HH:MM:SS ±hhmm`);
  lastClf = { text: time, iso };
  return iso;
}

/** Any of the notations above, for formats whose time field the user chose (nginx JSON, custom) or that vary by setup. */
export function readAnyTime(value: unknown, field: string, { zonelessUtc = false } = {}): string | Skipped {
  if (value === undefined || value === null || value === "" || value === "-") return skip("malformed", `no ${field}`);
  const ms = typeof value === "number" ? epochMs(value) : typeof value === "string" ? firstNumber([epochMs(value), clfMs(value), isoMs(value, zonelessUtc)]) : NaN;
  return isoFromMs(ms) ?? skip("malformed", `${field} ${quote(value)} is not a time (ISO 8601, dd/Mon/yyyy:HH:MM:SS ±hhmm or epoch seconds)`);
}

function firstNumber(values: number[]): number {
  return values.find((value) => !Number.isNaN(value)) ?? NaN;
}
