import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB_API, isolateGitHub } from "../helpers/github.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { escapeHtml } from "../../src/app/dashboard/html.js";
import { Visitor } from "../helpers/visitor.js";

const PUBLIC_URL = "http://localhost:4000";
const decode = (text: string) => text.replace(/&#(\d+);|&quot;|&amp;|&lt;|&gt;/g, (m, code: string | undefined) => (code ? String.fromCharCode(Number(code)) : ({ "&quot;": '"', "&amp;": "&", "&lt;": "<", "&gt;": ">" } as Record<string, string>)[m] ?? m));

describe("the operator's GitHub App page, with no App configured", () => {
  let t: TestServer;
  const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-app-page-"));

  beforeAll(async () => {
    isolateGitHub();
    t = await startTestServer({ env: { PUBLIC_URL: "http://localhost:4000", DATA_DIR: dataDir, PORT: "4000", INKWELL_ACTION_REF: "acme/inkwell" } });
  });
  afterAll(async () => {
    await t.close();
    nock.cleanAll();
  });

  it("warns that GitHub cannot reach a localhost PUBLIC_URL and shows a tunnel recipe", async () => {
    const v = new Visitor(t.url, PUBLIC_URL);
    await v.signInAsOperator();
    const page = await v.get("/dashboard/github-app");
    expect(page.status).toBe(200);
    expect(page.text).toContain("GitHub's runners and webhooks cannot reach this server:</strong> localhost is a name only this machine or network knows");
    expect(page.text).toContain("cloudflared tunnel --url http://localhost:4000");
    // The restart keeps the port the tunnel points at.
    expect(page.text).toContain("PORT=4000 PUBLIC_URL=https://&lt;that address&gt; npm start");
    expect(page.text).toContain("<code>http://localhost:4000/api/github/webhooks</code>");
  });

  it("registers the App under the operator's chosen name, with its webhook on PUBLIC_URL, and saves what GitHub returns", async () => {
    const v = new Visitor(t.url, PUBLIC_URL);
    await v.signInAsOperator();
    const refused = await v.get("/dashboard/github-app?name=%3Cbad%3E");
    expect(refused.text).toMatch(/may hold letters, digits/);

    const ready = await v.get("/dashboard/github-app?name=Acme+Docs+Agent&organization=acme");
    const action = decode(/<form method="post" action="([^"]+)">/.exec(ready.text)?.[1] ?? "");
    expect(action).toMatch(/^https:\/\/github\.com\/organizations\/acme\/settings\/apps\/new\?state=[\w-]+$/);
    // The page may post that one form to GitHub, and nowhere else new.
    expect(ready.headers.get("content-security-policy")).toContain("form-action 'self' https://github.com;");
    const manifest = JSON.parse(decode(/name="manifest" value="([^"]+)"/.exec(ready.text)?.[1] ?? "{}"));
    expect(manifest).toMatchObject({ name: "Acme Docs Agent", hook_attributes: { url: "http://localhost:4000/api/github/webhooks" }, redirect_url: "http://localhost:4000/dashboard/github-app/registered" });
    const state = new URL(action).searchParams.get("state") ?? "";

    // Someone else's session cannot finish this registration.
    const other = new Visitor(t.url, PUBLIC_URL);
    await other.signInAsOperator();
    expect((await other.get(`/dashboard/github-app/registered?code=abc&state=${state}`)).status).toBe(400);

    const conversion = nock(GITHUB_API).post("/app-manifests/abc/conversions").reply(201, {
      id: 987654,
      slug: "acme-docs-agent",
      name: "Acme Docs Agent",
      owner: { login: "acme", type: "Organization" },
      html_url: "https://github.com/apps/acme-docs-agent",
      pem: "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n",
      webhook_secret: "whsec-abc",
      client_id: "Iv23liXYZ",
      client_secret: "cs-abc",
      permissions: { contents: "write" },
      events: ["pull_request"],
    });
    const done = await v.get(`/dashboard/github-app/registered?code=abc&state=${encodeURIComponent(state)}`);
    expect(done.status).toBe(200);
    expect(conversion.isDone()).toBe(true);
    expect(done.text).toContain("Restart Inkwell");
    expect(done.text).toContain('href="https://github.com/apps/acme-docs-agent/installations/new"');
    const file = path.join(dataDir, "github-app.env");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseEnv(readFileSync(file, "utf8"))).toMatchObject({ APP_ID: "987654", INKWELL_APP_SLUG: "acme-docs-agent", WEBHOOK_SECRET: "whsec-abc" });
    expect(done.text).not.toContain("whsec-abc");
  });

  it("a project's Setup tab says its workflow's inkwell-url cannot be reached, and where to fix it", async () => {
    const { projectId } = await t.newProject();
    const v = new Visitor(t.url, PUBLIC_URL);
    await v.signInAsOperator();
    const page = await v.get(`/dashboard/projects/${projectId}/setup`);
    expect(page.text).toContain("inkwell-url: http://localhost:4000");
    expect(page.text).toContain("GitHub's runners cannot reach <code>http://localhost:4000</code> (localhost is a name only this machine or network knows)");
    expect(page.text).toContain('<a href="/dashboard/github-app">GitHub App page</a>');
  });

  it("a project's Setup tab: the operator's steps with commands as code and the setup page as a link, and the workflow on the configured Action", async () => {
    const { projectId } = await t.newProject();
    const v = new Visitor(t.url, PUBLIC_URL);
    await v.signInAsOperator();
    const page = (await v.get(`/dashboard/projects/${projectId}/setup`)).text;
    expect(page).not.toContain("`");
    expect(page).toContain("<code>cloudflared tunnel --url http://localhost:4000</code>");
    expect(page).toContain("<code>PORT=4000 PUBLIC_URL=https://&lt;that address&gt; npm start</code>");
    expect(page).toContain('Open <a href="http://localhost:4000/dashboard/github-app">http://localhost:4000/dashboard/github-app</a>');
    const major = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version.split(".")[0];
    expect(page).toContain(`      - uses: acme/inkwell@v${major}\n`);
    expect(page).toContain("The Action is <code>acme/inkwell@v" + major + "</code>: set by <code>INKWELL_ACTION_REF</code>");
    expect(page).not.toContain("your-org/inkwell");
  });

  it("a GitHub Actions runner that reaches a server without an App is told where the operator sets it up; a token of no forge is a 401", async () => {
    // What a workflow run's OIDC token looks like before its signature is checked: GitHub Actions' issuer.
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const actionsToken = `${part({ alg: "RS256", typ: "JWT" })}.${part({ iss: "https://token.actions.githubusercontent.com", repository: "acme/docs" })}.c2ln`;
    const garbage = await t.call("POST", "/v1/runner/claim", { headers: { Authorization: "Bearer x" }, body: { jobId: "j", runAttempt: 1, workflowRunId: 1 } });
    expect(garbage.status).toBe(401);
    const res = await t.call("POST", "/v1/runner/claim", { headers: { Authorization: `Bearer ${actionsToken}` }, body: { jobId: "j", runAttempt: 1, workflowRunId: 1 } });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("This Inkwell server has no GitHub App configured, so runners cannot claim jobs; the operator sets it up at http://localhost:4000/dashboard/github-app");
  });

  it("a runner request without a token is told to authenticate (401) before anything about the server's setup", async () => {
    for (const path of ["/v1/runner/claim", "/v1/runner/heartbeat", "/v1/runner/transcript", "/v1/runner/report"]) {
      for (const headers of [{}, { Authorization: "Basic eDp5" }, { Authorization: "Bearer " }] as Record<string, string>[]) {
        const res = await t.call("POST", path, { headers, body: { jobId: "j", runAttempt: 1 } });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.body.error).toMatch(/^Missing runner token/);
      }
    }
  });

  it("a job created with no App fails with a message that links to this page", async () => {
    const { projectId, key } = await t.newProject();
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Fix typos" } });
    expect(created.status).toBe(201);
    await t.inkwell.services.tasks.idle();
    const job = (await t.call("GET", `/v2/agent/${projectId}/job/${created.body.id}`, { token: key })).body;
    expect(job.error).toContain("Register it at http://localhost:4000/dashboard/github-app");
  });
});

