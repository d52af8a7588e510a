import type { Queryable } from "../../store/db.js";
import type { DailyReferrals, DailyScopeViews } from "./group-plan.js";
import type { Monthly } from "./month-sums.js";
import type { AgentFirstVisits, AgentPageMonth, AgentReturns } from "./agent-plan.js";
import type { DailyAgentPages, DailyAgentViews, DailyFailures } from "./agent-rows.js";
import type { DailyRobotsViews, RobotsDisallowedViews } from "./robots-rows.js";
import type { DailyCategoryViews, DailyFormatViews, DailyViews, FirstVisits, Returns, WindowReach } from "./plan-types.js";

/**
 * The counter tables a rollup plan is written to (the per-visitor masks are in
 * visitor-states.ts), each written by one statement: a chunk's rows as one JSON parameter (see recordset.ts), upserted
 * on the table's key. The JSON holds only the table's fields (JSON.stringify's key list, which is
 * also faster than copying the rows).
 */

type SqlType = "text" | "smallint" | "int" | "bigint";
type Combine = "+" | "|" | "least" | "greatest";
/** A field of the planned rows, the column it is stored in, the type JSON is read as, and (a value's) how it combines with the stored one when not the table's. */
type Column<Row> = readonly [field: keyof Row & string, column: string, type: SqlType, combine?: Combine];

export interface PlanTable<Row> {
  /** The rows' fields this table stores (typed by them, so that only its rows can be written to it). */
  readonly fields: (keyof Row & string)[];
  /** The fields of its key, in key order. */
  readonly keyFields: (keyof Row & string)[];
  readonly upsert: string;
}

/**
 * A counter table: a row is a delta, added to the stored counters (or inserted when there are
 * none); or, with `|`, a table of day masks a row widens.
 */
function planTable<Row>(table: string, key: readonly Column<Row>[], values: readonly Column<Row>[], combine: "+" | "|" = "+"): PlanTable<Row> {
  const columns = [...key, ...values];
  const set = values.map(([, column, , own = combine]) =>
    own === "least" || own === "greatest" ? `${column} = ${own}(t.${column}, excluded.${column})` : `${column} = t.${column} ${own} excluded.${column}`,
  );
  return {
    fields: columns.map(([field]) => field),
    keyFields: key.map(([field]) => field),
    upsert: `INSERT INTO ${table} AS t (${columns.map(([, column]) => column).join(", ")})
     SELECT ${columns.map(([field]) => `r."${field}"`).join(", ")}
     FROM json_to_recordset($1::json) AS r (${columns.map(([field, , type]) => `"${field}" ${type}`).join(", ")})
     ON CONFLICT (${key.map(([, column]) => column).join(", ")}) DO UPDATE SET ${set.join(", ")}`,
  };
}

/**
 * Writes `rows` to `table` in one statement, in key order; none when there are no rows. Rollup
 * partitions update shared counters (a page's day, the site row) concurrently: taking row locks in
 * one global order (table by table, key by key) is what keeps them from deadlocking.
 */
export async function upsertRows<Row extends object>(tx: Queryable, table: PlanTable<Row>, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  const ordered = [...rows].sort((a, b) => compareKeys(a, b, table.keyFields));
  await tx.query(table.upsert, [JSON.stringify(ordered, table.fields)]);
}

