import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failStalledJobs } from "../../src/app/domain/jobs/watchdog.js";
import { workflowCheckTask } from "../../src/app/forges/github/workflow-check.js";
import {
  installationCreated,
  installationDeleted,
  installationRepositories,
  issueComment,
  pullRequest,
  reviewComment,
  reviewCommentItem,
  submittedReview,
  workflowRunCompleted,
} from "../fixtures/webhooks.js";
import { drainTasks } from "../helpers/drain.js";
import { appEnv, deliver, fakeGitHubApp, GITHUB_API, isolateGitHub, nockAppAuth, startOidcIssuer } from "../helpers/github.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

const PUBLIC_URL = "https://inkwell.test";
const REPO = "acme/docs";
const REPO_ID = 1001;
const INSTALLATION = 42;

let t: TestServer;
let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let tokenRequests: Record<string, unknown>[];
let projectId: string;
let key: string;

beforeAll(async () => {
  isolateGitHub();
  issuer = await startOidcIssuer();
  t = await startTestServer({
    env: appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url }),
    github: fakeGitHubApp(),
    taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50, maxTries: 3 },
  });
  tokenRequests = nockAppAuth(INSTALLATION);
  nockAppAuth(43);
});
afterAll(async () => {
  await t.close();
  await issuer.close();
  nock.cleanAll();
});

const runnerToken = (claims: Record<string, unknown> = {}, options: Partial<Parameters<typeof issuer.token>[1]> = {}) =>
  issuer.token({ repository: REPO, repository_id: String(REPO_ID), ...claims }, { audience: PUBLIC_URL, ...options });

async function runner(path: string, token: string, body: unknown) {
  const res = await fetch(`${t.url}/v1/runner/${path}`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/** Expects one repository_dispatch for the job's next run and returns what was sent. */
function expectDispatch(repo = REPO) {
  const sent: unknown[] = [];
  nock(GITHUB_API).get(`/repos/${repo}`).reply(200, { id: REPO_ID, full_name: repo, default_branch: "main", archived: false });
  const scope = nock(GITHUB_API)
    .post(`/repos/${repo}/dispatches`, (body) => {
      sent.push(body);
      return true;
    })
    .reply(204);
  return { sent, scope };
}

const job = (id: string) => t.call("GET", `/v2/agent/${projectId}/job/${id}`, { token: key });
const events = async (id: string) => (await t.call("GET", `/v2/agent/${projectId}/job/${id}/events`, { token: key })).body.events.map((e: { type: string }) => e.type);

describe("installations become projects", () => {
  it("installation.created creates a project per repository with its default branch and installation", async () => {
    nock(GITHUB_API).get(`/repos/${REPO}`).reply(200, { id: REPO_ID, full_name: REPO, default_branch: "main", archived: false });
    nock(GITHUB_API).get("/repos/acme/guides").reply(200, { id: 1002, full_name: "acme/guides", default_branch: "trunk", archived: false });
    const res = await deliver(t.url, "installation", installationCreated(INSTALLATION, [{ full_name: REPO, id: REPO_ID }, { full_name: "acme/guides", id: 1002 }]));
    expect(res.status).toBe(200);
    await drainTasks(t);
    const { body } = await t.call("GET", "/admin/projects", { token: ADMIN_TOKEN });
    const docs = body.projects.find((p: { repository: string }) => p.repository === `https://github.com/${REPO}`);
    const guides = body.projects.find((p: { repository: string }) => p.repository === "https://github.com/acme/guides");
    expect(docs).toMatchObject({ ref: "main", installation: { installed: true, id: INSTALLATION } });
    expect(guides).toMatchObject({ ref: "trunk", installation: { installed: true, id: INSTALLATION } });
    projectId = docs.id;
    key = (await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN })).body.key;
  });

  it("links an operator-made project when the App is added to its repository, and unlinks on removal and uninstall", async () => {
    const made = await t.call("POST", "/admin/projects", { token: ADMIN_TOKEN, body: { repository: "acme/handbook", ref: "stable" } });
    nock(GITHUB_API).get("/repos/acme/handbook").reply(200, { id: 1003, full_name: "acme/handbook", default_branch: "main", archived: false });
    await deliver(t.url, "installation_repositories", installationRepositories(43, "added", [{ full_name: "acme/handbook", id: 1003 }]));
    await drainTasks(t);
    let got = await t.call("GET", `/admin/projects/${made.body.id}`, { token: ADMIN_TOKEN });
    expect(got.body).toMatchObject({ ref: "stable", installation: { installed: true, id: 43 } });

    await deliver(t.url, "installation_repositories", installationRepositories(43, "removed", [{ full_name: "acme/handbook", id: 1003 }]));
    await drainTasks(t);
    got = await t.call("GET", `/admin/projects/${made.body.id}`, { token: ADMIN_TOKEN });
    expect(got.body.installation).toEqual({ installed: false, id: null, suspended: false });

    nock(GITHUB_API).get("/repos/acme/handbook").reply(200, { id: 1003, full_name: "acme/handbook", default_branch: "main", archived: false });
    await deliver(t.url, "installation", installationCreated(43, [{ full_name: "acme/handbook", id: 1003 }]));
    await drainTasks(t);
    await deliver(t.url, "installation", { ...installationDeleted(43), action: "suspend" });
    await drainTasks(t);
    got = await t.call("GET", `/admin/projects/${made.body.id}`, { token: ADMIN_TOKEN });
    expect(got.body.installation).toEqual({ installed: true, id: 43, suspended: true });
    const handbookKey = (await t.call("POST", `/admin/projects/${made.body.id}/keys`, { token: ADMIN_TOKEN })).body.key;
    const suspendedJob = await t.call("POST", `/v2/agent/${made.body.id}/job`, { token: handbookKey, body: { prompt: "while suspended" } });
    await drainTasks(t);
    expect((await t.call("GET", `/v2/agent/${made.body.id}/job/${suspendedJob.body.id}`, { token: handbookKey })).body.error).toMatch(/suspended/);
    await deliver(t.url, "installation", { ...installationDeleted(43), action: "unsuspend" });
    await drainTasks(t);
    got = await t.call("GET", `/admin/projects/${made.body.id}`, { token: ADMIN_TOKEN });
    expect(got.body.installation.suspended).toBe(false);
    await deliver(t.url, "installation", installationDeleted(43));
    await drainTasks(t);
    got = await t.call("GET", `/admin/projects/${made.body.id}`, { token: ADMIN_TOKEN });
    expect(got.body.installation.installed).toBe(false);
  });
});

