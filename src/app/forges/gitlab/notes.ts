import { requireGitLabConnection } from "../../domain/gitlab-connections.js";
import type { Queryable } from "../../store/db.js";
import type { TrackingNoteForge } from "../tracking.js";
import type { WaitingNoteForge } from "../waiting.js";
import { GitLabApi } from "./api.js";

/** The notes Inkwell writes on GitLab, with the project's access token: the job's tracking note on its merge request, edited in place, and a plan or question on the merge request or the issue it came from. */
export const gitLabNotes = (db: Queryable): TrackingNoteForge & WaitingNoteForge => ({
  async writeTracking(target, body) {
    if (target.forge !== "gitlab") throw new Error(`a ${target.forge} job's tracking note is not GitLab's to write`);
    const connection = await requireGitLabConnection(db, target.projectId);
    return new GitLabApi(connection.baseUrl, connection.accessToken).upsertNote(connection.gitlabProjectId, target.changeNumber, target.commentId, body);
  },
  async writeWaiting(notice, text) {
    const connection = await requireGitLabConnection(db, notice.projectId);
    const api = new GitLabApi(connection.baseUrl, connection.accessToken);
    const body = text(connection.tokenUsername);
    if (notice.onIssue) await api.noteOnIssue(connection.gitlabProjectId, notice.issueNumber, body);
    else await api.upsertNote(connection.gitlabProjectId, notice.issueNumber, null, body);
    return true;
  },
});
