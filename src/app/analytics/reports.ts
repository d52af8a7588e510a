import type { Visitors } from "../../shared/api-schemas.js";
import type { Views } from "../../shared/analytics-schemas.js";
import type { Queryable } from "../store/db.js";
import type { ReadFormat } from "../../shared/analytics-vocabulary.js";
import { FORMAT_CODE } from "./read-format.js";
import { CLASS_CODE } from "./traffic-class.js";
import { wholeMonths } from "./month-sums.js";

/** A whole-day range: `from` inclusive, `to` exclusive, epoch days; null = open. */
export interface DayRange {
  from: number | null;
  to: number | null;
}

export interface Page {
  limit: number;
  offset: number;
}

interface CountRow {
  path: string | null;
  human: string | number;
  ai: string | number;
  bot: string | number;
  total: string | number;
}

/** How the per-page rows are ordered; ties always fall back to the path in byte order. */
export interface ReportOrder {
  by: "total" | "human" | "ai" | "path";
  dir: "asc" | "desc";
}

export const DEFAULT_ORDER: ReportOrder = { by: "total", dir: "desc" };

/** ORDER BY from a closed set of columns and directions (never from request text). */
function orderSql(order: ReportOrder): string {
  const dir = order.dir === "asc" ? "ASC" : "DESC";
  if (order.by === "path") return `ap.path COLLATE "C" ${dir}`;
  const column = { total: "pp.total", human: "pp.human", ai: "pp.ai" }[order.by];
  return `${column} ${dir}, ap.path COLLATE "C"`;
}

const counts = (row: Omit<CountRow, "path"> | undefined) => ({
  human: Number(row?.human ?? 0),
  ai: Number(row?.ai ?? 0),
  bot: Number(row?.bot ?? 0),
  total: Number(row?.total ?? 0),
});

/**
 * Distinct visitors per page over whole UTC days (docs/architecture.md, "Analytics"), from the counters of reach.ts: for
 * each salt window overlapping the range, first visits on the range's days, plus — when the range
 * starts after the window does — returns on those days whose previous visit is before the range.
 * A range covering a whole window reads that window's own distinct counts (one row per page).
 * Windows have distinct visitor ids, so their counts add up. Paths tie-break in byte order
 * (COLLATE "C"), the same on every store and locale. Cost grows with pages × days in the
 * range, never with views or visitors.
 */
export async function visitorsReport(db: Queryable, projectId: string, range: DayRange, page: Page, order = DEFAULT_ORDER, format?: ReadFormat): Promise<Visitors> {
  const parts = await windowParts(db, projectId, range);
  if (parts.length === 0) return { totals: counts(undefined), visitors: [], hasMore: false };
  // Without a format: the site's counters. Other formats: their own. html: the site's plus html's corrections (rollup-format-plan.ts).
  const sources = [
    ...(format === undefined || format === "html" ? [{ prefix: "analytics", where: "" }] : []),
    ...(format === undefined ? [] : [{ prefix: "analytics_format", where: ` AND format = ${FORMAT_CODE[format]}` }]),
  ];
  const reached = sources
    .map(
      ({ prefix, where }) => `
       SELECT w.path_id, w.human, w.ai, w.bot, w.total FROM parts p
       JOIN ${prefix}_window_reach w ON w.project_id = $1 AND w.window_start = p.window_start${where}
       WHERE p.whole
       UNION ALL
       SELECT f.path_id, f.human, f.ai, f.bot, f.total FROM parts p
       JOIN ${prefix}_first_visits f ON f.project_id = $1 AND f.window_start = p.window_start${where} AND f.day >= p.day_from AND f.day < p.day_to
       WHERE NOT p.whole
       UNION ALL
       SELECT r.path_id, r.human, r.ai, r.bot, r.total FROM parts p
       JOIN ${prefix}_returns r ON r.project_id = $1 AND r.window_start = p.window_start${where} AND r.day >= p.day_from AND r.day < p.day_to AND r.prev < p.day_from
       WHERE p.day_from > 0`,
    )
    .join("\n       UNION ALL");
  const rows = await db.query<CountRow & { site: boolean }>(
    `WITH parts AS (SELECT *, day_from = 0 AND day_to = window_end - window_start AS whole FROM unnest($2::int[], $3::int[], $4::int[], $7::int[]) AS p (window_start, day_from, day_to, window_end)),
     reached AS (${reached}
     ),
     per_path AS MATERIALIZED (
       SELECT path_id, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot, sum(total) AS total FROM reached GROUP BY path_id HAVING sum(total) > 0 OR path_id = 0
     )
     SELECT true AS site, 0 AS rank, NULL AS path, human, ai, bot, total FROM per_path WHERE path_id = 0
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY ${orderSql(order)}), ap.path, pp.human, pp.ai, pp.bot, pp.total
      FROM per_path pp JOIN analytics_paths ap ON ap.id = pp.path_id
      WHERE pp.path_id <> 0 ORDER BY ${orderSql(order)} LIMIT $5 OFFSET $6)
     ORDER BY rank`,
    [projectId, parts.map((p) => p.start), parts.map((p) => p.from), parts.map((p) => p.to), page.limit + 1, page.offset, parts.map((p) => p.end)],
  );
  return shape(rows, page, (visitors, hasMore, totals) => ({ totals, visitors, hasMore }));
}

