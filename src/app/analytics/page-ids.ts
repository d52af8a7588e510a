import type { Queryable } from "../store/db.js";
import { recordset } from "./recordset.js";

/** Page ids remembered per process (a large site's pages, times a few projects); past it the memory starts over. */
const MAX_CACHED = 200_000;

/**
 * The integer id of every (project, page path) pair, which the inbox and all aggregates store
 * instead of the path. Resolved when views are accepted, each new page committed on its own at
 * once: many rollup workers meeting the same new page inside their long transactions used to
 * wait for each other's commits. A page row nothing counts yet is harmless (reports start from
 * the counters).
 */
export class PageIds {
  readonly #cache = new Map<string, number>();

  constructor(private readonly db: Queryable) {}

  /** The id of each of `paths` (deduplicated or not), in a map by path. */
  async resolve(projectId: string, paths: Iterable<string>): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const missing = new Set<string>();
    for (const path of paths) {
      if (ids.has(path)) continue;
      const cached = this.#cache.get(`${projectId}\n${path}`);
      if (cached !== undefined) ids.set(path, cached);
      else missing.add(path);
    }
    if (missing.size === 0) return ids;
    // In one order: two batches inserting the same new pages must not deadlock.
    const wanted = recordset([...missing].sort().map((path) => ({ path })));
    await this.db.query(
      `INSERT INTO analytics_paths (project_id, path) SELECT $1, r.path FROM json_to_recordset($2::json) AS r (path text) ON CONFLICT DO NOTHING`,
      [projectId, wanted],
    );
    const found = await this.db.query<{ id: number; path: string }>(
      `SELECT ap.id, ap.path FROM json_to_recordset($2::json) AS r (path text) JOIN analytics_paths ap ON ap.project_id = $1 AND ap.path = r.path`,
      [projectId, wanted],
    );
    if (this.#cache.size + found.length > MAX_CACHED) this.#cache.clear();
    for (const row of found) {
      ids.set(row.path, row.id);
      this.#cache.set(`${projectId}\n${row.path}`, row.id);
    }
    return ids;
  }
}
