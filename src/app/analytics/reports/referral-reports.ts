import type { ReferrerPages, Referrers } from "../../../shared/analytics-trend-schemas.js";
import type { DayRange } from "../../../shared/epoch-days.js";
import type { Queryable } from "../../store/db.js";
import { csvFields, type CsvColumns } from "../../http-kit/csv.js";
import { isPageSql, underPrefixSql } from "../rollup/page-sections.js";
import { channelGroup, IS_SOURCE_GROUP, SOURCE_GROUP_PREFIX, sourceIdsOf } from "../rollup/referral-groups.js";
import { channelOfSource, type ReferralChannel } from "../ingest/referral.js";
import { partParams, visitorsPerPathSql, windowParts } from "./reach-sql.js";
import type { Page } from "./report-rows.js";
import { binder, periodRowsSql, REFERRAL_TABLES } from "./period-rows.js";

/**
 * Where people came from (docs/architecture.md, "Analytics"). Visitors are the referral groups'
 * reach counters (referral-groups.ts), so they are distinct people over the range exactly as the
 * visitors export counts; views are the counters per source and page, per month for a range's
 * whole months and per day for the rest (period-rows.ts). Cost grows with groups × days, never
 * with views.
 */

/** The ids of the project's source groups. */
const SOURCE_GROUPS = `SELECT id FROM analytics_paths WHERE project_id = $1 AND ${IS_SOURCE_GROUP}`;
/** The ids of a channel's group (`group`, a placeholder) and of its pages' and sections' groups. */
const channelGroupIds = (group: string) => `SELECT id FROM analytics_paths WHERE project_id = $1 AND ${underPrefixSql("path", group)}`;

/** Sources by distinct people, then views, then name; `channel` narrows to one channel. */
export async function referrersReport(db: Queryable, projectId: string, range: DayRange, page: Page, channel?: ReferralChannel): Promise<Referrers> {
  const parts = await windowParts(db, projectId, range);
  const only = channel === undefined ? null : await sourceIdsOf(db, projectId, channel);
  if (parts.length === 0 || only?.length === 0) return { referrers: [], hasMore: false };
  const params: unknown[] = partParams(projectId, parts);
  const bind = binder(params);
  const sources = bind(only, "int[]");
  const rows = await db.query<{ source: string; visitors: string | number; views: string | number }>(
    `WITH ${visitorsPerPathSql(undefined, SOURCE_GROUPS)},
     sources AS (
       SELECT id, substr(path, ${SOURCE_GROUP_PREFIX.length + 1}) AS source FROM analytics_paths
       WHERE project_id = $1 AND ${IS_SOURCE_GROUP} AND (${sources} IS NULL OR id = ANY (${sources}))
     ),
     viewed AS (SELECT source_id, sum(views) AS views FROM (${periodRowsSql(REFERRAL_TABLES, "source_id, views", "", { range }, bind)}) r GROUP BY source_id)
     SELECT s.source, coalesce(pp.human, 0) AS visitors, coalesce(v.views, 0) AS views
     FROM sources s LEFT JOIN per_path pp ON pp.path_id = s.id LEFT JOIN viewed v ON v.source_id = s.id
     WHERE coalesce(pp.human, 0) > 0 OR coalesce(v.views, 0) > 0
     ORDER BY visitors DESC, views DESC, s.source COLLATE "C" LIMIT ${bind(page.limit + 1, "int")} OFFSET ${bind(page.offset, "int")}`,
    params,
  );
  const referrers = rows.slice(0, page.limit).map((row) => ({ source: row.source, channel: channelOfSource(row.source), visitors: Number(row.visitors), views: Number(row.views) }));
  return { referrers, hasMore: rows.length > page.limit };
}

/**
 * Per page, the people who arrived on it from a channel (an AI answer, by default) and their
 * arrivals, most people first, then most arrivals, then path in byte order. People are the
 * channel's groups' reach counters (a page's group is the channel's followed by the page's path;
 * the channel's alone is the site's); arrivals are its sources' views. Arrivals only break ties,
 * so they are summed per page only for the pages that can be listed (those with at least as many
 * people as the last row asked for), and otherwise only into the site's total. A page of 50 then
 * looks up about 50 pages, not every page's path. People and arrivals are two statements, so a
 * rollup committing between them can make them a moment apart, as two requests would be.
 */
