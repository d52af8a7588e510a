import type { AgentJob } from "../../../shared/api-schemas.js";
import type { WaitingFor } from "../../../shared/job-vocabulary.js";
import type { ReportRequest } from "../../../shared/runner-schemas.js";
import type { Queryable } from "../../store/db.js";
import { queryOne, toIso } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { ConflictError, notFound } from "../errors.js";
import { recordEvent, type EventCause } from "./job-events.js";
import { issueNumberIn, SELECT_JOB_IN_REPOSITORY, toAgentJob, toJobInRepository, type JobInRepositoryRow, type JobRow } from "./job-record.js";
import { enqueueDispatch, queueTrackingUpdate } from "./job-tasks.js";
import { queueJobEvent } from "./job-webhooks.js";

/**
 * Jobs that wait for the user between runs (docs/api.md, "Plans and questions"). A waiting job
 * stays `active`, so a client that knows only the four statuses keeps polling it; `waiting_for`
 * says what it waits for, and the next run starts when it is approved or answered.
 */

/** Posts the plan or question where the job's people talk: its pull request, or the issue it came from (forges/waiting.ts). */
export const WAITING_COMMENT_TASK = "waiting_comment";

export type Waiting = NonNullable<Extract<ReportRequest, { outcome: "completed" }>["waiting"]>;

/** Which stage a run of this job works in, and what of the plan and question it is handed (the claim's context). */
export function runStage(row: Pick<JobRow, "plan_approval" | "plan_approved_attempt" | "plan" | "question" | "max_questions">, runAttempt: number) {
  const planning = row.plan_approval && row.plan_approved_attempt === null;
  return {
    stage: planning ? ("plan" as const) : ("work" as const),
    // The plan to revise while planning; once approved, the run carrying it out (resumeWaitingJob and
    // startNextRun move that on while the plan is not done: the run asked a question, or failed).
    plan: planning || row.plan_approved_attempt === runAttempt ? row.plan : null,
    question: row.question,
    maxQuestions: row.max_questions,
  };
}

/**
 * The run stopped to wait (its report's `waiting`): the job stays active and shows the plan or
 * question; the webhook and a comment on the PR or issue announce it.
 */
export async function startWaiting(tx: Queryable, row: JobRow, waiting: Waiting): Promise<JobRow> {
  const updated = await tx.query<JobRow>(
    `UPDATE jobs SET waiting_for = $2, waiting_since = now(), plan = CASE WHEN $2 = 'approval' THEN $3 ELSE plan END,
       question = CASE WHEN $2 = 'answer' THEN $3 ELSE NULL END, progress = NULL, updated_at = now(), last_activity_at = now()
     WHERE id = $1 RETURNING *`,
    [row.id, waiting.for, waiting.for === "approval" ? waiting.plan : waiting.question],
  );
  const after = updated[0] as JobRow;
  await recordEvent(tx, row.id, "waiting", "active", "active", "runner", waiting.for === "approval" ? "for approval of its plan" : "for an answer to its question");
  await queueTrackingUpdate(tx, after);
  await queueJobEvent(tx, row.project_id, "job.waiting", toAgentJob(after));
  if (row.pr_number !== null || row.trigger_type === "issue") await enqueueTask(tx, WAITING_COMMENT_TASK, `waiting:${row.id}:${row.run_attempt}`, { jobId: row.id, runAttempt: row.run_attempt });
  return after;
}

/**
 * The next run's plan_approved_attempt (SQL over the job's row before the update; `approved`: the
 * SQL of whether this update approves the plan): the run approving
 * starts, and the run after one that carried the approved plan without finishing it (it stopped to
 * ask a question, or failed: a follow-up starts the next run), so the plan is never dropped halfway.
 * A run the user stopped (`cancelled`) hands it on no further: what they say next is the instruction.
 */
export const carryThePlanOn = (approved: "$2" | "false") => `CASE WHEN ${approved} OR (plan_approved_attempt = run_attempt AND (waiting_for = 'answer' OR (status = 'failed'
    AND (SELECT e.type FROM job_events e WHERE e.job_id = jobs.id AND e.to_status = 'failed' ORDER BY e.id DESC LIMIT 1) IS DISTINCT FROM 'cancelled')))
  THEN run_attempt + 1 ELSE plan_approved_attempt END`;

/**
 * The next run of a waiting job: approving (the plan is carried out) or a message (the plan is
 * revised, or the question answered). Dispatched after commit, as any run.
 */
