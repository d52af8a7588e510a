import type { Logger } from "pino";
import { z } from "zod";
import { configOf, sourceAutomationsWanting } from "../../domain/automations/automations.js";
import { automationsFor, startIssueJob, startSourceJob, type Started } from "../../domain/automations/triggered-jobs.js";
import type { AutomationRow } from "../../domain/automations/automations.js";
import type { Db } from "../../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../../tasks/task-definition.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { intoDefaultBranch, type IssueCommentEvent, type IssueLabeledEvent, type SourceMergedEvent } from "./automation-events.js";
import { instructionIn, isApproveCommand } from "../addressing.js";
import { approveByComment } from "../follow-ups.js";
import { gitHubCommentForge, isPerson, queueReactions, WRITERS } from "./follow-up.js";
import type { GitHubApi } from "./api.js";
import { issueInstruction, mergeInstruction, touchesPaths } from "../merge-instruction.js";

export const ISSUE_REPLY_TASK = "issue_reply";

export interface AutomationJobOptions {
  command: string;
  rateLimitPerHour: number;
  /** For the link in the issue reply; null without PUBLIC_URL. */
  publicUrl: string | null;
}

/**
 * What a merge in a source repository, a labelled issue or an issue comment does
 * (docs/architecture.md, "Automations"). GitHub is asked only once the cheap checks pass: an
 * automation that wants the event, a person (no bot), then their write permission.
 */
export function automationJobs(db: Db, github: GitHubApi, options: AutomationJobOptions, log: Logger) {
  const limits = { defaultRateLimitPerHour: options.rateLimitPerHour };
  const summary = (outcomes: string[]): TaskOutcome => (outcomes.some((o) => o.startsWith("job")) ? { ok: true } : { skipped: outcomes.join("; ") || "nothing to do" });
  const canWrite = async (installationId: number, repo: string, login: string) => WRITERS.has(await github.permission(installationId, repo, login));
  const said = (started: Started) => ("skipped" in started ? started.skipped : `job ${started.job.id} ${started.followedUp ? "followed up" : "started"}`);

  async function sourceMerged(event: SourceMergedEvent): Promise<TaskOutcome> {
    const automations = await automationsFor(db, "source", event.repo);
    if (automations.length === 0) return { skipped: "no project reads this repository" };
    if (!intoDefaultBranch(event)) return { skipped: `merged into ${event.baseRef}, not the default branch` };
    if (event.authorIsBot) return { skipped: `opened by a bot (@${event.author})` };
    const labelled = sourceAutomationsWanting(automations, event.labels);
    if (labelled.length === 0) return { skipped: "the pull request lacks the label its automations require" };
    const files = await github.pullRequestFiles(event.installationId, event.repo, event.number);
    const outcomes: string[] = [];
    for (const { automation, config } of labelled) {
      if (!touchesPaths(files, config.paths)) {
        outcomes.push(`no changed file matches ${config.paths?.join(", ")}`);
        continue;
      }
      const started = await db.transaction((tx) =>
        startSourceJob(
          tx,
          automation,
          {
            url: event.url,
            key: `${event.repo.toLowerCase()}#${event.number}`,
            prompt: mergeInstruction(event, files, config.instruction),
            author: event.author,
            source: { repository: event.repo, sha: event.mergeSha, installationId: event.installationId, pullRequestUrl: event.url },
          },
          limits,
          new Date(),
        ),
      );
      log.info({ repo: event.repo, pr: event.number, automation: automation.id, outcome: said(started) }, "source merge");
      outcomes.push(said(started));
    }
    return summary(outcomes);
  }

  /** The project's issues automation (not paused) and its settings, or null. */
  async function issuesAutomation(repo: string) {
    const [automation] = await automationsFor(db, "issues", repo);
    const config = automation ? configOf(automation) : null;
    return automation && config?.kind === "issues" ? { automation, config } : null;
  }

  async function fromIssue(event: IssueLabeledEvent | IssueCommentEvent, automation: AutomationRow, request: string | null): Promise<TaskOutcome> {
    if (!(await canWrite(event.installationId, event.repo, event.sender.login))) return { skipped: `@${event.sender.login} cannot write to ${event.repo}` };
    const commentId = event.type === "issue_comment" ? event.commentId : undefined;
    const prompt = issueInstruction(event, request);
    const started = await db.transaction(async (tx) => {
      const result = await startIssueJob(tx, automation, { url: event.url, prompt, author: event.sender.login, ...(commentId === undefined ? {} : { commentId }) }, limits, new Date());
      if ("skipped" in result) return result;
      if (!result.followedUp) {
        await enqueueTask(tx, ISSUE_REPLY_TASK, `issue-reply:${result.job.id}`, {
          installationId: event.installationId,
          repo: event.repo,
          issueNumber: event.issueNumber,
          body: replyText(result.job.id, automation.project_id, options.publicUrl),
        });
      }
      if (commentId !== undefined) await queueReactions(tx, { installationId: event.installationId, repo: event.repo, reactTo: [{ id: commentId, kind: "issue" }] });
      return result;
    });
    log.info({ repo: event.repo, issue: event.issueNumber, outcome: said(started) }, "issue automation");
    return summary([said(started)]);
  }

  return {
    source_merged: sourceMerged,
    async issue_labeled(event: IssueLabeledEvent): Promise<TaskOutcome> {
      if (!isPerson(event.sender)) return { skipped: "labelled by a bot or an app" };
      const issues = await issuesAutomation(event.repo);
      if (!issues || issues.config.label.toLowerCase() !== event.label.toLowerCase()) return { skipped: `label ${event.label} starts no job` };
      return fromIssue(event, issues.automation, null);
    },
    async issue_comment(event: IssueCommentEvent): Promise<TaskOutcome> {
      if (!isPerson(event.sender, event.viaApp)) return { skipped: "comment by a bot or an app" };
      const request = instructionIn(event.comment, await github.appSlug(), options.command);
      if (!request) return { skipped: "comment does not address the agent" };
      if (isApproveCommand(request)) {
        const forge = gitHubCommentForge(github, log, { installationId: event.installationId, repo: event.repo, reactTo: [{ id: event.commentId, kind: "issue" }] });
        return approveByComment(db, forge, { repo: event.repo, number: event.issueNumber, author: event.sender.login, writtenAt: event.writtenAt });
      }
      const issues = await issuesAutomation(event.repo);
      if (!issues?.config.mention) return { skipped: "mentions start no job in this project" };
      return fromIssue(event, issues.automation, request);
    },
  };
}

function replyText(jobId: string, projectId: string, publicUrl: string | null): string {
  const page = publicUrl ? `${publicUrl}/dashboard/projects/${encodeURIComponent(projectId)}/jobs/${encodeURIComponent(jobId)}` : null;
  return [
    `Inkwell started job \`${jobId}\` for this issue${page ? `: [follow it here](${page})` : ""}.`,
    "Its pull request will say `Fixes` this issue, so merging it closes the issue. Mention me here to add to the instruction.",
  ].join(" ");
}

const replyPayload = z.object({ installationId: z.number(), repo: z.string(), issueNumber: z.number(), body: z.string() });

/** The `issue_reply` task: the bot's answer on an issue that started a job, with the job's link. */
export function issueReplyTask(github: GitHubApi): TaskDefinition {
  return defineTask({
    kind: ISSUE_REPLY_TASK,
    payload: replyPayload,
    async run(reply) {
      await github.upsertIssueComment(reply.installationId, reply.repo, reply.issueNumber, null, reply.body);
      return { ok: true };
    },
  });
}
