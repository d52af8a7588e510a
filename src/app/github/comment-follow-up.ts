import type { Logger } from "pino";
import { promptSchema } from "../../shared/api-schemas.js";
import { describeIssues } from "../../shared/zod-issues.js";
import type { Db } from "../store/db.js";
import type { TaskOutcome } from "../tasks/task-definition.js";
import { isPerson, openFollowUp, takeFollowUp, type FollowUpOptions } from "./follow-up.js";
import type { GitHubApi } from "./github-api.js";
import type { QueuedEvent } from "./webhook-events.js";
import { escapeRegExp } from "../../shared/regexp.js";
import { approveFromComment, isApproveCommand } from "./waiting-comment.js";

/**
 * The text a comment addresses to the agent: after an @mention of the App or the command at its
 * start. null when the comment is not for Inkwell.
 */
export function instructionIn(body: string, slug: string, command: string): string | null {
  const trimmed = body.trim();
  if (command && (trimmed === command || trimmed.startsWith(`${command} `) || trimmed.startsWith(`${command}\n`))) {
    return trimmed.slice(command.length).trim() || null;
  }
  const mention = new RegExp(`(^|[^\\w/-])@${escapeRegExp(slug)}(?![\\w-])`, "i");
  if (!mention.test(trimmed)) return null;
  return trimmed.replace(new RegExp(mention.source, "gi"), "$1").replace(/[ \t]{2,}/g, " ").trim() || null;
}

export const MAX_HUNK_LINES = 40;

/**
 * An inline review comment's instruction with where it was left: the file, the line and the end of
 * the diff hunk GitHub shows above it (the lines the comment is about), so the agent edits there.
 */
export function withLocation(instruction: string, location: { path: string; line: number | null; diffHunk: string }, hunkLines = MAX_HUNK_LINES): string {
  const where = `\`${location.path}\`${location.line === null ? " (a line this branch has since changed)" : ` line ${location.line}`}`;
  if (hunkLines === 0) return `Review comment on ${where}:\n${instruction}`;
  const hunk = location.diffHunk.split("\n").slice(-hunkLines).join("\n").replace(/`{3,}/g, "``");
  return `Review comment on ${where}:\n\`\`\`diff\n${hunk}\n\`\`\`\n${instruction}`;
}

/** `@app stop` or `/inkwell stop`: cancel the active run instead of sending a message. */
export const isStopCommand = (instruction: string) => /^(stop|cancel)[.!]?$/i.test(instruction.trim());

/**
 * Where a PR comment becomes a follow-up message of the PR's job: only a person's comment (no bot
 * or app) that addresses the agent, on a job's PR that is not archived, from an author with write
 * permission (`follow-up.ts`). An inline comment its submitted review already took counts as taken.
 */
export function commentFollowUp(db: Db, github: GitHubApi, options: FollowUpOptions, log: Logger): (event: Extract<QueuedEvent, { type: "comment" }>) => Promise<TaskOutcome> {
  const take = takeFollowUp(db, github, options, log);
  const approve = approveFromComment(db, github, log);
  return async (event) => {
    if (!isPerson(event.author, event.viaApp)) return { skipped: "comment by a bot or an app" };
    const slug = await github.appSlug();
    const instruction = instructionIn(event.body, slug, options.command);
    if (!instruction) return { skipped: "comment does not address the agent" };
    if (isApproveCommand(instruction)) {
      return approve({ repo: event.repo, installationId: event.installationId, issueNumber: event.prNumber, author: event.author.login, commentId: event.commentId, kind: event.kind });
    }
    const stop = isStopCommand(instruction);
    // The same rules as an API prompt: a comment cannot store what the API would refuse.
    const checked = promptSchema.safeParse(event.location && !stop ? withLocation(instruction, event.location) : instruction);
    if (!checked.success) return { skipped: `the instruction is not a valid prompt: ${describeIssues(checked.error, "prompt")}` };
    const origin = { kind: "comment" as const, commentId: event.commentId, ...(event.reviewId !== undefined ? { reviewId: event.reviewId } : {}) };
    const job = await openFollowUp(db, event.repo, event.prNumber, origin);
    if (typeof job === "string") return { skipped: job };
    return take(
      {
        repo: event.repo,
        installationId: event.installationId,
        prNumber: event.prNumber,
        author: event.author.login,
        prompt: stop ? null : checked.data,
        origin,
        reactTo: [{ id: event.commentId, kind: event.kind }],
      },
      job,
    );
  };
}
