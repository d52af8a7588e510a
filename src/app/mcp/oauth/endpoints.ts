import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { authorizationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/authorize.js";
import { tokenHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/token.js";
import { clientRegistrationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/register.js";
import { revocationHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/revoke.js";
import { NEEDED_SCOPES } from "../../../shared/key-scopes.js";
import { clientIp } from "../../http-kit/client-ip.js";
import { HttpError } from "../../http-kit/http-error.js";
import type { Services } from "../../services.js";
import { InkwellOAuthProvider, requestOrigin } from "./provider.js";

type RawEndpoint = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";
/** The endpoints' paths: the MCP specification's defaults, so clients from before metadata discovery find them too. */
export const OAUTH_PATHS = { authorize: "/authorize", token: "/token", register: "/register", revoke: "/revoke" } as const;

/** RFC 8414's document for this server as the authorization server of its MCP endpoint. */
export function authorizationServerMetadata(origin: string, registration: boolean): Record<string, unknown> {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${origin}${OAUTH_PATHS.token}`,
    ...(registration ? { registration_endpoint: `${origin}${OAUTH_PATHS.register}` } : {}),
    revocation_endpoint: `${origin}${OAUTH_PATHS.revoke}`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    // The consent page's answer carries `iss` (RFC 9207), against mix-up between authorization servers.
    authorization_response_iss_parameter_supported: true,
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [...NEEDED_SCOPES],
    client_id_metadata_document_supported: true,
    service_documentation: `${origin}/dashboard`,
  };
}

/**
 * Inkwell as the OAuth 2.1 authorization server of /mcp (docs/mcp-oauth.md): the MCP SDK's own
 * authorize, token, registration and revocation handlers (Express routers) over
 * InkwellOAuthProvider, each mounted at its exact path beside the router, and the RFC 8414
 * metadata. The SDK's rate limits (in memory, per instance) are keyed by the client's address as
 * the trusted proxies give it, on the two endpoints a stranger can make the server work on: the
 * authorize endpoint (a browser's; it may read a metadata document) at the SDK's 100 per 15
 * minutes, and registration at 300 an hour (a hosted assistant registers from its own few
 * addresses, once per person who connects it). The token and revocation endpoints are not limited:
 * a hosted assistant refreshes every user's tokens from those same few addresses.
 */
export function oauthEndpoints(services: Services): Record<string, RawEndpoint> {
  const provider = new InkwellOAuthProvider(services);
  const app = express();
  app.disable("x-powered-by");
  const byClientAddress = { keyGenerator: (req: express.Request) => clientIp(req, services.trustedProxies) ?? "unknown", validate: false } as const;
  app.use(OAUTH_PATHS.authorize, authorizationHandler({ provider, rateLimit: byClientAddress }));
  app.use(OAUTH_PATHS.token, tokenHandler({ provider, rateLimit: false }));
  app.use(OAUTH_PATHS.revoke, revocationHandler({ provider, rateLimit: false }));
  if (services.config.oauth.registration) {
    app.use(
      OAUTH_PATHS.register,
      clientRegistrationHandler({
        clientsStore: provider.clientsStore,
        clientSecretExpirySeconds: 0,
        rateLimit: { ...byClientAddress, windowMs: 3_600_000, max: 300 },
      }),
    );
  }
  const viaExpress: RawEndpoint = (req, res) =>
    new Promise<void>((resolve, reject) => {
      res.once("close", () => resolve());
      app(req as express.Request, res as express.Response, (error?: unknown) => {
        if (error) reject(asBadRequest(error));
        else reject(new HttpError(404, `No such endpoint: ${req.method} ${req.url}`));
      });
    });
  const metadata: RawEndpoint = async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, `${AUTHORIZATION_SERVER_METADATA_PATH} takes GET`, undefined, { Allow: "GET, HEAD" });
    const content = JSON.stringify(authorizationServerMetadata(requestOrigin(req, services), services.config.oauth.registration));
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(content), "Access-Control-Allow-Origin": "*" });
    res.end(req.method === "HEAD" ? undefined : content);
  };
  return {
    [AUTHORIZATION_SERVER_METADATA_PATH]: metadata,
    [OAUTH_PATHS.authorize]: viaExpress,
    [OAUTH_PATHS.token]: viaExpress,
    [OAUTH_PATHS.revoke]: viaExpress,
    [OAUTH_PATHS.register]: services.config.oauth.registration ? viaExpress : registrationOff,
  };
}

/** POST /register when the operator switched DCR off: OAuth's error shape, saying what works instead. */
const registrationOff: RawEndpoint = async (_req, res) => {
  const content = JSON.stringify({
    error: "invalid_client_metadata",
    error_description:
      "Dynamic Client Registration is switched off on this server (INKWELL_OAUTH_REGISTRATION=false): identify the client by its metadata document (an https client_id), or use a project API key in this MCP server's headers.",
  });
  res.writeHead(403, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(content), "Access-Control-Allow-Origin": "*" });
  res.end(content);
};

/** A body Express could not read (malformed, too large) is the client's mistake. */
function asBadRequest(error: unknown): HttpError {
  const status = (error as { status?: number }).status;
  return new HttpError(typeof status === "number" && status >= 400 && status < 500 ? status : 400, (error as Error).message || "Malformed request");
}
