import nock from "nock";
import { connectMcp } from "../helpers/mcp-client.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { linkRepositories } from "../../src/app/domain/installations.js";
import { APP_SLUG, appEnv, fakeGitHubApp, GITHUB_API, isolateGitHub, nockAppAuth } from "../helpers/github.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { Visitor } from "../helpers/visitor.js";

describe("dashboard sessions and CSRF (operator sign-in)", () => {
  let t: TestServer;
  let project: { projectId: string; key: string };
  const keyNames = async () => (await t.call("GET", `/admin/projects/${project.projectId}/keys`, { token: ADMIN_TOKEN })).body.keys.map((k: any) => k.name);

  beforeAll(async () => {
    t = await startTestServer();
    project = await t.newProject();
  });
  afterAll(() => t.close());

  it("sends visitors without a session to sign in, and every page carries a strict CSP", async () => {
    const v = new Visitor(t.url);
    const res = await v.get(`/dashboard/projects/${project.projectId}/analytics?days=7`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/dashboard/sign-in?next=${encodeURIComponent(`/dashboard/projects/${project.projectId}/analytics?days=7`)}`);
    // The CSV downloads too: no table leaves without a session.
    for (const csv of ["analytics.csv?path=/docs", "analytics/referrers.csv?channel=ai", "analytics/daily.csv?compare=previous", "analytics/ai-kinds.csv", "agents.csv", "agents/failures.csv", "agents/GPTBot/pages.csv", "agents/GPTBot/robots-disallowed.csv"]) {
      const download = await v.get(`/dashboard/projects/${project.projectId}/${csv}`);
      expect(download.status, csv).toBe(303);
      expect(download.headers.get("location"), csv).toMatch(/^\/dashboard\/sign-in\?next=/);
    }
    const page = await v.get("/dashboard/sign-in");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("content-security-policy")).not.toContain("unsafe-inline");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.text).not.toMatch(/<script>|style="/);
  });

  it("signs in with the operator token: an HttpOnly, SameSite=Lax cookie whose secret is stored only as a hash", async () => {
    const v = new Visitor(t.url);
    const wrong = await v.signInAsOperator("not-the-operator-token-at-all");
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("That is not the operator token.");
    const res = await v.signInAsOperator();
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
    const cookie = res.setCookies.find((c) => c.startsWith("inkwell_session=")) ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    const secret = v.cookies.get("inkwell_session") as string;
    const rows = await t.store.db.query<{ secret_hash: string }>("SELECT secret_hash FROM dashboard_sessions");
    expect(rows.some((r) => r.secret_hash === secret)).toBe(false);
    expect(rows.some((r) => r.secret_hash.length === 64)).toBe(true);
    expect((await v.get("/dashboard")).status).toBe(200);
  });

  it("refuses a sign-in post without the sign-in page's token (login CSRF) or from another origin", async () => {
    const v = new Visitor(t.url);
    expect((await v.post("/dashboard/sign-in", { token: ADMIN_TOKEN })).status).toBe(403);
    await v.get("/dashboard/sign-in");
    expect((await v.post("/dashboard/sign-in", { token: ADMIN_TOKEN, csrf: "forged" })).status).toBe(403);
    const page = await v.get("/dashboard/sign-in");
    const loginToken = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
    const crossSite = await v.post("/dashboard/sign-in", { token: ADMIN_TOKEN, csrf: loginToken }, { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(v.cookies.has("inkwell_session")).toBe(false);
  });

  it("refuses state-changing posts without the session's CSRF token, from another origin or another site", async () => {
    const v = new Visitor(t.url);
    await v.signInAsOperator();
    const csrf = await v.csrf();
    const path = `/dashboard/projects/${project.projectId}/keys`;
    const attempts = [
      await v.post(path, { name: "no-token" }),
      await v.post(path, { name: "wrong-token", csrf: "x".repeat(43) }),
      await v.post(path, { name: "other-origin", csrf }, { Origin: "https://evil.example" }),
      await v.post(path, { name: "other-site", csrf }, { "Sec-Fetch-Site": "cross-site" }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    expect(attempts[0]?.text).toContain("CSRF");
    const names = await keyNames();
    for (const name of ["no-token", "wrong-token", "other-origin", "other-site"]) expect(names).not.toContain(name);

    const ok = await v.post(path, { name: "legit", "scope-all": "on", csrf });
    expect(ok.status).toBe(201);
    const key = /id="new-key" class="secret">([^<]+)</.exec(ok.text)?.[1] ?? "";
    expect((await t.call("GET", `/v2/agent/${project.projectId}/jobs`, { token: key })).status).toBe(200);
    // Beside it, the MCP URL and the command that adds it to Claude Code: with those alone, an MCP client works.
    const mcpUrl = /id="mcp-url">([^<]+)</.exec(ok.text)?.[1] ?? "";
    expect(mcpUrl).toBe(`${t.url}/mcp`);
    expect(ok.text).toContain(`claude mcp add --transport http inkwell ${mcpUrl} --header "Authorization: Bearer ${key}"`);
    const mcp = await connectMcp(mcpUrl, key);
    expect((await mcp.callTool({ name: "list_jobs", arguments: {} })).isError).toBeFalsy();
    await mcp.close();
    // Another session's token is no good either.
    const other = new Visitor(t.url);
    await other.signInAsOperator();
    expect((await other.post(path, { name: "borrowed-token", csrf })).status).toBe(403);
  });

  it("ignores forged, expired and signed-out session cookies", async () => {
    const forged = new Visitor(t.url);
    forged.cookies.set("inkwell_session", "A".repeat(43));
    expect((await forged.get("/dashboard")).status).toBe(303);
    forged.cookies.set("inkwell_session", "../../etc/passwd");
    expect((await forged.get("/dashboard")).status).toBe(303);

    const expired = new Visitor(t.url);
    await expired.signInAsOperator();
    expect((await expired.get("/dashboard")).status).toBe(200);
    await t.store.db.query("UPDATE dashboard_sessions SET expires_at = now() - interval '1 second'");
    expect((await expired.get("/dashboard")).status).toBe(303);

    const v = new Visitor(t.url);
    await v.signInAsOperator();
    const csrf = await v.csrf();
    const secret = v.cookies.get("inkwell_session") as string;
    expect((await v.post("/dashboard/sign-out", {})).status).toBe(403);
    expect((await v.get("/dashboard")).status).toBe(200);
    const out = await v.post("/dashboard/sign-out", { csrf });
    expect(out.status).toBe(303);
    const replay = new Visitor(t.url);
    replay.cookies.set("inkwell_session", secret);
    expect((await replay.get("/dashboard")).status).toBe(303);
  });

  it("ends operator sessions when the operator token changes, and a new sign-in ends the browser's old session", async () => {
    const v = new Visitor(t.url);
    await v.signInAsOperator();
    const first = v.cookies.get("inkwell_session") as string;
    // Signing in again in the same browser (the sign-in page itself redirects a signed-in visitor).
    const fresh = new Visitor(t.url);
    const page = await fresh.get("/dashboard/sign-in");
    v.cookies.set("inkwell_login", fresh.cookies.get("inkwell_login") as string);
    const again = await v.post("/dashboard/sign-in", { csrf: /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "", token: ADMIN_TOKEN });
    expect(again.status).toBe(303);
    const second = v.cookies.get("inkwell_session") as string;
    expect(second).not.toBe(first);
    const old = new Visitor(t.url);
    old.cookies.set("inkwell_session", first);
    expect((await old.get("/dashboard")).status).toBe(303);
    expect((await v.get("/dashboard")).status).toBe(200);
    // As if INKWELL_ADMIN_TOKEN had been rotated: the session was made with another token.
    await t.store.db.query("UPDATE dashboard_sessions SET operator_token_hash = repeat('0', 64) WHERE kind = 'operator'");
    expect((await v.get("/dashboard")).status).toBe(303);
  });

  it("only returns to dashboard pages after sign-in (no open redirect), and hides unknown projects", async () => {
    for (const next of ["https://evil.example/", "//evil.example", "/dashboard\\@evil.example", "/api"]) {
      const v = new Visitor(t.url);
      const page = await v.get(`/dashboard/sign-in?next=${encodeURIComponent(next)}`);
      const loginToken = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      const formNext = /name="next" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      const res = await v.post("/dashboard/sign-in", { csrf: loginToken, token: ADMIN_TOKEN, next: formNext || next });
      expect(res.headers.get("location"), next).toBe("/dashboard");
    }
    const v = new Visitor(t.url);
    await v.signInAsOperator();
    const missing = await v.get("/dashboard/projects/zzzzzzzzzzzzzzzzzzzz/keys");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("text/html");
    expect((await v.get("/dashboard/projects/zzzzzzzzzzzzzzzzzzzz/analytics/referrers.csv")).status).toBe(404);
    // An agent no view ever claimed has no CSV; a bad section is a 400 page, not a file.
    const noAgent = await v.get(`/dashboard/projects/${project.projectId}/agents/NoSuchAgent/pages.csv`);
    expect(noAgent.status).toBe(404);
    expect(noAgent.headers.get("content-type")).toContain("text/html");
    const deep = await v.get(`/dashboard/projects/${project.projectId}/analytics/daily.csv?path=/a/b/c`);
    expect(deep.status).toBe(400);
    expect(deep.text).toContain("path: must be a URL path of at most 2 segments");
    // An empty project: every table's CSV is its header alone.
    const empty = await v.get(`/dashboard/projects/${project.projectId}/analytics/referrers.csv?days=7`);
    expect(empty.status).toBe(200);
    expect(empty.text).toBe("source,channel,visitors,views\r\n");
  });

  it("believes X-Forwarded-Proto only from a trusted proxy", async () => {
    const direct = await new Visitor(t.url).get("/dashboard/sign-in", { "X-Forwarded-Proto": "https" });
    expect(direct.setCookies[0]).toMatch(/^inkwell_login=/);
    expect(direct.setCookies[0]).not.toMatch(/Secure/);
    const proxied = await startTestServer({ env: { INKWELL_TRUSTED_PROXIES: "127.0.0.1" } });
    try {
      const v = new Visitor(proxied.url);
      const page = await v.get("/dashboard/sign-in", { "X-Forwarded-Proto": "https, http" });
      expect(page.setCookies[0]).toMatch(/^__Host-inkwell_login=.*; Secure/);
      const loginToken = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      const res = await v.post("/dashboard/sign-in", { csrf: loginToken, token: ADMIN_TOKEN }, { "X-Forwarded-Proto": "https", Origin: proxied.url.replace("http:", "https:") });
      expect(res.status).toBe(303);
      expect(res.setCookies.some((c) => c.startsWith("__Host-inkwell_session="))).toBe(true);
    } finally {
      await proxied.close();
    }
  });

  it("marks the cookie Secure with the __Host- prefix when served over HTTPS", async () => {
    const https = await startTestServer({ env: { PUBLIC_URL: "https://inkwell.example.com" } });
    try {
      const v = new Visitor(https.url);
      const page = await v.get("/dashboard/sign-in");
      expect(page.setCookies[0]).toMatch(/^__Host-inkwell_login=.*; Secure/);
      const loginToken = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      const res = await v.post("/dashboard/sign-in", { csrf: loginToken, token: ADMIN_TOKEN }, { Origin: "https://inkwell.example.com" });
      expect(res.status).toBe(303);
      expect(res.setCookies.find((c) => c.startsWith("__Host-inkwell_session="))).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=43200$/);
    } finally {
      await https.close();
    }
  });
});

describe("sign in with GitHub", () => {
  const CLIENT_ID = "Iv1.testclient";
  let t: TestServer;
  const projects: Record<string, string> = {};
  const revoked: string[] = [];

  /** GitHub's side of one sign-in: the code exchange, the user, the token revocation. */
  function nockOAuth(code: string, user: { id: number; login: string }) {
    nock("https://github.com")
      .post("/login/oauth/access_token", (body) => body.code === code && body.client_id === CLIENT_ID && body.client_secret === "oauth-secret")
      .reply(200, { access_token: `gho_${user.login}`, token_type: "bearer", scope: "" });
    nock(GITHUB_API).get("/user").matchHeader("authorization", `Bearer gho_${user.login}`).reply(200, { id: user.id, login: user.login, type: "User" });
    nock(GITHUB_API)
      .delete(`/applications/${CLIENT_ID}/token`, (body) => {
        revoked.push(body.access_token);
        return true;
      })
      .reply(204);
  }

  function nockPermission(repo: string, login: string, permission: string) {
    nock(GITHUB_API)
      .get(`/repos/${repo}/collaborators/${login}/permission`)
      .reply(200, { permission, role_name: permission, user: { login } });
  }

  async function signInWithGitHub(login: string, id: number) {
    const v = new Visitor(t.url);
    const start = await v.get("/dashboard/auth/github?next=%2Fdashboard");
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get("location") ?? "");
    expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(authorize.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${t.url}/dashboard/auth/github/callback`);
    const state = authorize.searchParams.get("state") ?? "";
    nockOAuth(`code-${login}`, { id, login });
    const back = await v.get(`/dashboard/auth/github/callback?code=code-${login}&state=${state}`);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/dashboard");
    return v;
  }

  beforeAll(async () => {
    isolateGitHub();
    t = await startTestServer({
      env: appEnv({ GITHUB_CLIENT_ID: CLIENT_ID, GITHUB_CLIENT_SECRET: "oauth-secret" }),
      github: fakeGitHubApp(),
      dispatcher: { dispatch: async () => ({ ok: true }) },
    });
    const ids = await t.store.db.transaction((tx) =>
      linkRepositories(tx, 42, [{ fullName: "acme/docs", repositoryId: 1, defaultBranch: "main" }, { fullName: "acme/wiki", repositoryId: 2, defaultBranch: "main" }], "https://github.com", "anthropic/claude-sonnet-4-5"),
    );
    projects.docs = ids[0] as string;
    projects.wiki = ids[1] as string;
    projects.uninstalled = (await t.newProject("acme/uninstalled")).projectId;
  });
  afterEach(() => nock.cleanAll());
  afterAll(async () => {
    await t.close();
    nock.enableNetConnect();
  });

  it("refuses a callback whose state did not start in this browser", async () => {
    const v = new Visitor(t.url);
    await v.get("/dashboard/auth/github");
    const res = await v.get("/dashboard/auth/github/callback?code=anything&state=forged-state");
    expect(res.status).toBe(403);
    expect(res.text).toContain("state mismatch");
    const noCookie = new Visitor(t.url);
    expect((await noCookie.get("/dashboard/auth/github/callback?code=anything&state=x")).status).toBe(403);
  });

  it("shows a signed-in user the projects whose repos give them enough permission; keys need admin", async () => {
    nockAppAuth(42);
    nockPermission("acme/docs", "octo-admin", "admin");
    nockPermission("acme/wiki", "octo-admin", "read");
    const admin = await signInWithGitHub("octo-admin", 7);
    expect(revoked).toContain("gho_octo-admin");
    const home = await admin.get("/dashboard");
    expect(home.text).toContain("Signed in as <strong>@octo-admin</strong>");
    expect(home.text).toContain("acme/docs");
    // read is below the default minimum (write); a project without an installation has no one to ask.
    expect(home.text).not.toContain("acme/wiki");
    expect(home.text).not.toContain("acme/uninstalled");
    expect((await admin.get(`/dashboard/projects/${projects.wiki}/keys`)).status).toBe(404);
    expect((await admin.get(`/dashboard/projects/${projects.uninstalled}/analytics`)).status).toBe(404);
    const csrf = await admin.csrf(`/dashboard/projects/${projects.docs}/keys`);
    expect((await admin.post(`/dashboard/projects/${projects.docs}/keys`, { name: "from-github-admin", "scope-all": "on", csrf })).status).toBe(201);

    nockPermission("acme/docs", "octo-writer", "write");
    nockPermission("acme/wiki", "octo-writer", "none");
    const writer = await signInWithGitHub("octo-writer", 8);
    const keysPage = await writer.get(`/dashboard/projects/${projects.docs}/keys`);
    expect(keysPage.status).toBe(200);
    expect(keysPage.text).toContain("needs admin permission on <code>acme/docs</code>; yours is write");
    const writerCsrf = await writer.csrf(`/dashboard/projects/${projects.docs}/jobs`);
    const refused = await writer.post(`/dashboard/projects/${projects.docs}/keys`, { name: "from-writer", csrf: writerCsrf });
    expect(refused.status).toBe(403);
    // Writers may start jobs, as they may comment on the PR.
    const job = await writer.post(`/dashboard/projects/${projects.docs}/jobs`, { prompt: "Fix the typo on the install page", csrf: writerCsrf });
    expect(job.status).toBe(303);
    const jobId = (job.headers.get("location") ?? "").split("/").pop()?.split("?")[0] ?? "";
    const messages = await t.store.db.query<{ prompt: string; author: string }>("SELECT prompt, author FROM job_messages WHERE job_id = $1", [jobId]);
    expect(messages).toEqual([{ prompt: "Fix the typo on the install page", author: "octo-writer" }]);
    const jobPage = await writer.get(`/dashboard/projects/${projects.docs}/jobs/${jobId}`);
    expect(jobPage.text).toContain("by @octo-writer");
    const names = (await t.call("GET", `/admin/projects/${projects.docs}/keys`, { token: ADMIN_TOKEN })).body.keys.map((k: any) => k.name);
    expect(names).toEqual(["from-github-admin"]);
  });

  it("lets a GitHub user with write permission give an assistant access to their project over OAuth, and revoke it themselves; another writer may not", async () => {
    nockAppAuth(42);
    nockPermission("acme/docs", "octo-granter", "write");
    nockPermission("acme/wiki", "octo-granter", "read");
    const granter = await signInWithGitHub("octo-granter", 9);
    const redirect = "https://assistant.example/cb";
    const client = (await (await fetch(`${t.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_name: "Team assistant", redirect_uris: [redirect] }) })).json()) as { client_id: string };
    const authorize = new URL(`${t.url}/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: client.client_id, redirect_uri: redirect, code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", state: "g1" })) authorize.searchParams.set(k, v);
    const consentUrl = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location") ?? "");
    const consent = await granter.get(consentUrl.pathname + consentUrl.search);
    expect(consent.status).toBe(200);
    // Only the projects the dashboard shows this user: acme/wiki is below the minimum permission.
    expect(consent.text).toContain("acme/docs (write)");
    expect(consent.text).not.toContain("acme/wiki");
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(consent.text)?.[1] ?? "";
    const request = /name="request" value="([^"]+)"/.exec(consent.text)?.[1] ?? "";
    const approved = await granter.post("/dashboard/oauth/authorize", { csrf, request, project: projects.docs as string, decision: "approve", "scope-analytics": "on", "scope-jobs": "on" });
    expect(approved.status).toBe(303);
    expect(new URL(approved.headers.get("location") ?? "").searchParams.get("code")).toMatch(/^inkac_/);
    const [grant] = await t.store.db.query<{ id: string; granted_by: string; scopes: string }>(`SELECT id, granted_by, scopes FROM oauth_grants WHERE client_id = $1`, [client.client_id]);
    expect(grant).toMatchObject({ granted_by: "github:octo-granter", scopes: "analytics,jobs" });

    nockPermission("acme/docs", "octo-other", "write");
    nockPermission("acme/wiki", "octo-other", "none");
    const other = await signInWithGitHub("octo-other", 10);
    const othersPage = await other.get(`/dashboard/projects/${projects.docs}/keys`);
    expect(othersPage.text).toContain("Team assistant");
    expect(othersPage.text).not.toContain(`grants/${grant!.id}/revoke`);
    const otherCsrf = await other.csrf(`/dashboard/projects/${projects.docs}/keys`);
    expect((await other.post(`/dashboard/projects/${projects.docs}/grants/${grant!.id}/revoke`, { csrf: otherCsrf })).status).toBe(403);

    const ownPage = await granter.get(`/dashboard/projects/${projects.docs}/keys`);
    expect(ownPage.text).toContain(`grants/${grant!.id}/revoke`);
    const revoked = await granter.post(`/dashboard/projects/${projects.docs}/grants/${grant!.id}/revoke`, { csrf });
    expect(revoked.status).toBe(303);
    const [after] = await t.store.db.query<{ revoked_at: unknown }>(`SELECT revoked_at FROM oauth_grants WHERE id = $1`, [grant!.id]);
    expect(after?.revoked_at).not.toBeNull();
  });

  it("shows the operator the App's install link for a repository without the App", async () => {
    nockAppAuth(42);
    const v = new Visitor(t.url);
    await v.signInAsOperator();
    const setup = await v.get(`/dashboard/projects/${projects.uninstalled}/setup`);
    expect(setup.status).toBe(200);
    expect(setup.text).toContain(`href="https://github.com/apps/${APP_SLUG}/installations/new"`);
    expect(setup.text).toContain("pick <code>acme/uninstalled</code>");
    const installed = await v.get(`/dashboard/projects/${projects.docs}/setup`);
    expect(installed.text).toContain("Installed");
    expect(installed.text).not.toContain("/installations/new");
  });

  it("says so when GitHub refuses the code", async () => {
    const v = new Visitor(t.url);
    const start = await v.get("/dashboard/auth/github");
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
    nock("https://github.com").post("/login/oauth/access_token").reply(200, { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." });
    const res = await v.get(`/dashboard/auth/github/callback?code=stale&state=${state}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain("The code passed is incorrect or expired.");
    expect(v.cookies.has("inkwell_session")).toBe(false);
  });
});
