import type { Queryable } from "../../store/db.js";
import { AI_CATEGORIES, type AiCategory } from "../../../shared/analytics-vocabulary.js";
import { CLASS_CODE } from "../classify/traffic-class.js";
import { FORMAT_CODE } from "../ingest/read-format.js";
import { channelGroup } from "../rollup/referral-groups.js";
import { SITE_PATH_ID } from "../rollup/plan.js";
import { partParams, partsOf, reachedSql, saltWindows } from "./reach-sql.js";

/** A bounded run of whole UTC days (epoch days, `to` exclusive); empty when `to <= from`. */
export interface ImpactPeriod {
  from: number;
  to: number;
}

/** What a page's readers did over a period, or the site's (docs/analytics/impact.md). */
export interface ReaderNumbers {
  /** Distinct human visitors. */
  humanVisitors: number;
  /** Distinct AI visitors (agents' address + User-Agent pairs), failed fetches not counted. */
  aiVisitors: number;
  /** AI views the site answered (2xx/3xx), per agent category and in all. */
  aiReads: Record<AiCategory, number> & { total: number };
  /** AI views answered 4xx/5xx. */
  aiFailures: number;
  /** Distinct people who arrived from an AI answer (the `ai` referral channel). */
  arrivalsFromAi: number;
  /** Views of the page's Markdown (its `.md` twin or a Markdown-negotiated fetch), by people and AI. */
  markdownReads: number;
  /** Views of llms.txt or llms-full.txt, by people and AI. */
  llmsTxtReads: number;
}

export const noReaders = (): ReaderNumbers => ({
  humanVisitors: 0,
  aiVisitors: 0,
  aiReads: { assistant: 0, crawler: 0, search: 0, total: 0 },
  aiFailures: 0,
  arrivalsFromAi: 0,
  markdownReads: 0,
  llmsTxtReads: 0,
});

/** Each period's numbers (same order as the periods), for the site and for each asked path. */
export interface ImpactNumbers {
  site: ReaderNumbers[];
  paths: Map<string, ReaderNumbers[]>;
}

type Num = number | string;

/**
 * What readers did on a few pages and on the whole site over several periods, exactly, from the
 * existing aggregates: distinct visitors from the reach counters (rollup/reach.ts) of the pages,
 * the site (path 0) and their AI-channel referral groups (`@channel/ai/<page>`, `@channel/ai`),
 * every period's salt-window parts in one statement; AI reads and failures per page from the
 * agents' daily page rows, the site's from the daily categories and failures; Markdown and
 * llms.txt reads from the daily format rows. Periods may overlap (nested windows): each row is
 * counted in every period holding its day. Cost: pages × days of the periods' span, never views.
 */
export async function impactNumbers(db: Queryable, projectId: string, paths: readonly string[], periods: readonly ImpactPeriod[]): Promise<ImpactNumbers> {
  const site = periods.map(noReaders);
  const byPath = new Map([...new Set(paths)].map((path) => [path, periods.map(noReaders)]));
  // Each page's numbers are found by its id, and by its AI-channel group's id for its arrivals; the site's by path 0 and `@channel/ai`.
  const groupOf = new Map<string, ReaderNumbers[]>([[channelGroup("ai"), site], ...[...byPath].map(([path, numbers]) => [channelGroup("ai", path), numbers] as const)]);
  const idRows = await db.query<{ id: number; path: string }>(`SELECT id, path FROM analytics_paths WHERE project_id = $1 AND path = ANY ($2::text[])`, [
    projectId,
    [...byPath.keys(), ...groupOf.keys()],
  ]);
  const pathOfId = new Map<number, ReaderNumbers[]>([[SITE_PATH_ID, site]]);
  const groupOfId = new Map<number, ReaderNumbers[]>();
  for (const row of idRows) {
    const page = byPath.get(row.path);
    if (page) pathOfId.set(Number(row.id), page);
    const group = groupOf.get(row.path);
    if (group) groupOfId.set(Number(row.id), group);
  }
  const pageIds = [...pathOfId.keys()].filter((id) => id !== SITE_PATH_ID);
  const live = periods.map((period, index) => ({ ...period, index })).filter((period) => period.to > period.from);
  if (live.length === 0) return { site, paths: byPath };
  const [reached, views] = await Promise.all([
    reachedRows(db, projectId, [SITE_PATH_ID, ...pathOfId.keys(), ...groupOfId.keys()], live),
    viewRows(db, projectId, pageIds, live),
  ]);
  for (const row of reached) {
    const period = Number(row.period);
    const page = pathOfId.get(Number(row.path_id))?.[period];
    if (page) {
      page.humanVisitors = Number(row.human);
      page.aiVisitors = Number(row.ai);
    }
    const group = groupOfId.get(Number(row.path_id))?.[period];
    if (group) group.arrivalsFromAi = Number(row.human);
  }
  for (const row of views) {
    const numbers = pathOfId.get(Number(row.path_id))?.[Number(row.period)];
    if (!numbers) continue;
    const category = AI_CATEGORIES.find((name) => name === row.category);
    if (category) {
      numbers.aiReads[category] += Number(row.reads);
      numbers.aiReads.total += Number(row.reads);
    }
    numbers.aiFailures += Number(row.failed);
    numbers.markdownReads += Number(row.markdown);
    numbers.llmsTxtReads += Number(row.llms);
  }
  return { site, paths: byPath };
}

