import type { ReferrerPages, Referrers } from "../../shared/analytics-trend-schemas.js";
import type { Queryable } from "../store/db.js";
import { isPageSql } from "./page-sections.js";
import { channelGroup, channelGroupIds, IS_SOURCE_GROUP, SOURCE_GROUP_PREFIX, sourceIdsOf } from "./referral-groups.js";
import { channelOfSource, type ReferralChannel } from "./referral.js";
import { partParams, visitorsPerPathSql, windowParts, type DayRange, type Page } from "./reports.js";
import { binder, periodRowsSql, REFERRAL_TABLES } from "./period-rows.js";

/**
 * Where people came from (docs/architecture.md, "Analytics"). Visitors are the referral groups'
 * reach counters (referral-groups.ts), so they are distinct people over the range exactly as the
 * visitors export counts; views are the daily counters per source and page. Cost grows with
 * groups × days, never with views.
 */


/** Sources by distinct people, then views, then name; `channel` narrows to one channel. */
export async function referrersReport(db: Queryable, projectId: string, range: DayRange, page: Page, channel?: ReferralChannel): Promise<Referrers> {
  const parts = await windowParts(db, projectId, range);
  const only = channel === undefined ? null : await sourceIdsOf(db, projectId, channel);
  if (parts.length === 0 || only?.length === 0) return { referrers: [], hasMore: false };
  const params: unknown[] = partParams(projectId, parts);
  const bind = binder(params);
  const sources = bind(only, "int[]");
  const sourceGroups = bind(await sourceIdsOf(db, projectId), "int[]");
  const rows = await db.query<{ source: string; visitors: string | number; views: string | number }>(
    `WITH ${visitorsPerPathSql(undefined, sourceGroups)},
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

/** Per page, the people who arrived on it from a channel (an AI answer, by default) and their arrivals, most first. */
export async function referrerPagesReport(db: Queryable, projectId: string, range: DayRange, page: Page, channel: ReferralChannel): Promise<ReferrerPages> {
  const parts = await windowParts(db, projectId, range);
  const site = channelGroup(channel);
  const empty = { channel, totals: { visitors: 0, views: 0 }, pages: [], hasMore: false };
  if (parts.length === 0) return empty;
  const sources = await sourceIdsOf(db, projectId, channel);
  const params: unknown[] = partParams(projectId, parts);
  const bind = binder(params);
  const channelGroups = bind(site, "text");
  const groupIds = bind(await channelGroupIds(db, projectId, channel), "int[]");
  // A page's group is the channel's followed by the page's path; the channel's alone is the site's, and those ending in / are sections.
  // Each side is joined to analytics_paths only (a table with statistics) and the sides are added up
  // by path: joining one CTE to another, whose row counts the planner can only guess, made it
  // choose a nested loop of groups × pages that took seconds. Paths are grouped in byte order
  // (COLLATE "C"), which is also the order the rows are listed in: a locale's order cost a third
  // of the query when the planner chose to sort them.
  const rows = await db.query<{ site: boolean; path: string | null; visitors: string | number; views: string | number }>(
    `WITH ${visitorsPerPathSql(undefined, groupIds)},
     arrivals AS (
       SELECT substr(ap.path, length(${channelGroups}) + 1) COLLATE "C" AS path, pp.human AS visitors, 0::numeric AS views
       FROM per_path pp JOIN analytics_paths ap ON ap.id = pp.path_id
       UNION ALL
       SELECT ap.path COLLATE "C", 0, r.views
       FROM (SELECT path_id, sum(views) AS views FROM (${periodRowsSql(REFERRAL_TABLES, "path_id, views", `AND source_id = ANY (${bind(sources, "int[]")})`, { range }, bind)}) r GROUP BY path_id) r
       JOIN analytics_paths ap ON ap.id = r.path_id
     ),
     per_page AS MATERIALIZED (SELECT path, sum(visitors) AS visitors, sum(views) AS views FROM arrivals GROUP BY path)
     SELECT true AS site, 0 AS rank, NULL AS path, coalesce((SELECT visitors FROM per_page WHERE path = ''), 0) AS visitors,
       (SELECT coalesce(sum(views), 0) FROM per_page) AS views
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY visitors DESC, views DESC, path COLLATE "C"), path, visitors, views FROM per_page
      WHERE ${isPageSql("path")} AND visitors > 0
      ORDER BY visitors DESC, views DESC, path COLLATE "C" LIMIT ${bind(page.limit + 1, "int")} OFFSET ${bind(page.offset, "int")})
     ORDER BY rank`,
    params,
  );
  const [totals, ...list] = rows;
  const pages = list.slice(0, page.limit).map((row) => ({ path: row.path as string, visitors: Number(row.visitors), views: Number(row.views) }));
  return { channel, totals: { visitors: Number(totals?.visitors ?? 0), views: Number(totals?.views ?? 0) }, pages, hasMore: list.length > page.limit };
}
