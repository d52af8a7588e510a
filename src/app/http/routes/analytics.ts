import { OPERATOR_COLUMNS, operatorRatios } from "../../analytics/reports/operator-ratios.js";
import { agentNameSchema, agentPagesQuerySchema, operatorRatiosQuerySchema, beaconEventSchema, failuresQuerySchema, hitBatchSchema, hitSchema } from "../../../shared/analytics-schemas.js";
import { agentsQuerySchema, viewsQuerySchema, visitorsQuerySchema } from "../../../shared/analytics-trend-schemas.js";
import { describeIssues } from "../../../shared/zod-issues.js";
import { BEACON_SCRIPT } from "../../analytics/ingest/beacon-script.js";
import type { PageView } from "../../analytics/ingest/ingest.js";
import { signedRequestOf } from "../../analytics/classify/web-bot-auth.js";
import { referrerHost } from "../../analytics/ingest/referral.js";
import { dayRange, rangeCsvFilename } from "../../analytics/day-range.js";
import { DEFAULT_ORDER, visitorRows } from "../../analytics/reports/visitors-report.js";
import { viewRows } from "../../analytics/reports/views-report.js";
import { COMPARED_PAGE_COUNT_COLUMNS, PAGE_COUNT_COLUMNS } from "../../analytics/reports/report-rows.js";
import { AGENT_COLUMNS, AGENT_PAGE_COLUMNS, agentIdByName, agentPageRows, agentRows, COMPARED_AGENT_COLUMNS, FAILURE_COLUMNS, failureRows } from "../../analytics/reports/agent-reports.js";
import { notFound } from "../../domain/errors.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import type { Db, Queryable } from "../../store/db.js";
import { comparedHeaderPattern, csvHeader, csvReply, requestedPage, wantsCsv, type CsvColumns } from "../../http-kit/csv.js";
import { HttpError } from "../../http-kit/http-error.js";
import { authorizedProject } from "../auth.js";
import { queryObject, readJson, validate } from "../../http-kit/body.js";
import { clientIp } from "../../http-kit/client-ip.js";
import { reportHeaders } from "../../http-kit/counting-header.js";
import type { Reply, RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";
import { BODY_LIMITS } from "../body-limits.js";


/** Analytics (docs/architecture.md, "Analytics"): the beacon script and endpoint, the server-side batch, the exports. */
export function registerAnalyticsRoutes(router: Router, services: Services): void {
  const { analytics, verifier, trustedProxies } = services;

  const authorize = (ctx: RequestContext) => authorizedProject(verifier, ctx);

  /** A report's CSV (http-kit/csv.ts): every row of the range in the report's order, or the page the query names, read in batches. */
  const csvExport = async <Row>(ctx: RequestContext, report: string, projectId: string, query: RangeQuery, columns: CsvColumns<Row>, read: (db: Db) => AsyncIterable<Row> | Promise<AsyncIterable<Row>>): Promise<Reply> => {
    const { rows, pending } = await analytics.freshRows(read);
    return csvReply(rows, columns, { filename: rangeCsvFilename(report, projectId, query), page: requestedPage(ctx.url, query), headers: reportHeaders(pending) });
  };

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
    const event = validate(beaconEventSchema, await readJson(ctx.req, BODY_LIMITS.beacon), "body");
    const ip = clientIp(ctx.req, trustedProxies);
    if (!ip) throw new HttpError(400, "The client address could not be determined (malformed X-Forwarded-For from a trusted proxy)");
    const view: PageView = {
      at: Date.now(),
      path: event.path,
      ip,
      userAgent: headerText(ctx.req.headers["user-agent"]),
      accept: headerText(ctx.req.headers.accept),
      referrer: event.referrer,
      siteHost: referrerHost(ctx.req.headers.origin ?? "") ?? undefined,
    };
    const result = await analytics.ingest(projectId, [{ index: 0, view }]);
    const problem = result.rejected[0];
    if (problem) throw new HttpError(400, `Invalid page view: ${problem.error}`, [{ message: problem.error }], cors);
    return { status: 202, body: { accepted: result.accepted }, headers: cors };
  });

  router.on("POST", "/v1/analytics/:projectId/hits", async (ctx) => {
    const projectId = await authorize(ctx);
    const { hits } = validate(hitBatchSchema, await readJson(ctx.req, BODY_LIMITS.hits, { itemsAlone: "hits" }), "body");
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
    if (wantsCsv(ctx.req, query.output)) return csvExport(ctx, "visitors", projectId, query, pageColumns(query), (db) => visitorRows(db, projectId, dayRange(query), DEFAULT_ORDER, query));
    const { report, pending } = await analytics.visitors(projectId, dayRange(query), query, query);
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/views", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(viewsQuerySchema, queryObject(ctx.url), "query");
    if (wantsCsv(ctx.req, query.output)) return csvExport(ctx, "views", projectId, query, pageColumns(query), (db) => viewRows(db, projectId, dayRange(query), query));
    const { report, pending } = await analytics.views(projectId, dayRange(query), query, query);
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/agents", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(agentsQuerySchema, queryObject(ctx.url), "query");
    if (wantsCsv(ctx.req, query.output)) return csvExport(ctx, "agents", projectId, query, query.compare ? COMPARED_AGENT_COLUMNS : AGENT_COLUMNS, (db) => agentRows(db, projectId, dayRange(query), query));
    const { report, pending } = await analytics.agents(projectId, dayRange(query), query, query);
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/agents/operators", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(operatorRatiosQuerySchema, queryObject(ctx.url), "query");
    if (wantsCsv(ctx.req, query.output)) return csvExport(ctx, "agent-operators", projectId, query, OPERATOR_COLUMNS, async function* (db) {
      yield* await operatorRatios(db, projectId, dayRange(query));
    });
    const { report, pending } = await analytics.fresh(async (db) => {
      const operators = await operatorRatios(db, projectId, dayRange(query));
      return { operators: operators.slice(query.offset, query.offset + query.limit), hasMore: operators.length > query.offset + query.limit };
    });
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/agents/:agent/pages", async (ctx) => {
    const projectId = await authorize(ctx);
    // A name no agent can have (too long, a NUL) names no agent: 404 like an unknown one.
    const agent = agentNameSchema.safeParse(ctx.params.agent);
    if (!agent.success) throw new HttpError(404, "Agent not found");
    const query = validate(agentPagesQuerySchema, queryObject(ctx.url), "query");
    if (wantsCsv(ctx.req, query.output)) {
      const read = async (db: Db) => agentPageRows(db, projectId, await knownAgentId(db, agent.data), dayRange(query));
      return csvExport(ctx, `agent-${agent.data}-pages`, projectId, query, AGENT_PAGE_COLUMNS, read);
    }
    const { report, pending } = await analytics.agentPages(projectId, agent.data, dayRange(query), query);
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });

  router.on("GET", "/v1/analytics/:projectId/failures", async (ctx) => {
    const projectId = await authorize(ctx);
    const query = validate(failuresQuerySchema, queryObject(ctx.url), "query");
    if (wantsCsv(ctx.req, query.output)) return csvExport(ctx, "failures", projectId, query, FAILURE_COLUMNS, (db) => failureRows(db, projectId, dayRange(query)));
    const { report, pending } = await analytics.failures(projectId, dayRange(query), query);
    return { status: 200, body: report, headers: reportHeaders(pending) };
  });
}

