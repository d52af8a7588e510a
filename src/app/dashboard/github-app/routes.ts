import type { DashboardController, SignedInRequest } from "../controller.js";
import { PACKAGE_ROOT } from "../../package-root.js";
import { layout } from "../layout.js";
import { gitHubAppBody, registeredBody, type GitHubAppView } from "./page.js";
import { CONTENT_SECURITY_POLICY, htmlReply } from "../request.js";
import {
  appManifest,
  convertManifestCode,
  isRegistrationState,
  readAppYml,
  registrationFormUrl,
  registrationSchema,
  registrationState,
  REGISTERED_PATH,
  saveAppCredentials,
} from "../../forges/github/app-registration.js";
import { appInstallUrl, APP_SETUP_PATH } from "../../forges/github/app-urls.js";
import { checkPublicUrl, tunnelRecipe } from "../../forges/github/public-url-check.js";
import { HttpError } from "../../http-kit/http-error.js";
import type { Router } from "../../http-kit/router.js";
import { describeIssues } from "../../../shared/zod-issues.js";

const requireOperator = (r: SignedInRequest) => {
  if (r.session.user.kind !== "operator") throw new HttpError(403, "Only the operator sets up the GitHub App; sign in with the operator token.");
};

/**
 * The operator's GitHub App page: whether GitHub can reach this server (with a tunnel recipe when
 * it cannot), and registration through GitHub's manifest flow with the App name the operator picks
 * and every URL on PUBLIC_URL, whatever port this server listens on.
 */
export function registerGitHubAppPages(router: Router, dashboard: DashboardController): void {
  const { config, github } = dashboard.services;

  router.on(
    "GET",
    APP_SETUP_PATH,
    dashboard.page(async (r) => {
      requireOperator(r);
      const serviceUrl = config.publicUrl ?? r.origin;
      const query = r.ctx.url.searchParams;
      const typed = { name: query.get("name") ?? `Inkwell ${new URL(serviceUrl).hostname}`.slice(0, 34), organization: query.get("organization") ?? "" };
      const view: GitHubAppView = {
        session: r.session,
        serviceUrl,
        publicUrlCheck: checkPublicUrl(config.publicUrl),
        tunnelRecipe: tunnelRecipe(config.port),
        configured: config.app ? { appId: config.app.appId, installUrl: await installUrl() } : null,
        form: { ...typed, error: null },
        ready: null,
      };
      let csp = CONTENT_SECURITY_POLICY;
      if (!config.app && query.has("name")) {
        const parsed = registrationSchema.safeParse({ name: typed.name, organization: typed.organization.trim() || undefined });
        if (!parsed.success) view.form.error = describeIssues(parsed.error, "registration");
        else {
          const formUrl = registrationFormUrl(config.githubServerUrl, parsed.data.organization, registrationState(r.session.csrfToken));
          view.ready = { ...parsed.data, formUrl, manifest: JSON.stringify(appManifest(readAppYml(PACKAGE_ROOT), parsed.data, serviceUrl)) };
          // This page's one form posts the manifest to GitHub.
          csp = csp.replace("form-action 'self'", `form-action 'self' ${config.githubServerUrl}`);
        }
      }
      return htmlReply(200, layout({ title: "GitHub App", session: r.session, body: gitHubAppBody(view) }), { "Content-Security-Policy": csp });
    }),
  );

  router.on(
    "GET",
    REGISTERED_PATH,
    dashboard.page(async (r) => {
      requireOperator(r);
      if (config.app) throw new HttpError(409, "This server already has a GitHub App configured; nothing was saved.");
      const query = r.ctx.url.searchParams;
      if (!isRegistrationState(query.get("state") ?? "", r.session.csrfToken)) {
        throw new HttpError(400, `This registration was not started from this dashboard session; start again at ${APP_SETUP_PATH}.`);
      }
      const app = await convertManifestCode(config.githubApiUrl, query.get("code") ?? "").catch((error: unknown) => {
        throw new HttpError(502, (error as Error).message);
      });
      const file = saveAppCredentials(config.dataDir, app);
      dashboard.services.log.info({ appId: app.id, slug: app.slug, file }, "GitHub App registered from the dashboard; restart to use it");
      const body = registeredBody({ name: app.name, htmlUrl: app.html_url, installUrl: appInstallUrl(config.githubServerUrl, app.slug) }, file);
      return htmlReply(200, layout({ title: "GitHub App registered", session: r.session, body }));
    }),
  );

  async function installUrl(): Promise<string | null> {
    const slug = github ? await github.appSlug().catch(() => null) : null;
    return slug ? appInstallUrl(config.githubServerUrl, slug) : null;
  }
}
