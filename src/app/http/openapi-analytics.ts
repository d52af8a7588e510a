import {
  agentPagesQuerySchema,
  agentPagesSchema,
  agentsSchema,
  beaconEventSchema,
  failuresQuerySchema,
  failuresSchema,
  hitBatchResultSchema,
  hitBatchSchema,
  operatorRatiosQuerySchema,
  operatorRatiosSchema,
  viewsSchema,
} from "../../shared/analytics-schemas.js";
import {
  agentsQuerySchema,
  referrerPagesQuerySchema,
  referrerPagesSchema,
  referrersQuerySchema,
  referrersSchema,
  timeseriesQuerySchema,
  timeseriesSchema,
  viewsQuerySchema,
  visitorsQuerySchema,
} from "../../shared/analytics-trend-schemas.js";
import { visitorsSchema } from "../../shared/api-schemas.js";
import { ERR, errorResponse, json, jsonOrCsv, plainSchema, projectKey, projectParam, queryParameters } from "./openapi-parts.js";
import { CSV_HEADERS } from "./routes/analytics.js";
import { TREND_CSV_HEADERS } from "./routes/analytics-trends.js";
import { BODY_LIMITS } from "./body-limits.js";

/** The analytics operations of the OpenAPI document: the reports, the hits and beacon endpoints, the beacon script. */
export const analyticsPaths = () => ({
  "/v1/analytics/{projectId}/visitors": {
    get: {
      operationId: "getVisitors",
      summary: "Unique visitors per page, human and AI, over whole UTC days",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(visitorsQuerySchema)],
      responses: { 200: { description: "Counts ordered by total desc, then path asc.", ...jsonOrCsv(visitorsSchema, CSV_HEADERS.visitors) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
    },
  },
  "/v1/analytics/{projectId}/views": {
    get: {
      operationId: "getViews",
      summary: "Content views (page loads) per page, human and AI, over whole UTC days",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(viewsQuerySchema)],
      responses: { 200: { description: "Counts ordered by total desc, then path asc; total = human + ai.", ...jsonOrCsv(viewsSchema, CSV_HEADERS.views) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
    },
  },
  "/v1/analytics/{projectId}/agents": {
    get: {
      operationId: "getAgents",
      summary: "Which AI agents read the project's pages, with how their claims checked out, over whole UTC days",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(agentsQuerySchema)],
      responses: { 200: { description: "Agents ordered by views desc, then name.", ...jsonOrCsv(agentsSchema, CSV_HEADERS.agents) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
    },
  },
  "/v1/analytics/{projectId}/agents/operators": {
    get: {
      operationId: "getAgentOperators",
      summary: "The crawl-to-referral ratio per AI operator: its crawlers' and search bots' views per person its AI answers sent, over whole UTC days",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(operatorRatiosQuerySchema)],
      responses: { 200: { description: "Operators, most crawled first.", ...jsonOrCsv(operatorRatiosSchema, CSV_HEADERS.operators) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
    },
  },
  "/v1/analytics/{projectId}/agents/{agent}/pages": {
    get: {
      operationId: "getAgentPages",
      summary: "What one AI agent read, and how often it got a 4xx/5xx, over whole UTC days",
      security: projectKey,
      parameters: [
        projectParam,
        { name: "agent", in: "path", required: true, description: "The agent's name as the agents report gives it (URL-encoded).", schema: { type: "string", minLength: 1, maxLength: 200 } },
        ...queryParameters(agentPagesQuerySchema),
      ],
      responses: {
        200: { description: "Pages ordered by views desc, then path.", ...jsonOrCsv(agentPagesSchema, CSV_HEADERS.agentPages) },
        400: ERR[400],
        401: ERR[401],
        403: ERR[403],
        404: errorResponse("No view ever claimed an agent of that name."),
      },
    },
  },
  "/v1/analytics/{projectId}/failures": {
    get: {
      operationId: "getFailures",
      summary: "Pages AI agents failed to fetch (4xx/5xx answers), over whole UTC days",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(failuresQuerySchema)],
      responses: { 200: { description: "Failures ordered by views desc, then path and status.", ...jsonOrCsv(failuresSchema, CSV_HEADERS.failures) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
    },
  },
  "/v1/analytics/{projectId}/timeseries": {
    get: {
      operationId: "getTimeseries",
      summary: "Visitors or views per day, week or month: one point per interval, zeros included",
      description:
        "Distinct visitors are counted within each interval, exactly as the visitors export counts a range. The series runs from dateFrom to dateTo (default: the last 30 days, today included); days before the project's first counted day are left out unless they are within 30 days of dateTo, and days after today are left out.",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(timeseriesQuerySchema)],
      responses: {
        200: { description: "The series, in date order.", ...jsonOrCsv(timeseriesSchema, TREND_CSV_HEADERS.timeseries) },
        400: ERR[400],
        401: ERR[401],
        403: ERR[403],
      },
    },
  },
  "/v1/analytics/{projectId}/referrers": {
    get: {
      operationId: "getReferrers",
      summary: "Where people came from: each source (a referrer's host, a utm_source, or direct) with its channel, distinct people and their views",
      description:
        "People's views only (agents do not arrive from anywhere). A referrer on one of the project's allowed origins is a step within the site, not an arrival. Only hosts are kept, never a referrer's path or query. Channels come from Matomo's referrer lists (vendored, dated).",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(referrersQuerySchema)],
      responses: { 200: { description: "Sources ordered by visitors desc, then views desc, then source.", ...jsonOrCsv(referrersSchema, TREND_CSV_HEADERS.referrers) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
    },
  },
  "/v1/analytics/{projectId}/referrers/pages": {
    get: {
      operationId: "getReferrerPages",
      summary: "Per page, the people who arrived on it from a channel (default: from an AI answer) and their views",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(referrerPagesQuerySchema)],
      responses: { 200: { description: "Pages ordered by visitors desc, then views desc, then path.", ...jsonOrCsv(referrerPagesSchema, TREND_CSV_HEADERS.referrerPages) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
    },
  },
  "/v1/analytics/{projectId}/hits": {
    post: {
      operationId: "sendHits",
      summary: "Server-side page views (edge functions, middleware, log shippers): up to 1,000 per request",
      security: projectKey,
      parameters: [projectParam],
      requestBody: { required: true, description: `JSON of at most ${BODY_LIMITS.hits / (1024 * 1024)} MiB.`, "x-max-body-bytes": BODY_LIMITS.hits, ...json(hitBatchSchema) },
      responses: {
        202: { description: "Valid hits are stored durably; invalid ones are listed by index.", ...json(hitBatchResultSchema) },
        400: ERR[400],
        401: ERR[401],
        403: ERR[403],
        413: ERR[413],
      },
    },
  },
  "/v1/analytics/{projectId}/events": {
    post: {
      operationId: "beaconEvent",
      summary: "A page view from the browser beacon (/js/script.js); no key, the page's Origin must be allowed",
      security: [],
      parameters: [projectParam],
      requestBody: { required: true, description: `At most ${BODY_LIMITS.beacon / 1024} KiB.`, "x-max-body-bytes": BODY_LIMITS.beacon, content: { "text/plain": { schema: plainSchema(beaconEventSchema, "input") } } },
      responses: {
        202: { description: "Stored; counted by the next rollup.", content: { "application/json": { schema: { type: "object", properties: { accepted: { type: "integer", minimum: 0 } }, required: ["accepted"] } } } }, 400: ERR[400], 403: errorResponse("The Origin is not one of the project's allowed origins."), 404: ERR[404], 413: ERR[413] },
    },
    options: { operationId: "beaconPreflight", security: [], parameters: [projectParam], responses: { 204: { description: "CORS preflight for an allowed origin." }, 403: ERR[403], 404: ERR[404] } },
  },
  "/js/script.js": {
    get: { operationId: "beaconScript", security: [], responses: { 200: { description: "The cookieless beacon script.", content: { "text/javascript": {} } } } },
  }
});
