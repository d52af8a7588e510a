import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeySchema, createdKeySchema, projectSchema } from "../../src/shared/admin-schemas.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) => t.call(method, path, { token: ADMIN_TOKEN, ...(body !== undefined ? { body } : {}) });

describe("operator: projects", () => {
  it("creates a project from owner/repo or a URL, and lists and gets it", async () => {
    const created = await admin("POST", "/admin/projects", { repository: "https://github.com/Acme/Guides.git", ref: "main", name: "Guides" });
    expect(created.status).toBe(201);
    const project = projectSchema.parse(created.body);
    expect(project).toMatchObject({ repository: "https://github.com/Acme/Guides", ref: "main", name: "Guides", model: "anthropic/claude-sonnet-4-5", rateLimitPerHour: 100, installation: { installed: false, id: null } });
    const got = await admin("GET", `/admin/projects/${project.id}`);
    expect(got.body).toEqual(project);
    const list = await admin("GET", "/admin/projects");
    expect(list.body.projects.map((p: { id: string }) => p.id)).toContain(project.id);
  });

  it("refuses a second project for the same repository (case-insensitive) with 409", async () => {
    await admin("POST", "/admin/projects", { repository: "acme/unique-docs" });
    const again = await admin("POST", "/admin/projects", { repository: "ACME/Unique-Docs" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already exists/);
  });

  it.each([
    [{}, /repository/],
    [{ repository: "" }, /repository/],
    [{ repository: "not a repo" }, /repository/],
    [{ repository: "https://gitlab.com/acme/docs" }, /repository/],
    [{ repository: "acme/docs/extra" }, /repository/],
    [{ repository: "acme/.." }, /repository/],
    [{ repository: 7 }, /repository: must be a string/],
    [{ repository: "acme/ok-1", ref: "bad..ref" }, /ref/],
    [{ repository: "acme/ok-2", rateLimitPerHour: 0 }, /rateLimitPerHour/],
    [{ repository: "acme/ok-3", rateLimitPerHour: "10" }, /rateLimitPerHour/],
  ])("400 for %j", async (body, message) => {
    const res = await admin("POST", "/admin/projects", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(res.body.details.length).toBeGreaterThan(0);
  });

  it("refuses unknown fields in operator bodies, nested ones too, naming them and the likely name; nothing changes", async () => {
    const { body: created } = await t.call("POST", "/admin/projects", { token: ADMIN_TOKEN, body: { repository: "acme/strict-fields" } });
    const patch = await t.call("PATCH", `/admin/projects/${created.id}`, { token: ADMIN_TOKEN, body: { rateLimitPerHour: 5, analytics: { saltwindow: "day" } } });
    expect(patch.status).toBe(400);
    expect(patch.body.details).toEqual([
      { field: "rateLimitPerHour", message: "rateLimitPerHour: unknown field" },
      { field: "analytics.saltwindow", message: "analytics.saltwindow: unknown field; did you mean 'saltWindow'?" },
    ]);
    expect((await t.call("POST", "/admin/projects", { token: ADMIN_TOKEN, body: { repository: "acme/strict-fields-2", reff: "main" } })).body.details).toEqual([
      { field: "reff", message: "reff: unknown field; did you mean 'ref'?" },
    ]);
    expect((await t.call("GET", `/admin/projects/${created.id}`, { token: ADMIN_TOKEN })).body.analytics.saltWindow).toBe(created.analytics.saltWindow);
  });

  it("404 for unknown or odd project ids", async () => {
    for (const id of ["nope", "%00", "a%2Fb", "Z".repeat(65)]) {
      expect((await admin("GET", `/admin/projects/${id}`)).status, id).toBe(404);
      expect((await admin("POST", `/admin/projects/${id}/keys`)).status, id).toBe(404);
    }
  });

  it("requires the operator token: none, wrong, or a project key → 401", async () => {
    const { key } = await t.newProject();
    for (const token of [undefined, "wrong-token-wrong-token", key, `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1)]) {
      const res = await t.call("GET", "/admin/projects", token ? { token } : {});
      expect(res.status).toBe(401);
    }
    const before = (await admin("GET", "/admin/projects")).body.projects.length;
    expect((await t.call("POST", "/admin/projects", { token: key, body: { repository: "acme/x" } })).status).toBe(401);
    expect((await admin("GET", "/admin/projects")).body.projects.length).toBe(before);
  });
});

describe("operator: API keys", () => {
  it("shows a key once, stores only its hash, lists prefixes and dates, and revokes", async () => {
    const { body: project } = await admin("POST", "/admin/projects", { repository: "acme/keys-docs" });
    const created = await admin("POST", `/admin/projects/${project.id}/keys`, { name: "CI" });
    expect(created.status).toBe(201);
    const key = createdKeySchema.parse(created.body);
    expect(key.key).toMatch(/^ink_[A-Za-z0-9_-]{43}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);

    const stored = await t.store.db.query<Record<string, unknown>>(`SELECT * FROM api_keys WHERE id = $1`, [key.id]);
    expect(stored[0]?.secret_hash).toBe(createHash("sha256").update(key.key).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(key.key);

    const listed = await admin("GET", `/admin/projects/${project.id}/keys`);
    expect(listed.status).toBe(200);
    expect(listed.body.keys).toHaveLength(1);
    const item = apiKeySchema.strict().parse(listed.body.keys[0]);
    expect(JSON.stringify(listed.body)).not.toContain(key.key);
    expect(item).toMatchObject({ id: key.id, name: "CI", prefix: key.prefix, lastUsedAt: null, revokedAt: null });

    const used = await t.call("GET", `/v2/agent/${project.id}/jobs`, { token: key.key });
    expect(used.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const afterUse = await admin("GET", `/admin/projects/${project.id}/keys`);
    expect(afterUse.body.keys[0].lastUsedAt).not.toBeNull();

    const revoked = await admin("DELETE", `/admin/projects/${project.id}/keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expect((await t.call("GET", `/v2/agent/${project.id}/jobs`, { token: key.key })).status).toBe(401);
    // Revoking twice keeps the first time.
    const twice = await admin("DELETE", `/admin/projects/${project.id}/keys/${key.id}`);
    expect(twice.body.revokedAt).toBe(revoked.body.revokedAt);
  });

  it("a key id of another project cannot be revoked through this project's path", async () => {
    const a = await t.newProject();
    const b = await t.newProject();
    const res = await admin("DELETE", `/admin/projects/${a.projectId}/keys/${b.keyId}`);
    expect(res.status).toBe(404);
    expect((await t.call("GET", `/v2/agent/${b.projectId}/jobs`, { token: b.key })).status).toBe(200);
  });

  it("key creation accepts no body, validates a given one", async () => {
    const { projectId } = await t.newProject();
    expect((await admin("POST", `/admin/projects/${projectId}/keys`)).status).toBe(201);
    expect((await admin("POST", `/admin/projects/${projectId}/keys`, { name: 5 })).status).toBe(400);
  });
});

describe("meta endpoints", () => {
  it("healthz answers 200 with the store kind", async () => {
    const res = await t.call("GET", "/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", store: t.store.db.kind });
  });

  it("/ sends a browser to the dashboard, and tells an API client where to set the GitHub App up", async () => {
    const json = await t.call("GET", "/");
    expect(json.body).toMatchObject({ name: "inkwell", dashboard: "/dashboard", githubApp: { configured: false, setupUrl: expect.stringMatching(/\/dashboard\/github-app$/) } });
    expect(json.body.setup.join(" ")).toContain(json.body.githubApp.setupUrl);
    // Per forge, by the name jobs carry: what the server lacks to run that forge's jobs.
    expect(json.body.forges).toEqual({ github: { missing: { what: "GitHub App", setupUrl: json.body.githubApp.setupUrl } }, gitlab: { missing: null } });
    const browser = await fetch(`${t.url}/`, { headers: { Accept: "text/html,application/xhtml+xml" }, redirect: "manual" });
    expect(browser.status).toBe(302);
    expect(browser.headers.get("location")).toBe("/dashboard");
  });
});
