import { ConflictError, NotConfiguredError, UpstreamError } from "../domain/errors.js";
import { gitLabConnectionOf, gitLabRepoFullName } from "../domain/gitlab-connections.js";
import { checkSourceLink } from "../github/source-link.js";
import type { GitHubApi } from "../github/github-api.js";
import type { Queryable } from "../store/db.js";
import { GitLabApi, gitLabStatus } from "./gitlab-api.js";
import { GITLAB_WEBHOOK_PATH } from "./webhook-endpoint.js";

export interface SourceLinkDeps {
  db: Queryable;
  github: GitHubApi | null;
  githubServerUrl: string;
  publicUrl: string | undefined;
}

/**
 * Links a source repository to a project's automation, on the project's forge (docs/automations.md):
 * on GitHub the App must be installed there (`github/source-link.ts`); on GitLab the project's
 * access token must see the source project on the same instance, and Inkwell registers a merge
 * request webhook there (the docs project's endpoint and tokens). Returns the name its merges
 * arrive under, which the automation is found by.
 */
export async function linkSourceRepository(deps: SourceLinkDeps, projectId: string, repository: string, user: string | null): Promise<string> {
  const connection = await gitLabConnectionOf(deps.db, projectId);
  if (!connection) {
    await checkSourceLink(deps.github, deps.githubServerUrl, repository, user);
    return repository;
  }
  if (!deps.publicUrl) throw new NotConfiguredError("Set PUBLIC_URL first: GitLab delivers the source project's merges to it");
  const api = new GitLabApi(connection.baseUrl, connection.accessToken);
  const source = await api.project(repository).catch((error: unknown) => {
    const status = gitLabStatus(error);
    if (status === 404 || status === 403 || status === 401) {
      throw new ConflictError(
        `The project's access token cannot see ${repository} on ${connection.baseUrl} (${status}): connect the docs project with a group access token (Maintainer, api) whose group holds both projects, then add the automation again`,
      );
    }
    throw new UpstreamError(`GitLab did not say whether ${repository} can be linked (${error instanceof Error ? error.message : String(error)}); try again`);
  });
  if (source.id === connection.gitlabProjectId) throw new ConflictError(`${repository} is the docs project itself: its issues automation and merge requests already reach Inkwell`);
  await api.addSourceWebhook(source.id, `${deps.publicUrl}${GITLAB_WEBHOOK_PATH}/${projectId}`, { token: connection.webhookToken, signingToken: connection.signingToken }).catch((error: unknown) => {
    const status = gitLabStatus(error);
    if (status === 403 || status === 401) throw new ConflictError(`GitLab refused to add a webhook to ${repository} (${status}): the token needs the Maintainer role there`);
    throw new UpstreamError(`GitLab did not add the webhook to ${repository}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return gitLabRepoFullName(connection.baseUrl, source.pathWithNamespace);
}
