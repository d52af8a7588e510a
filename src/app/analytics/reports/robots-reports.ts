import type { DayRange } from "../../../shared/epoch-days.js";
import type { RobotsChanges, RobotsCompliance, RobotsDisallowed, RobotsOperators } from "../../../shared/robots-schemas.js";
import type { Db, Queryable } from "../../store/db.js";
import { queryInBatches } from "../../store/query-batches.js";
import { csvFields, type CsvColumns } from "../../http-kit/csv.js";
import { RobotsRules } from "../robots/robots-rules.js";
import { robotsBodies } from "../robots/robots-versions.js";
import { EXPORT_BATCH_ROWS, type Page } from "./report-rows.js";
import { binder, periodRowsSql, type CountedTables } from "./period-rows.js";

const ROBOTS_DISALLOWED_TABLES: CountedTables = { daily: "analytics_robots_disallowed", monthly: "analytics_monthly_robots_disallowed" };

/**
 * AI agents' compliance with robots.txt over whole UTC days (docs/analytics/robots.md): the verdicts
 * the rollup gave each view against the version in force at its time (rollup/robots-plan.ts), added
 * up. Cost: agents × versions × days, and disallowed (agent, page, version) rows × days for the
 * drill-down; never views.
 */

type Num = string | number;
const IN_RANGE = `($2::int IS NULL OR day >= $2) AND ($3::int IS NULL OR day < $3)`;

/** The verdicts' sums of rows of analytics_daily_robots (VERDICT_CODE in rollup/robots-plan.ts). */
const VERDICT_SUMS = `COALESCE(sum(views) FILTER (WHERE verdict = 1), 0) AS allowed, COALESCE(sum(views) FILTER (WHERE verdict = 2), 0) AS disallowed,
  COALESCE(sum(views) FILTER (WHERE verdict = 0), 0) AS unknown, COALESCE(sum(views) FILTER (WHERE verdict = 3), 0) AS robots_reads`;

type Counts = { allowed: Num; disallowed: Num; unknown: Num; robots_reads: Num };
const countsOf = (r: Counts) => ({ allowed: Number(r.allowed), disallowed: Number(r.disallowed), unknown: Number(r.unknown), robotsReads: Number(r.robots_reads) });

/** Each agent's verdicts over the range ($1 project, $2 and $3 days), as `agents`. */
const AGENTS_SQL = `agents AS MATERIALIZED (
    SELECT a.name, a.operator, a.category, c.allowed, c.disallowed, c.unknown, c.robots_reads FROM (
      SELECT agent_id, ${VERDICT_SUMS} FROM analytics_daily_robots WHERE project_id = $1 AND ${IN_RANGE} GROUP BY agent_id
    ) c JOIN analytics_agents a ON a.id = c.agent_id
  )`;
const AGENTS_ORDER = `disallowed DESC, name COLLATE "C"`;
const AGENT_SELECT = `name AS agent, operator, category, allowed, disallowed, unknown, robots_reads`;

type AgentRow = Counts & { agent: string; operator: string; category: string };
const agentOf = (r: AgentRow): RobotsCompliance["agents"][number] => ({ agent: r.agent, operator: r.operator, category: r.category as RobotsCompliance["agents"][number]["category"], ...countsOf(r) });

/** Per agent: views allowed, disallowed and unknown, and its reads of robots.txt; most disallowed first, with the totals. */
export async function robotsComplianceReport(db: Queryable, projectId: string, range: DayRange, page: Page): Promise<RobotsCompliance> {
  const rows = await db.query<AgentRow & { site: boolean }>(
    `WITH ${AGENTS_SQL}
     SELECT true AS site, 0::bigint AS rank, NULL AS agent, NULL AS operator, NULL AS category, COALESCE(sum(allowed), 0) AS allowed, COALESCE(sum(disallowed), 0) AS disallowed,
            COALESCE(sum(unknown), 0) AS unknown, COALESCE(sum(robots_reads), 0) AS robots_reads FROM agents
     UNION ALL
     (SELECT false, row_number() OVER (ORDER BY ${AGENTS_ORDER}), ${AGENT_SELECT} FROM agents ORDER BY ${AGENTS_ORDER} LIMIT $4 OFFSET $5)
     ORDER BY rank`,
    [projectId, range.from, range.to, page.limit + 1, page.offset],
  );
  const totals = rows.find((r) => r.site);
  const agents = rows.filter((r) => !r.site).map(agentOf);
  return {
    totals: totals ? countsOf(totals) : { allowed: 0, disallowed: 0, unknown: 0, robotsReads: 0 },
    agents: agents.slice(0, page.limit),
    hasMore: agents.length > page.limit,
  };
}

