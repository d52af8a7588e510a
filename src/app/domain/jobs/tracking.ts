import type { JobStatus } from "../../../shared/api-schemas.js";
import type { MessageSource } from "../../../shared/runner-schemas.js";
import type { Queryable } from "../../store/db.js";
import { queryOne, toIso } from "../../store/db.js";
import { instructionsOf } from "./messages.js";
import { jobInRepositoryById } from "./queries.js";
import { impactNoticeOf } from "./merges.js";
import type { ImpactNotice } from "../../../shared/impact-schemas.js";
import type { WaitingFor } from "../../../shared/job-vocabulary.js";
import type { JobChecks } from "../../../shared/api-schemas.js";
import { jobChecksOf } from "./checks-record.js";

/** What the run reported that the tracking comment shows. */
export interface RunReportFacts {
  validation?: { passed: boolean; problems: string[] };
  usage?: { inputTokens: number; outputTokens: number };
  durationMs?: number;
  model?: string;
  summary?: string;
}

/** Everything the PR's tracking comment shows about a job. */
export interface TrackingView {
  jobId: string;
  status: JobStatus;
  error: string | null;
  instructions: { prompt: string; source: MessageSource; author: string | null }[];
  /** The first week after the merge, once it is over (merges.ts). */
  impact: ImpactNotice | null;
  /** The plan to approve or the question to answer while the job waits for the user; null otherwise. */
  waiting: { for: WaitingFor; text: string } | null;
  /** What the repository's own checks say of the job's head; null (or absent) when they are not watched. */
  checks?: JobChecks | null;
  run: { attempt: number; url: string | null; progress: string | null; claimedAt: string; reportedAt: string | null; report: RunReportFacts | null } | null;
}

/** Where the tracking comment goes: the job's PR on GitHub (through the App's installation) or its merge request on GitLab (a note). */
export type TrackingTarget =
  | { forge: "github"; installationId: number; repoName: string; changeNumber: number; commentId: number | null }
  | { forge: "gitlab"; projectId: string; changeNumber: number; commentId: number | null };

/** Where the comment goes, and what it says; `skipped` (with why) when the job has no PR or the App is gone. */
export async function trackingCommentState(db: Queryable, jobId: string): Promise<{ view: TrackingView; target: TrackingTarget } | { skipped: string }> {
  const job = await jobInRepositoryById(db, jobId);
  if (!job || job.changeNumber === null) return { skipped: "no pull request" };
  if (job.forge === "github" && job.installationId === null) return { skipped: "the App is not installed" };
  const run = await queryOne<{ run_attempt: number; workflow_run_url: string | null; progress: string | null; claimed_at: unknown; reported_at: unknown; report: string | null }>(
    db,
    `SELECT run_attempt, workflow_run_url, progress, claimed_at, reported_at, report FROM job_runs WHERE job_id = $1 ORDER BY run_attempt DESC LIMIT 1`,
    [jobId],
  );
  const waits = await queryOne<{ waiting_for: WaitingFor | null; plan: string | null; question: string | null; head_sha: string | null; checks: string | null }>(
    db,
    `SELECT waiting_for, plan, question, head_sha, checks FROM jobs WHERE id = $1`,
    [jobId],
  );
  const waiting = job.status === "active" && waits?.waiting_for ? { for: waits.waiting_for, text: (waits.waiting_for === "approval" ? waits.plan : waits.question) ?? "" } : null;
  return {
    view: {
      jobId,
      waiting,
      checks: jobChecksOf(waits?.checks ?? null, waits?.head_sha ?? null),
      status: job.status,
      error: job.error,
      instructions: await instructionsOf(db, jobId),
      impact: await impactNoticeOf(db, jobId),
      run: run
        ? {
            attempt: run.run_attempt,
            url: run.workflow_run_url,
            progress: run.progress,
            claimedAt: toIso(run.claimed_at),
            reportedAt: run.reported_at === null ? null : toIso(run.reported_at),
            report: run.report ? (JSON.parse(run.report) as RunReportFacts) : null,
          }
        : null,
    },
    target:
      job.installationId === null
        ? { forge: "gitlab", projectId: job.projectId, changeNumber: job.changeNumber, commentId: job.trackingCommentId }
        : { forge: "github", installationId: job.installationId, repoName: job.repoName, changeNumber: job.changeNumber, commentId: job.trackingCommentId },
  };
}

/** The comment GitHub gave the tracking comment, so the next update edits it in place. */
export async function recordTrackingComment(db: Queryable, jobId: string, commentId: number): Promise<void> {
  await db.query(`UPDATE jobs SET tracking_comment_id = $2 WHERE id = $1`, [jobId, commentId]);
}
