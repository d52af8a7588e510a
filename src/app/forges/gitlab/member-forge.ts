import type { Logger } from "pino";
import type { GitLabConnection } from "../../domain/gitlab-connections.js";
import type { CommentForge } from "../follow-ups.js";
import { DEVELOPER_ACCESS, type GitLabApi } from "./api.js";

const ACCESS_NAMES: Record<number, string> = { 0: "no", 5: "minimal", 10: "guest", 15: "planner", 20: "reporter", 30: "developer", 40: "maintainer", 50: "owner" };

/**
 * GitLab's side of the comment seam (`forges/follow-ups.ts`) for one note, on a merge request or
 * an issue: a bot (the Users API) or a member below Developer access (the Members API, inherited
 * membership included) may not ask; a taken note gets 👀 after the commit (`react`), with the
 * project's token.
 */
export function gitLabMemberForge(api: GitLabApi, connection: GitLabConnection, authorId: number, react: () => Promise<void>, log: Logger): CommentForge {
  return {
    async refusal(author) {
      if (await api.isBot(authorId)) return "comment by a bot or an app";
      const level = await api.accessLevel(connection.gitlabProjectId, authorId);
      if (level >= DEVELOPER_ACCESS) return null;
      log.debug({ username: author, level }, "note ignored: author has less than Developer access");
      return `author has ${ACCESS_NAMES[level] ?? String(level)} access`;
    },
    acknowledge: async () => {},
    afterTaken: () => react().catch((error: unknown) => log.warn({ err: error }, "could not mark the note taken (👀)")),
  };
}