export async function resumeWaitingJob(tx: Queryable, row: JobRow, how: { approved: boolean; cause: EventCause; author?: string | null | undefined }): Promise<AgentJob> {
  const updated = await tx.query<JobRow>(
    `UPDATE jobs SET run_attempt = run_attempt + 1, waiting_for = NULL, waiting_since = NULL, error = NULL,
       plan_approved_attempt = ${carryThePlanOn("$2")}, updated_at = now(), last_activity_at = now()
     WHERE id = $1 RETURNING *`,
    [row.id, how.approved],
  );
  const next = updated[0] as JobRow;
  const who = how.author ? `by @${how.author}` : `by ${how.cause}`;
  const type = how.approved ? "plan_approved" : row.waiting_for === "answer" ? "answered" : "plan_revision_asked";
  await recordEvent(tx, row.id, type, "active", "active", how.cause, who);
  await enqueueDispatch(tx, row.id, next.run_attempt);
  await queueTrackingUpdate(tx, next);
  return toAgentJob(next);
}

export interface ApprovePlanInput {
  projectId: string;
  jobId: string;
  cause: EventCause;
  /** The GitHub login of who approved (a dashboard user, a commenter); null for API keys. */
  author?: string | null;
  /** When a comment that approves was written, by the forge's clock: it approves only a plan shown by then. */
  writtenAt?: Date | null;
}

/**
 * How far a forge's clock may run behind the store's before a comment written just after a plan
 * was shown looks written before it. A person reads a plan for longer than this; a redelivered or
 * late comment is older than any later plan by the length of a run at least.
 */
const FORGE_CLOCK_SKEW_MS = 30_000;

/** Approves the plan a job waits with: the run that carries it out is dispatched. ConflictError when the job waits for no approval. */
export async function approvePlan(tx: Queryable, input: ApprovePlanInput): Promise<AgentJob> {
  const row = await queryOne<JobRow>(tx, `SELECT * FROM jobs WHERE id = $1 AND project_id = $2 FOR UPDATE`, [input.jobId, input.projectId]);
  if (!row) throw notFound("Job");
  if (row.status !== "active" || row.waiting_for !== "approval") {
    throw new ConflictError(`The job is not waiting for a plan's approval (it is ${row.status}${describeWaiting(row.status === "active" ? row.waiting_for : null)})`);
  }
  if (input.writtenAt && row.waiting_since !== null && input.writtenAt.getTime() + FORGE_CLOCK_SKEW_MS < Date.parse(toIso(row.waiting_since))) {
    throw new ConflictError("The approval was written before the plan now waiting was shown; approve that plan again");
  }
  return resumeWaitingJob(tx, row, { approved: true, cause: input.cause, author: input.author });
}

const describeWaiting = (waitingFor: WaitingFor | null) => (waitingFor === "answer" ? ", waiting for an answer" : waitingFor === null ? "" : ", waiting for approval");

/** What the comment announcing a wait says and where it goes: the job's PR, else the issue it came from. null once the job no longer waits from that run. */
export async function waitingNoticeOf(db: Queryable, jobId: string, runAttempt: number) {
  const row = await queryOne<JobInRepositoryRow>(db, `${SELECT_JOB_IN_REPOSITORY} WHERE j.id = $1`, [jobId]);
  if (!row || row.status !== "active" || row.waiting_for === null || row.run_attempt !== runAttempt) return null;
  const job = toJobInRepository(row);
  const issueNumber = job.changeNumber ?? issueNumberIn(row.trigger_type === "issue" ? row.trigger_url : null, job.repository);
  // A GitHub project's App writes there; a GitLab project's access token does.
  if (issueNumber === null || (job.forge === "github" && job.installationId === null)) return null;
  return {
    jobId: job.id,
    projectId: job.projectId,
    forge: job.forge,
    onIssue: job.changeNumber === null,
    waitingFor: row.waiting_for,
    text: (row.waiting_for === "approval" ? row.plan : row.question) ?? "",
    installationId: job.installationId,
    repoName: job.repoName,
    issueNumber,
  };
}

/**
 * The job a pull request or the issue it came from belongs to, for `/inkwell approve` there: the
 * one waiting for approval, else the newest active one (which says why it cannot be approved); null
 * when none is open. `on`: GitHub's pull requests and issues share one sequence of numbers (either
 * matches); GitLab's merge request !n and issue #n are different things (only the one commented on).
 */
export async function jobToApproveOn(db: Queryable, repoName: string, issueNumber: number, on: "either" | "change" | "issue" = "either"): Promise<{ id: string; projectId: string } | null> {
  const byChange = `j.pr_number = $2`;
  const byIssue = `(j.trigger_type = 'issue' AND lower(j.trigger_url) IN (lower(j.repository) || '/issues/' || $2::text, lower(j.repository) || '/-/issues/' || $2::text))`;
  const match = on === "change" ? byChange : on === "issue" ? byIssue : `(${byChange} OR ${byIssue})`;
  const rows = await db.query<JobInRepositoryRow>(
    `${SELECT_JOB_IN_REPOSITORY} WHERE p.repo_full_name = $1 AND j.status = 'active' AND ${match}
     ORDER BY j.waiting_for IS NOT DISTINCT FROM 'approval' DESC, j.created_at DESC LIMIT 1`,
    [repoName.toLowerCase(), issueNumber],
  );
  return rows[0] ? { id: rows[0].id, projectId: rows[0].project_id } : null;
}
