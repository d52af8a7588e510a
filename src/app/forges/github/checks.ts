import type { WatchedHead } from "../../domain/jobs/checks.js";
import type { ChecksForge, FoundCheck } from "../checks.js";
import type { CheckRun, CommitStatus, GitHubApi } from "./api.js";

/** Conclusions of a completed check run that GitHub's own merge rules count as passing. */
const PASSED = new Set(["success", "neutral", "skipped"]);

/** The workflow run a GitHub Actions check run belongs to (its page is …/actions/runs/<id>/job/<job id>). */
const workflowRunOf = (run: CheckRun): number | null => {
  const id = /\/actions\/runs\/(\d+)/.exec(run.detailsUrl ?? run.htmlUrl ?? "")?.[1];
  return id ? Number(id) : null;
};

/** A failing check run's log: a GitHub Actions job's own log, else what the check run says of itself (title, summary, text). */
function checkRunLog(github: GitHubApi, head: WatchedHead, run: CheckRun): () => Promise<string> {
  const said = () => [run.output.title, run.output.summary, run.output.text].filter(Boolean).join("\n\n") || `The check run ended "${run.conclusion}" without saying why.`;
  if (run.appSlug !== "github-actions") return async () => said();
  return async () => {
    const log = await github.actionsJobLog(head.job.installationId as number, head.job.repoName, run.id);
    return log.trim() ? log : said();
  };
}

function fromCheckRun(github: GitHubApi, head: WatchedHead, run: CheckRun): FoundCheck {
  const status = run.status !== "completed" ? "pending" : PASSED.has(run.conclusion ?? "") ? "passed" : "failed";
  return { name: run.name, url: run.htmlUrl ?? run.detailsUrl, status, ...(status === "failed" ? { log: checkRunLog(github, head, run) } : {}) };
}

function fromStatus(status: CommitStatus): FoundCheck {
  const state = status.state === "pending" ? "pending" : status.state === "success" ? "passed" : "failed";
  const said = `The status ${status.context} is "${status.state}"${status.description ? `: ${status.description}` : ""}${status.targetUrl ? `\nDetails: ${status.targetUrl}` : ""}`;
  return { name: status.context, url: status.targetUrl, status: state, ...(state === "failed" ? { log: async () => said } : {}) };
}

/**
 * GitHub's checks on a job's head: its check runs and commit statuses, through the App's
 * installation (checks and statuses: read). Inkwell's own are left out: the validation check run
 * its Action publishes (made by this App) and any job of a workflow run that ran the job's agent.
 */
export function gitHubChecks(github: GitHubApi): ChecksForge {
  return {
    async checksOn(head) {
      if (head.job.installationId === null) throw new Error(`the Inkwell GitHub App is not installed on ${head.job.repoName}`);
      const [{ runs, statuses }, slug] = await Promise.all([github.checksOn(head.job.installationId, head.job.repoName, head.sha), github.appSlug()]);
      const theirs = runs.filter((run) => run.appSlug !== slug && !head.ownRuns.has(workflowRunOf(run) ?? -1));
      return [...theirs.map((run) => fromCheckRun(github, head, run)), ...statuses.map(fromStatus)];
    },
    async markReady(job) {
      if (job.installationId === null || job.changeNumber === null) return { skipped: "no pull request the App can reach" };
      return github.markReadyForReview(job.installationId, job.repoName, job.changeNumber);
    },
  };
}
