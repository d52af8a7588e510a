import { getOctokit } from "@actions/github";

type Octokit = ReturnType<typeof getOctokit>;

export interface PullRequestTarget {
  owner: string;
  repo: string;
  branch: string;
  base: string;
  /** The job's PR when the service knows one. */
  prNumber: number | null;
}

export interface PullRequestContent {
  title: string;
  body: string;
  draft: boolean;
}

export interface PullRequestRef {
  number: number;
  url: string;
  created: boolean;
}

/** An Octokit for the App's repository token; `fetch` is injectable because @actions/github's own is invisible to test doubles. */
export function createOctokit(token: string, options: { baseUrl?: string; fetch?: typeof fetch } = {}): Octokit {
  return getOctokit(token, { ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), request: options.fetch ? { fetch: options.fetch } : {} });
}

/**
 * An open PR follows the run: a draft while validation fails (or the job asked for one), ready for
 * review once a run passes. GitHub has this only in GraphQL; a plan without drafts is a warning.
 */
async function setDraft(octokit: Octokit, pullRequestId: string, draft: boolean, warn: (message: string) => void): Promise<void> {
  const mutation = draft
    ? `mutation($id: ID!) { convertPullRequestToDraft(input: { pullRequestId: $id }) { pullRequest { isDraft } } }`
    : `mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }`;
  await octokit.graphql(mutation, { id: pullRequestId }).catch((error: unknown) => warn(`Could not mark the pull request ${draft ? "as a draft" : "ready for review"}: ${messageOf(error)}`));
}

/**
 * Opens the job's PR, or updates the one it has (title and body regenerated, draft or ready as
 * `content.draft` says). A PR the service does not know yet (a run that opened it but could not
 * report) is found by its head branch.
 */
export async function upsertPullRequest(octokit: Octokit, target: PullRequestTarget, content: PullRequestContent, warn: (message: string) => void = () => undefined): Promise<PullRequestRef> {
  const { owner, repo } = target;
  let existing = target.prNumber;
  if (existing === null) {
    const { data } = await octokit.rest.pulls.list({ owner, repo, head: `${owner}:${target.branch}`, state: "open", per_page: 1 });
    existing = data[0]?.number ?? null;
  }
  if (existing !== null) {
    const { data } = await octokit.rest.pulls.update({ owner, repo, pull_number: existing, title: content.title, body: content.body });
    if (data.state === "open" && data.draft !== undefined && data.draft !== content.draft) await setDraft(octokit, data.node_id, content.draft, warn);
    return { number: data.number, url: data.html_url, created: false };
  }
  const create = (draft: boolean) => octokit.rest.pulls.create({ owner, repo, head: target.branch, base: target.base, title: content.title, body: content.body, draft });
  try {
    const { data } = await create(content.draft);
    return { number: data.number, url: data.html_url, created: true };
  } catch (error) {
    // Some plans have no draft PRs: open a normal one rather than none.
    if (content.draft && (error as { status?: number }).status === 422 && /draft/i.test((error as Error).message)) {
      const { data } = await create(false);
      return { number: data.number, url: data.html_url, created: true };
    }
    throw error;
  }
}

/**
 * A new PR's labels and review requests, as the job asked. Neither may fail the run: GitHub refuses
 * a reviewer who cannot see the repository or the PR's author, and a team the App cannot read; the
 * warning says which.
 */
export async function dressPullRequest(
  octokit: Octokit,
  pr: { owner: string; repo: string; number: number },
  wanted: { labels: string[]; reviewers: string[] },
  log: { warning(message: string): void },
): Promise<void> {
  const { owner, repo, number } = pr;
  if (wanted.labels.length > 0) {
    await octokit.rest.issues.addLabels({ owner, repo, issue_number: number, labels: wanted.labels }).catch((error: unknown) => log.warning(`Could not label pull request #${number}: ${messageOf(error)}`));
  }
  const teams = wanted.reviewers.filter((name) => name.includes("/")).map((name) => name.slice(name.indexOf("/") + 1));
  const users = wanted.reviewers.filter((name) => !name.includes("/"));
  if (teams.length + users.length > 0) {
    await octokit.rest.pulls
      .requestReviewers({ owner, repo, pull_number: number, reviewers: users, team_reviewers: teams })
      .catch((error: unknown) => log.warning(`Could not request reviews on pull request #${number}: ${messageOf(error)}`));
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
