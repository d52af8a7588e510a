import type { AgentJob, JobEvent, JobListQuery, JobStatus } from "../../shared/api-schemas.js";
import type { Queryable } from "../store/db.js";
import { queryOne, toIso, toIsoOrNull } from "../store/db.js";
import { InvalidInputError, JobArchivedError, ConflictError, notFound } from "./errors.js";
import { newId } from "./ids.js";
import { transition, type JobTrigger } from "./job-state.js";
import { lockProject, type Project } from "./projects.js";
import { enforceRateLimit } from "./rate-limit.js";
import { enqueueTask } from "../tasks/tasks.js";

export interface JobRow {
  id: string;
  project_id: string;
  status: JobStatus;
  repository: string;
  branch: string;
  base_ref: string | null;
  model: string;
  run_attempt: number;
  pr_number: number | null;
  pr_url: string | null;
  error: string | null;
  idempotency_key: string | null;
  created_at: unknown;
  updated_at: unknown;
  archived_at: unknown;
}

/** What the AgentJob view reads: fewer columns is measurably faster on the polling path. */
const VIEW_COLUMNS = "id, status, repository, branch, model, pr_url, error, created_at, updated_at, archived_at";
type JobViewRow = Pick<JobRow, "id" | "status" | "repository" | "branch" | "model" | "pr_url" | "error" | "created_at" | "updated_at" | "archived_at">;

export function toAgentJob(row: JobViewRow): AgentJob {
  return {
    id: row.id,
    status: row.status,
    source: { repository: row.repository, ref: row.branch },
    model: row.model,
    prLink: row.pr_url,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    archivedAt: toIsoOrNull(row.archived_at),
    error: row.error,
  };
}

export type EventCause = "api" | "comment" | "dispatcher" | "runner" | "github" | "watchdog" | "operator";

export interface JobLimits {
  defaultRateLimitPerHour: number;
}

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

export const DISPATCH_TASK = "dispatch";
export interface DispatchTaskPayload {
  jobId: string;
  runAttempt: number;
}

/** Kind, dedupe key and payload of the task that dispatches one run: one definition for both ways it is queued. */
function dispatchTaskRow(jobId: string, runAttempt: number): [kind: string, key: string, payload: DispatchTaskPayload] {
  return [DISPATCH_TASK, `dispatch:${jobId}:${runAttempt}`, { jobId, runAttempt }];
}

async function enqueueDispatch(tx: Queryable, jobId: string, runAttempt: number) {
  await enqueueTask(tx, ...dispatchTaskRow(jobId, runAttempt));
}

async function insertMessage(
  tx: Queryable,
  job: { id: string; project_id: string },
  prompt: string,
  source: "api" | "comment",
  author: string | null,
  commentId: number | null,
) {
  await tx.query(
    `INSERT INTO job_messages (job_id, seq, project_id, prompt, source, author, comment_id)
     SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6 FROM job_messages WHERE job_id = $1`,
    [job.id, job.project_id, prompt, source, author, commentId],
  );
}

export const TRACKING_TASK = "tracking_comment";

/** The job's PR comment shows its state: queue an update whenever that state changes. */
export async function queueTrackingUpdate(tx: Queryable, job: { id: string; pr_number: number | null }): Promise<void> {
  if (job.pr_number !== null) await enqueueTask(tx, TRACKING_TASK, `tracking:${job.id}`, { jobId: job.id });
}

export interface CreateJobInput {
  projectId: string;
  prompt: string;
  idempotencyKey: string | null;
  /** The GitHub login of a dashboard user; null for API keys and the operator. */
  author?: string | null;
}

/**
 * Creates an `active` job with its first message and a pending dispatch, atomically.
 * A repeated Idempotency-Key returns the job it first created (`replayed`).
 */
