import { describe, expect, it } from "vitest";
import { toQueuedEvent } from "../../../../../src/app/forges/github/webhook-events.js";

const repository = { id: 1, full_name: "acme/api", html_url: "https://github.com/acme/api", default_branch: "main" };
const installation = { id: 9 };
const user = { login: "octocat", type: "User" };
const pr = (extra: Record<string, unknown> = {}) => ({
  number: 12,
  title: "Add --dry-run",
  body: null,
  html_url: "https://github.com/acme/api/pull/12",
  merged: true,
  merge_commit_sha: "c".repeat(40),
  base: { ref: "main" },
  head: { ref: "feature/dry-run" },
  labels: [{ name: "docs" }],
  user,
  ...extra,
});

describe("automation events", () => {
  it("a merged pull request of any branch but a job's is a source merge; closed unmerged or a job's branch is not", () => {
    expect(toQueuedEvent("pull_request", { action: "closed", repository, installation, pull_request: pr() })).toEqual({
      type: "source_merged",
      repo: "acme/api",
      installationId: 9,
      number: 12,
      title: "Add --dry-run",
      body: "",
      url: "https://github.com/acme/api/pull/12",
      mergeSha: "c".repeat(40),
      mergedAt: null,
      baseRef: "main",
      defaultBranch: "main",
      labels: ["docs"],
      author: "octocat",
      authorIsBot: false,
    });
    expect(toQueuedEvent("pull_request", { action: "closed", repository, installation, pull_request: pr({ merged_at: "2026-11-20T08:00:00Z" }) })).toMatchObject({ mergedAt: "2026-11-20T08:00:00Z" });
    expect(toQueuedEvent("pull_request", { action: "closed", repository, installation, pull_request: pr({ user: { login: "dependabot[bot]", type: "Bot" }, title: "a\u0000b\ud83d" }) })).toMatchObject({
      authorIsBot: true,
      title: "ab\ufffd",
    });
    expect(toQueuedEvent("pull_request", { action: "closed", repository, installation, pull_request: pr({ merged: false, merge_commit_sha: null }) })).toBeNull();
    // A job's merge into the default branch carries what reading robots.txt at the merge needs; into another branch, nothing.
    expect(toQueuedEvent("pull_request", { action: "closed", repository, installation, pull_request: pr({ head: { ref: "inkwell/abc" } }) })).toMatchObject({
      type: "pr_closed",
      defaultBranchMerge: { installationId: 9, mergeSha: "c".repeat(40) },
    });
    expect(toQueuedEvent("pull_request", { action: "closed", repository, installation, pull_request: pr({ head: { ref: "inkwell/abc" }, base: { ref: "release" } }) })).not.toHaveProperty("defaultBranchMerge");
  });

  it("an issue labelled, and a comment on an issue (not a pull request), with who did it", () => {
    const issue = { number: 5, title: "Explain rate limits", body: "Please.", html_url: "https://github.com/acme/docs/issues/5", labels: [] };
    expect(toQueuedEvent("issues", { action: "labeled", repository: { ...repository, full_name: "acme/docs" }, installation, issue, label: { name: "inkwell" }, sender: user })).toMatchObject({
      type: "issue_labeled",
      repo: "acme/docs",
      issueNumber: 5,
      body: "Please.",
      label: "inkwell",
      sender: user,
    });
    expect(toQueuedEvent("issues", { action: "opened", repository, installation, issue, sender: user })).toBeNull();
    const comment = { id: 77, body: "@inkwell-docs please", user: { login: "reader", type: "User" } };
    expect(toQueuedEvent("issue_comment", { action: "created", repository, installation, issue, comment })).toMatchObject({ type: "issue_comment", commentId: 77, comment: "@inkwell-docs please", sender: { login: "reader" }, viaApp: false });
    expect(toQueuedEvent("issue_comment", { action: "created", repository, installation, issue: { ...issue, pull_request: {} }, comment })).toMatchObject({ type: "comment", prNumber: 5 });
  });
});
