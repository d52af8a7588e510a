import type { Logger } from "pino";
import { z } from "zod";
import { addRobotsVersion } from "../analytics/robots/robots-versions.js";
import { ConflictError, InvalidInputError } from "../domain/errors.js";
import { projectIdOfRepository } from "../domain/projects.js";
import type { Db, Queryable } from "../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../tasks/task-definition.js";
import { enqueueTask } from "../tasks/tasks.js";
import type { GitHubApi, PullRequestFile } from "./github-api.js";

export const ROBOTS_MERGE_TASK = "robots_merge";

const mergeSchema = z.object({ repo: z.string(), installationId: z.number(), number: z.number(), mergeSha: z.string(), mergedAt: z.string().nullable() });
export type DocsMerge = z.infer<typeof mergeSchema>;

/**
 * Where a docs framework serves robots.txt from, relative to the repository: the root (Mintlify),
 * the static folder copied to the site's root (Docusaurus `static/`, VitePress `<srcDir>/public/`,
 * Next-based sites `public/`), or the docs folder MkDocs copies (`docs/`).
 */
const SITE_ROOTS = new Set(["", "public", "static", "docs", "docs/public", "docs/static", "website/static", "src/public"]);

/**
 * The site's robots.txt among a merge's files: a file named robots.txt in one of the folders a
 * site is served from (an example's or a test fixture's robots.txt deeper in the tree is not the
 * site's); with several, the one nearest the root. A changed or removed file counts; null when the
 * merge left the site's robots.txt alone.
 */
export function robotsFileIn(files: readonly PullRequestFile[]): { path: string; removed: boolean } | null {
  const folder = (path: string) => path.split("/").slice(0, -1).join("/");
  const touched = files.filter((file) => file.path.split("/").pop() === "robots.txt" && SITE_ROOTS.has(folder(file.path)));
  const nearest = touched.sort((a, b) => a.path.split("/").length - b.path.split("/").length || (a.path < b.path ? -1 : 1))[0];
  return nearest ? { path: nearest.path, removed: nearest.status === "removed" } : null;
}

/** After a merge into a docs repository's default branch: read robots.txt from it, in a task of its own (retried apart from the merge's other work). */
export async function queueRobotsFromMerge(db: Queryable, merge: DocsMerge): Promise<void> {
  if (!(await projectIdOfRepository(db, merge.repo))) return;
  await enqueueTask(db, ROBOTS_MERGE_TASK, `robots-merge:${merge.repo.toLowerCase()}#${merge.number}`, merge);
}

/**
 * The `robots_merge` task (docs/analytics/robots.md, "Where versions come from"): a merge into the
 * docs repository's default branch that changed robots.txt is a new version at its merge time,
 * read at the merge commit with the App's installation token (a removed file is a site without
 * rules). A merge older than the latest version is not one to judge by: skipped.
 */
export function robotsMergeTask(db: Db, github: GitHubApi, log: Logger): TaskDefinition {
  return defineTask({
    kind: ROBOTS_MERGE_TASK,
    payload: mergeSchema,
    async run(merge): Promise<TaskOutcome> {
      const projectId = await projectIdOfRepository(db, merge.repo);
      if (!projectId) return { skipped: "no project on this repository" };
      const file = robotsFileIn(await github.pullRequestFiles(merge.installationId, merge.repo, merge.number));
      if (!file) return { skipped: "robots.txt unchanged" };
      const body = file.removed ? "" : await github.fileAt(merge.installationId, merge.repo, file.path, merge.mergeSha);
      if (body === null) return { skipped: `${file.path} is not in the merge commit` };
      const effectiveAt = merge.mergedAt ? new Date(merge.mergedAt) : new Date();
      try {
        const { version, created } = await db.transaction((tx) =>
          addRobotsVersion(tx, projectId, { body, source: "repository", effectiveAt, origin: `${merge.repo}@${merge.mergeSha.slice(0, 12)}:${file.path}` }),
        );
        log.info({ projectId, repo: merge.repo, pr: merge.number, versionId: version.id, created }, "robots.txt from a merge");
        return created ? { ok: true } : { skipped: "robots.txt the same as the version in force" };
      } catch (error) {
        // Out of time order, or over robots.txt's size limit: not a version to judge by, and no retry changes that.
        if (error instanceof ConflictError || error instanceof InvalidInputError) return { skipped: error.message };
        throw error;
      }
    },
  });
}
