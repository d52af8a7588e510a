import type { Queryable } from "../../store/db.js";
import { recordset } from "../recordset.js";

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
  /** Per project, page path → id. */
  readonly #cache = new Map<string, Map<string, number>>();
  #cached = 0;

  constructor(private readonly db: Queryable) {}

  /** A lookup of the id of each of `paths` (repeats welcome). */
  async resolve(projectId: string, paths: Iterable<string>): Promise<(path: string) => number | undefined> {
    // This project's map, kept even if another batch starts the memory over meanwhile.
    const known = this.#cache.get(projectId) ?? new Map<string, number>();
    const missing = new Set<string>();
    for (const path of paths) if (!known.has(path)) missing.add(path);
    if (missing.size === 0) return (path) => known.get(path);
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
    if (this.#cached + found.length > MAX_CACHED) {
      this.#cache.clear();
      this.#cached = 0;
    }
    const project = this.#cache.get(projectId) ?? new Map<string, number>();
    this.#cache.set(projectId, project);
    const fresh = new Map<string, number>();
    for (const row of found) {
      fresh.set(row.path, row.id);
      if (!project.has(row.path)) this.#cached++;
      project.set(row.path, row.id);
    }
    return (path) => known.get(path) ?? fresh.get(path);
  }
}
