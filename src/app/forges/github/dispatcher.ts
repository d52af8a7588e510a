import type { DispatchOutcome, DispatchRequest, Dispatcher } from "../../dispatch/dispatcher.js";
import { hasStatus, type GitHubApi } from "./api.js";

export const DISPATCH_EVENT_TYPE = "inkwell-agent";

/** Starts the Inkwell workflow in the project's repository with `repository_dispatch`. */
export class GitHubDispatcher implements Dispatcher {
  constructor(
    private readonly github: GitHubApi,
    private readonly serverUrl: string,
  ) {}

  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    const repo = request.repoName;
    const retry = ` Then send a follow-up message to this job to run it.`;
    if (request.installationId === null) {
      return {
        ok: false,
        retryable: false,
        error: `The Inkwell GitHub App is not installed on ${repo}. Install it on that repository (${this.serverUrl}/${repo}/settings/installations).${retry}`,
      };
    }
    if (request.installationSuspended) {
      return { ok: false, retryable: false, error: `The Inkwell GitHub App's installation on ${repo} is suspended. Unsuspend it in the organization's settings.${retry}` };
    }
    try {
      const info = await this.github.repository(request.installationId, repo);
      if (info.archived) return { ok: false, retryable: false, error: `${repo} is archived, so no workflow can run in it. Unarchive it first.${retry}` };
      await this.github.dispatch(request.installationId, repo, DISPATCH_EVENT_TYPE, { job_id: request.jobId, run_attempt: request.runAttempt });
      return { ok: true };
    } catch (error) {
      if (hasStatus(error, 401, 403, 404)) {
        return {
          ok: false,
          retryable: false,
          error: `GitHub refused the dispatch to ${repo} (${(error as { status: number }).status}): the App has no access to it. Check the App's installation and its permissions (contents: write).${retry}`,
        };
      }
      return { ok: false, retryable: true, error: `GitHub did not take the dispatch to ${repo}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

/** Used when the server has no GitHub App credentials: every job fails with what to do about it. */
export class NoAppDispatcher implements Dispatcher {
  constructor(private readonly setupUrl: string) {}

  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    return {
      ok: false,
      retryable: false,
      error:
        `No GitHub App is configured on this Inkwell server, so the job cannot run in ${request.repoName}. ` +
        `Register it at ${this.setupUrl}, restart Inkwell, install the App on ${request.repoName}, ` +
        `then send a follow-up message to this job to run it.`,
    };
  }
}
