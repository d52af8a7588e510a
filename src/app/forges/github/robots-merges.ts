import { z } from "zod";
import { projectIdOfRepository } from "../../domain/projects.js";
import type { Db, Queryable } from "../../store/db.js";
import { queueRobotsFromMerge, type MergeReadingForge } from "../robots-merges.js";
import type { GitHubApi } from "./api.js";

const mergeSchema = z.object({ repo: z.string(), installationId: z.number(), number: z.number(), mergeSha: z.string(), mergedAt: z.string().nullable() });
export type DocsMerge = z.infer<typeof mergeSchema>;

/** A merge into a docs repository's default branch: robots.txt is read from it in a `robots_merge` task (`forges/robots-merges.ts`). */
export async function queueRobotsFromGitHubMerge(db: Queryable, merge: DocsMerge): Promise<void> {
  if (!(await projectIdOfRepository(db, merge.repo))) return;
  await queueRobotsFromMerge(db, "github", `robots-merge:${merge.repo.toLowerCase()}#${merge.number}`, merge);
}

/** GitHub's side of robots.txt from a merge: the pull request's files and the file at the merge commit, with the App's installation token. */
export const gitHubMergeReading = (db: Db, github: GitHubApi): MergeReadingForge => ({
  async readMerge(payload) {
    const merge = mergeSchema.parse(payload);
    const projectId = await projectIdOfRepository(db, merge.repo);
    if (!projectId) return { skipped: "no project on this repository" };
    return {
      projectId,
      reader: {
        files: () => github.pullRequestFiles(merge.installationId, merge.repo, merge.number),
        fileAt: (path) => github.fileAt(merge.installationId, merge.repo, path, merge.mergeSha),
        sha: merge.mergeSha,
        mergedAt: async () => (merge.mergedAt ? new Date(merge.mergedAt) : null),
        repository: merge.repo,
      },
    };
  },
});
