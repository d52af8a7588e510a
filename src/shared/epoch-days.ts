import type { SaltWindow } from "./analytics-vocabulary.js";

/**
 * Analytics counts whole UTC days. A day is stored as its epoch-day number (days since
 * 1970-01-01 UTC): an integer compares, indexes and subtracts without any time-zone surprise.
 */
export const DAY_MS = 86_400_000;

/** A whole-day range: `from` inclusive, `to` exclusive, epoch days; null = open. */
export interface DayRange {
  from: number | null;
  to: number | null;
}


export const epochDay = (ms: number): number => Math.floor(ms / DAY_MS);

export const dayToIso = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** `YYYY-MM-DD` (already validated) to its epoch day. */
export const isoToDay = (iso: string): number => epochDay(Date.parse(`${iso}T00:00:00Z`));

export interface DayWindow {
  /** First day of the window. */
  start: number;
  /** First day after the window. */
  end: number;
}

/** The salt window holding `day`: the day itself, its ISO week (Monday first) or its calendar month. */
/** Epoch day of the first day of the calendar month holding `day`. */
export const monthStartOf = (day: number): number => windowOf("month", day).start;

export function windowOf(kind: SaltWindow, day: number): DayWindow {
  if (kind === "day") return { start: day, end: day + 1 };
  if (kind === "week") {
    // Epoch day 0 was a Thursday, so Monday-based weeks start 3 days before a multiple of 7.
    const start = day - ((day + 3) % 7 + 7) % 7;
    return { start, end: start + 7 };
  }
  const date = new Date(day * DAY_MS);
  const start = epochDay(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const end = epochDay(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
  return { start, end };
}
