import type { Logger } from "pino";
import { linkRepositories, setInstallationSuspended, unlinkRepositories } from "../../domain/installations.js";
import { applyTrigger, archiveJob, attachChangeRequest } from "../../domain/jobs/commands.js";
import { jobInRepository, jobOnBranch, runClaimedBy } from "../../domain/jobs/queries.js";
import type { Db } from "../../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../../tasks/task-definition.js";
import { commentFollowUp } from "./comment-follow-up.js";
import { queueRobotsFromGitHubMerge } from "./robots-merges.js";
import { reviewFollowUp } from "./review-follow-up.js";
import { intoDefaultBranch } from "./automation-events.js";
import { automationJobs } from "./automation-jobs.js";
import type { GitHubApi } from "./api.js";
import { queuedEventSchema, type QueuedEvent } from "./webhook-events.js";
import { lookAtChecks } from "../checks-task.js";

export const EVENT_TASK = "github_event";

export interface EventTaskOptions {
  serverUrl: string;
  defaultModel: string;
  /** A comment starting with this addresses the agent (besides @-mentioning the App). */
  command: string;
  rateLimitPerHour: number;
  publicUrl: string | null;
}

const FAILED_CONCLUSIONS = new Set(["failure", "cancelled", "timed_out", "startup_failure", "stale"]);

/** The run name of the example workflow: how a run that dies before claiming is matched to its job. */
export const RUN_NAME_PATTERN = /\binkwell ([a-z0-9]{1,64})(?: #(\d+))?/;

/** The `github_event` task: what a webhook delivery means for projects and jobs. */
export function githubEventTask(db: Db, github: GitHubApi, options: EventTaskOptions, log: Logger): TaskDefinition {
  const takeComment = commentFollowUp(db, github, options, log);
  const takeReview = reviewFollowUp(db, github, options, log);
  const automations = automationJobs(db, github, options, log);
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
      const job = await jobOnBranch(db, event.repo, event.headRef);
      if (!job) return { skipped: "not a job's branch" };
      await db.transaction((tx) => attachChangeRequest(tx, job.id, { number: event.number, url: event.url }, { replace: false }));
      return { ok: true };
    },

    async pr_closed(event) {
      if (event.merged && event.defaultBranchMerge) {
        await queueRobotsFromGitHubMerge(db, { repo: event.repo, number: event.number, mergedAt: event.mergedAt ?? null, ...event.defaultBranchMerge });
      }
      const job = await jobOnBranch(db, event.repo, event.headRef);
      if (!job) return { skipped: "not a job's branch" };
      await db.transaction((tx) => archiveJob(tx, job.id, event.merged ? { mergedAt: mergedTime(event.mergedAt) } : null));
      return { ok: true };
    },

    async workflow_run_completed(event) {
      if (!event.conclusion || !FAILED_CONCLUSIONS.has(event.conclusion)) return { skipped: `conclusion ${event.conclusion}` };
      const byRun = await runClaimedBy(db, event.runId);
      const titled = RUN_NAME_PATTERN.exec(event.title);
      const jobId = byRun?.jobId ?? titled?.[1];
      if (!jobId || byRun?.reported) return { skipped: "no unreported run of a job" };
      const job = await jobInRepository(db, jobId, event.repo);
      if (!job) return { skipped: "not a job of this repository" };
      const attempt = byRun?.runAttempt ?? (titled?.[2] ? Number(titled[2]) : job.runAttempt);
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

    comment: (event) => takeComment(event),
    review: (event) => takeReview(event),
    async source_merged(event) {
      if (intoDefaultBranch(event)) {
        await queueRobotsFromGitHubMerge(db, { repo: event.repo, installationId: event.installationId, number: event.number, mergeSha: event.mergeSha, mergedAt: event.mergedAt ?? null });
      }
      return automations.source_merged(event);
    },
    issue_labeled: (event) => automations.issue_labeled(event),
    issue_comment: (event) => automations.issue_comment(event),
    checks_changed: (event) => lookAtChecks(db, { repoName: event.repo }, event.sha),
  };

  return defineTask({
    kind: EVENT_TASK,
    payload: queuedEventSchema,
    async run(event) {
      return (handle[event.type] as (e: QueuedEvent) => Promise<TaskOutcome>)(event);
    },
  });
}

/** GitHub's merged_at as a time the store keeps; null (the store's now) when absent, unreadable or ahead of this clock. */
function mergedTime(value: string | null | undefined): Date | null {
  const at = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(at) && at <= Date.now() + 60_000 ? new Date(at) : null;
}