describe("a job travels: dispatch, claim, report, comments, close", () => {
  let jobId: string;

  it("creating a job dispatches inkwell-agent with the job id and run attempt", async () => {
    const { sent, scope } = expectDispatch();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Add a page about webhooks" } });
    jobId = created.body.id;
    await drainTasks(t);
    expect(scope.isDone()).toBe(true);
    expect(sent).toEqual([{ event_type: "inkwell-agent", client_payload: { job_id: jobId, run_attempt: 1 } }]);
    expect(await events(jobId)).toEqual(["created", "dispatched"]);
  });

  it("only a valid OIDC token of the job's repository may claim", async () => {
    const claim = { jobId, runAttempt: 1, workflowRunId: 5001, workflowRunUrl: `https://github.com/${REPO}/actions/runs/5001` };
    const cases: [string, Promise<string>, number, RegExp][] = [
      ["expired", runnerToken({}, { expiresIn: Math.floor(Date.now() / 1000) - 300 }), 401, /expired/],
      ["wrong audience", runnerToken({}, { audience: "https://elsewhere.test" }), 401, /audience/],
      ["wrong repository", runnerToken({ repository: "acme/other", repository_id: "999" }), 403, /another repository/],
      ["same name, other repository id", runnerToken({ repository_id: "999" }), 403, /another repository/],
      ["wrong issuer", runnerToken({}, { issuer: "https://token.evil.test" }), 401, /issuer/],
      ["bad signature", runnerToken({}, { wrongKey: true }), 401, /signature/],
      ["not a JWT", Promise.resolve("abc.def.ghi"), 401, /Invalid runner token/],
    ];
    for (const [name, token, status, message] of cases) {
      const res = await runner("claim", await token, claim);
      expect(res.status, name).toBe(status);
      expect(res.body.error, name).toMatch(message);
    }
    expect((await runner("claim", "", claim)).status).toBe(401);
    const scopedTokens = () => tokenRequests.filter((body) => typeof body === "object" && body !== null && "repositories" in body);
    expect(scopedTokens()).toHaveLength(0);

    const ok = await runner("claim", await runnerToken(), claim);
    expect(ok.status).toBe(200);
    expect(ok.body.job).toMatchObject({ id: jobId, runAttempt: 1, repository: REPO, branch: `inkwell/${jobId}`, baseRef: "main", prNumber: null, newMessagesFrom: 1 });
    expect(ok.body.job.messages.map((m: { prompt: string }) => m.prompt)).toEqual(["Add a page about webhooks"]);
    expect(ok.body.token.value).toBe(`ghs_inst_${INSTALLATION}`);
    expect(scopedTokens()).toEqual([{ repositories: ["docs"], permissions: { contents: "write", pull_requests: "write", issues: "write", checks: "write" } }]);
  });

  it("one run per job: another workflow run is refused, the same one may claim again", async () => {
    const other = await runner("claim", await runnerToken(), { jobId, runAttempt: 1, workflowRunId: 5002 });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatch(/already claimed by workflow run 5001/);
    const again = await runner("claim", await runnerToken(), { jobId, runAttempt: 1, workflowRunId: 5001 });
    expect(again.status).toBe(200);
    const stale = await runner("claim", await runnerToken(), { jobId, runAttempt: 2, workflowRunId: 5003 });
    expect(stale.status).toBe(409);
  });

  it("refuses runner values the store cannot hold with a 400 naming the field", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["heartbeat", { jobId, runAttempt: 2 ** 31, progress: "x" }, "runAttempt"],
      ["heartbeat", { jobId, runAttempt: 1, progress: "a\u0000b" }, "progress"],
      ["report", { jobId, runAttempt: 2 ** 31, outcome: "failed", error: "x" }, "runAttempt"],
      ["report", { jobId, runAttempt: 1, outcome: "completed", pr: { number: 2 ** 31, url: `https://github.com/${REPO}/pull/1` } }, "pr.number"],
    ];
    // A report's NUL or lone surrogate is made storable instead (a report must not be lost): not refused here.
    for (const [path, body, field] of cases) {
      const res = await runner(path, await runnerToken(), body);
      expect(res.status, `${path} ${field}`).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field), `${path} ${field}`).toContain(field);
    }
    expect((await job(jobId)).body.status).toBe("active");
  });

  it("heartbeats keep the job alive; the report completes it with the PR link and writes the tracking comment", async () => {
    const beat = await runner("heartbeat", await runnerToken(), { jobId, runAttempt: 1, progress: "Editing docs/webhooks.mdx" });
    expect(beat).toEqual({ status: 200, body: { status: "active", cancel: false } });
    expect((await job(jobId)).body).toMatchObject({ status: "active", progress: "Editing docs/webhooks.mdx", summary: null, files: [], validation: null, usage: null });

    let commentBody = "";
    const created = nock(GITHUB_API)
      .post(`/repos/${REPO}/issues/7/comments`, (body: { body: string }) => {
        commentBody = body.body;
        return true;
      })
      .reply(201, { id: 555 });
    const report = {
      jobId,
      runAttempt: 1,
      outcome: "completed",
      pr: { number: 7, url: `https://github.com/${REPO}/pull/7` },
      summary: "Added docs/webhooks.mdx",
      model: "anthropic/claude-sonnet-4-5-20250929",
      usage: { inputTokens: 12345, outputTokens: 2345 },
      turns: 9,
      durationMs: 95_000,
      filesChanged: ["docs/webhooks.mdx", "docs.json"],
      files: [
        { path: "docs/webhooks.mdx", change: "added" },
        { path: "docs.json", change: "modified" },
      ],
      validation: { passed: true, problems: [] },
    };
    const res = await runner("report", await runnerToken(), report);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: jobId, status: "completed", prLink: `https://github.com/${REPO}/pull/7`, model: "anthropic/claude-sonnet-4-5-20250929" });
    await drainTasks(t);
    expect(created.isDone()).toBe(true);
    expect(commentBody).toMatch(/Inkwell · ✅ Done/);
    expect(commentBody).toMatch(/Add a page about webhooks/);
    expect(commentBody).toMatch(/actions\/runs\/5001/);
    expect(commentBody).toMatch(/12,345 in \/ 2,345 out/);
    expect(commentBody).toMatch(/Duration\*\*: 1m 35s/);

    const outcome = (await job(jobId)).body;
    expect(outcome).toMatchObject({ progress: null, summary: "Added docs/webhooks.mdx", files: report.files, validation: { passed: true, problems: [] } });
    expect(outcome.usage).toMatchObject({ inputTokens: 12345, cachedInputTokens: 0, outputTokens: 2345, turns: 9, durationMs: 95_000 });
    // Claude Sonnet 4.5's list price, $3 / $15 per million tokens in / out (@pydantic/genai-prices).
    expect(outcome.usage.estimatedCostUsd).toBeCloseTo((12345 * 3 + 2345 * 15) / 1e6, 6);
    const runs = (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}/runs`, { token: key })).body.runs;
    expect(runs).toEqual([
      expect.objectContaining({
        attempt: 1,
        workflowRunUrl: `https://github.com/${REPO}/actions/runs/5001`,
        trigger: { source: "api", author: null },
        outcome: "completed",
        summary: "Added docs/webhooks.mdx",
        error: null,
        model: "anthropic/claude-sonnet-4-5-20250929",
        usage: outcome.usage,
        validation: { passed: true, problems: [] },
      }),
    ]);
    expect(Date.parse(runs[0].reportedAt)).toBeGreaterThanOrEqual(Date.parse(runs[0].claimedAt));

    const replay = await runner("report", await runnerToken(), { ...report, outcome: "failed", error: "late" });
    expect(replay.body.status).toBe("completed");
    expect((await events(jobId)).filter((e: string) => e === "run_succeeded")).toHaveLength(1);
    expect((await job(jobId)).body).toMatchObject({ status: "completed", prLink: `https://github.com/${REPO}/pull/7` });
  });

  it("comments that are not from a writer addressing the agent are ignored", async () => {
    const before = (await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM job_messages WHERE job_id = $1`, [jobId]))[0]?.n;
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/reader/permission`).reply(200, { permission: "read", role_name: "read", user: { login: "reader" } });
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/triager/permission`).reply(200, { permission: "read", role_name: "triage", user: { login: "triager" } });
    const ignored = [
      issueComment(REPO, 7, { id: 9101, body: "@inkwell-docs add more", login: "reader" }),
      issueComment(REPO, 7, { id: 9102, body: "@inkwell-docs add more", login: "triager" }),
      issueComment(REPO, 7, { id: 9103, body: "@inkwell-docs add more", login: "dependabot[bot]", type: "Bot" }),
      issueComment(REPO, 7, { id: 9104, body: "@inkwell-docs add more", login: "inkwell-docs[bot]", type: "Bot", viaApp: true }),
      issueComment(REPO, 7, { id: 9105, body: "Looks good to me, thanks!", login: "alice" }),
      issueComment(REPO, 7, { id: 9106, body: "email me at someone@inkwell-docs.com", login: "alice" }),
      issueComment(REPO, 8, { id: 9107, body: "@inkwell-docs not a job PR", login: "alice" }),
    ];
    for (const payload of ignored) expect((await deliver(t.url, "issue_comment", payload)).status).toBe(200);
    await drainTasks(t);
    const after = (await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM job_messages WHERE job_id = $1`, [jobId]))[0]?.n;
    expect(after).toBe(before);
    expect((await job(jobId)).body.status).toBe("completed");
    const failedTasks = await t.store.db.query(`SELECT last_error FROM tasks WHERE state = 'failed' AND kind = 'github_event'`);
    expect(failedTasks).toEqual([]);
  });

  it("a delivery whose processing fails is answered at once, retried, then kept with its error", async () => {
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/dave/permission`).times(3).reply(403, { message: "Resource not accessible by integration" });
    const res = await deliver(t.url, "issue_comment", issueComment(REPO, 7, { id: 9301, body: "@inkwell-docs do it", login: "dave" }));
    expect(res.status).toBe(200);
    await drainTasks(t);
    const [task] = await t.store.db.query<{ state: string; tries: number; last_error: string }>(`SELECT state, tries, last_error FROM tasks WHERE dedupe_key = $1`, [`event:${res.deliveryId}`]);
    expect(task).toMatchObject({ state: "failed", tries: 3, last_error: expect.stringMatching(/Resource not accessible by integration/) });
  });

  it("a writer's comment becomes a message: 👀, re-dispatch on the same branch, tracking comment edited in place", async () => {
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/alice/permission`).reply(200, { permission: "write", role_name: "write", user: { login: "alice" } });
    const reaction = nock(GITHUB_API).post(`/repos/${REPO}/issues/comments/9001/reactions`, { content: "eyes" }).reply(201, { id: 1, content: "eyes" });
    const { sent } = expectDispatch();
    const edits: string[] = [];
    nock(GITHUB_API)
      .patch(`/repos/${REPO}/issues/comments/555`, (body: { body: string }) => {
        edits.push(body.body);
        return true;
      })
      .times(3)
      .reply(200, { id: 555 });
    const delivery = issueComment(REPO, 7, { id: 9001, body: "@inkwell-docs please also add an example payload", login: "alice" });
    expect((await deliver(t.url, "issue_comment", delivery)).status).toBe(200);
    await drainTasks(t);
    expect(reaction.isDone()).toBe(true);
    expect(sent).toEqual([{ event_type: "inkwell-agent", client_payload: { job_id: jobId, run_attempt: 2 } }]);
    const now = (await job(jobId)).body;
    expect(now).toMatchObject({ status: "active", prLink: `https://github.com/${REPO}/pull/7`, source: { ref: `inkwell/${jobId}` } });
    const messages = await t.store.db.query<{ prompt: string; source: string; author: string }>(`SELECT prompt, source, author FROM job_messages WHERE job_id = $1 ORDER BY seq`, [jobId]);
    expect(messages.at(-1)).toEqual({ prompt: "please also add an example payload", source: "comment", author: "alice" });
    expect(edits.at(-1)).toMatch(/⏳ Working/);
    expect(edits.at(-1)).toMatch(/@alice/);

    // GitHub redelivers: nothing happens twice.
    await deliver(t.url, "issue_comment", delivery);
    await drainTasks(t);
    const again = await t.store.db.query(`SELECT 1 FROM job_messages WHERE job_id = $1`, [jobId]);
    expect(again).toHaveLength(messages.length);
  });

  it("the second run sees every message, continues the same PR and reports", async () => {
    const claim = await runner("claim", await runnerToken(), { jobId, runAttempt: 2, workflowRunId: 6001, workflowRunUrl: `https://github.com/${REPO}/actions/runs/6001` });
    expect(claim.status).toBe(200);
    expect(claim.body.job).toMatchObject({ runAttempt: 2, prNumber: 7, newMessagesFrom: 2 });
    expect(claim.body.job.messages.map((m: { prompt: string }) => m.prompt)).toEqual(["Add a page about webhooks", "please also add an example payload"]);
    nock(GITHUB_API).patch(`/repos/${REPO}/issues/comments/555`).times(3).reply(200, { id: 555 });
    const res = await runner("report", await runnerToken(), {
      jobId,
      runAttempt: 2,
      outcome: "completed",
      pr: { number: 7, url: `https://github.com/${REPO}/pull/7` },
      summary: "Added an example payload",
      usage: { inputTokens: 1000, cachedInputTokens: 800, outputTokens: 100 },
      turns: 2,
      durationMs: 5_000,
      validation: { passed: false, problems: ["docs/webhooks.mdx:12: links to '/missing', which does not exist", "docs.json: the navigation names a missing page"] },
    });
    expect(res.body).toMatchObject({ status: "completed", prLink: `https://github.com/${REPO}/pull/7` });
    // Usage adds up over runs; files stay the branch's last known; problems arrive structured.
    expect(res.body).toMatchObject({
      summary: "Added an example payload",
      files: [{ path: "docs/webhooks.mdx", change: "added" }, { path: "docs.json", change: "modified" }],
      validation: {
        passed: false,
        problems: [
          { file: "docs/webhooks.mdx", line: 12, message: "links to '/missing', which does not exist" },
          { file: "docs.json", message: "the navigation names a missing page" },
        ],
      },
      usage: { inputTokens: 13345, cachedInputTokens: 800, outputTokens: 2445, turns: 11, durationMs: 100_000 },
    });
    const runs = (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}/runs`, { token: key })).body.runs;
    expect(runs.map((r: { attempt: number; trigger: unknown }) => [r.attempt, r.trigger])).toEqual([
      [1, { source: "api", author: null }],
      [2, { source: "comment", author: "alice" }],
    ]);
    await drainTasks(t);
  });

  it("a review comment on the PR works the same way", async () => {
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/bob/permission`).reply(200, { permission: "admin", role_name: "admin", user: { login: "bob" } });
    const reaction = nock(GITHUB_API).post(`/repos/${REPO}/pulls/comments/9201/reactions`).reply(201, {});
    expectDispatch();
    nock(GITHUB_API).patch(`/repos/${REPO}/issues/comments/555`).times(3).reply(200, { id: 555 });
    await deliver(t.url, "pull_request_review_comment", reviewComment(REPO, 7, { id: 9201, body: "/inkwell fix the heading level here", login: "bob" }));
    await drainTasks(t);
    expect(reaction.isDone()).toBe(true);
    expect((await job(jobId)).body.status).toBe("active");
    // An inline comment reaches the agent with its file, line and the diff it sits on.
    const last = await t.store.db.query<{ prompt: string }>(`SELECT prompt FROM job_messages WHERE job_id = $1 ORDER BY seq DESC LIMIT 1`, [jobId]);
    expect(last).toEqual([{ prompt: "Review comment on `docs/index.md` line 3:\n```diff\n@@ -1,3 +1,4 @@\n # Docs\n+\n+## Webhooks\n+Inkwell sends events.\n```\nfix the heading level here" }]);
  });

  it("a writer's `stop` comment cancels the active run: the job fails saying who, the runner is told at its next heartbeat, once per comment", async () => {
    expect((await runner("claim", await runnerToken(), { jobId, runAttempt: 3, workflowRunId: 6501 })).status).toBe(200);
    expect((await runner("heartbeat", await runnerToken(), { jobId, runAttempt: 3 })).body).toEqual({ status: "active", cancel: false });
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/carol/permission`).reply(200, { permission: "write", role_name: "write", user: { login: "carol" } });
    const reaction = nock(GITHUB_API).post(`/repos/${REPO}/issues/comments/9301/reactions`, { content: "eyes" }).reply(201, {});
    nock(GITHUB_API).patch(`/repos/${REPO}/issues/comments/555`).times(3).reply(200, { id: 555 });
    // The claimed workflow run is cancelled on GitHub too.
    const runCancelled = nock(GITHUB_API).post(`/repos/${REPO}/actions/runs/6501/cancel`).reply(202, {});
    const stop = issueComment(REPO, 7, { id: 9301, body: "@inkwell-docs stop", login: "carol" });
    await deliver(t.url, "issue_comment", stop);
    await drainTasks(t);
    expect(reaction.isDone() && runCancelled.isDone()).toBe(true);
    const cancelled = (await job(jobId)).body;
    expect(cancelled).toMatchObject({ status: "failed", error: expect.stringMatching(/^Cancelled by @carol/) });
    const last = (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}/events`, { token: key })).body.events.slice(-2);
    expect(last).toMatchObject([
      { type: "cancelled", from: "active", to: "failed", cause: "comment", detail: "by @carol (comment 9301)" },
      { type: "run_cancelled", from: "failed", to: "failed", cause: "github", detail: "workflow run 6501 cancelled" },
    ]);
    expect((await runner("heartbeat", await runnerToken(), { jobId, runAttempt: 3 })).body).toEqual({ status: "failed", cancel: true });
    const stopMessages = await t.store.db.query(`SELECT 1 FROM job_messages WHERE job_id = $1 AND prompt ILIKE '%stop%'`, [jobId]);
    expect(stopMessages).toHaveLength(0);

    // A follow-up starts run 4; the same stop comment delivered again does not cancel it.
    expectDispatch();
    expect((await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/message`, { token: key, body: { prompt: "try again, smaller" } })).body.status).toBe("active");
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/carol/permission`).reply(200, { permission: "write", role_name: "write", user: { login: "carol" } });
    await deliver(t.url, "issue_comment", stop);
    await drainTasks(t);
    expect((await job(jobId)).body.status).toBe("active");
  });

  it("a submitted review's comments become one follow-up, and their own deliveries count as taken with it", async () => {
    const reviewId = 8801;
    const hunk = "@@ -1,2 +1,3 @@\n # Docs\n+## Webhooks";
    const listed = nock(GITHUB_API)
      .get(`/repos/${REPO}/pulls/7/reviews/${reviewId}/comments`)
      .query(true)
      .reply(200, [
        reviewCommentItem(REPO, 7, { id: 9401, reviewId, body: "this heading should be sentence case", path: "docs/index.md", line: 3, diffHunk: hunk }),
        reviewCommentItem(REPO, 7, { id: 9402, reviewId, body: "/inkwell link the API page here", path: "docs/api.md", line: null, diffHunk: "@@ -5 +5 @@\n-old\n+new" }),
      ]);
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/bob/permission`).reply(200, { permission: "write", role_name: "write", user: { login: "bob" } });
    const reactions = [9401, 9402].map((id) => nock(GITHUB_API).post(`/repos/${REPO}/pulls/comments/${id}/reactions`, { content: "eyes" }).reply(201, {}));
    const before = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM job_messages WHERE job_id = $1`, [jobId]);
    // GitHub sends the inline comments and the review as separate deliveries, in no set order.
    await deliver(t.url, "pull_request_review_comment", reviewComment(REPO, 7, { id: 9401, body: "this heading should be sentence case", login: "bob", reviewId }));
    await deliver(t.url, "pull_request_review", submittedReview(REPO, 7, { id: reviewId, body: "@inkwell-docs please address these", login: "bob", state: "changes_requested" }));
    await deliver(t.url, "pull_request_review_comment", reviewComment(REPO, 7, { id: 9402, body: "/inkwell link the API page here", login: "bob", reviewId }));
    await drainTasks(t);
    // The comments' own deliveries come due once their grace period has passed.
    await t.store.db.query(`UPDATE tasks SET next_try_at = now() WHERE state = 'pending' AND kind = 'github_event'`);
    await drainTasks(t);
    expect(listed.isDone()).toBe(true);
    expect(reactions.every((r) => r.isDone())).toBe(true);
    const added = await t.store.db.query<{ prompt: string; author: string }>(`SELECT prompt, author FROM job_messages WHERE job_id = $1 AND seq > $2 ORDER BY seq`, [jobId, before[0]!.n]);
    expect(added).toEqual([
      {
        author: "bob",
        prompt: [
          "Review by @bob:\nplease address these",
          `Review comment on \`docs/index.md\` line 3:\n\`\`\`diff\n${hunk}\n\`\`\`\nthis heading should be sentence case`,
          "Review comment on `docs/api.md` line 4:\n```diff\n@@ -5 +5 @@\n-old\n+new\n```\nlink the API page here",
        ].join("\n\n"),
      },
    ]);
    const commentTasks = await t.store.db.query<{ state: string; last_error: string }>(
      `SELECT state, last_error FROM tasks WHERE kind = 'github_event' AND payload LIKE '%"reviewId":${reviewId}%' AND payload LIKE '%"type":"comment"%' ORDER BY id`,
    );
    expect(commentTasks).toEqual([
      { state: "skipped", last_error: "comment does not address the agent" },
      { state: "skipped", last_error: "comment already taken" },
    ]);
  });

  it("closing the PR archives the job; later messages get 409", async () => {
    nock.cleanAll();
    tokenRequests = nockAppAuth(INSTALLATION);
    const edits: string[] = [];
    const created: unknown[] = [];
    nock(GITHUB_API)
      .persist()
      .patch(`/repos/${REPO}/issues/comments/555`, (body: { body: string }) => {
        edits.push(body.body);
        return true;
      })
      .reply(200, { id: 555 });
    nock(GITHUB_API)
      .persist()
      .post(`/repos/${REPO}/issues/7/comments`, (body) => {
        created.push(body);
        return true;
      })
      .reply(201, { id: 556 });
    // Run 4 was dispatched and not claimed: the run its dispatch started is found by its name and cancelled.
    nock(GITHUB_API)
      .get(`/repos/${REPO}/actions/runs`)
      .query(true)
      .reply(200, { total_count: 1, workflow_runs: [{ ...workflowRunCompleted(REPO, 6601, "success", `inkwell ${jobId} #4`).workflow_run, status: "queued", conclusion: null }] });
    const runCancelled = nock(GITHUB_API).post(`/repos/${REPO}/actions/runs/6601/cancel`).reply(202, {});
    await deliver(t.url, "pull_request", pullRequest("closed", REPO, 7, `inkwell/${jobId}`, { merged: true }));
    await drainTasks(t);
    expect(runCancelled.isDone()).toBe(true);
    const archived = (await job(jobId)).body;
    expect(archived.status).toBe("archived");
    expect(archived.archivedAt).toMatch(/Z$/);
    const msg = await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/message`, { token: key, body: { prompt: "one more" } });
    expect(msg.status).toBe(409);
    expect(edits.at(-1)).toMatch(/### Inkwell · 📦 Archived/);
    expect(created).toEqual([]);
    // A late heartbeat from the cancelled run is told to stop.
    const beat = await runner("heartbeat", await runnerToken(), { jobId, runAttempt: 3, progress: "still going" });
    expect(beat).toEqual({ status: 200, body: { status: "archived", cancel: true } });
  });
});

describe("a PR opened on a job's branch", () => {
  it("sets prLink when the report was lost, and ignores branches that are not a job's", async () => {
    expectDispatch();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Report gets lost" } });
    await drainTasks(t);
    const comment = nock(GITHUB_API).post(`/repos/${REPO}/issues/31/comments`).reply(201, { id: 777 });
    await deliver(t.url, "pull_request", pullRequest("opened", REPO, 31, `inkwell/${created.body.id}`));
    await deliver(t.url, "pull_request", pullRequest("opened", REPO, 32, "feature/unrelated"));
    await deliver(t.url, "pull_request", pullRequest("opened", REPO, 33, "inkwell/nosuchjob"));
    await drainTasks(t);
    expect((await job(created.body.id)).body.prLink).toBe(`https://github.com/${REPO}/pull/31`);
    expect(comment.isDone()).toBe(true);
  });
});

