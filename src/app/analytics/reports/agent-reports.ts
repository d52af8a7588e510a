import type { AgentPages, Agents, Failures } from "../../../shared/analytics-schemas.js";
import type { DayRange } from "../../../shared/epoch-days.js";
import { READ_FORMATS, type AiCategory, type ReadFormat } from "../../../shared/analytics-vocabulary.js";
import type { Db, Queryable } from "../../store/db.js";
import { queryInBatches } from "../../store/query-batches.js";
import { csvFields, withPreviousFields, type CsvColumns } from "../../http-kit/csv.js";
import { FORMAT_CODE } from "../ingest/read-format.js";
import { previousDates, windowParts } from "./reach-sql.js";
import { EXPORT_BATCH_ROWS, type Page } from "./report-rows.js";
import { periodsOf } from "./compared-periods.js";
import { NO_PATH_ID, prefixFilter, prefixPageIds, prefixPathId } from "../rollup/page-sections.js";
import { SITE_PATH_ID } from "../rollup/plan.js";
import { VERDICT_CODE } from "../rollup/robots-plan.js";
import { AGENT_PAGE_TABLES, binder, periodRowsSql } from "./period-rows.js";

type Num = string | number;

/** Day range conditions on a daily table's `day` ($2 and $3). */
const IN_RANGE = `($2::int IS NULL OR day >= $2) AND ($3::int IS NULL OR day < $3)`;

/**
 * Distinct visitors per agent (and page) from the agents' first-visit and return counters, the
 * same way the visitors report reads the site's (reach.ts): `parts` are the salt windows
 * overlapping the range (reachParts: window starts, first and end days relative to them, from
 * parameter `first` on; $4..$6 by default). `pathFilter` picks path 0 (any page) or the pages.
 */
const reachedSql = (pathFilter: string, agentFilter: string, first = 4) => `
  parts AS (SELECT * FROM unnest($${first}::int[], $${first + 1}::int[], $${first + 2}::int[]) AS p (window_start, day_from, day_to)),
  reached AS (
    SELECT f.agent_id, f.path_id, f.visitors FROM parts p
    JOIN analytics_agent_first_visits f ON f.project_id = $1 AND f.window_start = p.window_start AND f.day >= p.day_from AND f.day < p.day_to
    WHERE ${pathFilter.replaceAll("#", "f")} AND ${agentFilter.replaceAll("#", "f")}
    UNION ALL
    SELECT r.agent_id, r.path_id, r.visitors FROM parts p
    JOIN analytics_agent_returns r ON r.project_id = $1 AND r.window_start = p.window_start AND r.day >= p.day_from AND r.day < p.day_to AND r.prev < p.day_from
    WHERE p.day_from > 0 AND ${pathFilter.replaceAll("#", "r")} AND ${agentFilter.replaceAll("#", "r")}
  )`;

/**
 * Distinct pages each agent read in the range ($2, $3), of the pages $8 when given (a prefix's):
 * its (page, month) rows whose day mask meets the range's days of that month
 * (rollup/agent-plan.ts), so the cost is pages per agent, not days. Pages are made distinct
 * before they are counted: a hashed DISTINCT, where count(DISTINCT) sorted every row.
 */
const PAGES_READ_SQL = `
  SELECT agent_id, count(*) AS pages FROM (
    SELECT DISTINCT agent_id, path_id FROM (
      SELECT m.agent_id, m.path_id, m.days,
             CASE WHEN $2::int IS NULL THEN 0 ELSE greatest($2::int - m.month_start, 0) END AS lo,
             CASE WHEN $3::int IS NULL THEN 31 ELSE least($3::int - m.month_start, 31) END AS hi
      FROM analytics_agent_page_months m
      WHERE m.project_id = $1 AND ($3::int IS NULL OR m.month_start < $3::int) AND ($2::int IS NULL OR m.month_start > $2::int - 31)
        AND ($8::int[] IS NULL OR m.path_id = ANY ($8::int[]))
    ) m
    WHERE hi > lo AND (m.days::bigint & ((1::bigint << hi) - (1::bigint << lo))) <> 0
  ) read GROUP BY agent_id`;

