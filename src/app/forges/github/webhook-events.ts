import { z } from "zod";
import { isHandledEvent } from "./github-events.js";
import { checksChangedEvent, checksChangedEventSchema } from "./check-events.js";
import { intoDefaultBranch, issueCommentEvent, issueCommentEventSchema, issueLabeledEvent, issueLabeledEventSchema, sourceMergedEvent, sourceMergedEventSchema } from "./automation-events.js";

/**
 * The parts of GitHub webhook payloads Inkwell acts on, parsed at the edge. A delivery becomes one
 * of these and is queued as a task; nothing else of the payload is kept.
 */
const repo = z.object({ id: z.number(), full_name: z.string() });
const installation = z.object({ id: z.number() });
const user = z.object({ login: z.string(), type: z.string() });

/** What a delivery means, as queued for the `github_event` task (the worker parses it back with this schema). */
export const queuedEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("installation_linked"), installationId: z.number(), repositories: z.array(z.object({ fullName: z.string(), id: z.number() })) }),
  z.object({ type: z.literal("installation_unlinked"), installationId: z.number(), repositories: z.array(z.string()).nullable() }),
  z.object({ type: z.literal("installation_suspended"), installationId: z.number(), suspended: z.boolean() }),
  z.object({ type: z.literal("pr_opened"), repo: z.string(), number: z.number(), url: z.string(), headRef: z.string() }),
  z.object({
    type: z.literal("pr_closed"),
    repo: z.string(),
    number: z.number(),
    headRef: z.string(),
    merged: z.boolean(),
    /** GitHub's merged_at: when the merge happened (the delivery may come later); absent on older queued events. */
    mergedAt: z.string().nullable().optional(),
    /** A merge into the repository's default branch: what reading its files at the merge needs (robots.txt from the repository). */
    defaultBranchMerge: z.object({ installationId: z.number(), mergeSha: z.string() }).optional(),
  }),
  z.object({
    type: z.literal("comment"),
    repo: z.string(),
    installationId: z.number(),
    prNumber: z.number(),
    commentId: z.number(),
    kind: z.enum(["issue", "review"]),
    body: z.string(),
    author: z.object({ login: z.string(), type: z.string() }),
    viaApp: z.boolean(),
    /** Where an inline review comment sits: the file, its line (null once outdated) and the diff around it. */
    location: z.object({ path: z.string(), line: z.number().nullable(), diffHunk: z.string() }).optional(),
    /** The review an inline comment belongs to: a submitted review's comments are taken together. */
    reviewId: z.number().optional(),
    /** GitHub's created_at: an `approve` speaks only to a plan shown before it was written. Absent on older queued events. */
    writtenAt: z.string().optional(),
  }),
  z.object({
    type: z.literal("review"),
    repo: z.string(),
    installationId: z.number(),
    prNumber: z.number(),
    reviewId: z.number(),
    body: z.string(),
    author: z.object({ login: z.string(), type: z.string() }),
  }),
  z.object({ type: z.literal("workflow_run_completed"), repo: z.string(), runId: z.number(), conclusion: z.string().nullable(), url: z.string(), title: z.string() }),
  sourceMergedEventSchema,
  issueLabeledEventSchema,
  issueCommentEventSchema,
  checksChangedEventSchema,
]);
export type QueuedEvent = z.infer<typeof queuedEventSchema>;

const installationEvent = z.object({
  action: z.string(),
  installation,
  repositories: z.array(repo).optional(),
});
const installationRepositoriesEvent = z.object({
  action: z.enum(["added", "removed"]),
  installation,
  repositories_added: z.array(repo),
  repositories_removed: z.array(repo.partial({ id: true })),
});
const pullRequestEvent = z.object({
  action: z.string(),
  repository: repo,
  pull_request: z.object({ number: z.number(), html_url: z.string(), merged: z.boolean().nullable().optional(), merged_at: z.string().nullable().optional(), head: z.object({ ref: z.string() }) }),
});
const comment = z.object({ id: z.number(), body: z.string().nullable(), user, performed_via_github_app: z.unknown().optional(), created_at: z.string().optional() });
const issueCommentEventPayload = z.object({
  action: z.literal("created"),
  repository: repo,
  installation,
  issue: z.object({ number: z.number(), pull_request: z.object({}).passthrough().optional() }),
  comment,
});
const reviewCommentEvent = z.object({
  action: z.literal("created"),
  repository: repo,
  installation,
  pull_request: z.object({ number: z.number() }),
  comment: comment.extend({
    path: z.string(),
    line: z.number().nullable().optional(),
    original_line: z.number().nullable().optional(),
    diff_hunk: z.string().optional(),
    pull_request_review_id: z.number().nullable().optional(),
  }),
});
const reviewEvent = z.object({
  action: z.literal("submitted"),
  repository: repo,
  installation,
  pull_request: z.object({ number: z.number() }),
  review: z.object({ id: z.number(), body: z.string().nullable(), user }),
});
const workflowRunEvent = z.object({
  action: z.literal("completed"),
  repository: repo,
  workflow_run: z.object({ id: z.number(), conclusion: z.string().nullable(), html_url: z.string(), display_title: z.string().optional().default(""), event: z.string() }),
});

