import type { AgentJob } from "../../shared/api-schemas.js";
import type { ClaimRequest, ClaimResponse, HeartbeatRequest, HeartbeatResponse, ReportRequest } from "../../shared/runner-schemas.js";
import type { Queryable } from "../store/db.js";
import { queryOne, toIso } from "../store/db.js";
import { ConflictError, ForbiddenError, notFound } from "./errors.js";
import { applyTrigger, queueTrackingUpdate, recordEvent, startNextRun, toAgentJob, type JobRow } from "./jobs.js";

/** Who is asking, from a verified OIDC token. */
export interface RunnerCaller {
  repository: string;
  repositoryId: number | null;
}

interface JobWithProject extends JobRow {
  repo_full_name: string;
  repository_id: string | number | null;
  installation_id: string | number | null;
}

/** Locks the job and checks the token's repository is the job's (403 otherwise). */
async function lockJobFor(tx: Queryable, jobId: string, caller: RunnerCaller): Promise<JobWithProject> {
  const row = await queryOne<JobWithProject>(
    tx,
    `SELECT j.*, p.repo_full_name, p.repository_id, p.installation_id FROM jobs j JOIN projects p ON p.id = j.project_id
     WHERE j.id = $1 FOR UPDATE OF j`,
    [jobId],
  );
  if (!row) throw notFound("Job");
  const sameName = row.repo_full_name === caller.repository.toLowerCase();
  const sameId = row.repository_id === null || caller.repositoryId === null || Number(row.repository_id) === caller.repositoryId;
  if (!sameName || !sameId) throw new ForbiddenError("This job belongs to another repository");
  return row;
}

export interface ClaimResult {
  context: ClaimResponse["job"];
  installationId: number;
}

/**
 * A run takes the job: one run per job and attempt. The same workflow run may claim again (a
 * retried request); another run is refused with 409. Queued messages are handed to this run.
 */
export async function claimRun(tx: Queryable, request: ClaimRequest, caller: RunnerCaller, limits: { timeoutMinutes: number; heartbeatSeconds: number }): Promise<ClaimResult> {
  const job = await lockJobFor(tx, request.jobId, caller);
  if (job.status !== "active" || job.run_attempt !== request.runAttempt) {
    throw new ConflictError(`The job is not waiting for run attempt ${request.runAttempt} (it is ${job.status}, attempt ${job.run_attempt})`);
  }
  if (job.installation_id === null) throw new ConflictError(`The Inkwell GitHub App is no longer installed on ${job.repo_full_name}`);
  const existing = await queryOne<{ workflow_run_id: string | number | null }>(
    tx,
    `SELECT workflow_run_id FROM job_runs WHERE job_id = $1 AND run_attempt = $2`,
    [job.id, request.runAttempt],
  );
  if (existing && Number(existing.workflow_run_id) !== request.workflowRunId) {
    throw new ConflictError(`Run attempt ${request.runAttempt} of this job was already claimed by workflow run ${existing.workflow_run_id}`);
  }
  if (!existing) {
    await tx.query(`INSERT INTO job_runs (job_id, run_attempt, workflow_run_id, workflow_run_url) VALUES ($1, $2, $3, $4)`, [
      job.id,
      request.runAttempt,
      request.workflowRunId,
      request.workflowRunUrl ?? null,
    ]);
    await tx.query(`UPDATE job_messages SET run_attempt = $2 WHERE job_id = $1 AND run_attempt IS NULL`, [job.id, request.runAttempt]);
    await tx.query(`UPDATE jobs SET last_activity_at = now() WHERE id = $1`, [job.id]);
    await recordEvent(tx, job.id, "claimed", "active", "active", "runner", request.workflowRunUrl ?? `workflow run ${request.workflowRunId}`);
    await queueTrackingUpdate(tx, job);
  }
  const messages = await tx.query<{ seq: number; prompt: string; source: "api" | "comment"; author: string | null; created_at: unknown; run_attempt: number | null }>(
    `SELECT seq, prompt, source, author, created_at, run_attempt FROM job_messages WHERE job_id = $1 ORDER BY seq`,
    [job.id],
  );
  const firstNew = messages.find((m) => m.run_attempt === request.runAttempt)?.seq ?? (messages.at(-1)?.seq ?? 0) + 1;
  return {
    installationId: Number(job.installation_id),
    context: {
      id: job.id,
      runAttempt: job.run_attempt,
      // As GitHub spells it (repo_full_name is lower-cased for matching).
      repository: new URL(job.repository).pathname.replace(/^\/+/, ""),
      branch: job.branch,
      baseRef: job.base_ref,
      prNumber: job.pr_number,
      model: job.model,
      messages: messages.map((m) => ({ seq: m.seq, prompt: m.prompt, source: m.source, author: m.author, createdAt: toIso(m.created_at) })),
      newMessagesFrom: firstNew,
      limits,
    },
  };
}

