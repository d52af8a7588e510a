import { monthStartOf, windowOf } from "./days.js";
import type { DailyFormatViews, DailyViews } from "./rollup-plan.js";
import type { DayRange } from "./reports.js";

/**
 * Views per calendar month beside the daily rows, per page and per page and format: a report over
 * a range reads the months the range covers whole from the monthly rows and only the days at its
 * ends from the daily ones, so a month costs one row per page instead of one per page and day.
 */

/** A daily row's counts summed over its calendar month. */
export type Monthly<Row extends DailyViews> = Omit<Row, "day"> & {
  /** Epoch day of the month's first day. */
  monthStart: number;
};
export type MonthlyViews = Monthly<DailyViews>;
export type MonthlyFormatViews = Monthly<DailyFormatViews>;

/** Daily rows (views per page, or per page and format) summed into their calendar month. */
export function monthlySums<Row extends DailyViews>(daily: readonly Row[]): Monthly<Row>[] {
  const months = new Map<string, Monthly<Row>>();
  for (const { day, ...row } of daily) {
    const monthStart = monthStartOf(day);
    const key = `${row.projectId}\n${monthStart}\n${row.pathId}\n${"format" in row ? row.format : ""}`;
    const sum = months.get(key);
    if (!sum) months.set(key, { ...row, monthStart } as Monthly<Row>);
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
