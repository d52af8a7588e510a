import {
  MAX_ROBOTS_BYTES,
  robotsChangesSchema,
  robotsComplianceQuerySchema,
  robotsComplianceSchema,
  robotsDisallowedQuerySchema,
  robotsDisallowedSchema,
  robotsOperatorsSchema,
  robotsSourceInputSchema,
  robotsSourceSchema,
  robotsVersionInputSchema,
  robotsVersionSchema,
  robotsVersionsQuerySchema,
  robotsVersionsSchema,
} from "../../shared/robots-schemas.js";
import { ERR, errorResponse, json, jsonOrCsv, operator, pathParam, projectKey, projectParam, queryParameters } from "./openapi-parts.js";
import { ROBOTS_CSV_HEADERS } from "./routes/analytics-robots.js";
import { BODY_LIMITS } from "./body-limits.js";

const rangeReport = (operationId: string, summary: string, description: string, schema: Parameters<typeof jsonOrCsv>[0], csvHeader: string) => ({
  get: {
    operationId,
    summary,
    security: projectKey,
    parameters: [projectParam, ...queryParameters(robotsComplianceQuerySchema)],
    responses: { 200: { description, ...jsonOrCsv(schema, csvHeader) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
  },
});

/** robots.txt history and AI agents' compliance with it (docs/analytics/robots.md). */
export const robotsPaths = () => ({
  "/v1/analytics/{projectId}/robots": rangeReport(
    "getRobotsCompliance",
    "AI agents' views judged against the robots.txt in force at each view's time, over whole UTC days",
    "Per agent: allowed, disallowed, unknown (before any known version) and reads of /robots.txt; most disallowed first, then by name.",
    robotsComplianceSchema,
    ROBOTS_CSV_HEADERS.robots,
  ),
  "/v1/analytics/{projectId}/robots/operators": rangeReport(
    "getRobotsOperators",
    "The robots.txt compliance report per operator",
    "Per operator: its agents' verdicts added up; most disallowed first, then by operator.",
    robotsOperatorsSchema,
    ROBOTS_CSV_HEADERS.operators,
  ),
  "/v1/analytics/{projectId}/robots/disallowed": {
    get: {
      operationId: "getRobotsDisallowed",
      summary: "The pages agents fetched although robots.txt disallowed them, with the rule and the version",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(robotsDisallowedQuerySchema)],
      responses: {
        200: { description: "Per agent, page and version: views, first and last seen; most views first.", ...jsonOrCsv(robotsDisallowedSchema, ROBOTS_CSV_HEADERS.disallowed) },
        400: ERR[400],
        401: ERR[401],
        403: ERR[403],
        404: errorResponse("No view ever claimed an agent of that name."),
      },
    },
  },
  "/v1/analytics/{projectId}/robots/changes": rangeReport(
    "getRobotsChanges",
    "Per robots.txt version, each agent's views under it beside its views under the version before",
    "Versions latest first (paged by version); the CSV has a row per version and agent, the version before in before_ columns.",
    robotsChangesSchema,
    ROBOTS_CSV_HEADERS.changes,
  ),
  "/v1/analytics/{projectId}/robots/versions": {
    get: {
      operationId: "listRobotsVersions",
      summary: "The project's robots.txt versions with their source, the latest first",
      security: projectKey,
      parameters: [projectParam, ...queryParameters(robotsVersionsQuerySchema)],
      responses: { 200: { description: "Versions, latest first.", ...json(robotsVersionsSchema) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
    },
  },
  "/admin/projects/{id}/robots/versions": {
    post: {
      operationId: "addRobotsVersion",
      summary: "Send a robots.txt version (for a robots.txt generated outside the docs repository)",
      security: operator,
      parameters: [pathParam("id", "Project id.")],
      requestBody: {
        required: true,
        description: `JSON of at most ${BODY_LIMITS.robotsVersion / (1024 * 1024)} MiB (or INKWELL_MAX_BODY_BYTES if larger), so a robots.txt of ${MAX_ROBOTS_BYTES / 1024} KiB fits even where JSON escapes every byte; the robots.txt itself at most ${MAX_ROBOTS_BYTES / 1024} KiB of UTF-8. NUL characters in it are dropped.`,
        "x-max-body-bytes": BODY_LIMITS.robotsVersion,
        ...json(robotsVersionInputSchema),
      },
      responses: {
        201: { description: "A new version.", ...json(robotsVersionSchema) },
        200: { description: "The same body as the version in force: nothing new.", ...json(robotsVersionSchema) },
        400: ERR[400],
        401: ERR[401],
        404: ERR[404],
        409: errorResponse("A version takes effect later than effectiveAt: versions are added in time order."),
        413: ERR[413],
      },
    },
  },
  "/admin/projects/{id}/robots/source": {
    get: {
      operationId: "getRobotsSource",
      summary: "Where the project's robots.txt is fetched from, and the latest fetches",
      security: operator,
      parameters: [pathParam("id", "Project id.")],
      responses: { 200: { description: "The setting (null when none) and the latest 20 fetches.", ...json(robotsSourceSchema) }, 401: ERR[401], 404: ERR[404] },
    },
    put: {
      operationId: "setRobotsSource",
      summary: "Fetch the site's robots.txt from a URL on a schedule (public addresses only); the first fetch is due at once",
      security: operator,
      parameters: [pathParam("id", "Project id.")],
      requestBody: { required: true, ...json(robotsSourceInputSchema) },
      responses: { 200: { description: "The setting and the latest fetches.", ...json(robotsSourceSchema) }, 400: ERR[400], 401: ERR[401], 404: ERR[404], 413: ERR[413] },
    },
    delete: {
      operationId: "removeRobotsSource",
      summary: "Stop fetching the site's robots.txt (its versions stay)",
      security: operator,
      parameters: [pathParam("id", "Project id.")],
      responses: { 204: { description: "Removed." }, 401: ERR[401], 404: ERR[404] },
    },
  },
});
