import type { AgentJob } from "../../../shared/api-schemas.js";
import type { MessageSource } from "../../../shared/runner-schemas.js";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";
import { ConflictError, IdempotencyKeyReusedError, InvalidInputError, JobArchivedError, notFound } from "../errors.js";
import { newId } from "../ids.js";
import { lockProject } from "../projects.js";
import { recordEvent, type EventCause } from "./job-events.js";
import { branchOf, toAgentJob, type JobRow } from "./job-record.js";
import type { WebhookEvent } from "../../../shared/job-vocabulary.js";
import { queueJobEvent } from "./job-webhooks.js";
import { dispatchTaskRow, enqueueDispatch, queueTrackingUpdate } from "./job-tasks.js";
import { transition, type JobTrigger } from "./lifecycle.js";
import { insertMessage, isFollowUpTaken, type FollowUpOrigin } from "./messages.js";
import { enforceRateLimit } from "./rate-limit.js";
import { recordMerge } from "./merges.js";
import { stopForgeRun } from "./run-cancel.js";
import { carryThePlanOn, resumeWaitingJob } from "./waiting.js";
import type { JobTriggerType } from "../../../shared/job-vocabulary.js";
import type { SourceContext } from "./source-context.js";
import { forgeWords, type ForgeName } from "../../../shared/forge-words.js";

export interface JobLimits {
  defaultRateLimitPerHour: number;
}

export interface CreateJobInput {
  projectId: string;
  prompt: string;
  idempotencyKey: string | null;
  /** Where the instruction came from (the API by default). */
  source?: Exclude<MessageSource, "comment">;
  /** The GitHub login of a dashboard user or an automation's author (who merged, who labelled); null for API keys and the operator. */
  author?: string | null;
  options?: JobOptions;
  /** What started it, when more than its source says (an automation, a suggestion). */
  trigger?: { type: JobTriggerType; url?: string | undefined; path?: string | undefined } | undefined;
  automationId?: string | undefined;
  /** The code repository the agent may read (a merge's). */
  sourceContext?: SourceContext | undefined;
  /** The GitHub event (an issue comment, a merge) the first message is: a later delivery of it adds no follow-up. */
  origin?: Extract<FollowUpOrigin, { kind: "comment" } | { kind: "event" }> | undefined;
}

/** A job's own settings (all optional): where its PR goes and how it is opened, which model. */
export interface JobOptions {
  baseBranch?: string | undefined;
  draft?: boolean | undefined;
  model?: string | undefined;
  labels?: string[] | undefined;
  reviewers?: string[] | undefined;
  /** Stop after planning until the plan is approved; default: the project's setting. */
  planApproval?: boolean | undefined;
  /** Questions the agent may ask per run (default 1). */
  maxQuestions?: number | undefined;
}

/**
 * Creates an `active` job with its first message and a pending dispatch, atomically.
 * A repeated Idempotency-Key returns the job it first created (`replayed`).
 */
export async function createJob(tx: Queryable, input: CreateJobInput, limits: JobLimits): Promise<{ job: AgentJob; replayed: boolean }> {
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
        throw new IdempotencyKeyReusedError("Idempotency-Key was already used for a job with a different prompt", [
          { field: "Idempotency-Key", message: "use a new key for a different request" },
        ]);
      }
      return { job: toAgentJob(existing), replayed: true };
    }
  }
  const options = input.options ?? {};
  if (options.model && options.model !== project.model && !project.allowedModels.includes(options.model)) {
    const allowed = [project.model, ...project.allowedModels].join(", ");
    throw new InvalidInputError(`model: this project's jobs may use ${allowed}`, [{ field: "model", message: `must be one of ${allowed} (the operator adds models with allowedModels)` }]);
  }
  await enforceRateLimit(tx, project, limits.defaultRateLimitPerHour);
  const id = newId();
  const source = input.source ?? "api";
  const [dispatchKind, dispatchKey, dispatchPayload] = dispatchTaskRow(id, 1);
  // One statement for the four rows: each statement is a round trip (and a parse) on the hot path.
  const rows = await tx.query<JobRow>(
    `WITH job AS (
       INSERT INTO jobs (id, project_id, status, repository, branch, base_ref, model, idempotency_key, draft, labels, reviewers, requested_model,
         trigger_type, trigger_url, automation_id, source_context, trigger_path, plan_approval, max_questions, forge)
       VALUES ($1, $2, 'active', $3, $4, $5, $6, $7, $14, $15, $16, $17, $18, $19, $20, $21, $24, $25, $26, $27) RETURNING *
     ), message AS (
       INSERT INTO job_messages (job_id, seq, project_id, prompt, source, author, comment_id, event_key) VALUES ($1, 1, $2, $8, $13, $12, $22, $23)
     ), event AS (
       INSERT INTO job_events (job_id, type, from_status, to_status, cause) VALUES ($1, 'created', NULL, 'active', $13)
     ), dispatch AS (
       INSERT INTO tasks (kind, dedupe_key, payload) VALUES ($9, $10, $11)
     )
     SELECT * FROM job`,
    [
      id,
      project.id,
      project.repository,
      branchOf(id),
      options.baseBranch ?? project.baseRef,
      options.model ?? project.model,
      input.idempotencyKey,
      input.prompt,
      dispatchKind,
      dispatchKey,
      JSON.stringify(dispatchPayload),
      input.author ?? null,
      source,
      options.draft ?? false,
      [...new Set(options.labels ?? [])],
      [...new Set(options.reviewers ?? [])],
      options.model ?? null,
      input.trigger?.type ?? source,
      input.trigger?.url ?? null,
      input.automationId ?? null,
      input.sourceContext ? JSON.stringify(input.sourceContext) : null,
      input.origin?.kind === "comment" ? input.origin.commentId : null,
      input.origin?.kind === "event" ? input.origin.key : null,
      input.trigger?.path ?? null,
      options.planApproval ?? project.jobs.planApproval,
      options.maxQuestions ?? 1,
      project.forge,
    ],
  );
  const job = toAgentJob(rows[0] as JobRow);
  await queueJobEvent(tx, project.id, "job.created", job);
  return { job, replayed: false };
}

