import type { Logger } from "pino";
import { z } from "zod";
import { JobArchivedError } from "../domain/errors.js";
import { linkRepositories, setInstallationSuspended, unlinkRepositories } from "../domain/installations.js";
import { addMessage, applyTrigger, queueTrackingUpdate, type JobRow } from "../domain/jobs.js";
import type { Db, Queryable } from "../store/db.js";
import { queryOne } from "../store/db.js";
import { enqueueTask } from "../tasks/tasks.js";
import type { TaskHandler, TaskOutcome } from "../tasks/task-worker.js";
import type { GitHubApi } from "./github-api.js";
import type { QueuedEvent } from "./webhook-events.js";

export const EVENT_TASK = "github_event";
export const REACTION_TASK = "reaction";

export interface EventTaskOptions {
  serverUrl: string;
  defaultModel: string;
  /** A comment starting with this addresses the agent (besides @-mentioning the App). */
  command: string;
  rateLimitPerHour: number;
}

const WRITERS = new Set(["admin", "maintain", "write"]);
const FAILED_CONCLUSIONS = new Set(["failure", "cancelled", "timed_out", "startup_failure", "stale"]);

/** The run name of the example workflow: how a run that dies before claiming is matched to its job. */
export const RUN_NAME_PATTERN = /\binkwell ([a-z0-9]{1,64})(?: #(\d+))?/;

const jobIdFromBranch = (ref: string) => /^inkwell\/([a-z0-9]{1,64})$/.exec(ref)?.[1] ?? null;

async function jobInRepo(db: Queryable, jobId: string, repo: string): Promise<(JobRow & { installation_id: string | number | null }) | undefined> {
  return queryOne(
    db,
    `SELECT j.*, p.installation_id FROM jobs j JOIN projects p ON p.id = j.project_id WHERE j.id = $1 AND p.repo_full_name = $2`,
    [jobId, repo.toLowerCase()],
  );
}

/**
 * The text a comment addresses to the agent: after an @mention of the App or the command at its
 * start. null when the comment is not for Inkwell.
 */
export function instructionIn(body: string, slug: string, command: string): string | null {
  const trimmed = body.trim();
  if (command && (trimmed === command || trimmed.startsWith(`${command} `) || trimmed.startsWith(`${command}\n`))) {
    return trimmed.slice(command.length).trim() || null;
  }
  const mention = new RegExp(`(^|[^\\w/-])@${slug.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "i");
  if (!mention.test(trimmed)) return null;
  return trimmed.replace(new RegExp(mention.source, "gi"), "$1").replace(/[ \t]{2,}/g, " ").trim() || null;
}

/** The `github_event` task: what a webhook delivery means for projects and jobs. */
export function githubEventTask(db: Db, github: GitHubApi, options: EventTaskOptions, log: Logger): TaskHandler {
  const handle: { [T in QueuedEvent["type"]]: (event: Extract<QueuedEvent, { type: T }>) => Promise<TaskOutcome> } = {
    async installation_linked(event) {
      const repos = await Promise.all(
        event.repositories.map(async (r) => ({
          fullName: r.fullName,
          repositoryId: r.id,
          defaultBranch: await github
            .repository(event.installationId, r.fullName)
            .then((info) => info.defaultBranch)
            .catch(() => null),
        })),
      );
      const ids = await db.transaction((tx) => linkRepositories(tx, event.installationId, repos, options.serverUrl, options.defaultModel));
      log.info({ installationId: event.installationId, projects: ids.length }, "installation linked to projects");
      return { ok: true };
    },

    async installation_unlinked(event) {
      const count = await db.transaction((tx) => unlinkRepositories(tx, event.installationId, event.repositories));
      log.info({ installationId: event.installationId, projects: count }, "installation removed from projects");
      return { ok: true };
    },

    async installation_suspended(event) {
      await db.transaction((tx) => setInstallationSuspended(tx, event.installationId, event.suspended));
      return { ok: true };
    },

    async pr_opened(event) {
      const jobId = jobIdFromBranch(event.headRef);
      const job = jobId ? await jobInRepo(db, jobId, event.repo) : undefined;
      if (!job) return { skipped: "not a job's branch" };
      await db.transaction(async (tx) => {
        const rows = await tx.query<JobRow>(
          `UPDATE jobs SET pr_number = $2, pr_url = $3, updated_at = now() WHERE id = $1 AND pr_number IS NULL RETURNING *`,
          [job.id, event.number, event.url],
        );
        if (rows[0]) await queueTrackingUpdate(tx, rows[0]);
      });
      return { ok: true };
    },

    async pr_closed(event) {
      const jobId = jobIdFromBranch(event.headRef);
      const job = jobId ? await jobInRepo(db, jobId, event.repo) : undefined;
      if (!job) return { skipped: "not a job's branch" };
      await db.transaction((tx) => applyTrigger(tx, { jobId: job.id, trigger: "pr_closed", cause: "github", detail: event.merged ? "pull request merged" : "pull request closed" }));
      return { ok: true };
    },

    async workflow_run_completed(event) {
      if (!event.conclusion || !FAILED_CONCLUSIONS.has(event.conclusion)) return { skipped: `conclusion ${event.conclusion}` };
      const byRun = await queryOne<{ job_id: string; run_attempt: number; reported_at: unknown }>(
        db,
        `SELECT job_id, run_attempt, reported_at FROM job_runs WHERE workflow_run_id = $1`,
        [event.runId],
      );
      const titled = RUN_NAME_PATTERN.exec(event.title);
      const jobId = byRun?.job_id ?? titled?.[1];
      if (!jobId || byRun?.reported_at) return { skipped: "no unreported run of a job" };
      const job = await jobInRepo(db, jobId, event.repo);
      if (!job) return { skipped: "not a job of this repository" };
      const attempt = byRun?.run_attempt ?? (titled?.[2] ? Number(titled[2]) : job.run_attempt);
      await db.transaction((tx) =>
        applyTrigger(tx, {
          jobId: job.id,
          trigger: "run_failed",
          cause: "github",
          runAttempt: attempt,
          error: `The workflow run ended "${event.conclusion}" without reporting back: ${event.url}`,
        }),
      );
      return { ok: true };
    },

    async comment(event) {
      const author = event.author;
      if (author.type !== "User" || author.login.endsWith("[bot]") || event.viaApp) return { skipped: "comment by a bot or an app" };
      const slug = await github.appSlug();
      const prompt = instructionIn(event.body, slug, options.command);
      if (!prompt) return { skipped: "comment does not address the agent" };
      const job = await queryOne<{ id: string; project_id: string; status: string }>(
        db,
        `SELECT j.id, j.project_id, j.status FROM jobs j JOIN projects p ON p.id = j.project_id WHERE p.repo_full_name = $1 AND j.pr_number = $2`,
        [event.repo.toLowerCase(), event.prNumber],
      );
      if (!job) return { skipped: "not a job's pull request" };
      if (job.status === "archived") return { skipped: "the job is archived" };
      const seen = await db.query(`SELECT 1 FROM job_messages WHERE comment_id = $1`, [event.commentId]);
      if (seen.length > 0) return { skipped: "comment already taken" };
      const permission = await github.permission(event.installationId, event.repo, author.login);
      if (!WRITERS.has(permission)) {
        log.debug({ login: author.login, permission }, "comment ignored: author cannot write to the repository");
        return { skipped: `author has ${permission} permission` };
      }
      const taken = await db.transaction(async (tx) => {
        await addMessage(
          tx,
          { projectId: job.project_id, jobId: job.id, prompt, source: "comment", author: author.login, commentId: event.commentId },
          { defaultRateLimitPerHour: options.rateLimitPerHour },
        );
        await enqueueTask(tx, REACTION_TASK, `reaction:${event.kind}:${event.commentId}`, {
          installationId: event.installationId,
          repo: event.repo,
          commentId: event.commentId,
          kind: event.kind,
        });
        return true;
      }).catch((error: unknown) => {
        // Archived between the look-up and the write: nothing to do.
        if (error instanceof JobArchivedError) return false;
        throw error;
      });
      return taken ? { ok: true } : { skipped: "the job is archived" };
    },
  };

  return {
    async run(payload) {
      const event = payload as QueuedEvent;
      return (handle[event.type] as (e: QueuedEvent) => Promise<TaskOutcome>)(event);
    },
  };
}

const reactionPayload = z.object({ installationId: z.number(), repo: z.string(), commentId: z.number(), kind: z.enum(["issue", "review"]) });

/** The `reaction` task: 👀 on a comment Inkwell took as a message. */
export function reactionTask(github: GitHubApi): TaskHandler {
  return {
    async run(payload) {
      const p = reactionPayload.parse(payload);
      await github.react(p.installationId, p.repo, { id: p.commentId, kind: p.kind }, "eyes");
      return { ok: true };
    },
  };
}
