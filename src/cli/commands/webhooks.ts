import type { CreatedWebhookView, WebhookDeliveryView, WebhookView } from "../../shared/webhook-schemas.js";
import { WEBHOOK_FORMATS } from "../../shared/job-vocabulary.js";
import { enc, intOption, need, print, projectOf } from "../command-context.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import type { NounRuns } from "./command-usage.js";

export const webhooks: NounRuns<"webhooks"> = {
  async create(ctx) {
    const projectId = projectOf(ctx);
    const url = need(ctx.args[0], "url");
    const format = ctx.values.format;
    if (format && !(WEBHOOK_FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${WEBHOOK_FORMATS.join(", ")}`, 2);
    const events = ctx.values.event;
    const created = await ctx.client.request<CreatedWebhookView>("POST", `/admin/projects/${enc(projectId)}/webhooks`, ctx.operator, {
      body: { url, ...(events?.length ? { events } : {}), ...(format ? { format } : {}) },
    });
    print(ctx, created, () =>
      created.format === "slack"
        ? `Webhook ${created.id}: ${created.events.join(", ")} → ${created.url} (Slack messages)`
        : `${created.secret}\n\nWebhook ${created.id}: ${created.events.join(", ")} → ${created.url}\nThe line above is its signing secret (Standard Webhooks); store it now: it is not shown again.`,
    );
  },

  async list(ctx) {
    const projectId = projectOf(ctx);
    const { webhooks: list } = await ctx.client.request<{ webhooks: WebhookView[] }>("GET", `/admin/projects/${enc(projectId)}/webhooks`, ctx.operator);
    print(ctx, list, () =>
      list.length === 0 ? `No webhooks. Add one: inkwell webhooks create --project ${projectId} <url>` : table(["ID", "URL", "FORMAT", "EVENTS", "CREATED"], list.map((w) => [w.id, w.url, w.format, w.events.join(","), w.createdAt])),
    );
  },

  async delete(ctx) {
    const projectId = projectOf(ctx);
    const webhookId = need(ctx.args[0], "webhook id");
    await ctx.client.request<unknown>("DELETE", `/admin/projects/${enc(projectId)}/webhooks/${enc(webhookId)}`, ctx.operator);
    print(ctx, { deleted: webhookId }, () => `Deleted webhook ${webhookId}: nothing more is sent to it.`);
  },

  async deliveries(ctx) {
    const projectId = projectOf(ctx);
    const webhookId = need(ctx.args[0], "webhook id");
    const limit = intOption(ctx.values.limit, "limit");
    const { deliveries } = await ctx.client.request<{ deliveries: WebhookDeliveryView[] }>(
      "GET",
      `/admin/projects/${enc(projectId)}/webhooks/${enc(webhookId)}/deliveries${limit === undefined ? "" : `?limit=${limit}`}`,
      ctx.operator,
    );
    print(ctx, deliveries, () =>
      deliveries.length === 0
        ? "No deliveries yet."
        : table(
            ["ID", "EVENT", "STATE", "ATTEMPTS", "LAST STATUS", "LAST ATTEMPT", "ERROR"],
            deliveries.map((d) => [d.id, d.event, d.state, String(d.attempts), d.lastStatus === null ? null : String(d.lastStatus), d.lastAttemptAt, d.lastError]),
          ),
    );
  },

  async redeliver(ctx) {
    const projectId = projectOf(ctx);
    const webhookId = need(ctx.args[0], "webhook id");
    const deliveryId = need(ctx.args[1], "delivery id");
    const delivery = await ctx.client.request<WebhookDeliveryView>("POST", `/admin/projects/${enc(projectId)}/webhooks/${enc(webhookId)}/deliveries/${enc(deliveryId)}/redeliver`, ctx.operator);
    print(ctx, delivery, () => `Queued delivery ${delivery.id} (${delivery.event}) to be sent again.`);
  },
};
