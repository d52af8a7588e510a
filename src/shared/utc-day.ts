// The API's date parameters: which UTC day a date or date-time stands for (docs/api.md).

/**
 * YYYY-MM-DD, optionally followed by a time (RFC 3339 or ISO 8601: `T`, `t` or a space; seconds and
 * fraction optional; `Z`, `±hh`, `±hhmm` or `±hh:mm`; no offset means UTC).
 */
const DATE_PARAM = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt\s](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;
const FIRST_DAY = "0000-01-01";
const LAST_DAY = "9999-12-31";

/** The UTC day (YYYY-MM-DD) a date parameter stands for, or null when it is not a valid date. */
export function parseUtcDay(value: string): string | null {
  const match = DATE_PARAM.exec(value);
  if (!match) return null;
  const [y, m, d, hour = 0, minute = 0, second = 0, , offsetHours = 0, offsetMinutes = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const midnight = utcMidnight(y!, m!, d!);
  if (midnight.toISOString().slice(0, 10) !== value.slice(0, 10)) return null;
  // A leap second (:60) belongs to the minute it ends.
  if (hour! > 23 || minute! > 59 || second! > 60 || offsetHours! > 23 || offsetMinutes! > 59) return null;
  const sign = match[7] === "-" ? -1 : 1;
  const offsetMs = sign * (offsetHours! * 60 + offsetMinutes!) * 60_000;
  const instant = midnight.getTime() + ((hour! * 60 + minute!) * 60 + Math.min(second!, 59)) * 1000 - offsetMs;
  const day = new Date(instant).toISOString();
  // An offset can push day 0000-01-01 into year -1 or 9999-12-31 into 10000: the range's edge is meant.
  if (day.startsWith("-")) return FIRST_DAY;
  if (day.startsWith("+")) return LAST_DAY;
  return day.slice(0, 10);
}

/** Midnight UTC of a calendar date; unlike Date.UTC, years 0–99 stay themselves (not 1900–1999). */
function utcMidnight(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}
