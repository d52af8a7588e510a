import type { Visitors } from "../../../shared/api-schemas.js";
import type { Views } from "../../../shared/analytics-schemas.js";
import type { Db, Queryable } from "../../store/db.js";
import { queryInBatches } from "../../store/query-batches.js";
import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";
import { FORMAT_CODE } from "../ingest/read-format.js";
import { CLASS_CODE } from "../classify/traffic-class.js";
import { binder, FORMAT_TABLES, periodRowsSql, REFERRAL_TABLES, VIEWS_TABLES } from "./period-rows.js";
import { dayToIso, type DayRange } from "../days.js";
import { periodsOf, type BoundedRange } from "./compared-periods.js";
import { isPageSql, NO_PATH_ID, prefixFilter, prefixPageIds, prefixPathId, underPrefixSql } from "../rollup/page-sections.js";
import { channelGroup } from "../rollup/referral-groups.js";
import { SITE_PATH_ID } from "../rollup/plan.js";
import type { ReferralChannel } from "../ingest/referral.js";
import { sourceIdsOf } from "../rollup/referral-groups.js";

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
  if (order.by === "path") return `pp.path COLLATE "C" ${dir}`;
  const column = { total: "pp.total", human: "pp.human", ai: "pp.ai" }[order.by];
  return `${column} ${dir}, pp.path COLLATE "C"`;
}

/** Rows an export reads from the store at once (query-batches.ts): its memory, not its length. */
export const EXPORT_BATCH_ROWS = 1_000;
/** Every row of a report read at once (sources, AI-arrival pages, a CSV of them): far above any site's number of them. */
export const EVERY_ROW: Page = { limit: 10_000_000, offset: 0 };

/** One page's counts, as the visitors and views reports list it; with compare=previous, the previous period's beside them. */
export type PathCounts = { path: string } & ReturnType<typeof counts> & { previous?: ReturnType<typeof counts> };

/** The numbers a compared report adds: the previous period's, from the `prev_` columns of its rows. */
type PreviousColumns = { prev_human?: string | number; prev_ai?: string | number; prev_bot?: string | number; prev_total?: string | number };

/** The counts of a row and, when the report compares, the previous period's. */
const countsOf = (row: (Omit<CountRow, "path"> & PreviousColumns) | undefined, compared: boolean) => ({
  ...counts(row),
  ...(compared ? { previous: counts(row && { human: row.prev_human ?? 0, ai: row.prev_ai ?? 0, bot: row.prev_bot ?? 0, total: row.prev_total ?? 0 }) } : {}),
});

/** What narrows the visitors and views reports, and the period they are compared with. */
export interface PageReportOptions {
  format?: ReadFormat | undefined;
  /** Only the pages under this prefix (`/docs`: `/docs` and `/docs/…`). */
  pathPrefix?: string | undefined;
  /** Only people who arrived from this channel (referral-groups.ts): their visitors, or their arrivals for views. */
  channel?: ReferralChannel | undefined;
  /** previous: the previous period's numbers beside each row and total (compared-periods.ts). */
  compare?: "previous" | undefined;
}


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
 *
 * Totals are the distinct visitors of what the options narrow to: the site, a prefix's section,
 * a channel's group on either (page-sections.ts, referral-groups.ts). A format has no per-section
 * counts, so with a format the totals are its readers on the whole site. Rows are the pages under
 * the prefix; with a channel, each page's channel group: the people who arrived on it from there.
 */
export async function visitorsReport(db: Queryable, projectId: string, asked: DayRange, page: Page, order = DEFAULT_ORDER, options: PageReportOptions = {}): Promise<Visitors> {
  const { range, previous } = await periodsOf(db, projectId, asked, options);
  const parts = await comparedParts(db, projectId, range, previous);
  const compared = previous !== undefined;
  const empty = { totals: countsOf(undefined, compared), visitors: [], hasMore: false, ...previousDates(previous) };
  if (parts.length === 0) return empty;
  // No row for the scope (a section or channel group is created by the first view that reaches it): zero totals, but pages viewed before sections were counted are still listed.
  const totalsId = options.format === undefined ? ((await prefixPathId(db, projectId, options.pathPrefix, options.channel)) ?? NO_PATH_ID) : SITE_PATH_ID;
  const rows = await db.query<CountRow & PreviousColumns & { site: boolean }>(
    `WITH ${visitorPagesSql(options.format, compared)}
     SELECT true AS site, 0 AS rank, NULL AS path, ${periodSums(["human", "ai", "bot", "total"], compared)} FROM reached WHERE path_id = $9
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY ${orderSql(order)}), pp.path, ${countColumns("pp.", compared)} FROM pages pp
      ORDER BY ${orderSql(order)} LIMIT $10 OFFSET $11)
     ORDER BY rank`,
    [...partParams(projectId, parts), scopeGroup(options), prefixFilter(options.pathPrefix), totalsId, page.limit + 1, page.offset],
  );
  return { ...shape(rows, page, compared, (visitors, hasMore, totals) => ({ totals, visitors, hasMore })), ...previousDates(previous) };
}

