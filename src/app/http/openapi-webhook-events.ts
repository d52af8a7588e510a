import { WEBHOOK_EVENTS } from "../../shared/job-vocabulary.js";
import { WEBHOOK_EVENT_MEANINGS, webhookPayloadSchema } from "../../shared/webhook-schemas.js";
import { json } from "./openapi-parts.js";

/**
 * The OpenAPI 3.1 `webhooks` section: every event a project webhook sends (docs/webhooks.md), signed
 * per Standard Webhooks; the receiver answers 2xx, or the delivery is retried.
 */
export function webhookEvents() {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          operationId: `webhook_${event.replace(".", "_")}`,
          summary: WEBHOOK_EVENT_MEANINGS[event],
          description: `Sent to the project's endpoints that take \`${event}\`, with the headers webhook-id (the same on every attempt), webhook-timestamp and webhook-signature (Standard Webhooks, HMAC-SHA256 with the endpoint's secret). \`type\` is \`${event}\`.`,
          requestBody: { required: true, ...json(webhookPayloadSchema) },
          responses: { 200: { description: "Taken (any 2xx). Anything else, or no answer, is retried for about 27 hours." } },
        },
      },
    ]),
  );
}
