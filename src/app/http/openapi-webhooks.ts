import { createdWebhookSchema, createWebhookSchema, deliveryListQuerySchema, webhookDeliveryListSchema, webhookDeliverySchema, webhookSchema } from "../../shared/webhook-schemas.js";
import { ERR, json, jsonList, operator, pathParam, queryParameters } from "./openapi-parts.js";

/** The operator's project-webhook operations of the OpenAPI document. */
export const webhookPaths = () => ({
  "/admin/projects/{id}/webhooks": {
    post: {
      operationId: "createWebhook",
      summary: "Send this project's job events to a URL (Standard Webhooks signatures, or Slack messages)",
      security: operator,
      parameters: [pathParam("id", "Project id.")],
      requestBody: { required: true, ...json(createWebhookSchema) },
      responses: { 201: { description: "The endpoint with its signing secret, shown only here.", ...json(createdWebhookSchema) }, 400: ERR[400], 401: ERR[401], 404: ERR[404], 413: ERR[413] },
    },
    get: {
      operationId: "listWebhooks",
      security: operator,
      parameters: [pathParam("id", "Project id.")],
      responses: { 200: { description: "Endpoints without secrets.", ...jsonList("webhooks", webhookSchema) }, 401: ERR[401], 404: ERR[404] },
    },
  },
  "/admin/projects/{id}/webhooks/{webhookId}": {
    delete: {
      operationId: "deleteWebhook",
      summary: "Stop sending to an endpoint (attempts still pending end)",
      security: operator,
      parameters: [pathParam("id", "Project id."), pathParam("webhookId", "Webhook id.")],
      responses: { 204: { description: "Deleted." }, 401: ERR[401], 404: ERR[404] },
    },
  },
  "/admin/projects/{id}/webhooks/{webhookId}/deliveries": {
    get: {
      operationId: "listWebhookDeliveries",
      summary: "The endpoint's delivery log, newest first: state, attempts, last status",
      security: operator,
      parameters: [pathParam("id", "Project id."), pathParam("webhookId", "Webhook id."), ...queryParameters(deliveryListQuerySchema)],
      responses: { 200: { description: "Deliveries.", ...json(webhookDeliveryListSchema) }, 400: ERR[400], 401: ERR[401], 404: ERR[404] },
    },
  },
  "/admin/projects/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": {
    post: {
      operationId: "redeliverWebhook",
      summary: "Send one delivery again now (same webhook-id), whatever its state",
      security: operator,
      parameters: [pathParam("id", "Project id."), pathParam("webhookId", "Webhook id."), pathParam("deliveryId", "Delivery id.")],
      responses: { 202: { description: "Queued.", ...json(webhookDeliverySchema) }, 401: ERR[401], 404: ERR[404] },
    },
  },
});
