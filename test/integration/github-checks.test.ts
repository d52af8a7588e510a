import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInstructions } from "../../src/action/agent/prompt.js";
import { checkRunCompleted, checkSuiteCompleted, commitStatus, installationCreated } from "../fixtures/webhooks.js";
import { drainTasks } from "../helpers/drain.js";
import { APP_SLUG, appEnv, deliver, fakeGitHubApp, GITHUB_API, isolateGitHub, nockAppAuth, startOidcIssuer } from "../helpers/github.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

/**
 * The docs repository's own checks as the last word, on GitHub, through the service's real edges:
 * the runner protocol over HTTP, signed webhooks, and GitHub faked with nock at its REST edge (check
 * runs, statuses, a GitHub Actions job's log behind its redirect, GraphQL). A failing check run sends
 * its log's excerpt to the next run, once per commit, up to the project's limit; a stale commit's
 * failure starts nothing; a pass (or no check at all, once the grace period is over) marks the PR ready.
 */
const PUBLIC_URL = "https://inkwell.test";
const REPO = "acme/checked-docs";
const REPO_ID = 3001;
const INSTALLATION = 52;
const LOGS_HOST = "https://pipelines.actions.githubusercontent.test";

let t: TestServer;
let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let projectId: string;
let key: string;
/** The server's clock runs this far ahead of the machine's (the grace period after a push). */
let ahead = 0;

beforeAll(async () => {
  isolateGitHub();
  issuer = await startOidcIssuer();
  t = await startTestServer({
    env: appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url }),
    github: fakeGitHubApp(),
    clock: () => Date.now() + ahead,
    taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50, maxTries: 3 },
  });
  nockAppAuth(INSTALLATION);
  nock(GITHUB_API).persist().get(`/repos/${REPO}`).reply(200, { id: REPO_ID, full_name: REPO, default_branch: "main", archived: false });
  nock(GITHUB_API).persist().post(`/repos/${REPO}/dispatches`).reply(204);
  // The tracking comment, written and edited as the job moves.
  nock(GITHUB_API).persist().post(/\/repos\/acme\/checked-docs\/issues\/\d+\/comments$/).reply(201, { id: 801 });
  nock(GITHUB_API).persist().patch(/\/repos\/acme\/checked-docs\/issues\/comments\/\d+$/).reply(200, { id: 801 });
  await deliver(t.url, "installation", installationCreated(INSTALLATION, [{ full_name: REPO, id: REPO_ID }]));
  await drainTasks(t);
  projectId = (await t.call("GET", "/admin/projects", { token: ADMIN_TOKEN })).body.projects.find((p: { repository: string }) => p.repository.endsWith(REPO)).id;
  key = (await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN })).body.key;
});
afterAll(async () => {
  await t.close();
  await issuer.close();
  nock.cleanAll();
});

const runnerToken = () => issuer.token({ repository: REPO, repository_id: String(REPO_ID) }, { audience: PUBLIC_URL });
async function runner(path: string, body: unknown) {
  const res = await fetch(`${t.url}/v1/runner/${path}`, { method: "POST", headers: { Authorization: `Bearer ${await runnerToken()}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}
const job = async (id: string) => (await t.call("GET", `/v2/agent/${projectId}/job/${id}`, { token: key })).body;
const events = async (id: string) => (await t.call("GET", `/v2/agent/${projectId}/job/${id}/events`, { token: key })).body.events as { type: string; cause: string; detail: string | null }[];
const sha = (n: number) => `${n}`.repeat(40).slice(0, 40).replace(/[^0-9]/g, "0");

/** A run of the job: claimed by workflow run 7000 + attempt, then reporting PR #pr and the commit it pushed (or nothing). */
async function run(jobId: string, attempt: number, pr: number, head: string | null) {
  const claimed = await runner("claim", { jobId, runAttempt: attempt, workflowRunId: 7000 + attempt, workflowRunUrl: `https://github.com/${REPO}/actions/runs/${7000 + attempt}` });
  expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
  const report = { jobId, runAttempt: attempt, outcome: "completed", pr: { number: pr, url: `https://github.com/${REPO}/pull/${pr}` }, summary: "Docs", ...(head ? { pushed: { sha: head, draft: false } } : {}) };
  expect((await runner("report", report)).status).toBe(200);
  await drainTasks(t);
  return claimed.body.job;
}

async function newJob(prompt: string) {
  const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt } });
  await drainTasks(t);
  return created.body.id as string;
}

