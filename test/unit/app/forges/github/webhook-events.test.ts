import { describe, expect, it } from "vitest";
import { queueDelaySeconds, queuedEventSchema, REVIEW_COMMENT_GRACE_SECONDS, toQueuedEvent } from "../../../../../src/app/forges/github/webhook-events.js";
import {
  installationCreated,
  installationDeleted,
  installationRepositories,
  issueComment,
  pullRequest,
  reviewComment,
  submittedReview,
  workflowRunCompleted,
} from "../../../../fixtures/webhooks.js";

describe("a webhook delivery as a queued event", () => {
  it.each([
    ["installation", installationCreated(42, [{ full_name: "acme/docs", id: 7 }]), { type: "installation_linked", installationId: 42, repositories: [{ fullName: "acme/docs", id: 7 }] }],
    ["installation", installationDeleted(42), { type: "installation_unlinked", installationId: 42, repositories: null }],
    ["installation", { ...installationDeleted(42), action: "suspend" }, { type: "installation_suspended", installationId: 42, suspended: true }],
    ["installation_repositories", installationRepositories(42, "removed", [{ full_name: "acme/docs", id: 7 }]), { type: "installation_unlinked", installationId: 42, repositories: ["acme/docs"] }],
    ["pull_request", pullRequest("opened", "acme/docs", 5, "inkwell/abc"), { type: "pr_opened", repo: "acme/docs", number: 5, url: "https://github.com/acme/docs/pull/5", headRef: "inkwell/abc" }],
    ["pull_request", pullRequest("closed", "acme/docs", 5, "inkwell/abc", { merged: true }), { type: "pr_closed", repo: "acme/docs", number: 5, headRef: "inkwell/abc", merged: true }],
    [
      "issue_comment",
      issueComment("acme/docs", 5, { id: 99, body: "@inkwell-docs add a table", login: "alice", writtenAt: "2026-11-28T03:10:00Z" }),
      { type: "comment", repo: "acme/docs", installationId: 42, prNumber: 5, commentId: 99, kind: "issue", body: "@inkwell-docs add a table", author: { login: "alice", type: "User" }, viaApp: false, writtenAt: "2026-11-28T03:10:00Z" },
    ],
    ["pull_request_review_comment", reviewComment("acme/docs", 5, { id: 98, body: "/inkwell fix", login: "bob" }), { type: "comment", kind: "review", commentId: 98, prNumber: 5 }],
    [
      "pull_request_review_comment",
      reviewComment("acme/docs", 5, { id: 97, body: "tighten this", login: "bob", reviewId: 700 }),
      { type: "comment", kind: "review", commentId: 97, reviewId: 700, location: { path: "docs/index.md", line: 3 } },
    ],
    [
      "pull_request_review",
      submittedReview("acme/docs", 5, { id: 700, body: "@inkwell-docs please address these", login: "bob", state: "changes_requested" }),
      { type: "review", repo: "acme/docs", installationId: 42, prNumber: 5, reviewId: 700, body: "@inkwell-docs please address these", author: { login: "bob", type: "User" } },
    ],
    ["pull_request_review", submittedReview("acme/docs", 5, { id: 701, body: null, login: "bob" }), { type: "review", reviewId: 701, body: "" }],
    ["workflow_run", workflowRunCompleted("acme/docs", 1234, "failure", "inkwell abc #2"), { type: "workflow_run_completed", repo: "acme/docs", runId: 1234, conclusion: "failure", title: "inkwell abc #2" }],
  ])("%s → the event the task acts on, which its payload schema accepts", (name, payload, expected) => {
    const event = toQueuedEvent(name, payload);
    expect(event).toMatchObject(expected);
    expect(queuedEventSchema.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it.each([
    ["pull_request on a branch that is not a job's", "pull_request", pullRequest("opened", "acme/docs", 5, "feature/x")],
    ["pull_request edited", "pull_request", pullRequest("edited", "acme/docs", 5, "inkwell/abc")],
    ["a comment on an issue that is not a PR", "issue_comment", (() => { const p = issueComment("acme/docs", 5, { id: 1, body: "hi", login: "a" }); return { ...p, issue: { number: 5 } }; })()],
    ["an event Inkwell does not act on", "star", { action: "created" }],
    ["a review edited, not submitted", "pull_request_review", { ...submittedReview("acme/docs", 5, { id: 1, body: "x", login: "a" }), action: "edited" }],
    ["a payload that is not the event's shape", "pull_request", { action: "opened", pull_request: "nope" }],
  ])("%s → nothing queued", (_what, name, payload) => {
    expect(toQueuedEvent(name, payload)).toBeNull();
  });

  it("holds back a review's inline comment so its review is taken first; nothing else waits", () => {
    const ofReview = toQueuedEvent("pull_request_review_comment", reviewComment("acme/docs", 5, { id: 97, body: "x", login: "b", reviewId: 700 }));
    const alone = toQueuedEvent("pull_request_review_comment", reviewComment("acme/docs", 5, { id: 96, body: "x", login: "b" }));
    const review = toQueuedEvent("pull_request_review", submittedReview("acme/docs", 5, { id: 700, body: "x", login: "b" }));
    expect([ofReview, alone, review].map((e) => queueDelaySeconds(e!))).toEqual([REVIEW_COMMENT_GRACE_SECONDS, 0, 0]);
  });
});
