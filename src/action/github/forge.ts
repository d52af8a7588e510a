import type { ClaimResponse } from "../../shared/runner-schemas.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";
import type { RunnerForge } from "../forge.js";
import type { GitIdentity } from "../git.js";
import type { JobRunDependencies } from "../job-run-types.js";
import { publishCheckRun } from "./check-run.js";
import { renderPullRequestBody } from "../change-request-body.js";
import { createOctokit, dressPullRequest, upsertPullRequest } from "./pull-request.js";

/**
 * GitHub's side of a run: git and the API with the App's repository token from the claim; the
 * validation's check run on the pushed commit; the pull request opened or updated, then labelled
 * and its reviewers asked when it is new.
 */
export function githubForge(claimed: ClaimResponse, deps: Pick<JobRunDependencies, "env" | "fetch">): RunnerForge {
  const { job } = claimed;
  if (!claimed.token) throw new Error("Inkwell handed out no repository token for this GitHub job");
  const token = claimed.token.value;
  const [owner = "", repo = ""] = job.repository.split("/");
  const api = { baseUrl: deps.env.apiUrl, fetch: deps.fetch };
  return {
    gitAuth: { user: "x-access-token", token },
    secrets: [token, ...(claimed.source?.token ? [claimed.source.token.value] : [])],
    changePhase: "pull request",
    commitAuthor: () => appBotIdentity(claimed.appSlug, token, api),
    changeUrl: (number) => `${withoutTrailingSlashes(deps.env.serverUrl)}/${job.repository}/pull/${number}`,
    async publish(request, log) {
      const octokit = createOctokit(token, api);
      const checkRunUrl = await publishCheckRun(
        octokit,
        {
          owner,
          repo,
          headSha: request.headSha,
          validation: request.body.validation,
          files: new Set(request.files.filter((f) => f.status !== "deleted").map((f) => f.path)),
          detailsUrl: claimed.jobPageUrl ?? null,
        },
        (message) => log.warning(message),
      );
      const body = renderPullRequestBody({ ...request.body, checkRunUrl });
      const upserted = await upsertPullRequest(octokit, { owner, repo, branch: request.branch, base: request.base, prNumber: job.prNumber }, { title: request.title, body, draft: request.draft }, (message) => log.warning(message));
      log.info(`${upserted.created ? "Opened" : "Updated"} pull request #${upserted.number}: ${upserted.url}`);
      if (upserted.created) await dressPullRequest(octokit, { owner, repo, number: upserted.number }, { labels: job.labels ?? [], reviewers: job.reviewers ?? [] }, log);
      return { pr: { number: upserted.number, url: upserted.url } };
    },
  };
}

/** The App's bot account, as GitHub shows it on commits: `<slug>[bot]` with its noreply address. */
async function appBotIdentity(appSlug: string | null, token: string, api: { baseUrl: string; fetch?: typeof fetch | undefined }): Promise<GitIdentity> {
  const name = `${appSlug ?? "inkwell"}[bot]`;
  try {
    const octokit = createOctokit(token, api);
    const { data } = await octokit.rest.users.getByUsername({ username: name });
    return { name, email: `${data.id}+${name}@users.noreply.github.com` };
  } catch {
    return { name, email: `${name}@users.noreply.github.com` };
  }
}