/** A GitHub Actions job that failed on a broken link: its log as GitHub keeps it (timestamps, groups, the post steps after the error). */
const FAILED_BUILD_LOG = [
  "\uFEFF2026-11-27T21:00:00.0000000Z ##[group]Run npm run build",
  "2026-11-27T21:00:00.0000000Z \u001b[36;1mnpm run build\u001b[0m",
  "2026-11-27T21:00:00.0000000Z ##[endgroup]",
  "2026-11-27T21:00:09.0000000Z [ERROR] Error: Docusaurus found broken links!",
  "2026-11-27T21:00:09.0000000Z - Broken link on source page path = /docs/export:",
  "2026-11-27T21:00:09.0000000Z    -> linking to /docs/formats",
  "2026-11-27T21:00:10.0000000Z ##[error]Process completed with exit code 1.",
  "2026-11-27T21:00:10.0000000Z Post job cleanup.",
].join("\n");

type Run = { id: number; name: string; status?: string; conclusion: string | null; slug: string; workflowRunId?: number };
const checkRunOf = (run: Run, head: string) => {
  const page = run.slug === "github-actions" ? `https://github.com/${REPO}/actions/runs/${run.workflowRunId ?? 9100}/job/${run.id}` : `https://inkwell.test/dashboard/jobs/x`;
  return {
    id: run.id,
    name: run.name,
    head_sha: head,
    status: run.status ?? "completed",
    conclusion: run.conclusion,
    html_url: page,
    details_url: page,
    app: { id: run.slug === "github-actions" ? 15368 : 123, slug: run.slug, name: run.slug },
    output: { title: null, summary: null, text: null, annotations_count: 0 },
  };
};

/** GitHub's answers for the checks on a commit: its check runs and its combined status. */
function nockChecks(head: string, runs: Run[], statuses: { context: string; state: string; description?: string; target_url?: string }[] = []) {
  const runsScope = nock(GITHUB_API)
    .get(`/repos/${REPO}/commits/${head}/check-runs`)
    .query(true)
    .reply(200, { total_count: runs.length, check_runs: runs.map((run) => checkRunOf(run, head)) });
  const statusScope = nock(GITHUB_API)
    .get(`/repos/${REPO}/commits/${head}/status`)
    .query(true)
    .reply(200, { state: statuses.some((s) => s.state !== "success") ? "failure" : "success", sha: head, total_count: statuses.length, statuses });
  return { isDone: () => runsScope.isDone() && statusScope.isDone() };
}

/** A job's log: GitHub answers 302 to a short-lived address that serves it. */
function nockJobLog(jobId: number, log: string) {
  nock(GITHUB_API).get(`/repos/${REPO}/actions/jobs/${jobId}/logs`).reply(302, "", { Location: `${LOGS_HOST}/logs/${jobId}?sig=abc` });
  return nock(LOGS_HOST).get(`/logs/${jobId}`).query(true).reply(200, log, { "Content-Type": "text/plain" });
}

/** The PR is a draft: it is read, then GraphQL marks it ready; returns the mutations sent. */
function nockMarkReady(pr: number) {
  const mutations: { query: string; variables: Record<string, unknown> }[] = [];
  nock(GITHUB_API).get(`/repos/${REPO}/pulls/${pr}`).reply(200, { number: pr, state: "open", draft: true, merged: false, node_id: `PR_node_${pr}` });
  nock(GITHUB_API)
    .post("/graphql", (body: { query: string; variables: Record<string, unknown> }) => {
      mutations.push(body);
      return true;
    })
    .reply(200, { data: { markPullRequestReadyForReview: { pullRequest: { isDraft: false } } } });
  return mutations;
}

