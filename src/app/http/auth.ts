import type { IncomingMessage } from "node:http";
import type { ApiKeyVerifier} from "../domain/api-keys.js";
import { bearerToken, safeEqualSecret } from "../domain/api-keys.js";
import { ForbiddenError, UnauthenticatedError } from "../domain/errors.js";
import type { RequestContext } from "./router.js";

/** Authenticates a project API key and checks it belongs to the project in the path (401, then 403). */
async function requireProjectKey(verifier: ApiKeyVerifier, req: IncomingMessage, projectId: string): Promise<void> {
  const identity = await verifier.projectFor(req.headers.authorization);
  if (identity.projectId !== projectId) {
    // The key's own project id is no secret to its holder, and shows a mistyped id at once.
    throw new ForbiddenError(`This API key belongs to project ${identity.projectId}, not ${projectId}: use ${identity.projectId} in the path, or a key of ${projectId}`);
  }
}

/** The `:projectId` of the path, once the request's key is shown to belong to it. */
export async function authorizedProject(verifier: ApiKeyVerifier, ctx: RequestContext): Promise<string> {
  const projectId = ctx.params.projectId ?? "";
  await requireProjectKey(verifier, ctx.req, projectId);
  return projectId;
}

/** Authenticates the operator token of the /admin API. */
export function requireAdmin(req: IncomingMessage, adminToken: string): void {
  const presented = bearerToken(req.headers.authorization);
  if (!presented || !safeEqualSecret(presented, adminToken)) {
    throw new UnauthenticatedError("Missing or invalid operator token: send 'Authorization: Bearer <INKWELL_ADMIN_TOKEN>'", "operator");
  }
}
