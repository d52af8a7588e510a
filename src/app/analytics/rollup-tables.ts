import type { Queryable } from "../store/db.js";
import type { ChunkMasks, DailyCategoryViews, DailyViews, FirstVisits, Returns, VisitorMask, WindowReach } from "./rollup-plan.js";

/**
 * The tables a rollup plan is written to, and the one statement that writes any of them: a chunk's
 * rows as one JSON parameter (see recordset.ts), upserted on the table's key. The JSON holds only
 * the table's fields (JSON.stringify's key list, which is also faster than copying the rows).
 */

type SqlType = "text" | "smallint" | "int" | "bigint";
/** A field of the planned rows, the column it is stored in, and the type JSON is read as. */
type Column<Row> = readonly [field: keyof Row & string, column: string, type: SqlType];

export interface PlanTable<Row> {
  /** The rows' fields this table stores (typed by them, so that only its rows can be written to it). */
  readonly fields: (keyof Row & string)[];
  /** The fields of its key, in key order; null for a table whose rows only one partition writes (no need to order them). */
  readonly keyFields: (keyof Row & string)[] | null;
  readonly upsert: string;
}

/**
 * `add`: a row is a delta, added to the stored counters (or inserted when there are none);
 * `replace`: a row is the new value.
 */
function planTable<Row>(
  table: string,
  key: readonly Column<Row>[],
  values: readonly Column<Row>[],
  merge: "add" | "replace",
  writers: "partitions share it" | "one partition per row" = "partitions share it",
): PlanTable<Row> {
  const columns = [...key, ...values];
  const set = values.map(([, column]) => (merge === "add" ? `${column} = t.${column} + excluded.${column}` : `${column} = excluded.${column}`));
  return {
    fields: columns.map(([field]) => field),
    keyFields: writers === "partitions share it" ? key.map(([field]) => field) : null,
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
  const { keyFields } = table;
  const ordered = keyFields ? [...rows].sort((a, b) => compareKeys(a, b, keyFields)) : rows;
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
const MASK_KEY = [PROJECT, WINDOW, PATH, ["visitor", "visitor", "bigint"]] as const;
const REACH = [
  ["human", "human", "int"],
  ["ai", "ai", "int"],
  ["total", "total", "int"],
] as const;

export const VISITOR_MASKS = planTable<VisitorMask>(
  "analytics_visitor_days",
  MASK_KEY,
  [
    ["human", "human", "int"],
    ["ai", "ai", "int"],
  ],
  "replace",
  // Keyed by visitor, and a visitor's rows are all in one partition.
  "one partition per row",
);

export const DAILY_VIEWS = planTable<DailyViews>(
  "analytics_daily_views",
  [PROJECT, DAY, PATH],
  [
    ["human", "human", "bigint"],
    ["ai", "ai", "bigint"],
    ["bot", "bot", "bigint"],
  ],
  "add",
);

export const CATEGORY_VIEWS = planTable<DailyCategoryViews>(
  "analytics_daily_categories",
  [PROJECT, DAY, ["trafficClass", "class", "smallint"], ["category", "category", "text"]],
  [["views", "views", "bigint"]],
  "add",
);

export const WINDOW_REACH = planTable<WindowReach>("analytics_window_reach", [PROJECT, WINDOW, PATH], REACH, "add");

export const FIRST_VISITS = planTable<FirstVisits>("analytics_first_visits", [PROJECT, WINDOW, WINDOW_DAY, PATH], REACH, "add");

export const RETURNS = planTable<Returns>(
  "analytics_returns",
  [PROJECT, WINDOW, WINDOW_DAY, ["previousWindowDay", "prev", "int"], PATH],
  REACH,
  "add",
);

const MASK_KEY_FIELDS = MASK_KEY.map(([field]) => field);

/** The stored masks of the keys of `masks` (keys without one are absent). */
export function readStoredMasks(tx: Queryable, masks: ChunkMasks): Promise<VisitorMask[]> {
  if (masks.size === 0) return Promise.resolve([]);
  return tx.query<VisitorMask>(
    `SELECT d.project_id AS "projectId", d.window_start AS "windowStart", d.path_id AS "pathId", d.visitor::text AS visitor, d.human, d.ai
     FROM json_to_recordset($1::json) AS k ("projectId" text, "windowStart" int, "pathId" int, visitor bigint)
     JOIN analytics_visitor_days d ON d.project_id = k."projectId" AND d.window_start = k."windowStart" AND d.path_id = k."pathId" AND d.visitor = k.visitor`,
    [JSON.stringify([...masks.values()], MASK_KEY_FIELDS)],
  );
}
