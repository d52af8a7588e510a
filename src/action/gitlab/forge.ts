import type { ClaimResponse } from "../../shared/runner-schemas.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";
import type { RunnerForge } from "../forge.js";
import { renderPullRequestBody } from "../change-request-body.js";

/** What a GitLab CI job knows about itself that the forge calls need. */
export interface GitLabJobIdentity {
  /** CI_JOB_TOKEN: git fetches and pushes the job's branch with it (the project must allow job-token pushes). */
  jobToken: string;
  /** CI_PROJECT_URL, for the merge request's page before Inkwell's claim says it. */
  projectUrl: string;
  /** GITLAB_USER_NAME and GITLAB_USER_EMAIL: who started the pipeline, which is Inkwell's access token's bot user. */
  userName: string | null;
  userEmail: string | null;
  /** CI_SERVER_HOST, for a no-reply address when the pipeline's user has none. */
  serverHost: string;
}

/**
 * GitLab's side of a run: the job's own CI_JOB_TOKEN fetches and pushes the branch, and nothing
 * else is called from the pipeline. The merge request's title, description and draft state go in
 * the report, and Inkwell opens or updates the merge request with its own access token, so the
 * pipeline holds no token that can write the project's merge requests.
 */
export function gitlabForge(claimed: ClaimResponse, ci: GitLabJobIdentity): RunnerForge {
  const projectUrl = withoutTrailingSlashes(claimed.gitlab?.projectUrl ?? ci.projectUrl);
  return {
    gitAuth: { user: "gitlab-ci-token", token: ci.jobToken },
    secrets: [ci.jobToken, ...(claimed.source?.token ? [claimed.source.token.value] : [])],
    changePhase: "merge request",
    commitAuthor: async () => ({ name: ci.userName || "Inkwell", email: ci.userEmail || `inkwell@noreply.${ci.serverHost}` }),
    changeUrl: (iid) => `${projectUrl}/-/merge_requests/${iid}`,
    async publish(request, log) {
      const description = renderPullRequestBody({ ...request.body, forge: "gitlab" });
      log.info(`Pushed ${request.branch}; Inkwell ${claimed.job.prNumber ? `updates merge request !${claimed.job.prNumber}` : "opens its merge request"} when it takes the report.`);
      return { pr: null, mergeRequest: { title: request.title, description, draft: request.draft } };
    },
  };
}
