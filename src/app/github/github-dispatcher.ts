import type { Probot } from "probot";
import type { Config } from "../config.js";
import type { DispatchOutcome, DispatchRequest, Dispatcher } from "../dispatch/dispatcher.js";

export const DISPATCH_EVENT_TYPE = "inkwell-agent";

/** Starts the Inkwell workflow in the project's repository with `repository_dispatch`. */
export class GitHubDispatcher implements Dispatcher {
  constructor(
    private readonly probot: Probot,
    private readonly config: Config,
  ) {}

  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    if (request.installationId === null) {
      return {
        ok: false,
        retryable: false,
        error:
          `The Inkwell GitHub App is not installed on ${request.repoFullName}. Install it on that repository ` +
          `(${this.config.githubServerUrl}/settings/installations or the App's public page), then send a follow-up message to this job to run it.`,
      };
    }
    const octokit = await this.probot.auth(request.installationId);
    const [owner, repo] = request.repoFullName.split("/") as [string, string];
    await octokit.request("POST /repos/{owner}/{repo}/dispatches", {
      owner,
      repo,
      event_type: DISPATCH_EVENT_TYPE,
      client_payload: { job_id: request.jobId, run_attempt: request.runAttempt },
    });
    return { ok: true };
  }
}
