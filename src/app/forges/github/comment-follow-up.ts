import type { Logger } from "pino";
import { instructionIn } from "../addressing.js";
import { takeComment, type FollowUpOptions } from "../follow-ups.js";
import type { Db } from "../../store/db.js";
import type { TaskOutcome } from "../../tasks/task-definition.js";
import { gitHubCommentForge, isPerson } from "./follow-up.js";
import type { GitHubApi } from "./api.js";
import type { QueuedEvent } from "./webhook-events.js";

/**
 * Where a PR comment becomes a follow-up message of the PR's job (`forges/follow-ups.ts`): only a
 * person's comment (no bot or app) that addresses the agent, on a job's PR that is not archived,
 * from an author with write permission. An inline comment its submitted review already took counts as taken.
 */
export function commentFollowUp(db: Db, github: GitHubApi, options: FollowUpOptions, log: Logger): (event: Extract<QueuedEvent, { type: "comment" }>) => Promise<TaskOutcome> {
  return async (event) => {
    if (!isPerson(event.author, event.viaApp)) return { skipped: "comment by a bot or an app" };
    const instruction = instructionIn(event.body, await github.appSlug(), options.command);
    if (!instruction) return { skipped: "comment does not address the agent" };
    const forge = gitHubCommentForge(github, log, { installationId: event.installationId, repo: event.repo, reactTo: [{ id: event.commentId, kind: event.kind }] });
    return takeComment(db, options, forge, {
      repo: event.repo,
      number: event.prNumber,
      author: event.author.login,
      instruction,
      ...(event.location ? { location: event.location } : {}),
      origin: { kind: "comment", commentId: event.commentId, ...(event.reviewId !== undefined ? { reviewId: event.reviewId } : {}) },
      writtenAt: event.writtenAt,
    });
  };
}
