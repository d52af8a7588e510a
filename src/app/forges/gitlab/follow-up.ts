import type { Logger } from "pino";
import { gitLabRepoName, type GitLabConnection } from "../../domain/gitlab-connections.js";
import { instructionIn } from "../addressing.js";
import { takeComment, type FollowUpOptions } from "../follow-ups.js";
import type { Db } from "../../store/db.js";
import type { TaskOutcome } from "../../tasks/task-definition.js";
import { GitLabApi } from "./api.js";
import { gitLabMemberForge } from "./member-forge.js";
import type { GitLabEvent } from "./webhook-events.js";

/**
 * Where a merge request note becomes a follow-up of the merge request's job, by the same rules as
 * a GitHub comment: a person's note (not Inkwell's own user, not a bot) that addresses the agent
 * (the command, or an @mention of the access token's user), on a job's merge request that is not
 * archived, from a member with at least Developer access. A diff note carries its file and line;
 * `stop` cancels the run, `approve` approves a waiting plan. Taken once per note however often GitLab delivers it.
 */
export function noteFollowUp(db: Db, options: FollowUpOptions, log: Logger) {
  return async (event: Extract<GitLabEvent, { type: "note" }>, connection: GitLabConnection): Promise<TaskOutcome> => {
    if (event.author.username.toLowerCase() === connection.tokenUsername.toLowerCase()) return { skipped: "comment by a bot or an app" };
    const instruction = instructionIn(event.body, connection.tokenUsername, options.command);
    if (!instruction) return { skipped: "comment does not address the agent" };
    const api = new GitLabApi(connection.baseUrl, connection.accessToken);
    const forge = gitLabMemberForge(api, connection, event.author.id, () => api.reactToNote(connection.gitlabProjectId, event.iid, event.noteId), log);
    return takeComment(db, options, forge, {
      forge: "gitlab",
      repo: gitLabRepoName(connection.baseUrl, connection.projectPath),
      number: event.iid,
      numberOf: "change",
      author: event.author.username,
      instruction,
      ...(event.position ? { location: { path: event.position.path, line: event.position.line, diffHunk: "" } } : {}),
      origin: { kind: "event", key: `gitlab-note:${connection.projectId}:${event.noteId}` },
      writtenAt: event.writtenAt,
    });
  };
}
