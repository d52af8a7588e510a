import type { Probot } from "probot";
import type { ChangeRequestFile } from "../merge-instruction.js";

type Octokit = Awaited<ReturnType<Probot["auth"]>>;

export interface ReviewComment {
  id: number;
  body: string;
  path: string;
  /** null once the line is outdated. */
  line: number | null;
  diffHunk: string;
}

/** A pull request's file, as GitHub lists it. */
export type PullRequestFile = ChangeRequestFile;

/** A check run on a commit, as Inkwell reads it. */
export interface CheckRun {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  /** The App that made it (`github-actions` for a workflow's job, whose check run id is the job's id). */
  appSlug: string | null;
  detailsUrl: string | null;
  htmlUrl: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
}

/** A commit status (the latest of its context). */
export interface CommitStatus {
  context: string;
  state: string;
  description: string | null;
  targetUrl: string | null;
}

export type RepoPermission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

/** Whether a request failed with this HTTP status (Octokit's RequestError carries `status`). */
export const hasStatus = (error: unknown, ...statuses: number[]) =>
  typeof error === "object" && error !== null && statuses.includes((error as { status?: number }).status ?? 0);

const split = (fullName: string) => {
  const [owner, repo] = fullName.split("/") as [string, string];
  return { owner, repo };
};

/**
 * The GitHub calls Inkwell makes, as the App or as one installation. One place for them, so each
 * is least-privilege and easy to fake at the HTTP edge.
 */
export class GitHubApi {
  #slug: Promise<string> | null = null;

  constructor(
    private readonly probot: Probot,
    private readonly configuredSlug?: string,
  ) {}

  installation(installationId: number): Promise<Octokit> {
    return this.probot.auth(installationId);
  }

  /** The App's slug (for @mentions): INKWELL_APP_SLUG, else GET /app once. */
  appSlug(): Promise<string> {
    if (this.configuredSlug) return Promise.resolve(this.configuredSlug);
    this.#slug ??= this.probot
      .auth()
      .then((app) => app.request("GET /app"))
      .then(({ data }) => (data as { slug: string }).slug)
      .catch((error: unknown) => {
        this.#slug = null;
        throw error;
      });
    return this.#slug;
  }

  async repository(installationId: number, fullName: string) {
    const octokit = await this.installation(installationId);
    const { data } = await octokit.request("GET /repos/{owner}/{repo}", split(fullName));
    return { id: data.id, defaultBranch: data.default_branch, archived: data.archived };
  }

  /**
   * A token for one repository with contents, pull requests, issues and checks write, nothing else.
   * An installation that has not accepted the Checks permission (an App registered before it was
   * asked for) gets one without it: the run still works, only its check run is a warning.
   */
  async repositoryToken(installationId: number, fullName: string): Promise<{ value: string; expiresAt: string }> {
    const app = await this.probot.auth();
    const request = (permissions: Record<string, "write">) =>
      app.request("POST /app/installations/{installation_id}/access_tokens", { installation_id: installationId, repositories: [split(fullName).repo], permissions });
    const base = { contents: "write", pull_requests: "write", issues: "write" } as const;
    const { data } = await request({ ...base, checks: "write" }).catch((error: unknown) => {
      if (hasStatus(error, 422)) return request(base);
      throw error;
    });
    return { value: data.token, expiresAt: data.expires_at };
  }

  /** The App's installation on a repository, or null when the App is not installed there. */
  async installationOn(fullName: string): Promise<number | null> {
    const app = await this.probot.auth();
    try {
      const { data } = await app.request("GET /repos/{owner}/{repo}/installation", split(fullName));
      return Number(data.id);
    } catch (error) {
      if (hasStatus(error, 404)) return null;
      throw error;
    }
  }

