import type { Queryable } from "../store/db.js";
import { DAY_MS, epochDay } from "../../shared/epoch-days.js";

export interface RetentionPolicy {
  rawRetentionDays: number;
  backfillDays: number;
}

export interface Pruned {
  salts: number;
  visitorStates: number;
  rawEvents: number;
  hitIds: number;
  signatureUses: number;
}

/** A replay of a signature arrives while it is valid or it is expired anyway; a day covers any clock skew. */
const SIGNATURE_USE_GRACE_MS = DAY_MS;

/**
 * Deletes what the privacy rules (docs/architecture.md, "Analytics") and the operator's settings say must go: salt secrets past their
 * deletion time, with their windows' visitor states (visitor-states.ts: no later view can carry those
 * visitor ids, so the masks would never change again; the counters derived from them stay);
 * raw events past their retention; idempotency ids older than the backfill horizon (hits that old
 * are refused anyway); Web Bot Auth signatures seen, a day after they expired. Runs under the rollup's lock, after a drain, so no inbox row of a deleted
 * window is still waiting to be counted with its secret.
 */
export async function pruneAnalytics(tx: Queryable, policy: RetentionPolicy, now: number): Promise<Pruned & { windows: { projectId: string; windowStart: number }[] }> {
  const salts = await tx.query<{ project_id: string; window_start: number }>(
    `DELETE FROM analytics_salts WHERE delete_after <= $1 RETURNING project_id, window_start`,
    [new Date(now)],
  );
  let visitorStates = 0;
  if (salts.length > 0) {
    const deleted = await tx.query<{ n: string | number }>(
      `WITH gone AS (
         DELETE FROM analytics_visitor_states d USING unnest($1::text[], $2::int[]) AS s (project_id, window_start)
         WHERE d.project_id = s.project_id AND d.window_start = s.window_start RETURNING 1
       ) SELECT count(*) AS n FROM gone`,
      [salts.map((s) => s.project_id), salts.map((s) => s.window_start)],
    );
    visitorStates = Number(deleted[0]?.n ?? 0);
  }
  const raw = await tx.query<{ n: string | number }>(
    // Per project, so the (project_id, at) index finds the old rows instead of a scan of every event.
    `WITH gone AS (DELETE FROM analytics_events e USING projects p WHERE e.project_id = p.id AND e.at < $1 RETURNING 1) SELECT count(*) AS n FROM gone`,
    [new Date(now - policy.rawRetentionDays * DAY_MS)],
  );
  const ids = await tx.query<{ n: string | number }>(
    `WITH gone AS (DELETE FROM analytics_hit_ids WHERE day < $1 RETURNING 1) SELECT count(*) AS n FROM gone`,
    [epochDay(now) - policy.backfillDays - 1],
  );
  const signatures = await tx.query<{ n: string | number }>(
    `WITH gone AS (DELETE FROM analytics_signature_uses WHERE expires_at < $1 RETURNING 1) SELECT count(*) AS n FROM gone`,
    [new Date(now - SIGNATURE_USE_GRACE_MS)],
  );
  return {
    salts: salts.length,
    visitorStates,
    rawEvents: Number(raw[0]?.n ?? 0),
    hitIds: Number(ids[0]?.n ?? 0),
    signatureUses: Number(signatures[0]?.n ?? 0),
    windows: salts.map((s) => ({ projectId: s.project_id, windowStart: s.window_start })),
  };
}