export async function referrerPagesReport(db: Queryable, projectId: string, range: DayRange, page: Page, channel: ReferralChannel): Promise<ReferrerPages> {
  const parts = await windowParts(db, projectId, range);
  const empty = { channel, totals: { visitors: 0, views: 0 }, pages: [], hasMore: false };
  if (parts.length === 0) return empty;
  const candidates = await listablePages(db, projectId, parts, channel, page.offset + page.limit + 1);
  const arrivals = await arrivalsOf(db, projectId, range, await sourceIdsOf(db, projectId, channel), candidates.pages.map((candidate) => candidate.id));
  const listed = candidates.pages
    .map((candidate) => ({ path: candidate.path, visitors: candidate.visitors, views: arrivals.byPage.get(candidate.id) ?? 0 }))
    .sort((a, b) => b.visitors - a.visitors || b.views - a.views || Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const pages = listed.slice(page.offset, page.offset + page.limit);
  return { channel, totals: { visitors: candidates.siteVisitors, views: arrivals.total }, pages, hasMore: listed.length > page.offset + page.limit };
}

/**
 * The pages people arrived on from a channel, with at least as many people as the `rows`-th most
 * visited of them (all of them when there are fewer), each with its id; and the channel's people
 * on the whole site.
 */
async function listablePages(db: Queryable, projectId: string, parts: Awaited<ReturnType<typeof windowParts>>, channel: ReferralChannel, rows: number) {
  const params: unknown[] = partParams(projectId, parts);
  const bind = binder(params);
  const channelSite = bind(channelGroup(channel), "text");
  const found = await db.query<{ id: number | null; path: string; visitors: string | number }>(
    `WITH ${visitorsPerPathSql(undefined, channelGroupIds(channelSite))},
     arrived AS MATERIALIZED (
       SELECT substr(ap.path, length(${channelSite}) + 1) AS path, pp.human AS visitors FROM per_path pp JOIN analytics_paths ap ON ap.id = pp.path_id WHERE pp.human > 0
     ),
     listed AS (SELECT path, visitors FROM arrived WHERE ${isPageSql("path")}),
     least AS (SELECT coalesce(min(visitors), 0) AS visitors FROM (SELECT visitors FROM listed ORDER BY visitors DESC LIMIT ${bind(rows, "int")}) top)
     SELECT ap.id, l.path, l.visitors FROM listed l JOIN analytics_paths ap ON ap.project_id = $1 AND ap.path = l.path
     WHERE l.visitors >= (SELECT visitors FROM least)
     UNION ALL
     SELECT NULL, path, visitors FROM arrived WHERE path = ''`,
    params,
  );
  const site = found.find((row) => row.id === null);
  const pages = found.filter((row) => row.id !== null).map((row) => ({ id: row.id as number, path: row.path, visitors: Number(row.visitors) }));
  return { pages, siteVisitors: Number(site?.visitors ?? 0) };
}

/** Arrivals from `sources` over the range: on each of `pages`, and on the whole site. */
async function arrivalsOf(db: Queryable, projectId: string, range: DayRange, sources: number[], pages: number[]) {
  if (sources.length === 0) return { byPage: new Map<number, number>(), total: 0 };
  const params: unknown[] = [projectId];
  const bind = binder(params);
  const listed = bind(pages, "int[]");
  const rows = await db.query<{ path_id: number | null; views: string | number }>(
    `SELECT CASE WHEN path_id = ANY (${listed}) THEN path_id END AS path_id, sum(views) AS views
     FROM (${periodRowsSql(REFERRAL_TABLES, "path_id, views", `AND source_id = ANY (${bind(sources, "int[]")})`, { range }, bind)}) r
     GROUP BY 1`,
    params,
  );
  const byPage = new Map(rows.filter((row) => row.path_id !== null).map((row) => [row.path_id as number, Number(row.views)]));
  return { byPage, total: rows.reduce((sum, row) => sum + Number(row.views), 0) };
}

/** The CSV columns of the referral reports. */
export const REFERRER_COLUMNS: CsvColumns<Referrers["referrers"][number]> = csvFields("source", "channel", "visitors", "views");
export const REFERRER_PAGE_COLUMNS: CsvColumns<ReferrerPages["pages"][number]> = csvFields("path", "visitors", "views");
