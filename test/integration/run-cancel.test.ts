import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installationCreated, pullRequest } from "../fixtures/webhooks.js";
import { cliFor } from "../helpers/cli.js";
import { drainTasks } from "../helpers/drain.js";
import { eventually } from "../helpers/eventually.js";
import { GITLAB_TOKEN, startFakeGitLab, type FakeGitLab } from "../helpers/fake-gitlab.js";
import { appEnv, deliver, fakeGitHubApp, GITHUB_API, isolateGitHub, nockAppAuth, startOidcIssuer } from "../helpers/github.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { Visitor } from "../helpers/visitor.js";

/**
 * Stop means stopped (issue 58): cancelling a job, or closing its change request under an active
 * run, cancels the forge run Inkwell started, before and after the runner claimed it, on GitHub
 * (nock at GitHub's edge, payloads as GitHub documents them) and GitLab (the fake GitLab's
 * pipeline cancel), and the job's timeline says what became of it.
 */
const PUBLIC_URL = "https://inkwell.test";
const REPO = "acme/docs";
const REPO_ID = 1001;
const INSTALLATION = 42;

let t: TestServer;
let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let gitlab: FakeGitLab;

beforeAll(async () => {
  isolateGitHub();
  issuer = await startOidcIssuer();
  gitlab = await startFakeGitLab();
  t = await startTestServer({
    env: appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url }),
    github: fakeGitHubApp(),
    taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50, maxTries: 3 },
  });
  nockAppAuth(INSTALLATION);
});
afterAll(async () => {
  await t?.close();
  await issuer?.close();
  await gitlab?.close();
  nock.cleanAll();
});

type Event = { type: string; from: string | null; to: string | null; cause: string; detail: string | null };
const eventsOf = async (projectId: string, key: string, jobId: string): Promise<Event[]> =>
  (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}/events`, { token: key })).body.events;

/** A workflow run as GitHub lists it (GET /repos/{owner}/{repo}/actions/runs, docs.github.com/rest/actions/workflow-runs). */
const listedRun = (id: number, displayTitle: string, status = "queued", conclusion: string | null = null) => ({
  id,
  name: "Inkwell",
  node_id: `WFR_${id}`,
  head_branch: "main",
  head_sha: "acb5820ced9479c074f688cc328bf03f341a511d",
  path: ".github/workflows/inkwell.yml",
  display_title: displayTitle,
  run_number: id - 7000,
  event: "repository_dispatch",
  status,
  conclusion,
  workflow_id: 5,
  url: `${GITHUB_API}/repos/${REPO}/actions/runs/${id}`,
  html_url: `https://github.com/${REPO}/actions/runs/${id}`,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  run_attempt: 1,
  run_started_at: new Date().toISOString(),
});

