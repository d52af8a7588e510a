import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { requireScope } from "../domain/api-keys.js";
import { requireGrantedScope } from "../domain/oauth-grants.js";
import { asHttpError } from "../http-kit/error-reply.js";
import { analyticsTools } from "./analytics-tools.js";
import { robotsTools } from "./robots-tools.js";
import { jobTools } from "./job-tools.js";
import { impactTools } from "./impact-tools.js";
import type { McpTool, ToolContext } from "./mcp-tool.js";

export const MCP_TOOLS: readonly McpTool[] = [...jobTools, ...impactTools, ...analyticsTools, ...robotsTools];

// A server is built per request; the validator it would otherwise build each time (an Ajv instance,
// for elicitation, which these tools never use) is made once.
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

const INSTRUCTIONS =
  "Inkwell runs an AI agent on this project's docs repository (create_job, then poll get_job until it is completed, failed or archived; send_message follows up on the same pull request or merge request) and counts the docs' readers, human and AI (get_visitors, get_ai_agents). Every tool acts on the project of the API key this server was added with, and answers with the REST API's response body (its shapes: /openapi.json).";

/**
 * An MCP server (the official SDK's) over the tools, for one request of one project. A tool's failure
 * is its result (`isError`), worded as the REST API words it: a bad argument names the field, a
 * missing job is not found, a rate limit says when to retry. Only an unknown tool is a protocol error.
 */
export function buildMcpServer(ctx: ToolContext, version: string, log: Logger, tools: readonly McpTool[] = MCP_TOOLS): Server {
  const server = new Server({ name: "inkwell", title: "Inkwell", version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: SHARED_VALIDATOR });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, title, description, annotations, inputSchema }) => ({ name, title, description, annotations, inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}: Inkwell has ${tools.map((t) => t.name).join(", ")}`);
    const started = performance.now();
    try {
      if (ctx.viaGrant) requireGrantedScope(ctx.scopes, tool.scope, `call ${tool.name}`);
      else requireScope(ctx.scopes, tool.scope, `call ${tool.name}`);
      const { body, text } = await tool.run(request.params.arguments ?? {}, ctx);
      log.debug({ tool: tool.name, projectId: ctx.projectId, ms: Math.round(performance.now() - started) }, "mcp tool");
      // The line for a person, then the body as JSON for clients that read text only (the spec's advice).
      return { content: [{ type: "text", text }, { type: "text", text: JSON.stringify(body) }], structuredContent: body };
    } catch (error) {
      return toolError(error, tool.name, ctx, log);
    }
  });
  return server;
}

function toolError(error: unknown, tool: string, ctx: ToolContext, log: Logger): CallToolResult {
  const known = asHttpError(error);
  if (!known) {
    log.error({ err: error, tool, projectId: ctx.projectId }, "unexpected error in an MCP tool");
    return { isError: true, content: [{ type: "text", text: `${tool} failed on the server's side; its log has the details` }] };
  }
  const retryAfter = known.headers?.["Retry-After"];
  const text = `${known.message}${retryAfter ? ` (retry in ${String(retryAfter)} s)` : ""}`;
  return { isError: true, content: [{ type: "text", text }] };
}