function compareKeys<Row>(a: Row, b: Row, fields: readonly (keyof Row)[]): number {
  for (const field of fields) {
    const x = a[field];
    const y = b[field];
    // Any total order will do, as long as every transaction uses the same one.
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

const PROJECT = ["projectId", "project_id", "text"] as const;
const WINDOW = ["windowStart", "window_start", "int"] as const;
const PATH = ["pathId", "path_id", "int"] as const;
const DAY = ["day", "day", "int"] as const;
const WINDOW_DAY = ["windowDay", "day", "int"] as const;
const REACH = [
  ["human", "human", "int"],
  ["ai", "ai", "int"],
  ["bot", "bot", "int"],
  ["total", "total", "int"],
] as const;
const AGENT = ["agentId", "agent_id", "int"] as const;
const CLASS_VIEWS = [
  ["human", "human", "bigint"],
  ["ai", "ai", "bigint"],
  ["bot", "bot", "bigint"],
] as const;

export const DAILY_VIEWS = planTable<DailyViews>("analytics_daily_views", [PROJECT, DAY, PATH], CLASS_VIEWS);

const MONTH = ["monthStart", "month_start", "int"] as const;
const SOURCE = ["sourceId", "source_id", "int"] as const;

export const DAILY_REFERRALS = planTable<DailyReferrals>("analytics_daily_referrals", [PROJECT, DAY, SOURCE, PATH], [["views", "views", "bigint"]]);

export const DAILY_SCOPE_VIEWS = planTable<DailyScopeViews>("analytics_daily_scope_views", [PROJECT, ["scopeId", "scope_id", "int"], SOURCE, DAY], CLASS_VIEWS);

export const MONTHLY_REFERRALS = planTable<Monthly<DailyReferrals>>("analytics_monthly_referrals", [PROJECT, MONTH, SOURCE, PATH], [["views", "views", "bigint"]]);

const FORMAT = ["format", "format", "smallint"] as const;

export const FORMAT_VIEWS = planTable<DailyFormatViews>("analytics_daily_formats", [PROJECT, DAY, PATH, FORMAT], CLASS_VIEWS);

/** The site's views per day and format: what a few pages' Markdown reads are set against (reports/page-impact.ts), without summing every page's rows. */
export const SITE_FORMAT_VIEWS = planTable<Omit<DailyFormatViews, "pathId">>("analytics_daily_site_formats", [PROJECT, DAY, FORMAT], CLASS_VIEWS);

export const MONTHLY_VIEWS = planTable<Monthly<DailyViews>>("analytics_monthly_views", [PROJECT, MONTH, PATH], CLASS_VIEWS);

export const MONTHLY_FORMAT_VIEWS = planTable<Monthly<DailyFormatViews>>("analytics_monthly_formats", [PROJECT, MONTH, FORMAT, PATH], CLASS_VIEWS);

export const AGENT_VIEWS = planTable<DailyAgentViews>(
  "analytics_daily_agents",
  [PROJECT, DAY, AGENT],
  [
    ["verified", "verified", "bigint"],
    ["spoofed", "spoofed", "bigint"],
    ["unverifiable", "unverifiable", "bigint"],
  ],
);

const AGENT_PAGE_COUNTS = [
  ["views", "views", "bigint"],
  ["failed", "failed", "bigint"],
  ["verified", "verified", "bigint"],
  ["spoofed", "spoofed", "bigint"],
] as const;

export const AGENT_PAGES = planTable<DailyAgentPages>("analytics_daily_agent_pages", [PROJECT, DAY, AGENT, PATH], AGENT_PAGE_COUNTS);

export const MONTHLY_AGENT_PAGES = planTable<Monthly<DailyAgentPages>>("analytics_monthly_agent_pages", [PROJECT, MONTH, AGENT, PATH], AGENT_PAGE_COUNTS);

export const FAILURES = planTable<DailyFailures>(
  "analytics_daily_failures",
  [PROJECT, DAY, PATH, ["status", "status", "smallint"], AGENT],
  [["views", "views", "bigint"]],
);

export const AGENT_PAGE_MONTHS = planTable<AgentPageMonth>(
  "analytics_agent_page_months",
  [PROJECT, MONTH, AGENT, PATH],
  [["days", "days", "int"]],
  "|",
);

const AGENT_VISITORS = [["visitors", "visitors", "int"]] as const;

export const AGENT_FIRST_VISITS = planTable<AgentFirstVisits>("analytics_agent_first_visits", [PROJECT, WINDOW, AGENT, WINDOW_DAY, PATH], AGENT_VISITORS);

export const AGENT_RETURNS = planTable<AgentReturns>(
  "analytics_agent_returns",
  [PROJECT, WINDOW, AGENT, WINDOW_DAY, ["previousWindowDay", "prev", "int"], PATH],
  AGENT_VISITORS,
);

export const CATEGORY_VIEWS = planTable<DailyCategoryViews>(
  "analytics_daily_categories",
  [PROJECT, DAY, ["trafficClass", "class", "smallint"], ["category", "category", "text"]],
  [["views", "views", "bigint"]],
);

export const WINDOW_REACH = planTable<WindowReach>("analytics_window_reach", [PROJECT, WINDOW, PATH], REACH);

export const FIRST_VISITS = planTable<FirstVisits>("analytics_first_visits", [PROJECT, WINDOW, WINDOW_DAY, PATH], REACH);

export const RETURNS = planTable<Returns>("analytics_returns", [PROJECT, WINDOW, WINDOW_DAY, ["previousWindowDay", "prev", "int"], PATH], REACH);

/** The same counters per format (the visitors report's `format` filter): the other formats' counts, and html's corrections to the site's (rollup/format-plan.ts). */
export const FORMAT_WINDOW_REACH = planTable<WindowReach>("analytics_format_window_reach", [PROJECT, WINDOW, FORMAT, PATH], REACH);

export const FORMAT_FIRST_VISITS = planTable<FirstVisits>("analytics_format_first_visits", [PROJECT, WINDOW, FORMAT, WINDOW_DAY, PATH], REACH);

export const FORMAT_RETURNS = planTable<Returns>("analytics_format_returns", [PROJECT, WINDOW, FORMAT, WINDOW_DAY, ["previousWindowDay", "prev", "int"], PATH], REACH);

/** AI agents' views per day, version of robots.txt in force and verdict (rollup/robots-plan.ts). */
export const DAILY_ROBOTS = planTable<DailyRobotsViews>(
  "analytics_daily_robots",
  [PROJECT, DAY, AGENT, ["versionId", "version_id", "int"], ["verdict", "verdict", "smallint"]],
  [["views", "views", "bigint"]],
);

const SEEN = [
  ["views", "views", "bigint"],
  ["firstSeen", "first_seen", "bigint", "least"],
  ["lastSeen", "last_seen", "bigint", "greatest"],
] as const;

/** The disallowed views per page, version and rule (its line), with when they were first and last seen. */
export const ROBOTS_DISALLOWED = planTable<RobotsDisallowedViews>("analytics_robots_disallowed", [PROJECT, DAY, AGENT, PATH, ["versionId", "version_id", "int"], ["line", "line", "int"]], SEEN);

/** The same per calendar month. */
export const MONTHLY_ROBOTS_DISALLOWED = planTable<Monthly<RobotsDisallowedViews>>(
  "analytics_monthly_robots_disallowed",
  [PROJECT, MONTH, AGENT, PATH, ["versionId", "version_id", "int"], ["line", "line", "int"]],
  SEEN,
);