/** Every row of the visitors report, in its order, read `batchRows` at a time (exports): the rows of all its pages. */
export async function* visitorRows(db: Db, projectId: string, asked: DayRange, order = DEFAULT_ORDER, options: PageReportOptions = {}, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<PathCounts> {
  const { range, previous } = await periodsOf(db, projectId, asked, options);
  const parts = await comparedParts(db, projectId, range, previous);
  if (parts.length === 0) return;
  const compared = previous !== undefined;
  const sql = `WITH ${visitorPagesSql(options.format, compared)} SELECT pp.path, ${countColumns("pp.", compared)} FROM pages pp ORDER BY ${orderSql(order)}`;
  yield* pathRows(queryInBatches<CountRow & PreviousColumns>(db, sql, [...partParams(projectId, parts), scopeGroup(options), prefixFilter(options.pathPrefix)], batchRows), compared);
}

/**
 * Whose counters a visitors report lists: pages' own ($7 = ''), or a channel's groups of them
 * ($7 = `@channel/ai`, each page's group being that followed by the page's path).
 */
const scopeGroup = (options: PageReportOptions) => (options.channel === undefined ? "" : channelGroup(options.channel));

/**
 * `reached` and `pages`: the visitors report's page rows — the scope's ($7) rows for pages (not
 * the site, not sections or other groups), under the prefix ($8) when there is one, with visitors
 * in the range — each with its path without the scope's group. Counter rows are joined to their
 * paths before they are added up: the planner cannot know how few of the ids it groups are pages,
 * and looked each one up on its own when the join came after (sections and referral groups
 * outnumber pages several times).
 */
function visitorPagesSql(format: ReadFormat | undefined, compared: boolean): string {
  const page = `substr(ap.path, length($7::text) + 1)`;
  return `${reachedSql(format)},
     pages AS (
       SELECT ${page} AS path, ${periodSums(["human", "ai", "bot", "total"], compared, (column) => `r.${column}`)}
       FROM reached r JOIN analytics_paths ap ON ap.id = r.path_id
       WHERE r.path_id <> 0 AND left(ap.path, length($7::text)) = $7::text AND ${isPageSql(page)} AND ($8::text IS NULL OR ${underPrefixSql(page, "$8::text")})
       GROUP BY ap.path HAVING ${compared ? "sum(r.total) FILTER (WHERE r.period = 0)" : "sum(r.total)"} > 0
     )`;
}

/** The count columns of a per_path row, and the previous period's when compared. */
const countNames = (compared: boolean) => ["human", "ai", "bot", "total", ...(compared ? ["prev_human", "prev_ai", "prev_bot", "prev_total"] : [])];
const countColumns = (alias: string, compared: boolean) => countNames(compared).map((column) => `${alias}${column}`).join(", ");

/** The range's salt-window parts (period 0) and, when compared, the previous period's (period 1). */
async function comparedParts(db: Queryable, projectId: string, range: DayRange, previous: DayRange | undefined) {
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
 * path's rows gets them through the index.
 */
export function reachedSql(format: ReadFormat | undefined, onlyPaths?: string): string {
  const only = (alias: string) => (onlyPaths === undefined ? "" : ` AND ${alias}.path_id IN (${onlyPaths})`);
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
function periodSums(columns: string[], compared: boolean, expression = (column: string) => column): string {
  if (!compared) return columns.map((column) => `sum(${expression(column)}) AS ${column}`).join(", ");
  const sums = (period: number, name: (column: string) => string) =>
    columns.map((column) => `coalesce(sum(${expression(column)}) FILTER (WHERE period = ${period}), 0) AS ${name(column)}`);
  return [...sums(0, (column) => column), ...sums(1, (column) => `prev_${column}`)].join(", ");
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
      /** 0: the range; 1: the period it is compared with. */
      period: 0,
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
 * views of one format (read-format.ts); `pathPrefix` to the pages under it (views add up, so its
 * totals are its pages'); `channel` to people's arrivals from it, all human (referral.ts).
 */
export async function viewsReport(db: Queryable, projectId: string, asked: DayRange, page: Page, options: PageReportOptions = {}): Promise<Views> {
  const { range, previous } = await periodsOf(db, projectId, asked, options);
  const compared = previous !== undefined;
  const { sql, params } = await viewsPerPathSql(db, projectId, range, previous, options);
  const rows = await db.query<CountRow & PreviousColumns & { site: boolean }>(
    `WITH ${sql}
     SELECT true AS site, 0 AS rank, NULL AS path, ${periodSums(countNames(compared), false)} FROM per_path
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY ${VIEWS_ORDER}), ap.path, ${countColumns("pp.", compared)}
      ${VIEWED_PAGES}
      ORDER BY ${VIEWS_ORDER} LIMIT $${params.length + 1} OFFSET $${params.length + 2})
     ORDER BY rank`,
    [...params, page.limit + 1, page.offset],
  );
  return { ...shape(rows, page, compared, (views, hasMore, totals) => ({ totals, views, hasMore })), ...previousDates(previous) };
}

/** Every row of the views report, in its order, read `batchRows` at a time (exports): the rows of all its pages. */
export async function* viewRows(db: Db, projectId: string, asked: DayRange, options: PageReportOptions = {}, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<PathCounts> {
  const { range, previous } = await periodsOf(db, projectId, asked, options);
  const compared = previous !== undefined;
  const { sql, params } = await viewsPerPathSql(db, projectId, range, previous, options);
  yield* pathRows(queryInBatches<CountRow & PreviousColumns>(db, `WITH ${sql} SELECT ap.path, ${countColumns("pp.", compared)} ${VIEWED_PAGES} ORDER BY ${VIEWS_ORDER}`, params, batchRows), compared);
}

const VIEWED_PAGES = `FROM per_path pp JOIN analytics_paths ap ON ap.id = pp.path_id WHERE pp.total > 0`;
const VIEWS_ORDER = `pp.total DESC, ap.path COLLATE "C"`;

/**
 * `per_path`: each page's views over the range, and over the previous period's (`prev_` columns)
 * when there is one; `$1` is the project and the other parameters are bound as the SQL needs them.
 * Views (a format's, with one; a channel's sources' arrivals, with one) come from the monthly rows
 * where a period covers a month whole, else from the daily ones (period-rows.ts); a prefix keeps its pages'.
 */
async function viewsPerPathSql(db: Queryable, projectId: string, range: DayRange, previous: BoundedRange | undefined, options: PageReportOptions): Promise<{ sql: string; params: unknown[] }> {
  const params: unknown[] = [projectId];
  const bind = binder(params);
  const { format, channel } = options;
  const periods = { range, previous };
  const pages = await prefixPageIds(db, projectId, options.pathPrefix);
  const underPrefix = pages === null ? "" : `AND path_id = ANY (${bind(pages, "int[]")})`;
  const counted =
    channel !== undefined
      ? periodRowsSql(REFERRAL_TABLES, "path_id, views AS human, 0 AS ai, 0 AS bot", `AND source_id = ANY (${bind(await sourceIdsOf(db, projectId, channel), "int[]")}) ${underPrefix}`, periods, bind)
      : format === undefined
        ? periodRowsSql(VIEWS_TABLES, "path_id, human, ai, bot", underPrefix, periods, bind)
        : periodRowsSql(FORMAT_TABLES, "path_id, human, ai, bot", `AND format = ${FORMAT_CODE[format]} ${underPrefix}`, periods, bind);
  const sql = `per_path AS MATERIALIZED (
       SELECT path_id, ${periodSums(["human", "ai", "bot", "total"], previous !== undefined, (column) => (column === "total" ? "human + ai" : column))} FROM (${counted}) c
       GROUP BY path_id HAVING sum(human + ai + bot) > 0
     )`;
  return { sql, params };
}

async function* pathRows(batches: AsyncIterable<(CountRow & PreviousColumns)[]>, compared: boolean): AsyncGenerator<PathCounts> {
  for await (const batch of batches) for (const row of batch) yield { path: row.path as string, ...countsOf(row, compared) };
}

function shape<T>(
  rows: (CountRow & PreviousColumns & { site: boolean })[],
  page: Page,
  compared: boolean,
  build: (rows: PathCounts[], hasMore: boolean, totals: ReturnType<typeof countsOf>) => T,
): T {
  const site = rows.find((r) => r.site);
  const paths = rows.filter((r) => !r.site).map((r) => ({ path: r.path as string, ...countsOf(r, compared) }));
  return build(paths.slice(0, page.limit), paths.length > page.limit, countsOf(site, compared));
}
