import type { DashboardController } from "../controller.js";
import { layout, projectPath } from "../layout.js";
import { projectsBody } from "./page.js";
import { htmlReply, redirect } from "../request.js";
import type { Router } from "../../http-kit/router.js";

/** The dashboard's home, the projects the user can see; a bare project path opens its keys. */
export function registerProjectPages(router: Router, dashboard: DashboardController): void {
  router.on(
    "GET",
    "/dashboard",
    dashboard.page(async (r) => {
      const projects = await dashboard.access.projects(r.session.user);
      return htmlReply(200, layout({ title: "Projects", session: r.session, body: projectsBody(r.session.user, projects) }));
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId",
    dashboard.page(async (r) => redirect(projectPath((await dashboard.project(r)).project.id, "keys"))),
  );
}