async function runOf(tx: Queryable, jobId: string, runAttempt: number) {
  const run = await queryOne<{ progress: string | null; reported_at: unknown }>(
    tx,
    `SELECT progress, reported_at FROM job_runs WHERE job_id = $1 AND run_attempt = $2 FOR UPDATE`,
    [jobId, runAttempt],
  );
  if (!run) throw new ConflictError(`Run attempt ${runAttempt} of this job has not been claimed`);
  return run;
}

/** Keeps the job alive (watchdog) and records a progress line; tells a run to stop when the job moved on. */
export async function heartbeat(tx: Queryable, request: HeartbeatRequest, caller: RunnerCaller): Promise<HeartbeatResponse> {
  const job = await lockJobFor(tx, request.jobId, caller);
  const run = await runOf(tx, job.id, request.runAttempt);
  const current = job.status === "active" && job.run_attempt === request.runAttempt;
  await tx.query(
    `UPDATE job_runs SET heartbeat_at = now(), progress = COALESCE($3, progress) WHERE job_id = $1 AND run_attempt = $2`,
    [job.id, request.runAttempt, request.progress || null],
  );
  if (current) {
    await tx.query(`UPDATE jobs SET last_activity_at = now() WHERE id = $1`, [job.id]);
    if (request.progress && request.progress !== run.progress) await queueTrackingUpdate(tx, job);
  }
  return { status: job.status, cancel: !current };
}

/**
 * The run's result. Idempotent per run attempt: a repeated report changes nothing and returns
 * the job. Messages that arrived during the run start the next run at once.
 */
export async function reportRun(tx: Queryable, report: ReportRequest, caller: RunnerCaller): Promise<{ job: AgentJob; dispatched: boolean }> {
  const job = await lockJobFor(tx, report.jobId, caller);
  const run = await runOf(tx, job.id, report.runAttempt);
  if (run.reported_at !== null) return { job: toAgentJob(job), dispatched: false };

  await tx.query(`UPDATE job_runs SET reported_at = now(), outcome = $3, report = $4 WHERE job_id = $1 AND run_attempt = $2`, [
    job.id,
    report.runAttempt,
    report.outcome,
    JSON.stringify(report),
  ]);
  const pr = report.outcome === "completed" ? report.pr : null;
  await tx.query(
    `UPDATE jobs SET model = COALESCE($2, model), pr_number = COALESCE($3, pr_number), pr_url = COALESCE($4, pr_url), updated_at = now() WHERE id = $1`,
    [job.id, report.model ?? null, pr?.number ?? null, pr?.url ?? null],
  );
  const moved = await applyTrigger(tx, {
    jobId: job.id,
    trigger: report.outcome === "completed" ? "run_succeeded" : "run_failed",
    cause: "runner",
    runAttempt: report.runAttempt,
    ...(report.outcome === "failed" ? { error: report.error } : { detail: pr ? pr.url : "no changes" }),
  });
  const after = (await queryOne<JobRow>(tx, `SELECT * FROM jobs WHERE id = $1`, [job.id])) as JobRow;
  // The PR may have been set by this very report: the update applyTrigger queued saw none.
  await queueTrackingUpdate(tx, after);
  if (moved && (after.status === "completed" || after.status === "failed")) {
    const queued = await tx.query(`SELECT 1 FROM job_messages WHERE job_id = $1 AND run_attempt IS NULL LIMIT 1`, [job.id]);
    if (queued.length > 0) return { job: await startNextRun(tx, after, "runner"), dispatched: true };
  }
  return { job: toAgentJob(after), dispatched: false };
}
