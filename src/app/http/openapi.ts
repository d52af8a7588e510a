import { transcriptSchema } from "../../shared/job-outcome-schemas.js";
import { agentRangeListsSchema, agentRangeRefreshResultsSchema, apiKeySchema, oauthGrantSchema, createdKeySchema, createKeySchema, createProjectSchema, projectSchema, updateProjectSchema } from "../../shared/admin-schemas.js";
import { analyticsPaths } from "./openapi-analytics.js";
import { robotsPaths } from "./openapi-robots.js";
import { automationPaths } from "./openapi-automations.js";
import { gitLabPaths } from "./openapi-gitlab.js";
import { slackPaths } from "./openapi-slack.js";
import { runnerPaths } from "./openapi-runner.js";
import { webhookPaths } from "./openapi-webhooks.js";
import { webhookEvents } from "./openapi-webhook-events.js";
import { projectKeyScheme, withKeyScopes } from "./openapi-scopes.js";
import { impactRankingQuerySchema, impactRankingSchema, jobImpactQuerySchema, jobImpactSchema } from "../../shared/impact-schemas.js";
import { IMPACT_CSV_HEADER, RANKING_CSV_HEADER } from "./routes/job-impact.js";
import { components, ERR, errorResponse, jobParam, json, jsonList, jsonOrCsv, operator, pathParam, plainSchema, projectKey, projectParam, queryParameters } from "./openapi-parts.js";
import {
  agentJobSchema,
  createJobBodySchema,
  idempotencyKeySchema,
  jobEventListSchema,
  jobListQuerySchema,
  jobRunListSchema,
  jobListSchema,
  promptBodySchema,
} from "../../shared/api-schemas.js";

