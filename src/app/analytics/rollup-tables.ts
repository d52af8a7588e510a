import type { Queryable } from "../store/db.js";
import type { ChunkMasks, DailyCategoryViews, DailyViews, FirstVisits, Returns, VisitorMask, WindowReach } from "./rollup-plan.js";

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

/** A counter table: a row is a delta, added to the stored counters (or inserted when there are none). */
function planTable<Row>(table: string, key: readonly Column<Row>[], values: readonly Column<Row>[]): PlanTable<Row> {
  const columns = [...key, ...values];
  const set = values.map(([, column]) => `${column} = t.${column} + excluded.${column}`);
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
  ["total", "total", "int"],
] as const;

export const DAILY_VIEWS = planTable<DailyViews>(
  "analytics_daily_views",
  [PROJECT, DAY, PATH],
  [
    ["human", "human", "bigint"],
    ["ai", "ai", "bigint"],
    ["bot", "bot", "bigint"],
  ],
);

export const CATEGORY_VIEWS = planTable<DailyCategoryViews>(
  "analytics_daily_categories",
  [PROJECT, DAY, ["trafficClass", "class", "smallint"], ["category", "category", "text"]],
  [["views", "views", "bigint"]],
);

export const WINDOW_REACH = planTable<WindowReach>("analytics_window_reach", [PROJECT, WINDOW, PATH], REACH);

export const FIRST_VISITS = planTable<FirstVisits>("analytics_first_visits", [PROJECT, WINDOW, WINDOW_DAY, PATH], REACH);

export const RETURNS = planTable<Returns>(
  "analytics_returns",
  [PROJECT, WINDOW, WINDOW_DAY, ["previousWindowDay", "prev", "int"], PATH],
  REACH,
);

const MASK_FIELDS = ["projectId", "windowStart", "pathId", "visitor", "human", "ai"] satisfies (keyof VisitorMask)[];

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
       SELECT * FROM json_to_recordset($1::json) AS k ("projectId" text, "windowStart" int, "pathId" int, visitor bigint, human int, ai int)
     ), merged AS (
       INSERT INTO analytics_visitor_days AS t (project_id, window_start, path_id, visitor, human, ai)
       SELECT "projectId", "windowStart", "pathId", visitor, human, ai FROM chunk
       ON CONFLICT (project_id, window_start, path_id, visitor)
       DO UPDATE SET human = t.human | excluded.human, ai = t.ai | excluded.ai
       WHERE t.human | excluded.human <> t.human OR t.ai | excluded.ai <> t.ai
     )
     SELECT d.project_id AS "projectId", d.window_start AS "windowStart", d.path_id AS "pathId", d.visitor::text AS visitor, d.human, d.ai
     FROM chunk k JOIN analytics_visitor_days d ON d.project_id = k."projectId" AND d.window_start = k."windowStart" AND d.path_id = k."pathId" AND d.visitor = k.visitor`,
    [JSON.stringify([...masks.values()], MASK_FIELDS)],
  );
}
