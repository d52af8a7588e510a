import { connectGitLabProjectSchema, type ProjectView } from "../../../shared/admin-schemas.js";
import { requireGitLabConnection, type GitLabConnection } from "../../domain/gitlab-connections.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { getProject } from "../../domain/projects.js";
import { connectGitLabProject } from "../../forges/gitlab/connect.js";
import { readJson, validate } from "../../http-kit/body.js";
import type { Router } from "../../http-kit/router.js";
import type { Services } from "../../services.js";
import { requireAdmin } from "../auth.js";
import { projectView } from "./admin.js";

const connectionView = (connection: GitLabConnection): NonNullable<ProjectView["gitlab"]> => ({
  url: connection.baseUrl,
  projectId: connection.gitlabProjectId,
  projectPath: connection.projectPath,
  webhookId: connection.webhookId,
});

/** Connecting GitLab projects (docs/gitlab.md): the operator gives the instance, the project and an access token. */
export function registerAdminGitLabRoutes(router: Router, services: Services): void {
  const { db, config, adminToken, log } = services;

  router.on("POST", "/admin/gitlab/projects", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const body = validate(connectGitLabProjectSchema, await readJson(ctx.req, config.maxBodyBytes), "body");
    const { project, connection, warnings } = await connectGitLabProject(
      db,
      {
        gitlabUrl: body.gitlabUrl,
        project: body.project,
        token: body.token,
        settings: { name: body.name, baseRef: body.ref, model: body.model ?? config.defaultModel, allowedModels: body.allowedModels, rateLimitPerHour: body.rateLimitPerHour, analytics: body.analytics, jobs: body.jobs },
      },
      config.publicUrl,
      log.child({ component: "gitlab" }),
    );
    return { status: 201, body: { ...projectView(project, config.rateLimitPerHour), gitlab: { ...connectionView(connection), warnings } } };
  });

  router.on("GET", "/admin/gitlab/projects/:id", async (ctx) => {
    requireAdmin(ctx.req, adminToken);
    const projectId = wellFormedIdOf(ctx.params.id, "Project");
    const project = await getProject(db, projectId);
    return { status: 200, body: { ...projectView(project, config.rateLimitPerHour), gitlab: connectionView(await requireGitLabConnection(db, projectId)) } };
  });
}