/** The salt-window parts of a range as reachedSql reads them: window starts, first and end days. */
async function reachParts(db: Queryable, projectId: string, range: DayRange) {
  const parts = await windowParts(db, projectId, range);
  return [parts.map((p) => p.start), parts.map((p) => p.from), parts.map((p) => p.to)];
}

/** $1 the project, $2 and $3 the range's days, $4..$6 its parts (reachParts). */
async function rangeParams(db: Queryable, projectId: string, range: DayRange) {
  return [projectId, range.from, range.to, ...(await reachParts(db, projectId, range))];
}

/** What narrows the agents report, and whether it is compared with the previous period. */
export interface AgentReportOptions {
  category?: string | undefined;
  /** Only what agents read under this prefix (`/docs`: `/docs` and `/docs/…`): its pages' claims, its section's distinct visitors, its pages read. */
  pathPrefix?: string | undefined;
  compare?: "previous" | undefined;
}

/**
 * Which AI agents read the project's pages over whole UTC days: views by how each claim checked
 * out, distinct visitors and pages read, most views first. A visitor (address + User-Agent) is
 * always the same one agent, so visitors of several agents add up to the totals. Spoofed views are
 * not the agent's: they count only in `verification.spoofed`. Cost grows with agents × days (and pages read).
 */
export async function agentsReport(db: Queryable, projectId: string, asked: DayRange, page: Page, options: AgentReportOptions = {}): Promise<Agents> {
  const { range, previous } = await periodsOf(db, projectId, asked, options);
  const { sql, params } = await agentsQuery(db, projectId, range, options);
  const rows = await db.query<AgentRow & { site: boolean }>(
    `WITH ${sql}
     SELECT true AS site, 0::bigint AS rank, NULL AS agent, NULL AS operator, NULL AS category, 0 AS verified, 0 AS spoofed, 0 AS unverifiable,
            COALESCE(sum(views), 0) AS views, COALESCE(sum(visitors), 0) AS visitors, 0 AS pages, 0 AS robots_disallowed FROM agents
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY ${AGENTS_ORDER}), ${AGENT_SELECT}
      FROM agents ORDER BY ${AGENTS_ORDER} LIMIT $${params.length + 1} OFFSET $${params.length + 2})
     ORDER BY rank`,
    [...params, page.limit + 1, page.offset],
  );
  const totals = rows.find((r) => r.site);
  const before = previous === undefined ? null : await agentsBefore(db, projectId, previous, options);
  const agents = rows.filter((r) => !r.site).map((row) => withPrevious(agentOf(row), before));
  return {
    totals: { views: Number(totals?.views ?? 0), visitors: Number(totals?.visitors ?? 0), ...(before ? { previous: before.totals } : {}) },
    agents: agents.slice(0, page.limit),
    hasMore: agents.length > page.limit,
    ...previousDates(previous),
  };
}

