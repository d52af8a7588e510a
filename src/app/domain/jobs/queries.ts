import type { AgentJob, JobEvent, JobListQuery } from "../../../shared/api-schemas.js";
import type { JobTriggerType } from "../../../shared/job-vocabulary.js";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";
import { notFound } from "../errors.js";
import { eventsOf } from "./job-events.js";
import {
  jobIdOfBranch,
  SELECT_JOB_IN_REPOSITORY,
  toAgentJob,
  toJobInRepository,
  VIEW_COLUMNS,
  type JobInRepository,
  type JobInRepositoryRow,
  type JobViewRow,
} from "./job-record.js";

export async function getJob(db: Queryable, projectId: string, jobId: string): Promise<AgentJob> {
  const row = await queryOne<JobViewRow>(db, `SELECT ${VIEW_COLUMNS} FROM jobs WHERE id = $1 AND project_id = $2`, [jobId, projectId]);
  if (!row) throw notFound("Job");
  return toAgentJob(row);
}

export async function listJobs(db: Queryable, projectId: string, query: JobListQuery): Promise<{ jobs: AgentJob[]; hasMore: boolean }> {
  const params: unknown[] = [projectId, query.limit + 1, query.offset];
  const filters: string[] = [];
  if (query.status) filters.push(`AND status = $${params.push(query.status)}`);
  if (query.trigger) filters.push(`AND trigger_type = $${params.push(query.trigger)}`);
  const rows = await db.query<JobViewRow>(
    `SELECT ${VIEW_COLUMNS} FROM jobs WHERE project_id = $1 ${filters.join(" ")} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    params,
  );
  return { jobs: rows.slice(0, query.limit).map(toAgentJob), hasMore: rows.length > query.limit };
}

/** A job's transitions, oldest first; NotFoundError when the job is not in this project. */
export async function listJobEvents(db: Queryable, projectId: string, jobId: string): Promise<JobEvent[]> {
  await getJob(db, projectId, jobId);
  return eventsOf(db, jobId);
}

/** A job with its transitions, reading the job once (the dashboard polls this). */
export async function getJobWithEvents(db: Queryable, projectId: string, jobId: string): Promise<{ job: AgentJob; events: JobEvent[] }> {
  const job = await getJob(db, projectId, jobId);
  return { job, events: await eventsOf(db, jobId) };
}

async function oneJobInRepository(db: Queryable, where: string, params: unknown[]): Promise<JobInRepository | null> {
  const row = await queryOne<JobInRepositoryRow>(db, `${SELECT_JOB_IN_REPOSITORY} WHERE ${where}`, params);
  return row ? toJobInRepository(row) : null;
}

/** A job with its repository and installation, by id alone. */
export function jobInRepositoryById(db: Queryable, jobId: string): Promise<JobInRepository | null> {
  return oneJobInRepository(db, `j.id = $1`, [jobId]);
}

/** The job of a repository (owner/repo, any case), or null when it is another repository's or none. */
export function jobInRepository(db: Queryable, jobId: string, repoName: string): Promise<JobInRepository | null> {
  return oneJobInRepository(db, `j.id = $1 AND p.repo_full_name = $2`, [jobId, repoName.toLowerCase()]);
}

/** The job whose branch (`inkwell/<id>`) this is, in this repository; null for any other branch. */
export async function jobOnBranch(db: Queryable, repoName: string, ref: string): Promise<JobInRepository | null> {
  const jobId = jobIdOfBranch(ref);
  return jobId ? jobInRepository(db, jobId, repoName) : null;
}

/** The job a pull request belongs to (where a PR comment becomes a follow-up). */
export function jobOnChangeRequest(db: Queryable, repoName: string, changeNumber: number): Promise<JobInRepository | null> {
  return oneJobInRepository(db, `p.repo_full_name = $1 AND j.pr_number = $2`, [repoName.toLowerCase(), changeNumber]);
}

/** The job, when it still wants this run attempt dispatched (active, on that attempt); else null. */
export function jobForDispatch(db: Queryable, jobId: string, runAttempt: number): Promise<JobInRepository | null> {
  return oneJobInRepository(db, `j.id = $1 AND j.status = 'active' AND j.run_attempt = $2`, [jobId, runAttempt]);
}

/** The job, when this run attempt was dispatched but no workflow run has claimed it yet; else null. */
export function jobWithUnclaimedRun(db: Queryable, jobId: string, runAttempt: number): Promise<JobInRepository | null> {
  return oneJobInRepository(
    db,
    `j.id = $1 AND j.status = 'active' AND j.run_attempt = $2 AND NOT EXISTS (SELECT 1 FROM job_runs r WHERE r.job_id = j.id AND r.run_attempt = $2)`,
    [jobId, runAttempt],
  );
}

/** The run attempt a forge run (a GitHub workflow run, a GitLab pipeline) claimed, if any. */
export async function runClaimedBy(db: Queryable, runId: number): Promise<{ jobId: string; runAttempt: number; reported: boolean } | null> {
  const run = await queryOne<{ job_id: string; run_attempt: number; reported: boolean }>(
    db,
    `SELECT job_id, run_attempt, reported_at IS NOT NULL AS reported FROM job_runs WHERE workflow_run_id = $1`,
    [runId],
  );
  return run ? { jobId: run.job_id, runAttempt: run.run_attempt, reported: run.reported } : null;
}

/**
 * The active job of this project whose current run attempt's dispatch started this forge run, as
 * the forge named it (recordDispatched's `run attempt <n>: <started>`; GitLab: `pipeline <id>`), and
 * whether that run has reported.
 */
export async function runOfDispatch(db: Queryable, projectId: string, started: string): Promise<{ jobId: string; runAttempt: number; reported: boolean } | null> {
  const run = await queryOne<{ job_id: string; run_attempt: number; reported: boolean }>(
    db,
    `SELECT j.id AS job_id, j.run_attempt,
            EXISTS (SELECT 1 FROM job_runs r WHERE r.job_id = j.id AND r.run_attempt = j.run_attempt AND r.reported_at IS NOT NULL) AS reported
     FROM jobs j
     WHERE j.project_id = $1 AND j.status = 'active'
       AND EXISTS (SELECT 1 FROM job_events e WHERE e.job_id = j.id AND e.type = 'dispatched' AND e.detail = 'run attempt ' || j.run_attempt || ': ' || $2::text)`,
    [projectId, started],
  );
  return run ? { jobId: run.job_id, runAttempt: run.run_attempt, reported: run.reported } : null;
}

/**
 * A job still open: running, or with a pull request not yet merged or closed. A schedule fires no
 * second job while one is open; a merge or a mention follows up on it.
 */
const OPEN_JOB = `status <> 'archived' AND (status = 'active' OR pr_url IS NOT NULL)`;

/** An automation's newest open job (OPEN_JOB). */
export async function openJobOfAutomation(db: Queryable, automationId: string): Promise<{ id: string; status: AgentJob["status"]; prUrl: string | null } | null> {
  const row = await queryOne<{ id: string; status: AgentJob["status"]; pr_url: string | null }>(
    db,
    `SELECT id, status, pr_url FROM jobs WHERE automation_id = $1 AND ${OPEN_JOB} ORDER BY created_at DESC LIMIT 1`,
    [automationId],
  );
  return row ? { id: row.id, status: row.status, prUrl: row.pr_url } : null;
}

/** The newest open job (OPEN_JOB) started from this page (an issue). */
export async function openJobOfTrigger(db: Queryable, projectId: string, type: JobTriggerType, url: string): Promise<{ id: string; status: AgentJob["status"] } | null> {
  const row = await queryOne<{ id: string; status: AgentJob["status"] }>(
    db,
    `SELECT id, status FROM jobs WHERE project_id = $1 AND trigger_type = $2 AND trigger_url = $3 AND ${OPEN_JOB} ORDER BY created_at DESC LIMIT 1`,
    [projectId, type, url],
  );
  return row ?? null;
}
