import { DashboardAssets } from "./assets.js";
import { DashboardController } from "./controller.js";
import type { Router } from "../http-kit/router.js";
import type { Services } from "../services.js";
import { registerAgentPages } from "./agents/routes.js";
import { registerAutomationPages } from "./automations/routes.js";
import { registerAnalyticsPages } from "./analytics/routes.js";
import { registerGitHubAppPages } from "./github-app/routes.js";
import { registerGitLabPages } from "./gitlab/routes.js";
import { registerJobPages } from "./jobs/routes.js";
import { registerKeyPages } from "./keys/routes.js";
import { registerOAuthPages } from "./oauth/routes.js";
import { registerWebhookPages } from "./webhooks/routes.js";
import { registerProjectPages } from "./projects/routes.js";
import { registerSetupPage } from "./setup/routes.js";
import { registerSignInRoutes } from "./sign-in/routes.js";
import { registerSlackPages } from "./slack/routes.js";

/**
 * The dashboard (issue 6): server-rendered pages under /dashboard; each state change is a
 * CSRF-checked form post. Each section is a folder here, its routes (`routes.ts`) beside its page (`page.ts`).
 */
export function registerDashboardRoutes(router: Router, services: Services): void {
  const dashboard = new DashboardController(services);
  const assets = new DashboardAssets();

  router.on("GET", "/dashboard/assets/:name", async (ctx) => assets.reply(ctx.params.name ?? "", ctx.req.headers["if-none-match"]));
  registerSignInRoutes(router, dashboard);
  registerProjectPages(router, dashboard);
  registerKeyPages(router, dashboard);
  registerOAuthPages(router, dashboard);
  registerWebhookPages(router, dashboard);
  registerAnalyticsPages(router, dashboard);
  registerAgentPages(router, dashboard);
  registerJobPages(router, dashboard);
  registerAutomationPages(router, dashboard);
  registerSetupPage(router, dashboard);
  registerGitHubAppPages(router, dashboard);
  registerGitLabPages(router, dashboard);
  registerSlackPages(router, dashboard);
}
