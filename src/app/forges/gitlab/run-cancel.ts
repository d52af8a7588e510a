import { gitLabConnectionOf } from "../../domain/gitlab-connections.js";
import type { RunCancelForge } from "../run-cancel.js";
import type { Queryable } from "../../store/db.js";
import { GitLabApi, gitLabStatus } from "./api.js";

/**
 * GitLab's side of stopping a job: the pipeline the attempt's dispatch started (the `dispatched`
 * event's `pipeline <id>`, or the pipeline its job claimed with) is cancelled with the project's
 * access token (`POST /projects/:id/pipelines/:pipeline_id/cancel`). A pipeline that had ended is
 * not an error; a refusal is named on the job's timeline.
 */
export function gitLabRunCancel(db: Queryable): RunCancelForge {
  return {
    async cancelRun({ job, runAttempt, claimedRunId, dispatchDetail }) {
      // The dispatch recorded `pipeline <id>` (dispatcher.ts).
      const dispatched = /^pipeline (\d+)$/.exec(dispatchDetail ?? "")?.[1];
      const pipelineId = claimedRunId ?? (dispatched ? Number(dispatched) : null);
      if (pipelineId === null) return { notCancelled: `run attempt ${runAttempt}'s pipeline not cancelled: GitLab did not say which pipeline it started` };
      const connection = await gitLabConnectionOf(db, job.projectId);
      if (!connection) return { notCancelled: `pipeline ${pipelineId} not cancelled: the project has no GitLab connection any more` };
      try {
        const status = await new GitLabApi(connection.baseUrl, connection.accessToken).cancelPipeline(connection.gitlabProjectId, pipelineId);
        return { cancelled: status === "canceled" || status === "canceling" ? `pipeline ${pipelineId} cancelled` : `pipeline ${pipelineId} had already ended (${status})` };
      } catch (error) {
        const status = gitLabStatus(error);
        if (status === 404) return { notCancelled: `pipeline ${pipelineId} not cancelled: GitLab does not know it (404)` };
        if (status === 401 || status === 403) {
          return { notCancelled: `pipeline ${pipelineId} not cancelled: GitLab refused (${status}); check the access token (Maintainer role, api scope) and that it is not expired` };
        }
        if (status !== null && status < 500 && status !== 429) return { notCancelled: `pipeline ${pipelineId} not cancelled: GitLab answered ${status}` };
        return { retry: `GitLab did not cancel pipeline ${pipelineId}: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
