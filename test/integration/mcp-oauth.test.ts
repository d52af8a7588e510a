import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import https, { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { syncBuiltinESMExports } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { auth, UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { Visitor } from "../helpers/visitor.js";
import { cliFor } from "../helpers/cli.js";

// Inkwell as the OAuth 2.1 authorization server of its MCP endpoint (docs/mcp-oauth.md), driven by
// the MCP SDK's own client OAuth flow as a hosted assistant runs it: discovery from the 401, a
// Client ID Metadata Document or Dynamic Client Registration, PKCE, the person's consent over
// HTTP as a browser sends it, tokens, tools, a refresh, revocation, and what is refused.

const REDIRECT = "https://assistant.example/oauth/callback";
const TLS = { cert: readFileSync("test/fixtures/tls/loopback-cert.pem"), key: readFileSync("test/fixtures/tls/loopback-key.pem") };

/** An assistant's side of OAuth as the SDK asks a client to keep it: in memory, the browser step captured. */
class AssistantAuth implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | null = null;
  readonly clientMetadataUrl: string | undefined;

  constructor(clientMetadataUrl?: string) {
    this.clientMetadataUrl = clientMetadataUrl;
  }

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "Test assistant", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let t: TestServer;
let guarded: TestServer;
let documents: HttpsServer;
let documentsUrl: string;
let projectId: string;
let person: Visitor;
const originalRequest = https.request;

/**
 * The server trusts this test's certificate for its requests (nock, loaded in every worker, hands
 * TLS options of the global agent over to no socket, so the request's own options carry the CA).
 */
function trustTestCertificate() {
  https.request = ((url: unknown, options: unknown, callback: unknown) =>
    typeof options === "object" && options !== null
      ? (originalRequest as (...args: unknown[]) => unknown)(url, { ...options, ca: TLS.cert }, callback)
      : (originalRequest as (...args: unknown[]) => unknown)(url, options, callback)) as typeof https.request;
  syncBuiltinESMExports();
}

beforeAll(async () => {
  // The client metadata documents are served over https on loopback; the server trusts this test's certificate.
  documents = createHttpsServer(TLS, (req, res) => {
    const url = `${documentsUrl}${req.url}`;
    if (req.url === "/assistant.json") {
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "max-age=600" });
      res.end(JSON.stringify({ client_id: url, client_name: "Documented assistant", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }));
    } else if (req.url === "/impostor.json") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ client_id: "https://someone-else.example/client.json", redirect_uris: [REDIRECT] }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
  documentsUrl = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  trustTestCertificate();
  t = await startTestServer({ env: { INKWELL_WEBHOOKS_ALLOW_PRIVATE: "true", INKWELL_OAUTH_REDIRECT_HOSTS: "assistant.example" } });
  guarded = await startTestServer({ env: { INKWELL_OAUTH_REGISTRATION: "false" } });
  projectId = (await t.newProject("acme/oauth-docs")).projectId;
  person = new Visitor(t.url);
  expect((await person.signInAsOperator()).status).toBe(303);
});

afterAll(async () => {
  https.request = originalRequest;
  syncBuiltinESMExports();
  await t?.close();
  await guarded?.close();
  await new Promise((resolve) => documents?.close(resolve));
});

/** The person's step, as a browser does it: follow the authorize URL to the consent page, approve (or deny) with a project and scopes. */
async function consent(authorizationUrl: URL, decision: { approve: boolean; scopes?: string[] } = { approve: true }) {
  const start = await fetch(authorizationUrl, { redirect: "manual" });
  expect(start.status, await start.clone().text()).toBe(302);
  const consentPath = new URL(start.headers.get("location")!).pathname + new URL(start.headers.get("location")!).search;
  expect(consentPath).toMatch(/^\/dashboard\/oauth\/authorize\?request=[a-z0-9]+$/);
  // Someone not signed in is sent to sign in first, and brought back.
  const stranger = await new Visitor(t.url).get(consentPath);
  expect(stranger.status).toBe(303);
  expect(stranger.headers.get("location")).toBe(`/dashboard/sign-in?next=${encodeURIComponent(consentPath)}`);
  const page = await person.get(consentPath);
  expect(page.status).toBe(200);
  // The consent form's answer leaves for the client's redirect URI: the page's CSP lets it.
  expect(page.headers.get("content-security-policy")).toContain(`form-action 'self' ${new URL(authorizationUrl.searchParams.get("redirect_uri") ?? REDIRECT).origin}`);
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page.text)?.[1] ?? "";
  const request = /name="request" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
  const form: Record<string, string> = { csrf, request, project: projectId, decision: decision.approve ? "approve" : "deny" };
  for (const scope of decision.scopes ?? ["analytics", "jobs"]) form[`scope-${scope}`] = "on";
  const answered = await person.post("/dashboard/oauth/authorize", form);
  expect(answered.status, answered.text).toBe(303);
  return { page, back: new URL(answered.headers.get("location")!) };
}