export async function createJob(
  tx: Queryable,
  input: CreateJobInput,
  limits: JobLimits,
): Promise<{ job: AgentJob; replayed: boolean }> {
  const project = await lockProject(tx, input.projectId);
  if (input.idempotencyKey) {
    const existing = await queryOne<JobRow & { first_prompt: string }>(
      tx,
      `SELECT j.*, m.prompt AS first_prompt FROM jobs j JOIN job_messages m ON m.job_id = j.id AND m.seq = 1
       WHERE j.project_id = $1 AND j.idempotency_key = $2`,
      [project.id, input.idempotencyKey],
    );
    if (existing) {
      if (existing.first_prompt !== input.prompt) {
        throw new InvalidInputError("Idempotency-Key was already used for a job with a different prompt", [
          { field: "Idempotency-Key", message: "use a new key for a different request" },
        ]);
      }
      return { job: toAgentJob(existing), replayed: true };
    }
  }
  await enforceRateLimit(tx, project, limits.defaultRateLimitPerHour);
  const id = newId();
  const [dispatchKind, dispatchKey, dispatchPayload] = dispatchTaskRow(id, 1);
  // One statement for the four rows: each statement is a round trip (and a parse) on the hot path.
  const rows = await tx.query<JobRow>(
    `WITH job AS (
       INSERT INTO jobs (id, project_id, status, repository, branch, base_ref, model, idempotency_key)
       VALUES ($1, $2, 'active', $3, $4, $5, $6, $7) RETURNING *
     ), message AS (
       INSERT INTO job_messages (job_id, seq, project_id, prompt, source, author) VALUES ($1, 1, $2, $8, 'api', $12)
     ), event AS (
       INSERT INTO job_events (job_id, type, from_status, to_status, cause) VALUES ($1, 'created', NULL, 'active', 'api')
     ), dispatch AS (
       INSERT INTO tasks (kind, dedupe_key, payload) VALUES ($9, $10, $11)
     )
     SELECT * FROM job`,
    [
      id,
      project.id,
      project.repository,
      `inkwell/${id}`,
      project.baseRef,
      project.model,
      input.idempotencyKey,
      input.prompt,
      dispatchKind,
      dispatchKey,
      JSON.stringify(dispatchPayload),
      input.author ?? null,
    ],
  );
  const row = rows[0] as JobRow;
  return { job: toAgentJob(row), replayed: false };
}

export interface AddMessageInput {
  projectId: string;
  jobId: string;
  prompt: string;
  source: "api" | "comment";
  author?: string | null;
  /** A PR comment becomes a message once, however often GitHub delivers it. */
  commentId?: number;
}

/** Adds a follow-up: re-activates and re-dispatches a finished job, or queues it on an active one. */
export async function addMessage(
  tx: Queryable,
  input: AddMessageInput,
  limits: JobLimits,
): Promise<{ job: AgentJob; dispatched: boolean }> {
  const project: Project = await lockProject(tx, input.projectId);
  const row = await lockJob(tx, input.projectId, input.jobId);
  const step = transition(row.status, "message");
  if (!step.ok) {
    const message = `Cannot add a message: ${step.reason}. Create a new job instead.`;
    throw row.status === "archived" ? new JobArchivedError(message) : new ConflictError(message);
  }
  if (input.commentId !== undefined) {
    const seen = await tx.query(`SELECT 1 FROM job_messages WHERE comment_id = $1`, [input.commentId]);
    if (seen.length > 0) return { job: toAgentJob(row), dispatched: false };
  }
  if (input.source === "api") await enforceRateLimit(tx, project, limits.defaultRateLimitPerHour);
  await insertMessage(tx, row, input.prompt, input.source, input.author ?? null, input.commentId ?? null);
  if (!step.dispatch) {
    await recordEvent(tx, row.id, "message_queued", row.status, row.status, input.source);
    const touched = await tx.query<JobRow>(`UPDATE jobs SET updated_at = now() WHERE id = $1 RETURNING *`, [row.id]);
    return { job: toAgentJob(touched[0] as JobRow), dispatched: false };
  }
  return { job: await startNextRun(tx, row, input.source), dispatched: true };
}

/** completed/failed → active on a new run attempt, dispatched after commit. */
export async function startNextRun(tx: Queryable, row: JobRow, cause: EventCause): Promise<AgentJob> {
  const updated = await tx.query<JobRow>(
    `UPDATE jobs SET status = 'active', run_attempt = run_attempt + 1, error = NULL, updated_at = now(), last_activity_at = now()
     WHERE id = $1 RETURNING *`,
    [row.id],
  );
  const next = updated[0] as JobRow;
  await recordEvent(tx, row.id, "reactivated", row.status, "active", cause);
  await enqueueDispatch(tx, row.id, next.run_attempt);
  await queueTrackingUpdate(tx, next);
  return toAgentJob(next);
}

export async function lockJob(tx: Queryable, projectId: string, jobId: string): Promise<JobRow> {
  const row = await queryOne<JobRow>(tx, `SELECT * FROM jobs WHERE id = $1 AND project_id = $2 FOR UPDATE`, [jobId, projectId]);
  if (!row) throw notFound("Job");
  return row;
}

export interface TriggerInput {
  jobId: string;
  trigger: Exclude<JobTrigger, "message">;
  cause: EventCause;
  /** Set for `run_failed`: the message shown to the client as `error`. */
  error?: string;
  detail?: string;
  /** Only act when the job is still on this run attempt (stale reports and dispatches are ignored). */
  runAttempt?: number;
}

