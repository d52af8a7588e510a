import type { Logger } from "pino";
import { gitLabConnectionOf, gitLabRepoName } from "../../domain/gitlab-connections.js";
import { archiveJob } from "../../domain/jobs/commands.js";
import { jobOnBranch, jobOnChangeRequest } from "../../domain/jobs/queries.js";
import type { FollowUpOptions } from "../follow-ups.js";
import type { Db } from "../../store/db.js";
import { defineTask, type TaskDefinition } from "../../tasks/task-definition.js";
import { GitLabApi } from "./api.js";
import { noteFollowUp } from "./follow-up.js";
import { queueRobotsFromGitLabMerge } from "./robots-merges.js";
import { failRunOfPipeline } from "./pipeline-failure.js";
import { lookAtChecks } from "../checks-task.js";
import { gitLabIssueJobs } from "./issue-jobs.js";
import { gitLabSourceMerges } from "./source-merges.js";
import { GITLAB_EVENT_TASK } from "./webhook-endpoint.js";
import { gitLabEventSchema } from "./webhook-events.js";

/**
 * The `gitlab_event` task: what a GitLab delivery means for jobs. A job's merge request merged →
 * `archived`, with GitLab's merge time kept for the impact report; closed → `archived`; a note →
 * maybe a follow-up (`note-follow-up.ts`); an issue labelled or mentioned → maybe a job (`issue-jobs.ts`);
 * a linked source project's merge → maybe a job (`source-merges.ts`); any merge into the default
 * branch → robots.txt read from it (`robots-merges.ts`);
 * a pipeline Inkwell started ended unsuccessfully before its job reported → the run failed (`pipeline-failure.ts`);
 * a pipeline of the project's own CI ended on a job's head → its checks looked at (`checks.ts`).
 */
export function gitLabEventTask(db: Db, options: FollowUpOptions & { publicUrl: string | null }, log: Logger): TaskDefinition {
  const takeNote = noteFollowUp(db, options, log);
  const sourceMerges = gitLabSourceMerges(db, { defaultRateLimitPerHour: options.rateLimitPerHour }, log);
  const issueJobs = gitLabIssueJobs(db, { command: options.command, publicUrl: options.publicUrl, limits: { defaultRateLimitPerHour: options.rateLimitPerHour } }, log);
  return defineTask({
    kind: GITLAB_EVENT_TASK,
    payload: gitLabEventSchema,
    async run(event) {
      const connection = await gitLabConnectionOf(db, event.projectId);
      if (!connection) return { skipped: "the project is no longer connected" };
      if (event.type === "note") return takeNote(event, connection);
      if (event.type === "issue_labeled" || event.type === "issue_note") return issueJobs(event, connection);
      if (event.type === "source_merged") return sourceMerges(event, connection);
      const repo = gitLabRepoName(connection.baseUrl, connection.projectPath);
      if (event.type === "pipeline_failed") return failRunOfPipeline(db, event, repo);
      if (event.type === "pipeline_finished") return lookAtChecks(db, { projectId: event.projectId }, event.sha);
      if (event.defaultBranchMergeSha) await queueRobotsFromGitLabMerge(db, { projectId: event.projectId, iid: event.iid, mergeSha: event.defaultBranchMergeSha });
      const job = (await jobOnChangeRequest(db, repo, event.iid)) ?? (await jobOnBranch(db, repo, event.sourceBranch));
      if (!job) return { skipped: "not a job's merge request" };
      const mergedAt = event.merged
        ? await new GitLabApi(connection.baseUrl, connection.accessToken)
            .mergedAt(connection.gitlabProjectId, event.iid)
            .catch((error: unknown) => {
              log.warn({ err: error, jobId: job.id }, "no merge time from GitLab: the delivery's arrival stands for it");
              return null;
            })
        : null;
      const archived = await db.transaction((tx) => archiveJob(tx, job.id, event.merged ? { mergedAt } : null, "gitlab"));
      return archived ? { ok: true } : { skipped: `the job is ${job.status}` };
    },
  });
}
