import { describe, expect, it } from "vitest";
import type { KeyIdentity } from "../../../../src/app/domain/api-keys.js";
import { MissingScopeError } from "../../../../src/app/domain/errors.js";
import { buildOpenApiDocument } from "../../../../src/app/http/openapi.js";
import { ROUTE_SCOPES, routeScope } from "../../../../src/app/http/route-scopes.js";
import { Router } from "../../../../src/app/http-kit/router.js";
import { registerAdminAutomationRoutes } from "../../../../src/app/http/routes/admin-automations.js";
import { registerAdminWebhookRoutes } from "../../../../src/app/http/routes/admin-webhooks.js";
import { registerAdminRoutes } from "../../../../src/app/http/routes/admin.js";
import { registerAgentJobRoutes } from "../../../../src/app/http/routes/agent-jobs.js";
import { registerAnalyticsTrendRoutes } from "../../../../src/app/http/routes/analytics-trends.js";
import { registerAnalyticsRoutes } from "../../../../src/app/http/routes/analytics.js";
import { registerJobImpactRoutes } from "../../../../src/app/http/routes/job-impact.js";
import { registerMetaRoutes } from "../../../../src/app/http/routes/meta.js";
import { registerRunnerRoutes } from "../../../../src/app/http/routes/runner.js";
import type { Services } from "../../../../src/app/services.js";
import { MCP_TOOLS } from "../../../../src/app/mcp/mcp-server.js";
import { NEEDED_SCOPES, type KeyScope, type NeededScope } from "../../../../src/shared/key-scopes.js";

/** Anything a route module reads while registering: its handlers are only called through `verifier`. */
const anything: any = new Proxy(() => undefined, { get: (_, name) => (name === "then" ? undefined : anything), apply: () => anything });

/** The API's routes (the dashboard's take sessions, never keys), over services whose key verifier says `identity`. */
function apiRouter(identity: KeyIdentity): Router {
  const verifier = { projectFor: async () => identity, forget: () => undefined };
  const services = new Proxy({ verifier }, { get: (target, name) => (name === "verifier" ? target.verifier : anything) }) as unknown as Services;
  const router = new Router();
  registerMetaRoutes(router, services, "0.0.0");
  registerAdminRoutes(router, services);
  registerAdminWebhookRoutes(router, services);
  registerAdminAutomationRoutes(router, services);
  registerAgentJobRoutes(router, services);
  registerJobImpactRoutes(router, services);
  registerRunnerRoutes(router, services, "0.0.0");
  registerAnalyticsRoutes(router, services);
  registerAnalyticsTrendRoutes(router, services);
  return router;
}

/** Routes under a project's path that take no key: the beacon answers pages of the project's allowed origins. */
const KEYLESS = new Set(["OPTIONS /v1/analytics/:projectId/events", "POST /v1/analytics/:projectId/events"]);

const routed = apiRouter({ projectId: "p1", keyId: "k1", scopes: ["all"] }).list().map(({ method, pattern }) => `${method} ${pattern}`);
const pathOf = (pattern: string) => pattern.replace(":projectId", "p1").replace(":attempt", "1").replace(/:\w+/g, "abc123");
/** A key that holds every scope but `needed`. */
const allBut = (needed: NeededScope): KeyScope[] => NEEDED_SCOPES.filter((scope) => scope !== needed);

describe("key scopes of the routes (http/route-scopes.ts)", () => {
  it("every route under a project's path that takes a key has a scope, and every scope names a route", () => {
    const keyed = routed.filter((route) => route.includes("/:projectId") && !KEYLESS.has(route));
    expect(keyed.length).toBeGreaterThan(15);
    expect(keyed.filter((route) => !ROUTE_SCOPES[route])).toEqual([]);
    expect(Object.keys(ROUTE_SCOPES).filter((route) => !routed.includes(route))).toEqual([]);
    for (const route of Object.keys(ROUTE_SCOPES)) expect(NEEDED_SCOPES, route).toContain(ROUTE_SCOPES[route]?.scope);
  });

  it("a HEAD needs what its GET needs; a route missing from the table has no scope", () => {
    expect(routeScope("HEAD", "/v1/analytics/:projectId/visitors")?.scope).toBe("analytics");
    expect(routeScope("POST", "/v1/analytics/:projectId/hits")?.scope).toBe("views");
    expect(routeScope("DELETE", "/v1/analytics/:projectId/hits")).toBeUndefined();
  });

  it.each(Object.entries(ROUTE_SCOPES))("%s refuses a key with every other scope, naming the one it needs, before anything else", async (route, { scope }) => {
    const [method, pattern] = route.split(" ") as [string, string];
    const match = apiRouter({ projectId: "p1", keyId: "k1", scopes: allBut(scope) }).match(method, pathOf(pattern));
    expect(match?.route).toBe(pattern);
    const req = { method, headers: { authorization: "Bearer ink_x" } };
    const refusal = await match?.handler({ req: req as never, url: new URL(`http://x${pathOf(pattern)}`), params: match.params, route: match.route }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MissingScopeError);
    expect((refusal as MissingScopeError).scope).toBe(scope);
    expect((refusal as Error).message).toContain(`needs the ${scope} scope`);
  });

  it("the OpenAPI document's security of each key operation is the scope the table gives its route", () => {
    const doc = buildOpenApiDocument("0.0.0") as { paths: Record<string, Record<string, { security: Record<string, string[]>[]; responses: Record<number, { description: string }> }>> };
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => (op.security.some((s) => s.projectKey) ? [[`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`, op] as const] : [])),
    );
    expect(documented.map(([route]) => route).sort()).toEqual(Object.keys(ROUTE_SCOPES).sort());
    for (const [route, op] of documented) {
      expect(op.security, route).toEqual([{ projectKey: [ROUTE_SCOPES[route]?.scope] }]);
      expect(op.responses[403]?.description, route).toContain(`\`${ROUTE_SCOPES[route]?.scope}\` scope`);
    }
  });

  it("every MCP tool needs the scope its REST route needs", () => {
    const routeOfTool: Record<string, string> = {
      create_job: "POST /v2/agent/:projectId/job",
      get_job: "GET /v2/agent/:projectId/job/:id",
      send_message: "POST /v2/agent/:projectId/job/:id/message",
      list_jobs: "GET /v2/agent/:projectId/jobs",
      cancel_job: "POST /v2/agent/:projectId/job/:id/cancel",
      approve_plan: "POST /v2/agent/:projectId/job/:id/approve",
      get_job_impact: "GET /v2/agent/:projectId/job/:id/impact",
      get_visitors: "GET /v1/analytics/:projectId/visitors",
      get_ai_agents: "GET /v1/analytics/:projectId/agents",
    };
    expect(MCP_TOOLS.map((tool) => tool.name).sort()).toEqual(Object.keys(routeOfTool).sort());
    for (const tool of MCP_TOOLS) expect(tool.scope, tool.name).toBe(ROUTE_SCOPES[routeOfTool[tool.name] as string]?.scope);
  });
});
