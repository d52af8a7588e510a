import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { KeyScope, NeededScope } from "../../shared/key-scopes.js";
import type { JsonSchema } from "../http/openapi-parts.js";
import type { Services } from "../services.js";

/** What a tool runs with: the project of the request's key (never one the arguments name). */
export interface ToolContext {
  projectId: string;
  /** The key's scopes: a tool runs only when they cover its `scope`. */
  scopes: readonly KeyScope[];
  /** The scopes come from an OAuth grant (a hosted assistant's access), not an API key: refusals say so. */
  viaGrant?: boolean;
  services: Services;
}

/** A tool's answer: `body` is exactly the REST API's response body, `text` one line for a person. */
export interface ToolAnswer {
  body: Record<string, unknown>;
  text: string;
}

/**
 * One MCP tool (docs/mcp.md): its input schema is the REST API's, as JSON Schema; `run` validates its
 * arguments with the REST API's own zod schemas and throws the same errors the REST handlers do. No
 * output schema: the REST bodies' schemas are 6 to 9 KB each, which every conversation would carry
 * in its context for a shape /openapi.json already publishes (structuredContent needs none).
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** The key scope it needs, as its REST route's (http/route-scopes.ts). */
  scope: NeededScope;
  inputSchema: JsonSchema & { type: "object" };
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolAnswer>;
}