/**
 * Moves a job by a runner/GitHub/watchdog trigger. Returns null (and changes nothing) when the
 * job is on another run attempt or the transition is not legal from its current status.
 */
export async function applyTrigger(tx: Queryable, input: TriggerInput): Promise<AgentJob | null> {
  const row = await queryOne<JobRow>(tx, `SELECT * FROM jobs WHERE id = $1 FOR UPDATE`, [input.jobId]);
  if (!row) throw notFound("Job");
  if (input.runAttempt !== undefined && input.runAttempt !== row.run_attempt) return null;
  const step = transition(row.status, input.trigger);
  if (!step.ok) return null;
  const updated = await tx.query<JobRow>(
    `UPDATE jobs SET status = $2, error = $3, updated_at = now(),
       archived_at = CASE WHEN $2 = 'archived' THEN now() ELSE archived_at END
     WHERE id = $1 RETURNING *`,
    [row.id, step.to, input.trigger === "run_failed" ? (input.error ?? "The run failed") : row.error],
  );
  await recordEvent(tx, row.id, input.trigger, row.status, step.to, input.cause, input.error ?? input.detail ?? null);
  await queueTrackingUpdate(tx, row);
  return toAgentJob(updated[0] as JobRow);
}

export async function getJob(db: Queryable, projectId: string, jobId: string): Promise<AgentJob> {
  const row = await queryOne<JobViewRow>(db, `SELECT ${VIEW_COLUMNS} FROM jobs WHERE id = $1 AND project_id = $2`, [jobId, projectId]);
  if (!row) throw notFound("Job");
  return toAgentJob(row);
}

export async function listJobs(db: Queryable, projectId: string, query: JobListQuery): Promise<{ jobs: AgentJob[]; hasMore: boolean }> {
  const params: unknown[] = [projectId, query.limit + 1, query.offset];
  let statusFilter = "";
  if (query.status) {
    params.push(query.status);
    statusFilter = "AND status = $4";
  }
  const rows = await db.query<JobViewRow>(
    `SELECT ${VIEW_COLUMNS} FROM jobs WHERE project_id = $1 ${statusFilter} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    params,
  );
  return { jobs: rows.slice(0, query.limit).map(toAgentJob), hasMore: rows.length > query.limit };
}

/** A job's transitions, oldest first; 404 when the job is not in this project. */
export async function listJobEvents(db: Queryable, projectId: string, jobId: string): Promise<JobEvent[]> {
  await getJob(db, projectId, jobId);
  return eventsOf(db, jobId);
}

/** A job with its transitions, reading the job once (the dashboard polls this). */
export async function getJobWithEvents(db: Queryable, projectId: string, jobId: string): Promise<{ job: AgentJob; events: JobEvent[] }> {
  const job = await getJob(db, projectId, jobId);
  return { job, events: await eventsOf(db, jobId) };
}

async function eventsOf(db: Queryable, jobId: string): Promise<JobEvent[]> {
  const rows = await db.query<{ type: string; from_status: JobStatus | null; to_status: JobStatus | null; cause: string; detail: string | null; created_at: unknown }>(
    `SELECT type, from_status, to_status, cause, detail, created_at FROM job_events WHERE job_id = $1 ORDER BY id`,
    [jobId],
  );
  return rows.map((r) => ({ type: r.type, from: r.from_status, to: r.to_status, cause: r.cause, detail: r.detail, at: toIso(r.created_at) }));
}

export interface JobMessage {
  seq: number;
  prompt: string;
  source: "api" | "comment";
  author: string | null;
  at: string;
}

/** A job's messages, first first; 404 when the job is not in this project. */
export async function listJobMessages(db: Queryable, projectId: string, jobId: string): Promise<JobMessage[]> {
  const rows = await db.query<{ seq: number; prompt: string; source: "api" | "comment"; author: string | null; created_at: unknown }>(
    `SELECT seq, prompt, source, author, created_at FROM job_messages WHERE job_id = $1 AND project_id = $2 ORDER BY seq`,
    [jobId, projectId],
  );
  if (rows.length === 0) throw notFound("Job");
  return rows.map((r) => ({ seq: r.seq, prompt: r.prompt, source: r.source, author: r.author, at: toIso(r.created_at) }));
}

/** The instruction each job started with (job lists show it), by job id. */
export async function firstPrompts(db: Queryable, projectId: string, jobIds: string[]): Promise<Map<string, string>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db.query<{ job_id: string; prompt: string }>(
    `SELECT job_id, prompt FROM job_messages WHERE project_id = $1 AND seq = 1 AND job_id = ANY($2::text[])`,
    [projectId, jobIds],
  );
  return new Map(rows.map((r) => [r.job_id, r.prompt]));
}
