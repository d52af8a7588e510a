import type { JobEvent, JobStatus } from "../../../shared/api-schemas.js";
import type { MessageSource } from "../../../shared/runner-schemas.js";
import type { Queryable } from "../../store/db.js";
import { toIso } from "../../store/db.js";

/** Who moved the job: a message's source, or the part of the system that acted. */
export type EventCause = MessageSource | "dispatcher" | "runner" | "github" | "gitlab" | "watchdog" | "operator";

/** Every transition is recorded (docs/architecture.md, "Invariants"): the events are the job's history. */
export async function recordEvent(
  tx: Queryable,
  jobId: string,
  type: string,
  from: JobStatus | null,
  to: JobStatus | null,
  cause: EventCause,
  detail: string | null = null,
) {
  await tx.query(
    `INSERT INTO job_events (job_id, type, from_status, to_status, cause, detail) VALUES ($1, $2, $3, $4, $5, $6)`,
    [jobId, type, from, to, cause, detail],
  );
}

/** A job's transitions, oldest first. */
export async function eventsOf(db: Queryable, jobId: string): Promise<JobEvent[]> {
  const rows = await db.query<{ type: string; from_status: JobStatus | null; to_status: JobStatus | null; cause: string; detail: string | null; created_at: unknown }>(
    `SELECT type, from_status, to_status, cause, detail, created_at FROM job_events WHERE job_id = $1 ORDER BY id`,
    [jobId],
  );
  return rows.map((r) => ({ type: r.type, from: r.from_status, to: r.to_status, cause: r.cause, detail: r.detail, at: toIso(r.created_at) }));
}

/** Whether the job already has this event (type and detail): what makes a redelivered command a no-op. */
export async function hasEvent(tx: Queryable, jobId: string, type: string, detail: string): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM job_events WHERE job_id = $1 AND type = $2 AND detail = $3 LIMIT 1`, [jobId, type, detail]);
  return rows.length > 0;
}