/** The queued form of a delivery, or null when Inkwell does not act on it (another action, or a payload not shaped as expected). */
export function toQueuedEvent(name: string, payload: unknown): QueuedEvent | null {
  if (!isHandledEvent(name)) return null;
  switch (name) {
    case "installation": {
      const e = installationEvent.safeParse(payload);
      if (!e.success) return null;
      const installationId = e.data.installation.id;
      if (e.data.action === "created" || e.data.action === "new_permissions_accepted") {
        return { type: "installation_linked", installationId, repositories: (e.data.repositories ?? []).map((r) => ({ fullName: r.full_name, id: r.id })) };
      }
      if (e.data.action === "deleted") return { type: "installation_unlinked", installationId, repositories: null };
      if (e.data.action === "suspend" || e.data.action === "unsuspend") return { type: "installation_suspended", installationId, suspended: e.data.action === "suspend" };
      return null;
    }
    case "installation_repositories": {
      const e = installationRepositoriesEvent.safeParse(payload);
      if (!e.success) return null;
      const installationId = e.data.installation.id;
      return e.data.action === "added"
        ? { type: "installation_linked", installationId, repositories: e.data.repositories_added.map((r) => ({ fullName: r.full_name, id: r.id })) }
        : { type: "installation_unlinked", installationId, repositories: e.data.repositories_removed.map((r) => r.full_name) };
    }
    case "pull_request": {
      const e = pullRequestEvent.safeParse(payload);
      if (!e.success) return null;
      if (!e.data.pull_request.head.ref.startsWith("inkwell/")) return sourceMergedEvent(payload);
      const pr = e.data.pull_request;
      if (e.data.action === "opened" || e.data.action === "reopened") {
        return { type: "pr_opened", repo: e.data.repository.full_name, number: pr.number, url: pr.html_url, headRef: pr.head.ref };
      }
      if (e.data.action === "closed") {
        const merge = sourceMergedEvent(payload);
        return {
          type: "pr_closed",
          repo: e.data.repository.full_name,
          number: pr.number,
          headRef: pr.head.ref,
          merged: pr.merged === true,
          mergedAt: pr.merged_at ?? null,
          ...(merge && intoDefaultBranch(merge) ? { defaultBranchMerge: { installationId: merge.installationId, mergeSha: merge.mergeSha } } : {}),
        };
      }
      return null;
    }
    case "issue_comment": {
      const e = issueCommentEventPayload.safeParse(payload);
      if (!e.success) return null;
      if (!e.data.issue.pull_request) return issueCommentEvent(payload);
      return commentEvent(e.data.repository.full_name, e.data.installation.id, e.data.issue.number, e.data.comment, "issue");
    }
    case "pull_request_review_comment": {
      const e = reviewCommentEvent.safeParse(payload);
      if (!e.success) return null;
      const c = e.data.comment;
      const event = commentEvent(e.data.repository.full_name, e.data.installation.id, e.data.pull_request.number, c, "review", {
        path: c.path,
        line: c.line ?? c.original_line ?? null,
        diffHunk: c.diff_hunk ?? "",
      });
      return c.pull_request_review_id ? { ...event, reviewId: c.pull_request_review_id } : event;
    }
    case "pull_request_review": {
      const e = reviewEvent.safeParse(payload);
      if (!e.success) return null;
      const review = e.data.review;
      return {
        type: "review",
        repo: e.data.repository.full_name,
        installationId: e.data.installation.id,
        prNumber: e.data.pull_request.number,
        reviewId: review.id,
        body: review.body ?? "",
        author: review.user,
      };
    }
    case "issues":
      return issueLabeledEvent(payload);
    case "workflow_run": {
      const e = workflowRunEvent.safeParse(payload);
      if (!e.success || e.data.workflow_run.event !== "repository_dispatch") return null;
      const run = e.data.workflow_run;
      return { type: "workflow_run_completed", repo: e.data.repository.full_name, runId: run.id, conclusion: run.conclusion, url: run.html_url, title: run.display_title };
    }
    case "check_run":
    case "check_suite":
    case "status":
      return checksChangedEvent(name, payload);
    default:
      return unhandled(name);
  }
}

/** A compile error when EVENTS names an event the switch above has no case for. */
function unhandled(name: never): never {
  throw new Error(`no case for the GitHub event ${String(name)}`);
}

/**
 * How long a delivery waits before it is handled. GitHub sends a submitted review and each of its
 * inline comments as separate deliveries in no set order; a review's comment waits so its review,
 * which takes all of them as one follow-up, is handled first. A comment whose review never arrives
 * (an App registered before it subscribed to reviews) is still taken on its own.
 */
export const REVIEW_COMMENT_GRACE_SECONDS = 15;

export function queueDelaySeconds(event: QueuedEvent): number {
  return event.type === "comment" && event.reviewId !== undefined ? REVIEW_COMMENT_GRACE_SECONDS : 0;
}

type CommentEvent = Extract<QueuedEvent, { type: "comment" }>;

function commentEvent(repoName: string, installationId: number, prNumber: number, c: z.infer<typeof comment>, kind: "issue" | "review", location?: CommentEvent["location"]): CommentEvent {
  return {
    ...(location ? { location } : {}),
    type: "comment",
    repo: repoName,
    installationId,
    prNumber,
    commentId: c.id,
    kind,
    body: c.body ?? "",
    author: c.user,
    viaApp: c.performed_via_github_app !== undefined && c.performed_via_github_app !== null,
    ...(c.created_at ? { writtenAt: c.created_at } : {}),
  };
}