/** The salt windows overlapping a range, each with the range's days relative to the window's start. */
export async function windowParts(db: Queryable, projectId: string, range: DayRange) {
  const windows = await db.query<{ window_start: number; window_end: number }>(
    `SELECT window_start, window_end FROM analytics_windows
     WHERE project_id = $1 AND ($2::int IS NULL OR window_end > $2) AND ($3::int IS NULL OR window_start < $3)`,
    [projectId, range.from, range.to],
  );
  return windows
    .map((w) => ({
      start: w.window_start,
      end: w.window_end,
      from: Math.max(range.from ?? w.window_start, w.window_start) - w.window_start,
      to: Math.min(range.to ?? w.window_end, w.window_end) - w.window_start,
    }))
    .filter((p) => p.from < p.to);
}

export interface DailyVisitors {
  day: number;
  human: number;
  ai: number;
  bot: number;
  total: number;
}

/**
 * Site-wide distinct visitors of each day in a bounded range, one entry per day (zeros included).
 * A visitor of day d is either a first visit of its window on d or a return on d (whose previous
 * visit is always before d), so each day is the site row of both counters on that day.
 */
export async function dailyVisitors(db: Queryable, projectId: string, range: { from: number; to: number }): Promise<DailyVisitors[]> {
  const parts = await windowParts(db, projectId, range);
  const rows = parts.length === 0 ? [] : await db.query<{ day: number; human: string | number; ai: string | number; bot: string | number; total: string | number }>(
    `WITH parts AS (SELECT * FROM unnest($2::int[], $3::int[], $4::int[]) AS p (window_start, day_from, day_to)),
     reached AS (
       SELECT p.window_start + f.day AS day, f.human, f.ai, f.bot, f.total FROM parts p
       JOIN analytics_first_visits f ON f.project_id = $1 AND f.window_start = p.window_start AND f.day >= p.day_from AND f.day < p.day_to AND f.path_id = 0
       UNION ALL
       SELECT p.window_start + r.day, r.human, r.ai, r.bot, r.total FROM parts p
       JOIN analytics_returns r ON r.project_id = $1 AND r.window_start = p.window_start AND r.day >= p.day_from AND r.day < p.day_to AND r.path_id = 0
     )
     SELECT day, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot, sum(total) AS total FROM reached GROUP BY day`,
    [projectId, parts.map((p) => p.start), parts.map((p) => p.from), parts.map((p) => p.to)],
  );
  const byDay = new Map(rows.map((r) => [Number(r.day), r]));
  const days: DailyVisitors[] = [];
  for (let day = range.from; day < range.to; day++) days.push({ day, ...counts(byDay.get(day)) });
  return days;
}

