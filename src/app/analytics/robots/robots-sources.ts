import type { RobotsSource } from "../../../shared/robots-schemas.js";
import type { Db, Queryable } from "../../store/db.js";
import { ConflictError } from "../../domain/errors.js";
import { fetchRobotsTxt, type RobotsFetchOptions } from "./robots-fetch.js";
import { addRobotsVersion } from "./robots-versions.js";

/**
 * Fetching the site's robots.txt on a schedule (a project's setting): a changed body is a new
 * version taking effect at the fetch's time, the same body changes nothing, and every fetch is
 * recorded with its outcome, failures included (they never stop the schedule).
 */

/** Sets (or replaces) where and how often the project's robots.txt is fetched; the first fetch is due at once. */
export async function setRobotsSource(db: Queryable, projectId: string, source: { url: string; everyMinutes: number }, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO robots_sources (project_id, url, every_minutes, next_fetch_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id) DO UPDATE SET url = excluded.url, every_minutes = excluded.every_minutes, next_fetch_at = excluded.next_fetch_at`,
    [projectId, source.url, source.everyMinutes, now.toISOString()],
  );
}

export async function removeRobotsSource(db: Queryable, projectId: string): Promise<void> {
  await db.query(`DELETE FROM robots_sources WHERE project_id = $1`, [projectId]);
}

/** The project's fetch setting and its latest fetches. */
export async function robotsSourceReport(db: Queryable, projectId: string, recent = 20): Promise<RobotsSource> {
  const [source] = await db.query<{ url: string; every_minutes: number; next_fetch_at: Date | string }>(
    `SELECT url, every_minutes, next_fetch_at FROM robots_sources WHERE project_id = $1`,
    [projectId],
  );
  const fetches = await db.query<{ fetched_at: Date | string; url: string; outcome: RobotsSource["fetches"][number]["outcome"]; status: number | null; error: string | null; version_id: number | null }>(
    `SELECT fetched_at, url, outcome, status, error, version_id FROM robots_fetches WHERE project_id = $1 ORDER BY fetched_at DESC, id DESC LIMIT $2`,
    [projectId, recent],
  );
  return {
    source: source ? { url: source.url, everyMinutes: Number(source.every_minutes), nextFetchAt: new Date(source.next_fetch_at).toISOString() } : null,
    fetches: fetches.map((f) => ({
      fetchedAt: new Date(f.fetched_at).toISOString(),
      url: f.url,
      outcome: f.outcome,
      status: f.status === null ? null : Number(f.status),
      error: f.error,
      versionId: f.version_id === null ? null : Number(f.version_id),
    })),
  };
}

export interface RobotsSchedule extends Omit<RobotsFetchOptions, "maxBytes"> {
  /** The clock (tests inject one). */
  now: () => Date;
  /** Sources fetched per pass at most. */
  batch?: number;
}

/**
 * Fetches every source that is due, each claimed first by moving its next fetch on (so another
 * instance, or the next pass, does not fetch it too, and a fetch that hangs does not block the
 * others' schedule). Returns how many were fetched.
 */
export async function fetchDueRobots(db: Db, schedule: RobotsSchedule): Promise<number> {
  const started = schedule.now();
  const due = await db.transaction((tx) =>
    tx.query<{ project_id: string; url: string }>(
      `UPDATE robots_sources s SET next_fetch_at = $1::timestamptz + make_interval(mins => s.every_minutes)
       WHERE s.project_id IN (SELECT project_id FROM robots_sources WHERE next_fetch_at <= $1 ORDER BY next_fetch_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING s.project_id, s.url`,
      [started.toISOString(), schedule.batch ?? 20],
    ),
  );
  for (const source of due) {
    const fetched = await fetchRobotsTxt(source.url, schedule);
    const at = schedule.now();
    await db.transaction(async (tx) => {
      if (!fetched.ok) {
        await recordFetch(tx, source.project_id, { at, url: source.url, outcome: "failed", status: fetched.status, error: fetched.error, versionId: null });
        return;
      }
      const added = await addRobotsVersion(tx, source.project_id, { body: fetched.body, source: "fetch", effectiveAt: at, origin: fetched.url, now: at }).catch((error: unknown) => {
        if (error instanceof ConflictError) return error;
        throw error;
      });
      if (added instanceof ConflictError) {
        await recordFetch(tx, source.project_id, { at, url: source.url, outcome: "failed", status: 200, error: added.message, versionId: null });
        return;
      }
      const { version, created } = added;
      await recordFetch(tx, source.project_id, { at, url: source.url, outcome: created ? "new_version" : "unchanged", status: 200, error: null, versionId: version.id });
    });
  }
  return due.length;
}

interface FetchRecord {
  at: Date;
  url: string;
  outcome: RobotsSource["fetches"][number]["outcome"];
  status: number | null;
  error: string | null;
  versionId: number | null;
}

async function recordFetch(tx: Queryable, projectId: string, fetch: FetchRecord): Promise<void> {
  await tx.query(`INSERT INTO robots_fetches (project_id, fetched_at, url, outcome, status, error, version_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    projectId,
    fetch.at.toISOString(),
    fetch.url,
    fetch.outcome,
    fetch.status,
    fetch.error?.slice(0, 500) ?? null,
    fetch.versionId,
  ]);
}
