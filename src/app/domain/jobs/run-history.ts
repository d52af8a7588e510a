import type { JobRun } from "../../../shared/api-schemas.js";
import type { ReportRequest } from "../../../shared/runner-schemas.js";
import type { Queryable } from "../../store/db.js";
import { toIso, toIsoOrNull } from "../../store/db.js";
import type { MessageSource } from "../../../shared/runner-schemas.js";
import { getJob } from "./queries.js";
import { runUsage, validationOf } from "./outcome.js";

interface RunRow {
  run_attempt: number;
  workflow_run_url: string | null;
  claimed_at: unknown;
  heartbeat_at: unknown;
  reported_at: unknown;
  outcome: "completed" | "failed" | null;
  report: string | null;
  trigger_source: MessageSource | null;
  trigger_author: string | null;
  has_transcript: boolean;
}

/** Every run of a job that a workflow run claimed, oldest first; NotFoundError when the job is not this project's. */
export async function listJobRuns(db: Queryable, projectId: string, jobId: string): Promise<JobRun[]> {
  const job = await getJob(db, projectId, jobId);
  const rows = await db.query<RunRow>(
    `SELECT r.run_attempt, r.workflow_run_url, r.claimed_at, r.heartbeat_at, r.reported_at, r.outcome, r.report,
            m.source AS trigger_source, m.author AS trigger_author, r.transcript IS NOT NULL AS has_transcript
     FROM job_runs r
     LEFT JOIN LATERAL (
       SELECT source, author FROM job_messages WHERE job_id = r.job_id AND run_attempt = r.run_attempt ORDER BY seq LIMIT 1
     ) m ON true
     WHERE r.job_id = $1
     ORDER BY r.run_attempt`,
    [jobId],
  );
  return rows.map((row) => toJobRun(row, job.model));
}

function toJobRun(row: RunRow, jobModel: string): JobRun {
  const report = row.report ? (JSON.parse(row.report) as ReportRequest) : null;
  const model = report?.model ?? null;
  return {
    attempt: row.run_attempt,
    workflowRunUrl: row.workflow_run_url,
    trigger: row.trigger_source ? { source: row.trigger_source, author: row.trigger_author } : null,
    claimedAt: toIso(row.claimed_at),
    lastHeartbeatAt: toIso(row.heartbeat_at),
    reportedAt: toIsoOrNull(row.reported_at),
    outcome: row.outcome,
    error: report?.outcome === "failed" ? report.error : null,
    summary: report?.outcome === "completed" ? (report.summary ?? null) : null,
    model,
    usage: report ? runUsage(report, model ?? jobModel) : null,
    validation: report?.validation ? validationOf(report.validation) : null,
    phases: report?.phases ?? [],
    hasTranscript: row.has_transcript,
  };
}
