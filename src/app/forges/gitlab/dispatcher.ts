import type { DispatchOutcome, DispatchRequest, Dispatcher } from "../../dispatch/dispatcher.js";
import { gitLabConnectionOf } from "../../domain/gitlab-connections.js";
import type { Queryable } from "../../store/db.js";
import { GitLabApi, gitLabMessage, gitLabStatus } from "./api.js";
import { PIPELINE_INPUTS, pipelineParameters, refusesPipelineVariables, type PipelineParameters } from "./pipeline-inputs.js";

/**
 * Starts the Inkwell component's job in the GitLab project: a pipeline on the job's base branch (the
 * project's default when it has none) through the pipeline API, carrying the job as pipeline inputs
 * where the project's CI configuration declares Inkwell's (pipeline-inputs.ts), else as the
 * variables INKWELL_JOB_ID, INKWELL_RUN_ATTEMPT and INKWELL_URL; the component's job runs only
 * when it has a job id. The pipeline's id goes into the job's history (`dispatched`), where its
 * pipeline event finds it.
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
    const api = new GitLabApi(connection.baseUrl, connection.accessToken);
    let parameters: PipelineParameters | null = null;
    try {
      const project = await api.project(connection.gitlabProjectId);
      parameters = pipelineParameters(await api.fileAt(connection.gitlabProjectId, project.ciConfigPath, ref), { jobId: request.jobId, runAttempt: request.runAttempt, publicUrl: this.publicUrl });
      const pipeline = await api.createPipeline(connection.gitlabProjectId, ref, parameters);
      // Recorded with the dispatch: a pipeline that ends before its job reports is matched to the job by it.
      return { ok: true, detail: `pipeline ${pipeline.id}` };
    } catch (error) {
      const status = gitLabStatus(error);
      const said = gitLabMessage(error);
      const gitlabSays = said ? `: ${said}` : "";
      if (status === 401 || status === 403 || status === 404) {
        return { ok: false, retryable: false, error: `GitLab refused to start a pipeline in ${where} (${status}${gitlabSays}): check the access token (Maintainer role, api scope) and that it is not expired.${retry}` };
      }
      if (status === 400 && parameters && "variables" in parameters && refusesPipelineVariables(said)) {
        return {
          ok: false,
          retryable: false,
          error:
            `GitLab refused to start a pipeline in ${where} with variables (400${gitlabSays}): the project lets no one set pipeline variables (GitLab.com's default for new projects). ` +
            `Declare Inkwell's pipeline inputs (${PIPELINE_INPUTS.jobId}, ${PIPELINE_INPUTS.runAttempt}) in ${ref}'s .gitlab-ci.yml and pass them to the component (docs/gitlab.md, "Pipeline inputs"), ` +
            `or let Maintainers use pipeline variables (Settings > CI/CD > Variables > Minimum role to use pipeline variables).${retry}`,
        };
      }
      if (status === 400) {
        return { ok: false, retryable: false, error: `GitLab did not start a pipeline in ${where} on ${ref} (400${gitlabSays}): is there a .gitlab-ci.yml including the Inkwell component on that branch?${retry}` };
      }
      return { ok: false, retryable: true, error: `GitLab did not start a pipeline in ${where}: ${said ?? (error instanceof Error ? error.message : String(error))}` };
    }
  }
}
