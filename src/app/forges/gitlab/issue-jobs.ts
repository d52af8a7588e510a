import type { Logger } from "pino";
import { configOf } from "../../domain/automations/automations.js";
import { automationsFor, startIssueJob, type Started } from "../../domain/automations/triggered-jobs.js";
import { gitLabRepoName, type GitLabConnection } from "../../domain/gitlab-connections.js";
import type { JobLimits } from "../../domain/jobs/commands.js";
import type { Db } from "../../store/db.js";
import type { TaskOutcome } from "../../tasks/task-definition.js";
import { issueInstruction } from "../merge-instruction.js";
import { instructionIn, isApproveCommand } from "../addressing.js";
import { approveByComment } from "../follow-ups.js";
import { DEVELOPER_ACCESS, GitLabApi } from "./api.js";
import { gitLabMemberForge } from "./member-forge.js";
import type { GitLabEvent } from "./webhook-events.js";

type IssueEvent = Extract<GitLabEvent, { type: "issue_labeled" | "issue_note" }>;

const said = (started: Started) => ("skipped" in started ? started.skipped : started.followedUp ? `followed up on job ${started.job.id}` : `started job ${started.job.id}`);

/**
 * The issues automation on GitLab, by GitHub's rules (`github/automation-jobs.ts`): the project's
 * label put on an issue, or a note on an issue that addresses the agent (when the automation takes
 * mentions), by a person with Developer access or more, starts a job with the issue as its
 * instruction; while that job is open, a mention becomes its follow-up. Inkwell answers on the
 * issue with the job's link. `approve` there approves the plan the issue's job waits with.
 */
export function gitLabIssueJobs(db: Db, options: { command: string; publicUrl: string | null; limits: JobLimits }, log: Logger) {
  return async (event: IssueEvent, connection: GitLabConnection): Promise<TaskOutcome> => {
    if (event.author.username.toLowerCase() === connection.tokenUsername.toLowerCase()) return { skipped: "comment by a bot or an app" };
    const repo = gitLabRepoName(connection.baseUrl, connection.projectPath);
    // What a note addresses to the agent; a label addresses nothing.
    const request = event.type === "issue_note" ? instructionIn(event.body, connection.tokenUsername, options.command) : null;
    if (event.type === "issue_note" && request && isApproveCommand(request)) {
      const api = new GitLabApi(connection.baseUrl, connection.accessToken);
      const forge = gitLabMemberForge(api, connection, event.author.id, () => api.reactToIssueNote(connection.gitlabProjectId, event.iid, event.noteId), log);
      return approveByComment(db, forge, { forge: "gitlab", repo, number: event.iid, numberOf: "issue", author: event.author.username, writtenAt: event.writtenAt });
    }
    const [automation] = await automationsFor(db, "issues", repo);
    const config = automation ? configOf(automation) : null;
    if (!automation || config?.kind !== "issues") return { skipped: "no issues automation" };
    if (event.type === "issue_labeled") {
      if (!event.labels.some((label) => label.toLowerCase() === config.label.toLowerCase())) return { skipped: `label ${event.labels.join(", ")} starts no job` };
    } else {
      if (!request) return { skipped: "comment does not address the agent" };
      if (!config.mention) return { skipped: "mentions start no job in this project" };
    }
    const api = new GitLabApi(connection.baseUrl, connection.accessToken);
    if (await api.isBot(event.author.id)) return { skipped: "labelled or commented by a bot" };
    if ((await api.accessLevel(connection.gitlabProjectId, event.author.id)) < DEVELOPER_ACCESS) return { skipped: `@${event.author.username} has less than Developer access to ${connection.projectPath}` };
    const prompt = issueInstruction({ repo: connection.projectPath, issueNumber: event.iid, title: event.title, url: event.url, body: event.description }, request);
    const started = await db.transaction((tx) =>
      startIssueJob(
        tx,
        automation,
        { url: event.url, prompt, author: event.author.username, ...(event.type === "issue_note" ? { eventKey: `gitlab-note:${connection.projectId}:${event.noteId}` } : {}) },
        options.limits,
        new Date(),
      ),
    );
    log.info({ project: connection.projectPath, issue: event.iid, outcome: said(started) }, "issue automation");
    if ("skipped" in started) return { skipped: started.skipped };
    const tell = async () => {
      if (event.type === "issue_note") await api.reactToIssueNote(connection.gitlabProjectId, event.iid, event.noteId);
      if (!started.followedUp) {
        const page = options.publicUrl ? `${options.publicUrl}/dashboard/projects/${encodeURIComponent(automation.project_id)}/jobs/${encodeURIComponent(started.job.id)}` : null;
        await api.noteOnIssue(connection.gitlabProjectId, event.iid, `Inkwell started job \`${started.job.id}\` for this issue${page ? `: [follow it here](${page})` : ""}. Mention @${connection.tokenUsername} here to add to the instruction.`);
      }
    };
    await tell().catch((error: unknown) => log.warn({ err: error, issue: event.iid }, "could not answer on the issue"));
    return { ok: true };
  };
}
