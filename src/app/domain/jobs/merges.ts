import type { AgentJob } from "../../../shared/api-schemas.js";
import type { ImpactNotice } from "../../../shared/impact-schemas.js";
import { firstWindowEnd } from "./impact-windows.js";
import { queueJobEvent } from "./job-webhooks.js";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { notFound } from "../errors.js";
import { toAgentJob, VIEW_COLUMNS, type JobViewRow } from "./job-record.js";
import { IMPACT_NOTICE_TASK, queueTrackingUpdate } from "./job-tasks.js";

/** Minutes after the first week's end the notice waits, so views of its last hours are counted first. */
const NOTICE_GRACE_SECONDS = 600;

/**
 * The job's PR was merged at `mergedAt` (GitHub's time; the store's now when unknown): remembered
 * for the impact reports, and the first week's notice queued for when that week is over.
 */
export async function recordMerge(tx: Queryable, jobId: string, mergedAt: Date | null): Promise<void> {
  const row = await queryOne<{ merged_at: Date | string }>(tx, `UPDATE jobs SET merged_at = coalesce($2::timestamptz, now()) WHERE id = $1 RETURNING merged_at`, [jobId, mergedAt]);
  if (!row) return;
  const due = firstWindowEnd(new Date(row.merged_at)).getTime() + NOTICE_GRACE_SECONDS * 1000;
  await enqueueTask(tx, IMPACT_NOTICE_TASK, `impact-notice:${jobId}`, { jobId }, Math.max(0, Math.ceil((due - Date.now()) / 1000)));
}

/** A job of the project and when its PR was merged (null: not merged, or not yet); NotFoundError for another project's or none. */
export async function jobWithMerge(db: Queryable, projectId: string, jobId: string): Promise<{ job: AgentJob; mergedAt: Date | null }> {
  const row = await queryOne<JobViewRow & { merged_at: Date | string | null }>(db, `SELECT ${VIEW_COLUMNS}, merged_at FROM jobs WHERE id = $1 AND project_id = $2`, [jobId, projectId]);
  if (!row) throw notFound("Job");
  return { job: toAgentJob(row), mergedAt: row.merged_at === null ? null : new Date(row.merged_at) };
}

/** The project's jobs merged in [from, to) (null: open), newest merge first, at most `limit`. */
export async function mergedJobs(db: Queryable, projectId: string, range: { from: Date | null; to: Date | null }, limit: number): Promise<{ job: AgentJob; mergedAt: Date }[]> {
  const rows = await db.query<JobViewRow & { merged_at: Date | string }>(
    `SELECT ${VIEW_COLUMNS}, merged_at FROM jobs
     WHERE project_id = $1 AND merged_at IS NOT NULL AND ($2::timestamptz IS NULL OR merged_at >= $2) AND ($3::timestamptz IS NULL OR merged_at < $3)
     ORDER BY merged_at DESC, id DESC LIMIT $4`,
    [projectId, range.from, range.to, limit],
  );
  return rows.map((row) => ({ job: toAgentJob(row), mergedAt: new Date(row.merged_at) }));
}

/**
 * The first week after the merge is over: its result is kept for the PR's tracking comment, and
 * the `job.impact` webhook is queued, both once. Returns whether this call recorded it.
 */
export async function recordImpactNotice(tx: Queryable, projectId: string, jobId: string, notice: ImpactNotice): Promise<boolean> {
  const row = await queryOne<JobViewRow & { pr_number: number | null }>(
    tx,
    `UPDATE jobs SET impact_notice = $3 WHERE id = $1 AND project_id = $2 AND impact_notice IS NULL RETURNING ${VIEW_COLUMNS}, pr_number`,
    [jobId, projectId, JSON.stringify(notice)],
  );
  if (!row) return false;
  await queueTrackingUpdate(tx, { id: jobId, pr_number: row.pr_number });
  await queueJobEvent(tx, projectId, "job.impact", toAgentJob(row), { impact: notice });
  return true;
}

/** The first week's result the tracking comment shows; null until it is known. */
export async function impactNoticeOf(db: Queryable, jobId: string): Promise<ImpactNotice | null> {
  const row = await queryOne<{ impact_notice: string | null }>(db, `SELECT impact_notice FROM jobs WHERE id = $1`, [jobId]);
  return row?.impact_notice ? (JSON.parse(row.impact_notice) as ImpactNotice) : null;
}

/** A job found by its id alone (a task holds only that), with its project and merge time; null when there is no such job. */
export async function jobWithMergeById(db: Queryable, jobId: string): Promise<{ projectId: string; job: AgentJob; mergedAt: Date | null } | null> {
  const row = await queryOne<JobViewRow & { project_id: string; merged_at: Date | string | null }>(db, `SELECT ${VIEW_COLUMNS}, project_id, merged_at FROM jobs WHERE id = $1`, [jobId]);
  return row ? { projectId: row.project_id, job: toAgentJob(row), mergedAt: row.merged_at === null ? null : new Date(row.merged_at) } : null;
}

/** The latest job started from an analytics suggestion about each path, with its merge time (null: not merged). */
export async function latestSuggestedJobs(db: Queryable, projectId: string, paths: readonly string[]): Promise<Map<string, { job: AgentJob; mergedAt: Date | null }>> {
  if (paths.length === 0) return new Map();
  const rows = await db.query<JobViewRow & { trigger_path: string; merged_at: Date | string | null }>(
    `SELECT DISTINCT ON (trigger_path) ${VIEW_COLUMNS}, trigger_path, merged_at FROM jobs
     WHERE project_id = $1 AND trigger_path = ANY ($2::text[]) ORDER BY trigger_path, created_at DESC, id DESC`,
    [projectId, [...paths]],
  );
  return new Map(rows.map((row) => [row.trigger_path, { job: toAgentJob(row), mergedAt: row.merged_at === null ? null : new Date(row.merged_at) }]));
}
