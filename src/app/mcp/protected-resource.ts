import type { IncomingMessage, ServerResponse } from "node:http";
import { isSecure, ownOrigin } from "../http-kit/origin.js";
import { bearerToken } from "../domain/api-keys.js";
import type { UnauthenticatedError } from "../domain/errors.js";
import { HttpError } from "../http-kit/http-error.js";
import type { Services } from "../services.js";

// MCP clients meet a 401 by reading WWW-Authenticate and the protected-resource metadata it points
// at (RFC 9728), as MCP's authorization spec has them do, before they try OAuth. Inkwell takes
// project API keys and issues no OAuth tokens: the challenge and the document say so, so a client
// that shows either shows Inkwell's own words (docs/mcp.md, "When a call is refused").

const METADATA_PATH = "/.well-known/oauth-protected-resource";

const NO_OAUTH = "Inkwell issues no OAuth tokens: put the key in this MCP server's headers (the dashboard's API keys page makes one)";

type RawEndpoint = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const originOf = (req: IncomingMessage, services: Services) => ownOrigin(req, services.config.publicUrl, isSecure(req, services.config.publicUrl, services.trustedProxies));

/** RFC 6750's quoted-string values are printable ASCII without `"` or `\`. */
const quotable = (text: string) => text.replace(/…/g, "...").replace(/[^\x20-\x7e]|["\\]/g, "'");

/**
 * The 401 of an MCP request without an accepted key: its message and the challenge carry what to do
 * (RFC 6750: `invalid_token` when a bearer key was sent, no error code when none was), and
 * `resource_metadata` names the document below.
 */
export function mcpUnauthorized(error: UnauthenticatedError, req: IncomingMessage, services: Services, resourcePath: string): HttpError {
  const message = `${error.message}. ${NO_OAUTH}`;
  const challenge = [
    'Bearer realm="inkwell"',
    ...(bearerToken(req.headers.authorization) ? ['error="invalid_token"'] : []),
    `error_description="${quotable(message)}"`,
    `resource_metadata="${originOf(req, services)}${METADATA_PATH}${resourcePath}"`,
  ].join(", ");
  return new HttpError(401, message, undefined, { "WWW-Authenticate": challenge });
}

/** RFC 9728's document for `resource`: no authorization server, keys in the header, where a person gets one. */
export function protectedResourceMetadata(origin: string, resourcePath: string): Record<string, unknown> {
  return {
    resource: `${origin}${resourcePath}`,
    resource_name: "Inkwell",
    bearer_methods_supported: ["header"],
    resource_documentation: `${origin}/dashboard`,
    // RFC 9728 admits parameters of one's own; this one is for the person who reads the document.
    inkwell_authentication: "Send a project API key as 'Authorization: Bearer ink_...'. Inkwell issues no OAuth tokens and names no authorization server; the dashboard's API keys page makes a key.",
  };
}

/**
 * Where a client whose key was refused ends up: finding no authorization server in the metadata, MCP
 * clients fall back to the server's own origin and register there (`POST /register`, MCP 2025-03-26's
 * default), then show the registration's refusal, body included. So that refusal is OAuth's error
 * shape (RFC 7591) with Inkwell's words in it, instead of a bare "No such endpoint".
 */
const registerEndpoint: RawEndpoint = async (_req, res) => {
  const content = JSON.stringify({
    error: "access_denied",
    error_description:
      "Inkwell registers no OAuth clients and issues no OAuth tokens: it takes a project API key as 'Authorization: Bearer ink_…' in this MCP server's headers. " +
      "The key this client sent, if any, was refused: missing, malformed, unknown or revoked (the dashboard's API keys page makes a new one).",
  });
  res.writeHead(404, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(content), "Access-Control-Allow-Origin": "*" });
  res.end(content);
};

/**
 * The metadata at its two addresses: `…/oauth-protected-resource/mcp` for /mcp (RFC 9728 inserts
 * the well-known part before the resource's path), and at the root for the server as a whole, whose
 * API takes the same keys; and the registration fallback above. Public and the same for everyone,
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
  return { [METADATA_PATH]: endpoint(""), [`${METADATA_PATH}${resourcePath}`]: endpoint(resourcePath), "/register": registerEndpoint };
}
