/** Project webhooks (docs/architecture.md, "Project webhooks"): the operator API's shapes and what receivers get. */
import { z } from "zod";
import { agentJobSchema, queryInt } from "./api-schemas.js";
import { impactNoticeSchema } from "./impact-schemas.js";
import { httpUrl } from "./http-url.js";
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS } from "./job-vocabulary.js";

const webhookUrl = httpUrl(2_000, "Where events are POSTed: an http(s) URL.");

export const createWebhookSchema = z
  .strictObject({
    url: webhookUrl,
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length).optional().meta({ description: "Default: every event." }),
    format: z
      .enum(WEBHOOK_FORMATS)
      .default("standard")
      .meta({ description: "`standard`: JSON signed per the Standard Webhooks specification; `slack`: a Slack incoming-webhook message." }),
  })
  .meta({ id: "CreateWebhookRequest" });
export type CreateWebhookRequest = z.infer<typeof createWebhookSchema>;

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    format: z.enum(WEBHOOK_FORMATS),
    createdAt: z.string(),
  })
  .meta({ id: "Webhook" });
export type WebhookView = z.infer<typeof webhookSchema>;

export const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().meta({ description: "The signing secret (whsec_…), for verifying deliveries. Shown only in this response." }) })
  .meta({ id: "CreatedWebhook" });
export type CreatedWebhookView = z.infer<typeof createdWebhookSchema>;

export const webhookDeliverySchema = z
  .object({
    id: z.string().meta({ description: "The webhook-id header: the same for every attempt and redelivery of one event." }),
    event: z.enum(WEBHOOK_EVENTS),
    state: z.enum(["pending", "delivered", "failed"]),
    attempts: z.int(),
    lastStatus: z.int().nullable().meta({ description: "The HTTP status of the last attempt; null when it got no answer." }),
    lastError: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) }).meta({ id: "WebhookDeliveryList" });

export const deliveryListQuerySchema = z.object({ limit: queryInt(1, 100, 20).meta({ description: "Newest first, 1..100." }) });

/** What a `standard` endpoint receives for each event (Standard Webhooks' `{type, timestamp, data}`): the job as the API shows it, and per event a little more. */
export const webhookPayloadSchema = z
  .object({
    type: z.enum(WEBHOOK_EVENTS),
    timestamp: z.string().meta({ description: "When the event happened (ISO 8601)." }),
    data: agentJobSchema.extend({
      impact: impactNoticeSchema.optional().meta({ description: "job.impact only: the first week after the merge." }),
      run: z
        .object({
          attempt: z.int(),
          outcome: z
            .enum(["completed", "failed", "waiting", "cancelled"])
            .optional()
            .meta({ description: "job.run_finished only: how the run ended (waiting: it stopped for a plan's approval or an answer; cancelled: it was stopped, or its PR closed, before it reported)." }),
          reported: z.boolean().optional().meta({ description: "job.run_finished only: false when the run ended without its report (lost to the heartbeat watchdog, a workflow run that failed, a failed dispatch, a cancel)." }),
        })
        .optional()
        .meta({ description: "job.run_started and job.run_finished only: which run." }),
    }),
  })
  .meta({ id: "WebhookPayload" });

/** What each event means, for the OpenAPI document's `webhooks` and the manual. */
export const WEBHOOK_EVENT_MEANINGS: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  "job.created": "A job was created (API, dashboard, MCP, a comment, an automation).",
  "job.run_started": "A workflow run claimed the job; data.run.attempt is the run.",
  "job.waiting": "The job waits for the user: data.waitingFor is approval (data.plan) or answer (data.question). It stays active.",
  "job.run_finished": "A run ended, exactly once per run: it reported, or it was lost or stopped (data.run.reported false); data.run.outcome is completed, failed, waiting or cancelled.",
  "job.completed": "The job completed (prLink set when files changed).",
  "job.failed": "The job failed, cancels included (data.error says why).",
  "job.archived": "The job's pull request was merged or closed, or it waited past the project's limit (data.error says so).",
  "job.pull_request_opened": "The job has a pull request for the first time.",
  "job.impact": "The first 7 days after the job's PR was merged are over; data.impact is the result.",
};
