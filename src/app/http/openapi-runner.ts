import { claimRequestSchema, claimResponseSchema, heartbeatRequestSchema, heartbeatResponseSchema, reportRequestSchema, transcriptRequestSchema } from "../../shared/runner-schemas.js";
import { agentJobSchema } from "../../shared/api-schemas.js";
import { ERR, errorResponse, json } from "./openapi-parts.js";
import { BODY_LIMITS } from "./body-limits.js";

/** The runner protocol's operations of the OpenAPI document: what the Action calls with its OIDC token. */
export const runnerPaths = () => ({
  "/v1/runner/claim": {
    post: {
      operationId: "claimRun",
      summary: "The Action takes a job: context and a repository-scoped token (one run per job)",
      security: [{ runnerToken: [] }],
      requestBody: { required: true, ...json(claimRequestSchema) },
      responses: {
        200: { description: "The job context and a token for this repository only.", ...json(claimResponseSchema) },
        400: ERR[400],
        401: errorResponse("Invalid OIDC token: not a JWT of the configured issuer (refused before the issuer is asked), or its signature, audience or expiry."),
        403: errorResponse("The token's repository is not the job's."),
        404: ERR[404],
        409: errorResponse("The job is not waiting for this run, or another run claimed it."),
        503: ERR[503],
      },
    },
  },
  "/v1/runner/heartbeat": {
    post: {
      operationId: "runHeartbeat",
      security: [{ runnerToken: [] }],
      requestBody: { required: true, ...json(heartbeatRequestSchema) },
      responses: { 200: { description: "Whether to go on.", ...json(heartbeatResponseSchema) }, 400: ERR[400], 401: ERR[401], 403: ERR[403], 404: ERR[404], 409: ERR[409], 503: ERR[503] },
    },
  },
  "/v1/runner/transcript": {
    post: {
      operationId: "sendRunTranscript",
      summary: "The Action sends its run's transcript (before its report); stored gzip-compressed, at most 1 MiB a run",
      security: [{ runnerToken: [] }],
      requestBody: { required: true, description: `JSON of at most ${BODY_LIMITS.transcript / (1024 * 1024)} MiB (or INKWELL_MAX_BODY_BYTES if larger).`, "x-max-body-bytes": BODY_LIMITS.transcript, ...json(transcriptRequestSchema) },
      responses: { 200: { description: "Stored.", content: { "application/json": { schema: { type: "object", properties: { stored: { type: "boolean" }, bytes: { type: "integer" }, elided: { type: "integer" } } } } } }, 400: ERR[400], 401: ERR[401], 403: ERR[403], 404: ERR[404], 409: ERR[409], 413: ERR[413], 503: ERR[503] },
    },
  },
  "/v1/runner/report": {
    post: {
      operationId: "reportRun",
      summary: "The run's result; idempotent per run attempt",
      security: [{ runnerToken: [] }],
      requestBody: { required: true, ...json(reportRequestSchema) },
      responses: { 200: { description: "The job after the report.", ...json(agentJobSchema) }, 400: ERR[400], 401: ERR[401], 403: ERR[403], 404: ERR[404], 409: ERR[409], 503: ERR[503] },
    },
  },
});
