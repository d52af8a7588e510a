import { promptSchema } from "../../shared/api-schemas.js";
import { describeIssues } from "../../shared/zod-issues.js";
import { ConflictError, JobArchivedError } from "../domain/errors.js";
import { cancelJob } from "../domain/jobs/cancel.js";
import { addMessage } from "../domain/jobs/commands.js";
import { isFollowUpTaken, type FollowUpOrigin } from "../domain/jobs/messages.js";
import { jobOnChangeRequest } from "../domain/jobs/queries.js";
import { approvePlan, jobToApproveOn } from "../domain/jobs/waiting.js";
import type { Db, Queryable } from "../store/db.js";
import type { TaskOutcome } from "../tasks/task-definition.js";
import { isApproveCommand, isStopCommand, withLocation } from "./addressing.js";
import { forgeWords, type ForgeName } from "../../shared/forge-words.js";

/**
 * The forge seam for comments (docs/architecture.md, "Forges"): what a comment on a job's change
 * request asks, taken by the same rules on every forge. A forge answers only who may ask and how a
 * taken comment is acknowledged.
 */
export interface CommentForge {
  /** Why this author may not instruct the agent (a bot, too little access, in the forge's words), or null. */
  refusal(author: string): Promise<string | null>;
  /** In the transaction that takes the comment (GitHub queues its 👀 there). */
  acknowledge(tx: Queryable): Promise<void>;
  /** After that transaction commits (GitLab sets its 👀 with the project's token). */
  afterTaken?(): Promise<void>;
}

export interface FollowUpOptions {
  /** A comment starting with this addresses the agent (besides @-mentioning the agent's account). */
  command: string;
  rateLimitPerHour: number;
}

/** The job a follow-up is for. */
export type FollowUpJob = { projectId: string; id: string };

/**
 * The cheap checks, before any forge call: the change request is a job's that still takes
 * follow-ups, and this comment or review has not been taken already (a redelivery costs no API
 * call). The job, or why not.
 */
export async function openFollowUp(db: Db, repo: string, number: number, origin: FollowUpOrigin, forge: ForgeName = "github", what: string = origin.kind): Promise<FollowUpJob | string> {
  const job = await jobOnChangeRequest(db, repo, number);
  if (!job) return `not a job's ${forgeWords(forge).change}`;
  if (job.status === "archived") return "the job is archived";
  if (await isFollowUpTaken(db, origin)) return `${what} already taken`;
  return job;
}

/**
 * The end of every follow-up (a comment, a review, a note), once its author may ask: under the
 * job's lock, `stop` (a null prompt) cancels the active run and anything else becomes a message
 * (re-dispatched, or queued behind the active run); taken once per origin, acknowledged in the
 * same transaction. Returns why it was not taken, or null.
 */
export async function applyFollowUp(db: Db, options: FollowUpOptions, job: FollowUpJob, followUp: { author: string; prompt: string | null; origin: FollowUpOrigin }, forge: CommentForge): Promise<string | null> {
  const { author, prompt, origin } = followUp;
  const skipped = await db
    .transaction(async (tx) => {
      if (prompt === null) {
        const result = await cancelJob(tx, { projectId: job.projectId, jobId: job.id, cause: "comment", author, origin });
        if (!result.cancelled) return "stop: the job has no active run";
      } else {
        const added = await addMessage(tx, { projectId: job.projectId, jobId: job.id, prompt, source: "comment", author, origin }, { defaultRateLimitPerHour: options.rateLimitPerHour });
        // Another delivery took it meanwhile (checked under the job's lock): it acknowledges, not this one.
        if (added.alreadyTaken) return "comment already taken";
      }
      await forge.acknowledge(tx);
      return null;
    })
    .catch((error: unknown) => {
      // Archived between the look-up and the write: nothing to do.
      if (error instanceof JobArchivedError) return "the job is archived";
      throw error;
    });
  if (skipped === null) await forge.afterTaken?.();
  return skipped;
}

