import { z } from "zod";
import { WEBHOOK_DELIVERY_TASK } from "../domain/jobs/job-webhooks.js";
import { deliveryToSend, recordAttempt } from "./deliveries.js";
import type { Db } from "../store/db.js";
import { defineTask, type TaskDefinition } from "../tasks/task-definition.js";
import { postToDestination, RefusedDestinationError } from "./destination.js";
import { webhookRequest } from "./request.js";

/**
 * When a failed delivery is tried again: Standard Webhooks' suggested schedule, 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h after each failure, so the last attempt is about 27.6 h after the first.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

export interface WebhookSenderOptions {
  timeoutMs?: number;
  userAgent: string;
  /** Deliver to loopback, private and link-local addresses too (INKWELL_WEBHOOKS_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

/** The `webhook_delivery` task: one attempt to POST one delivery; any answer but 2xx is tried again on the schedule. */
export function webhookDeliveryTask(db: Db, options: WebhookSenderOptions): TaskDefinition {
  return defineTask({
    kind: WEBHOOK_DELIVERY_TASK,
    payload: z.object({ deliveryId: z.string() }),
    retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
    async run({ deliveryId }, attempt) {
      const delivery = await deliveryToSend(db, deliveryId);
      if (!delivery) return { skipped: "delivered already, or the endpoint was deleted" };
      const request = webhookRequest(delivery, new Date(), options.userAgent);
      let status: number | null = null;
      let error: string | null = null;
      try {
        // Redirects are not followed: a 3xx is an answer like any other that is not 2xx.
        status = await postToDestination(delivery.webhook.url, { headers: request.headers, body: request.body, timeoutMs: options.timeoutMs ?? 15_000, allowPrivate: options.allowPrivate });
        if (status < 200 || status > 299) error = `the endpoint answered ${status}`;
      } catch (failure) {
        error = failure instanceof RefusedDestinationError ? `refused: ${failure.message}` : `no answer: ${failure instanceof Error ? failure.message : String(failure)}`;
      }
      const delivered = error === null;
      await recordAttempt(db, deliveryId, { status, error, delivered, final: !delivered && attempt > WEBHOOK_RETRY_DELAYS_MS.length });
      return delivered ? { ok: true } : { ok: false, retryable: true, error: error as string };
    },
  });
}
