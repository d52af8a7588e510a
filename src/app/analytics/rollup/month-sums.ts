import { monthStartOf, windowOf } from "../../../shared/epoch-days.js";
import type { DayRange } from "../../../shared/epoch-days.js";

/**
 * Counters per calendar month beside the daily ones (views per page, per page and format, a
 * source's arrivals per page, an agent's reads per page): a report over a range reads the months
 * the range covers whole from the monthly rows and only the days at its ends from the daily ones,
 * so a month costs one row per key instead of one per key and day.
 */

/** A daily row's counts summed over its calendar month. */
export type Monthly<Row extends { day: number }> = Omit<Row, "day"> & {
  /** Epoch day of the month's first day. */
  monthStart: number;
};

/** What a daily counter table is keyed by (its `day` among them) and which of its fields it stores. */
export interface DailyTable<Row> {
  readonly keyFields: readonly (keyof Row & string)[];
  readonly fields: readonly (keyof Row & string)[];
}

/** Daily rows summed into their calendar month: keyed as `table` is with the month for the day; every other field is a count. */
export function monthlySums<Row extends { day: number }>(table: DailyTable<Row>, daily: readonly Row[]): Monthly<Row>[] {
  const keys = table.keyFields.filter((field) => field !== "day");
  const countFields = table.fields.filter((field) => !table.keyFields.includes(field));
  const months = new Map<string, Monthly<Row>>();
  for (const row of daily) {
    const monthStart = monthStartOf(row.day);
    const key = `${monthStart}\n${keys.map((field) => row[field]).join("\n")}`;
    const sum = months.get(key) as Record<string, unknown> | undefined;
    if (sum === undefined) {
      const { day: _day, ...rest } = row;
      months.set(key, { ...rest, monthStart } as Monthly<Row>);
    } else for (const field of countFields) (sum[field] as number) += row[field] as number;
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

/**
 * A range as the rows that count it once: its whole months (monthly rows; null for none) and the
 * days outside them (daily rows): the range itself when it has no whole month, else at most one
 * run before them and one after, each an index range.
 */
export function monthsAndDays(range: DayRange): { months: DayRange | null; days: DayRange[] } {
  const months = wholeMonths(range);
  if (months === null) return { months, days: [range] };
  const edges = [
    { from: range.from, to: months.from },
    { from: months.to, to: range.to },
  ];
  return { months, days: edges.filter((edge) => edge.from !== null && edge.to !== null && edge.from < edge.to) };
}
