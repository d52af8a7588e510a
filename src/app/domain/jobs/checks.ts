import type { CheckState } from "../../../shared/job-vocabulary.js";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { startNextRun } from "./commands.js";
import { storedChecksOf, type FailingCheck, type StoredChecks } from "./checks-record.js";
import { recordEvent } from "./job-events.js";
import { SELECT_JOB_IN_REPOSITORY, toJobInRepository, type JobInRepository, type JobInRepositoryRow } from "./job-record.js";
import { queueTrackingUpdate } from "./job-tasks.js";
import { insertMessage, isFollowUpTaken, type FollowUpOrigin } from "./messages.js";

/**
 * The docs repository's own checks as the last word (docs/action.md, "The repository's own checks"):
 * the check runs, statuses or pipelines on the commit a job's last run pushed. A failure sends the
 * failing checks' log excerpts back to the agent as a repair round (a message from `checks`, once per
 * commit, up to the project's `check_repair_rounds`); a pass marks the change request ready for review.
 */

/** Looks at the checks on a job's head (forges/checks-task.ts). */
export const CHECKS_TASK = "checks";
/** Marks a job's change request ready for review once the checks on its head passed. */
export const CHANGE_READY_TASK = "change_ready";

/** A head with no check at all this long after its push counts as passed: a repository without CI must not leave its PR a draft forever. */
export const CHECKS_GRACE_SECONDS = 300;

export interface ChecksTaskPayload {
  jobId: string;
  sha: string;
}

/** Queues a look at the checks on the job's head: now (a webhook said they changed), or when the grace period after the push is over. */
export async function queueChecksLook(tx: Queryable, jobId: string, sha: string, delaySeconds = 0): Promise<void> {
  // The delayed look has a key of its own: a pending task queued again keeps its time (tasks.ts).
  const key = delaySeconds > 0 ? `checks-settle:${jobId}:${sha}` : `checks:${jobId}:${sha}`;
  await enqueueTask(tx, CHECKS_TASK, key, { jobId, sha } satisfies ChecksTaskPayload, delaySeconds);
}

/**
 * A run reported what it pushed (runs.ts). The job's head is that commit from now on; when the
 * project watches the checks, those on it are pending, the rounds counted so far stay, and a look is
 * due when the grace period is over. A run that pushed nothing leaves the head: its checks are looked at again.
 */
export async function recordPushedHead(tx: Queryable, row: JobInRepositoryRow, pushed: { sha: string; draft: boolean } | undefined): Promise<void> {
  const previous = storedChecksOf(row.checks);
  if (!pushed) {
    if (previous && row.head_sha) await queueChecksLook(tx, row.id, row.head_sha);
    return;
  }
  const watch = row.check_repair_rounds > 0;
  const checks: StoredChecks | null = watch ? { state: "pending", failing: [], rounds: previous?.rounds ?? 0, pushedAt: new Date().toISOString(), keepDraft: pushed.draft } : null;
  await tx.query(`UPDATE jobs SET head_sha = $2, checks = $3 WHERE id = $1`, [row.id, pushed.sha, checks ? JSON.stringify(checks) : null]);
  if (watch) await queueChecksLook(tx, row.id, pushed.sha, CHECKS_GRACE_SECONDS);
}

/** The watched job whose head is this commit (what a check event names), in this repository or project; null for any other commit. */
export async function jobWatchingHead(db: Queryable, where: { repoName: string } | { projectId: string }, sha: string): Promise<string | null> {
  const [column, value] = "projectId" in where ? ["j.project_id", where.projectId] : ["p.repo_full_name", where.repoName.toLowerCase()];
  const row = await queryOne<{ id: string }>(
    db,
    `SELECT j.id FROM jobs j JOIN projects p ON p.id = j.project_id
     WHERE j.head_sha = $2 AND ${column} = $1 AND j.checks IS NOT NULL AND j.status <> 'archived' ORDER BY j.created_at DESC LIMIT 1`,
    [value, sha],
  );
  return row?.id ?? null;
}

/** A job's head whose checks are still its business: watched, not moved on, the job not archived. */
export interface WatchedHead {
  job: JobInRepository;
  sha: string;
  checks: StoredChecks;
  /** Inkwell's own runs of this job that claimed (GitHub workflow runs, GitLab pipelines): never the repository's checks. */
  ownRuns: Set<number>;
  /** What each of the job's dispatches started, as its forge named it (GitLab: `pipeline <id>`), for the runs that never claimed. */
  dispatched: string[];
}

export async function watchedHead(db: Queryable, jobId: string, sha: string): Promise<WatchedHead | null> {
  const row = await queryOne<JobInRepositoryRow>(db, `${SELECT_JOB_IN_REPOSITORY} WHERE j.id = $1`, [jobId]);
  const checks = storedChecksOf(row?.checks ?? null);
  if (!row || !checks || row.head_sha !== sha || row.status === "archived") return null;
  const runs = await db.query<{ id: string | number }>(`SELECT workflow_run_id AS id FROM job_runs WHERE job_id = $1 AND workflow_run_id IS NOT NULL`, [jobId]);
  const dispatched = await db.query<{ started: string }>(
    `SELECT substring(detail FROM '^run attempt [0-9]+: (.*)$') AS started FROM job_events WHERE job_id = $1 AND type = 'dispatched' AND detail LIKE 'run attempt %: %' ORDER BY id`,
    [jobId],
  );
  return { job: toJobInRepository(row), sha, checks, ownRuns: new Set(runs.map((r) => Number(r.id))), dispatched: dispatched.map((d) => d.started) };
}