/** The SDK client's whole flow: connect (401, discovery, registration or metadata document, redirect), consent, finishAuth, connect again. */
async function authorizedClient(provider: AssistantAuth, server: TestServer = t): Promise<{ client: Client; page: string }> {
  const mcpUrl = new URL("/mcp", server.url);
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(new Client({ name: "assistant", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).not.toBeNull();
  const { page, back } = await consent(provider.authorizationUrl!);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get("iss")).toBe(server.url);
  await first.finishAuth(back.searchParams.get("code")!);
  const client = new Client({ name: "assistant", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, page: page.text };
}

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/** An authorization code by hand (a client registered through DCR), for the refusals the SDK client would never send. */
async function codeByHand(challenge: string) {
  const registered = await fetch(`${t.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_name: "Hand", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }) });
  const client = (await registered.json()) as { client_id: string };
  const url = new URL(`${t.url}/authorize`);
  for (const [k, v] of Object.entries({ response_type: "code", client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "s1", resource: `${t.url}/mcp` })) url.searchParams.set(k, v);
  const { back } = await consent(url);
  return { clientId: client.client_id, code: back.searchParams.get("code")! };
}

const token = (body: Record<string, string>) => fetch(`${t.url}/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body).toString() });

describe("MCP with OAuth: a hosted assistant adds Inkwell by its URL", () => {
  it("publishes RFC 8414 metadata the SDK finds from the MCP endpoint's 401", async () => {
    const refused = await fetch(`${t.url}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(refused.status).toBe(401);
    const metadata = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: t.url,
      authorization_endpoint: `${t.url}/authorize`,
      token_endpoint: `${t.url}/token`,
      registration_endpoint: `${t.url}/register`,
      revocation_endpoint: `${t.url}/revoke`,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      client_id_metadata_document_supported: true,
      scopes_supported: ["views", "analytics", "jobs"],
    });
  });

  it("signs in a client known by its metadata document: consent shows it verified, then tools/list and a tool call with the granted scopes", async () => {
    const provider = new AssistantAuth(`${documentsUrl}/assistant.json`);
    const { client, page } = await authorizedClient(provider);
    expect(provider.info?.client_id).toBe(`${documentsUrl}/assistant.json`);
    expect(page).toContain("Documented assistant");
    expect(page).toMatch(/<dd id="consent-verified"><strong>Verified<\/strong>/);
    expect(page).toContain("assistant.example");
    expect(provider.saved).toMatchObject({ token_type: "Bearer", scope: "analytics jobs", expires_in: 3600 });
    expect(provider.saved?.access_token).toMatch(/^inkat_/);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain("list_jobs");
    const listed = await client.callTool({ name: "list_jobs", arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toMatchObject({ jobs: [], hasMore: false });
    await client.close();
  });

  it("registers an older client through DCR, as a public client, and the grant shows beside the keys; a refresh rotates the refresh token", async () => {
    const provider = new AssistantAuth();
    const { client, page } = await authorizedClient(provider);
    expect(provider.info).toMatchObject({ token_endpoint_auth_method: "none", client_name: "Test assistant" });
    expect((provider.info as { client_secret?: string }).client_secret).toBeUndefined();
    expect(page).toMatch(/<dd id="consent-verified"><strong>Not verified<\/strong>/);
    const keysPage = await person.get(`/dashboard/projects/${projectId}/keys`);
    expect(keysPage.text).toContain('id="grants-table"');
    expect(keysPage.text).toContain("Test assistant");

    const before = provider.saved!;
    expect(await auth(provider, { serverUrl: new URL("/mcp", t.url) })).toBe("AUTHORIZED");
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
    expect(provider.saved!.access_token).not.toBe(before.access_token);
    expect((await client.callTool({ name: "list_jobs", arguments: {} })).isError).toBeFalsy();
    // A scope the grant lacks is refused: analytics and jobs were granted, views was not.
    const wider = await token({ grant_type: "refresh_token", client_id: provider.info!.client_id, refresh_token: provider.saved!.refresh_token!, scope: "views" });
    expect(wider.status).toBe(400);
    expect(await wider.json()).toMatchObject({ error: "invalid_scope" });
    // The refused request spent nothing: the refresh token still refreshes.
    const still = await token({ grant_type: "refresh_token", client_id: provider.info!.client_id, refresh_token: provider.saved!.refresh_token!, scope: "analytics" });
    expect(still.status).toBe(200);
    await client.close();
  });

  it("gives a token only what its scopes give a key: a tool outside them is refused with the scope it needs", async () => {
    const provider = new AssistantAuth(`${documentsUrl}/assistant.json`);
    const mcpUrl = new URL("/mcp", t.url);
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: "assistant", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const { back } = await consent(provider.authorizationUrl!, { approve: true, scopes: ["analytics"] });
    await first.finishAuth(back.searchParams.get("code")!);
    const client = new Client({ name: "assistant", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const refused = await client.callTool({ name: "create_job", arguments: { prompt: "Add a page" } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("This assistant's access may not call create_job: that needs the jobs scope, and it was granted analytics");
    expect((await client.callTool({ name: "get_visitors", arguments: {} })).isError).toBeFalsy();
    await client.close();
  });

  it("refuses a revoked grant's token from its next request, and its refresh token", async () => {
    const provider = new AssistantAuth();
    const { client } = await authorizedClient(provider);
    expect((await client.callTool({ name: "list_jobs", arguments: {} })).isError).toBeFalsy();
    const [grant] = await t.store.db.query<{ id: string }>(`SELECT id FROM oauth_grants WHERE client_id = $1 AND revoked_at IS NULL`, [provider.info!.client_id]);
    const csrf = await person.csrf(`/dashboard/projects/${projectId}/keys`);
    const revoked = await person.post(`/dashboard/projects/${projectId}/grants/${grant!.id}/revoke`, { csrf });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(`/dashboard/projects/${projectId}/keys?notice=grant-revoked`);
    const raw = await fetch(`${t.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${provider.saved!.access_token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    const refresh = await token({ grant_type: "refresh_token", client_id: provider.info!.client_id, refresh_token: provider.saved!.refresh_token! });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
    await client.close().catch(() => undefined);
  });

  it("lists and revokes grants through the operator API, beside the keys", async () => {
    const provider = new AssistantAuth(`${documentsUrl}/assistant.json`);
    const { client } = await authorizedClient(provider);
    const listed = await t.call("GET", `/admin/projects/${projectId}/grants`, { token: ADMIN_TOKEN });
    expect(listed.status).toBe(200);
    // This connection's grant: the newest of the client's (the list is oldest first).
    const grant = listed.body.grants.filter((g: any) => g.clientId === `${documentsUrl}/assistant.json` && g.revokedAt === null).at(-1);
    expect(grant).toMatchObject({ projectId, clientName: "Documented assistant", clientKind: "metadata_document", redirectHost: "assistant.example", scopes: ["analytics", "jobs"], grantedBy: "operator" });
    expect(JSON.stringify(listed.body)).not.toContain(provider.saved!.access_token);
    // The CLI over the same operator API: the list as a table, then the revocation.
    const cli = cliFor(t);
    const table = await cli(["keys", "grants", "--project", projectId]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID +CLIENT +SENDS BACK TO +VERIFIED +SCOPES/);
    expect(table.stdout).toContain("Documented assistant");
    const revoked = await cli(["keys", "revoke-grant", "--project", projectId, grant.id, "--json"]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: grant.id, revokedAt: expect.any(String) });
    await expect(client.callTool({ name: "list_jobs", arguments: {} })).rejects.toThrow();
    expect((await t.call("DELETE", `/admin/projects/${projectId}/grants/nosuchgrant`, { token: ADMIN_TOKEN })).status).toBe(404);
    expect((await t.call("GET", `/admin/projects/${projectId}/grants`)).status).toBe(401);
    await client.close().catch(() => undefined);
  });

  it("revokes through RFC 7009: a refresh token ends its grant", async () => {
    const provider = new AssistantAuth();
    const { client } = await authorizedClient(provider);
    const answer = await fetch(`${t.url}/revoke`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ client_id: provider.info!.client_id, token: provider.saved!.refresh_token! }).toString() });
    expect(answer.status).toBe(200);
    await expect(client.callTool({ name: "list_jobs", arguments: {} })).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  it("refuses a wrong PKCE verifier, and a code spent once", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const { clientId, code } = await codeByHand(s256(verifier));
    const wrong = await token({ grant_type: "authorization_code", client_id: clientId, code, code_verifier: randomBytes(32).toString("base64url"), redirect_uri: REDIRECT });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant", error_description: "code_verifier does not match the challenge" });
    const right = await token({ grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT });
    expect(right.status).toBe(200);
    const again = await token({ grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT });
    expect(again.status).toBe(400);
  });

  it("refuses a token for another resource: at authorization, at the token endpoint, and a token presented to another resource", async () => {
    const registered: any = await (await fetch(`${t.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) })).json();
    const url = new URL(`${t.url}/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: registered.client_id, redirect_uri: REDIRECT, code_challenge: s256("x".repeat(43)), code_challenge_method: "S256", state: "s2", resource: "https://other.example/mcp" })) url.searchParams.set(k, v);
    const refused = await fetch(url, { redirect: "manual" });
    expect(refused.status).toBe(302);
    const back = new URL(refused.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("invalid_target");
    expect(back.searchParams.get("state")).toBe("s2");

    const verifier = randomBytes(32).toString("base64url");
    const { clientId, code } = await codeByHand(s256(verifier));
    const other = await token({ grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT, resource: "https://other.example/mcp" });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: "invalid_target" });

    // A token bound to this server's MCP URL as 127.0.0.1 is refused when the same server is reached by another name.
    const { clientId: id2, code: code2 } = await codeByHand(s256(verifier));
    const issued = (await (await token({ grant_type: "authorization_code", client_id: id2, code: code2, code_verifier: verifier, redirect_uri: REDIRECT })).json()) as { access_token: string };
    const elsewhere = await fetch(`${t.url.replace("127.0.0.1", "localhost")}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${issued.access_token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(elsewhere.status).toBe(401);
  });

  it("lets the person deny: the client gets access_denied with its state", async () => {
    const provider = new AssistantAuth();
    const first = new StreamableHTTPClientTransport(new URL("/mcp", t.url), { authProvider: provider });
    await expect(new Client({ name: "assistant", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const { back } = await consent(provider.authorizationUrl!, { approve: false });
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("registers no client that would send people to a host the operator did not allow", async () => {
    for (const uri of ["https://evil.example/cb", "http://localhost:6274/cb"]) {
      const refused = await fetch(`${t.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ redirect_uris: [uri] }) });
      expect(refused.status, uri).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_client_metadata", error_description: expect.stringContaining("INKWELL_OAUTH_REDIRECT_HOSTS") });
    }
  });

  it("refuses what the store cannot hold or PKCE does not allow, before anything is stored", async () => {
    const named = await fetch(`${t.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_name: "nul\u0000name", redirect_uris: [REDIRECT] }) });
    expect(named.status).toBe(400);
    expect(await named.json()).toMatchObject({ error: "invalid_client_metadata", error_description: expect.stringContaining("must not contain NUL") });
    const registered: any = await (await fetch(`${t.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) })).json();
    for (const [field, value, message] of [["state", "a\u0000b", /state must be at most 2000 characters/], ["code_challenge", "short", /code_challenge must be the 43 base64url characters/]] as const) {
      const url = new URL(`${t.url}/authorize`);
      for (const [k, v] of Object.entries({ response_type: "code", client_id: registered.client_id, redirect_uri: REDIRECT, code_challenge: s256("w".repeat(43)), code_challenge_method: "S256", [field]: value })) url.searchParams.set(k, v);
      const refused = await fetch(url, { redirect: "manual" });
      expect(refused.status, field).toBe(302);
      const back = new URL(refused.headers.get("location")!);
      expect(back.searchParams.get("error"), field).toBe("invalid_request");
      expect(back.searchParams.get("error_description"), field).toMatch(message);
    }
    const unknownClient = await fetch(`${t.url}/authorize?response_type=code&client_id=a%00b&code_challenge=${s256("u".repeat(43))}&code_challenge_method=S256`, { redirect: "manual" });
    expect(unknownClient.status).toBe(400);
    expect(await unknownClient.json()).toMatchObject({ error: "invalid_client" });
    // A challenge method other than S256 is refused by the SDK's own schema.
    const plain = new URL(`${t.url}/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: registered.client_id, redirect_uri: REDIRECT, code_challenge: "x".repeat(43), code_challenge_method: "plain" })) plain.searchParams.set(k, v);
    expect(new URL((await fetch(plain, { redirect: "manual" })).headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });

  it("refuses a metadata document that names another client", async () => {
    const url = new URL(`${t.url}/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: `${documentsUrl}/impostor.json`, redirect_uri: REDIRECT, code_challenge: s256("y".repeat(43)), code_challenge_method: "S256" })) url.searchParams.set(k, v);
    const refused = await fetch(url, { redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_client", error_description: expect.stringContaining("names another client_id") });
  });
});

describe("MCP with OAuth under the outbound guard, DCR switched off", () => {
  it("refuses a metadata document on a private address, saying so", async () => {
    const url = new URL(`${guarded.url}/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: `${documentsUrl}/assistant.json`, redirect_uri: REDIRECT, code_challenge: s256("z".repeat(43)), code_challenge_method: "S256" })) url.searchParams.set(k, v);
    const refused = await fetch(url, { redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: "invalid_client",
      error_description: expect.stringMatching(/127\.0\.0\.1 is a loopback address: client metadata document requests go to public addresses only \(the operator allows internal ones with INKWELL_WEBHOOKS_ALLOW_PRIVATE=true\)/),
    });
  });

  it("has no registration endpoint when the operator switched DCR off", async () => {
    const metadata: any = await (await fetch(`${guarded.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.registration_endpoint).toBeUndefined();
    const registration = await fetch(`${guarded.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
    expect(registration.status).toBe(403);
    expect(await registration.json()).toMatchObject({ error: "invalid_client_metadata", error_description: expect.stringContaining("INKWELL_OAUTH_REGISTRATION=false") });
  });
});
