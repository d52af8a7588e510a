import type { Logger } from "pino";
import { z } from "zod";
import { promptSchema } from "../../shared/api-schemas.js";
import { describeIssues } from "../../shared/zod-issues.js";
import { JobArchivedError } from "../domain/errors.js";
import { addMessage, cancelJob } from "../domain/jobs/commands.js";
import { isCommentRecorded } from "../domain/jobs/messages.js";
import { jobOnPullRequest } from "../domain/jobs/queries.js";
import type { Db, Queryable } from "../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../tasks/task-definition.js";
import { enqueueTask } from "../tasks/tasks.js";
import type { GitHubApi } from "./github-api.js";
import type { QueuedEvent } from "./webhook-events.js";

const REACTION_TASK = "reaction";

const WRITERS = new Set(["admin", "maintain", "write"]);

/**
 * The text a comment addresses to the agent: after an @mention of the App or the command at its
 * start. null when the comment is not for Inkwell.
 */
export function instructionIn(body: string, slug: string, command: string): string | null {
  const trimmed = body.trim();
  if (command && (trimmed === command || trimmed.startsWith(`${command} `) || trimmed.startsWith(`${command}\n`))) {
    return trimmed.slice(command.length).trim() || null;
  }
  const mention = new RegExp(`(^|[^\\w/-])@${slug.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "i");
  if (!mention.test(trimmed)) return null;
  return trimmed.replace(new RegExp(mention.source, "gi"), "$1").replace(/[ \t]{2,}/g, " ").trim() || null;
}

const MAX_HUNK_LINES = 40;

/**
 * An inline review comment's instruction with where it was left: the file, the line and the end of
 * the diff hunk GitHub shows above it (the lines the comment is about), so the agent edits there.
 */
export function withLocation(instruction: string, location: { path: string; line: number | null; diffHunk: string }): string {
  const hunk = location.diffHunk.split("\n").slice(-MAX_HUNK_LINES).join("\n").replace(/`{3,}/g, "``");
  const where = `\`${location.path}\`${location.line === null ? " (a line this branch has since changed)" : ` line ${location.line}`}`;
  return `Review comment on ${where}:\n\`\`\`diff\n${hunk}\n\`\`\`\n${instruction}`;
}

/** `@app stop` or `/inkwell stop`: cancel the active run instead of sending a message. */
export const isStopCommand = (instruction: string) => /^(stop|cancel)[.!]?$/i.test(instruction.trim());

/**
 * Where a PR comment becomes a follow-up message of the PR's job: only a person's comment (no bot
 * or app) that addresses the agent, on a job's PR that is not archived, taken once however often
 * GitHub delivers it, from an author with write permission; it gets a 👀 reaction. A `stop`
 * command from such an author cancels the job's active run instead.
 */
export function commentFollowUp(
  db: Db,
  github: GitHubApi,
  options: { command: string; rateLimitPerHour: number },
  log: Logger,
): (event: Extract<QueuedEvent, { type: "comment" }>) => Promise<TaskOutcome> {
  return async (event) => {
    const author = event.author;
    if (author.type !== "User" || author.login.endsWith("[bot]") || event.viaApp) return { skipped: "comment by a bot or an app" };
    const slug = await github.appSlug();
    const instruction = instructionIn(event.body, slug, options.command);
    if (!instruction) return { skipped: "comment does not address the agent" };
    // The same rules as an API prompt: a comment cannot store what the API would refuse.
    const stop = isStopCommand(instruction);
    const checked = promptSchema.safeParse(event.location && !stop ? withLocation(instruction, event.location) : instruction);
    if (!checked.success) return { skipped: `the instruction is not a valid prompt: ${describeIssues(checked.error, "prompt")}` };
    const prompt = checked.data;
    const job = await jobOnPullRequest(db, event.repo, event.prNumber);
    if (!job) return { skipped: "not a job's pull request" };
    if (job.status === "archived") return { skipped: "the job is archived" };
    // Before asking GitHub for the author's permission: a redelivered comment costs no API call.
    if (await isCommentRecorded(db, event.commentId)) return { skipped: "comment already taken" };
    const permission = await github.permission(event.installationId, event.repo, author.login);
    if (!WRITERS.has(permission)) {
      log.debug({ login: author.login, permission }, "comment ignored: author cannot write to the repository");
      return { skipped: `author has ${permission} permission` };
    }
    if (stop) {
      const cancelled = await db.transaction(async (tx) => {
        const result = await cancelJob(tx, { projectId: job.projectId, jobId: job.id, cause: "comment", author: author.login, commentId: event.commentId });
        if (result.cancelled) await queueReaction(tx, event);
        return result.cancelled;
      });
      return cancelled ? { ok: true } : { skipped: "stop: the job has no active run" };
    }
    const skipped = await db.transaction(async (tx) => {
      const added = await addMessage(
        tx,
        { projectId: job.projectId, jobId: job.id, prompt, source: "comment", author: author.login, commentId: event.commentId },
        { defaultRateLimitPerHour: options.rateLimitPerHour },
      );
      // Another delivery of this comment took it meanwhile (checked under the job's lock): it reacts, not this one.
      if (added.alreadyTaken) return "comment already taken";
      await queueReaction(tx, event);
      return null;
    }).catch((error: unknown) => {
      // Archived between the look-up and the write: nothing to do.
      if (error instanceof JobArchivedError) return "the job is archived";
      throw error;
    });
    return skipped ? { skipped } : { ok: true };
  };
}

function queueReaction(tx: Queryable, event: Extract<QueuedEvent, { type: "comment" }>): Promise<void> {
  return enqueueTask(tx, REACTION_TASK, `reaction:${event.kind}:${event.commentId}`, {
    installationId: event.installationId,
    repo: event.repo,
    commentId: event.commentId,
    kind: event.kind,
  });
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
