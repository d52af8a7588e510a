import { connectGitLabProjectSchema, projectSchema } from "../../shared/admin-schemas.js";
import { ERR, errorResponse, json, operator, pathParam } from "./openapi-parts.js";

/** GitLab's operations of the OpenAPI document: connecting a project, and the webhook Inkwell registers on it. */
export const gitLabPaths = () => ({
  "/admin/gitlab/projects": {
    post: {
      operationId: "connectGitLabProject",
      summary: "Connect a GitLab project (gitlab.com or self-managed): Inkwell reads it with the access token and registers its project webhook",
      security: operator,
      requestBody: { required: true, ...json(connectGitLabProjectSchema) },
      responses: {
        201: { description: "The project, with its GitLab connection.", ...json(projectSchema) },
        400: errorResponse("Invalid body, or GitLab refused the token or does not show the project to it (the field is named)."),
        401: ERR[401],
        409: errorResponse("A project for this GitLab project exists."),
        502: errorResponse("GitLab did not answer."),
        503: errorResponse("This server has no PUBLIC_URL, which GitLab's webhook and ID tokens need."),
      },
    },
  },
  "/admin/gitlab/projects/{id}": {
    get: {
      operationId: "getGitLabProject",
      security: operator,
      parameters: [pathParam("id", "Project id.")],
      responses: { 200: { description: "The project, with its GitLab connection.", ...json(projectSchema) }, 401: ERR[401], 404: errorResponse("No such project, or it is not on GitLab.") },
    },
  },
  "/api/gitlab/webhooks/{projectId}": {
    post: {
      operationId: "receiveGitLabWebhook",
      summary: "GitLab's project webhook (registered by Inkwell): merge request and note events",
      description:
        "Authenticated by the hook's secret token (X-Gitlab-Token, compared in constant time before the body is read) and, when GitLab sends one, its Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature). Bodies over 5 MiB are refused.",
      security: [{ gitlabWebhookToken: [] }],
      parameters: [pathParam("projectId", "The Inkwell project the hook was registered for.")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", description: "A GitLab webhook payload (X-Gitlab-Event names its kind)." } } } },
      responses: {
        200: { description: "An event Inkwell does not act on.", content: { "application/json": { schema: { type: "object", properties: { ignored: { type: "string" } } } } } },
        202: { description: "Queued: a merge request merged or closed, or a note on a merge request.", content: { "application/json": { schema: { type: "object", properties: { queued: { type: "string" } } } } } },
        400: errorResponse("The body is not JSON."),
        401: errorResponse("X-Gitlab-Token is missing or wrong (or names no connected project), or webhook-signature does not verify."),
        413: ERR[413],
      },
    },
  },
});
