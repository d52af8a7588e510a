import { createHash, randomBytes } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInkwellServer, type InkwellServer } from "../../src/app/server.js";
import { ADMIN_TOKEN, RELEASE, startTestServer, type TestServer } from "../helpers/server.js";
import { Visitor } from "../helpers/visitor.js";

// Inkwell's OAuth authorization server on two instances over one store behind PUBLIC_URL (as
// several instances share one PostgreSQL): each step of a client's flow on either instance, and a
// revocation on one refused by the other from the next request. mcp-oauth.test.ts drives the SDK
// client's flow on one server.

const PUBLIC_URL = "https://inkwell.example.com";
const RESOURCE = `${PUBLIC_URL}/mcp`;
const REDIRECT = "https://assistant.example/oauth/callback";

let a: TestServer;
let b: InkwellServer;
let bUrl: string;
let projectId: string;

beforeAll(async () => {
  a = await startTestServer({ env: { PUBLIC_URL } });
  // The second instance: its own process state (handlers, caches), the same store.
  b = await createInkwellServer({ config: a.config, db: a.store.db, log: pino({ level: "silent" }), adminToken: ADMIN_TOKEN, version: RELEASE });
  bUrl = (await b.listen(0, "127.0.0.1")).url;
  projectId = (await a.newProject("acme/oauth-cluster")).projectId;
});

afterAll(async () => {
  await b?.close(1000);
  await a?.close();
});

const form = (url: string, body: Record<string, string>) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body).toString() });

const mcp = (base: string, token: string) =>
  fetch(`${base}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });

describe("MCP with OAuth across instances", () => {
  it("registers on one instance, consents and exchanges on the other, uses and refreshes on either, and a revocation on one is refused by both", async () => {
    const registered = (await (await fetch(`${a.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_name: "Cluster assistant", redirect_uris: [REDIRECT] }) })).json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${bUrl}/authorize`);
    const params = { response_type: "code", client_id: registered.client_id, redirect_uri: REDIRECT, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256", state: "c1", resource: RESOURCE };
    for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
    const start = await fetch(authorize, { redirect: "manual" });
    expect(start.status).toBe(302);
    const consentUrl = new URL(start.headers.get("location")!);
    expect(consentUrl.origin).toBe(PUBLIC_URL);

    // The person is signed in on instance A, whose session any instance reads.
    const person = new Visitor(a.url, PUBLIC_URL);
    expect((await person.signInAsOperator()).status).toBe(303);
    const page = await person.get(consentUrl.pathname + consentUrl.search);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Cluster assistant");
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page.text)?.[1] ?? "";
    const request = /name="request" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
    const answered = await new Visitor(bUrl, PUBLIC_URL).request("POST", "/dashboard/oauth/authorize", {
      form: { csrf, request, project: projectId, decision: "approve", "scope-analytics": "on" },
      headers: { Cookie: [...person.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    expect(answered.status, answered.text).toBe(303);
    const back = new URL(answered.headers.get("location")!);
    expect(back.searchParams.get("state")).toBe("c1");
    expect(back.searchParams.get("iss")).toBe(PUBLIC_URL);

    const exchanged = await form(`${a.url}/token`, { grant_type: "authorization_code", client_id: registered.client_id, code: back.searchParams.get("code")!, code_verifier: verifier, redirect_uri: REDIRECT, resource: RESOURCE });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(tokens.scope).toBe("analytics");
    expect((await mcp(a.url, tokens.access_token)).status).toBe(200);
    expect((await mcp(bUrl, tokens.access_token)).status).toBe(200);

    const refreshed = await form(`${bUrl}/token`, { grant_type: "refresh_token", client_id: registered.client_id, refresh_token: tokens.refresh_token, resource: RESOURCE });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect((await mcp(a.url, next.access_token)).status).toBe(200);

    // Revoked on B's dashboard: refused by A and B from the next request, the refresh token too.
    const [grant] = await a.store.db.query<{ id: string }>(`SELECT id FROM oauth_grants WHERE client_id = $1`, [registered.client_id]);
    const admin = new Visitor(bUrl, PUBLIC_URL);
    for (const [name, value] of person.cookies) admin.cookies.set(name, value);
    const revoked = await admin.post(`/dashboard/projects/${projectId}/grants/${grant!.id}/revoke`, { csrf });
    expect(revoked.status).toBe(303);
    expect((await mcp(a.url, next.access_token)).status).toBe(401);
    expect((await mcp(bUrl, next.access_token)).status).toBe(401);
    expect((await form(`${a.url}/token`, { grant_type: "refresh_token", client_id: registered.client_id, refresh_token: next.refresh_token })).status).toBe(400);
  });
});
