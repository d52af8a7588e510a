import type { ClaimResponse } from "../../../shared/runner-schemas.js";
import { isGitLabIssuer, requireGitLabConnection } from "../../domain/gitlab-connections.js";
import type { Queryable } from "../../store/db.js";
import type { RunnerForge } from "../runner.js";
import { withMergeRequest } from "./change-request.js";
import type { GitLabIdTokenVerifier } from "./runner-identity.js";

/**
 * GitLab's runner side: a CI ID token of a connected instance (`runner-identity.ts`, with the
 * pipeline it runs in, which the claim must name), answered at claim with no token (the job pushes
 * with its own CI_JOB_TOKEN) and the project's place on its instance; its report's merge request
 * is opened or updated here (`change-request.ts`) before the report is recorded.
 */
export function gitLabRunner(db: Queryable, idTokens: GitLabIdTokenVerifier | null): RunnerForge {
  return {
    forge: "gitlab",
    tokenName: "the GitLab job's CI ID token",
    issuerName: "a connected GitLab instance",
    async recognizes(claimed) {
      return claimed && idTokens && (await isGitLabIssuer(db, claimed.iss)) ? "issuer" : null;
    },
    async verify(token, claimed) {
      // recognizes() said yes: there is a verifier and a claimed issuer.
      const identity = await idTokens!.verify(token, claimed!.iss, claimed!.alg);
      return { repository: identity.repository, repositoryId: identity.repositoryId, runId: identity.pipelineId };
    },
    async claimAnswer(claimed, base) {
      const connection = await requireGitLabConnection(db, claimed.projectId);
      const gitlab = { projectId: connection.gitlabProjectId, projectUrl: `${connection.baseUrl}/${connection.projectPath}`, serverUrl: connection.baseUrl };
      const body: ClaimResponse = { job: { ...claimed.context, repository: connection.projectPath }, ...base, appSlug: null, token: null, source: null, forge: "gitlab", gitlab };
      return body;
    },
    beforeReport: (report, who) => withMergeRequest(db, report, who),
  };
}
