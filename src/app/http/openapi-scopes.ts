import { KEY_SCOPES, SCOPE_MEANINGS } from "../../shared/key-scopes.js";
import { errorResponse, projectKey } from "./openapi-parts.js";
import { routeScope } from "./route-scopes.js";

/** The project key's security scheme; its scopes are OpenAPI 3.1's role names of a bearer scheme. */
export const projectKeyScheme = {
  type: "http",
  scheme: "bearer",
  description: `A project API key: ink_…. Each key holds scopes chosen when it is created: ${KEY_SCOPES.map((scope) => `\`${scope}\` (${SCOPE_MEANINGS[scope]})`).join(", ")}. Each operation names the scope it needs in its security requirement; a key without it gets 403.`,
};

type Operation = { security?: unknown; responses: Record<number, unknown> };

/**
 * Each operation a project key may call gets the scope it needs (http/route-scopes.ts, the table the
 * server enforces) in its security requirement, and a 403 that says so. An operation secured by a
 * project key with no scope in that table is a bug in the table: the document refuses to build.
 */
export function withKeyScopes<P extends Record<string, Record<string, Operation>>>(paths: P): P {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.security !== projectKey) continue;
      const needed = routeScope(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ":$1"));
      if (!needed) throw new Error(`${method.toUpperCase()} ${path} takes a project key but http/route-scopes.ts gives it no scope`);
      operation.security = [{ projectKey: [needed.scope] }];
      operation.responses[403] = errorResponse(
        `The key belongs to another project, or does not hold the \`${needed.scope}\` scope (nor \`all\`); the message says which, and a missing scope is also \`details: [{field: "scope"}]\`.`,
      );
    }
  }
  return paths;
}
