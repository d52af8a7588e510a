import type { Queryable } from "../../store/db.js";
import { queryOne, toIso } from "../../store/db.js";
import { enqueueTask, isTaskPending, skipPendingTask } from "../../tasks/tasks.js";
import type { Forge } from "../projects.js";
import { hasEvent, recordEvent } from "./job-events.js";
import type { JobInRepository, JobRow } from "./job-record.js";
import { dispatchTaskRow } from "./job-tasks.js";
import { jobInRepositoryById } from "./queries.js";

/** Cancels the forge run (GitHub workflow run, GitLab pipeline) a stopped job's run attempt started (forges/run-cancel.ts). */
export const CANCEL_RUN_TASK = "cancel_run";

export interface CancelRunPayload {
  jobId: string;
  runAttempt: number;
  forge: Forge;
}

/**
 * The active job `row` stops (a cancel, its change request closed): a dispatch not yet sent is
 * skipped, and when one may have started a run, a `cancel_run` task is queued in the same
 * transaction to cancel it on the forge. A job waiting for the user has no run going.
 */
export async function stopForgeRun(tx: Queryable, row: Pick<JobRow, "id" | "project_id" | "run_attempt" | "waiting_for">, reason: string): Promise<void> {
  const neverSent = await skipPendingTask(tx, dispatchTaskRow(row.id, row.run_attempt)[1], reason);
  if (neverSent || row.waiting_for !== null) return;
  const project = await queryOne<{ forge: Forge }>(tx, `SELECT forge FROM projects WHERE id = $1`, [row.project_id]);
  const payload: CancelRunPayload = { jobId: row.id, runAttempt: row.run_attempt, forge: project?.forge ?? "github" };
  await enqueueTask(tx, CANCEL_RUN_TASK, `cancel-run:${row.id}:${row.run_attempt}`, payload);
}

/** What Inkwell knows of the forge run a job's run attempt started. */
export interface RunToCancel {
  job: JobInRepository;
  runAttempt: number;
  /** The run that claimed the attempt: GitHub's workflow run id, GitLab's pipeline id; null before the claim. */
  claimedRunId: number | null;
  /** When the forge accepted the attempt's dispatch; null when it has not (yet). */
  dispatchedAt: string | null;
  /** What the forge said its dispatch started, as the `dispatched` event keeps it after `run attempt n: ` (GitLab: `pipeline <id>`); null when it named nothing. */
  dispatchDetail: string | null;
  /** The attempt's dispatch is still to be sent, or being sent. */
  dispatchPending: boolean;
}

export async function runToCancel(db: Queryable, jobId: string, runAttempt: number): Promise<RunToCancel | null> {
  const job = await jobInRepositoryById(db, jobId);
  if (!job) return null;
  const run = await queryOne<{ workflow_run_id: string | number | null }>(db, `SELECT workflow_run_id FROM job_runs WHERE job_id = $1 AND run_attempt = $2`, [jobId, runAttempt]);
  const dispatched = await queryOne<{ detail: string; created_at: unknown }>(
    db,
    `SELECT detail, created_at FROM job_events WHERE job_id = $1 AND type = 'dispatched' AND (detail = $2 OR detail LIKE $2 || ': %') ORDER BY id DESC LIMIT 1`,
    [jobId, `run attempt ${runAttempt}`],
  );
  return {
    job,
    runAttempt,
    claimedRunId: run?.workflow_run_id === null || run?.workflow_run_id === undefined ? null : Number(run.workflow_run_id),
    dispatchedAt: dispatched ? toIso(dispatched.created_at) : null,
    dispatchDetail: dispatched?.detail.startsWith(`run attempt ${runAttempt}: `) ? dispatched.detail.slice(`run attempt ${runAttempt}: `.length) : null,
    dispatchPending: await isTaskPending(db, dispatchTaskRow(jobId, runAttempt)[1]),
  };
}

/**
 * What became of the forge run, on the job's timeline: `run_cancelled` ("pipeline 123 cancelled",
 * or it had already ended) or `run_not_cancelled` with why. Recorded once per outcome.
 */
export async function recordRunCancel(tx: Queryable, jobId: string, outcome: { cancelled: boolean; detail: string }, cause: Forge): Promise<void> {
  const type = outcome.cancelled ? "run_cancelled" : "run_not_cancelled";
  if (await hasEvent(tx, jobId, type, outcome.detail)) return;
  const job = await queryOne<{ status: JobRow["status"] }>(tx, `SELECT status FROM jobs WHERE id = $1`, [jobId]);
  if (!job) return;
  await recordEvent(tx, jobId, type, job.status, job.status, cause, outcome.detail);
}