/** Every row of the compliance report, in its order (exports). */
export async function* robotsComplianceRows(db: Db, projectId: string, range: DayRange, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<RobotsCompliance["agents"][number]> {
  const sql = `WITH ${AGENTS_SQL} SELECT ${AGENT_SELECT} FROM agents ORDER BY ${AGENTS_ORDER}`;
  for await (const batch of queryInBatches<AgentRow>(db, sql, [projectId, range.from, range.to], batchRows)) yield* batch.map(agentOf);
}

/** One agent's verdicts over the range (zeros when it has none): the drill-down's summary, and whether it read robots.txt at all. */
export async function robotsAgentCompliance(db: Queryable, projectId: string, range: DayRange, agentId: number): Promise<RobotsCompliance["totals"]> {
  const [row] = await db.query<Counts>(`SELECT ${VERDICT_SUMS} FROM analytics_daily_robots WHERE project_id = $1 AND ${IN_RANGE} AND agent_id = $4`, [projectId, range.from, range.to, agentId]);
  return row ? countsOf(row) : { allowed: 0, disallowed: 0, unknown: 0, robotsReads: 0 };
}

/** The compliance report per operator: its agents' verdicts added up, most disallowed first. */
export async function robotsOperatorsReport(db: Queryable, projectId: string, range: DayRange, page: Page): Promise<RobotsOperators> {
  const rows = await db.query<Counts & { operator: string; agents: Num }>(
    `WITH ${AGENTS_SQL}
     SELECT operator, count(*) AS agents, sum(allowed) AS allowed, sum(disallowed) AS disallowed, sum(unknown) AS unknown, sum(robots_reads) AS robots_reads
     FROM agents GROUP BY operator ORDER BY disallowed DESC, operator COLLATE "C" LIMIT $4 OFFSET $5`,
    [projectId, range.from, range.to, page.limit + 1, page.offset],
  );
  const operators = rows.map((r) => ({ operator: r.operator, agents: Number(r.agents), ...countsOf(r) }));
  return { operators: operators.slice(0, page.limit), hasMore: operators.length > page.limit };
}

type DisallowedRow = { agent: string; operator: string; path: string; version_id: number; line: Num; effective_at: Date | string; views: Num; first_seen: Num; last_seen: Num };

/**
 * Disallowed views per agent (of agent $2 when given), page, version and rule over the range, most
 * first: whole months from the monthly rows, the other days from the daily ones (period-rows.ts).
 * A page's views are judged on the URLs fetched, so one page may have a row per rule.
 */
function disallowedQuery(projectId: string, range: DayRange, agentId: number | null, top?: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [projectId, agentId];
  const rows = periodRowsSql(ROBOTS_DISALLOWED_TABLES, "agent_id, path_id, version_id, line, views, first_seen, last_seen", "AND ($2::int IS NULL OR agent_id = $2)", { range }, binder(params));
  // A page of the report needs only the rows with as many views as its last one or more: ties at the
  // cut are kept, so the names that order them still decide, and only those are joined and sorted.
  const cut = top === undefined ? "" : `WHERE views >= COALESCE((SELECT views FROM d ORDER BY views DESC OFFSET ${binder(params)(top - 1, "int")} LIMIT 1), 0)`;
  const sql = `
  WITH d AS (
    SELECT agent_id, path_id, version_id, line, sum(views) AS views, min(first_seen) AS first_seen, max(last_seen) AS last_seen
    FROM (${rows}) r GROUP BY agent_id, path_id, version_id, line
  ),
  shown AS (SELECT * FROM d ${cut})
  SELECT a.name AS agent, a.operator, ap.path, d.version_id, d.line, v.effective_at, d.views, d.first_seen, d.last_seen
  FROM shown d JOIN analytics_agents a ON a.id = d.agent_id JOIN analytics_paths ap ON ap.id = d.path_id JOIN robots_versions v ON v.id = d.version_id
  ORDER BY d.views DESC, a.name COLLATE "C", ap.path COLLATE "C", d.version_id, d.line`;
  return { sql, params };
}

/** The disallowed pages with the rule that disallowed each (its line read from its version: only the rows shown are parsed). */
export async function robotsDisallowedReport(db: Queryable, projectId: string, range: DayRange, page: Page, agentId: number | null): Promise<RobotsDisallowed> {
  const { sql, params } = disallowedQuery(projectId, range, agentId, page.offset + page.limit + 1);
  const rows = await db.query<DisallowedRow>(`${sql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, page.limit + 1, page.offset]);
  const disallowed = await withRules(db, rows.slice(0, page.limit));
  return { disallowed, hasMore: rows.length > page.limit };
}

/** Every row of the disallowed report, in its order (exports). */
export async function* robotsDisallowedRows(db: Db, projectId: string, range: DayRange, agentId: number | null, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<RobotsDisallowed["disallowed"][number]> {
  const { sql, params } = disallowedQuery(projectId, range, agentId);
  for await (const batch of queryInBatches<DisallowedRow>(db, sql, params, batchRows)) yield* await withRules(db, batch);
}

async function withRules(db: Queryable, rows: readonly DisallowedRow[]): Promise<RobotsDisallowed["disallowed"]> {
  const bodies = await robotsBodies(db, [...new Set(rows.map((r) => Number(r.version_id)))]);
  const rules = new Map([...bodies].map(([id, body]) => [id, new RobotsRules(body)]));
  return rows.map((r) => {
    const version = rules.get(Number(r.version_id));
    const line = Number(r.line);
    // Rows counted before the line was kept (0): the page's own rule.
    const judgement = line > 0 ? { rule: version?.ruleAt(line) ?? null, line } : version?.judge(r.path, r.agent);
    return {
      agent: r.agent,
      operator: r.operator,
      path: r.path,
      versionId: Number(r.version_id),
      versionEffectiveAt: new Date(r.effective_at).toISOString(),
      rule: judgement?.rule ?? null,
      line: judgement?.line ?? null,
      views: Number(r.views),
      firstSeen: new Date(Number(r.first_seen)).toISOString(),
      lastSeen: new Date(Number(r.last_seen)).toISOString(),
    };
  });
}

type ChangeRow = { version_id: number; effective_at: Date | string; agent: string } & Counts & { [K in keyof Counts as `before_${K}`]: Num };

/**
 * Per version (latest first, paged), each agent's verdicts while it was in force beside its verdicts
 * under the version before (version 0: before any), both over the range: the before and after of a change.
 */
export async function robotsChangesReport(db: Queryable, projectId: string, range: DayRange, page: Page): Promise<RobotsChanges> {
  const rows = await db.query<ChangeRow>(
    `WITH counts AS (
       SELECT version_id, agent_id, ${VERDICT_SUMS} FROM analytics_daily_robots WHERE project_id = $1 AND ${IN_RANGE} GROUP BY version_id, agent_id
     ),
     versions AS (
       SELECT id, effective_at, lag(id, 1, 0) OVER (ORDER BY effective_at, id) AS previous_id FROM robots_versions WHERE project_id = $1
     ),
     paged AS (SELECT * FROM versions ORDER BY effective_at DESC, id DESC LIMIT $4 OFFSET $5)
     SELECT p.id AS version_id, p.effective_at, a.name AS agent,
            COALESCE(c.allowed, 0) AS allowed, COALESCE(c.disallowed, 0) AS disallowed, COALESCE(c.unknown, 0) AS unknown, COALESCE(c.robots_reads, 0) AS robots_reads,
            COALESCE(b.allowed, 0) AS before_allowed, COALESCE(b.disallowed, 0) AS before_disallowed, COALESCE(b.unknown, 0) AS before_unknown, COALESCE(b.robots_reads, 0) AS before_robots_reads
     FROM paged p
     JOIN LATERAL (SELECT DISTINCT agent_id FROM counts WHERE version_id IN (p.id, p.previous_id)) ag ON true
     JOIN analytics_agents a ON a.id = ag.agent_id
     LEFT JOIN counts c ON c.version_id = p.id AND c.agent_id = ag.agent_id
     LEFT JOIN counts b ON b.version_id = p.previous_id AND b.agent_id = ag.agent_id
     ORDER BY p.effective_at DESC, p.id DESC, a.name COLLATE "C"`,
    [projectId, range.from, range.to, page.limit + 1, page.offset],
  );
  const versions: RobotsChanges["versions"] = [];
  for (const r of rows) {
    const id = Number(r.version_id);
    let version = versions.at(-1);
    if (version?.versionId !== id) versions.push((version = { versionId: id, effectiveAt: new Date(r.effective_at).toISOString(), agents: [] }));
    const before = { allowed: r.before_allowed, disallowed: r.before_disallowed, unknown: r.before_unknown, robots_reads: r.before_robots_reads };
    version.agents.push({ agent: r.agent, ...countsOf(r), before: countsOf(before) });
  }
  const ids = await db.query<{ n: Num }>(`SELECT count(*) AS n FROM robots_versions WHERE project_id = $1`, [projectId]);
  return { versions: versions.slice(0, page.limit), hasMore: Number(ids[0]?.n ?? 0) > page.offset + page.limit };
}

/** The changes report's rows, one per version and agent (exports): the JSON's agents flattened, their before in `before_` columns. */
export type RobotsChangeRow = RobotsChanges["versions"][number]["agents"][number] & { versionId: number; effectiveAt: string };

export async function* robotsChangeRows(db: Db, projectId: string, range: DayRange): AsyncGenerator<RobotsChangeRow> {
  for (let offset = 0; ; offset += 100) {
    const report = await robotsChangesReport(db, projectId, range, { limit: 100, offset });
    for (const version of report.versions) for (const agent of version.agents) yield { versionId: version.versionId, effectiveAt: version.effectiveAt, ...agent };
    if (!report.hasMore) return;
  }
}

const COUNT_FIELDS = ["allowed", "disallowed", "unknown", "robotsReads"] as const;
export const ROBOTS_AGENT_COLUMNS: CsvColumns<RobotsCompliance["agents"][number]> = csvFields("agent", "operator", "category", ...COUNT_FIELDS);
export const ROBOTS_OPERATOR_COLUMNS: CsvColumns<RobotsOperators["operators"][number]> = csvFields("operator", "agents", ...COUNT_FIELDS);
export const ROBOTS_DISALLOWED_COLUMNS: CsvColumns<RobotsDisallowed["disallowed"][number]> = csvFields(
  "agent",
  "operator",
  "path",
  "versionId",
  "versionEffectiveAt",
  "rule",
  "line",
  "views",
  "firstSeen",
  "lastSeen",
);
export const ROBOTS_CHANGE_COLUMNS: CsvColumns<RobotsChangeRow> = [
  ...csvFields<RobotsChangeRow>("versionId", "effectiveAt", "agent", ...COUNT_FIELDS),
  ...COUNT_FIELDS.map((field) => [`before_${field}`, (row: RobotsChangeRow) => row.before[field]] as const),
];

/** Every row of the operators report (exports): operators are few, read a page at a time. */
export async function* robotsOperatorRows(db: Db, projectId: string, range: DayRange): AsyncGenerator<RobotsOperators["operators"][number]> {
  for (let offset = 0; ; offset += 250) {
    const report = await robotsOperatorsReport(db, projectId, range, { limit: 250, offset });
    yield* report.operators;
    if (!report.hasMore) return;
  }
}
