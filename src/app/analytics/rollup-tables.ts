import type { Queryable } from "../store/db.js";
import type { DailyReferrals } from "./rollup-group-plan.js";
import type { MonthlyFormatViews } from "./month-sums.js";
import type {
  AgentFirstVisits,
  AgentMask,
  AgentPageMonth,
  AgentReturns,
  ChunkAgentMasks,
  DailyAgentPages,
  DailyAgentViews,
  DailyFailures,
} from "./rollup-agent-plan.js";
import type {
  ChunkMasks,
  DailyCategoryViews,
  DailyFormatViews,
  DailyViews,
  FirstVisits,
  Returns,
  VisitorMask,
  WindowReach,
} from "./rollup-plan.js";

/**
 * The tables a rollup plan is written to: the per-visitor masks (mergeMasks), and the counters,
 * each written by one statement: a chunk's rows as one JSON parameter (see recordset.ts), upserted
 * on the table's key. The JSON holds only the table's fields (JSON.stringify's key list, which is
 * also faster than copying the rows).
 */

type SqlType = "text" | "smallint" | "int" | "bigint";
/** A field of the planned rows, the column it is stored in, and the type JSON is read as. */
type Column<Row> = readonly [field: keyof Row & string, column: string, type: SqlType];

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
  const set = values.map(([, column]) => `${column} = t.${column} ${combine} excluded.${column}`);
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

export const DAILY_REFERRALS = planTable<DailyReferrals>("analytics_daily_referrals", [PROJECT, DAY, ["sourceId", "source_id", "int"], PATH], [["views", "views", "bigint"]]);

const FORMAT = ["format", "format", "smallint"] as const;

export const FORMAT_VIEWS = planTable<DailyFormatViews>("analytics_daily_formats", [PROJECT, DAY, PATH, FORMAT], CLASS_VIEWS);

export const MONTHLY_FORMAT_VIEWS = planTable<MonthlyFormatViews>("analytics_monthly_formats", [PROJECT, ["monthStart", "month_start", "int"], FORMAT, PATH], CLASS_VIEWS);

export const AGENT_VIEWS = planTable<DailyAgentViews>(
  "analytics_daily_agents",
  [PROJECT, DAY, AGENT],
  [
    ["verified", "verified", "bigint"],
    ["spoofed", "spoofed", "bigint"],
    ["unverifiable", "unverifiable", "bigint"],
  ],
);

export const AGENT_PAGES = planTable<DailyAgentPages>(
  "analytics_daily_agent_pages",
  [PROJECT, DAY, AGENT, PATH],
  [
    ["views", "views", "bigint"],
    ["failed", "failed", "bigint"],
  ],
);

export const FAILURES = planTable<DailyFailures>(
  "analytics_daily_failures",
  [PROJECT, DAY, PATH, ["status", "status", "smallint"], AGENT],
  [["views", "views", "bigint"]],
);