/** Distinct visitors per period and path id, over every period's salt-window parts at once (reach-sql.ts), the paths read through their indexes. */
async function reachedRows(db: Queryable, projectId: string, pathIds: number[], periods: (ImpactPeriod & { index: number })[]) {
  const windows = await saltWindows(db, projectId, { from: Math.min(...periods.map((p) => p.from)), to: Math.max(...periods.map((p) => p.to)) });
  const parts = periods.flatMap((period) => partsOf(windows, period).map((part) => ({ ...part, period: period.index })));
  if (parts.length === 0) return [];
  return db.query<{ period: Num; path_id: Num; human: Num; ai: Num }>(
    `WITH ${reachedSql(undefined, { anyOf: "$7::int[]" })}
     SELECT period, path_id, sum(human) AS human, sum(ai) AS ai FROM reached GROUP BY period, path_id`,
    [...partParams(projectId, parts), [...new Set(pathIds)]],
  );
}

/**
 * Additive counts per period and path id (0: the site): AI reads per category and failures, and
 * Markdown and llms.txt reads. The pages' from their daily agent-page and format rows; the site's
 * from its own daily rows (categories, agents, site formats), so the cost is the asked pages ×
 * days, never every page's: the site's failures are its agents' views (verified or unverifiable,
 * failed ones included) less the AI views it served. $2..$4 the periods (first days, end days,
 * indexes), $5 the pages, $6 and $7 the days they span.
 */
async function viewRows(db: Queryable, projectId: string, pageIds: number[], periods: (ImpactPeriod & { index: number })[]) {
  const first = Math.min(...periods.map((p) => p.from));
  const last = Math.max(...periods.map((p) => p.to));
  const span = `day >= $6 AND day < $7`;
  const reads = (format: string, column: string) => `CASE WHEN format = ${FORMAT_CODE[format as keyof typeof FORMAT_CODE]} THEN human + ai ELSE 0 END AS ${column}`;
  return db.query<{ period: Num; path_id: Num; category: string | null; reads: Num; failed: Num; markdown: Num; llms: Num }>(
    `WITH periods AS (SELECT * FROM unnest($2::int[], $3::int[], $4::int[]) AS p (day_from, day_to, period)),
     counted AS (
       SELECT a.day, a.path_id, g.category, a.views - a.failed AS reads, a.failed, 0 AS markdown, 0 AS llms
       FROM analytics_daily_agent_pages a JOIN analytics_agents g ON g.id = a.agent_id
       WHERE a.project_id = $1 AND a.path_id = ANY ($5::int[]) AND a.${span}
       UNION ALL
       SELECT day, path_id, NULL, 0, 0, ${reads("markdown", "markdown")}, ${reads("llms.txt", "llms")}
       FROM analytics_daily_formats WHERE project_id = $1 AND path_id = ANY ($5::int[]) AND format IN (${FORMAT_CODE.markdown}, ${FORMAT_CODE["llms.txt"]}) AND ${span}
       UNION ALL
       SELECT day, 0, category, views, -views, 0, 0 FROM analytics_daily_categories WHERE project_id = $1 AND class = ${CLASS_CODE.ai} AND ${span}
       UNION ALL
       SELECT day, 0, NULL, 0, verified + unverifiable, 0, 0 FROM analytics_daily_agents WHERE project_id = $1 AND ${span}
       UNION ALL
       SELECT day, 0, NULL, 0, 0, ${reads("markdown", "markdown")}, ${reads("llms.txt", "llms")}
       FROM analytics_daily_site_formats WHERE project_id = $1 AND format IN (${FORMAT_CODE.markdown}, ${FORMAT_CODE["llms.txt"]}) AND ${span}
     )
     SELECT p.period, c.path_id, c.category, sum(c.reads) AS reads, sum(c.failed) AS failed, sum(c.markdown) AS markdown, sum(c.llms) AS llms
     FROM counted c JOIN periods p ON c.day >= p.day_from AND c.day < p.day_to
     GROUP BY p.period, c.path_id, c.category`,
    [projectId, periods.map((p) => p.from), periods.map((p) => p.to), periods.map((p) => p.index), pageIds, first, last],
  );
}
