import { describe, expect, it } from "vitest";
import type { ClaimResponse } from "../../../../src/shared/runner-schemas.js";
import { gitlabForge, type GitLabJobIdentity } from "../../../../src/action/gitlab/forge.js";

const identity: GitLabJobIdentity = { jobToken: "glcbt-job", projectUrl: "https://gitlab.example.com/acme/docs", userName: null, userEmail: null, serverHost: "gitlab.example.com" };

const claim = (prNumber: number | null): ClaimResponse => ({
  job: {
    id: "k3x9job",
    runAttempt: 1,
    repository: "acme/docs",
    branch: "inkwell/k3x9job",
    baseRef: null,
    prNumber,
    model: "anthropic/claude-sonnet-4-5",
    messages: [{ seq: 1, prompt: "Document webhooks", source: "api", author: null, createdAt: "2026-11-27T20:00:00.000Z" }],
    newMessagesFrom: 1,
    limits: { timeoutMinutes: 30, heartbeatSeconds: 60 },
  },
  appSlug: null,
  token: null,
  forge: "gitlab",
  gitlab: { projectId: 42, projectUrl: "https://gitlab.example.com/acme/docs/", serverUrl: "https://gitlab.example.com" },
});

const request = {
  title: "Document webhooks",
  draft: true,
  branch: "inkwell/k3x9job",
  base: "main",
  headSha: "a".repeat(40),
  files: [{ path: "webhooks.mdx", status: "added" as const }],
  body: {
    summary: "A page about webhooks.",
    jobId: "k3x9job",
    model: "anthropic/claude-sonnet-4-5",
    messages: claim(null).job.messages,
    files: [{ path: "webhooks.mdx", status: "added" as const }],
    reasons: new Map([["webhooks.mdx", ["The page asked for."]]]),
    validation: { passed: false, problems: ["webhooks.mdx:3: broken link /nowhere"] },
    workflowRunUrl: "https://gitlab.example.com/acme/docs/-/pipelines/1234",
    jobPageUrl: null,
  },
};

describe("GitLab's forge calls in the runner", () => {
  it("git authenticates as gitlab-ci-token with the job token, which is masked", () => {
    const forge = gitlabForge(claim(null), identity);
    expect(forge.gitAuth).toEqual({ user: "gitlab-ci-token", token: "glcbt-job" });
    expect(forge.secrets).toEqual(["glcbt-job"]);
  });

  it("calls nothing: the report carries the merge request's title, description (GitLab's words) and draft state", async () => {
    const logs: string[] = [];
    const published = await gitlabForge(claim(null), identity).publish(request, { info: (m) => logs.push(m), warning: (m) => logs.push(m) });
    expect(published.pr).toBeNull();
    expect(published.mergeRequest).toMatchObject({ title: "Document webhooks", draft: true });
    const description = published.mergeRequest?.description ?? "";
    expect(description).toContain("- `webhooks.mdx` (added): The page asked for.");
    expect(description).toContain("so this merge request is a draft until they are fixed");
    expect(description).toContain("[pipeline](https://gitlab.example.com/acme/docs/-/pipelines/1234)");
    expect(description).toContain("Comment on this merge request to ask for changes.");
    expect(description).not.toMatch(/\bPR\b|workflow run/);
    expect(logs).toEqual(["Pushed inkwell/k3x9job; Inkwell opens its merge request when it takes the report."]);
  });

  it("links a follow-up's merge request under the project Inkwell names, and signs commits as Inkwell when the pipeline's user has no name", async () => {
    const forge = gitlabForge(claim(7), identity);
    expect(forge.changeUrl(7)).toBe("https://gitlab.example.com/acme/docs/-/merge_requests/7");
    expect(await forge.commitAuthor()).toEqual({ name: "Inkwell", email: "inkwell@noreply.gitlab.example.com" });
    expect(await gitlabForge(claim(7), { ...identity, userName: "Inkwell bot", userEmail: "bot@gitlab.example.com" }).commitAuthor()).toEqual({ name: "Inkwell bot", email: "bot@gitlab.example.com" });
  });
});
