import type { Logger } from "pino";
import { z } from "zod";
import { isSourceLinked } from "../../domain/automations/automations.js";
import { ConflictError, NotConfiguredError, UpstreamError } from "../../domain/errors.js";
import { gitLabConnectionOf, gitLabProjectPathIn, gitLabRepoName } from "../../domain/gitlab-connections.js";
import type { SourceLinkForge } from "../source-link.js";
import type { Db, Queryable } from "../../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../../tasks/task-definition.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { GitLabApi, gitLabStatus } from "./api.js";
import { gitLabWebhookUrl } from "./webhook-endpoint.js";

export interface SourceLinkDeps {
  db: Queryable;
  publicUrl: string | undefined;
}

/**
 * Links a source project to a GitLab project's automation (docs/automations.md): the project's
 * access token must see the source project on the same instance, and Inkwell registers a merge
 * request webhook there (the docs project's endpoint and tokens). Returns the name its merges
 * arrive under, which the automation is found by.
 */
export async function linkSourceRepository(deps: SourceLinkDeps, projectId: string, repository: string): Promise<string> {
  const connection = await gitLabConnectionOf(deps.db, projectId);
  if (!connection) throw new NotConfiguredError("The project has no GitLab connection; connect it again (POST /admin/gitlab/projects)");
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
  await api.addSourceWebhook(source.id, gitLabWebhookUrl(deps.publicUrl, projectId), { token: connection.webhookToken, signingToken: connection.signingToken }).catch((error: unknown) => {
    const status = gitLabStatus(error);
    if (status === 403 || status === 401) throw new ConflictError(`GitLab refused to add a webhook to ${repository} (${status}): the token needs the Maintainer role there`);
    throw new UpstreamError(`GitLab did not add the webhook to ${repository}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return gitLabRepoName(connection.baseUrl, source.pathWithNamespace);
}

export const GITLAB_SOURCE_UNLINK_TASK = "gitlab_source_unlink";

const unlinkSchema = z.object({ projectId: z.string(), sourceRepo: z.string() });

/**
 * A source automation deleted on a GitLab project: its webhook on the source project goes too, in
 * a task of its own (retried when GitLab does not answer), so the source's merges stop reaching Inkwell.
 */
async function queueSourceUnlink(tx: Queryable, projectId: string, sourceRepo: string): Promise<void> {
  if (!(await gitLabConnectionOf(tx, projectId))) return;
  await enqueueTask(tx, GITLAB_SOURCE_UNLINK_TASK, `gitlab-source-unlink:${projectId}:${sourceRepo}`, { projectId, sourceRepo });
}

/** The `gitlab_source_unlink` task: removes the docs project's webhook from the source project, unless an automation links it again meanwhile. */
export function gitLabSourceUnlinkTask(db: Db, publicUrl: string | null, log: Logger): TaskDefinition {
  return defineTask({
    kind: GITLAB_SOURCE_UNLINK_TASK,
    payload: unlinkSchema,
    async run({ projectId, sourceRepo }): Promise<TaskOutcome> {
      const connection = await gitLabConnectionOf(db, projectId);
      if (!connection) return { skipped: "the project is no longer connected" };
      if (!publicUrl) return { skipped: "no PUBLIC_URL: the webhook's address is not known" };
      if (await isSourceLinked(db, projectId, sourceRepo)) return { skipped: `${sourceRepo} is linked again` };
      const sourcePath = gitLabProjectPathIn(connection.baseUrl, sourceRepo);
      if (sourcePath === null) return { skipped: `${sourceRepo} is not on ${connection.baseUrl}` };
      const api = new GitLabApi(connection.baseUrl, connection.accessToken);
      try {
        // By its id, once its path is read: a path that now names the docs project itself must not cost it its own webhook.
        const source = await api.project(sourcePath);
        if (source.id === connection.gitlabProjectId) return { skipped: `${sourcePath} is now the docs project itself` };
        const removed = await api.removeSourceWebhook(source.id, gitLabWebhookUrl(publicUrl, projectId));
        log.info({ projectId, sourcePath, removed }, "source project's webhook removed");
        return removed > 0 ? { ok: true } : { skipped: "no webhook of this project's on the source project" };
      } catch (error) {
        const status = gitLabStatus(error);
        // Gone, or the token lost its access: nothing this task can remove.
        if (status === 404 || status === 403 || status === 401) return { skipped: `GitLab refused to list ${sourcePath}'s webhooks (${status}): remove the webhook there by hand` };
        throw error;
      }
    },
  });
}

/** GitLab's side of source automations: the source project's webhook registered on link, removed in a task when the automation goes. */
export const gitLabSourceLinks = (deps: SourceLinkDeps): SourceLinkForge => ({
  link: (projectId, repository) => linkSourceRepository(deps, projectId, repository),
  queueUnlink: queueSourceUnlink,
});
