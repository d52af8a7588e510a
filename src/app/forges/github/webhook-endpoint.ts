import type { IncomingMessage, ServerResponse } from "node:http";
import { Probot } from "probot";
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import { readBody, refuseDeclaredOversize } from "../../http-kit/body.js";
import { HttpError } from "../../http-kit/http-error.js";
import { EVENTS } from "./github-events.js";
import type { Db } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { EVENT_TASK } from "./event-task.js";
import { queueDelaySeconds, toQueuedEvent, type QueuedEvent } from "./webhook-events.js";

export const WEBHOOK_PATH = "/api/github/webhooks";

/**
 * GitHub caps a delivery's payload at 25 MB (docs.github.com, "Webhook events and payloads"); read
 * as MiB so that no delivery GitHub sends is ever refused. Anything larger is not from GitHub.
 */
export const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;

/** The headers every GitHub delivery carries. */
const DELIVERY_HEADERS = ["x-github-event", "x-github-delivery", "x-hub-signature-256"] as const;

/** Answers a delivery on the raw response; throws HttpErrors for the request handler to answer. */
export type WebhookEndpoint = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

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
 * The App's webhook path. Probot's own middleware reads any body whole before it checks the
 * signature and logs a wrong one as two errors with stacks; here a body is capped before it is read
 * (Content-Length up front, a chunked one as it arrives), the signature is checked with the App's
 * secret by @octokit/webhooks, and only a signed JSON object reaches Probot's handlers. Handlers
 * only parse and queue: a delivery is answered as soon as its task is committed.
 */
export async function createWebhookEndpoint(probot: Probot, sink: EventSink, log: Logger): Promise<WebhookEndpoint> {
  const webhookLog = log.child({ component: "webhooks" });
  probot.on([...EVENTS], async (delivery) => {
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
  await probot.ready();
  const webhooks = probot.webhooks;

  return async (req, res) => {
    if (req.method !== "POST") throw new HttpError(405, `${WEBHOOK_PATH} takes GitHub's webhook deliveries (POST)`, undefined, { Allow: "POST" });
    // First: every other refusal would leave Node reading the unwanted body to keep the connection.
    refuseDeclaredOversize(req, MAX_DELIVERY_BYTES);
    const contentType = req.headers["content-type"] ?? "";
    if (!/^\s*application\/json\s*(;|$)/i.test(contentType)) {
      throw new HttpError(415, "A GitHub delivery is sent as application/json: set the App's webhook content type to application/json", undefined, { Accept: "application/json" });
    }
    const missing = DELIVERY_HEADERS.filter((name) => typeof req.headers[name] !== "string");
    if (missing.length > 0) throw new HttpError(400, `Not a GitHub delivery: it lacks the header${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`);
    const name = req.headers["x-github-event"] as string;
    const id = req.headers["x-github-delivery"] as string;
    const signature = req.headers["x-hub-signature-256"] as string;

    const body = await readBody(req, MAX_DELIVERY_BYTES);
    // The library refuses to check an empty payload; saying "bad signature" would send the sender looking in the wrong place.
    if (body.length === 0) throw new HttpError(400, "The delivery's body is empty: a GitHub delivery is a JSON object");
    const payload = body.toString("utf8");
    if (!(await webhooks.verify(payload, signature).catch(() => false))) {
      // Anyone can post here: one line to tell a misconfigured secret from noise, no stack.
      webhookLog.warn({ deliveryId: id, event: name }, "webhook refused: its X-Hub-Signature-256 does not match the body under WEBHOOK_SECRET (the App's webhook secret)");
      throw new HttpError(400, "Webhook signature does not match: X-Hub-Signature-256 must be the HMAC-SHA256 of the body under the App's webhook secret");
    }
    const parsed = parseObject(payload);
    try {
      await webhooks.receive({ id, name, payload: parsed } as Parameters<typeof webhooks.receive>[0]);
    } catch {
      // Probot's error handler and the handler above have logged it.
      throw new HttpError(500, "The delivery could not be taken; redeliver it from the App's settings (the server log has the details)");
    }
    res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" }).end("ok\n");
  };
}

/** A signed body that is not a JSON object is no event; the 400 says what it is instead. */
function parseObject(payload: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    throw new HttpError(400, "The delivery's body is not valid JSON: a GitHub delivery is a JSON object");
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  const what = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  throw new HttpError(400, `The delivery's body is ${what}: a GitHub delivery is a JSON object`, [{ message: "body: expected an object" }]);
}

/** The App's webhook endpoint as the server mounts it: each delivery a `github_event` task, queued in its own transaction before GitHub gets its 200. */
export function gitHubWebhookEndpoint(probot: Probot, db: Db, kick: () => void, log: Logger): Promise<WebhookEndpoint> {
  return createWebhookEndpoint(
    probot,
    async (deliveryId, event) => {
      await db.transaction((tx) => enqueueTask(tx, EVENT_TASK, `event:${deliveryId}`, event, queueDelaySeconds(event)));
      kick();
    },
    log,
  );
}