describe("GitHub: a stopped job's workflow run is cancelled", () => {
  let projectId: string;
  let key: string;
  let jobId: string;
  const job = async () => (await t.call("GET", `/v2/agent/${projectId}/job/${jobId}`, { token: key })).body;
  const runnerToken = () => issuer.token({ repository: REPO, repository_id: String(REPO_ID) }, { audience: PUBLIC_URL });
  const claim = async (runAttempt: number, workflowRunId: number) => {
    const res = await t.call("POST", "/v1/runner/claim", { token: await runnerToken(), body: { jobId, runAttempt, workflowRunId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const dispatched = () => {
    nock(GITHUB_API).get(`/repos/${REPO}`).reply(200, { id: REPO_ID, full_name: REPO, default_branch: "main", archived: false });
    return nock(GITHUB_API).post(`/repos/${REPO}/dispatches`).reply(204);
  };
  /** A follow-up starts the next run attempt, dispatched. */
  const nextRun = async () => {
    const scope = dispatched();
    expect((await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/message`, { token: key, body: { prompt: "again" } })).body.status).toBe("active");
    await drainTasks(t);
    expect(scope.isDone()).toBe(true);
  };

  beforeAll(async () => {
    nock(GITHUB_API).get(`/repos/${REPO}`).reply(200, { id: REPO_ID, full_name: REPO, default_branch: "main", archived: false });
    await deliver(t.url, "installation", installationCreated(INSTALLATION, [{ full_name: REPO, id: REPO_ID }]));
    await drainTasks(t);
    const { body } = await t.call("GET", "/admin/projects", { token: ADMIN_TOKEN });
    projectId = body.projects.find((p: { repository: string }) => p.repository === `https://github.com/${REPO}`).id;
    key = (await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN })).body.key;
  });

  it("before the claim: the run the dispatch started is found by its run name and cancelled, and the timeline says which", async () => {
    const scope = dispatched();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Document the export command" } });
    jobId = created.body.id;
    await drainTasks(t);
    expect(scope.isDone()).toBe(true);

    const queries: Record<string, string>[] = [];
    const listed = nock(GITHUB_API)
      .get(`/repos/${REPO}/actions/runs`)
      .query((query) => {
        queries.push(query as Record<string, string>);
        return true;
      })
      .reply(200, { total_count: 3, workflow_runs: [listedRun(7003, "inkwell otherjob #1"), listedRun(7002, `inkwell ${jobId} #1`, "in_progress"), listedRun(7001, "Docs CI")] });
    const cancelled = nock(GITHUB_API).post(`/repos/${REPO}/actions/runs/7002/cancel`).reply(202, {});
    const res = await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/cancel`, { token: key });
    expect(res.body).toMatchObject({ status: "failed", error: expect.stringMatching(/^Cancelled by an API key/) });
    await drainTasks(t);
    expect(listed.isDone() && cancelled.isDone()).toBe(true);
    expect(queries[0]).toMatchObject({ event: "repository_dispatch", created: expect.stringMatching(/^>=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect((await eventsOf(projectId, key, jobId)).at(-1)).toMatchObject({ type: "run_cancelled", from: "failed", to: "failed", cause: "github", detail: "workflow run 7002 cancelled" });
  });

  it("after the claim: the claimed run is cancelled (the CLI's cancel), and `jobs get` shows it in the history", async () => {
    await nextRun();
    await claim(2, 7102);
    const cancelled = nock(GITHUB_API).post(`/repos/${REPO}/actions/runs/7102/cancel`).reply(202, {});
    const cli = cliFor(t);
    const env = { INKWELL_API_KEY: key, INKWELL_PROJECT: projectId };
    expect((await cli(["jobs", "cancel", jobId], env)).stdout).toMatch(/^Cancelled job/);
    await drainTasks(t);
    expect(cancelled.isDone()).toBe(true);
    const got = await cli(["jobs", "get", jobId], env);
    expect(got.stdout).toMatch(/History:\nAT\s+EVENT\s+STATUS\s+CAUSE\s+DETAIL\n/);
    expect(got.stdout).toMatch(/run_cancelled\s+failed\s+github\s+workflow run 7102 cancelled/);
  });

  it("an installation without actions: write: GitHub's 403 is named on the timeline and fails nothing; a run that had ended is no error", async () => {
    await nextRun();
    await claim(3, 7203);
    nock(GITHUB_API)
      .post(`/repos/${REPO}/actions/runs/7203/cancel`)
      .reply(403, { message: "Resource not accessible by integration", documentation_url: "https://docs.github.com/rest/actions/workflow-runs#cancel-a-workflow-run", status: "403" });
    await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/cancel`, { token: key });
    await drainTasks(t);
    const refused = (await eventsOf(projectId, key, jobId)).at(-1);
    expect(refused).toMatchObject({ type: "run_not_cancelled", cause: "github", detail: expect.stringMatching(/^workflow run 7203 not cancelled: GitHub refused \(403\).*Actions: Read and write/) });
    expect(await job()).toMatchObject({ status: "failed", error: expect.stringMatching(/^Cancelled by an API key/) });
    const [task] = await t.store.db.query<{ state: string }>(`SELECT state FROM tasks WHERE dedupe_key = $1`, [`cancel-run:${jobId}:3`]);
    expect(task?.state).toBe("done");

    await nextRun();
    await claim(4, 7304);
    nock(GITHUB_API)
      .post(`/repos/${REPO}/actions/runs/7304/cancel`)
      .reply(409, { message: "Cannot cancel a workflow run that is completed.", documentation_url: "https://docs.github.com/rest/actions/workflow-runs#cancel-a-workflow-run", status: "409" });
    await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/cancel`, { token: key });
    await drainTasks(t);
    expect((await eventsOf(projectId, key, jobId)).at(-1)).toMatchObject({ type: "run_cancelled", detail: "workflow run 7304 had already ended" });
  });

  it("the pull request closed under an active run cancels that run too", async () => {
    await nextRun();
    await claim(5, 7405);
    const cancelled = nock(GITHUB_API).post(`/repos/${REPO}/actions/runs/7405/cancel`).reply(202, {});
    await deliver(t.url, "pull_request", pullRequest("closed", REPO, 9, `inkwell/${jobId}`));
    await drainTasks(t);
    expect(cancelled.isDone()).toBe(true);
    const events = await eventsOf(projectId, key, jobId);
    expect(events.slice(-2)).toMatchObject([
      { type: "pr_closed", from: "active", to: "archived" },
      { type: "run_cancelled", from: "archived", to: "archived", detail: "workflow run 7405 cancelled" },
    ]);
  });

  it("a job cancelled before its dispatch was sent leaves nothing to cancel", async () => {
    await t.inkwell.services.tasks.stop();
    try {
      const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Never mind" } });
      await t.call("POST", `/v2/agent/${projectId}/job/${created.body.id}/cancel`, { token: key });
      const tasks = await t.store.db.query<{ kind: string; state: string }>(`SELECT kind, state FROM tasks WHERE payload LIKE $1 ORDER BY id`, [`%${created.body.id}%`]);
      expect(tasks.filter((task) => task.kind === "dispatch" || task.kind === "cancel_run")).toEqual([{ kind: "dispatch", state: "skipped" }]);
    } finally {
      await t.inkwell.services.tasks.start();
    }
  });
});

describe("GitLab: a stopped job's pipeline is cancelled", () => {
  let projectId: string;
  let key: string;
  const newJob = async (prompt: string) => {
    const before = gitlab.pipelines.length;
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt } });
    const pipeline = await eventually("the pipeline", () => gitlab.pipelines[before]);
    await drainTasks(t);
    return { jobId: created.body.id as string, pipeline };
  };

  beforeAll(async () => {
    const res = await t.call("POST", "/admin/gitlab/projects", { token: ADMIN_TOKEN, body: { gitlabUrl: gitlab.url, project: gitlab.projectPath, token: GITLAB_TOKEN } });
    expect(res.status).toBe(201);
    projectId = res.body.id;
    key = (await t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN })).body.key;
  });

  it("before the claim: the pipeline the dispatch recorded is cancelled with the project's token, and the timeline says so", async () => {
    const { jobId, pipeline } = await newJob("Document the export command");
    expect((await eventsOf(projectId, key, jobId)).map((e) => e.detail)).toContain(`run attempt 1: pipeline ${pipeline.id}`);
    await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/cancel`, { token: key });
    await drainTasks(t);
    expect(gitlab.cancelledPipelines).toEqual([pipeline.id]);
    expect(gitlab.pipelineStatuses.get(pipeline.id)).toBe("canceled");
    expect((await eventsOf(projectId, key, jobId)).at(-1)).toMatchObject({ type: "run_cancelled", from: "failed", to: "failed", cause: "gitlab", detail: `pipeline ${pipeline.id} cancelled` });
  });

  it("after the claim, from the dashboard: the claimed pipeline is cancelled, and the job's page shows it on the timeline", async () => {
    const { jobId, pipeline } = await newJob("Explain the import command");
    const token = await gitlab.idToken({ pipeline_id: String(pipeline.id) }, { audience: PUBLIC_URL });
    expect((await t.call("POST", "/v1/runner/claim", { token, body: { jobId, runAttempt: 1, workflowRunId: pipeline.id } })).status).toBe(200);
    const v = new Visitor(t.url, PUBLIC_URL);
    await v.signInAsOperator();
    const page = `/dashboard/projects/${projectId}/jobs/${jobId}`;
    expect((await v.post(`${page}/cancel`, { csrf: await v.csrf(page) })).status).toBe(303);
    await drainTasks(t);
    expect(gitlab.cancelledPipelines.at(-1)).toBe(pipeline.id);
    const html = (await v.get(page)).text;
    expect(html).toContain(`<span class="event-type">run cancelled</span>`);
    expect(html).toContain(`pipeline ${pipeline.id} cancelled`);
  });

  it("a pipeline that had already ended is no error; a merge request closed under an active run cancels its pipeline", async () => {
    const ended = await newJob("Fix the typo on the home page");
    gitlab.pipelineStatuses.set(ended.pipeline.id, "success");
    await t.call("POST", `/v2/agent/${projectId}/job/${ended.jobId}/cancel`, { token: key });
    await drainTasks(t);
    expect((await eventsOf(projectId, key, ended.jobId)).at(-1)).toMatchObject({ type: "run_cancelled", detail: `pipeline ${ended.pipeline.id} had already ended (success)` });

    const running = await newJob("Rewrite the intro");
    const mr = gitlab.openChange(`inkwell/${running.jobId}`, { "index.mdx": "---\ntitle: Home\n---\n\nHello.\n" }, "Rewrite the intro");
    const hook = new URL(gitlab.hooks[0]!.url).pathname;
    expect((await gitlab.deliver("Merge Request Hook", gitlab.payloads.mergeRequest(mr, "close"), { to: `${t.url}${hook}` })).status).toBe(202);
    await eventually("the pipeline cancelled", () => gitlab.cancelledPipelines.includes(running.pipeline.id));
    await drainTasks(t);
    expect((await eventsOf(projectId, key, running.jobId)).slice(-2)).toMatchObject([
      { type: "pr_closed", to: "archived", detail: "merge request closed" },
      { type: "run_cancelled", cause: "gitlab", detail: `pipeline ${running.pipeline.id} cancelled` },
    ]);
  });
});
