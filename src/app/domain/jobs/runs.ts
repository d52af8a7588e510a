import type { AgentJob } from "../../../shared/api-schemas.js";
import type { ClaimRequest, ClaimResponse, HeartbeatRequest, HeartbeatResponse, ReportRequest } from "../../../shared/runner-schemas.js";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";
import { ConflictError, ForbiddenError, notFound } from "../errors.js";
import { applyTrigger, attachChangeRequest, startNextRun } from "./commands.js";
import { recordPushedHead } from "./checks.js";
import { recordEvent } from "./job-events.js";
import { issueNumberIn, SELECT_JOB_IN_REPOSITORY, toAgentJob, triggerOf, toJobInRepository, type JobInRepository, type JobInRepositoryRow, type JobRow } from "./job-record.js";
import { queueTrackingUpdate } from "./job-tasks.js";
import { assignQueuedMessages, hasQueuedMessages, messagesForRun } from "./messages.js";
import { contextWindowOf } from "./model-facts.js";
import { linkedSourceOf, type SourceContext } from "./source-context.js";
import { outcomeOf, withRunReport } from "./outcome.js";
import { queueJobEvent } from "./job-webhooks.js";
import { resumeWaitingJob, runStage, startWaiting } from "./waiting.js";
import { forgeWords } from "../../../shared/forge-words.js";

/** Who is asking, from a verified OIDC token. */
export interface RunnerCaller {
  repository: string;
  repositoryId: number | null;
}

/**
 * Locks the job and checks the token's repository is the job's (ForbiddenError otherwise). Returns
 * the row (for the commands that take one) and the job read from it.
 */
export async function lockJobFor(tx: Queryable, jobId: string, caller: RunnerCaller): Promise<{ row: JobInRepositoryRow; job: JobInRepository }> {
  const row = await queryOne<JobInRepositoryRow>(tx, `${SELECT_JOB_IN_REPOSITORY} WHERE j.id = $1 FOR UPDATE OF j`, [jobId]);
  if (!row) throw notFound("Job");
  const job = toJobInRepository(row);
  const sameName = job.repoName === caller.repository.toLowerCase();
  const sameId = job.repositoryId === null || caller.repositoryId === null || job.repositoryId === caller.repositoryId;
  if (!sameName || !sameId) throw new ForbiddenError("This job belongs to another repository");
  return { row, job };
}

export interface ClaimResult {
  context: ClaimResponse["job"];
  forge: JobInRepository["forge"];
  /** The App's installation (GitHub); null on GitLab, whose runs push with their own job token. */
  installationId: number | null;
  projectId: string;
  /** The code repository the run may read; the route mints its read-only token. */
  source: SourceContext | null;
}

/**
 * A run whose Action this service cannot serve does not take the job: the job fails saying which
 * Action to use, so whoever polls it reads why. Only the job's repository may do this, as for a claim.
 */
export async function refuseRun(tx: Queryable, request: ClaimRequest, caller: RunnerCaller, error: string): Promise<void> {
  const { job } = await lockJobFor(tx, request.jobId, caller);
  await applyTrigger(tx, { jobId: job.id, trigger: "run_failed", cause: "runner", runAttempt: request.runAttempt, error });
}

/**
 * A run takes the job: one run per job and attempt. The same workflow run may claim again (a
 * retried request); another run is refused with a conflict. Queued messages are handed to this run.
 */
export async function claimRun(tx: Queryable, request: ClaimRequest, caller: RunnerCaller, limits: { timeoutMinutes: number; heartbeatSeconds: number }): Promise<ClaimResult> {
  const { row, job } = await lockJobFor(tx, request.jobId, caller);
  if (job.status !== "active" || job.runAttempt !== request.runAttempt) {
    throw new ConflictError(`The job is not waiting for run attempt ${request.runAttempt} (it is ${job.status}, attempt ${job.runAttempt})`);
  }
  if (job.forge === "github" && job.installationId === null) throw new ConflictError(`The Inkwell GitHub App is no longer installed on ${job.repoName}`);
  const existing = await queryOne<{ workflow_run_id: string | number | null }>(
    tx,
    `SELECT workflow_run_id FROM job_runs WHERE job_id = $1 AND run_attempt = $2`,
    [job.id, request.runAttempt],
  );
  if (existing && Number(existing.workflow_run_id) !== request.workflowRunId) {
    throw new ConflictError(`Run attempt ${request.runAttempt} of this job was already claimed by ${forgeWords(job.forge).run} ${existing.workflow_run_id}`);
  }
  if (!existing) {
    await tx.query(`INSERT INTO job_runs (job_id, run_attempt, workflow_run_id, workflow_run_url) VALUES ($1, $2, $3, $4)`, [
      job.id,
      request.runAttempt,
      request.workflowRunId,
      request.workflowRunUrl ?? null,
    ]);
    await assignQueuedMessages(tx, job.id, request.runAttempt);
    await tx.query(`UPDATE jobs SET last_activity_at = now(), progress = NULL WHERE id = $1`, [job.id]);
    await recordEvent(tx, job.id, "claimed", "active", "active", "runner", request.workflowRunUrl ?? `${forgeWords(job.forge).run} ${request.workflowRunId}`);
    await queueTrackingUpdate(tx, row);
    await queueJobEvent(tx, job.projectId, "job.run_started", toAgentJob(row), { run: { attempt: request.runAttempt } });
  }
  const { messages, newMessagesFrom } = await messagesForRun(tx, job.id, request.runAttempt);
  return {
    forge: job.forge,
    installationId: job.installationId,
    projectId: job.projectId,
    source: await linkedSourceOf(tx, row),
    context: {
      id: job.id,
      runAttempt: job.runAttempt,
      // As GitHub spells it (repo_full_name is lower-cased for matching).
      repository: new URL(job.repository).pathname.replace(/^\/+/, ""),
      branch: job.branch,
      baseRef: job.baseRef,
      prNumber: job.changeNumber,
      model: job.model,
      requestedModel: row.requested_model,
      draft: row.draft,
      // The pull request stays a draft until the repository's own checks pass (checks.ts).
      draftUntilChecksPass: row.check_repair_rounds > 0,
      labels: row.labels,
      reviewers: row.reviewers,
      messages,
      newMessagesFrom,
      trigger: triggerOf(row),
      closesIssue: issueNumberIn(row.trigger_type === "issue" ? row.trigger_url : null, job.repository),
      ...runStage(row, job.runAttempt),
      limits: { ...limits, contextWindow: contextWindowOf(row.requested_model ?? job.model) },
    },
  };
}

