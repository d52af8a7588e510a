import type { TrackingNoteForge } from "../tracking.js";
import type { WaitingNoteForge } from "../waiting.js";
import type { GitHubApi } from "./api.js";

/** The notes Inkwell writes on GitHub, as the App's installation: the tracking comment on the job's pull request, edited in place, and a plan or question on the pull request or the issue it came from. */
export const gitHubNotes = (github: GitHubApi): TrackingNoteForge & WaitingNoteForge => ({
  async writeTracking(target, body) {
    if (target.forge !== "github") throw new Error(`a ${target.forge} job's tracking note is not GitHub's to write`);
    return github.upsertIssueComment(target.installationId, target.repoName, target.changeNumber, target.commentId, body);
  },
  async writeWaiting(notice, text) {
    if (notice.installationId === null) return false;
    await github.upsertIssueComment(notice.installationId, notice.repoName, notice.issueNumber, null, text(await github.appSlug()));
    return true;
  },
});
