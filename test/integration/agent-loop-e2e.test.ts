import nock from "nock";
import { pino } from "pino";
import { ProbotOctokit } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installationCreated, issueComment } from "../fixtures/webhooks.js";
import { drainTasks } from "../helpers/drain.js";
import { appEnv, deliver, fakeGitHubApp, GITHUB_API, isolateGitHub, nockAppAuth, startOidcIssuer } from "../helpers/github.js";
import { createBareRemote, log, runScriptedRunner, show } from "../helpers/scripted-runner.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

const PUBLIC_URL = "https://inkwell.e2e.test";
const REPO = "acme/e2e-docs";
const REPO_ID = 3001;

let t: TestServer;
let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;

beforeAll(async () => {
  isolateGitHub();
  issuer = await startOidcIssuer();
  t = await startTestServer({ env: appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url }), github: fakeGitHubApp(), taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50 } });
  nockAppAuth(77);
});
afterAll(async () => {
  await t.close();
  await issuer.close();
  nock.cleanAll();
});

/** GitHub's side of a dispatch: records the client payload the workflow would receive. */
function nextDispatch(): Promise<{ job_id: string; run_attempt: number }> {
  nock(GITHUB_API).get(`/repos/${REPO}`).reply(200, { id: REPO_ID, full_name: REPO, default_branch: "main", archived: false });
  return new Promise((resolve) => {
    nock(GITHUB_API)
      .post(`/repos/${REPO}/dispatches`, (body: { client_payload: { job_id: string; run_attempt: number } }) => {
        resolve(body.client_payload);
        return true;
      })
      .reply(204);
  });
}

describe("the whole loop, in-process", () => {
  it("API → dispatch → runner pushes and opens a PR → completed → PR comment → same branch and PR → completed", async () => {
    const remote = createBareRemote();
    nock(GITHUB_API).get(`/repos/${REPO}`).reply(200, { id: REPO_ID, full_name: REPO, default_branch: "main", archived: false });
    await deliver(t.url, "installation", installationCreated(77, [{ full_name: REPO, id: REPO_ID }]));
    await drainTasks(t);
    const { body: projects } = await t.call("GET", "/admin/projects", { token: ADMIN_TOKEN });
    const project = projects.projects.find((p: { repository: string }) => p.repository.endsWith(REPO));
    const { body: key } = await t.call("POST", `/admin/projects/${project.id}/keys`, { token: ADMIN_TOKEN });

    // 1. A writer asks for a page.
    const firstDispatch = nextDispatch();
    const created = await t.call("POST", `/v2/agent/${project.id}/job`, { token: key.key, body: { prompt: "Add a page about webhooks" } });
    expect(created.status).toBe(201);
    const payload = await firstDispatch;
    await drainTasks(t);
    expect(payload).toEqual({ job_id: created.body.id, run_attempt: 1 });

    // 2. The workflow runs: claim, push, open the PR (as the App, with the scoped token), report.
    let prRequest: { head: string; base: string } | undefined;
    nock(GITHUB_API, { reqheaders: { authorization: "token ghs_inst_77" } })
      .post(`/repos/${REPO}/pulls`, (body: { head: string; base: string }) => {
        prRequest = body;
        return true;
      })
      .reply(201, { number: 12, html_url: `https://github.com/${REPO}/pull/12` });
    nock(GITHUB_API).post(`/repos/${REPO}/issues/12/comments`).reply(201, { id: 9900 });
    const oidcToken = await issuer.token({ repository: REPO, repository_id: String(REPO_ID) }, { audience: PUBLIC_URL });
    const openPullRequest = async (token: string, head: string, base: string) => {
      const octokit = new ProbotOctokit({ auth: { token }, log: pino({ level: "silent" }) as never });
      const { data } = await octokit.request("POST /repos/{owner}/{repo}/pulls", { owner: "acme", repo: "e2e-docs", title: "Docs: webhooks", head, base });
      return { number: data.number, url: data.html_url };
    };
    const first = await runScriptedRunner({ serverUrl: t.url, oidcToken, remote, jobId: payload.job_id, runAttempt: payload.run_attempt, workflowRunId: 111, openPullRequest });
    expect(first).toMatchObject({ status: "completed", prLink: `https://github.com/${REPO}/pull/12` });
    expect(prRequest).toEqual({ title: "Docs: webhooks", head: `inkwell/${created.body.id}`, base: "main" });
    await drainTasks(t);

    const polled = await t.call("GET", `/v2/agent/${project.id}/job/${created.body.id}`, { token: key.key });
    expect(polled.body).toMatchObject({ status: "completed", prLink: `https://github.com/${REPO}/pull/12` });
    expect(show(remote, `inkwell/${created.body.id}`, "docs/note-1.md")).toContain("Add a page about webhooks");

    // 3. A reviewer with write access asks for more on the PR.
    nock(GITHUB_API).get(`/repos/${REPO}/collaborators/carol/permission`).reply(200, { permission: "write", role_name: "write" });
    nock(GITHUB_API).post(`/repos/${REPO}/issues/comments/4242/reactions`).reply(201, {});
    nock(GITHUB_API).patch(`/repos/${REPO}/issues/comments/9900`).times(5).reply(200, { id: 9900 });
    const secondDispatch = nextDispatch();
    await deliver(t.url, "issue_comment", issueComment(REPO, 12, { id: 4242, body: "@inkwell-docs also document the retry policy", login: "carol" }, 77));
    const again = await secondDispatch;
    await drainTasks(t);
    expect(again).toEqual({ job_id: created.body.id, run_attempt: 2 });
    expect((await t.call("GET", `/v2/agent/${project.id}/job/${created.body.id}`, { token: key.key })).body.status).toBe("active");

    // 4. The second run continues the same branch and PR (no new PR is opened).
    const second = await runScriptedRunner({
      serverUrl: t.url,
      oidcToken,
      remote,
      jobId: again.job_id,
      runAttempt: again.run_attempt,
      workflowRunId: 222,
      openPullRequest: () => Promise.reject(new Error("a follow-up must not open another PR")),
    });
    expect(second).toMatchObject({ status: "completed", prLink: `https://github.com/${REPO}/pull/12` });
    await drainTasks(t);
    const branch = `inkwell/${created.body.id}`;
    expect(log(remote, branch)).toEqual(["Inkwell: also document the retry policy", "Inkwell: Add a page about webhooks", "Initial docs"]);
    expect(show(remote, branch, "docs/note-2.md")).toContain("also document the retry policy");
    const history = (await t.call("GET", `/v2/agent/${project.id}/job/${created.body.id}/events`, { token: key.key })).body.events.map((e: { type: string }) => e.type);
    expect(history).toEqual(["created", "dispatched", "claimed", "run_succeeded", "reactivated", "dispatched", "claimed", "run_succeeded"]);
  });
});
