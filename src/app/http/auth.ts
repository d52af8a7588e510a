import type { IncomingMessage } from "node:http";
import type { ApiKeyVerifier } from "../domain/api-keys.js";
import { bearerToken, requireScope, safeEqualSecret } from "../domain/api-keys.js";
import { ForbiddenError, UnauthenticatedError } from "../domain/errors.js";
import { routeScope } from "./route-scopes.js";
import type { RequestContext } from "../http-kit/router.js";

/**
 * The `:projectId` of the path, once the request's key is shown to belong to it (401, then 403) and
 * to hold the scope the route needs (route-scopes.ts; 403 naming it).
 */
export async function authorizedProject(verifier: ApiKeyVerifier, ctx: RequestContext): Promise<string> {
  const projectId = ctx.params.projectId ?? "";
  const identity = await verifier.projectFor(ctx.req.headers.authorization);
  if (identity.projectId !== projectId) {
    // The key's own project id is no secret to its holder, and shows a mistyped id at once.
    throw new ForbiddenError(`This API key belongs to project ${identity.projectId}, not ${projectId}: use ${identity.projectId} in the path, or a key of ${projectId}`);
  }
  const needed = routeScope(ctx.req.method ?? "GET", ctx.route);
  // A route left out of the table is a bug; failing closed keeps it from being open to every key.
  if (!needed) throw new Error(`No key scope is declared for ${ctx.req.method} ${ctx.route} (http/route-scopes.ts)`);
  requireScope(identity.scopes, needed.scope, needed.doing);
  return projectId;
}

/** Authenticates the operator token of the /admin API. */
export function requireAdmin(req: IncomingMessage, adminToken: string): void {
  const presented = bearerToken(req.headers.authorization);
  if (!presented || !safeEqualSecret(presented, adminToken)) {
    throw new UnauthenticatedError("Missing or invalid operator token: send 'Authorization: Bearer <INKWELL_ADMIN_TOKEN>'", "operator");
  }
}
