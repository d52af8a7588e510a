import type { Logger } from "pino";
import { z } from "zod";
import { projectIdOfRepository } from "../../domain/projects.js";
import type { Db, Queryable } from "../../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../../tasks/task-definition.js";
import { enqueueTask } from "../../tasks/tasks.js";
import { robotsVersionFromMerge } from "../robots-merges.js";
import type { GitHubApi } from "./api.js";

export const ROBOTS_MERGE_TASK = "robots_merge";

const mergeSchema = z.object({ repo: z.string(), installationId: z.number(), number: z.number(), mergeSha: z.string(), mergedAt: z.string().nullable() });
export type DocsMerge = z.infer<typeof mergeSchema>;

/** After a merge into a docs repository's default branch: read robots.txt from it, in a task of its own (retried apart from the merge's other work). */
export async function queueRobotsFromMerge(db: Queryable, merge: DocsMerge): Promise<void> {
  if (!(await projectIdOfRepository(db, merge.repo))) return;
  await enqueueTask(db, ROBOTS_MERGE_TASK, `robots-merge:${merge.repo.toLowerCase()}#${merge.number}`, merge);
}

/**
 * The `robots_merge` task (docs/analytics/robots.md, "Where versions come from"): a merge into the
 * docs repository's default branch that changed robots.txt is a new version at its merge time,
 * read at the merge commit with the App's installation token (`forges/robots-merges.ts`).
 */
export function robotsMergeTask(db: Db, github: GitHubApi, log: Logger): TaskDefinition {
  return defineTask({
    kind: ROBOTS_MERGE_TASK,
    payload: mergeSchema,
    async run(merge): Promise<TaskOutcome> {
      const projectId = await projectIdOfRepository(db, merge.repo);
      if (!projectId) return { skipped: "no project on this repository" };
      return robotsVersionFromMerge(db, projectId, {
        files: () => github.pullRequestFiles(merge.installationId, merge.repo, merge.number),
        fileAt: (path) => github.fileAt(merge.installationId, merge.repo, path, merge.mergeSha),
        sha: merge.mergeSha,
        mergedAt: async () => (merge.mergedAt ? new Date(merge.mergedAt) : null),
        repository: merge.repo,
      }, log);
    },
  });
}