const docsBuild = (id: number, conclusion: string | null = "failure", status = "completed"): Run => ({ id, name: "docs build", conclusion, status, slug: "github-actions" });
/** Inkwell's own: the validation check run its Action publishes, and a job of the workflow run that ran the agent (7001). */
const inkwellsOwn: Run[] = [
  { id: 6001, name: "Inkwell docs validation", conclusion: "success", slug: APP_SLUG },
  { id: 6002, name: "agent", conclusion: "failure", slug: "github-actions", workflowRunId: 7001 },
];

describe("a failing check sends its log to the next run, once per commit, up to the project's limit", () => {
  let jobId: string;

  it("the claim asks for a draft; the report's pushed commit is the head the job watches", async () => {
    jobId = await newJob("Document the export command");
    const context = await run(jobId, 1, 12, sha(1));
    expect(context.draftUntilChecksPass).toBe(true);
    expect((await job(jobId)).checks).toEqual({ state: "pending", sha: sha(1), failing: [], rounds: 0 });
  });

  it("a check run that failed on the head: its log's excerpt (the failing step, cleaned) is the next run's instruction", async () => {
    const checks = nockChecks(sha(1), [docsBuild(7101), ...inkwellsOwn], [{ context: "netlify/deploy-preview", state: "success" }]);
    const log = nockJobLog(7101, FAILED_BUILD_LOG);
    expect((await deliver(t.url, "check_run", checkRunCompleted(REPO, { id: 7101, name: "docs build", headSha: sha(1), conclusion: "failure", headBranch: `inkwell/${jobId}`, prNumber: 12 }, INSTALLATION))).status).toBe(200);
    await drainTasks(t);
    expect(checks.isDone() && log.isDone()).toBe(true);
    const current = await job(jobId);
    expect(current).toMatchObject({ status: "active", checks: { state: "failing", sha: sha(1), rounds: 1, failing: [{ name: "docs build", url: `https://github.com/${REPO}/actions/runs/9100/job/7101` }] } });
    expect((await events(jobId)).slice(-3).map((e) => [e.type, e.cause, e.detail])).toEqual([
      ["checks_failed", "github", `docs build failed on ${sha(1).slice(0, 7)}: repair round 1 of 2`],
      ["reactivated", "checks", null],
      ["dispatched", "dispatcher", "run attempt 2"],
    ]);

    const next = await runner("claim", { jobId, runAttempt: 2, workflowRunId: 7002 });
    const repair = next.body.job.messages.at(-1);
    expect(repair).toMatchObject({ source: "checks", author: null });
    expect(next.body.job.newMessagesFrom).toBe(repair.seq);
    const instruction = buildInstructions(next.body.job.messages, next.body.job.newMessagesFrom, ["docs/export.md"]);
    expect(instruction).toContain("The docs repository's own checks failed on the commit this job pushed");
    expect(instruction).toContain("[ERROR] Error: Docusaurus found broken links!\n- Broken link on source page path = /docs/export:\n   -> linking to /docs/formats\nError: Process completed with exit code 1.");
    for (const gone of ["2026-11-27T", "##[", "\u001b", "Post job cleanup", "Inkwell docs validation", "agent"]) expect(repair.prompt).not.toContain(gone);
  });

  it("a failure on the commit the job pushed before (a stale head) starts nothing, and asks GitHub nothing", async () => {
    expect((await runner("report", { jobId, runAttempt: 2, outcome: "completed", pr: { number: 12, url: `https://github.com/${REPO}/pull/12` }, pushed: { sha: sha(2), draft: false } })).status).toBe(200);
    await drainTasks(t);
    const before = await events(jobId);
    expect((await deliver(t.url, "check_run", checkRunCompleted(REPO, { id: 7102, name: "docs build", headSha: sha(1), conclusion: "failure" }, INSTALLATION))).status).toBe(200);
    expect((await deliver(t.url, "status", commitStatus(REPO, { sha: sha(1), context: "ci/vale", state: "failure" }, INSTALLATION))).status).toBe(200);
    await drainTasks(t);
    expect(await events(jobId)).toEqual(before);
    expect(await job(jobId)).toMatchObject({ status: "completed", checks: { state: "pending", sha: sha(2), rounds: 1 } });
  });

  it("the limit holds: the second round runs, the third failure starts none and the job names the failing check", async () => {
    nockChecks(sha(2), [docsBuild(7201)]);
    nockJobLog(7201, FAILED_BUILD_LOG);
    await deliver(t.url, "check_run", checkRunCompleted(REPO, { id: 7201, name: "docs build", headSha: sha(2), conclusion: "failure" }, INSTALLATION));
    await drainTasks(t);
    expect(await job(jobId)).toMatchObject({ status: "active", checks: { rounds: 2 } });
    await run(jobId, 3, 12, sha(3));

    // No log is read for a round that will not run.
    const checks = nockChecks(sha(3), [docsBuild(7301)], [{ context: "ci/vale", state: "success" }]);
    await deliver(t.url, "check_suite", checkSuiteCompleted(REPO, { id: 88, headSha: sha(3), conclusion: "failure" }, INSTALLATION));
    await drainTasks(t);
    expect(checks.isDone()).toBe(true);
    expect(await job(jobId)).toMatchObject({ status: "completed", checks: { state: "failing", sha: sha(3), rounds: 2, failing: [{ name: "docs build" }] } });
    expect((await events(jobId)).at(-1)).toMatchObject({ type: "checks_failed", detail: `docs build failed on ${sha(3).slice(0, 7)}: no repair round left (2 of 2 used)` });
    const messages = await t.store.db.query<{ source: string }>(`SELECT source FROM job_messages WHERE job_id = $1 ORDER BY seq`, [jobId]);
    expect(messages.map((m) => m.source)).toEqual(["api", "checks", "checks"]);
  });
});

