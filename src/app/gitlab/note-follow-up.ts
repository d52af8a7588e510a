import type { Logger } from "pino";
import { promptSchema } from "../../shared/api-schemas.js";
import { describeIssues } from "../../shared/zod-issues.js";
import { gitLabRepoFullName, type GitLabConnection } from "../domain/gitlab-connections.js";
import type { Db } from "../store/db.js";
import type { TaskOutcome } from "../tasks/task-definition.js";
import { instructionIn, isStopCommand, withLocation } from "../github/comment-follow-up.js";
import { applyFollowUp, openFollowUp, type FollowUpOptions } from "../github/follow-up.js";
import { DEVELOPER_ACCESS, GitLabApi } from "./gitlab-api.js";
import type { GitLabEvent } from "./webhook-events.js";

const ACCESS_NAMES: Record<number, string> = { 0: "no", 5: "minimal", 10: "guest", 15: "planner", 20: "reporter", 30: "developer", 40: "maintainer", 50: "owner" };

/**
 * Where a merge request note becomes a follow-up of the merge request's job, by GitHub's rules
 * (`github/comment-follow-up.ts`): a person's note (not Inkwell's own user, not a bot) that
 * addresses the agent (the command, or an @mention of the access token's user), on a job's merge
 * request that is not archived, from a member with at least Developer access (the Members API,
 * inherited membership included). A diff note carries its file and line; `stop` cancels the run.
 * Taken once per note however often GitLab delivers it, and marked 👀.
 */
export function noteFollowUp(db: Db, options: FollowUpOptions, log: Logger) {
  return async (event: Extract<GitLabEvent, { type: "note" }>, connection: GitLabConnection): Promise<TaskOutcome> => {
    if (event.author.username.toLowerCase() === connection.tokenUsername.toLowerCase()) return { skipped: "comment by a bot or an app" };
    const instruction = instructionIn(event.body, connection.tokenUsername, options.command);
    if (!instruction) return { skipped: "comment does not address the agent" };
    const stop = isStopCommand(instruction);
    const located = event.position && !stop ? withLocation(instruction, { path: event.position.path, line: event.position.line, diffHunk: "" }, 0) : instruction;
    const checked = promptSchema.safeParse(located);
    if (!checked.success) return { skipped: `the instruction is not a valid prompt: ${describeIssues(checked.error, "prompt")}` };
    const origin = { kind: "event" as const, key: `gitlab-note:${connection.projectId}:${event.noteId}` };
    const job = await openFollowUp(db, gitLabRepoFullName(connection.baseUrl, connection.projectPath), event.iid, origin);
    if (typeof job === "string") return { skipped: job === "not a job's pull request" ? "not a job's merge request" : job.replace(/^event already taken$/, "comment already taken") };
    const api = new GitLabApi(connection.baseUrl, connection.accessToken);
    if (await api.isBot(event.author.id)) return { skipped: "comment by a bot or an app" };
    const level = await api.accessLevel(connection.gitlabProjectId, event.author.id);
    if (level < DEVELOPER_ACCESS) {
      log.debug({ username: event.author.username, level }, "note ignored: author has less than Developer access");
      return { skipped: `author has ${ACCESS_NAMES[level] ?? String(level)} access` };
    }
    // Its 👀 is set after the commit, with the project's token, rather than queued.
    const taken = await applyFollowUp(db, options, job, { author: event.author.username, prompt: stop ? null : checked.data, origin }, async () => {});
    if (taken) return { skipped: taken };
    await api.reactToNote(connection.gitlabProjectId, event.iid, event.noteId).catch((error: unknown) => log.warn({ err: error, noteId: event.noteId }, "could not mark the note taken (👀)"));
    return { ok: true };
  };
}