type RangeQuery = { dateFrom?: string | undefined; dateTo?: string | undefined; limit: number; offset: number };

/** A report's answer depends on its Accept header (JSON or CSV). */

const pageColumns = (query: { compare?: "previous" | undefined }) => (query.compare ? COMPARED_PAGE_COUNT_COLUMNS : PAGE_COUNT_COLUMNS);

/** The header line of each report's CSV, for the OpenAPI document. */
export const CSV_HEADERS = {
  visitors: comparedHeaderPattern(PAGE_COUNT_COLUMNS, COMPARED_PAGE_COUNT_COLUMNS),
  views: comparedHeaderPattern(PAGE_COUNT_COLUMNS, COMPARED_PAGE_COUNT_COLUMNS),
  agents: comparedHeaderPattern(AGENT_COLUMNS, COMPARED_AGENT_COLUMNS),
  agentPages: csvHeader(AGENT_PAGE_COLUMNS),
  failures: csvHeader(FAILURE_COLUMNS),
  operators: csvHeader(OPERATOR_COLUMNS),
};

/** The id of the agent of this name; 404 when no view ever claimed it. */
async function knownAgentId(db: Queryable, name: string): Promise<number> {
  const agentId = await agentIdByName(db, name);
  if (agentId === null) throw notFound("Agent");
  return agentId;
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : (value ?? ""));
