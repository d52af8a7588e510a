import type { Visitors } from "../../../shared/api-schemas.js";
import type { Db, Queryable } from "../../store/db.js";
import { queryInBatches } from "../../store/query-batches.js";
import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";
import type { DayRange } from "../../../shared/epoch-days.js";
import { periodsOf } from "./compared-periods.js";
import { isPageSql, NO_PATH_ID, prefixFilter, prefixPathId, underPrefixSql } from "../rollup/page-sections.js";
import { channelGroup } from "../rollup/referral-groups.js";
import { SITE_PATH_ID } from "../rollup/plan.js";
import { type Page, type CountRow, EXPORT_BATCH_ROWS, type PathCounts, type PreviousColumns, countsOf, type PageReportOptions, countColumns, pathRows, shape } from "./report-rows.js";
import { comparedParts, previousDates, partParams, reachedSql, periodSums } from "./reach-sql.js";

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