const repairOrigin = (jobId: string, sha: string): FollowUpOrigin => ({ kind: "event", key: `checks:${jobId}:${sha}` });

/** Whether a failure on this head would start a repair round now: the task reads the failing checks' logs only then. */
export async function repairRoundDue(db: Queryable, head: WatchedHead): Promise<boolean> {
  if (head.job.status === "active" || head.checks.rounds >= head.job.checkRepairRounds) return false;
  return !(await isFollowUpTaken(db, repairOrigin(head.job.id, head.sha)));
}

export interface ChecksVerdict {
  state: CheckState;
  failing: FailingCheck[];
  /** How it came about, for the job's history ("3 checks passed", "no check reported within 5 minutes"). */
  detail: string;
  /** The repair round's instruction (the failing checks with their log excerpts); null when none is due. */
  repair: string | null;
}

const short = (sha: string) => sha.slice(0, 7);
const named = (failing: FailingCheck[]) => failing.map((check) => check.name).join(", ");
const sameChecks = (a: FailingCheck[], b: FailingCheck[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What the checks on the job's head say, taken under the job's lock: a pass marks the change
 * request ready (unless the job keeps it a draft); a failure starts a repair round on the same
 * branch through the job's messages (one run at a time: never while a run is going), once per
 * commit and up to the project's limit; past it the job stays as it is, naming what failed. Returns
 * what it did, in a few words; a head that moved on changes nothing.
 */
export async function recordChecksVerdict(tx: Queryable, jobId: string, sha: string, verdict: ChecksVerdict): Promise<string> {
  const row = await queryOne<JobInRepositoryRow>(tx, `${SELECT_JOB_IN_REPOSITORY} WHERE j.id = $1 FOR UPDATE OF j`, [jobId]);
  const checks = storedChecksOf(row?.checks ?? null);
  if (!row || !checks || row.head_sha !== sha || row.status === "archived") return "the job's head moved on";
  const store = (next: StoredChecks) => tx.query(`UPDATE jobs SET checks = $2, updated_at = now() WHERE id = $1`, [row.id, JSON.stringify(next)]);
  const limit = row.check_repair_rounds;

  if (verdict.state === "pending") {
    if (checks.state !== "pending") await store({ ...checks, state: "pending", failing: [] });
    return "pending";
  }
  if (verdict.state === "passing") {
    if (checks.state === "passing") return "passed, as recorded";
    await store({ ...checks, state: "passing", failing: [] });
    await recordEvent(tx, row.id, "checks_passed", row.status, row.status, row.forge, `${verdict.detail} on ${short(sha)}`);
    await queueTrackingUpdate(tx, row);
    if (!checks.keepDraft && row.pr_number !== null) await enqueueTask(tx, CHANGE_READY_TASK, `change-ready:${row.id}:${sha}`, { jobId: row.id, sha } satisfies ChecksTaskPayload);
    return "passed";
  }

  const origin = repairOrigin(row.id, sha);
  const due = verdict.repair !== null && row.status !== "active" && checks.rounds < limit && !(await isFollowUpTaken(tx, origin));
  if (!due) {
    if (checks.state === "failing" && sameChecks(checks.failing, verdict.failing)) return "failing, as recorded";
    await store({ ...checks, state: "failing", failing: verdict.failing });
    const why = row.status === "active" ? "a run is going; looked at again when it reports" : checks.rounds >= limit ? `no repair round left (${checks.rounds} of ${limit} used)` : "its repair round ran already";
    await recordEvent(tx, row.id, "checks_failed", row.status, row.status, row.forge, `${named(verdict.failing)} failed on ${short(sha)}: ${why}`);
    await queueTrackingUpdate(tx, row);
    return `failing: ${why}`;
  }
  const round = checks.rounds + 1;
  await insertMessage(tx, row, { prompt: verdict.repair as string, source: "checks", author: null, origin });
  await store({ ...checks, state: "failing", failing: verdict.failing, rounds: round });
  await recordEvent(tx, row.id, "checks_failed", row.status, row.status, row.forge, `${named(verdict.failing)} failed on ${short(sha)}: repair round ${round} of ${limit}`);
  await startNextRun(tx, row, "checks");
  return `repair round ${round} of ${limit}`;
}

/** The job whose change request is to be marked ready: its head still this commit, the checks on it passing, nothing keeping it a draft. */
export async function changeToMarkReady(db: Queryable, jobId: string, sha: string): Promise<JobInRepository | null> {
  const row = await queryOne<JobInRepositoryRow>(db, `${SELECT_JOB_IN_REPOSITORY} WHERE j.id = $1`, [jobId]);
  const checks = storedChecksOf(row?.checks ?? null);
  if (!row || !checks || row.head_sha !== sha || row.status === "archived" || row.pr_number === null || checks.state !== "passing" || checks.keepDraft) return null;
  return toJobInRepository(row);
}

/** The change request was marked ready for review (or was already): the job's history says so. */
export async function recordMarkedReady(tx: Queryable, jobId: string, detail: string): Promise<void> {
  const row = await queryOne<{ status: JobInRepository["status"]; forge: JobInRepository["forge"] }>(tx, `SELECT j.status, p.forge FROM jobs j JOIN projects p ON p.id = j.project_id WHERE j.id = $1`, [jobId]);
  if (row) await recordEvent(tx, jobId, "marked_ready", row.status, row.status, row.forge, detail);
}
