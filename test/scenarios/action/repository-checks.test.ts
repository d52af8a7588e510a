import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkRunCompleted } from "../../fixtures/webhooks.js";
import { git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { lastUserText, steps } from "../../helpers/fake-model.js";
import { APP_SLUG, deliver, GITHUB_API } from "../../helpers/github.js";

/**
 * The repository's own checks as the last word, through the real Action: while the project watches
 * them the pull request opens as a draft and the report names the pushed commit; a check run that
 * fails on it comes back as the next run's instruction, which the model reads, and that run keeps
 * the PR a draft. (What the service does with verdicts: integration/github-checks.test.ts.)
 */
let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }), { checkRepairRounds: 2 });
});
afterAll(() => h.close());

const PAGE = "---\ntitle: Release notes\n---\n\nWhat changed in 1.x, as the formats page says.\n";
const LOG = [
  "\uFEFF2026-11-27T21:00:00.0000000Z ##[group]Run npx mint broken-links",
  "2026-11-27T21:00:00.0000000Z ##[endgroup]",
  "2026-11-27T21:00:04.0000000Z release-notes.mdx",
  "2026-11-27T21:00:04.0000000Z  ⎿  /guides/formats",
  "2026-11-27T21:00:04.0000000Z found 1 broken link in 1 file",
  "2026-11-27T21:00:05.0000000Z ##[error]Process completed with exit code 1.",
  "2026-11-27T21:00:05.0000000Z Post job cleanup.",
].join("\n");

describe("a project that watches its repository's checks", () => {
  let jobId: string;
  let head: string;

  it("the PR opens as a draft waiting for the checks, and the report names the commit pushed", async () => {
    h.model.setScript(
      steps(
        { tools: [{ name: "write_file", args: { path: "release-notes.mdx", content: PAGE, reason: "The page asked for." } }] },
        { tools: [{ name: "edit_file", args: { path: "docs.json", find: '"pages": ["guides/webhooks"]', replace: '"pages": ["guides/webhooks", "release-notes"]', reason: "Lists it." } }] },
        { text: "Add release notes\n\nA page for the 1.x line." },
      ),
    );
    const dispatched = await h.createJob("Add release notes for 1.x");
    jobId = dispatched.jobId;
    expect((await h.run(dispatched)).status).toBe("completed");
    head = git(h.remote, "rev-parse", `inkwell/${jobId}`);
    const pr = h.github.pulls.find((candidate) => candidate.head === `inkwell/${jobId}`);
    expect(pr).toMatchObject({ draft: true });
    expect(pr?.body).toContain("stays a draft until the repository's own checks pass on its latest commit");
    expect((await h.reports(jobId))[0]?.pushed).toEqual({ sha: head, draft: false });
    expect((await h.job(jobId)).checks).toEqual({ state: "pending", sha: head, failing: [], rounds: 0 });
  });

  it("a check run that failed on it is the next run's instruction: the model reads the log's excerpt, and the PR stays a draft", async () => {
    const page = `https://github.com/${h.repository}/actions/runs/9300/job/9301`;
    nock(GITHUB_API)
      .get(`/repos/${h.repository}/commits/${head}/check-runs`)
      .query(true)
      .reply(200, {
        total_count: 2,
        check_runs: [
          { id: 9301, name: "links", head_sha: head, status: "completed", conclusion: "failure", html_url: page, details_url: page, app: { slug: "github-actions" }, output: { title: null, summary: null, text: null } },
          { id: 9302, name: "Inkwell docs validation", head_sha: head, status: "completed", conclusion: "success", html_url: "x", details_url: "x", app: { slug: APP_SLUG }, output: { title: "Passed", summary: "", text: null } },
        ],
      });
    nock(GITHUB_API).get(`/repos/${h.repository}/commits/${head}/status`).query(true).reply(200, { state: "pending", sha: head, total_count: 0, statuses: [] });
    nock(GITHUB_API).get(`/repos/${h.repository}/actions/jobs/9301/logs`).reply(302, "", { Location: "https://results.actions.test/logs/9301" });
    nock("https://results.actions.test").get("/logs/9301").reply(200, LOG, { "Content-Type": "text/plain" });
    await deliver(h.server.url, "check_run", checkRunCompleted(h.repository, { id: 9301, name: "links", headSha: head, conclusion: "failure", workflowRunId: 9300 }, h.installationId));
    expect(await h.job(jobId)).toMatchObject({ status: "active", checks: { state: "failing", rounds: 1, failing: [{ name: "links", url: page }] } });

    h.model.setScript(
      steps(
        { tools: [{ name: "edit_file", args: { path: "release-notes.mdx", find: ", as the formats page says", replace: "", reason: "What the checks found is gone." } }] },
        { text: "Drop the broken link\n\nThe release notes no longer link to a missing page." },
      ),
    );
    expect((await h.run({ jobId, runAttempt: 2 })).status).toBe("completed");
    const instruction = lastUserText(h.model.requests[0]!);
    expect(instruction).toContain(`The docs repository's own checks failed on the commit this job pushed (${head.slice(0, 7)}): links (${page}).`);
    expect(instruction).toContain("release-notes.mdx\n ⎿  /guides/formats\nfound 1 broken link in 1 file\nError: Process completed with exit code 1.");
    expect(instruction).not.toContain("Post job cleanup");
    const pr = h.github.pulls.find((candidate) => candidate.head === `inkwell/${jobId}`);
    expect(pr).toMatchObject({ draft: true, draftChanges: [] });
    const next = git(h.remote, "rev-parse", `inkwell/${jobId}`);
    expect((await h.reports(jobId))[1]?.pushed).toEqual({ sha: next, draft: false });
    expect((await h.job(jobId)).checks).toMatchObject({ state: "pending", sha: next, rounds: 1 });
  });
});
