/**
 * Where a user installs the GitHub App. github.com serves Apps under `/apps/`, GitHub Enterprise
 * Server under `/github-apps/`, so the same slug needs a different path on each.
 */
export function appInstallUrl(githubServerUrl: string, slug: string): string {
  const appsPath = githubServerUrl === "https://github.com" ? "apps" : "github-apps";
  return `${githubServerUrl}/${appsPath}/${slug}/installations/new`;
}
