import type { Views } from "../../../shared/analytics-schemas.js";
import type { Db, Queryable } from "../../store/db.js";
import { queryInBatches } from "../../store/query-batches.js";
import { FORMAT_CODE } from "../ingest/read-format.js";
import { CLASS_CODE } from "../classify/traffic-class.js";
import { binder, FORMAT_TABLES, periodRowsSql, REFERRAL_TABLES, VIEWS_TABLES } from "./period-rows.js";
import type { DayRange } from "../../../shared/epoch-days.js";
import { periodsOf, type BoundedRange } from "./compared-periods.js";
import { prefixPageIds } from "../rollup/page-sections.js";
import { sourceIdsOf } from "../rollup/referral-groups.js";
import { type Page, type CountRow, EXPORT_BATCH_ROWS, type PathCounts, type PreviousColumns, type PageReportOptions, countNames, countColumns, pathRows, shape } from "./report-rows.js";
import { previousDates, periodSums } from "./reach-sql.js";

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