/** The OpenAPI 3.1 document, generated from the zod schemas that validate requests. */
export function buildOpenApiDocument(version: string, serverUrl?: string) {
  return {
    openapi: "3.1.0",
    info: { title: "Inkwell API", version, description: "AI agent jobs on your docs repository, and human/AI visitor analytics." },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    components: {
      schemas: components(),
      securitySchemes: {
        projectKey: projectKeyScheme,
        runnerToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A GitHub Actions OIDC token, or a GitLab CI ID token of a connected project's instance, whose audience is this server's PUBLIC_URL." },
        operatorToken: { type: "http", scheme: "bearer", description: "The operator token (INKWELL_ADMIN_TOKEN)." },
        gitlabWebhookToken: { type: "apiKey", in: "header", name: "X-Gitlab-Token", description: "The secret token Inkwell gave the project webhook it registered on GitLab." },
      },
    },
    paths: withKeyScopes(withHttpLimits({
      "/v2/agent/{projectId}/job": {
        post: {
          operationId: "createJob",
          summary: "Start an agent job with an instruction",
          security: projectKey,
          parameters: [projectParam, { name: "Idempotency-Key", in: "header", required: false, schema: plainSchema(idempotencyKeySchema, "input") }],
          requestBody: { required: true, ...json(createJobBodySchema) },
          responses: {
            201: { description: "The job, `active`.", ...json(agentJobSchema) },
            400: ERR[400],
            401: ERR[401],
            403: ERR[403],
            413: ERR[413],
            422: errorResponse("The Idempotency-Key was already used with a different prompt."),
            429: ERR[429],
          },
        },
      },
      "/v2/agent/{projectId}/job/{id}": {
        get: {
          operationId: "getJob",
          summary: "Poll a job",
          security: projectKey,
          parameters: [projectParam, jobParam],
          responses: { 200: { description: "The job.", ...json(agentJobSchema) }, 401: ERR[401], 403: ERR[403], 404: ERR[404] },
        },
      },
      "/v2/agent/{projectId}/job/{id}/events": {
        get: {
          operationId: "listJobEvents",
          summary: "A job's history: every status transition, dispatch and queued message, oldest first",
          security: projectKey,
          parameters: [projectParam, jobParam],
          responses: { 200: { description: "The events.", ...json(jobEventListSchema) }, 401: ERR[401], 403: ERR[403], 404: ERR[404] },
        },
      },
      "/v2/agent/{projectId}/job/{id}/message": {
        post: {
          operationId: "sendJobMessage",
          summary: "Send a follow-up instruction (continues the same branch and PR)",
          security: projectKey,
          parameters: [projectParam, jobParam],
          requestBody: { required: true, ...json(promptBodySchema) },
          responses: { 200: { description: "The job.", ...json(agentJobSchema) }, 400: ERR[400], 401: ERR[401], 403: ERR[403], 404: ERR[404], 409: ERR[409], 413: ERR[413], 429: ERR[429] },
        },
      },
      "/v2/agent/{projectId}/job/{id}/runs": {
        get: {
          operationId: "listJobRuns",
          summary: "A job's runs, oldest first: workflow run, trigger, times, usage and outcome of each",
          security: projectKey,
          parameters: [projectParam, jobParam],
          responses: { 200: { description: "The runs.", ...json(jobRunListSchema) }, 401: ERR[401], 403: ERR[403], 404: ERR[404] },
        },
      },
      "/v2/agent/{projectId}/job/{id}/impact": {
        get: {
          operationId: "getJobImpact",
          summary: "What the job's merged change did for its pages' readers: each changed page over the 7, 14 and 28 days before and after the merge, beside the whole site",
          security: projectKey,
          parameters: [projectParam, jobParam, ...queryParameters(jobImpactQuerySchema)],
          responses: {
            200: { description: "The impact; a job with no merged PR, or whose PR changed no page, answers with `state` and `reason` (not an error).", ...jsonOrCsv(jobImpactSchema, IMPACT_CSV_HEADER) },
            400: ERR[400],
            401: ERR[401],
            403: ERR[403],
            404: ERR[404],
          },
        },
      },
      "/v2/agent/{projectId}/jobs/impact": {
        get: {
          operationId: "rankJobImpact",
          summary: "Merged jobs ranked by what their change did for its pages' readers over one window: the fall in AI fetch failures, or the rise in AI reads or people",
          security: projectKey,
          parameters: [projectParam, ...queryParameters(impactRankingQuerySchema)],
          responses: {
            200: { description: "Jobs whose window after the merge is over, ranked; those still running as pending. dateFrom/dateTo bound the merge days.", ...jsonOrCsv(impactRankingSchema, RANKING_CSV_HEADER) },
            400: ERR[400],
            401: ERR[401],
            403: ERR[403],
          },
        },
      },
      "/v2/agent/{projectId}/job/{id}/runs/{attempt}/transcript": {
        get: {
          operationId: "getRunTranscript",
          summary: "One run's agent transcript: instructions, the model's answers, each tool call and its result (entries cut to 2,000 characters; no tokens or keys ever enter it)",
          security: projectKey,
          parameters: [projectParam, jobParam, { name: "attempt", in: "path", required: true, description: "The run's attempt number (1, 2, …).", schema: { type: "string", pattern: "^[1-9][0-9]{0,8}$" } }],
          responses: { 200: { description: "The transcript.", ...json(transcriptSchema) }, 401: ERR[401], 403: ERR[403], 404: ERR[404] },
        },
      },
      "/v2/agent/{projectId}/job/{id}/cancel": {
        post: {
          operationId: "cancelJob",
          summary: "Stop an active job: it becomes `failed` (error says who cancelled); its runner stops at its next heartbeat without pushing, and the forge run Inkwell started (a GitHub workflow run, a GitLab pipeline) is cancelled (events `run_cancelled`, `run_not_cancelled`). A job that is not active is returned unchanged.",
          security: projectKey,
          parameters: [projectParam, jobParam],
          responses: { 200: { description: "The job.", ...json(agentJobSchema) }, 401: ERR[401], 403: ERR[403], 404: ERR[404] },
        },
      },
      "/v2/agent/{projectId}/job/{id}/approve": {
        post: {
          operationId: "approveJobPlan",
          summary: "Approve the plan a job waits with (`waitingFor: approval`): the run that carries it out starts. To change the plan instead, send a message.",
          security: projectKey,
          parameters: [projectParam, jobParam],
          responses: { 200: { description: "The job, working again (`waitingFor` null).", ...json(agentJobSchema) }, 401: ERR[401], 403: ERR[403], 404: ERR[404], 409: errorResponse("The job is not waiting for a plan's approval (the message says what it is doing).") },
        },
      },
      "/v2/agent/{projectId}/jobs": {
        get: {
          operationId: "listJobs",
          summary: "List jobs, newest first",
          security: projectKey,
          parameters: [projectParam, ...queryParameters(jobListQuerySchema)],
          responses: { 200: { description: "A page of jobs.", ...json(jobListSchema) }, 400: ERR[400], 401: ERR[401], 403: ERR[403] },
        },
      },
      ...analyticsPaths(),
      ...robotsPaths(),
      ...automationPaths(),
      ...gitLabPaths(),
      ...slackPaths(),
      "/admin/projects": {
        post: {
          operationId: "createProject",
          security: operator,
          requestBody: { required: true, ...json(createProjectSchema) },
          responses: { 201: { description: "The project.", ...json(projectSchema) }, 400: ERR[400], 401: ERR[401], 409: errorResponse("A project for this repository exists.") },
        },
        get: {
          operationId: "listProjects",
          security: operator,
          responses: { 200: { description: "All projects.", ...jsonList("projects", projectSchema) }, 401: ERR[401] },
        },
      },
      "/admin/projects/{id}": {
        get: { operationId: "getProject", security: operator, parameters: [pathParam("id", "Project id.")], responses: { 200: { description: "The project.", ...json(projectSchema) }, 401: ERR[401], 404: ERR[404] } },
        patch: {
          operationId: "updateProject",
          summary: "Change a project's analytics settings (beacon origins; the salt window before the first view)",
          security: operator,
          parameters: [pathParam("id", "Project id.")],
          requestBody: { required: true, ...json(updateProjectSchema) },
          responses: { 200: { description: "The project.", ...json(projectSchema) }, 400: ERR[400], 401: ERR[401], 404: ERR[404], 409: errorResponse("The salt window cannot change once views were counted.") },
        },
      },
      "/admin/agents/ranges": {
        get: {
          operationId: "listAgentRanges",
          summary: "The address lists AI agents are verified against, and how old each is",
          security: operator,
          responses: { 200: { description: "The lists in use.", ...json(agentRangeListsSchema) }, 401: ERR[401] },
        },
      },
      "/admin/agents/refresh": {
        post: {
          operationId: "refreshAgentRanges",
          summary: "Fetch every address list from its operator's URL (servers with internet); a list that fails keeps the copy in use",
          security: operator,
          responses: { 200: { description: "How each list fared.", ...json(agentRangeRefreshResultsSchema) }, 401: ERR[401] },
        },
      },
      "/admin/store/snapshot": {
        get: {
          operationId: "snapshotStore",
          summary: "A consistent snapshot of the embedded (PGlite) store while the service runs, for `inkwell store backup`; requests wait while it is taken",
          security: operator,
          responses: {
            200: { description: "PGlite's data directory as a gzip tarball (`inkwell store restore` puts it back).", content: { "application/gzip": {} } },
            401: ERR[401],
            409: errorResponse("The store is PostgreSQL: back it up with pg_dump."),
          },
        },
      },
      "/admin/projects/{id}/keys": {
        post: {
          operationId: "createApiKey",
          security: operator,
          parameters: [pathParam("id", "Project id.")],
          requestBody: { required: false, ...json(createKeySchema) },
          responses: { 201: { description: "The key, shown only here.", ...json(createdKeySchema) }, 400: ERR[400], 401: ERR[401], 404: ERR[404] },
        },
        get: {
          operationId: "listApiKeys",
          security: operator,
          parameters: [pathParam("id", "Project id.")],
          responses: { 200: { description: "Keys without secrets.", ...jsonList("keys", apiKeySchema) }, 401: ERR[401], 404: ERR[404] },
        },
      },
      "/admin/projects/{id}/keys/{keyId}": {
        delete: {
          operationId: "revokeApiKey",
          security: operator,
          parameters: [pathParam("id", "Project id."), pathParam("keyId", "Key id.")],
          responses: { 200: { description: "The revoked key.", ...json(apiKeySchema) }, 401: ERR[401], 404: ERR[404] },
        },
      },
      "/admin/projects/{id}/grants": {
        get: {
          operationId: "listOAuthGrants",
          summary: "Hosted assistants' access to the project through OAuth (docs/mcp-oauth.md), revoked ones included",
          security: operator,
          parameters: [pathParam("id", "Project id.")],
          responses: { 200: { description: "The grants, oldest first; never a token.", ...jsonList("grants", oauthGrantSchema) }, 401: ERR[401], 404: ERR[404] },
        },
      },
      "/admin/projects/{id}/grants/{grantId}": {
        delete: {
          operationId: "revokeOAuthGrant",
          summary: "Ends an assistant's access: its tokens are refused from their next request, on every instance",
          security: operator,
          parameters: [pathParam("id", "Project id."), pathParam("grantId", "Grant id.")],
          responses: { 200: { description: "The revoked grant.", ...json(oauthGrantSchema) }, 401: ERR[401], 404: ERR[404] },
        },
      },
      ...webhookPaths(),
      ...runnerPaths(),
      "/healthz": {
        get: { operationId: "health", security: [], responses: { 200: { description: "The store answers." }, 503: { description: "The store does not answer." } } },
      },
    })),
    webhooks: webhookEvents(),
  };
}

/** Size limits that apply to every operation: the body cap (INKWELL_MAX_BODY_BYTES) and Node's limit on the request line and headers. */
function withHttpLimits<P extends Record<string, Record<string, { responses: Record<number, unknown>; requestBody?: unknown }>>>(paths: P): P {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (operation.requestBody) operation.responses[413] ??= ERR[413];
      operation.responses[431] = { description: "The request line and headers are over the HTTP server's limit (16 KiB); there is no body." };
    }
  }
  return paths;
}
