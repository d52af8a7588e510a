import type { Logger } from "pino";
import { z } from "zod";
import type { CommentForge } from "../follow-ups.js";
import type { Queryable } from "../../store/db.js";
import { defineTask, type TaskDefinition } from "../../tasks/task-definition.js";
import { enqueueTask } from "../../tasks/tasks.js";
import type { GitHubApi } from "./api.js";

const REACTION_TASK = "reaction";

export const WRITERS = new Set(["admin", "maintain", "write"]);

export interface CommentRef {
  id: number;
  kind: "issue" | "review";
}

/** A person's comment or review: no bot account, no app acting for someone. */
export const isPerson = (author: { login: string; type: string }, viaApp = false) => author.type === "User" && !author.login.endsWith("[bot]") && !viaApp;

/**
 * GitHub's side of the comment seam (`forges/follow-ups.ts`) for comments in one repository: only
 * an author with write permission may ask, and the comments taken get 👀 from a `reaction` task
 * queued in the transaction that takes them.
 */
export function gitHubCommentForge(github: GitHubApi, log: Logger, where: { installationId: number; repo: string; reactTo: CommentRef[] }): CommentForge {
  return {
    async refusal(author) {
      const permission = await github.permission(where.installationId, where.repo, author);
      if (WRITERS.has(permission)) return null;
      log.debug({ login: author, permission }, "comment ignored: author cannot write to the repository");
      return `author has ${permission} permission`;
    },
    acknowledge: (tx) => queueReactions(tx, where),
  };
}

export async function queueReactions(tx: Queryable, where: { installationId: number; repo: string; reactTo: CommentRef[] }): Promise<void> {
  for (const comment of where.reactTo) {
    await enqueueTask(tx, REACTION_TASK, `reaction:${comment.kind}:${comment.id}`, {
      installationId: where.installationId,
      repo: where.repo,
      commentId: comment.id,
      kind: comment.kind,
    });
  }
}

const reactionPayload = z.object({ installationId: z.number(), repo: z.string(), commentId: z.number(), kind: z.enum(["issue", "review"]) });

/** The `reaction` task: 👀 on a comment Inkwell took as a message. */
export function reactionTask(github: GitHubApi): TaskDefinition {
  return defineTask({
    kind: REACTION_TASK,
    payload: reactionPayload,
    async run(reaction) {
      await github.react(reaction.installationId, reaction.repo, { id: reaction.commentId, kind: reaction.kind }, "eyes");
      return { ok: true };
    },
  });
}
