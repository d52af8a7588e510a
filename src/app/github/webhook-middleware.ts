import type { IncomingMessage, ServerResponse } from "node:http";
import { createNodeMiddleware, Probot, type ApplicationFunction } from "probot";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { EVENTS } from "./github-events.js";
import { toQueuedEvent, type QueuedEvent } from "./webhook-events.js";

export const WEBHOOK_PATH = "/api/github/webhooks";

export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: (err?: Error) => void) => unknown;

/** Stores a delivery's meaning durably (a task); throwing makes GitHub record the delivery as failed. */
export type EventSink = (deliveryId: string, event: QueuedEvent) => Promise<void>;

export function createProbot(app: NonNullable<Config["app"]>, config: Config, log: Logger): Probot {
  return new Probot({
    appId: app.appId,
    privateKey: app.privateKey,
    secret: app.webhookSecret,
    baseUrl: config.githubApiUrl,
    log: log.child({ component: "probot" }) as never,
  });
}

/**
 * Probot's webhook middleware (signature verified by @octokit/webhooks). Handlers only parse and
 * queue: every delivery returns as soon as its task is committed; the work runs in the task worker.
 */
export async function createWebhookMiddleware(probot: Probot, sink: EventSink, log: Logger): Promise<NodeMiddleware> {
  const webhookLog = log.child({ component: "webhooks" });
  const appFn: ApplicationFunction = (probotApp) => {
    probotApp.on([...EVENTS], async (delivery) => {
      const event = toQueuedEvent(delivery.name, delivery.payload);
      if (!event) {
        webhookLog.debug({ event: delivery.name, deliveryId: delivery.id }, "webhook ignored");
        return;
      }
      try {
        await sink(delivery.id, event);
      } catch (error) {
        webhookLog.error({ err: error, event: delivery.name, deliveryId: delivery.id }, "could not queue a webhook delivery; redeliver it from the App's settings");
        throw error;
      }
      webhookLog.debug({ event: delivery.name, type: event.type, deliveryId: delivery.id }, "webhook queued");
    });
  };
  return createNodeMiddleware(appFn, { probot, webhooksPath: WEBHOOK_PATH });
}