export async function runOf(tx: Queryable, jobId: string, runAttempt: number) {
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
  const { row, job } = await lockJobFor(tx, request.jobId, caller);
  const run = await runOf(tx, job.id, request.runAttempt);
  const current = job.status === "active" && job.runAttempt === request.runAttempt;
  await tx.query(
    `UPDATE job_runs SET heartbeat_at = now(), progress = COALESCE($3, progress) WHERE job_id = $1 AND run_attempt = $2`,
    [job.id, request.runAttempt, request.progress || null],
  );
  if (current) {
    await tx.query(`UPDATE jobs SET last_activity_at = now(), progress = COALESCE($2, progress) WHERE id = $1`, [job.id, request.progress || null]);
    if (request.progress && request.progress !== run.progress) await queueTrackingUpdate(tx, row);
  }
  return { status: job.status, cancel: !current };
}

/**
 * The run's result. Idempotent per run attempt: a repeated report changes nothing and returns
 * the job. Messages that arrived during the run start the next run at once.
 */
export async function reportRun(tx: Queryable, report: ReportRequest, caller: RunnerCaller): Promise<{ job: AgentJob; dispatched: boolean }> {
  const { row, job } = await lockJobFor(tx, report.jobId, caller);
  const run = await runOf(tx, job.id, report.runAttempt);
  if (run.reported_at !== null) return { job: toAgentJob(row), dispatched: false };

  await tx.query(`UPDATE job_runs SET reported_at = now(), outcome = $3, report = $4 WHERE job_id = $1 AND run_attempt = $2`, [
    job.id,
    report.runAttempt,
    report.outcome,
    JSON.stringify(report),
  ]);
  const outcome = withRunReport(outcomeOf(row.outcome), report, report.model ?? job.model);
  // A question is answered once the run that had its answer reports.
  const [reported] = await tx.query<JobRow>(
    `UPDATE jobs SET model = COALESCE($2, model), outcome = $3, progress = NULL, question = NULL, updated_at = now() WHERE id = $1 RETURNING *`,
    [job.id, report.model ?? null, JSON.stringify(outcome)],
  );
  const current = job.status === "active" && job.runAttempt === report.runAttempt;
  const waiting = report.outcome === "completed" && current ? report.waiting : undefined;
  // A run no longer current ended without this report (lost, cancelled): that end was announced (commands.ts).
  if (current) {
    await queueJobEvent(tx, job.projectId, "job.run_finished", toAgentJob(reported as JobRow), { run: { attempt: report.runAttempt, outcome: waiting ? "waiting" : report.outcome, reported: true } });
  }
  if (waiting) {
    const waitingRow = await startWaiting(tx, reported as JobRow, waiting);
    // Someone wrote while the run planned or asked: that message is the answer (or the revision) at once.
    if (await hasQueuedMessages(tx, job.id)) return { job: await resumeWaitingJob(tx, waitingRow, { approved: false, cause: "runner" }), dispatched: true };
    return { job: toAgentJob(waitingRow), dispatched: false };
  }
  const pr = report.outcome === "completed" ? report.pr : null;
  if (pr) await attachChangeRequest(tx, job.id, pr, { replace: true });
  const moved = await applyTrigger(tx, {
    jobId: job.id,
    trigger: report.outcome === "completed" ? "run_succeeded" : "run_failed",
    cause: "runner",
    runAttempt: report.runAttempt,
    ...(report.outcome === "failed" ? { error: report.error } : { detail: pr ? pr.url : "no changes" }),
  });
  // What the run pushed is the job's head: the repository's checks on it are watched from now on.
  if (current && report.outcome === "completed") await recordPushedHead(tx, row, report.pushed);
  const after = (await queryOne<JobRow>(tx, `SELECT * FROM jobs WHERE id = $1`, [job.id])) as JobRow;
  // A move queued the comment's update already; the report shows in it even when the job did not move (archived meanwhile).
  if (!moved) await queueTrackingUpdate(tx, after);
  if (moved && (after.status === "completed" || after.status === "failed") && (await hasQueuedMessages(tx, job.id))) {
    return { job: await startNextRun(tx, after, "runner"), dispatched: true };
  }
  return { job: toAgentJob(after), dispatched: false };
}
