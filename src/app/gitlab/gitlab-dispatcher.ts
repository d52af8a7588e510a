import type { DispatchOutcome, DispatchRequest, Dispatcher } from "../dispatch/dispatcher.js";
import { gitLabConnectionOf } from "../domain/gitlab-connections.js";
import type { Queryable } from "../store/db.js";
import { GitLabApi, gitLabStatus } from "./gitlab-api.js";

/**
 * Starts the Inkwell component's job in the GitLab project: a pipeline on the job's base branch (the
 * project's default when it has none) through the pipeline API, with INKWELL_JOB_ID,
 * INKWELL_RUN_ATTEMPT and INKWELL_URL; the component's job runs only when INKWELL_JOB_ID is set.
 * The pipeline's id goes into the job's history (`dispatched`), where its pipeline event finds it.
 */
export class GitLabDispatcher implements Dispatcher {
  constructor(
    private readonly db: Queryable,
    private readonly publicUrl: string | undefined,
  ) {}

  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    const retry = " Then send a follow-up message to this job to run it.";
    const connection = await gitLabConnectionOf(this.db, request.projectId);
    if (!connection) return { ok: false, retryable: false, error: `The project has no GitLab connection; connect it again (POST /admin/gitlab/projects).${retry}` };
    if (!this.publicUrl) return { ok: false, retryable: false, error: `This Inkwell server has no PUBLIC_URL, so a GitLab job cannot reach it; the operator sets it.${retry}` };
    const where = `${connection.projectPath} on ${connection.baseUrl}`;
    const ref = request.baseRef ?? connection.defaultBranch ?? "main";
    try {
      const pipeline = await new GitLabApi(connection.baseUrl, connection.accessToken).createPipeline(connection.gitlabProjectId, ref, {
        INKWELL_JOB_ID: request.jobId,
        INKWELL_RUN_ATTEMPT: String(request.runAttempt),
        INKWELL_URL: this.publicUrl,
      });
      // Recorded with the dispatch: a pipeline that ends before its job reports is matched to the job by it.
      return { ok: true, detail: `pipeline ${pipeline.id}` };
    } catch (error) {
      const status = gitLabStatus(error);
      if (status === 401 || status === 403 || status === 404) {
        return { ok: false, retryable: false, error: `GitLab refused to start a pipeline in ${where} (${status}): check the access token (Maintainer role, api scope) and that it is not expired.${retry}` };
      }
      if (status === 400) {
        return { ok: false, retryable: false, error: `GitLab did not start a pipeline in ${where} on ${ref} (400): is there a .gitlab-ci.yml including the Inkwell component on that branch?${retry}` };
      }
      return { ok: false, retryable: true, error: `GitLab did not start a pipeline in ${where}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}