describe("a dispatch that starts nothing", () => {
  it("fails the job saying the workflow is missing, and leaves it alone when the workflow exists", async () => {
    const check = workflowCheckTask(t.store.db, fakeGitHubApp().api);
    expectDispatch();
    const missing = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "No workflow here" } });
    expectDispatch();
    const present = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Workflow exists" } });
    await drainTasks(t);
    const pending = await t.store.db.query<{ dedupe_key: string }>(`SELECT dedupe_key FROM tasks WHERE kind = 'workflow_check' AND state = 'pending' AND dedupe_key LIKE $1`, [`%${missing.body.id}%`]);
    expect(pending).toHaveLength(1);

    const workflows = (paths: string[]) =>
      nock(GITHUB_API)
        .get(`/repos/${REPO}/actions/workflows`)
        .query(true)
        .reply(200, { total_count: paths.length, workflows: paths.map((path, i) => ({ id: i + 1, name: path, path, state: "active" })) });
    const contents = (path: string, text: string) =>
      nock(GITHUB_API).get(`/repos/${REPO}/contents/${encodeURIComponent(path)}`).reply(200, { type: "file", path, encoding: "base64", content: Buffer.from(text).toString("base64") });

    workflows([".github/workflows/ci.yml"]);
    contents(".github/workflows/ci.yml", "on: [push]\njobs: {}\n");
    expect(await check.run({ jobId: missing.body.id, runAttempt: 1 }, 1)).toEqual({ ok: true });
    expect((await job(missing.body.id)).body).toMatchObject({ status: "failed", error: expect.stringMatching(/No workflow in acme\/docs runs on repository_dispatch "inkwell-agent"/) });

    workflows([".github/workflows/ci.yml", ".github/workflows/inkwell.yml"]);
    contents(".github/workflows/ci.yml", "on: [push]\n");
    contents(".github/workflows/inkwell.yml", "on:\n  repository_dispatch:\n    types: [inkwell-agent]\n");
    expect(await check.run({ jobId: present.body.id, runAttempt: 1 }, 1)).toEqual({ skipped: "workflow present: .github/workflows/inkwell.yml" });
    expect((await job(present.body.id)).body.status).toBe("active");

    // Claimed in time: no GitHub call at all.
    await runner("claim", await runnerToken(), { jobId: present.body.id, runAttempt: 1, workflowRunId: 9901 });
    expect(await check.run({ jobId: present.body.id, runAttempt: 1 }, 1)).toMatchObject({ skipped: expect.any(String) });
  });
});