/** Every row of the agents report, in its order, read `batchRows` at a time (exports). */
export async function* agentRows(db: Db, projectId: string, asked: DayRange, options: AgentReportOptions = {}, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<Agents["agents"][number]> {
  const { range, previous } = await periodsOf(db, projectId, asked, options);
  const { sql, params } = await agentsQuery(db, projectId, range, options);
  const before = previous === undefined ? null : await agentsBefore(db, projectId, previous, options);
  for await (const batch of queryInBatches<AgentRow>(db, `WITH ${sql} SELECT ${AGENT_SELECT} FROM agents ORDER BY ${AGENTS_ORDER}`, params, batchRows)) {
    yield* batch.map((row) => withPrevious(agentOf(row), before));
  }
}

type AgentNumbers = { views: number; visitors: number; pages: number };
type AgentsBefore = { byName: Map<string, AgentNumbers>; totals: { views: number; visitors: number } };

/** Every agent's numbers over the previous period, by name, and their totals: agents are few (one row per known crawler or assistant). */
async function agentsBefore(db: Queryable, projectId: string, previous: DayRange, options: AgentReportOptions): Promise<AgentsBefore> {
  const { sql, params } = await agentsQuery(db, projectId, previous, options);
  const rows = await db.query<AgentRow>(`WITH ${sql} SELECT ${AGENT_SELECT} FROM agents`, params);
  const byName = new Map(rows.map((row) => [row.agent as string, { views: Number(row.views), visitors: Number(row.visitors), pages: Number(row.pages) }]));
  let views = 0;
  let visitors = 0;
  for (const numbers of byName.values()) {
    views += numbers.views;
    visitors += numbers.visitors;
  }
  return { byName, totals: { views, visitors } };
}

/** An agent's row with the previous period's numbers beside it when compared (zeros if it read nothing then). */
function withPrevious(agent: Agents["agents"][number], before: AgentsBefore | null): Agents["agents"][number] {
  return before === null ? agent : { ...agent, previous: before.byName.get(agent.agent) ?? { views: 0, visitors: 0, pages: 0 } };
}

type AgentRow = { agent: string | null; operator: string | null; category: string | null; verified: Num; spoofed: Num; unverifiable: Num; views: Num; visitors: Num; pages: Num; robots_disallowed: Num };

/**
 * `agents`: each agent's claims, visitors and pages read over the range, of one category when
 * given, and its parameters: rangeParams ($1..$6), the category ($7), the pages under the path
 * prefix ($8, page-sections.ts prefixPageIds; null without one) and the path id whose reach
 * counters count its visitors ($9: the site's 0, the prefix's section, or none when no agent's
 * view reached it). Under a prefix the claims are its pages' (monthly rows for whole months,
 * period-rows.ts) and the visitors its section's; on the whole site, the agent's own daily claims
 * and its visitors of any page.
 */
async function agentsQuery(db: Queryable, projectId: string, range: DayRange, options: AgentReportOptions): Promise<{ sql: string; params: unknown[] }> {
  const prefix = prefixFilter(options.pathPrefix);
  const visitorsOf = prefix === null ? SITE_PATH_ID : ((await prefixPathId(db, projectId, prefix)) ?? NO_PATH_ID);
  const params = [...(await rangeParams(db, projectId, range)), options.category ?? null, await prefixPageIds(db, projectId, options.pathPrefix), visitorsOf];
  const claims =
    prefix === null
      ? `SELECT agent_id, sum(verified) AS verified, sum(spoofed) AS spoofed, sum(unverifiable) AS unverifiable
       FROM analytics_daily_agents WHERE project_id = $1 AND ${IN_RANGE} GROUP BY agent_id`
      : `SELECT agent_id, sum(verified) AS verified, sum(spoofed) AS spoofed, sum(views) - sum(verified) AS unverifiable
       FROM (${periodRowsSql(AGENT_PAGE_TABLES, "agent_id, views, verified, spoofed", "AND path_id = ANY ($8::int[])", { range }, binder(params))}) c GROUP BY agent_id`;
  // The compliance column (reports/robots-reports.ts): views robots.txt disallowed; under a prefix, of its pages.
  const disallowed =
    prefix === null
      ? `SELECT agent_id, sum(views) AS views FROM analytics_daily_robots WHERE project_id = $1 AND ${IN_RANGE} AND verdict = ${VERDICT_CODE.disallowed} GROUP BY agent_id`
      : `SELECT agent_id, sum(views) AS views FROM analytics_robots_disallowed WHERE project_id = $1 AND ${IN_RANGE} AND path_id = ANY ($8::int[]) GROUP BY agent_id`;
  const sql = `${reachedSql("#.path_id = $9::int", "true")},
     claims AS (${claims}),
     visitors AS (SELECT agent_id, sum(visitors) AS visitors FROM reached GROUP BY agent_id),
     pages AS (${PAGES_READ_SQL}),
     disallowed AS (${disallowed}),
     agents AS MATERIALIZED (
       SELECT a.name, a.operator, a.category, c.verified, c.spoofed, c.unverifiable, c.verified + c.unverifiable AS views,
              COALESCE(v.visitors, 0) AS visitors, COALESCE(pg.pages, 0) AS pages, COALESCE(d.views, 0) AS robots_disallowed
       FROM claims c JOIN analytics_agents a ON a.id = c.agent_id
       LEFT JOIN visitors v ON v.agent_id = c.agent_id LEFT JOIN pages pg ON pg.agent_id = c.agent_id LEFT JOIN disallowed d ON d.agent_id = c.agent_id
       WHERE $7::text IS NULL OR a.category = $7
     )`;
  return { sql, params };
}
const AGENT_SELECT = `name AS agent, operator, category, verified, spoofed, unverifiable, views, visitors, pages, robots_disallowed`;
const AGENTS_ORDER = `views DESC, name COLLATE "C"`;

const agentOf = (r: AgentRow) => ({
  agent: r.agent as string,
  operator: r.operator as string,
  category: r.category as AiCategory,
  verification: { verified: Number(r.verified), spoofed: Number(r.spoofed), unverifiable: Number(r.unverifiable) },
  views: Number(r.views),
  visitors: Number(r.visitors),
  pages: Number(r.pages),
  robotsDisallowed: Number(r.robots_disallowed),
});

/** The id of the agent of this name, if any view ever claimed it. */
export async function agentIdByName(db: Queryable, name: string): Promise<number | null> {
  const rows = await db.query<{ id: number }>(`SELECT id FROM analytics_agents WHERE name = $1`, [name]);
  return rows[0]?.id ?? null;
}

/** What one agent read over whole UTC days: views, distinct visitors and views answered 4xx/5xx per page, most read first. */
export async function agentPagesReport(db: Queryable, projectId: string, agentId: number, range: DayRange, page: Page): Promise<AgentPages> {
  const { sql, params } = await agentPagesQuery(db, projectId, agentId, range);
  const rows = await db.query<AgentPageRow>(`${sql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, page.limit + 1, page.offset]);
  const pages = rows.map(agentPageOf);
  return { pages: pages.slice(0, page.limit), hasMore: pages.length > page.limit };
}

/** Every row of one agent's pages, in the report's order, read `batchRows` at a time (exports). */
export async function* agentPageRows(db: Db, projectId: string, agentId: number, range: DayRange, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<AgentPages["pages"][number]> {
  const { sql, params } = await agentPagesQuery(db, projectId, agentId, range);
  for await (const batch of queryInBatches<AgentPageRow>(db, sql, params, batchRows)) yield* batch.map(agentPageOf);
}

type AgentPageRow = { path: string; views: Num; visitors: Num; failed: Num };
const agentPageOf = (r: AgentPageRow) => ({ path: r.path, views: Number(r.views), visitors: Number(r.visitors), failed: Number(r.failed) });

/** The pages of agent $2 over the range (its parts from $3, reachParts), in the report's order; its reads from the monthly rows for whole months (period-rows.ts). */
async function agentPagesQuery(db: Queryable, projectId: string, agentId: number, range: DayRange): Promise<{ sql: string; params: unknown[] }> {
  const params = [projectId, agentId, ...(await reachParts(db, projectId, range))];
  const sql = `WITH ${reachedSql("#.path_id <> 0", "#.agent_id = $2", 3)},
     read AS (
       SELECT path_id, sum(views) AS views, sum(failed) AS failed
       FROM (${periodRowsSql(AGENT_PAGE_TABLES, "path_id, views, failed", "AND agent_id = $2", { range }, binder(params))}) r
       GROUP BY path_id HAVING sum(views) > 0
     ),
     visitors AS (SELECT path_id, sum(visitors) AS visitors FROM reached GROUP BY path_id)
     SELECT ap.path, r.views, COALESCE(v.visitors, 0) AS visitors, r.failed
     FROM read r JOIN analytics_paths ap ON ap.id = r.path_id LEFT JOIN visitors v ON v.path_id = r.path_id
     ORDER BY r.views DESC, ap.path COLLATE "C"`;
  return { sql, params };
}

/** Pages AI agents failed to fetch (a 4xx/5xx answer) over whole UTC days, per status, most failed views first. */
export async function failuresReport(db: Queryable, projectId: string, range: DayRange, page: Page): Promise<Failures> {
  const rows = await db.query<FailureRow>(`${failuresSql} LIMIT $4 OFFSET $5`, [projectId, range.from, range.to, page.limit + 1, page.offset]);
  const failures = rows.map(failureOf);
  return { failures: failures.slice(0, page.limit), hasMore: failures.length > page.limit };
}

/** Every row of the failures report, in its order, read `batchRows` at a time (exports). */
export async function* failureRows(db: Db, projectId: string, range: DayRange, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<Failures["failures"][number]> {
  for await (const batch of queryInBatches<FailureRow>(db, failuresSql, [projectId, range.from, range.to], batchRows)) yield* batch.map(failureOf);
}

type FailureRow = { path: string; status: number; views: Num; agents: string[] };
const failureOf = (r: FailureRow) => ({ path: r.path, status: Number(r.status), views: Number(r.views), agents: r.agents });

/** Failures per page and status over the range ($1 project, $2 and $3), in the report's order. */
const failuresSql = `WITH failed AS (
       SELECT path_id, status, agent_id, sum(views) AS views FROM analytics_daily_failures
       WHERE project_id = $1 AND ${IN_RANGE} GROUP BY path_id, status, agent_id
     ),
     per_page AS (
       SELECT f.path_id, f.status, sum(f.views) AS views, array_agg(a.name ORDER BY a.name COLLATE "C") AS agents
       FROM failed f JOIN analytics_agents a ON a.id = f.agent_id GROUP BY f.path_id, f.status
     )
     SELECT ap.path, pp.status, pp.views, pp.agents FROM per_page pp JOIN analytics_paths ap ON ap.id = pp.path_id
     ORDER BY pp.views DESC, ap.path COLLATE "C", pp.status`;

/** Served views per format over a range, by class (html first, then the order of READ_FORMATS). */
export async function formatSplit(db: Queryable, projectId: string, range: DayRange): Promise<{ format: ReadFormat; human: number; ai: number; bot: number }[]> {
  const rows = await db.query<{ format: number; human: Num; ai: Num; bot: Num }>(
    `SELECT format, sum(human) AS human, sum(ai) AS ai, sum(bot) AS bot FROM analytics_daily_formats
     WHERE project_id = $1 AND ${IN_RANGE} GROUP BY format ORDER BY format`,
    [projectId, range.from, range.to],
  );
  return rows.flatMap((r) => {
    const format = READ_FORMATS.find((name) => FORMAT_CODE[name] === Number(r.format));
    return format ? [{ format, human: Number(r.human), ai: Number(r.ai), bot: Number(r.bot) }] : [];
  });
}

/** One agent's views per day of a bounded range (zeros included), and the spoofed claims of its name. */
export async function agentDailyViews(db: Queryable, projectId: string, agentId: number, range: { from: number; to: number }) {
  const rows = await db.query<{ day: number; views: Num; spoofed: Num }>(
    `SELECT day, verified + unverifiable AS views, spoofed FROM analytics_daily_agents WHERE project_id = $1 AND agent_id = $4 AND ${IN_RANGE}`,
    [projectId, range.from, range.to, agentId],
  );
  const byDay = new Map(rows.map((r) => [Number(r.day), r]));
  const days: { day: number; views: number; spoofed: number }[] = [];
  for (let day = range.from; day < range.to; day++) days.push({ day, views: Number(byDay.get(day)?.views ?? 0), spoofed: Number(byDay.get(day)?.spoofed ?? 0) });
  return days;
}

/** The CSV columns of the agent reports: the JSON rows' fields in order; an agent's verification counts in columns of their own, a failure's agents joined by "; ". */
export const AGENT_COLUMNS: CsvColumns<Agents["agents"][number]> = [
  ...csvFields<Agents["agents"][number]>("agent", "operator", "category"),
  ["verified", (a) => a.verification.verified],
  ["spoofed", (a) => a.verification.spoofed],
  ["unverifiable", (a) => a.verification.unverifiable],
  ...csvFields<Agents["agents"][number]>("views", "visitors", "pages", "robotsDisallowed"),
];
export const COMPARED_AGENT_COLUMNS = withPreviousFields(AGENT_COLUMNS, "views", "visitors", "pages");
export const AGENT_PAGE_COLUMNS: CsvColumns<AgentPages["pages"][number]> = csvFields("path", "views", "visitors", "failed");
export const FAILURE_COLUMNS: CsvColumns<Failures["failures"][number]> = [...csvFields<Failures["failures"][number]>("path", "status", "views"), ["agents", (f) => f.agents.join("; ")]];
export const FORMAT_COLUMNS: CsvColumns<{ format: ReadFormat; human: number; ai: number; bot: number }> = csvFields("format", "human", "ai", "bot");
export const AGENT_DAY_COLUMNS: CsvColumns<{ date: string; views: number; spoofed: number }> = csvFields("date", "views", "spoofed");
