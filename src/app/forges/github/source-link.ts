import { isGitHubRepoName } from "../../../shared/automation-schemas.js";
import { ConflictError, ForbiddenError, UpstreamError } from "../../domain/errors.js";
import { appInstallUrl } from "./app-urls.js";
import type { SourceLinkForge } from "../source-link.js";
import type { GitHubApi } from "./api.js";

/**
 * Whether a code repository may be linked as a source (docs/architecture.md, "Automations"): its
 * merges reach Inkwell only through the App, so the App must be installed there; and a dashboard
 * user links only a repository they can read themselves, so nobody reads code through Inkwell that
 * GitHub would not show them. Without a GitHub App there is nothing to ask (and no merge arrives).
 */
export async function checkSourceLink(github: GitHubApi | null, githubServerUrl: string, repository: string, user: string | null): Promise<void> {
  if (!isGitHubRepoName(repository)) throw new ConflictError(`${repository} is no GitHub repository name: a GitHub docs project's source is owner/repo (group/project paths are for GitLab docs projects)`);
  if (!github) return;
  const unanswered = (error: unknown): never => {
    throw new UpstreamError(`GitHub did not say whether ${repository} can be linked (${error instanceof Error ? error.message : String(error)}); try again`);
  };
  const installationId = await github.installationOn(repository).catch(unanswered);
  if (installationId === null) {
    const install = appInstallUrl(githubServerUrl, await github.appSlug().catch(() => "<your-app>"));
    throw new ConflictError(`The Inkwell App is not installed on ${repository}, so its merges cannot reach Inkwell: install it there (${install}), then add the automation again`);
  }
  if (user === null) return;
  const permission = await github.permission(installationId, repository, user).catch(unanswered);
  if (permission === "none") throw new ForbiddenError(`@${user} cannot read ${repository} on GitHub, so cannot link it: ask someone who can, or the operator`);
}

/** GitHub's side of source automations: a repository is linked under its own name once `checkSourceLink` allows it; nothing is registered, so nothing is removed. */
export const gitHubSourceLinks = (github: GitHubApi | null, githubServerUrl: string): SourceLinkForge => ({
  async link(_projectId, repository, user) {
    await checkSourceLink(github, githubServerUrl, repository, user);
    return repository;
  },
  queueUnlink: async () => {},
});