/** AI views per sub-category (assistant, crawler, search…) over a range, most first. */
export async function aiCategoryViews(db: Queryable, projectId: string, range: DayRange): Promise<{ category: string; views: number }[]> {
  const rows = await db.query<{ category: string; views: string | number }>(
    `SELECT category, sum(views) AS views FROM analytics_daily_categories
     WHERE project_id = $1 AND class = ${CLASS_CODE.ai} AND ($2::int IS NULL OR day >= $2) AND ($3::int IS NULL OR day < $3)
     GROUP BY category ORDER BY sum(views) DESC, category COLLATE "C"`,
    [projectId, range.from, range.to],
  );
  return rows.map((r) => ({ category: r.category, views: Number(r.views) }));
}

/**
 * Content views per page over whole UTC days; total = human + ai, other bots in their own column
 * (totals count them on every page; rows list pages with content views). `format` narrows to
 * views of one format (read-format.ts).
 */
export async function viewsReport(db: Queryable, projectId: string, range: DayRange, page: Page, format?: ReadFormat): Promise<Views> {
  // One format: the months the range covers whole from the monthly rows, its other days from the daily ones (month-sums.ts).
  const months = format === undefined ? null : wholeMonths(range);
  const counted =
    format === undefined
      ? `SELECT path_id, human, ai, bot FROM analytics_daily_views WHERE project_id = $1 AND ($2::int IS NULL OR day >= $2) AND ($3::int IS NULL OR day < $3)`
      : `SELECT path_id, human, ai, bot FROM analytics_daily_formats
         WHERE project_id = $1 AND format = ${FORMAT_CODE[format]} AND ($2::int IS NULL OR day >= $2) AND ($3::int IS NULL OR day < $3)
           AND NOT ($6::boolean AND ($7::int IS NULL OR day >= $7) AND ($8::int IS NULL OR day < $8))
         UNION ALL
         SELECT path_id, human, ai, bot FROM analytics_monthly_formats
         WHERE $6::boolean AND project_id = $1 AND format = ${FORMAT_CODE[format]} AND ($7::int IS NULL OR month_start >= $7) AND ($8::int IS NULL OR month_start < $8)`;
  const rows = await db.query<CountRow & { site: boolean }>(
    `WITH per_path AS MATERIALIZED (
       SELECT path_id, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot, sum(human + ai) AS total FROM (${counted}) c
       GROUP BY path_id HAVING sum(human + ai + bot) > 0
     )
     SELECT true AS site, 0 AS rank, NULL AS path, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot, sum(total) AS total FROM per_path
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY pp.total DESC, ap.path COLLATE "C"), ap.path, pp.human, pp.ai, pp.bot, pp.total
      FROM per_path pp JOIN analytics_paths ap ON ap.id = pp.path_id
      WHERE pp.total > 0
      ORDER BY pp.total DESC, ap.path COLLATE "C" LIMIT $4 OFFSET $5)
     ORDER BY rank`,
    [projectId, range.from, range.to, page.limit + 1, page.offset, ...(format === undefined ? [] : [months !== null, months?.from ?? null, months?.to ?? null])],
  );
  return shape(rows, page, (views, hasMore, totals) => ({ totals, views, hasMore }));
}

function shape<T>(
  rows: (CountRow & { site: boolean })[],
  page: Page,
  build: (rows: ({ path: string } & ReturnType<typeof counts>)[], hasMore: boolean, totals: ReturnType<typeof counts>) => T,
): T {
  const site = rows.find((r) => r.site);
  const paths = rows.filter((r) => !r.site).map((r) => ({ path: r.path as string, ...counts(r) }));
  return build(paths.slice(0, page.limit), paths.length > page.limit, counts(site));
}