export const AGENT_PAGE_MONTHS = planTable<AgentPageMonth>(
  "analytics_agent_page_months",
  [PROJECT, ["monthStart", "month_start", "int"], AGENT, PATH],
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

/** The same counters per format (the visitors report's `format` filter): the other formats' counts, and html's corrections to the site's (rollup-format-plan.ts). */
export const FORMAT_WINDOW_REACH = planTable<WindowReach>("analytics_format_window_reach", [PROJECT, WINDOW, FORMAT, PATH], REACH);

export const FORMAT_FIRST_VISITS = planTable<FirstVisits>("analytics_format_first_visits", [PROJECT, WINDOW, FORMAT, WINDOW_DAY, PATH], REACH);

export const FORMAT_RETURNS = planTable<Returns>("analytics_format_returns", [PROJECT, WINDOW, FORMAT, WINDOW_DAY, ["previousWindowDay", "prev", "int"], PATH], REACH);

const MASK_FIELDS = ["projectId", "windowStart", "pathId", "visitor", "human", "ai", "bot", "formats"] satisfies (keyof VisitorMask)[];

/**
 * ORs the chunk's masks into the stored ones, in one statement, and returns the stored masks as
 * they were before (keys without one are absent), which is what the counters are planned from.
 * All parts of the statement read the same snapshot, so `before` never sees the write; a mask
 * that gains no day is not rewritten. Masks are not ordered: a visitor's rows are all in one
 * partition, which one worker holds.
 */
export function mergeMasks(tx: Queryable, masks: ChunkMasks): Promise<VisitorMask[]> {
  if (masks.size === 0) return Promise.resolve([]);
  return tx.query<VisitorMask>(
    `WITH chunk AS (
       SELECT * FROM json_to_recordset($1::json) AS k ("projectId" text, "windowStart" int, "pathId" int, visitor bigint, human int, ai int, bot int, formats smallint)
     ), merged AS (
       INSERT INTO analytics_visitor_days AS t (project_id, window_start, path_id, visitor, human, ai, bot, formats)
       SELECT "projectId", "windowStart", "pathId", visitor, human, ai, bot, formats FROM chunk
       ON CONFLICT (project_id, window_start, path_id, visitor)
       DO UPDATE SET human = t.human | excluded.human, ai = t.ai | excluded.ai, bot = t.bot | excluded.bot, formats = t.formats | excluded.formats
       WHERE t.human | excluded.human <> t.human OR t.ai | excluded.ai <> t.ai OR t.bot | excluded.bot <> t.bot OR t.formats | excluded.formats <> t.formats
     )
     SELECT d.project_id AS "projectId", d.window_start AS "windowStart", d.path_id AS "pathId", d.visitor::text AS visitor, d.human, d.ai, d.bot, d.formats
     FROM chunk k JOIN analytics_visitor_days d ON d.project_id = k."projectId" AND d.window_start = k."windowStart" AND d.path_id = k."pathId" AND d.visitor = k.visitor`,
    [JSON.stringify([...masks.values()], MASK_FIELDS)],
  );
}

const SITE_KEY_FIELDS = ["projectId", "windowStart", "pathId", "visitor"] satisfies (keyof VisitorMask)[];

/** The stored format masks of these (page, visitor) pairs (those that read another format than html before). */
export function storedFormatMasks(tx: Queryable, pairs: readonly VisitorMask[]): Promise<VisitorMask[]> {
  if (pairs.length === 0) return Promise.resolve([]);
  return tx.query<VisitorMask>(
    `SELECT d.project_id AS "projectId", d.window_start AS "windowStart", d.format, d.path_id AS "pathId", d.visitor::text AS visitor, d.human, d.ai, d.bot
     FROM json_to_recordset($1::json) AS k ("projectId" text, "windowStart" int, "pathId" int, visitor bigint)
     JOIN analytics_format_visitor_days d ON d.project_id = k."projectId" AND d.window_start = k."windowStart" AND d.path_id = k."pathId" AND d.visitor = k.visitor`,
    [JSON.stringify(pairs, SITE_KEY_FIELDS)],
  );
}

const FORMAT_MASK_FIELDS = ["projectId", "windowStart", "pathId", "visitor", "format", "human", "ai", "bot"] satisfies (keyof VisitorMask)[];

/** ORs format masks into the stored ones (planFormats' writes). */
export async function writeFormatMasks(tx: Queryable, masks: readonly VisitorMask[]): Promise<void> {
  if (masks.length === 0) return;
  await tx.query(
    `INSERT INTO analytics_format_visitor_days AS t (project_id, window_start, path_id, visitor, format, human, ai, bot)
     SELECT "projectId", "windowStart", "pathId", visitor, format, human, ai, bot
     FROM json_to_recordset($1::json) AS k ("projectId" text, "windowStart" int, "pathId" int, visitor bigint, format smallint, human int, ai int, bot int)
     ON CONFLICT (project_id, window_start, path_id, visitor, format)
     DO UPDATE SET human = t.human | excluded.human, ai = t.ai | excluded.ai, bot = t.bot | excluded.bot
     WHERE t.human | excluded.human <> t.human OR t.ai | excluded.ai <> t.ai OR t.bot | excluded.bot <> t.bot`,
    [JSON.stringify(masks, FORMAT_MASK_FIELDS)],
  );
}

const AGENT_MASK_FIELDS = ["projectId", "windowStart", "agentId", "pathId", "visitor", "days"] satisfies (keyof AgentMask)[];

/** mergeMasks for the agents' masks (one statement; returns the stored masks as they were). */
export function mergeAgentMasks(tx: Queryable, masks: ChunkAgentMasks): Promise<AgentMask[]> {
  if (masks.size === 0) return Promise.resolve([]);
  return tx.query<AgentMask>(
    `WITH chunk AS (
       SELECT * FROM json_to_recordset($1::json) AS k ("projectId" text, "windowStart" int, "agentId" int, "pathId" int, visitor bigint, days int)
     ), merged AS (
       INSERT INTO analytics_agent_visitor_days AS t (project_id, window_start, agent_id, path_id, visitor, days)
       SELECT "projectId", "windowStart", "agentId", "pathId", visitor, days FROM chunk
       ON CONFLICT (project_id, window_start, agent_id, path_id, visitor)
       DO UPDATE SET days = t.days | excluded.days WHERE t.days | excluded.days <> t.days
     )
     SELECT d.project_id AS "projectId", d.window_start AS "windowStart", d.agent_id AS "agentId", d.path_id AS "pathId", d.visitor::text AS visitor, d.days
     FROM chunk k JOIN analytics_agent_visitor_days d
       ON d.project_id = k."projectId" AND d.window_start = k."windowStart" AND d.agent_id = k."agentId" AND d.path_id = k."pathId" AND d.visitor = k.visitor`,
    [JSON.stringify([...masks.values()], AGENT_MASK_FIELDS)],
  );
}
