import { createAutomationSchema, updateAutomationSchema } from "../../../shared/automation-schemas.js";
import { createAutomation, deleteAutomation, fireScheduleNow, getAutomation, listAutomations, setAutomationPaused } from "../../domain/automations/automations.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { getProject } from "../../domain/projects.js";
import { linkSource, queueSourceUnlink } from "../../forges/source-link.js";
import { requireAdmin } from "../auth.js";
import { readJson, validate } from "../../http-kit/body.js";
import type { RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";

/** The operator API for a project's automations: source repositories, issues, schedules. */
export function registerAdminAutomationRoutes(router: Router, services: Services): void {
  const { db, config, adminToken } = services;
  const ids = (ctx: RequestContext) => {
    requireAdmin(ctx.req, adminToken);
    return {
      projectId: wellFormedIdOf(ctx.params.id, "Project"),
      automationId: ctx.params.automationId === undefined ? "" : wellFormedIdOf(ctx.params.automationId, "Automation"),
    };
  };

  router.on("POST", "/admin/projects/:id/automations", async (ctx) => {
    const { projectId } = ids(ctx);
    const request = validate(createAutomationSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const sourceRepo = request.kind === "source" ? await linkSource(services.forges, await getProject(db, projectId), request.repository, null) : null;
    return { status: 201, body: await db.transaction((tx) => createAutomation(tx, projectId, request, new Date(), sourceRepo)) };
  });

  router.on("GET", "/admin/projects/:id/automations", async (ctx) => {
    const { projectId } = ids(ctx);
    return { status: 200, body: { automations: await listAutomations(db, projectId) } };
  });

  router.on("GET", "/admin/projects/:id/automations/:automationId", async (ctx) => {
    const { projectId, automationId } = ids(ctx);
    return { status: 200, body: await getAutomation(db, projectId, automationId) };
  });

  router.on("PATCH", "/admin/projects/:id/automations/:automationId", async (ctx) => {
    const { projectId, automationId } = ids(ctx);
    const { paused } = validate(updateAutomationSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    return { status: 200, body: await db.transaction((tx) => setAutomationPaused(tx, projectId, automationId, paused, new Date())) };
  });

  router.on("POST", "/admin/projects/:id/automations/:automationId/run", async (ctx) => {
    const { projectId, automationId } = ids(ctx);
    return { status: 202, body: await db.transaction((tx) => fireScheduleNow(tx, projectId, automationId, new Date())) };
  });

  router.on("DELETE", "/admin/projects/:id/automations/:automationId", async (ctx) => {
    const { projectId, automationId } = ids(ctx);
    await db.transaction(async (tx) => queueSourceUnlink(services.forges, tx, projectId, (await deleteAutomation(tx, projectId, automationId)).sourceRepo));
    services.tasks.kick();
    return { status: 204 };
  });
}
