import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { readJson } from "../http-kit/body.js";
import { HttpError } from "../http-kit/http-error.js";
import type { Services } from "../services.js";
import { UnauthenticatedError } from "../domain/errors.js";
import { buildMcpServer } from "./mcp-server.js";
import { mcpUnauthorized } from "./protected-resource.js";
import { bearerToken } from "../domain/api-keys.js";
import { grantForAccessToken, isAccessToken, touchGrant } from "../domain/oauth-grants.js";
import type { KeyScope } from "../../shared/key-scopes.js";
import { mcpResource } from "./oauth/provider.js";

export const MCP_PATH = "/mcp";

/** What a browser may send on a POST to /mcp (CORS preflight). */
const PREFLIGHT_HEADERS = "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The origins a browser-borne request to /mcp may come from: this server's own (PUBLIC_URL), this
 * machine's, and those the operator names (INKWELL_MCP_ALLOWED_ORIGINS). MCP's Streamable HTTP
 * transport asks servers to check Origin against DNS rebinding: a page on evil.example that resolves
 * to this server sends `Origin: http://evil.example`, which is none of these.
 */
export function isAllowedOrigin(origin: string, allowed: { publicUrl: string | undefined; origins: readonly string[] }): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTS.has(url.hostname)) return true;
  const own = allowed.publicUrl ? new URL(allowed.publicUrl).origin : null;
  return url.origin === own || allowed.origins.includes(url.origin);
}

/**
 * Who a request to /mcp acts for: an OAuth access token from this server's authorization server
 * (oauth/) stands for its grant, with the grant's project and scopes, when it was issued for this
 * very endpoint (RFC 8707: a token bound to another resource is refused); anything else is taken as
 * a project API key. Both are looked up on every request, so a revocation counts at once everywhere.
 */
async function identify(req: IncomingMessage, services: Services): Promise<{ projectId: string; scopes: readonly KeyScope[]; viaGrant?: boolean }> {
  const token = bearerToken(req.headers.authorization);
  if (token === null || !isAccessToken(token)) return services.verifier.projectFor(req.headers.authorization);
  const grant = await grantForAccessToken(services.db, token);
  if (!grant || grant.resource !== mcpResource(req, services)) {
    throw new UnauthenticatedError("Unknown, expired or revoked access token, or one issued for another resource than this MCP endpoint", "api-key");
  }
  touchGrant(services.db, grant.grantId);
  return { projectId: grant.projectId, scopes: grant.scopes, viaGrant: true };
}

/**
 * `/mcp`: MCP over Streamable HTTP, stateless (docs/mcp.md). Each POST is authenticated with the
 * project's API key like any REST call, or with an OAuth access token (oauth/) and served by a server of its own, so any instance answers
 * any request and a revoked key is refused from its next request. No session, so no GET stream and
 * no DELETE. Throws HttpErrors for the request handler to answer; the SDK answers the rest.
 */
export function createMcpEndpoint(services: Services, version: string): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const log = services.log.child({ component: "mcp" });
  const allowed = { publicUrl: services.config.publicUrl, origins: services.config.mcpAllowedOrigins };
  return async (req, res) => {
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!isAllowedOrigin(origin, allowed)) {
        throw new HttpError(403, `Origin ${origin} may not call ${MCP_PATH}: it is not this server's (PUBLIC_URL) nor this machine's; an operator allows a web client's origin with INKWELL_MCP_ALLOWED_ORIGINS`);
      }
      // A browser client on an allowed origin may read every answer, refusals included.
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
      res.setHeader("Access-Control-Expose-Headers", "WWW-Authenticate, Mcp-Session-Id");
      if (req.method === "OPTIONS") {
        res.writeHead(204, { "Access-Control-Allow-Methods": "POST", "Access-Control-Allow-Headers": PREFLIGHT_HEADERS, "Access-Control-Max-Age": "86400" });
        res.end();
        return;
      }
    }
    if (req.method !== "POST") {
      throw new HttpError(405, `${MCP_PATH} takes POST (MCP's Streamable HTTP transport, stateless: no session to open a stream on or to delete)`, undefined, { Allow: "POST" });
    }
    const { projectId, scopes, viaGrant } = await identify(req, services).catch((error: unknown) => {
      throw error instanceof UnauthenticatedError ? mcpUnauthorized(error, req, services, MCP_PATH) : error;
    });
    // Read here, under the API's body limit, and handed over parsed (the SDK would otherwise read it again as a web stream).
    const body = await readJson(req, services.config.maxBodyBytes);
    if (Array.isArray(body)) {
      // One HTTP request, one message: a batch would start many queries at once (and MCP 2025-06-18 dropped batches).
      throw new HttpError(400, "JSON-RPC batches are not accepted here: send one message per request");
    }
    const server = buildMcpServer({ projectId, scopes, services, viaGrant: viaGrant === true }, version, log);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
}
