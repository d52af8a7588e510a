import { connectGitLabProjectSchema } from "../../../shared/admin-schemas.js";
import { DomainError, ForbiddenError } from "../../domain/errors.js";
import { connectGitLabProject } from "../../forges/gitlab/connect.js";
import type { Router } from "../../http-kit/router.js";
import { HttpError } from "../../http-kit/http-error.js";
import type { DashboardController, SignedInRequest } from "../controller.js";
import { layout, projectPath } from "../layout.js";
import { htmlReply, parseFields, redirect } from "../request.js";
import { gitLabConnectBody } from "./page.js";

const operatorOnly = (r: SignedInRequest) => {
  if (r.session.user.kind !== "operator") throw new ForbiddenError("Only the operator connects GitLab projects");
};

/** Connecting a GitLab project from the dashboard (operator only): the form, and its post through the same connect as the admin API. */
export function registerGitLabPages(router: Router, dashboard: DashboardController): void {
  const { db, config, log } = dashboard.services;

  router.on(
    "GET",
    "/dashboard/gitlab",
    dashboard.page(async (r) => {
      operatorOnly(r);
      return htmlReply(200, layout({ title: "Connect a GitLab project", session: r.session, body: gitLabConnectBody(r.session) }));
    }),
  );

  router.on(
    "POST",
    "/dashboard/gitlab",
    dashboard.action(async (r, form) => {
      operatorOnly(r);
      const body = parseFields(connectGitLabProjectSchema, { gitlabUrl: form.gitlabUrl ?? "", project: form.project ?? "", token: form.token ?? "" });
      try {
        const { project } = await connectGitLabProject(
          db,
          { gitlabUrl: body.gitlabUrl, project: body.project, token: body.token, settings: { model: config.defaultModel } },
          config.publicUrl,
          log.child({ component: "gitlab" }),
        );
        return redirect(projectPath(project.id, "setup"));
      } catch (error) {
        // The form again with what GitLab or Inkwell said, the fields kept (never the token).
        if (!(error instanceof DomainError || error instanceof HttpError)) throw error;
        const page = gitLabConnectBody(r.session, { gitlabUrl: body.gitlabUrl, project: body.project }, error.message);
        return htmlReply(400, layout({ title: "Connect a GitLab project", session: r.session, body: page }));
      }
    }),
  );
}
