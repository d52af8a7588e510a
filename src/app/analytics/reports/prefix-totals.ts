import type { Queryable } from "../../store/db.js";
import { prefixPathId } from "../rollup/page-sections.js";
import { counts } from "./report-rows.js";
import { visitorsPerInterval, type BoundedRange } from "./timeseries.js";

export interface PrefixTotals {
  human: number;
  ai: number;
  bot: number;
  total: number;
}

/**
 * The distinct visitors of a path prefix (`/docs`, `/docs/guides`: the page and every page under
 * it) over a bounded range, exact: its section's reach counters read over the whole range as one
 * interval, as the time series reads each of its intervals (timeseries.ts, page-sections.ts).
 * Distinct visitors do not add up across days or pages, so this is never a sum of the series or
 * of the pages table. Zeros when no view ever reached the prefix.
 */
export async function prefixTotals(db: Queryable, projectId: string, range: BoundedRange, pathPrefix: string): Promise<PrefixTotals> {
  const pathId = await prefixPathId(db, projectId, pathPrefix);
  const [row] = range.from < range.to ? await visitorsPerInterval(db, projectId, [range], pathId) : [];
  return counts(row);
}
