import { monthsAndDays } from "../rollup/month-sums.js";
import type { DayRange } from "../../../shared/epoch-days.js";

/**
 * SQL over a daily counter table and its monthly sums (month-sums.ts) that reads each row of a
 * report's periods once: whole months from the monthly table, the other days from the daily one,
 * each as index ranges. Parameters are bound as the SQL needs them.
 */

/** Binds a value as the next parameter and returns its placeholder, cast to `type`. */
export type Bind = (value: unknown, type: string) => string;

/** A bind that appends to `params` (whose `$1` is the project, as every report's is). */
export const binder =
  (params: unknown[]): Bind =>
  (value, type) =>
    `$${params.push(value)}::${type}`;

/** A day the store never holds, before or after every other: an open end of a range as a bound SQL can use an index with. */
const FIRST_DAY = -2_147_483_648;
const LAST_DAY = 2_147_483_647;

/** The periods a report counts: its range (period 0) and, when compared, the one before it (period 1); they never overlap. */
export interface ReportPeriods {
  range: DayRange;
  previous?: DayRange | undefined;
}

/** A daily counter table and the monthly one that sums it (same columns, `month_start` for `day`). */
export interface CountedTables {
  daily: string;
  monthly: string;
}

/**
 * `SELECT <columns>, <period> AS period` over the rows of `tables` that count `periods`, narrowed
 * by `where` (on both tables' shared columns, `project_id = $1` always). Period 1 rows only when
 * there is a previous period.
 */
export function periodRowsSql(tables: CountedTables, columns: string, where: string, periods: ReportPeriods, bind: Bind): string {
  const within = (column: string, r: DayRange) => `(${column} >= ${bind(r.from ?? FIRST_DAY, "int")} AND ${column} < ${bind(r.to ?? LAST_DAY, "int")})`;
  const split = [periods.range, ...(periods.previous === undefined ? [] : [periods.previous])].map(monthsAndDays);
  // Each period's condition on a row's day or month ("false" where it has none).
  const days = split.map(({ days }) => (days.length === 0 ? "false" : `(${days.map((r) => within("day", r)).join(" OR ")})`));
  const months = split.map(({ months }) => (months === null ? "false" : within("month_start", months)));
  const select = (table: string, [now, before]: string[]) =>
    `SELECT ${columns}, ${before === undefined ? "0" : `CASE WHEN ${now} THEN 0 ELSE 1 END`} AS period FROM ${table}
         WHERE project_id = $1 ${where} AND ${before === undefined ? now : `(${now} OR ${before})`}`;
  return `${select(tables.daily, days)}
         UNION ALL
         ${select(tables.monthly, months)}`;
}

export const VIEWS_TABLES: CountedTables = { daily: "analytics_daily_views", monthly: "analytics_monthly_views" };
export const FORMAT_TABLES: CountedTables = { daily: "analytics_daily_formats", monthly: "analytics_monthly_formats" };
export const REFERRAL_TABLES: CountedTables = { daily: "analytics_daily_referrals", monthly: "analytics_monthly_referrals" };
export const AGENT_PAGE_TABLES: CountedTables = { daily: "analytics_daily_agent_pages", monthly: "analytics_monthly_agent_pages" };
