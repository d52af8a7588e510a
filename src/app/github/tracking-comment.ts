import { z } from "zod";
import type { JobStatus } from "../../shared/api-schemas.js";
import type { Db } from "../store/db.js";
import { queryOne, toIso } from "../store/db.js";
import type { TaskHandler } from "../tasks/task-worker.js";
import type { GitHubApi } from "./github-api.js";

export interface TrackingView {
  jobId: string;
  status: JobStatus;
  error: string | null;
  instructions: { prompt: string; author: string | null }[];
  run: { attempt: number; url: string | null; progress: string | null; claimedAt: string; reportedAt: string | null; report: RunReport | null } | null;
}

interface RunReport {
  validation?: { passed: boolean; problems: string[] };
  usage?: { inputTokens: number; outputTokens: number };
  durationMs?: number;
  model?: string;
  summary?: string;
}

const HEADLINE: Record<JobStatus, string> = {
  active: "⏳ Working",
  completed: "✅ Done",
  failed: "❌ Failed",
  archived: "📦 Archived",
};

const quote = (text: string, max = 600) => {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
};

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** The one comment Inkwell keeps on a job's PR, edited in place. Pure: tested on its own. */
export function renderTrackingComment(view: TrackingView): string {
  const lines = [`<!-- inkwell:tracking:${view.jobId} -->`, `### Inkwell · ${HEADLINE[view.status]}`, ""];
  lines.push("**Instructions**", "");
  view.instructions.forEach((m, i) => {
    lines.push(`${i + 1}. ${m.author ? `@${m.author}` : "via the API"}:`, quote(m.prompt), "");
  });
  const run = view.run;
  if (run) {
    lines.push(`**Run**: ${run.url ? `[workflow run](${run.url})` : "workflow run"} (attempt ${run.attempt})`);
    if (view.status === "active" && run.progress) lines.push(`**Progress**: ${run.progress}`);
    const report = run.report;
    if (report?.validation) {
      lines.push(
        report.validation.passed
          ? "**Validation**: passed"
          : `**Validation**: ${report.validation.problems.length} problem(s)\n${report.validation.problems.slice(0, 20).map((p) => `- ${p}`).join("\n")}`,
      );
    }
    const facts: string[] = [];
    const ms = report?.durationMs ?? (run.reportedAt ? Date.parse(run.reportedAt) - Date.parse(run.claimedAt) : null);
    if (ms !== null && view.status !== "active") facts.push(`**Duration**: ${duration(ms)}`);
    if (report?.usage) facts.push(`**Tokens**: ${report.usage.inputTokens.toLocaleString("en-US")} in / ${report.usage.outputTokens.toLocaleString("en-US")} out`);
    if (report?.model) facts.push(`**Model**: ${report.model}`);
    if (facts.length > 0) lines.push(facts.join(" · "));
  }
  if (view.status === "failed" && view.error) lines.push("", `**Error**: ${view.error}`);
  if (view.status === "active") lines.push("", "_This comment updates as the agent works._");
  return lines.join("\n").trim() + "\n";
}

const payloadSchema = z.object({ jobId: z.string() });

/** The `tracking_comment` task: render the job's state and write it to its PR. */
export function trackingCommentTask(db: Db, github: GitHubApi): TaskHandler {
  return {
    async run(payload) {
      const { jobId } = payloadSchema.parse(payload);
      const job = await queryOne<{ status: JobStatus; error: string | null; pr_number: number | null; tracking_comment_id: string | number | null; repo_full_name: string; installation_id: string | number | null }>(
        db,
        `SELECT j.status, j.error, j.pr_number, j.tracking_comment_id, p.repo_full_name, p.installation_id
         FROM jobs j JOIN projects p ON p.id = j.project_id WHERE j.id = $1`,
        [jobId],
      );
      if (!job || job.pr_number === null) return { skipped: "no pull request" };
      if (job.installation_id === null) return { skipped: "the App is not installed" };
      const messages = await db.query<{ prompt: string; author: string | null }>(`SELECT prompt, author FROM job_messages WHERE job_id = $1 ORDER BY seq`, [jobId]);
      const run = await queryOne<{ run_attempt: number; workflow_run_url: string | null; progress: string | null; claimed_at: unknown; reported_at: unknown; report: string | null }>(
        db,
        `SELECT run_attempt, workflow_run_url, progress, claimed_at, reported_at, report FROM job_runs WHERE job_id = $1 ORDER BY run_attempt DESC LIMIT 1`,
        [jobId],
      );
      const body = renderTrackingComment({
        jobId,
        status: job.status,
        error: job.error,
        instructions: messages,
        run: run
          ? {
              attempt: run.run_attempt,
              url: run.workflow_run_url,
              progress: run.progress,
              claimedAt: toIso(run.claimed_at),
              reportedAt: run.reported_at === null ? null : toIso(run.reported_at),
              report: run.report ? (JSON.parse(run.report) as RunReport) : null,
            }
          : null,
      });
      const existing = job.tracking_comment_id === null ? null : Number(job.tracking_comment_id);
      const id = await github.upsertIssueComment(Number(job.installation_id), job.repo_full_name, job.pr_number, existing, body);
      if (id !== existing) await db.query(`UPDATE jobs SET tracking_comment_id = $2 WHERE id = $1`, [jobId, id]);
      return { ok: true };
    },
  };
}
