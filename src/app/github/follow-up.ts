import type { Logger } from "pino";
import { z } from "zod";
import { JobArchivedError } from "../domain/errors.js";
import { addMessage } from "../domain/jobs/commands.js";
import { cancelJob } from "../domain/jobs/cancel.js";
import { isFollowUpTaken, type FollowUpOrigin } from "../domain/jobs/messages.js";
import { jobOnPullRequest } from "../domain/jobs/queries.js";
import type { Db, Queryable } from "../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../tasks/task-definition.js";
import { enqueueTask } from "../tasks/tasks.js";
import type { GitHubApi } from "./github-api.js";

const REACTION_TASK = "reaction";

export const WRITERS = new Set(["admin", "maintain", "write"]);

export interface FollowUpOptions {
  /** A comment starting with this addresses the agent (besides @-mentioning the App). */
  command: string;
  rateLimitPerHour: number;
}

export interface CommentRef {
  id: number;
  kind: "issue" | "review";
}

/** What a PR comment or a submitted review asks of the PR's job, once it is known to address the agent. */
export interface FollowUp {
  repo: string;
  installationId: number;
  prNumber: number;
  author: string;
  /** The message for the agent, already a valid prompt; null for a `stop` command. */
  prompt: string | null;
  /** What makes it taken once: the comment, or the review whose comments it carries. */
  origin: FollowUpOrigin;
  /** The comments that get 👀 when it is taken. */
  reactTo: CommentRef[];
}

/** A person's comment or review: no bot account, no app acting for someone. */
export const isPerson = (author: { login: string; type: string }, viaApp = false) => author.type === "User" && !author.login.endsWith("[bot]") && !viaApp;

/** The job a follow-up is for. */
export type FollowUpJob = { projectId: string; id: string };

/**
 * The cheap checks, before any GitHub call: the PR is a job's that still takes follow-ups, and this
 * comment or review has not been taken already (a redelivery costs no API call). The job, or why not.
 */
export async function openFollowUp(db: Db, repo: string, prNumber: number, origin: FollowUpOrigin): Promise<FollowUpJob | string> {
  const job = await jobOnPullRequest(db, repo, prNumber);
  if (!job) return "not a job's pull request";
  if (job.status === "archived") return "the job is archived";
  if (await isFollowUpTaken(db, origin)) return `${origin.kind} already taken`;
  return job;
}

/**
 * Where a follow-up reaches its job (found by `openFollowUp`): only from an author with write
 * permission, then either a message of the job (re-dispatched, or queued behind the active run)
 * or, for `stop`, a cancel of the active run; taken once, checked again under the job's lock.
 */
export function takeFollowUp(db: Db, github: GitHubApi, options: FollowUpOptions, log: Logger): (followUp: FollowUp, job: FollowUpJob) => Promise<TaskOutcome> {
  return async (followUp, job) => {
    const permission = await github.permission(followUp.installationId, followUp.repo, followUp.author);
    if (!WRITERS.has(permission)) {
      log.debug({ login: followUp.author, permission }, "comment ignored: author cannot write to the repository");
      return { skipped: `author has ${permission} permission` };
    }
    const skipped = await applyFollowUp(db, options, job, followUp, (tx) => queueReactions(tx, followUp));
    return skipped ? { skipped } : { ok: true };
  };
}

/**
 * The forge-neutral end of a follow-up (GitHub's comments and reviews, GitLab's notes), once its
 * author may ask: under the job's lock, `stop` (a null prompt) cancels the active run and anything
 * else becomes a message (re-dispatched, or queued behind the active run); taken once per origin.
 * `acknowledge` runs in the same transaction when it is taken (GitHub queues its 👀 there).
 * Returns why it was not taken, or null.
 */
export async function applyFollowUp(
  db: Db,
  options: FollowUpOptions,
  job: FollowUpJob,
  followUp: { author: string; prompt: string | null; origin: FollowUpOrigin },
  acknowledge: (tx: Queryable) => Promise<void>,
): Promise<string | null> {
  const { author, prompt, origin } = followUp;
  return db
    .transaction(async (tx) => {
      if (prompt === null) {
        const result = await cancelJob(tx, { projectId: job.projectId, jobId: job.id, cause: "comment", author, origin });
        if (!result.cancelled) return "stop: the job has no active run";
      } else {
        const added = await addMessage(tx, { projectId: job.projectId, jobId: job.id, prompt, source: "comment", author, origin }, { defaultRateLimitPerHour: options.rateLimitPerHour });
        // Another delivery took it meanwhile (checked under the job's lock): it acknowledges, not this one.
        if (added.alreadyTaken) return "comment already taken";
      }
      await acknowledge(tx);
      return null;
    })
    .catch((error: unknown) => {
      // Archived between the look-up and the write: nothing to do.
      if (error instanceof JobArchivedError) return "the job is archived";
      throw error;
    });
}

export async function queueReactions(tx: Queryable, followUp: Pick<FollowUp, "installationId" | "repo" | "reactTo">): Promise<void> {
  for (const comment of followUp.reactTo) {
    await enqueueTask(tx, REACTION_TASK, `reaction:${comment.kind}:${comment.id}`, {
      installationId: followUp.installationId,
      repo: followUp.repo,
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
