import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectMcp, firstText } from "../helpers/mcp-client.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { Visitor } from "../helpers/visitor.js";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let t: TestServer;
let projectId: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestServer();
  ({ projectId } = await t.newProject("acme/scoped-docs"));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await t.close();
});

const createKey = (body?: unknown) => t.call("POST", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN, ...(body === undefined ? {} : { body }) });
async function keyWith(scopes: string[]): Promise<string> {
  const created = await createKey({ name: scopes.join("+"), scopes });
  expect(created.status).toBe(201);
  return created.body.key;
}
const hit = () => ({ hits: [{ timestamp: new Date().toISOString(), path: "/guides/install", ip: "203.0.113.7", userAgent: CHROME }] });
async function mcpWith(key: string): Promise<Client> {
  const client = await connectMcp(t.url, key);
  clients.push(client);
  return client;
}

describe("API key scopes", () => {
  it("are chosen at creation through the admin API, listed with each key, and all when none are given", async () => {
    const views = await createKey({ name: "site server", scopes: ["views"] });
    expect(views.status).toBe(201);
    expect(views.body.scopes).toEqual(["views"]);
    const two = await createKey({ scopes: ["jobs", "analytics", "jobs"] });
    expect(two.body.scopes).toEqual(["analytics", "jobs"]);
    expect((await createKey()).body.scopes).toEqual(["all"]);

    for (const scopes of [[], ["all", "views"], ["write"]]) {
      const refused = await createKey({ scopes });
      expect(refused.status, JSON.stringify(scopes)).toBe(400);
      expect(refused.body.details?.[0]?.field).toMatch(/^scopes/);
    }
    const listed = await t.call("GET", `/admin/projects/${projectId}/keys`, { token: ADMIN_TOKEN });
    expect(listed.body.keys.find((k: { id: string }) => k.id === views.body.id).scopes).toEqual(["views"]);
  });

  it("a views-only key sends page views, and gets 403 naming the scope on jobs and analytics reads", async () => {
    const key = await keyWith(["views"]);
    const sent = await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: key, body: hit() });
    expect(sent.status).toBe(202);
    expect(sent.body.accepted).toBe(1);

    const job = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Rewrite everything" } });
    expect(job.status).toBe(403);
    expect(job.body.error).toMatch(/may not create jobs: that needs the jobs scope, and the key has views/);
    expect(job.body.details).toEqual([{ field: "scope", message: "scope: jobs needed" }]);
    expect((await t.call("GET", `/v2/agent/${projectId}/jobs`, { token: key })).body.error).toMatch(/needs the jobs scope/);

    const visitors = await t.call("GET", `/v1/analytics/${projectId}/visitors`, { token: key });
    expect(visitors.status).toBe(403);
    expect(visitors.body.error).toMatch(/may not read analytics: that needs the analytics scope/);
    expect(visitors.body.details).toEqual([{ field: "scope", message: "scope: analytics needed" }]);
    // Nothing was started behind the refusal.
    const all = await keyWith(["all"]);
    expect((await t.call("GET", `/v2/agent/${projectId}/jobs`, { token: all })).body.jobs).toEqual([]);
  });

  it("the same key's MCP tools refuse with the missing scope, as tool errors; the list still shows every tool", async () => {
    const client = await mcpWith(await keyWith(["views"]));
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    const created = await callTool(client, "create_job", { prompt: "Rewrite everything" });
    expect(created.isError).toBe(true);
    expect(firstText(created)).toMatch(/may not call create_job: that needs the jobs scope, and the key has views/);
    const visitors = await callTool(client, "get_visitors", {});
    expect(visitors.isError).toBe(true);
    expect(firstText(visitors)).toMatch(/needs the analytics scope/);
  });

  it("a key holds what it was given and nothing more: analytics reads, jobs, both, all", async () => {
    const analytics = await keyWith(["analytics"]);
    expect((await t.call("GET", `/v1/analytics/${projectId}/visitors`, { token: analytics })).status).toBe(200);
    expect((await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: analytics, body: hit() })).body.error).toMatch(/may not send page views: that needs the views scope/);
    const analyticsMcp = await mcpWith(analytics);
    expect((await callTool(analyticsMcp, "get_visitors", {})).isError).toBeFalsy();
    expect(firstText(await callTool(analyticsMcp, "list_jobs", {}))).toMatch(/needs the jobs scope/);

    const jobs = await keyWith(["jobs"]);
    expect((await t.call("POST", `/v2/agent/${projectId}/job`, { token: jobs, body: { prompt: "Fix a typo" } })).status).toBe(201);
    expect((await t.call("GET", `/v1/analytics/${projectId}/views`, { token: jobs })).status).toBe(403);
    expect((await callTool(await mcpWith(jobs), "list_jobs", {})).isError).toBeFalsy();

    const both = await keyWith(["views", "analytics"]);
    expect((await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: both, body: hit() })).status).toBe(202);
    expect((await t.call("GET", `/v1/analytics/${projectId}/visitors`, { token: both })).status).toBe(200);
    expect((await t.call("GET", `/v2/agent/${projectId}/jobs`, { token: both })).status).toBe(403);
  });

  it("a key of another project is told so before its scopes are looked at", async () => {
    const other = await t.newProject("acme/other-scoped-docs");
    const refused = await t.call("GET", `/v1/analytics/${projectId}/visitors`, { token: other.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/belongs to project/);
  });

  it("the dashboard's keys page creates a key with the scopes checked, shows them, and refuses none checked", async () => {
    const v = new Visitor(t.url);
    await v.signInAsOperator();
    const path = `/dashboard/projects/${projectId}/keys`;
    const csrf = await v.csrf(path);
    const form = await v.get(path);
    // `all` is checked until the person chooses less.
    expect(form.text).toMatch(/<input type="checkbox" name="scope-all" checked>/);
    expect(form.text).toMatch(/<input type="checkbox" name="scope-views">/);

    const created = await v.post(path, { csrf, name: "beacon relay", "scope-views": "on" });
    expect(created.status).toBe(201);
    expect(created.text).toMatch(/id="new-key-scopes">views</);
    const key = /id="new-key" class="secret">([^<]+)</.exec(created.text)?.[1] ?? "";
    expect((await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "x" } })).status).toBe(403);
    const page = await v.get(path);
    expect(page.text).toMatch(/beacon relay<\/td>\s*<td><code>ink_[^<]+<\/code><\/td>\s*<td class="key-scopes">views<\/td>/);

    const none = await v.post(path, { csrf, name: "nothing" });
    expect(none.status).toBe(400);
    expect(none.text).toMatch(/scopes: must name at least one scope/);
    const mixed = await v.post(path, { csrf, name: "mixed", "scope-all": "on", "scope-jobs": "on" });
    expect(mixed.status).toBe(400);
    expect(mixed.text).toMatch(/all already includes every scope/);
  });
});
