import { createWebhookSchema, deliveryListQuerySchema } from "../../../shared/webhook-schemas.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { listDeliveries, redeliver } from "../../project-webhooks/deliveries.js";
import { createWebhook, deleteWebhook, listWebhooks } from "../../project-webhooks/endpoints.js";
import { requireAdmin } from "../auth.js";
import { queryObject, readJson, validate } from "../../http-kit/body.js";
import type { RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";

/** The operator API for a project's webhook endpoints and their delivery log. */
export function registerAdminWebhookRoutes(router: Router, services: Services): void {
  const { db, config, adminToken, tasks } = services;
  const ids = (ctx: RequestContext) => {
    requireAdmin(ctx.req, adminToken);
    return { projectId: wellFormedIdOf(ctx.params.id, "Project"), webhookId: ctx.params.webhookId === undefined ? "" : wellFormedIdOf(ctx.params.webhookId, "Webhook") };
  };

  router.on("POST", "/admin/projects/:id/webhooks", async (ctx) => {
    const { projectId } = ids(ctx);
    const request = validate(createWebhookSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    return { status: 201, body: await createWebhook(db, projectId, request, { allowPrivate: config.webhooksAllowPrivate }) };
  });

  router.on("GET", "/admin/projects/:id/webhooks", async (ctx) => {
    const { projectId } = ids(ctx);
    return { status: 200, body: { webhooks: await listWebhooks(db, projectId) } };
  });

  router.on("DELETE", "/admin/projects/:id/webhooks/:webhookId", async (ctx) => {
    const { projectId, webhookId } = ids(ctx);
    await deleteWebhook(db, projectId, webhookId);
    return { status: 204 };
  });

  router.on("GET", "/admin/projects/:id/webhooks/:webhookId/deliveries", async (ctx) => {
    const { projectId, webhookId } = ids(ctx);
    const { limit } = validate(deliveryListQuerySchema, queryObject(ctx.url), "query");
    return { status: 200, body: { deliveries: await listDeliveries(db, projectId, webhookId, limit) } };
  });

  router.on("POST", "/admin/projects/:id/webhooks/:webhookId/deliveries/:deliveryId/redeliver", async (ctx) => {
    const { projectId, webhookId } = ids(ctx);
    const deliveryId = wellFormedIdOf(ctx.params.deliveryId, "Delivery");
    const delivery = await db.transaction((tx) => redeliver(tx, projectId, webhookId, deliveryId));
    tasks.kick();
    return { status: 202, body: delivery };
  });
}