describe("passing checks make the pull request ready for review", () => {
  it("every check run and status passed on the head (Inkwell's own aside): GraphQL marks the PR ready", async () => {
    const jobId = await newJob("Explain rate limits");
    await run(jobId, 1, 21, sha(4));
    // Still running: nothing yet.
    nockChecks(sha(4), [docsBuild(7401, null, "in_progress"), ...inkwellsOwn]);
    await deliver(t.url, "status", commitStatus(REPO, { sha: sha(4), context: "ci/vale", state: "success" }, INSTALLATION));
    await drainTasks(t);
    expect((await job(jobId)).checks).toMatchObject({ state: "pending" });

    nockChecks(sha(4), [docsBuild(7401, "success"), ...inkwellsOwn], [{ context: "ci/vale", state: "success", target_url: "https://ci.example/vale/1" }]);
    const mutations = nockMarkReady(21);
    await deliver(t.url, "check_run", checkRunCompleted(REPO, { id: 7401, name: "docs build", headSha: sha(4), conclusion: "success" }, INSTALLATION));
    await drainTasks(t);
    expect(mutations).toEqual([{ query: expect.stringContaining("markPullRequestReadyForReview"), variables: { id: "PR_node_21" } }]);
    expect(await job(jobId)).toMatchObject({ status: "completed", checks: { state: "passing", sha: sha(4), failing: [], rounds: 0 } });
    expect((await events(jobId)).slice(-2).map((e) => [e.type, e.detail])).toEqual([
      ["checks_passed", `2 check(s) passed on ${sha(4).slice(0, 7)}`],
      ["marked_ready", "pull request #21 marked ready for review"],
    ]);
  });

  it("a repository with no checks at all: once the grace period after the push is over, the head counts as passed", async () => {
    const jobId = await newJob("Fix a typo");
    await run(jobId, 1, 22, sha(5));
    expect((await job(jobId)).checks).toMatchObject({ state: "pending" });
    // The look queued with the push is due once the grace period is over: by the server's clock, now.
    ahead = 6 * 60_000;
    try {
      nockChecks(sha(5), [inkwellsOwn[0] as Run]);
      const mutations = nockMarkReady(22);
      await t.store.db.query(`UPDATE tasks SET next_try_at = now() WHERE dedupe_key = $1 AND state = 'pending'`, [`checks-settle:${jobId}:${sha(5)}`]);
      t.inkwell.services.tasks.kick();
      await drainTasks(t);
      expect(mutations).toHaveLength(1);
      expect((await events(jobId)).slice(-2).map((e) => e.detail)).toEqual([`no check reported within 5 minute(s) of the push on ${sha(5).slice(0, 7)}`, "pull request #22 marked ready for review"]);
    } finally {
      ahead = 0;
    }
  });
});
