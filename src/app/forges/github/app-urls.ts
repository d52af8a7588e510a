/**
 * Where a user installs the GitHub App. github.com serves Apps under `/apps/`, GitHub Enterprise
 * Server under `/github-apps/`, so the same slug needs a different path on each.
 */
export function appInstallUrl(githubServerUrl: string, slug: string): string {
  const appsPath = githubServerUrl === "https://github.com" ? "apps" : "github-apps";
  return `${githubServerUrl}/${appsPath}/${slug}/installations/new`;
}

/** The operator's dashboard page for the GitHub App: every "no App" message points here. */
export const APP_SETUP_PATH = "/dashboard/github-app";

export const appSetupUrl = (config: { publicUrl: string | undefined; port: number }) => `${config.publicUrl ?? `http://localhost:${config.port}`}${APP_SETUP_PATH}`;