/** A follow-up whose author is asked about only once the cheap checks passed; the outcome of its task. */
export async function takeFollowUp(db: Db, options: FollowUpOptions, forge: CommentForge, job: FollowUpJob, followUp: { author: string; prompt: string | null; origin: FollowUpOrigin }): Promise<TaskOutcome> {
  const refused = await forge.refusal(followUp.author);
  if (refused) return { skipped: refused };
  const skipped = await applyFollowUp(db, options, job, followUp, forge);
  return skipped ? { skipped } : { ok: true };
}

/** A comment that addresses the agent (its instruction already found), on a forge's change request or issue. */
export interface AddressedComment {
  repo: string;
  /** The pull request's or merge request's number (an issue's for `approve`). */
  number: number;
  /** What `number` counts: GitHub's shared sequence (either), or GitLab's merge request (change) or issue. */
  numberOf?: "either" | "change" | "issue";
  author: string;
  instruction: string;
  /** An inline (diff) comment's place. */
  location?: { path: string; line: number | null; diffHunk: string };
  origin: FollowUpOrigin;
  /** When the forge says the comment was written (an `approve` speaks only to a plan shown before it). */
  writtenAt?: string | undefined;
  /** Whose words the outcome speaks in (GitHub's by default). */
  forge?: ForgeName;
}

/**
 * One comment, by the same rules on every forge: `approve` approves the plan the job waits with;
 * `stop` cancels the active run; anything else, a valid prompt (an inline comment's place
 * included), becomes a message of the change request's job. The author's right to ask is checked
 * only once the cheap checks pass.
 */
export async function takeComment(db: Db, options: FollowUpOptions, forge: CommentForge, comment: AddressedComment): Promise<TaskOutcome> {
  if (isApproveCommand(comment.instruction)) return approveByComment(db, forge, comment);
  const stop = isStopCommand(comment.instruction);
  // The same rules as an API prompt: a comment cannot store what the API would refuse.
  const checked = promptSchema.safeParse(comment.location && !stop ? withLocation(comment.instruction, comment.location) : comment.instruction);
  if (!checked.success) return { skipped: `the instruction is not a valid prompt: ${describeIssues(checked.error, "prompt")}` };
  const job = await openFollowUp(db, comment.repo, comment.number, comment.origin, comment.forge, "comment");
  if (typeof job === "string") return { skipped: job };
  return takeFollowUp(db, options, forge, job, { author: comment.author, prompt: stop ? null : checked.data, origin: comment.origin });
}

/**
 * `approve` on a job's change request or the issue it came from, from an author who may ask:
 * approves the plan the job waits with, if that plan was shown before the comment was written. So
 * a redelivery, or a delivery late enough that the plan was revised meanwhile (or that another job
 * of the issue now waits), approves nothing its author did not see.
 */
export async function approveByComment(db: Db, forge: CommentForge, comment: Pick<AddressedComment, "repo" | "number" | "author" | "numberOf" | "writtenAt" | "forge">): Promise<TaskOutcome> {
  const job = await jobToApproveOn(db, comment.repo, comment.number, comment.numberOf);
  if (!job) return { skipped: `approve: no active job on this ${forgeWords(comment.forge).change} or issue` };
  const refused = await forge.refusal(comment.author);
  if (refused) return { skipped: refused };
  const writtenAt = comment.writtenAt && !Number.isNaN(Date.parse(comment.writtenAt)) ? new Date(comment.writtenAt) : null;
  try {
    await db.transaction(async (tx) => {
      await approvePlan(tx, { projectId: job.projectId, jobId: job.id, cause: "comment", author: comment.author, writtenAt });
      await forge.acknowledge(tx);
    });
  } catch (error) {
    if (error instanceof ConflictError) return { skipped: `approve: ${error.message}` };
    throw error;
  }
  await forge.afterTaken?.();
  return { ok: true };
}
