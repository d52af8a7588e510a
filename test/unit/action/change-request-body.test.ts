import { describe, expect, it } from "vitest";
import { commitMessage, reasonsFromCommits, renderPullRequestBody, splitSummary } from "../../../src/action/change-request-body.js";

describe("pull request text", () => {
  it("reads back per-file reasons from the branch's commit messages, across runs", () => {
    const first = commitMessage("Add retries page", "job1", 1, new Map([["docs/retries.mdx", ["New page."]], ["docs.json", ["Navigation."]]]));
    const second = commitMessage("Tweak", "job1", 2, new Map([["docs/retries.mdx", ["Clarify the limit; per key."]]]));
    expect(first).toBe("Add retries page\n\nInkwell job job1, run 1.\n\nChanges:\n- docs.json: Navigation.\n- docs/retries.mdx: New page.\n");
    expect(reasonsFromCommits([first, "A human commit\n\nno changes list", second])).toEqual(
      new Map([
        ["docs.json", ["Navigation."]],
        ["docs/retries.mdx", ["New page.", "Clarify the limit; per key."]],
      ]),
    );
  });

  it("takes the title from the answer's first line, cleaned, or falls back", () => {
    expect(splitSummary('# "Document retries"\n\nAdded a page.', "fallback")).toEqual({ title: "Document retries", summary: "Added a page." });
    expect(splitSummary("", "Docs: add retries")).toEqual({ title: "Docs: add retries", summary: "" });
    expect(splitSummary("x".repeat(100), "f").title).toHaveLength(72);
  });

  it("says what started the job, linked, and closes the issue it came from", () => {
    const base = { summary: "Summary.", jobId: "job1", model: "m", files: [], reasons: new Map(), validation: { passed: true, problems: [] }, workflowRunUrl: null };
    const merged = renderPullRequestBody({
      ...base,
      messages: [{ seq: 1, prompt: "Merged acme/api#12", source: "automation", author: "octocat", createdAt: "" }],
      trigger: { type: "source-merge", url: "https://github.com/acme/api/pull/12" },
    });
    expect(merged).toContain("Started by [a merged pull request](https://github.com/acme/api/pull/12).");
    expect(merged).toContain("1. an automation, for @octocat:");
    expect(merged).not.toContain("Fixes #");
    const fromIssue = renderPullRequestBody({ ...base, messages: [], trigger: { type: "issue", url: "https://github.com/acme/docs/issues/7" }, closesIssue: 7 });
    expect(fromIssue).toContain("Fixes #7");
    expect(renderPullRequestBody({ ...base, messages: [], trigger: { type: "schedule" } })).toContain("Started by a schedule.");
    // An automation's instruction shows its first paragraph only: the diff it carries stays off the PR.
    const withDiff = renderPullRequestBody({ ...base, messages: [{ seq: 1, prompt: "Merged acme/api#12\nhttps://github.com/acme/api/pull/12\n\nThe diff:\n+secret code", source: "automation", author: null, createdAt: "" }] });
    expect(withDiff).toContain("   > Merged acme/api#12\n   > https://github.com/acme/api/pull/12\n   > (the rest of this instruction is on the job's page)");
    expect(withDiff).not.toContain("secret code");
    expect(renderPullRequestBody({ ...base, messages: [], trigger: { type: "api" } })).not.toContain("Started by");
  });

  it("speaks GitLab's words on a merge request: note, merge request, pipeline", () => {
    const base = { summary: "", jobId: "job1", model: "m", files: [], reasons: new Map(), validation: { passed: false, problems: ["a.mdx:1: broken link"] }, workflowRunUrl: "https://gitlab.example.com/acme/docs/-/pipelines/9", forge: "gitlab" as const };
    const body = renderPullRequestBody({ ...base, messages: [], trigger: { type: "comment", url: "https://gitlab.example.com/acme/docs/-/merge_requests/3#note_5" } });
    expect(body).toContain("Started by [a merge request note](https://gitlab.example.com/acme/docs/-/merge_requests/3#note_5).");
    expect(body).toContain("so this merge request is a draft until they are fixed");
    expect(body).toContain("[pipeline](https://gitlab.example.com/acme/docs/-/pipelines/9). Comment on this merge request to ask for changes.");
    expect(renderPullRequestBody({ ...base, messages: [], trigger: { type: "source-merge" } })).toContain("Started by a merged merge request.");
    expect(body).not.toMatch(/\bPR\b|pull request|workflow run/);
  });

  it("lists changes per file, the instructions and the validation problems", () => {
    const body = renderPullRequestBody({
      summary: "Summary.",
      jobId: "job1",
      model: "anthropic/claude-sonnet-4-5",
      messages: [
        { seq: 1, prompt: "Add a page", source: "api", author: null, createdAt: "" },
        { seq: 2, prompt: "Also\nthis", source: "comment", author: "carol", createdAt: "" },
        { seq: 3, prompt: "And a table", source: "dashboard", author: "dora", createdAt: "" },
        { seq: 4, prompt: "Fix a typo", source: "dashboard", author: null, createdAt: "" },
      ],
      files: [
        { path: "a.mdx", status: "renamed", from: "old.mdx" },
        { path: "b.mdx", status: "deleted" },
      ],
      reasons: new Map([["a.mdx", ["Renamed."]]]),
      validation: { passed: false, problems: ["a.mdx:3: link '/x' does not resolve"] },
      workflowRunUrl: "https://github.com/acme/docs/actions/runs/1",
    });
    expect(body).toContain("- `a.mdx` (renamed from `old.mdx`): Renamed.");
    expect(body).toContain("- `b.mdx` (deleted)");
    expect(body).toContain("1. via the API:\n   > Add a page");
    expect(body).toContain("2. @carol in a comment:\n   > Also\n   > this");
    expect(body).toContain("3. @dora on the dashboard:\n   > And a table");
    expect(body).toContain("4. on the dashboard:\n   > Fix a typo");
    expect(body).toContain("**1 problem(s) remain**");
    expect(body).toContain("- a.mdx:3: link '/x' does not resolve");
    expect(body).toContain("[workflow run](https://github.com/acme/docs/actions/runs/1)");
  });

  it("lists what was already on the site apart, counted, folded and never as this change's problems", () => {
    const listed = Array.from({ length: 25 }, (_, i) => `old${i}.mdx:1: link '/gone' does not resolve to a file in the repository`);
    const body = renderPullRequestBody({ summary: "S.", jobId: "job1", model: "m", messages: [], files: [], reasons: new Map(), workflowRunUrl: null, validation: { passed: true, problems: [], alreadyOnSite: listed, alreadyOnSiteCount: 116 } });
    expect(body).toContain("Passed: pages compile");
    expect(body).toContain("<details><summary>Already on the site: 116 problem(s) that were there before this change (not this change's, and not blocking)</summary>");
    expect(body).toContain("- old19.mdx:1: link '/gone'");
    expect(body).not.toContain("old20.mdx");
    expect(body).toContain("- … and 96 more");
    expect(renderPullRequestBody({ summary: "S.", jobId: "job1", model: "m", messages: [], files: [], reasons: new Map(), workflowRunUrl: null, validation: { passed: true, problems: [] } })).not.toContain("Already on the site");
  });
});
