import type { Logger } from "pino";
import { sourceAutomationsWanting } from "../../domain/automations/automations.js";
import { automationsFor, startSourceJob, type Started } from "../../domain/automations/triggered-jobs.js";
import { gitLabRepoName, type GitLabConnection } from "../../domain/gitlab-connections.js";
import type { JobLimits } from "../../domain/jobs/commands.js";
import { mergeInstruction, touchesPaths } from "../merge-instruction.js";
import type { Db } from "../../store/db.js";
import type { TaskOutcome } from "../../tasks/task-definition.js";
import { GitLabApi } from "./api.js";
import type { GitLabEvent } from "./webhook-events.js";

const said = (started: Started) => ("skipped" in started ? started.skipped : started.followedUp ? `followed up on job ${started.job.id}` : `started job ${started.job.id}`);

/**
 * A merge request merged in a source project linked to a GitLab docs project (its webhook is the
 * docs project's), by GitHub's rules for source merges (`github/automation-jobs.ts`): into the
 * source's default branch, not by a bot, with the automation's label when it asks for one, and
 * touching its paths when it names some; the job's instruction lists the changed files and as
 * much of the diff as fits. Only this docs project's automations take it: another project that
 * links the same source has its own webhook there.
 */
export function gitLabSourceMerges(db: Db, limits: JobLimits, log: Logger) {
  return async (event: Extract<GitLabEvent, { type: "source_merged" }>, connection: GitLabConnection): Promise<TaskOutcome> => {
    const repo = gitLabRepoName(connection.baseUrl, event.sourcePath);
    const automations = (await automationsFor(db, "source", repo)).filter((automation) => automation.project_id === connection.projectId);
    if (automations.length === 0) return { skipped: "no automation of this project reads this project" };
    if (event.defaultBranch === null || event.targetBranch !== event.defaultBranch) return { skipped: `merged into ${event.targetBranch}, not the default branch` };
    const labelled = sourceAutomationsWanting(automations, event.labels);
    if (labelled.length === 0) return { skipped: "the merge request lacks the label its automations require" };
    const api = new GitLabApi(connection.baseUrl, connection.accessToken);
    const author = await api.user(event.authorId);
    if (author.bot) return { skipped: `opened by a bot (@${author.username})` };
    const files = await api.mergeRequestFiles(event.sourceProjectId, event.iid);
    const merge = { author: author.username, repo: event.sourcePath, baseRef: event.targetBranch, number: event.iid, title: event.title, url: event.url, mergeSha: event.mergeSha, body: event.description };
    const outcomes: string[] = [];
    let jobs = 0;
    for (const { automation, config } of labelled) {
      if (!touchesPaths(files, config.paths)) {
        outcomes.push(`no changed file matches ${config.paths?.join(", ")}`);
        continue;
      }
      const started = await db.transaction((tx) =>
        startSourceJob(tx, automation, { url: event.url, key: `${repo}!${event.iid}`, prompt: mergeInstruction(merge, files, config.instruction, undefined, { forge: "gitlab", readable: false }), author: author.username }, limits, new Date()),
      );
      log.info({ source: repo, mr: event.iid, automation: automation.id, outcome: said(started) }, "source merge");
      outcomes.push(said(started));
      if (!("skipped" in started)) jobs++;
    }
    return jobs > 0 ? { ok: true } : { skipped: outcomes.join("; ") };
  };
}
