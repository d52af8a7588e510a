import { createKeySchema, createProjectSchema, updateProjectSchema, type AgentRangeListView, type ProjectView } from "../../../shared/admin-schemas.js";
import type { AgentRangeList } from "../../analytics/classify/agent-ranges.js";
import { createApiKey, listApiKeys, revokeApiKey } from "../../domain/api-keys.js";
import { listGrants, revokeGrant } from "../../domain/oauth-grants.js";
import { HttpError } from "../../http-kit/http-error.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { createProject, getProject, listProjects, parseRepository, updateAllowedModels, updateJobSettings, updateProjectAnalytics, type Project } from "../../domain/projects.js";
import { requireAdmin } from "../auth.js";
import { registerAdminStoreRoutes } from "./admin-store.js";
import { readJson, validate } from "../../http-kit/body.js";
import type { RequestContext, Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";

const rangeListView = (list: AgentRangeList): AgentRangeListView => ({
  id: list.source.id,
  url: list.source.url,
  operator: list.source.operator,
  agents: list.source.agents,
  asOf: list.asOf,
  prefixes: list.document.prefixes.length,
});

/** A project as the operator API shows it; a GitLab project's connection is added by its routes (admin-gitlab.ts). */
export const projectView = (project: Project, defaultRateLimitPerHour: number): ProjectView => ({
  id: project.id,
  name: project.name,
  repository: project.repository,
  ref: project.baseRef,
  model: project.model,
  allowedModels: project.allowedModels,
  rateLimitPerHour: project.rateLimitPerHour ?? defaultRateLimitPerHour,
  installation: { installed: project.installationId !== null, id: project.installationId, suspended: project.installationSuspended },
  forge: project.forge,
  analytics: project.analytics,
  jobs: project.jobs,
  createdAt: project.createdAt,
  updatedAt: project.updatedAt,
});

/** The operator API under /admin, authenticated with the operator token. */
export function registerAdminRoutes(router: Router, services: Services): void {
  const { db, config, adminToken, verifier, analytics } = services;
  registerAdminStoreRoutes(router, services);

  const view = (project: Project) => projectView(project, config.rateLimitPerHour);
  const projectIdOf = (ctx: RequestContext) => {
    requireAdmin(ctx.req, adminToken);
    return wellFormedIdOf(ctx.params.id, "Project");
  };

  router.on("POST", "/admin/projects", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const body = validate(createProjectSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const repo = parseRepository(body.repository, config.githubServerUrl);
    if (!repo) {
      throw new HttpError(400, `Invalid request body: repository must be owner/repo or a ${config.githubServerUrl}/owner/repo URL`, [
        { message: "repository: must be owner/repo or a repository URL on the configured GitHub host" },
      ]);
    }
    const project = await createProject(db, {
      ...repo,
      name: body.name,
      baseRef: body.ref,
      model: body.model ?? config.defaultModel,
      allowedModels: body.allowedModels,
      rateLimitPerHour: body.rateLimitPerHour,
      analytics: body.analytics,
      jobs: body.jobs,
    });
    return { status: 201, body: view(project) };
  });

  router.on("GET", "/admin/projects", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    return { status: 200, body: { projects: (await listProjects(db)).map(view) } };
  });

  router.on("GET", "/admin/projects/:id", async (ctx) => {
    return { status: 200, body: view(await getProject(db, projectIdOf(ctx))) };
  });

  router.on("PATCH", "/admin/projects/:id", async (ctx) => {
    const projectId = projectIdOf(ctx);
    const body = validate(updateProjectSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const project = await db.transaction(async (tx) => {
      let updated = body.analytics ? await updateProjectAnalytics(tx, projectId, body.analytics) : null;
      if (body.allowedModels) updated = await updateAllowedModels(tx, projectId, body.allowedModels);
      if (body.jobs) updated = await updateJobSettings(tx, projectId, body.jobs);
      return updated ?? getProject(tx, projectId);
    });
    analytics.forgetSettings(projectId);
    return { status: 200, body: view(project) };
  });

  router.on("GET", "/admin/agents/ranges", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const lists = await analytics.ranges.lists();
    return { status: 200, body: { lists: lists.map(rangeListView) } };
  });

  router.on("POST", "/admin/agents/refresh", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    return { status: 200, body: { results: await analytics.ranges.refresh() } };
  });

  router.on("POST", "/admin/projects/:id/keys", async (ctx) => {
    const projectId = projectIdOf(ctx);
    const hasBody = Number(ctx.req.headers["content-length"] ?? 0) > 0 || ctx.req.headers["transfer-encoding"] !== undefined;
    const body = validate(createKeySchema, hasBody ? await readJson(ctx.req, config.maxBodyBytes) : {}, "body");
    await getProject(db, projectId);
    const { key, info } = await createApiKey(db, projectId, body.name ?? null, body.scopes);
    return { status: 201, body: { ...info, key } };
  });

  router.on("GET", "/admin/projects/:id/keys", async (ctx) => {
    const projectId = projectIdOf(ctx);
    await getProject(db, projectId);
    return { status: 200, body: { keys: await listApiKeys(db, projectId) } };
  });

  router.on("GET", "/admin/projects/:id/grants", async (ctx) => {
    const projectId = projectIdOf(ctx);
    await getProject(db, projectId);
    return { status: 200, body: { grants: await listGrants(db, projectId) } };
  });

  router.on("DELETE", "/admin/projects/:id/grants/:grantId", async (ctx) => {
    const projectId = projectIdOf(ctx);
    const grantId = wellFormedIdOf(ctx.params.grantId, "Grant");
    await revokeGrant(db, projectId, grantId);
    return { status: 200, body: (await listGrants(db, projectId)).find((grant) => grant.id === grantId) };
  });

  router.on("DELETE", "/admin/projects/:id/keys/:keyId", async (ctx) => {
    const projectId = projectIdOf(ctx);
    const keyId = wellFormedIdOf(ctx.params.keyId, "API key");
    const revoked = await revokeApiKey(db, projectId, keyId);
    verifier.forget(revoked.id);
    return { status: 200, body: revoked };
  });
}
