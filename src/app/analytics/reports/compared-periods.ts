import { InvalidInputError } from "../../domain/errors.js";
import type { Queryable } from "../../store/db.js";
import { dayToIso, epochDay } from "../../../shared/epoch-days.js";
import type { DayRange } from "../../../shared/epoch-days.js";

/** A bounded whole-day range: `from` inclusive, `to` exclusive, epoch days. */
export interface BoundedRange {
  from: number;
  to: number;
}

/** The first day written as YYYY-MM-DD (0000-01-01): a previous period may not begin before it. */
const FIRST_DATE = epochDay(Date.parse("0000-01-01T00:00:00Z"));

/**
 * The period as long as `range`, just before it (what compare=previous compares with);
 * InvalidInputError naming `compare` when it would begin before the first date the API writes.
 */
export function previousPeriod(range: BoundedRange): BoundedRange {
  const previous = { from: range.from - (range.to - range.from), to: range.from };
  if (previous.from < FIRST_DATE) {
    const why = `the previous period (as long as the range, just before it) would begin before ${dayToIso(FIRST_DATE)}, which is no date the API can write; choose a later dateFrom or a shorter range`;
    throw new InvalidInputError(`compare: ${why}`, [{ field: "compare", message: why }]);
  }
  return previous;
}

/** The first day of the project's first salt window with views; null before any. */
export async function firstCountedDay(db: Queryable, projectId: string): Promise<number | null> {
  const rows = await db.query<{ first: number | null }>(`SELECT min(window_start) AS first FROM analytics_windows WHERE project_id = $1`, [projectId]);
  return rows[0]?.first ?? null;
}

/**
 * A report's range and the period it is compared with. An open range is closed first, at the
 * project's first counted day and at tomorrow (today is the last day), so "everything so far" is
 * compared with as long a period before it, whose counts are then zeros.
 */
export async function comparedPeriods(db: Queryable, projectId: string, range: DayRange, now = Date.now()): Promise<{ range: BoundedRange; previous: BoundedRange }> {
  const to = range.to ?? Math.max(epochDay(now) + 1, range.from ?? 0);
  const from = range.from ?? Math.min((await firstCountedDay(db, projectId)) ?? to, to);
  return { range: { from, to }, previous: previousPeriod({ from, to }) };
}

/** The range a report counts and, when it compares (`compare: "previous"`), the previous period. */
export async function periodsOf(db: Queryable, projectId: string, range: DayRange, options: { compare?: "previous" | undefined }): Promise<{ range: DayRange; previous?: BoundedRange }> {
  return options.compare === "previous" ? comparedPeriods(db, projectId, range) : { range };
}
