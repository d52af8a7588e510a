import type { Logger } from "pino";
import { z } from "zod";
import { gitLabConnectionOf, gitLabRepoFullName } from "../../domain/gitlab-connections.js";
import { robotsVersionFromMerge } from "../robots-merges.js";
import type { Db, Queryable } from "../../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../../tasks/task-definition.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { GitLabApi } from "./api.js";

export const GITLAB_ROBOTS_MERGE_TASK = "gitlab_robots_merge";

const mergeSchema = z.object({ projectId: z.string(), iid: z.int(), mergeSha: z.string() });
type DocsProjectMerge = z.infer<typeof mergeSchema>;

/** After a merge request merged into the docs project's default branch: read robots.txt from it, in a task of its own (retried apart from the merge's other work). */
export async function queueRobotsFromGitLabMerge(db: Queryable, merge: DocsProjectMerge): Promise<void> {
  await enqueueTask(db, GITLAB_ROBOTS_MERGE_TASK, `gitlab-robots-merge:${merge.projectId}!${merge.iid}`, merge);
}

/**
 * The `gitlab_robots_merge` task (docs/analytics/robots.md, "Where versions come from"): a merge
 * into the docs project's default branch that changed robots.txt is a new version at GitLab's
 * `merged_at`, read at the commit that landed with the project's access token (`forges/robots-merges.ts`).
 */
export function gitLabRobotsMergeTask(db: Db, log: Logger): TaskDefinition {
  return defineTask({
    kind: GITLAB_ROBOTS_MERGE_TASK,
    payload: mergeSchema,
    async run(merge): Promise<TaskOutcome> {
      const connection = await gitLabConnectionOf(db, merge.projectId);
      if (!connection) return { skipped: "the project is no longer connected" };
      const api = new GitLabApi(connection.baseUrl, connection.accessToken);
      return robotsVersionFromMerge(db, merge.projectId, {
        files: () => api.mergeRequestFiles(connection.gitlabProjectId, merge.iid),
        fileAt: (path) => api.fileAt(connection.gitlabProjectId, path, merge.mergeSha),
        sha: merge.mergeSha,
        mergedAt: () => api.mergedAt(connection.gitlabProjectId, merge.iid),
        repository: gitLabRepoFullName(connection.baseUrl, connection.projectPath),
      }, log);
    },
  });
}
