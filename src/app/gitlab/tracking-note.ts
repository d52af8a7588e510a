import { requireGitLabConnection } from "../domain/gitlab-connections.js";
import type { GitLabNoteWriter } from "../github/tracking-comment.js";
import type { Queryable } from "../store/db.js";
import { GitLabApi } from "./gitlab-api.js";

/** The job's tracking comment on GitLab: one note on its merge request, edited in place, written with the project's access token. */
export const gitLabTrackingNote =
  (db: Queryable): GitLabNoteWriter =>
  async (target, body) => {
    const connection = await requireGitLabConnection(db, target.projectId);
    return new GitLabApi(connection.baseUrl, connection.accessToken).upsertNote(connection.gitlabProjectId, target.prNumber, target.commentId, body);
  };
