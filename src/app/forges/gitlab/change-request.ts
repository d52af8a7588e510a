import type { ReportRequest } from "../../../shared/runner-schemas.js";
import { ForbiddenError, notFound, UpstreamError } from "../../domain/errors.js";
import { requireGitLabConnection } from "../../domain/gitlab-connections.js";
import { jobInRepositoryById } from "../../domain/jobs/queries.js";
import type { RunnerCaller } from "../../domain/jobs/runs.js";
import type { Queryable } from "../../store/db.js";
import { GitLabApi, gitLabStatus, type MergeRequestRef } from "./api.js";

type CompletedReport = Extract<ReportRequest, { outcome: "completed" }>;

/**
 * A GitLab run's report of a pushed branch becomes its merge request: opened by Inkwell with the
 * project's access token on the first run (source = the job's branch, target = its base branch;
 * the job's labels and reviewers), updated on later ones (title, description, draft). Returns the
 * report as the job's commands take it, with `pr` naming the merge request. A report of another
 * repository, or of a run the job no longer waits for, is passed on untouched: the report's own
 * checks answer it, and no merge request is opened for it.
 */
export async function withMergeRequest(db: Queryable, report: ReportRequest, caller: RunnerCaller): Promise<ReportRequest> {
  if (report.outcome !== "completed" || !report.mergeRequest) return report;
  const job = await jobInRepositoryById(db, report.jobId);
  if (!job) throw notFound("Job");
  if (job.repoName !== caller.repository.toLowerCase()) throw new ForbiddenError("This job belongs to another repository");
  if (job.forge !== "gitlab" || job.status !== "active" || job.runAttempt !== report.runAttempt) return report;
  const connection = await requireGitLabConnection(db, job.projectId);
  const api = new GitLabApi(connection.baseUrl, connection.accessToken);
  const { title, description, draft } = report.mergeRequest;
  const projectId = connection.gitlabProjectId;
  let mr: MergeRequestRef;
  try {
    if (job.changeNumber !== null) {
      mr = await api.updateMergeRequest(projectId, job.changeNumber, { title, description, draft });
    } else {
      const change = {
        sourceBranch: job.branch,
        targetBranch: job.baseRef ?? connection.defaultBranch ?? "main",
        title,
        description,
        draft,
        labels: job.labels,
        reviewerIds: await api.userIds(job.reviewers),
      };
      mr = await api.openMergeRequest(projectId, change).catch(async (error: unknown) => {
        // Opened by this report's earlier try, whose answer was lost: that one is the job's.
        const existing = gitLabStatus(error) === 409 ? await api.openMergeRequestFrom(projectId, job.branch) : null;
        if (!existing) throw error;
        return api.updateMergeRequest(projectId, existing.iid, { title, description, draft });
      });
    }
  } catch (error) {
    const status = gitLabStatus(error);
    throw new UpstreamError(`GitLab did not ${job.changeNumber === null ? "open" : "update"} the merge request from ${job.branch}${status ? ` (${status})` : ""}: ${error instanceof Error ? error.message : String(error)}; report again`);
  }
  return { ...report, pr: { number: mr.iid, url: mr.webUrl } } satisfies CompletedReport;
}
