import { readFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../../package-root.js";
import type { DashboardController } from "../controller.js";
import { layout } from "../layout.js";
import { setupBody, workflowFor } from "./page.js";
import { gitLabSetupBody } from "../gitlab/page.js";
import { htmlReply } from "../request.js";
import { actionReference, checkoutOriginUrl, type ActionReference } from "../../forges/github/action-reference.js";
import { APP_SETUP_PATH, appInstallUrl } from "../../forges/github/app-urls.js";
import { checkPublicUrl } from "../../forges/github/public-url-check.js";
import { setupGuide } from "../../forges/github/setup-guide.js";
import { packageVersion } from "../../version.js";
import type { Router } from "../../http-kit/router.js";

/** A project's setup: install the App (or the operator's steps without one), the workflow file, the beacon. */
export function registerSetupPage(router: Router, dashboard: DashboardController): void {
  const { config, github } = dashboard.services;
  // Read on first use, not at start: a server that never shows this page does not need the file.
  let workflowTemplate: string | null = null;
  let action: ActionReference | null = null;

  const installUrl = async () => {
    // The slug is asked of GitHub; when it cannot answer, the page still renders, only without the link.
    const slug = github ? await github.appSlug().catch(() => null) : null;
    return slug ? appInstallUrl(config.githubServerUrl, slug) : null;
  };

  router.on(
    "GET",
    "/dashboard/projects/:projectId/setup",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      if (project.forge === "gitlab") {
        return htmlReply(200, layout({ title: "Setup", session: r.session, project: { project, access, tab: "setup" }, body: gitLabSetupBody(project, config.publicUrl ?? r.origin) }));
      }
      workflowTemplate ??= readFileSync(path.join(PACKAGE_ROOT, "examples", "inkwell-workflow.yml"), "utf8");
      action ??= actionReference({ configured: config.actionRef, version: packageVersion(), githubServerUrl: config.githubServerUrl, originUrl: () => checkoutOriginUrl(PACKAGE_ROOT) });
      const serviceUrl = config.publicUrl ?? r.origin;
      const body = setupBody({
        project,
        workflow: workflowFor(workflowTemplate, serviceUrl, project.model, action.uses),
        action,
        installUrl: await installUrl(),
        appSteps: github ? null : setupGuide(config).steps,
        serviceUrl,
        reach: checkPublicUrl(config.publicUrl),
        appSetupPath: APP_SETUP_PATH,
      });
      return htmlReply(200, layout({ title: "Setup", session: r.session, project: { project, access, tab: "setup" }, body }));
    }),
  );
}
