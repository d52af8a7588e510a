import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dispatcher } from "../../src/app/dispatch/dispatcher.js";
import { fakeGitHubApp, isolateGitHub } from "../helpers/github.js";
import { callTool, connectMcp, firstText } from "../helpers/mcp-client.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

// /mcp on a server set up for production: PUBLIC_URL names it and it has a GitHub App. (mcp.test.ts
// covers a bare local server.)

const PUBLIC_URL = "https://inkwell.example.com";
const dispatcher: Dispatcher = { dispatch: async () => ({ ok: true }) };

let t: TestServer;
let client: Client;

beforeAll(async () => {
  isolateGitHub();
  t = await startTestServer({ env: { PUBLIC_URL }, github: fakeGitHubApp(), dispatcher });
  client = await connectMcp(t.url, (await t.newProject("acme/handbook")).key);
});
afterAll(async () => {
  await client.close();
  await t.close();
});

describe("MCP behind PUBLIC_URL, with a GitHub App", () => {
  it("names the resource and its metadata by PUBLIC_URL, whatever Host the request came with", async () => {
    const refused = await fetch(`${t.url}/mcp`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer ink_nope" }, body: "{}" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(new RegExp(`, resource_metadata="${PUBLIC_URL}/\\.well-known/oauth-protected-resource/mcp"$`));
    const metadata = await (await fetch(`${t.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({ resource: `${PUBLIC_URL}/mcp`, resource_documentation: `${PUBLIC_URL}/dashboard` });
  });

  it("creates a job without a warning: the App can run it", async () => {
    const created = await callTool(client, "create_job", { prompt: "Add a page about webhooks" });
    expect(created.isError).toBeFalsy();
    expect(firstText(created)).toMatch(/^Created\. Job \S+ is active \(acme\/handbook on inkwell\/\S+\); no pull request yet\.$/);
  });
});
