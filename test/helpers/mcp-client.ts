import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The official SDK's client over Streamable HTTP, with an `ink_` key, as Claude Code or Cursor would connect. */
export async function connectMcp(baseUrl: string, key: string | undefined, options: { fetch?: typeof fetch } = {}): Promise<Client> {
  const client = new Client({ name: "inkwell-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), {
    requestInit: { headers: key ? { Authorization: `Bearer ${key}` } : {} },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  await client.connect(transport);
  return client;
}

/** A tool's result, typed for assertions. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { structuredContent?: any }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a result's first content block (its one line, or the error message). */
export const firstText = (result: CallToolResult) => (result.content[0]?.type === "text" ? result.content[0].text : "");
