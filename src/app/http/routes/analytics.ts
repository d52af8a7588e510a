import {
  agentNameSchema,
  agentPagesQuerySchema,
  agentsQuerySchema,
  beaconEventSchema,
  failuresQuerySchema,
  hitBatchSchema,
  hitSchema,
  viewsQuerySchema,
} from "../../../shared/analytics-schemas.js";
import { parseUtcDay, visitorsQuerySchema } from "../../../shared/api-schemas.js";
import { describeIssues } from "../../../shared/zod-issues.js";
import { BEACON_SCRIPT } from "../../analytics/beacon-script.js";
import { isoToDay } from "../../analytics/days.js";
import type { PageView } from "../../analytics/ingest.js";
import { signedRequestOf } from "../../analytics/web-bot-auth.js";
import type { DayRange } from "../../analytics/reports.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { HttpError } from "../http-error.js";
import { authorizedProject } from "../auth.js";
import { queryObject, readJson, validate } from "../body.js";
import { clientIp } from "../client-ip.js";
import { countingHeader } from "../counting-header.js";
import type { RequestContext, Router } from "../router.js";
import type { Services } from "../services.js";

const MAX_BEACON_BYTES = 4 * 1024;
const MAX_HITS_BODY_BYTES = 4 * 1024 * 1024;

/** Analytics (docs/architecture.md, "Analytics"): the beacon script and endpoint, the server-side batch, the exports. */
export function registerAnalyticsRoutes(router: Router, services: Services): void {
  const { analytics, verifier, trustedProxies } = services;

  const authorize = (ctx: RequestContext) => authorizedProject(verifier, ctx);

  router.on("GET", "/js/script.js", async () => ({
    status: 200,
    raw: { contentType: "text/javascript; charset=utf-8", content: BEACON_SCRIPT },
    headers: { "Cache-Control": "public, max-age=3600", "Cross-Origin-Resource-Policy": "cross-origin" },
  }));

  /** The page's Origin must be one the project allows; answers carry the CORS headers for it. */
  const allowedOrigin = async (ctx: RequestContext) => {
    const projectId = wellFormedIdOf(ctx.params.projectId, "Project");
    const { allowedOrigins } = await analytics.settings(projectId);
    const origin = ctx.req.headers.origin;
    if (!origin || !allowedOrigins.includes(origin.toLowerCase())) {
      throw new HttpError(
        403,
        origin
          ? `Origin ${origin} is not allowed to send page views to this project; add it with: inkwell projects update ${projectId} --allowed-origin ${origin}`
          : "Page views from the beacon must come from a browser page on one of the project's allowed origins (no Origin header)",
      );
    }
    return { projectId, cors: { "Access-Control-Allow-Origin": origin, Vary: "Origin" } };
  };

  router.on("OPTIONS", "/v1/analytics/:projectId/events", async (ctx) => ({
    status: 204,
    headers: {
      ...(await allowedOrigin(ctx)).cors,
      "Access-Control-Allow-Methods": "POST",
      "Access-Control-Allow-Headers": "Content-Type",
      "Access-Control-Max-Age": "86400",
    },
  }));

  router.on("POST", "/v1/analytics/:projectId/events", async (ctx) => {
    const { projectId, cors } = await allowedOrigin(ctx);
    const event = validate(beaconEventSchema, await readJson(ctx.req, MAX_BEACON_BYTES), "body");
    const ip = clientIp(ctx.req, trustedProxies);
    if (!ip) throw new HttpError(400, "The client address could not be determined (malformed X-Forwarded-For from a trusted proxy)");
    const view: PageView = { at: Date.now(), path: event.path, ip, userAgent: headerText(ctx.req.headers["user-agent"]), accept: headerText(ctx.req.headers.accept) };
    const result = await analytics.ingest(projectId, [{ index: 0, view }]);
    const problem = result.rejected[0];
    if (problem) throw new HttpError(400, `Invalid page view: ${problem.error}`, [{ message: problem.error }], cors);
    return { status: 202, body: { accepted: result.accepted }, headers: cors };
  });

  router.on("POST", "/v1/analytics/:projectId/hits", async (ctx) => {
    const projectId = await authorize(ctx);
    const { hits } = validate(hitBatchSchema, await readJson(ctx.req, MAX_HITS_BODY_BYTES), "body");
    const rejected: { index: number; error: string }[] = [];
    const views: { index: number; view: PageView }[] = [];
    hits.forEach((hit, index) => {
      const parsed = hitSchema.safeParse(hit);
      if (parsed.success) views.push({ index, view: { ...parsed.data, at: parsed.data.timestamp, signed: signedRequestOf(parsed.data) } });
      else rejected.push({ index, error: describeIssues(parsed.error, "hit") });
    });
    const result = views.length > 0 ? await analytics.ingest(projectId, views) : { accepted: 0, duplicates: 0, rejected: [] };
    return {
      status: 202,
      body: { accepted: result.accepted, duplicates: result.duplicates, rejected: [...rejected, ...result.rejected].sort((a, b) => a.index - b.index) },
    };
  });

  router.on("GET", "/v1/analytics/:projectId/visitors", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(visitorsQuerySchema, queryObject(ctx.url), "query");
    const { report, pending } = await analytics.visitors(projectId, dayRange(query), query, query.format);
    return { status: 200, body: report, headers: countingHeader(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/views", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(viewsQuerySchema, queryObject(ctx.url), "query");
    const { report, pending } = await analytics.views(projectId, dayRange(query), query, query.format);
    return { status: 200, body: report, headers: countingHeader(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/agents", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(agentsQuerySchema, queryObject(ctx.url), "query");
    const { report, pending } = await analytics.agents(projectId, dayRange(query), query, query.category);
    return { status: 200, body: report, headers: countingHeader(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/agents/:agent/pages", async (ctx) => {
    const projectId = await authorize(ctx);
    // A name no agent can have (too long, a NUL) names no agent: 404 like an unknown one.
    const agent = agentNameSchema.safeParse(ctx.params.agent);
    if (!agent.success) throw new HttpError(404, "Agent not found");
    const query = validate(agentPagesQuerySchema, queryObject(ctx.url), "query");
    const { report, pending } = await analytics.agentPages(projectId, agent.data, dayRange(query), query);
    return { status: 200, body: report, headers: countingHeader(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/failures", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(failuresQuerySchema, queryObject(ctx.url), "query");
    const { report, pending } = await analytics.failures(projectId, dayRange(query), query);
    return { status: 200, body: report, headers: countingHeader(pending) };
  });
}


function dayRange(query: { dateFrom?: string | undefined; dateTo?: string | undefined }): DayRange {
  const day = (value: string | undefined) => (value === undefined ? null : isoToDay(parseUtcDay(value) as string));
  return { from: day(query.dateFrom), to: day(query.dateTo) };
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : (value ?? ""));
