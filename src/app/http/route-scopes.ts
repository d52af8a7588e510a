import type { NeededScope } from "../../shared/key-scopes.js";

interface RouteScope {
  scope: NeededScope;
  /** What the request asks, as the 403 words it: "This API key may not <doing>". */
  doing: string;
}

const jobs = (doing: string): RouteScope => ({ scope: "jobs", doing });
const analytics = (doing: string): RouteScope => ({ scope: "analytics", doing });

/**
 * The one place each route a project key may call says which scope it needs (docs/api.md, "Key
 * scopes"). `authorizedProject` looks the route up here and refuses a route missing from it, so a
 * new route cannot be reached by a key until it is listed; the OpenAPI document's security takes
 * the same scopes from here.
 */
export const ROUTE_SCOPES: Readonly<Record<string, RouteScope>> = {
  "POST /v2/agent/:projectId/job": jobs("create jobs"),
  "GET /v2/agent/:projectId/job/:id": jobs("read jobs"),
  "GET /v2/agent/:projectId/job/:id/events": jobs("read jobs"),
  "POST /v2/agent/:projectId/job/:id/message": jobs("send messages to jobs"),
  "GET /v2/agent/:projectId/job/:id/runs": jobs("read jobs"),
  "GET /v2/agent/:projectId/job/:id/runs/:attempt/transcript": jobs("read jobs"),
  "POST /v2/agent/:projectId/job/:id/cancel": jobs("cancel jobs"),
  "POST /v2/agent/:projectId/job/:id/approve": jobs("approve jobs' plans"),
  "GET /v2/agent/:projectId/jobs": jobs("list jobs"),
  // Reader counts of the pages a job changed: analytics, as in docs/analytics/impact.md.
  "GET /v2/agent/:projectId/job/:id/impact": analytics("read analytics"),
  "GET /v2/agent/:projectId/jobs/impact": analytics("read analytics"),
  "POST /v1/analytics/:projectId/hits": { scope: "views", doing: "send page views" },
  "GET /v1/analytics/:projectId/visitors": analytics("read analytics"),
  "GET /v1/analytics/:projectId/views": analytics("read analytics"),
  "GET /v1/analytics/:projectId/agents": analytics("read analytics"),
  "GET /v1/analytics/:projectId/agents/operators": analytics("read analytics"),
  "GET /v1/analytics/:projectId/agents/:agent/pages": analytics("read analytics"),
  "GET /v1/analytics/:projectId/failures": analytics("read analytics"),
  "GET /v1/analytics/:projectId/timeseries": analytics("read analytics"),
  "GET /v1/analytics/:projectId/referrers": analytics("read analytics"),
  "GET /v1/analytics/:projectId/referrers/pages": analytics("read analytics"),
};

/** The scope a route needs; a HEAD is its GET. Undefined: no key may call it (the caller refuses). */
export function routeScope(method: string, pattern: string): RouteScope | undefined {
  return ROUTE_SCOPES[`${method === "HEAD" ? "GET" : method} ${pattern}`];
}
