import { requireGitLabConnection } from "../domain/gitlab-connections.js";
import type { GitLabNoteWriter } from "../github/tracking-comment.js";
import type { GitLabWaitingNoteWriter } from "../github/waiting-comment.js";
import type { Queryable } from "../store/db.js";
import { GitLabApi } from "./gitlab-api.js";

/** The notes Inkwell writes on GitLab, with the project's access token. The job's tracking comment: one note on its merge request, edited in place, written with the project's access token. */
export const gitLabTrackingNote =
  (db: Queryable): GitLabNoteWriter =>
  async (target, body) => {
    const connection = await requireGitLabConnection(db, target.projectId);
    return new GitLabApi(connection.baseUrl, connection.accessToken).upsertNote(connection.gitlabProjectId, target.prNumber, target.commentId, body);
  };

/** A plan to approve or a question to answer, as a note on the job's merge request or the issue it came from. */
export const gitLabWaitingNote =
  (db: Queryable): GitLabWaitingNoteWriter =>
  async (notice, text) => {
    const connection = await requireGitLabConnection(db, notice.projectId);
    const api = new GitLabApi(connection.baseUrl, connection.accessToken);
    const body = text(connection.tokenUsername);
    if (notice.onIssue) await api.noteOnIssue(connection.gitlabProjectId, notice.issueNumber, body);
    else await api.upsertNote(connection.gitlabProjectId, notice.issueNumber, null, body);
  };