describe("pages about jobs, with no App configured", () => {
  it("say the jobs cannot run and link to the GitHub App page", async () => {
    const t = await startTestServer();
    try {
      const { projectId } = await t.newProject();
      const v = new Visitor(t.url);
      await v.signInAsOperator();
      const page = await v.get(`/dashboard/projects/${projectId}/jobs`);
      expect(page.text).toContain('This server has no GitHub App yet, so jobs fail without running. The operator sets it up on the <a href="/dashboard/github-app">GitHub App page</a>.');

      // A job that failed for it: the banner once, the error once with its URL a link, and the timeline does not say it again.
      const { projectId: otherId, key } = await t.newProject("acme/no-app-job");
      const other = { id: otherId };
      const created = await t.call("POST", `/v2/agent/${other.id}/job`, { token: key, body: { prompt: "Fix typos" } });
      await t.inkwell.services.tasks.idle();
      const error = (await t.call("GET", `/v2/agent/${other.id}/job/${created.body.id}`, { token: key })).body.error as string;
      const jobPage = (await v.get(`/dashboard/projects/${other.id}/jobs/${created.body.id}`)).text;
      const setupUrl = /https?:\/\/\S+\/dashboard\/github-app/.exec(error)?.[0] as string;
      expect(jobPage.split(escapeHtml(error.split(setupUrl)[0] as string)).length - 1).toBe(1);
      expect(jobPage).toContain(`<a href="${setupUrl}">${setupUrl}</a>`);
      expect(jobPage).toContain("(the error above)");
    } finally {
      await t.close();
    }
  });
});
