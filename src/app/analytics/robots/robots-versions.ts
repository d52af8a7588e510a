import { createHash } from "node:crypto";
import type { Queryable } from "../../store/db.js";
import { ConflictError, InvalidInputError } from "../../domain/errors.js";
import { RobotsRules, type ContentSignals } from "./robots-rules.js";
import { MAX_ROBOTS_BYTES } from "../../../shared/robots-schemas.js";
import { epochDay } from "../../../shared/epoch-days.js";
import { storable } from "../../../shared/stored-values.js";

/** Where a version came from: the site's URL, the docs repository, or sent through the API. */
export type RobotsSource = "fetch" | "repository" | "api";

export interface RobotsVersion {
  id: number;
  effectiveAt: string;
  source: RobotsSource;
  origin: string | null;
  sha256: string;
  bytes: number;
  body: string;
  contentSignals: ContentSignals[];
}

type VersionRow = { id: number; effective_at: Date | string; source: RobotsSource; origin: string | null; body: string };

const versionOf = (row: VersionRow): RobotsVersion => ({
  id: Number(row.id),
  effectiveAt: new Date(row.effective_at).toISOString(),
  source: row.source,
  origin: row.origin,
  sha256: createHash("sha256").update(row.body).digest("hex"),
  bytes: Buffer.byteLength(row.body),
  body: row.body,
  contentSignals: new RobotsRules(row.body).contentSignals(),
});

export interface NewRobotsVersion {
  body: string;
  source: RobotsSource;
  effectiveAt: Date;
  origin?: string | null | undefined;
  /** A time given by the sender (not the moment it arrives): refused once views since that day are counted, or when it is still to come. */
  backdated?: boolean | undefined;
  /** The service's clock (default the system's). */
  now?: Date | undefined;
}

/** How far ahead of the service's clock a sender's time may be (clock skew, as for hits); it is taken as now. */
export const ROBOTS_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Records a version unless its body is the one already in force then (a fetch that found the same
 * file, the same file sent twice). Versions only move forward: one taking effect before the latest,
 * or a backdated one on or before a day whose agents' views are counted, would change the judgement
 * of views already counted (docs/analytics/robots.md), so it is refused. Nor does a version take
 * effect in the future: it takes effect when it is known to be served, so a sender's time still to
 * come is refused (400) rather than kept, where it would refuse every version sent until then.
 */
export async function addRobotsVersion(tx: Queryable, projectId: string, given: NewRobotsVersion): Promise<{ version: RobotsVersion; created: boolean }> {
  // A robots.txt line has no use for NUL, and PostgreSQL text cannot hold it: from the API, a fetch or a merge alike, it is dropped (a lone surrogate becomes U+FFFD).
  const version = { ...given, body: storable(given.body) };
  if (Buffer.byteLength(version.body) > MAX_ROBOTS_BYTES) throw new InvalidInputError(`robots.txt is larger than ${MAX_ROBOTS_BYTES} bytes`, [{ field: "body", message: `at most ${MAX_ROBOTS_BYTES} bytes` }]);
  const now = given.now ?? new Date();
  if (given.backdated && version.effectiveAt.getTime() > now.getTime() + ROBOTS_CLOCK_SKEW_MS) {
    const message = `is in the future (${version.effectiveAt.toISOString()}): a robots.txt version takes effect when it is served; send it then`;
    throw new InvalidInputError(`effectiveAt ${message}`, [{ field: "effectiveAt", message }]);
  }
  if (version.effectiveAt.getTime() > now.getTime()) version.effectiveAt = now;
  // One writer per project at a time, so two fetches cannot both add the same body.
  await tx.query(`SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE`, [projectId]);
  const [latest] = await tx.query<VersionRow>(
    `SELECT id, effective_at, source, origin, body FROM robots_versions WHERE project_id = $1 ORDER BY effective_at DESC, id DESC LIMIT 1`,
    [projectId],
  );
  if (latest && latest.body === version.body) return { version: versionOf(latest), created: false };
  if (latest && new Date(latest.effective_at).getTime() > version.effectiveAt.getTime()) {
    throw new ConflictError(`a robots.txt version takes effect later (${new Date(latest.effective_at).toISOString()}): versions are added in time order`);
  }
  if (version.backdated && (await countedSince(tx, projectId, epochDay(version.effectiveAt.getTime())))) {
    throw new ConflictError(`AI agents' views since ${version.effectiveAt.toISOString().slice(0, 10)} are already counted against the versions known then: send a version when it takes effect, or with a time before the views it should judge`);
  }
  const [row] = await tx.query<VersionRow>(
    `INSERT INTO robots_versions (project_id, effective_at, source, body, origin) VALUES ($1, $2, $3, $4, $5)
     RETURNING id, effective_at, source, origin, body`,
    [projectId, version.effectiveAt.toISOString(), version.source, version.body, version.origin ?? null],
  );
  return { version: versionOf(row as VersionRow), created: true };
}

/** Whether any AI agent's view on or after `day` was judged already (rollup/robots-plan.ts). */
async function countedSince(tx: Queryable, projectId: string, day: number): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM analytics_daily_robots WHERE project_id = $1 AND day >= $2 LIMIT 1`, [projectId, day]);
  return rows.length > 0;
}

/** The project's versions, the latest first. */
export async function listRobotsVersions(db: Queryable, projectId: string, page: { limit: number; offset: number }): Promise<{ versions: RobotsVersion[]; hasMore: boolean }> {
  const rows = await db.query<VersionRow>(
    `SELECT id, effective_at, source, origin, body FROM robots_versions WHERE project_id = $1 ORDER BY effective_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [projectId, page.limit + 1, page.offset],
  );
  return { versions: rows.slice(0, page.limit).map(versionOf), hasMore: rows.length > page.limit };
}

/** When each version of these projects took effect (epoch ms), in time order per project: what a rollup chunk judges against. */
export async function robotsTimelines(db: Queryable, projectIds: readonly string[]): Promise<Map<string, { id: number; from: number }[]>> {
  const rows = await db.query<{ project_id: string; id: number; from_ms: number }>(
    `SELECT project_id, id, (extract(epoch FROM effective_at) * 1000)::float8 AS from_ms FROM robots_versions
     WHERE project_id = ANY ($1::text[]) ORDER BY project_id, effective_at, id`,
    [projectIds],
  );
  const timelines = new Map<string, { id: number; from: number }[]>();
  for (const row of rows) {
    const list = timelines.get(row.project_id) ?? [];
    list.push({ id: Number(row.id), from: Number(row.from_ms) });
    timelines.set(row.project_id, list);
  }
  return timelines;
}

/** The bodies of these versions, by id (a version never changes). */
export async function robotsBodies(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  const rows = await db.query<{ id: number; body: string }>(`SELECT id, body FROM robots_versions WHERE id = ANY ($1::int[])`, [ids]);
  return new Map(rows.map((row) => [Number(row.id), row.body]));
}
