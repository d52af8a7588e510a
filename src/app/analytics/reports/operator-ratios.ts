import type { Queryable } from "../../store/db.js";
import { csvFields, type CsvColumns } from "../../http-kit/csv.js";
import type { DayRange } from "../../../shared/epoch-days.js";
import { AI_OPERATOR_OF_AGENT } from "../classify/ai-operators.generated.js";
import { operatorName } from "../classify/operator-names.js";
import { aiOperatorOfSource } from "../ingest/referral.js";
import { IS_SOURCE_GROUP, OPERATOR_GROUP_PREFIX, SOURCE_GROUP_PREFIX } from "../rollup/referral-groups.js";
import { binder, periodRowsSql, REFERRAL_TABLES } from "./period-rows.js";
import { partParams, visitorsPerPathSql, windowParts } from "./reach-sql.js";

type Num = number | string;

/** One AI operator's crawling set against the people its answers sent (docs/analytics/reports.md, "Crawl-to-referral ratio per AI operator"). */
export interface OperatorRatio {
  /** The operator's key (its company list in ai-operators.generated.ts, or a registrable domain). */
  operator: string;
  name: string;
  /** Views by its AI crawlers and by its AI search bots (verified or unverifiable; failed fetches included: it asked). */
  crawlerViews: number;
  searchViews: number;
  /** Distinct people who arrived from its AI answers. */
  people: number;
  /** Their views that arrived from those answers. */
  arrivals: number;
  /** (crawler + search views) per person; null when no one arrived. */
  crawlsPerPerson: number | null;
}

/**
 * The crawl-to-referral ratio per AI operator over whole UTC days: its crawlers' and search bots'
 * views (the agents' daily counters) against the distinct people who arrived from its answer
 * engines (the `@operator/…` referral groups' reach counters, counted at ingest since this
 * report exists) and their arrivals (the sources' views, reclassified by the current list). Cost:
 * agents × days, operators' groups × days and AI sources × days, never views. Most crawled first.
 */
export async function operatorRatios(db: Queryable, projectId: string, range: DayRange): Promise<OperatorRatio[]> {
  const params: unknown[] = [projectId];
  const bind = binder(params);
  const [crawls, sources, people] = await Promise.all([
    db.query<{ name: string; category: string; views: Num }>(
      `SELECT a.name, a.category, sum(d.verified + d.unverifiable) AS views FROM analytics_daily_agents d JOIN analytics_agents a ON a.id = d.agent_id
       WHERE d.project_id = $1 AND ($2::int IS NULL OR d.day >= $2) AND ($3::int IS NULL OR d.day < $3) AND a.category IN ('crawler', 'search')
       GROUP BY a.name, a.category`,
      [projectId, range.from, range.to],
    ),
    db.query<{ source: string; views: Num }>(
      `WITH viewed AS (SELECT source_id, sum(views) AS views FROM (${periodRowsSql(REFERRAL_TABLES, "source_id, views", "", { range }, bind)}) r GROUP BY source_id)
       SELECT substr(p.path, ${SOURCE_GROUP_PREFIX.length + 1}) AS source, v.views FROM viewed v JOIN analytics_paths p ON p.id = v.source_id AND p.project_id = $1 AND ${IS_SOURCE_GROUP}`,
      params,
    ),
    operatorPeople(db, projectId, range),
  ]);
  const byOperator = new Map<string, OperatorRatio>();
  const entry = (operator: string, name?: string) => {
    let found = byOperator.get(operator);
    if (!found) {
      found = { operator, name: operatorName(operator) ?? name ?? operator, crawlerViews: 0, searchViews: 0, people: 0, arrivals: 0, crawlsPerPerson: null };
      byOperator.set(operator, found);
    }
    return found;
  };
  for (const row of crawls) {
    const known = AI_OPERATOR_OF_AGENT.get(row.name);
    // An agent no list places (a name made from its User-Agent) stands for itself.
    const numbers = entry(known ?? `agent:${row.name}`, known ? undefined : row.name);
    if (row.category === "crawler") numbers.crawlerViews += Number(row.views);
    else numbers.searchViews += Number(row.views);
  }
  for (const row of sources) {
    const operator = aiOperatorOfSource(row.source);
    if (operator) entry(operator).arrivals += Number(row.views);
  }
  for (const [operator, count] of people) entry(operator).people = count;
  const ratios = [...byOperator.values()].map((o) => ({ ...o, crawlsPerPerson: o.people === 0 ? null : Math.round(((o.crawlerViews + o.searchViews) / o.people) * 100) / 100 }));
  return ratios
    .filter((o) => o.crawlerViews + o.searchViews + o.people + o.arrivals > 0)
    .sort((a, b) => b.crawlerViews + b.searchViews - (a.crawlerViews + a.searchViews) || b.people - a.people || (a.operator < b.operator ? -1 : 1));
}

/** Distinct people per operator: its group's human reach over the range. */
async function operatorPeople(db: Queryable, projectId: string, range: DayRange): Promise<Map<string, number>> {
  const parts = await windowParts(db, projectId, range);
  if (parts.length === 0) return new Map();
  const groups = `SELECT id FROM analytics_paths WHERE project_id = $1 AND left(path, ${OPERATOR_GROUP_PREFIX.length}) = '${OPERATOR_GROUP_PREFIX}'`;
  const rows = await db.query<{ operator: string; human: Num }>(
    `WITH ${visitorsPerPathSql(undefined, groups)}
     SELECT substr(p.path, ${OPERATOR_GROUP_PREFIX.length + 1}) AS operator, pp.human FROM per_path pp JOIN analytics_paths p ON p.id = pp.path_id WHERE pp.path_id <> 0`,
    partParams(projectId, parts),
  );
  return new Map(rows.map((row) => [row.operator, Number(row.human)]));
}

/** The CSV columns of the operator ratios. */
export const OPERATOR_COLUMNS: CsvColumns<OperatorRatio> = csvFields("operator", "name", "crawlerViews", "searchViews", "people", "arrivals", "crawlsPerPerson");