describe("runs that never report", () => {
  it("a failed workflow run fails its claimed job with the conclusion", async () => {
    expectDispatch();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Crash please" } });
    await drainTasks(t);
    await runner("claim", await runnerToken(), { jobId: created.body.id, runAttempt: 1, workflowRunId: 7001 });
    await deliver(t.url, "workflow_run", workflowRunCompleted(REPO, 7001, "cancelled", `inkwell ${created.body.id} #1`));
    await drainTasks(t);
    const got = (await job(created.body.id)).body;
    expect(got.status).toBe("failed");
    expect(got.error).toMatch(/ended "cancelled" without reporting back: https:\/\/github.com\/acme\/docs\/actions\/runs\/7001/);
  });

  it("a run that failed before claiming is matched by its run name", async () => {
    expectDispatch();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Never claimed" } });
    await drainTasks(t);
    await deliver(t.url, "workflow_run", workflowRunCompleted(REPO, 7002, "failure", `inkwell ${created.body.id} #1`));
    await deliver(t.url, "workflow_run", workflowRunCompleted(REPO, 7003, "success", "inkwell somethingelse #1"));
    await drainTasks(t);
    expect((await job(created.body.id)).body).toMatchObject({ status: "failed", error: expect.stringMatching(/"failure"/) });
  });

  it("the watchdog fails an active job with no heartbeat for the job timeout", async () => {
    expectDispatch();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Go quiet" } });
    await drainTasks(t);
    expect(await failStalledJobs(t.store.db, 60)).toEqual([]);
    await t.store.db.query(`UPDATE jobs SET last_activity_at = now() - interval '61 minutes' WHERE id = $1`, [created.body.id]);
    expect(await failStalledJobs(t.store.db, 60)).toEqual([created.body.id]);
    const got = (await job(created.body.id)).body;
    expect(got).toMatchObject({ status: "failed", error: expect.stringMatching(/No heartbeat from the runner for 60 minutes/) });
    expect(await events(created.body.id)).toContain("run_failed");
  });

  it("a late report after the watchdog gave up changes nothing", async () => {
    expectDispatch();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Slow" } });
    await drainTasks(t);
    await runner("claim", await runnerToken(), { jobId: created.body.id, runAttempt: 1, workflowRunId: 8001 });
    await t.store.db.query(`UPDATE jobs SET last_activity_at = now() - interval '2 hours' WHERE id = $1`, [created.body.id]);
    await failStalledJobs(t.store.db, 60);
    const late = await runner("report", await runnerToken(), { jobId: created.body.id, runAttempt: 1, outcome: "completed", pr: null });
    expect(late.status).toBe(200);
    expect(late.body.status).toBe("failed");
  });
});