export interface AddMessageInput {
  projectId: string;
  jobId: string;
  prompt: string;
  source: MessageSource;
  author?: string | null;
  /** A PR comment or review becomes a message once, however often GitHub delivers it. */
  origin?: FollowUpOrigin;
}

/**
 * Adds a follow-up: re-activates and re-dispatches a finished job, or queues it on an active one.
 * Throws JobArchivedError for a job whose pull request was closed. `alreadyTaken`: the comment was
 * made a message before (another delivery of it, maybe on another instance), so nothing was added.
 */
export async function addMessage(tx: Queryable, input: AddMessageInput, limits: JobLimits): Promise<{ job: AgentJob; dispatched: boolean; alreadyTaken?: true }> {
  const project = await lockProject(tx, input.projectId);
  const row = await lockJob(tx, input.projectId, input.jobId);
  const step = transition(row.status, "message");
  if (!step.ok) {
    const message = `Cannot add a message: ${step.reason}. Create a new job instead.`;
    throw row.status === "archived" ? new JobArchivedError(message) : new ConflictError(message);
  }
  if (input.origin && (await isFollowUpTaken(tx, input.origin))) return { job: toAgentJob(row), dispatched: false, alreadyTaken: true };
  if (input.source !== "comment") await enforceRateLimit(tx, project, limits.defaultRateLimitPerHour);
  await insertMessage(tx, row, { prompt: input.prompt, source: input.source, author: input.author ?? null, origin: input.origin });
  // A job waiting for the user takes the message as the answer, or as what to change in the plan: its next run starts now.
  if (row.status === "active" && row.waiting_for !== null) return { job: await resumeWaitingJob(tx, row, { approved: false, cause: input.source, author: input.author }), dispatched: true };
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
    `UPDATE jobs SET status = 'active', run_attempt = run_attempt + 1, error = NULL, updated_at = now(), last_activity_at = now(),
       plan_approved_attempt = ${carryThePlanOn("false")}
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
  /** Set for a move to `failed`: the message shown to the client as `error`. */
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
  // A job that leaves `active` waits for nothing any more; an archive for a reason (a time limit) says it as `error`.
  const updated = await tx.query<JobRow>(
    `UPDATE jobs SET status = $2, error = $3, updated_at = now(),
       archived_at = CASE WHEN $2 = 'archived' THEN now() ELSE archived_at END,
       waiting_for = CASE WHEN $2 = 'active' THEN waiting_for END, waiting_since = CASE WHEN $2 = 'active' THEN waiting_since END
     WHERE id = $1 RETURNING *`,
    [row.id, step.to, step.to === "failed" ? (input.error ?? "The run failed") : step.to === "archived" && input.error ? input.error : row.error],
  );
  await recordEvent(tx, row.id, input.trigger, row.status, step.to, input.cause, input.detail ?? input.error ?? null);
  await queueTrackingUpdate(tx, row);
  const job = toAgentJob(updated[0] as JobRow);
  const event = STATUS_EVENTS[step.to];
  if (event && step.to !== row.status) await queueJobEvent(tx, row.project_id, event, job);
  if (row.status === "active" && step.to !== "active" && row.waiting_for === null) await announceUnreportedRunEnd(tx, row, input.trigger, job);
  return job;
}

/**
 * A run that leaves `active` without its report (lost to the watchdog, a workflow run that failed
 * without reporting, a dispatch that failed, a cancel, a PR closed under it) is announced here, so
 * every run gets one `job.run_finished`; a run that reported was announced by its report (runs.ts),
 * and a report that comes after this is not announced again.
 */
async function announceUnreportedRunEnd(tx: Queryable, row: JobRow, trigger: JobTrigger, job: AgentJob): Promise<void> {
  const reported = await queryOne(tx, `SELECT 1 FROM job_runs WHERE job_id = $1 AND run_attempt = $2 AND reported_at IS NOT NULL`, [row.id, row.run_attempt]);
  if (reported) return;
  await queueJobEvent(tx, row.project_id, "job.run_finished", job, { run: { attempt: row.run_attempt, outcome: trigger === "run_failed" ? "failed" : "cancelled", reported: false } });
}

/** The project webhook event a job's arrival in a status sends. */
const STATUS_EVENTS: Partial<Record<JobRow["status"], WebhookEvent>> = { completed: "job.completed", failed: "job.failed", archived: "job.archived" };

/**
 * Links the job to its pull request and queues the tracking comment. A webhook (`replace: false`)
 * fills in a PR only where none is known; the runner's report names the PR it pushed to.
 * Returns whether anything changed.
 */
export async function attachChangeRequest(tx: Queryable, jobId: string, pr: { number: number; url: string }, options: { replace: boolean }): Promise<boolean> {
  // The CTE reads the row as it was before the update: whether the job had a PR until now.
  const rows = await tx.query<JobRow & { had_pr: boolean }>(
    `WITH before AS (SELECT pr_number FROM jobs WHERE id = $1)
     UPDATE jobs SET pr_number = $2, pr_url = $3, updated_at = now()
     WHERE id = $1 AND ($4::boolean OR pr_number IS NULL) AND (pr_number IS DISTINCT FROM $2 OR pr_url IS DISTINCT FROM $3)
     RETURNING jobs.*, (SELECT pr_number IS NOT NULL FROM before) AS had_pr`,
    [jobId, pr.number, pr.url, options.replace],
  );
  if (rows[0]) {
    await queueTrackingUpdate(tx, rows[0]);
    if (!rows[0].had_pr) await queueJobEvent(tx, rows[0].project_id, "job.pull_request_opened", toAgentJob(rows[0]));
  }
  return rows.length > 0;
}

/**
 * The forge accepted the dispatch of this run attempt; `started` names what it started when it
 * says (GitLab: `pipeline <id>`, which `runOfDispatch` matches a pipeline event by).
 */
export async function recordDispatched(tx: Queryable, jobId: string, runAttempt: number, started?: string): Promise<void> {
  await recordEvent(tx, jobId, "dispatched", "active", "active", "dispatcher", started ? `run attempt ${runAttempt}: ${started}` : `run attempt ${runAttempt}`);
}

/**
 * The PR (or GitLab merge request) was merged (`merge`, with the forge's merge time when known) or closed: the job is archived
 * and takes no more messages. A merge is remembered with its time, and the notice of its first
 * week's impact is queued for when that week has passed (impact/impact-notice-task.ts).
 */
export async function archiveJob(tx: Queryable, jobId: string, merge: { mergedAt: Date | null } | null, forge: ForgeName = "github"): Promise<AgentJob | null> {
  const { change } = forgeWords(forge);
  const before = await queryOne<JobRow>(tx, `SELECT * FROM jobs WHERE id = $1 FOR UPDATE`, [jobId]);
  const job = await applyTrigger(tx, { jobId, trigger: "pr_closed", cause: forge, detail: `${change} ${merge ? "merged" : "closed"}` });
  // Closed under an active run: the run Inkwell started on the forge is cancelled, as a cancel does.
  if (job && before?.status === "active") await stopForgeRun(tx, before, `the ${change} was closed`);
  if (job && merge) await recordMerge(tx, jobId, merge.mergedAt);
  return job;
}

/** A later merge the job follows up on: its agent reads the source repository at that merge's commit. */
export async function moveSourceContext(tx: Queryable, jobId: string, context: SourceContext): Promise<void> {
  await tx.query(`UPDATE jobs SET source_context = $2 WHERE id = $1`, [jobId, JSON.stringify(context)]);
}
