import type { ClaimResponse } from "../../../shared/runner-schemas.js";
import { NotConfiguredError, UpstreamError } from "../../domain/errors.js";
import type { RunnerForge } from "../runner.js";
import type { GitHubApi } from "./api.js";
import type { OidcVerifier } from "./runner-identity.js";

export interface GitHubRunnerDeps {
  /** null without the App. */
  github: GitHubApi | null;
  /** null without the App or without PUBLIC_URL (the tokens' audience). */
  oidc: OidcVerifier | null;
  /** The GitHub Actions OIDC issuer (INKWELL_OIDC_ISSUER). */
  issuer: string;
  /** Where the operator sets the App up, for the 503 that says it is missing. */
  setupUrl: string;
}

/**
 * GitHub's runner side: a GitHub Actions OIDC token (`runner-identity.ts`), answered at claim with
 * an installation token scoped to the job's repository (the Action pushes and opens the pull
 * request itself), a read-only token for the job's source repository, and the App's slug. Without
 * the App (or PUBLIC_URL) a token of GitHub's issuer is told what the server lacks (503), and a
 * token of no forge is not taken for GitHub's (401).
 */
export function gitHubRunner({ github, oidc, issuer, setupUrl }: GitHubRunnerDeps): RunnerForge {
  const ready = () => {
    if (!github || !oidc) {
      const what = github ? "no PUBLIC_URL (the audience of the runners' tokens)" : "no GitHub App configured";
      throw new NotConfiguredError(`This Inkwell server has ${what}, so runners cannot claim jobs; the operator sets it up at ${setupUrl}`);
    }
    return { github, oidc };
  };
  return {
    forge: "github",
    tokenName: "the workflow run's GitHub Actions OIDC token",
    issuerName: "the GitHub Actions OIDC issuer",
    async recognizes(claimed) {
      if (github && oidc) return "fallback";
      return claimed?.iss === issuer ? "issuer" : null;
    },
    async verify(token) {
      const identity = await ready().oidc.verify(`Bearer ${token}`);
      return { repository: identity.repository, repositoryId: identity.repositoryId };
    },
    async claimAnswer(claimed, base, log) {
      const app = ready().github;
      if (claimed.installationId === null) throw new NotConfiguredError(`The Inkwell GitHub App is not installed on ${claimed.context.repository}`);
      let token: ClaimResponse["token"];
      try {
        token = await app.repositoryToken(claimed.installationId, claimed.context.repository);
      } catch (error) {
        log.warn({ err: error, jobId: claimed.context.id }, "could not mint the runner's repository token");
        throw new UpstreamError("GitHub did not issue a repository token for this run; claim again (the claim is kept for this workflow run)");
      }
      let source: ClaimResponse["source"] = null;
      if (claimed.source) {
        const { repository, sha, pullRequestUrl, installationId } = claimed.source;
        // Without it the run still works on the docs, from the merge's diff in its instruction.
        source = await app
          .readOnlyToken(installationId, repository)
          .then((readOnly) => ({ repository, sha, pullRequestUrl, token: readOnly }))
          .catch((error: unknown) => {
            log.warn({ err: error, jobId: claimed.context.id, repository }, "no read-only token for the source repository (is the App still installed there?): the run gets no source tools");
            return null;
          });
      }
      const appSlug = await app.appSlug().catch(() => null);
      return { job: claimed.context, ...base, appSlug, token, source };
    },
    // The Action opened or updated the pull request itself.
    beforeReport: async (report) => report,
  };
}
