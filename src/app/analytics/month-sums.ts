import { monthStartOf, windowOf } from "./days.js";
import type { DailyFormatViews } from "./rollup-plan.js";
import type { DayRange } from "./reports.js";

/**
 * Views per calendar month beside the daily rows: a report over a range reads the months the
 * range covers whole from the monthly rows and only the days at its ends from the daily ones, so
 * a month costs one row per page instead of one per page and day.
 */

export interface MonthlyFormatViews extends Omit<DailyFormatViews, "day"> {
  /** Epoch day of the month's first day. */
  monthStart: number;
}

export function monthlyFormatViews(daily: readonly DailyFormatViews[]): MonthlyFormatViews[] {
  const months = new Map<string, MonthlyFormatViews>();
  for (const { day, ...row } of daily) {
    const monthStart = monthStartOf(day);
    const key = `${row.projectId}\n${monthStart}\n${row.pathId}\n${row.format}`;
    const sum = months.get(key);
    if (!sum) months.set(key, { ...row, monthStart });
    else {
      sum.human += row.human;
      sum.ai += row.ai;
      sum.bot += row.bot;
    }
  }
  return [...months.values()];
}

/**
 * The whole months inside a range, as epoch days [from, to) (null ends are open), or null when it
 * covers none; the range's other days are read day by day.
 */
export function wholeMonths(range: DayRange): DayRange | null {
  const from = range.from === null ? null : monthStartOf(range.from) === range.from ? range.from : windowOf("month", range.from).end;
  const to = range.to === null ? null : monthStartOf(range.to);
  return from !== null && to !== null && from >= to ? null : { from, to };
}
