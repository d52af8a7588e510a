import { createServer } from "node:http";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunnerClient, InkwellRefused } from "../../src/action/runner-client.js";
import { installationCreated } from "../fixtures/webhooks.js";
import { drainTasks } from "../helpers/drain.js";
import { appEnv, deliver, fakeGitHubApp, GITHUB_API, isolateGitHub, nockAppAuth, startOidcIssuer } from "../helpers/github.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

const REPO = "acme/client-docs";
let t: TestServer;
let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let publicUrl: string;

beforeAll(async () => {
  isolateGitHub();
  issuer = await startOidcIssuer();
  t = await startTestServer({ env: appEnv({ PUBLIC_URL: "http://placeholder.test", INKWELL_OIDC_ISSUER: issuer.url }), github: fakeGitHubApp(), taskWorkerOptions: { backoffBaseMs: 10 } });
  publicUrl = "http://placeholder.test";
  nockAppAuth(88);
});
afterAll(async () => {
  await t.close();
  await issuer.close();
  nock.cleanAll();
});

describe("the Action's runner client against the real service", () => {
  it("claims, heartbeats and reports with fresh OIDC tokens; refusals are final, outages are retried", async () => {
    nock(GITHUB_API).get(`/repos/${REPO}`).times(2).reply(200, { id: 4001, full_name: REPO, default_branch: "main", archived: false });
    await deliver(t.url, "installation", installationCreated(88, [{ full_name: REPO, id: 4001 }]));
    await drainTasks(t);
    const project = (await t.call("GET", "/admin/projects", { token: ADMIN_TOKEN })).body.projects.find((p: { repository: string }) => p.repository.endsWith(REPO));
    const key = (await t.call("POST", `/admin/projects/${project.id}/keys`, { token: ADMIN_TOKEN })).body.key;
    nock(GITHUB_API).post(`/repos/${REPO}/dispatches`).reply(204);
    const job = (await t.call("POST", `/v2/agent/${project.id}/job`, { token: key, body: { prompt: "Hello" } })).body;
    await drainTasks(t);

    const audiences: string[] = [];
    const idToken = async (audience: string) => {
      audiences.push(audience);
      return issuer.token({ repository: REPO, repository_id: "4001" }, { audience });
    };
    // The server's PUBLIC_URL is the audience; the client reaches it over loopback through a relay with that name.
    const relayFetch: typeof fetch = (input, init) => fetch(String(input).replace(publicUrl, t.url), init);
    const client = new RunnerClient({ baseUrl: `${publicUrl}/`, idToken, fetch: relayFetch, backoffMs: 5 });

    const claimed = await client.claim({ jobId: job.id, runAttempt: 1, workflowRunId: 31 });
    expect(claimed.job.messages.map((m) => m.prompt)).toEqual(["Hello"]);
    expect(await client.heartbeat({ jobId: job.id, runAttempt: 1, progress: "thinking" })).toEqual({ status: "active", cancel: false });
    const reported = await client.report({ jobId: job.id, runAttempt: 1, outcome: "completed", pr: null, summary: "nothing to change" });
    expect(reported).toMatchObject({ status: "completed", prLink: null });
    expect(new Set(audiences)).toEqual(new Set([publicUrl]));
    expect(audiences).toHaveLength(3);

    const refusal = client.claim({ jobId: job.id, runAttempt: 1, workflowRunId: 32 });
    await expect(refusal).rejects.toBeInstanceOf(InkwellRefused);
    await expect(refusal).rejects.toThrow(/409.*not waiting/);

    // A flaky edge: two 503s, then the real answer.
    let calls = 0;
    const flaky = new RunnerClient({
      baseUrl: publicUrl,
      idToken,
      backoffMs: 5,
      fetch: async (input, init) => (++calls <= 2 ? new Response(JSON.stringify({ error: "busy" }), { status: 503 }) : relayFetch(input, init)),
    });
    expect(await flaky.heartbeat({ jobId: job.id, runAttempt: 1 })).toEqual({ status: "completed", cancel: true });
    expect(calls).toBe(3);

    const down = createServer((_req, res) => res.destroy());
    await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
    const port = (down.address() as { port: number }).port;
    const unreachable = new RunnerClient({ baseUrl: `http://127.0.0.1:${port}`, idToken, attempts: 3, backoffMs: 5 });
    await expect(unreachable.heartbeat({ jobId: job.id, runAttempt: 1 })).rejects.toThrow(/after 3 attempts/);
    down.close();
  });
});
