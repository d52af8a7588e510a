import { createWebhookSchema } from "../../../shared/webhook-schemas.js";
import { WEBHOOK_EVENTS } from "../../../shared/job-vocabulary.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { listDeliveries, redeliver } from "../../project-webhooks/deliveries.js";
import { createWebhook, deleteWebhook, listWebhooks } from "../../project-webhooks/endpoints.js";
import type { DashboardController, SignedInRequest } from "../controller.js";
import { layout, projectPath } from "../layout.js";
import { eventField, webhooksBody } from "./page.js";
import { htmlReply, parseFields, redirect } from "../request.js";
import type { CreatedWebhookView } from "../../../shared/webhook-schemas.js";
import type { Router } from "../../http-kit/router.js";

const DELIVERIES_SHOWN = 10;

/** A project's webhooks on the dashboard (admin permission, like its API keys). */
export function registerWebhookPages(router: Router, dashboard: DashboardController): void {
  const { db, tasks } = dashboard.services;
  const webhookIdOf = (params: Record<string, string>) => wellFormedIdOf(params.webhookId, "Webhook");

  const page = async (r: SignedInRequest, status: number, created: CreatedWebhookView | null = null) => {
    const { project, access } = await dashboard.project(r, "admin");
    const webhooks = await Promise.all((await listWebhooks(db, project.id)).map(async (webhook) => ({ webhook, deliveries: await listDeliveries(db, project.id, webhook.id, DELIVERIES_SHOWN) })));
    const body = webhooksBody({ session: r.session, project, webhooks, created });
    return htmlReply(status, layout({ title: "Webhooks", session: r.session, project: { project, access, tab: "keys" }, body }));
  };

  router.on("GET", "/dashboard/projects/:projectId/webhooks", dashboard.page((r) => page(r, 200)));

  router.on(
    "POST",
    "/dashboard/projects/:projectId/webhooks",
    dashboard.action(async (r, form) => {
      const { project } = await dashboard.project(r, "admin");
      const events = WEBHOOK_EVENTS.filter((event) => form[eventField(event)] === "on");
      const request = parseFields(createWebhookSchema, { url: form.url ?? "", format: form.format, ...(events.length > 0 ? { events } : { events: [] }) });
      return page(r, 201, await createWebhook(db, project.id, request, { allowPrivate: dashboard.services.config.webhooksAllowPrivate }));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/webhooks/:webhookId/delete",
    dashboard.action(async (r) => {
      const { project } = await dashboard.project(r, "admin");
      await deleteWebhook(db, project.id, webhookIdOf(r.ctx.params));
      return redirect(projectPath(project.id, "webhooks"));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
    dashboard.action(async (r) => {
      const { project } = await dashboard.project(r, "admin");
      await db.transaction((tx) => redeliver(tx, project.id, webhookIdOf(r.ctx.params), wellFormedIdOf(r.ctx.params.deliveryId, "Delivery")));
      tasks.kick();
      return redirect(projectPath(project.id, "webhooks"));
    }),
  );
}
