import { z } from "zod";
import { gitLabConnectionOf, gitLabRepoName } from "../../domain/gitlab-connections.js";
import type { Db, Queryable } from "../../store/db.js";
import { queueRobotsFromMerge, type MergeReadingForge } from "../robots-merges.js";
import { GitLabApi } from "./api.js";

const mergeSchema = z.object({ projectId: z.string(), iid: z.int(), mergeSha: z.string() });
type DocsProjectMerge = z.infer<typeof mergeSchema>;

/** A merge request merged into the docs project's default branch: robots.txt is read from it in a `robots_merge` task (`forges/robots-merges.ts`). */
export async function queueRobotsFromGitLabMerge(db: Queryable, merge: DocsProjectMerge): Promise<void> {
  await queueRobotsFromMerge(db, "gitlab", `gitlab-robots-merge:${merge.projectId}!${merge.iid}`, merge);
}

/** GitLab's side of robots.txt from a merge: the merge request's diffs, the file at the commit that landed and GitLab's `merged_at`, with the project's access token. */
export const gitLabMergeReading = (db: Db): MergeReadingForge => ({
  async readMerge(payload) {
    const merge = mergeSchema.parse(payload);
    const connection = await gitLabConnectionOf(db, merge.projectId);
    if (!connection) return { skipped: "the project is no longer connected" };
    const api = new GitLabApi(connection.baseUrl, connection.accessToken);
    return {
      projectId: merge.projectId,
      reader: {
        files: () => api.mergeRequestFiles(connection.gitlabProjectId, merge.iid),
        fileAt: (path) => api.fileAt(connection.gitlabProjectId, path, merge.mergeSha),
        sha: merge.mergeSha,
        mergedAt: () => api.mergedAt(connection.gitlabProjectId, merge.iid),
        repository: gitLabRepoName(connection.baseUrl, connection.projectPath),
      },
    };
  },
});
