import { z } from "zod";
import { storable } from "../../../shared/stored-values.js";

/**
 * The deliveries that start automated jobs (docs/architecture.md, "Automations"): a pull request
 * merged in a code repository, an issue labelled or an issue comment that may mention the App.
 * Parsed at the edge like `webhook-events.ts`; texts are capped so a queued task stays small.
 */
const MAX_TEXT = 20_000;
const text = (value: string | null | undefined) => storable((value ?? "").slice(0, MAX_TEXT));

const repo = z.object({ id: z.number(), full_name: z.string(), html_url: z.string().optional(), default_branch: z.string().optional() });
const user = z.object({ login: z.string(), type: z.string() });
const label = z.object({ name: z.string() });
const issue = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullable().optional(),
  html_url: z.string(),
  state: z.string().optional(),
  labels: z.array(label).optional(),
  pull_request: z.object({}).passthrough().optional(),
});

export const sourceMergedEventSchema = z.object({
  type: z.literal("source_merged"),
  repo: z.string(),
  installationId: z.number(),
  number: z.number(),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  mergeSha: z.string(),
  /** GitHub's merged_at; absent on older queued events. */
  mergedAt: z.string().nullable().optional(),
  baseRef: z.string(),
  defaultBranch: z.string().nullable(),
  labels: z.array(z.string()),
  author: z.string(),
  /** Opened by a bot (Dependabot, Renovate…): such merges start no job. */
  authorIsBot: z.boolean().default(false),
});
export type SourceMergedEvent = z.infer<typeof sourceMergedEventSchema>;

/** Whether a merge went into its repository's default branch (what source automations and robots.txt versions take). */
export const intoDefaultBranch = (merge: Pick<SourceMergedEvent, "baseRef" | "defaultBranch">): boolean => merge.defaultBranch !== null && merge.baseRef === merge.defaultBranch;

const issueFields = {
  repo: z.string(),
  installationId: z.number(),
  issueNumber: z.number(),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  sender: user,
};
export const issueLabeledEventSchema = z.object({ type: z.literal("issue_labeled"), ...issueFields, label: z.string() });
export type IssueLabeledEvent = z.infer<typeof issueLabeledEventSchema>;
export const issueCommentEventSchema = z.object({
  type: z.literal("issue_comment"),
  ...issueFields,
  commentId: z.number(),
  comment: z.string(),
  viaApp: z.boolean(),
  /** GitHub's created_at: an `approve` speaks only to a plan shown before it was written. Absent on older queued events. */
  writtenAt: z.string().optional(),
});
export type IssueCommentEvent = z.infer<typeof issueCommentEventSchema>;

const mergedPullRequest = z.object({
  action: z.literal("closed"),
  repository: repo,
  installation: z.object({ id: z.number() }),
  pull_request: z.object({
    number: z.number(),
    title: z.string(),
    body: z.string().nullable().optional(),
    html_url: z.string(),
    merged: z.literal(true),
    merge_commit_sha: z.string().regex(/^[0-9a-f]{40}$/),
    merged_at: z.string().nullable().optional(),
    base: z.object({ ref: z.string() }),
    labels: z.array(label).optional(),
    user,
  }),
});

/** A pull request merged into any branch of a repository that is no job's: maybe a source repository's merge. */
export function sourceMergedEvent(payload: unknown): SourceMergedEvent | null {
  const e = mergedPullRequest.safeParse(payload);
  if (!e.success) return null;
  const pr = e.data.pull_request;
  return {
    type: "source_merged",
    repo: e.data.repository.full_name,
    installationId: e.data.installation.id,
    number: pr.number,
    title: text(pr.title),
    body: text(pr.body),
    url: pr.html_url,
    mergeSha: pr.merge_commit_sha,
    mergedAt: pr.merged_at ?? null,
    baseRef: pr.base.ref,
    defaultBranch: e.data.repository.default_branch ?? null,
    labels: (pr.labels ?? []).map((l) => l.name),
    author: pr.user.login,
    authorIsBot: pr.user.type === "Bot" || pr.user.login.endsWith("[bot]"),
  };
}

const labeledIssue = z.object({ action: z.literal("labeled"), repository: repo, installation: z.object({ id: z.number() }), issue, label, sender: user });

export function issueLabeledEvent(payload: unknown): IssueLabeledEvent | null {
  const e = labeledIssue.safeParse(payload);
  if (!e.success || e.data.issue.pull_request) return null;
  return { type: "issue_labeled", ...issueOf(e.data), label: e.data.label.name };
}

const commentOnIssue = z.object({
  action: z.literal("created"),
  repository: repo,
  installation: z.object({ id: z.number() }),
  issue,
  comment: z.object({ id: z.number(), body: z.string().nullable(), user, performed_via_github_app: z.unknown().optional(), created_at: z.string().optional() }),
});

/** A comment on an issue (not a pull request): whether it mentions the App is decided when it is handled. */
export function issueCommentEvent(payload: unknown): IssueCommentEvent | null {
  const e = commentOnIssue.safeParse(payload);
  if (!e.success || e.data.issue.pull_request) return null;
  const c = e.data.comment;
  return {
    type: "issue_comment",
    ...issueOf({ ...e.data, sender: c.user }),
    commentId: c.id,
    comment: text(c.body),
    viaApp: c.performed_via_github_app !== undefined && c.performed_via_github_app !== null,
    ...(c.created_at ? { writtenAt: c.created_at } : {}),
  };
}

function issueOf(e: { repository: z.infer<typeof repo>; installation: { id: number }; issue: z.infer<typeof issue>; sender: z.infer<typeof user> }) {
  return {
    repo: e.repository.full_name,
    installationId: e.installation.id,
    issueNumber: e.issue.number,
    title: text(e.issue.title),
    body: text(e.issue.body),
    url: e.issue.html_url,
    sender: e.sender,
  };
}
