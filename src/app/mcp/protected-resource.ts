import type { IncomingMessage, ServerResponse } from "node:http";
import { bearerToken } from "../domain/api-keys.js";
import type { UnauthenticatedError } from "../domain/errors.js";
import { HttpError } from "../http-kit/http-error.js";
import type { Services } from "../services.js";
import { NEEDED_SCOPES } from "../../shared/key-scopes.js";
import { oauthEndpoints } from "./oauth/endpoints.js";
import { requestOrigin } from "./oauth/provider.js";

// MCP clients meet a 401 by reading WWW-Authenticate and the protected-resource metadata it points
// at (RFC 9728), as MCP's authorization spec has them do. The metadata names this same server as
// the authorization server (oauth/endpoints.ts), so a hosted assistant signs the person in through
// OAuth; a client configured with a project API key sends it in the header instead
// (docs/mcp.md, "When a call is refused"; docs/mcp-oauth.md).

const METADATA_PATH = "/.well-known/oauth-protected-resource";

const WAYS_IN = "Send a project API key (the dashboard's API keys page makes one) or an OAuth access token from this server (a client that speaks MCP's authorization finds how in the resource metadata)";

type RawEndpoint = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const originOf = requestOrigin;

/** RFC 6750's quoted-string values are printable ASCII without `"` or `\`. */
const quotable = (text: string) => text.replace(/…/g, "...").replace(/[^\x20-\x7e]|["\\]/g, "'");

/**
 * The 401 of an MCP request without an accepted key: its message and the challenge carry what to do
 * (RFC 6750: `invalid_token` when a bearer key was sent, no error code when none was), and
 * `resource_metadata` names the document below.
 */
export function mcpUnauthorized(error: UnauthenticatedError, req: IncomingMessage, services: Services, resourcePath: string): HttpError {
  const message = `${error.message}. ${WAYS_IN}`;
  const challenge = [
    'Bearer realm="inkwell"',
    ...(bearerToken(req.headers.authorization) ? ['error="invalid_token"'] : []),
    `error_description="${quotable(message)}"`,
    `resource_metadata="${originOf(req, services)}${METADATA_PATH}${resourcePath}"`,
  ].join(", ");
  return new HttpError(401, message, undefined, { "WWW-Authenticate": challenge });
}

/**
 * RFC 9728's document for `resource`: for the MCP endpoint, this server as its authorization server
 * and the scopes a grant may carry; for the server as a whole (`resourcePath` ""), whose REST API
 * takes keys only, no authorization server.
 */
export function protectedResourceMetadata(origin: string, resourcePath: string): Record<string, unknown> {
  const oauth = resourcePath !== "";
  return {
    resource: `${origin}${resourcePath}`,
    resource_name: "Inkwell",
    ...(oauth ? { authorization_servers: [origin], scopes_supported: [...NEEDED_SCOPES] } : {}),
    bearer_methods_supported: ["header"],
    resource_documentation: `${origin}/dashboard`,
    // RFC 9728 admits parameters of one's own; this one is for the person who reads the document.
    inkwell_authentication: oauth
      ? "Send an OAuth access token from this server's authorization server, or a project API key as 'Authorization: Bearer ink_...' (the dashboard's API keys page makes one)."
      : "Send a project API key as 'Authorization: Bearer ink_...'; the dashboard's API keys page makes one. OAuth access tokens are for the MCP endpoint only.",
  };
}

/**
 * The metadata at its two addresses: `…/oauth-protected-resource/mcp` for /mcp (RFC 9728 inserts
 * the well-known part before the resource's path), and at the root for the server as a whole, whose
 * API takes the same keys; and the authorization server's endpoints (oauth/endpoints.ts). Public and the same for everyone,
 * so any origin may read them.
 */
export function protectedResourceEndpoints(services: Services, resourcePath: string): Record<string, RawEndpoint> {
  const endpoint =
    (path: string): RawEndpoint =>
    async (req, res) => {
      if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, `${req.url ?? METADATA_PATH} takes GET`, undefined, { Allow: "GET, HEAD" });
      const content = JSON.stringify(protectedResourceMetadata(originOf(req, services), path));
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(content), "Access-Control-Allow-Origin": "*" });
      res.end(req.method === "HEAD" ? undefined : content);
    };
  return { [METADATA_PATH]: endpoint(""), [`${METADATA_PATH}${resourcePath}`]: endpoint(resourcePath), ...oauthEndpoints(services) };
}