  /** A token that can only read one repository's contents (a source repository the agent reads, never writes). */
  async readOnlyToken(installationId: number, fullName: string): Promise<{ value: string; expiresAt: string }> {
    const app = await this.probot.auth();
    const { data } = await app.request("POST /app/installations/{installation_id}/access_tokens", {
      installation_id: installationId,
      repositories: [split(fullName).repo],
      permissions: { contents: "read" },
    });
    return { value: data.token, expiresAt: data.expires_at };
  }

  async dispatch(installationId: number, fullName: string, eventType: string, clientPayload: Record<string, unknown>): Promise<void> {
    const octokit = await this.installation(installationId);
    await octokit.request("POST /repos/{owner}/{repo}/dispatches", { ...split(fullName), event_type: eventType, client_payload: clientPayload });
  }

  /** Paths of the repository's active workflows that run on repository_dispatch of `eventType`. */
  async workflowsFor(installationId: number, fullName: string, eventType: string): Promise<string[]> {
    const octokit = await this.installation(installationId);
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/actions/workflows", { ...split(fullName), per_page: 100 });
    const found: string[] = [];
    for (const workflow of data.workflows.filter((w) => w.state === "active" && w.path.startsWith(".github/workflows/"))) {
      const file = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { ...split(fullName), path: workflow.path });
      const content = "content" in file.data && typeof file.data.content === "string" ? Buffer.from(file.data.content, "base64").toString("utf8") : "";
      if (content.includes("repository_dispatch") && content.includes(eventType)) found.push(workflow.path);
    }
    return found;
  }

  async permission(installationId: number, fullName: string, username: string): Promise<RepoPermission> {
    const octokit = await this.installation(installationId);
    try {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { ...split(fullName), username });
      const role = (data as { role_name?: string }).role_name;
      if (role === "maintain" || role === "triage") return role;
      return data.permission as RepoPermission;
    } catch (error) {
      if (hasStatus(error, 404)) return "none";
      throw error;
    }
  }

  async react(installationId: number, fullName: string, comment: { id: number; kind: "issue" | "review" }, content: "eyes"): Promise<void> {
    const octokit = await this.installation(installationId);
    const route =
      comment.kind === "issue"
        ? "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions"
        : "POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions";
    await octokit.request(route, { ...split(fullName), comment_id: comment.id, content });
  }

  /** The inline comments of one submitted review, in the order they were written. */
  async reviewComments(installationId: number, fullName: string, prNumber: number, reviewId: number): Promise<ReviewComment[]> {
    const octokit = await this.installation(installationId);
    const comments = await octokit.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments", {
      ...split(fullName),
      pull_number: prNumber,
      review_id: reviewId,
      per_page: 100,
    });
    return comments.map((c) => ({
      id: Number(c.id),
      body: c.body,
      path: c.path,
      line: c.line ?? c.original_line ?? null,
      diffHunk: c.diff_hunk,
    }));
  }

  /** The files a pull request changed, with their patches where GitHub gives one (it lists up to 3,000 files). */
  async pullRequestFiles(installationId: number, fullName: string, prNumber: number): Promise<PullRequestFile[]> {
    const octokit = await this.installation(installationId);
    const files = await octokit.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", { ...split(fullName), pull_number: prNumber, per_page: 100 });
    return files.map((f) => ({
      path: f.filename,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      ...(f.patch === undefined ? {} : { patch: f.patch }),
      ...(f.previous_filename === undefined ? {} : { previousPath: f.previous_filename }),
    }));
  }

  /** A file's text at a commit; null when the file is not there. */
  async fileAt(installationId: number, fullName: string, path: string, ref: string): Promise<string | null> {
    const octokit = await this.installation(installationId);
    try {
      const response = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { ...split(fullName), path, ref, mediaType: { format: "raw" } });
      return typeof response.data === "string" ? response.data : Buffer.from(response.data as unknown as ArrayBuffer).toString("utf8");
    } catch (error) {
      if ((error as { status?: number }).status === 404) return null;
      throw error;
    }
  }

  /** The check runs (the latest of each name) and commit statuses (the latest of each context) on a commit. */
  async checksOn(installationId: number, fullName: string, sha: string): Promise<{ runs: CheckRun[]; statuses: CommitStatus[] }> {
    const octokit = await this.installation(installationId);
    const runs = await octokit.paginate("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", { ...split(fullName), ref: sha, per_page: 100 });
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/commits/{ref}/status", { ...split(fullName), ref: sha, per_page: 100 });
    return {
      runs: runs.map((run) => ({
        id: Number(run.id),
        name: run.name,
        status: run.status,
        conclusion: run.conclusion ?? null,
        appSlug: run.app?.slug ?? null,
        detailsUrl: run.details_url ?? null,
        htmlUrl: run.html_url ?? null,
        output: { title: run.output.title ?? null, summary: run.output.summary ?? null, text: run.output.text ?? null },
      })),
      statuses: data.statuses.map((status) => ({ context: status.context, state: status.state, description: status.description ?? null, targetUrl: status.target_url ?? null })),
    };
  }

  /** A GitHub Actions job's whole log (GitHub answers with a redirect to it; the App needs actions: read). */
  async actionsJobLog(installationId: number, fullName: string, jobId: number): Promise<string> {
    const octokit = await this.installation(installationId);
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", { ...split(fullName), job_id: jobId });
    return typeof data === "string" ? data : Buffer.from(data as unknown as ArrayBuffer).toString("utf8");
  }

  /** The workflow runs `repository_dispatch` started since `since` (ISO 8601), newest first: id, run name (`display_title`), status. */
  async dispatchedRuns(installationId: number, fullName: string, since: string): Promise<{ id: number; title: string; status: string; conclusion: string | null }[]> {
    const octokit = await this.installation(installationId);
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/actions/runs", { ...split(fullName), event: "repository_dispatch", created: `>=${since}`, per_page: 100 });
    return data.workflow_runs.map((run) => ({ id: Number(run.id), title: run.display_title, status: run.status ?? "", conclusion: run.conclusion ?? null }));
  }

  /** Cancels a workflow run (the App needs actions: write); GitHub answers 409 for a run that has ended, 403 without the permission. */
  async cancelWorkflowRun(installationId: number, fullName: string, runId: number): Promise<"cancelled" | "ended" | "forbidden" | "not_found"> {
    const octokit = await this.installation(installationId);
    try {
      // Not retried by Octokit (it would retry a 409): the task tries again itself.
      await octokit.request("POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel", { ...split(fullName), run_id: runId, request: { retries: 0 } });
      return "cancelled";
    } catch (error) {
      if (hasStatus(error, 409)) return "ended";
      if (hasStatus(error, 403)) return "forbidden";
      if (hasStatus(error, 404)) return "not_found";
      throw error;
    }
  }

  /** Marks a draft pull request ready for review (GitHub has this only in GraphQL); says what it did or why it did not. */
  async markReadyForReview(installationId: number, fullName: string, prNumber: number): Promise<{ marked: string } | { skipped: string }> {
    const octokit = await this.installation(installationId);
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...split(fullName), pull_number: prNumber });
    if (data.state !== "open") return { skipped: `pull request #${prNumber} is ${data.merged ? "merged" : "closed"}` };
    if (!data.draft) return { skipped: `pull request #${prNumber} is ready for review already` };
    await octokit.graphql(`mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }`, { id: data.node_id });
    return { marked: `pull request #${prNumber} marked ready for review` };
  }

  /** Edits the comment when it exists, creates it otherwise; returns its id. */
  async upsertIssueComment(installationId: number, fullName: string, issueNumber: number, commentId: number | null, body: string): Promise<number> {
    const octokit = await this.installation(installationId);
    if (commentId !== null) {
      try {
        await octokit.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", { ...split(fullName), comment_id: commentId, body });
        return commentId;
      } catch (error) {
        if (!hasStatus(error, 404)) throw error;
      }
    }
    const { data } = await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...split(fullName), issue_number: issueNumber, body });
    return Number(data.id);
  }
}
