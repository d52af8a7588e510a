import type { Visitors } from "../../shared/api-schemas.js";
import type { Views } from "../../shared/analytics-schemas.js";
import type { Db, Queryable } from "../store/db.js";
import { queryInBatches } from "../store/query-batches.js";
import type { ReadFormat } from "../../shared/analytics-vocabulary.js";
import { FORMAT_CODE } from "./read-format.js";
import { CLASS_CODE } from "./traffic-class.js";
import { wholeMonths } from "./month-sums.js";
import { isPageSql, prefixFilter, underPrefixSql } from "./page-sections.js";

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

/** Rows an export reads from the store at once (query-batches.ts): its memory, not its length. */
export const EXPORT_BATCH_ROWS = 1_000;
/** Every row of a report read at once (sources, AI-arrival pages, a CSV of them): far above any site's number of them. */
export const EVERY_ROW: Page = { limit: 10_000_000, offset: 0 };

/** One page's counts, as the visitors and views reports list it. */
export type PathCounts = { path: string } & ReturnType<typeof counts>;

/** A counts row as the store returns it (bigint sums as text), as numbers; zeros for none. */
export const counts = (row: Omit<CountRow, "path"> | undefined) => ({
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
export async function visitorsReport(
  db: Queryable,
  projectId: string,
  range: DayRange,
  page: Page,
  order = DEFAULT_ORDER,
  format?: ReadFormat,
  /** Lists only the pages under this path prefix (`/docs`: `/docs` and `/docs/…`); the totals stay the site's. */
  pathPrefix?: string,
): Promise<Visitors> {
  const parts = await windowParts(db, projectId, range);
  if (parts.length === 0) return { totals: counts(undefined), visitors: [], hasMore: false };
  const rows = await db.query<CountRow & { site: boolean }>(
    `WITH ${visitorsPerPathSql(format)}
     SELECT true AS site, 0 AS rank, NULL AS path, human, ai, bot, total FROM per_path WHERE path_id = 0
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY ${orderSql(order)}), ap.path, pp.human, pp.ai, pp.bot, pp.total
      ${VISITOR_PAGES} AND ($8::text IS NULL OR ${underPrefixSql("ap.path", "$8")})
      ORDER BY ${orderSql(order)} LIMIT $6 OFFSET $7)
     ORDER BY rank`,
    [...partParams(projectId, parts), page.limit + 1, page.offset, prefixFilter(pathPrefix)],
  );
  return shape(rows, page, (visitors, hasMore, totals) => ({ totals, visitors, hasMore }));
}

/** Every row of the visitors report, in its order, read `batchRows` at a time (exports): the rows of all its pages. */
export async function* visitorRows(db: Db, projectId: string, range: DayRange, order = DEFAULT_ORDER, format?: ReadFormat, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<PathCounts> {
  const parts = await windowParts(db, projectId, range);
  if (parts.length === 0) return;
  const sql = `WITH ${visitorsPerPathSql(format)} SELECT ap.path, pp.human, pp.ai, pp.bot, pp.total ${VISITOR_PAGES} ORDER BY ${orderSql(order)}`;
  yield* pathRows(queryInBatches<CountRow>(db, sql, partParams(projectId, parts), batchRows));
}

/** The report's pages: not the site (path 0), not the groups counted like pages (docs/architecture.md, "Analytics"). */
const VISITOR_PAGES = `FROM per_path pp JOIN analytics_paths ap ON ap.id = pp.path_id WHERE pp.path_id <> 0 AND ${isPageSql("ap.path")}`;

export const partParams = (projectId: string, parts: Awaited<ReturnType<typeof windowParts>>) => [
  projectId,
  parts.map((p) => p.start),
  parts.map((p) => p.from),
  parts.map((p) => p.to),
  parts.map((p) => p.end),
];

/**
 * `per_path`: each page's distinct visitors (path 0: the site's), over the salt-window parts of
 * partParams ($1..$5). `onlyPaths`, a subquery of path ids, restricts it to those (a report about
 * a few groups then reads their counters only, not every page's).
 */
export function visitorsPerPathSql(format: ReadFormat | undefined, onlyPaths?: string): string {
  const only = (alias: string) => (onlyPaths === undefined ? "" : ` AND ${alias}.path_id IN (${onlyPaths})`);
  // Without a format: the site's counters. Other formats: their own. html: the site's plus html's corrections (rollup-format-plan.ts).
  const sources = [
    ...(format === undefined || format === "html" ? [{ prefix: "analytics", where: "" }] : []),
    ...(format === undefined ? [] : [{ prefix: "analytics_format", where: ` AND format = ${FORMAT_CODE[format]}` }]),
  ];
  const reached = sources
    .map(
      ({ prefix, where }) => `
       SELECT w.path_id, w.human, w.ai, w.bot, w.total FROM parts p
       JOIN ${prefix}_window_reach w ON w.project_id = $1 AND w.window_start = p.window_start${where}${only("w")}
       WHERE p.whole
       UNION ALL
       SELECT f.path_id, f.human, f.ai, f.bot, f.total FROM parts p
       JOIN ${prefix}_first_visits f ON f.project_id = $1 AND f.window_start = p.window_start${where} AND f.day >= p.day_from AND f.day < p.day_to${only("f")}
       WHERE NOT p.whole
       UNION ALL
       SELECT r.path_id, r.human, r.ai, r.bot, r.total FROM parts p
       JOIN ${prefix}_returns r ON r.project_id = $1 AND r.window_start = p.window_start${where} AND r.day >= p.day_from AND r.day < p.day_to AND r.prev < p.day_from${only("r")}
       WHERE p.day_from > 0`,
    )
    .join("\n       UNION ALL");
  return `parts AS (SELECT *, day_from = 0 AND day_to = window_end - window_start AS whole FROM unnest($2::int[], $3::int[], $4::int[], $5::int[]) AS p (window_start, day_from, day_to, window_end)),
     reached AS (${reached}
     ),
     per_path AS MATERIALIZED (
       SELECT path_id, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot, sum(total) AS total FROM reached GROUP BY path_id HAVING sum(total) > 0 OR path_id = 0
     )`;
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
  const params = viewsParams(projectId, range, format);
  const rows = await db.query<CountRow & { site: boolean }>(
    `WITH ${viewsPerPathSql(format)}
     SELECT true AS site, 0 AS rank, NULL AS path, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot, sum(total) AS total FROM per_path
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY ${VIEWS_ORDER}), ap.path, pp.human, pp.ai, pp.bot, pp.total
      ${VIEWED_PAGES}
      ORDER BY ${VIEWS_ORDER} LIMIT $${params.length + 1} OFFSET $${params.length + 2})
     ORDER BY rank`,
    [...params, page.limit + 1, page.offset],
  );
  return shape(rows, page, (views, hasMore, totals) => ({ totals, views, hasMore }));
}

/** Every row of the views report, in its order, read `batchRows` at a time (exports): the rows of all its pages. */
export async function* viewRows(db: Db, projectId: string, range: DayRange, format?: ReadFormat, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<PathCounts> {
  const sql = `WITH ${viewsPerPathSql(format)} SELECT ap.path, pp.human, pp.ai, pp.bot, pp.total ${VIEWED_PAGES} ORDER BY ${VIEWS_ORDER}`;
  yield* pathRows(queryInBatches<CountRow>(db, sql, viewsParams(projectId, range, format), batchRows));
}

const VIEWED_PAGES = `FROM per_path pp JOIN analytics_paths ap ON ap.id = pp.path_id WHERE pp.total > 0`;
const VIEWS_ORDER = `pp.total DESC, ap.path COLLATE "C"`;

/** $1 project, $2 and $3 the range; with a format, $4..$6 the whole months it covers (month-sums.ts). */
function viewsParams(projectId: string, range: DayRange, format: ReadFormat | undefined): unknown[] {
  if (format === undefined) return [projectId, range.from, range.to];
  const months = wholeMonths(range);
  return [projectId, range.from, range.to, months !== null, months?.from ?? null, months?.to ?? null];
}

/** `per_path`: each page's views (viewsParams); a format's from its monthly rows where the range covers a month whole, else its daily ones. */
function viewsPerPathSql(format: ReadFormat | undefined): string {
  const counted =
    format === undefined
      ? `SELECT path_id, human, ai, bot FROM analytics_daily_views WHERE project_id = $1 AND ($2::int IS NULL OR day >= $2) AND ($3::int IS NULL OR day < $3)`
      : `SELECT path_id, human, ai, bot FROM analytics_daily_formats
         WHERE project_id = $1 AND format = ${FORMAT_CODE[format]} AND ($2::int IS NULL OR day >= $2) AND ($3::int IS NULL OR day < $3)
           AND NOT ($4::boolean AND ($5::int IS NULL OR day >= $5) AND ($6::int IS NULL OR day < $6))
         UNION ALL
         SELECT path_id, human, ai, bot FROM analytics_monthly_formats
         WHERE $4::boolean AND project_id = $1 AND format = ${FORMAT_CODE[format]} AND ($5::int IS NULL OR month_start >= $5) AND ($6::int IS NULL OR month_start < $6)`;
  return `per_path AS MATERIALIZED (
       SELECT path_id, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot, sum(human + ai) AS total FROM (${counted}) c
       GROUP BY path_id HAVING sum(human + ai + bot) > 0
     )`;
}

async function* pathRows(batches: AsyncIterable<CountRow[]>): AsyncGenerator<PathCounts> {
  for await (const batch of batches) for (const row of batch) yield { path: row.path as string, ...counts(row) };
}

function shape<T>(
  rows: (CountRow & { site: boolean })[],
  page: Page,
  build: (rows: PathCounts[], hasMore: boolean, totals: ReturnType<typeof counts>) => T,
): T {
  const site = rows.find((r) => r.site);
  const paths = rows.filter((r) => !r.site).map((r) => ({ path: r.path as string, ...counts(r) }));
  return build(paths.slice(0, page.limit), paths.length > page.limit, counts(site));
}
