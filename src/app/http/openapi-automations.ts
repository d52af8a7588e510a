import { automationListSchema, automationSchema, createAutomationSchema, updateAutomationSchema } from "../../shared/automation-schemas.js";
import { ERR, errorResponse, json, operator, pathParam } from "./openapi-parts.js";

const projectId = pathParam("id", "Project id.");
const automationId = pathParam("automationId", "Automation id.");

/** The operator's automation operations of the OpenAPI document. */
export const automationPaths = () => ({
  "/admin/projects/{id}/automations": {
    post: {
      operationId: "createAutomation",
      summary: "Start jobs without asking: merges in a source repository, issues of the docs repository, or a cron schedule (UTC)",
      security: operator,
      parameters: [projectId],
      requestBody: { required: true, ...json(createAutomationSchema) },
      responses: { 201: { description: "The automation.", ...json(automationSchema) }, 400: ERR[400], 401: ERR[401], 404: ERR[404], 409: errorResponse("The repository already feeds this project, the App is not installed on it (GitHub), the project's token cannot see it or add its webhook (GitLab), it is no name on the project's forge, or the project already has an issues automation."), 413: ERR[413], 502: errorResponse("GitHub or GitLab did not answer whether the source repository can be linked."), 503: errorResponse("A GitLab docs project's source needs PUBLIC_URL, where its merges are delivered.") },
    },
    get: {
      operationId: "listAutomations",
      security: operator,
      parameters: [projectId],
      responses: { 200: { description: "The project's automations, oldest first.", ...json(automationListSchema) }, 401: ERR[401], 404: ERR[404] },
    },
  },
  "/admin/projects/{id}/automations/{automationId}": {
    get: {
      operationId: "getAutomation",
      security: operator,
      parameters: [projectId, automationId],
      responses: { 200: { description: "The automation, with its last firing.", ...json(automationSchema) }, 401: ERR[401], 404: ERR[404] },
    },
    patch: {
      operationId: "updateAutomation",
      summary: "Pause or resume (a resumed schedule does not make up missed firings)",
      security: operator,
      parameters: [projectId, automationId],
      requestBody: { required: true, ...json(updateAutomationSchema) },
      responses: { 200: { description: "The automation.", ...json(automationSchema) }, 400: ERR[400], 401: ERR[401], 404: ERR[404] },
    },
    delete: {
      operationId: "deleteAutomation",
      summary: "Stop it for good; its jobs keep their trigger",
      security: operator,
      parameters: [projectId, automationId],
      responses: { 204: { description: "Deleted." }, 401: ERR[401], 404: ERR[404] },
    },
  },
  "/admin/projects/{id}/automations/{automationId}/run": {
    post: {
      operationId: "runSchedule",
      summary: "Fire a schedule now (once across instances; none while its last job is open)",
      security: operator,
      parameters: [projectId, automationId],
      responses: { 202: { description: "Due now: an instance fires it within a second.", ...json(automationSchema) }, 401: ERR[401], 404: ERR[404], 409: errorResponse("Not a schedule, or paused.") },
    },
  },
});
