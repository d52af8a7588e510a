import type { RunCancelForge } from "../run-cancel.js";
import { RUN_NAME_PATTERN } from "./event-task.js";
import type { GitHubApi } from "./api.js";

/** GitHub's run names carry no time zone or fraction: a minute before the dispatch covers the clocks' difference. */
const sinceDispatch = (dispatchedAt: string) => new Date(Date.parse(dispatchedAt) - 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Whether a run's name (`run-name: inkwell <job> #<attempt>`, the example workflow's) is this attempt's. */
function namesAttempt(title: string, jobId: string, runAttempt: number): boolean {
  const named = RUN_NAME_PATTERN.exec(title);
  return named?.[1] === jobId && (named[2] === undefined || Number(named[2]) === runAttempt);
}

/**
 * GitHub's side of stopping a job: the workflow run that claimed the attempt (job_runs), or before
 * the claim the one `repository_dispatch` started, found by its run name among the repository's
 * dispatched runs; then `POST …/actions/runs/{id}/cancel` as the installation. A run GitHub has not
 * listed yet is looked for again; an installation that has not accepted `actions: write` is named.
 */
export function gitHubRunCancel(github: GitHubApi): RunCancelForge {
  return {
    async cancelRun({ job, runAttempt, claimedRunId, dispatchedAt }) {
      if (job.installationId === null) return { notCancelled: `run attempt ${runAttempt}'s workflow run not cancelled: the App is not installed on ${job.repoName} any more` };
      let runId = claimedRunId;
      if (runId === null) {
        const runs = await github.dispatchedRuns(job.installationId, job.repoName, sinceDispatch(dispatchedAt ?? new Date().toISOString()));
        const run = runs.find((candidate) => namesAttempt(candidate.title, job.id, runAttempt));
        if (!run) return { retry: `GitHub lists no workflow run named "inkwell ${job.id} #${runAttempt}" yet` };
        if (run.status === "completed") return { cancelled: `workflow run ${run.id} had already ended (${run.conclusion ?? "completed"})` };
        runId = run.id;
      }
      const answer = await github.cancelWorkflowRun(job.installationId, job.repoName, runId);
      if (answer === "cancelled") return { cancelled: `workflow run ${runId} cancelled` };
      if (answer === "ended") return { cancelled: `workflow run ${runId} had already ended` };
      if (answer === "not_found") return { notCancelled: `workflow run ${runId} not cancelled: GitHub does not know it (404)` };
      return {
        notCancelled:
          `workflow run ${runId} not cancelled: GitHub refused (403), so it goes on until the runner is told to stop (at its claim or next heartbeat). ` +
          `The App's installation has not accepted the permission Actions: Read and write; accept it in the installation's settings on GitHub (docs/github-app.md).`,
      };
    },
  };
}
