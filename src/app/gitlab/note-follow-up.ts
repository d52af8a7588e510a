import type { Logger } from "pino";
import { gitLabRepoFullName, type GitLabConnection } from "../domain/gitlab-connections.js";
import { instructionIn } from "../forges/addressing.js";
import { takeComment, type CommentForge, type FollowUpOptions } from "../forges/follow-ups.js";
import type { Db } from "../store/db.js";
import type { TaskOutcome } from "../tasks/task-definition.js";
import { DEVELOPER_ACCESS, GitLabApi } from "./gitlab-api.js";
import type { GitLabEvent } from "./webhook-events.js";

const ACCESS_NAMES: Record<number, string> = { 0: "no", 5: "minimal", 10: "guest", 15: "planner", 20: "reporter", 30: "developer", 40: "maintainer", 50: "owner" };

/**
 * GitLab's side of the comment seam (`forges/follow-ups.ts`) for one note: a bot (the Users API)
 * or a member below Developer access (the Members API, inherited membership included) may not
 * ask; a taken note gets 👀 after the commit, with the project's token.
 */
function gitLabNoteForge(api: GitLabApi, connection: GitLabConnection, note: { iid: number; noteId: number; authorId: number }, log: Logger): CommentForge {
  return {
    async refusal(author) {
      if (await api.isBot(note.authorId)) return "comment by a bot or an app";
      const level = await api.accessLevel(connection.gitlabProjectId, note.authorId);
      if (level >= DEVELOPER_ACCESS) return null;
      log.debug({ username: author, level }, "note ignored: author has less than Developer access");
      return `author has ${ACCESS_NAMES[level] ?? String(level)} access`;
    },
    acknowledge: async () => {},
    afterTaken: () => api.reactToNote(connection.gitlabProjectId, note.iid, note.noteId).catch((error: unknown) => log.warn({ err: error, noteId: note.noteId }, "could not mark the note taken (👀)")),
  };
}

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
    const forge = gitLabNoteForge(api, connection, { iid: event.iid, noteId: event.noteId, authorId: event.author.id }, log);
    const outcome = await takeComment(db, options, forge, {
      repo: gitLabRepoFullName(connection.baseUrl, connection.projectPath),
      number: event.iid,
      author: event.author.username,
      instruction,
      ...(event.position ? { location: { path: event.position.path, line: event.position.line, diffHunk: "" } } : {}),
      origin: { kind: "event", key: `gitlab-note:${connection.projectId}:${event.noteId}` },
    });
    return "skipped" in outcome ? { skipped: outcome.skipped.replace("a job's pull request", "a job's merge request").replace(/^event already taken$/, "comment already taken") } : outcome;
  };
}
