import type { Logger } from "pino";
import { promptSchema } from "../../../shared/api-schemas.js";
import { recordedComments } from "../../domain/jobs/messages.js";
import type { Db } from "../../store/db.js";
import type { TaskOutcome } from "../../tasks/task-definition.js";
import { instructionIn, isStopCommand, MAX_HUNK_LINES, withLocation } from "../addressing.js";
import { openFollowUp, takeFollowUp, type FollowUpOptions } from "../follow-ups.js";
import { gitHubCommentForge, isPerson } from "./follow-up.js";
import type { GitHubApi, ReviewComment } from "./api.js";
import type { QueuedEvent } from "./webhook-events.js";

/** Fewer lines of each diff hunk until a long review fits in one prompt; 0 keeps file and line only. */
const HUNK_LINE_STEPS = [MAX_HUNK_LINES, 12, 0];

interface ReviewParts {
  /** What the review's own text asks, when it addresses the agent. */
  body: string | null;
  comments: { comment: ReviewComment; instruction: string }[];
}

/**
 * What a submitted review asks of the agent: when its text addresses the agent, the review and all
 * its inline comments (the reviewer left them for it); otherwise only the inline comments that
 * address the agent themselves. Comments already taken on their own are left out.
 */
export function reviewParts(body: string, comments: ReviewComment[], alreadyTaken: Set<number>, slug: string, command: string): ReviewParts {
  const bodyInstruction = instructionIn(body, slug, command);
  const taken = comments
    .filter((c) => !alreadyTaken.has(c.id))
    .map((comment) => ({ comment, instruction: instructionIn(comment.body, slug, command) ?? (bodyInstruction !== null ? comment.body.trim() : null) }))
    .filter((c): c is ReviewParts["comments"][number] => c.instruction !== null && c.instruction !== "");
  return { body: bodyInstruction, comments: taken };
}

/** The one message a review becomes, within the prompt limit; null when it cannot fit. */
export function reviewPrompt(author: string, parts: ReviewParts): string | null {
  for (const hunkLines of HUNK_LINE_STEPS) {
    const sections = [
      ...(parts.body !== null ? [`Review by @${author}:\n${parts.body}`] : []),
      ...parts.comments.map(({ comment, instruction }) => withLocation(instruction, comment, hunkLines)),
    ];
    const checked = promptSchema.safeParse(sections.join("\n\n"));
    if (checked.success) return checked.data;
  }
  return null;
}

/**
 * A submitted review becomes one follow-up: its text and its inline comments together, so a
 * reviewer's ten comments start one run that sees all ten, not ten runs. Its comments' own
 * deliveries wait (`queueDelaySeconds`) and are skipped once the review took them.
 */
export function reviewFollowUp(db: Db, github: GitHubApi, options: FollowUpOptions, log: Logger): (event: Extract<QueuedEvent, { type: "review" }>) => Promise<TaskOutcome> {
  return async (event) => {
    if (!isPerson(event.author)) return { skipped: "review by a bot or an app" };
    const origin = { kind: "review" as const, reviewId: event.reviewId };
    const job = await openFollowUp(db, event.repo, event.prNumber, origin);
    if (typeof job === "string") return { skipped: job };
    const slug = await github.appSlug();
    const comments = await github.reviewComments(event.installationId, event.repo, event.prNumber, event.reviewId);
    const parts = reviewParts(event.body, comments, await recordedComments(db, comments.map((c) => c.id)), slug, options.command);
    if (parts.body === null && parts.comments.length === 0) return { skipped: "review does not address the agent" };
    const stop = [parts.body, ...parts.comments.map((c) => c.instruction)].some((text) => text !== null && isStopCommand(text));
    const prompt = stop ? null : reviewPrompt(event.author.login, parts);
    if (!stop && prompt === null) return { skipped: "the review is longer than one prompt may be" };
    const forge = gitHubCommentForge(github, log, { installationId: event.installationId, repo: event.repo, reactTo: parts.comments.map(({ comment }) => ({ id: comment.id, kind: "review" as const })) });
    return takeFollowUp(db, options, forge, job, { author: event.author.login, prompt, origin });
  };
}
