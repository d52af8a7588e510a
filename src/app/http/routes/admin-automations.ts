import { createAutomationSchema, updateAutomationSchema } from "../../../shared/automation-schemas.js";
import { createAutomation, deleteAutomation, fireScheduleNow, getAutomation, listAutomations, setAutomationPaused } from "../../domain/automations/automations.js";
import { ConflictError, UpstreamError } from "../../domain/errors.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { appInstallUrl } from "../../github/app-urls.js";
import { requireAdmin } from "../auth.js";
import { readJson, validate } from "../body.js";
import type { RequestContext, Router } from "../router.js";
import type { Services } from "../services.js";

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

  /** A source repository's merges reach Inkwell only through the App: refuse to link one it is not installed on (when GitHub is set up at all). */
  const requireInstalled = async (repository: string) => {
    const github = services.github;
    if (!github) return;
    const installed = await github.installationOn(repository).catch((error: unknown) => {
      services.log.warn({ err: error, repository }, "could not ask GitHub for the App's installation");
      throw new UpstreamError(`GitHub did not say whether the Inkwell App is installed on ${repository}; try again`);
    });
    if (installed !== null) return;
    const install = appInstallUrl(config.githubServerUrl, await github.appSlug().catch(() => "<your-app>"));
    throw new ConflictError(`The Inkwell App is not installed on ${repository}, so its merges cannot reach Inkwell: install it there (${install}), then add the automation again`);
  };

  router.on("POST", "/admin/projects/:id/automations", async (ctx) => {
    const { projectId } = ids(ctx);
    const request = validate(createAutomationSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    if (request.kind === "source") await requireInstalled(request.repository);
    return { status: 201, body: await db.transaction((tx) => createAutomation(tx, projectId, request, new Date())) };
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
    await db.transaction((tx) => deleteAutomation(tx, projectId, automationId));
    return { status: 204 };
  });
}
