import type { Queryable } from "../../store/db.js";
import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";
import { FORMAT_CODE } from "../ingest/read-format.js";
import { dayToIso, type DayRange } from "../../../shared/epoch-days.js";
import type { BoundedRange } from "./compared-periods.js";

// The distinct-visitor counters (rollup/reach.ts) a range of days adds up from, as SQL the visitors,
// timeseries, agents and referral reports share: a range split by salt window, and its previous period.

/** The range's salt-window parts (period 0) and, when compared, the previous period's (period 1). */
export async function comparedParts(db: Queryable, projectId: string, range: DayRange, previous: DayRange | undefined) {
  const now = await windowParts(db, projectId, range);
  if (previous === undefined) return now;
  return [...now, ...(await windowParts(db, projectId, previous)).map((part) => ({ ...part, period: 1 }))];
}

/** A compared report's previous period, as the answer states it (dateTo exclusive). */
export function previousDates(previous: BoundedRange | undefined) {
  return previous === undefined ? {} : { previous: { dateFrom: dayToIso(previous.from), dateTo: dayToIso(previous.to) } };
}

/** $1 the project, $2..$6 the parts of visitorsPerPathSql: window starts, first and end days relative to them, window ends, periods. */
export const partParams = (projectId: string, parts: Awaited<ReturnType<typeof windowParts>>) => [
  projectId,
  parts.map((p) => p.start),
  parts.map((p) => p.from),
  parts.map((p) => p.to),
  parts.map((p) => p.end),
  parts.map((p) => p.period),
];

/**
 * `per_path`: each page's distinct visitors (path 0: the site's), over the salt-window parts of
 * partParams ($1..$6). `onlyPaths`, a subquery of path ids, restricts it to those (a report about
 * a few groups then reads their counters only, not every page's).
 */
export function visitorsPerPathSql(format: ReadFormat | undefined, onlyPaths?: string): string {
  return `${reachedSql(format, onlyPaths)},
     per_path AS MATERIALIZED (
       SELECT path_id, ${periodSums(["human", "ai", "bot", "total"], false)} FROM reached GROUP BY path_id HAVING sum(total) > 0 OR path_id = 0
     )`;
}

/**
 * `parts` and `reached`: the reach counter rows (reach.ts) a range's distinct visitors add up
 * from, per path id, over the salt-window parts of partParams ($1..$6), each row with its part's
 * period (0: the range; 1: the one it is compared with). Not materialized: a query that reads one
 * path's rows gets them through the index. `onlyPaths`: a subquery of path ids, or `{ anyOf }` an
 * int[] expression (a few paths: a condition on the index's rows, not a join).
 */
export function reachedSql(format: ReadFormat | undefined, onlyPaths?: string | { anyOf: string }): string {
  const only = (alias: string) =>
    onlyPaths === undefined ? "" : typeof onlyPaths === "string" ? ` AND ${alias}.path_id IN (${onlyPaths})` : ` AND ${alias}.path_id = ANY (${onlyPaths.anyOf})`;
  // Without a format: the site's counters. Other formats: their own. html: the site's plus html's corrections (rollup/format-plan.ts).
  const sources = [
    ...(format === undefined || format === "html" ? [{ prefix: "analytics", where: "" }] : []),
    ...(format === undefined ? [] : [{ prefix: "analytics_format", where: ` AND format = ${FORMAT_CODE[format]}` }]),
  ];
  const reached = sources
    .map(
      ({ prefix, where }) => `
       SELECT p.period, w.path_id, w.human, w.ai, w.bot, w.total FROM parts p
       JOIN ${prefix}_window_reach w ON w.project_id = $1 AND w.window_start = p.window_start${where}${only("w")}
       WHERE p.whole
       UNION ALL
       SELECT p.period, f.path_id, f.human, f.ai, f.bot, f.total FROM parts p
       JOIN ${prefix}_first_visits f ON f.project_id = $1 AND f.window_start = p.window_start${where} AND f.day >= p.day_from AND f.day < p.day_to${only("f")}
       WHERE NOT p.whole
       UNION ALL
       SELECT p.period, r.path_id, r.human, r.ai, r.bot, r.total FROM parts p
       JOIN ${prefix}_returns r ON r.project_id = $1 AND r.window_start = p.window_start${where} AND r.day >= p.day_from AND r.day < p.day_to AND r.prev < p.day_from${only("r")}
       WHERE p.day_from > 0`,
    )
    .join("\n       UNION ALL");
  return `parts AS (SELECT *, day_from = 0 AND day_to = window_end - window_start AS whole FROM unnest($2::int[], $3::int[], $4::int[], $5::int[], $6::int[]) AS p (window_start, day_from, day_to, window_end, period)),
     reached AS NOT MATERIALIZED (${reached}
     )`;
}

/**
 * Sums of each column: over all rows, or — compared — over period 0's, and over period 1's as
 * `prev_` columns. `expression` turns a column into what is summed.
 */
export function periodSums(columns: string[], compared: boolean, expression = (column: string) => column): string {
  if (!compared) return columns.map((column) => `sum(${expression(column)}) AS ${column}`).join(", ");
  const sums = (period: number, name: (column: string) => string) =>
    columns.map((column) => `coalesce(sum(${expression(column)}) FILTER (WHERE period = ${period}), 0) AS ${name(column)}`);
  return [...sums(0, (column) => column), ...sums(1, (column) => `prev_${column}`)].join(", ");
}

/** The salt windows overlapping a range, each with the range's days relative to the window's start. */
export async function windowParts(db: Queryable, projectId: string, range: DayRange) {
  return partsOf(await saltWindows(db, projectId, range), range);
}

/** The project's salt windows overlapping a range (with views). */
export function saltWindows(db: Queryable, projectId: string, range: DayRange) {
  return db.query<{ window_start: number; window_end: number }>(
    `SELECT window_start, window_end FROM analytics_windows
     WHERE project_id = $1 AND ($2::int IS NULL OR window_end > $2) AND ($3::int IS NULL OR window_start < $3)`,
    [projectId, range.from, range.to],
  );
}

/** A range's parts in the given salt windows (those of a range holding it: several ranges share one read of saltWindows). */
export function partsOf(windows: readonly { window_start: number; window_end: number }[], range: DayRange) {
  return windows
    .map((w) => ({
      start: w.window_start,
      end: w.window_end,
      from: Math.max(range.from ?? w.window_start, w.window_start) - w.window_start,
      to: Math.min(range.to ?? w.window_end, w.window_end) - w.window_start,
      /** 0: the range; 1: the period it is compared with. */
      period: 0,
    }))
    .filter((p) => p.from < p.to);
}
