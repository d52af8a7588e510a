import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dispatcher } from "../../src/app/dispatch/dispatcher.js";
import { drainTasks } from "../helpers/drain.js";
import { callTool, connectMcp, firstText } from "../helpers/mcp-client.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";

/** Every run starts and none reports, so a job stays active until it is cancelled. */
const dispatched: string[] = [];
const dispatcher: Dispatcher = {
  async dispatch(request) {
    dispatched.push(request.jobId);
    return { ok: true };
  },
};

let t: TestServer;
let project: { projectId: string; key: string; keyId: string };
let client: Client;
const clients: Client[] = [];

async function connectWith(key: string | undefined, watchedFetch?: typeof fetch): Promise<Client> {
  const connected = await connectMcp(t.url, key, watchedFetch ? { fetch: watchedFetch } : {});
  clients.push(connected);
  return connected;
}
const connect = (key: string | undefined) => connectWith(key);

beforeAll(async () => {
  t = await startTestServer({ dispatcher });
  project = await t.newProject("acme/handbook");
  client = await connect(project.key);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await t.close();
});

const rest = (path: string, key = project.key) => t.call("GET", path, { token: key });
/** A raw JSON-RPC POST to /mcp, as a client that speaks the protocol by hand would send it. */
const rawPost = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.url}/mcp`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) });

describe("MCP at /mcp: the tools", () => {
  it("lists the ten tools, each with an object input schema and no output schema, reads marked read-only and cancel destructive", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["approve_plan", "cancel_job", "create_job", "get_ai_agents", "get_job", "get_job_impact", "get_robots_compliance", "get_visitors", "list_jobs", "send_message"]);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema, tool.name).toBeUndefined();
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
    }
    const annotations = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    for (const read of ["get_job", "get_job_impact", "list_jobs", "get_visitors", "get_ai_agents", "get_robots_compliance"]) expect(annotations[read]?.readOnlyHint, read).toBe(true);
    for (const write of ["create_job", "send_message", "cancel_job", "approve_plan"]) expect(annotations[write]?.readOnlyHint, write).toBe(false);
    expect(annotations.cancel_job?.destructiveHint).toBe(true);
    expect(annotations.create_job?.destructiveHint).toBe(false);
    const create = tools.find((tool) => tool.name === "create_job")!;
    expect(create.inputSchema.required).toEqual(["prompt"]);
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["prompt", "baseBranch", "draft", "model", "labels", "reviewers", "idempotencyKey"]));
    const visitors = tools.find((tool) => tool.name === "get_visitors")!;
    expect(Object.keys(visitors.inputSchema.properties ?? {}).sort()).toEqual(["dateFrom", "dateTo", "limit", "offset", "pathPrefix"]);
    expect((visitors.inputSchema.properties as any).limit).toMatchObject({ type: "integer", minimum: 1, maximum: 250 });
  });

  it("lists the tools in at most 12 KB of JSON, measured as a real client receives tools/list over HTTP", async () => {
    const bodies: string[] = [];
    // The SDK's own client, its fetch watched: what an assistant takes into its context is the answer's body.
    const watched: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (typeof init?.body === "string" && JSON.parse(init.body).method === "tools/list") bodies.push(await answer.clone().text());
      return answer;
    };
    const { tools } = await (await connectWith(project.key, watched)).listTools();
    expect(tools).toHaveLength(10);
    expect(bodies).toHaveLength(1);
    const bytes = Buffer.byteLength(bodies[0]!);
    expect(bytes, `tools/list is ${bytes} bytes`).toBeLessThanOrEqual(12 * 1024);
  });

  it("creates a job, polls it, follows up and cancels it: each answer is the REST body, plus a line that says what happened", async () => {
    const created = await callTool(client, "create_job", { prompt: "Add a page about webhooks", labels: ["docs"], draft: true });
    expect(created.isError).toBeFalsy();
    const job = created.structuredContent;
    expect(job).toMatchObject({ status: "active", source: { repository: "https://github.com/acme/handbook", ref: `inkwell/${job.id}` }, prLink: null });
    expect(firstText(created)).toMatch(new RegExp(`^Created\\. Job ${job.id} is active \\(acme/handbook on inkwell/${job.id}\\); no pull request yet\\. Warning: `));
    // This server has no GitHub App: the job would fail without running, and the assistant hears it as the CLI's user does.
    expect(firstText(created)).toMatch(/Warning: this Inkwell server has no GitHub App yet, so the job will fail without running\. The operator sets it up at http:\S+\/dashboard\/github-app; then send_message to the job runs it\.$/);
    expect(JSON.parse((created.content[1] as { text: string }).text)).toEqual(job);
    await drainTasks(t);
    expect(dispatched).toContain(job.id);

    const polled = await callTool(client, "get_job", { id: job.id });
    expect(polled.structuredContent).toEqual((await rest(`/v2/agent/${project.projectId}/job/${job.id}`)).body);

    // Active (its run has not reported): the follow-up waits for the next run.
    const queued = await callTool(client, "send_message", { id: job.id, prompt: "Also link it from the guides" });
    expect(queued.structuredContent.status).toBe("active");
    expect(firstText(queued)).toMatch(/^Queued for the job's next run\./);

    const cancelled = await callTool(client, "cancel_job", { id: job.id });
    expect(cancelled.structuredContent).toMatchObject({ id: job.id, status: "failed" });
    expect(firstText(cancelled)).toMatch(/^Cancelled\. Job \S+ is failed .*; error: Cancelled/i);
    const again = await callTool(client, "cancel_job", { id: job.id });
    expect(firstText(again)).toMatch(/^Not active, so nothing to cancel\./);
    expect(again.structuredContent).toEqual(cancelled.structuredContent);

    // Failed: a follow-up starts a new run on the same branch.
    const rerun = await callTool(client, "send_message", { id: job.id, prompt: "Try again, smaller" });
    expect(rerun.structuredContent).toMatchObject({ id: job.id, status: "active", source: job.source });
    expect(firstText(rerun)).toMatch(/^Sent; a new run starts\./);
    const messages = await t.store.db.query<{ prompt: string; source: string }>(`SELECT prompt, source FROM job_messages WHERE job_id = $1 ORDER BY seq`, [job.id]);
    expect(messages.map((m) => [m.prompt, m.source])).toEqual([
      ["Add a page about webhooks", "api"],
      ["Also link it from the guides", "api"],
      ["Try again, smaller", "api"],
    ]);
    await drainTasks(t);
    expect((await callTool(client, "get_job", { id: job.id })).structuredContent).toEqual((await rest(`/v2/agent/${project.projectId}/job/${job.id}`)).body);
  });

  it("lists jobs as the REST list does, filtered and paged", async () => {
    await drainTasks(t);
    await callTool(client, "create_job", { prompt: "One more" });
    const listed = await callTool(client, "list_jobs", { status: "active", limit: 1 });
    const viaRest = await rest(`/v2/agent/${project.projectId}/jobs?status=active&limit=1`);
    expect(listed.structuredContent).toEqual(viaRest.body);
    expect(listed.structuredContent.jobs).toHaveLength(1);
    expect(firstText(listed)).toBe("1 job active from offset 0; more follow.");
  });

  it("returns the same job for the same idempotencyKey, and refuses the key with another prompt", async () => {
    const first = await callTool(client, "create_job", { prompt: "Fix the typos", idempotencyKey: "mcp-retry-1" });
    const again = await callTool(client, "create_job", { prompt: "Fix the typos", idempotencyKey: "mcp-retry-1" });
    expect(again.structuredContent.id).toBe(first.structuredContent.id);
    expect(firstText(again)).toMatch(/^Already created with this idempotencyKey/);
    const other = await callTool(client, "create_job", { prompt: "Something else", idempotencyKey: "mcp-retry-1" });
    expect(other.isError).toBe(true);
    expect(firstText(other)).toMatch(/^idempotencyKey was already used for a job with a different prompt/);
  });

  it.each([
    ["create_job", {}, /prompt/],
    ["create_job", { prompt: "   " }, /prompt/],
    ["create_job", { prompt: "x".repeat(32_001) }, /prompt/],
    ["create_job", { prompt: "Hi", promt: "typo" }, /promt: unknown argument; did you mean 'prompt'\?/],
    ["create_job", { prompt: "Hi", labels: "docs" }, /labels/],
    ["create_job", { prompt: "Hi", idempotencyKey: "with space" }, /idempotencyKey/],
    ["get_job", {}, /id/],
    ["get_job", { id: "no such job" }, /Job not found/],
    ["send_message", { id: "nosuchjob0000000000" }, /prompt/],
    ["list_jobs", { limit: 0 }, /limit: must be an integer between 1 and 100/],
    ["list_jobs", { status: "done" }, /status/],
    ["list_jobs", { trigger: "api" }, /trigger: unknown argument/],
    ["get_visitors", { dateFrom: "yesterday" }, /dateFrom/],
    ["get_visitors", { dateFrom: "2026-02-01", dateTo: "2026-01-01" }, /dateFrom: must not be after dateTo/],
    ["get_visitors", { limit: 251 }, /limit/],
    ["get_visitors", { compare: "previous" }, /compare: unknown argument/],
    ["get_ai_agents", { offset: -1 }, /offset/],
    ["get_ai_agents", { pathPrefix: "/docs" }, /pathPrefix: unknown argument/],
  ])("%s %j is a tool error that names the problem, not a server error", async (tool, args, message) => {
    const result = await callTool(client, tool, args);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(message);
  });

  it("an unknown tool is a protocol error that lists the tools", async () => {
    await expect(client.callTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(/Unknown tool delete_everything: Inkwell has create_job, get_job/);
  });

  it("counts against the project's rate limit like REST, and says when to retry", async () => {
    const limited = await t.newProject(undefined, { rateLimitPerHour: 2 });
    const mcp = await connect(limited.key);
    for (const prompt of ["one", "two"]) expect((await callTool(mcp, "create_job", { prompt })).isError).toBeFalsy();
    const third = await callTool(mcp, "create_job", { prompt: "three" });
    expect(third.isError).toBe(true);
    expect(firstText(third)).toMatch(/rate limit.*\(retry in \d+ s\)$/i);
    expect((await t.call("POST", `/v2/agent/${limited.projectId}/job`, { token: limited.key, body: { prompt: "four" } })).status).toBe(429);
  });

  it("reads the visitors and AI agents reports exactly as REST answers them", async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    const hits = [
      { timestamp: at, path: "/guides/install", ip: "198.51.100.7", userAgent: CHROME },
      { timestamp: at, path: "/guides/install", ip: "198.51.100.8", userAgent: CHROME },
      { timestamp: at, path: "/reference/api", ip: "198.51.100.7", userAgent: CHROME },
      { timestamp: at, path: "/guides/install", ip: "20.171.207.1", userAgent: GPTBOT },
    ];
    expect((await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits } })).body.accepted).toBe(4);
    const settled = async (path: string) => {
      for (;;) {
        const answer = await rest(path);
        if (answer.headers.get("inkwell-counting") !== "pending") return answer.body;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const visitorsRest = await settled(`/v1/analytics/${project.projectId}/visitors?pathPrefix=/guides&limit=10`);
    const visitors = await callTool(client, "get_visitors", { pathPrefix: "/guides", limit: 10 });
    expect(visitors.structuredContent).toEqual(visitorsRest);
    expect(visitors.structuredContent.totals).toEqual({ human: 2, ai: 1, bot: 0, total: 3 });
    expect(firstText(visitors)).toBe("2 human and 1 AI visitors (3 unique) over all time under /guides; 1 page listed.");

    const day = at.slice(0, 10);
    const agentsRest = await settled(`/v1/analytics/${project.projectId}/agents?dateFrom=${day}`);
    const agents = await callTool(client, "get_ai_agents", { dateFrom: day });
    expect(agents.structuredContent).toEqual(agentsRest);
    expect(agents.structuredContent.agents.map((a: { agent: string }) => a.agent)).toEqual(["GPTBot"]);
    expect(firstText(agents)).toMatch(/^1 AI agent, views: GPTBot 1 from \d{4}-\d{2}-\d{2} to now/);
  });
});

describe("MCP at /mcp: who may call it", () => {
  it("refuses a missing, malformed or unknown key with 401 and a Bearer challenge", async () => {
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    for (const authorization of [undefined, "Basic abc", "Bearer ink_nope", `Bearer ${ADMIN_TOKEN}`]) {
      const answer = await rawPost(initialize, authorization ? { Authorization: authorization } : {});
      expect(answer.status, authorization).toBe(401);
      expect(answer.headers.get("www-authenticate"), authorization).toMatch(/^Bearer/);
      expect(((await answer.json()) as { error: string }).error).toMatch(/API key/);
    }
    await expect(connectMcp(t.url, undefined)).rejects.toMatchObject({ code: 401, message: expect.stringContaining("Missing or invalid API key") });
  });

  it("puts what to do in the 401's challenge, as MCP clients read it: invalid_token, its description, and where the resource's metadata is", async () => {
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const wrong = await rawPost(list, { Authorization: "Bearer ink_nope" });
    expect(wrong.status).toBe(401);
    const challenge = wrong.headers.get("www-authenticate")!;
    expect(challenge).toBe(
      `Bearer realm="inkwell", error="invalid_token", error_description="Missing or invalid API key: send 'Authorization: Bearer ink_...' with an active key of this project. ` +
        `Send a project API key (the dashboard's API keys page makes one) or an OAuth access token from this server (a client that speaks MCP's authorization finds how in the resource metadata)", resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    // Read with the official SDK's own parser, as its transport does on a 401.
    expect(extractWWWAuthenticateParams(wrong)).toEqual({ resourceMetadataUrl: new URL(`${t.url}/.well-known/oauth-protected-resource/mcp`), scope: undefined, error: "invalid_token" });
    expect(((await wrong.json()) as { error: string }).error).toMatch(/^Missing or invalid API key: .* or an OAuth access token from this server/);
    // No key at all: no error code (RFC 6750, 3.1), the same description and metadata.
    const none = await rawPost(list);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer realm="inkwell", error_description="Missing or invalid API key: [^"]+", resource_metadata="[^"]+"$/);
    expect(extractWWWAuthenticateParams(none).error).toBeUndefined();
  });

  it("serves RFC 9728 metadata that a client accepts, naming this server as the MCP endpoint's authorization server (keys still work)", async () => {
    // The SDK's discovery: the path-aware address first, checked against its schema.
    const metadata = await discoverOAuthProtectedResourceMetadata(`${t.url}/mcp`);
    expect(metadata).toEqual({
      resource: `${t.url}/mcp`,
      resource_name: "Inkwell",
      authorization_servers: [t.url],
      scopes_supported: ["views", "analytics", "jobs"],
      bearer_methods_supported: ["header"],
      resource_documentation: `${t.url}/dashboard`,
      inkwell_authentication: expect.stringMatching(/^Send an OAuth access token from this server's authorization server, or a project API key as 'Authorization: Bearer ink_\.\.\.'/),
    });
    // The root document describes the whole server, whose REST API takes keys only; a browser client on any origin may read it.
    const root = await fetch(`${t.url}/.well-known/oauth-protected-resource`, { headers: { Origin: "http://localhost:6274" } });
    expect(root.status).toBe(200);
    expect(root.headers.get("access-control-allow-origin")).toBe("*");
    const rootMetadata: any = await root.json();
    expect(rootMetadata).toMatchObject({ resource: t.url, bearer_methods_supported: ["header"] });
    expect(rootMetadata.authorization_servers).toBeUndefined();
    expect((await fetch(`${t.url}/.well-known/oauth-protected-resource/mcp`, { method: "POST" })).status).toBe(405);
  });

  it("refuses a key from its next request once it is revoked, in the middle of a session", async () => {
    const spare = await t.call("POST", `/admin/projects/${project.projectId}/keys`, { token: ADMIN_TOKEN, body: { name: "mcp" } });
    const mcp = await connect(spare.body.key);
    expect((await callTool(mcp, "list_jobs")).isError).toBeFalsy();
    expect((await t.call("DELETE", `/admin/projects/${project.projectId}/keys/${spare.body.id}`, { token: ADMIN_TOKEN })).status).toBe(200);
    await expect(callTool(mcp, "list_jobs")).rejects.toMatchObject({ code: 401 });
  });

  it("never reaches another project's job: not found, as if it did not exist", async () => {
    const other = await t.newProject("acme/secret");
    const secret = await t.call("POST", `/v2/agent/${other.projectId}/job`, { token: other.key, body: { prompt: "Secret plans" } });
    for (const [tool, args] of [
      ["get_job", { id: secret.body.id }],
      ["send_message", { id: secret.body.id, prompt: "leak" }],
      ["cancel_job", { id: secret.body.id }],
    ] as const) {
      const result = await callTool(client, tool, args);
      expect(result.isError, tool).toBe(true);
      expect(firstText(result), tool).toBe("Job not found");
      expect(JSON.stringify(result), tool).not.toContain("Secret plans");
    }
    const listed = await callTool(client, "list_jobs", { limit: 100 });
    expect(listed.structuredContent.jobs.map((j: { id: string }) => j.id)).not.toContain(secret.body.id);
    const messages = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM job_messages WHERE job_id = $1`, [secret.body.id]);
    expect(messages[0]?.n).toBe(1);
  });

  it("serves several sessions at once, each on its own key's project", async () => {
    const a = await t.newProject("acme/alpha");
    const b = await t.newProject("acme/beta");
    const [clientA, clientB] = await Promise.all([connect(a.key), connect(b.key)]);
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) => callTool(i % 2 === 0 ? clientA! : clientB!, "create_job", { prompt: `Job ${i}` })),
    );
    expect(created.every((result) => !result.isError)).toBe(true);
    const [listA, listB] = await Promise.all([callTool(clientA!, "list_jobs", { limit: 100 }), callTool(clientB!, "list_jobs", { limit: 100 })]);
    expect(listA.structuredContent.jobs.map((j: { source: { repository: string } }) => j.source.repository)).toEqual(Array(3).fill("https://github.com/acme/alpha"));
    expect(listB.structuredContent.jobs.map((j: { source: { repository: string } }) => j.source.repository)).toEqual(Array(3).fill("https://github.com/acme/beta"));
  });

  it("checks Origin against DNS rebinding: this machine's and PUBLIC_URL's pass, another site's is refused", async () => {
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const auth = { Authorization: `Bearer ${project.key}`, "MCP-Protocol-Version": LATEST_PROTOCOL_VERSION };
    const refused = await rawPost(list, { ...auth, Origin: "http://evil.example" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/Origin http:\/\/evil\.example may not call \/mcp.*INKWELL_MCP_ALLOWED_ORIGINS/);
    const local = await rawPost(list, { ...auth, Origin: "http://localhost:6274" });
    expect(local.status).toBe(200);
    expect(local.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    // A refused origin learns nothing, not even whether its key is good.
    expect((await rawPost(list, { Origin: "http://evil.example" })).status).toBe(403);
  });

  it("answers a browser's CORS preflight from an allowed origin, and lets it read refusals too", async () => {
    const preflight = await fetch(`${t.url}/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "http://localhost:6274", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toEqual(expect.stringContaining("authorization, content-type, accept, mcp-protocol-version"));
    expect((await fetch(`${t.url}/mcp`, { method: "OPTIONS", headers: { Origin: "http://evil.example", "Access-Control-Request-Method": "POST" } })).status).toBe(403);
    const unauthorized = await rawPost({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { Origin: "http://localhost:6274" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    expect(unauthorized.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
  });

  it("takes one message per request: a JSON-RPC batch is refused, and answers carry the API's security headers", async () => {
    const auth = { Authorization: `Bearer ${project.key}` };
    const batch = await rawPost(Array.from({ length: 3 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "list_jobs", arguments: {} } })), auth);
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: string }).error).toMatch(/batches are not accepted/);
    const one = await rawPost({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { ...auth, "MCP-Protocol-Version": LATEST_PROTOCOL_VERSION });
    expect(one.status).toBe(200);
    expect(one.headers.get("x-content-type-options")).toBe("nosniff");
    expect(one.headers.get("cache-control")).toBe("no-store");
  });

  it("reads the body under the API's size limit: not JSON is 400, too large is 413, saying which", async () => {
    const headers = { Authorization: `Bearer ${project.key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const broken = await fetch(`${t.url}/mcp`, { method: "POST", headers, body: "{nope" });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: string }).error).toMatch(/not valid JSON/);
    const huge = await fetch(`${t.url}/mcp`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_job", arguments: { prompt: "x".repeat(t.config.maxBodyBytes) } } }) });
    expect(huge.status).toBe(413);
  });

  it("is stateless: no stream to GET and no session to DELETE (405), and it speaks 2025-06-18 as well as the newest version", async () => {
    for (const method of ["GET", "DELETE"]) {
      const answer = await fetch(`${t.url}/mcp`, { method, headers: { Authorization: `Bearer ${project.key}`, Accept: "text/event-stream" } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get("allow")).toBe("POST");
    }
    for (const version of ["2025-06-18", LATEST_PROTOCOL_VERSION]) {
      const answer = await rawPost(
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
        { Authorization: `Bearer ${project.key}` },
      );
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { result: { protocolVersion: string; serverInfo: { name: string }; capabilities: { tools?: object } } };
      expect(body.result).toMatchObject({ protocolVersion: version, serverInfo: { name: "inkwell" }, capabilities: { tools: {} } });
      expect(answer.headers.get("mcp-session-id")).toBeNull();
    }
  });
});
