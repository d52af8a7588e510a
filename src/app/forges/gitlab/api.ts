import type { ChangeRequestFile } from "../merge-instruction.js";
import { Gitlab } from "@gitbeaker/rest";
import type { PipelineParameters } from "./pipeline-inputs.js";

/** GitLab's access levels (Members API): Developer and above may push and ask the agent for changes. */
export const DEVELOPER_ACCESS = 30;

/** What Inkwell reads of a GitLab project. */
export interface GitLabProjectInfo {
  id: number;
  pathWithNamespace: string;
  defaultBranch: string | null;
  webUrl: string;
  archived: boolean;
  /** Where the project's CI configuration is (default `.gitlab-ci.yml`). */
  ciConfigPath: string;
  /** "Minimum role to use pipeline variables" (`no_one_allowed`, `developer`, `maintainer`, `owner`); null where the instance does not say. */
  pipelineVariablesRole: string | null;
  /** Whether the job token may push to the project (GitLab 17.2+); null where the instance does not say. */
  jobTokenPushAllowed: boolean | null;
}

export interface MergeRequestRef {
  iid: number;
  webUrl: string;
}

/** The merge request the server opens or updates for a run (the runner pushed the branch with its job token). */
export interface MergeRequestChange {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string;
  draft: boolean;
  labels: string[];
  reviewerIds: number[];
}

/** A pipeline on a commit, as Inkwell reads it. */
export interface PipelineRef {
  id: number;
  status: string;
  source: string | null;
  ref: string;
  webUrl: string;
}

/** A failed job of a pipeline. */
export interface FailedJob {
  id: number;
  name: string;
  webUrl: string;
}

/** The HTTP status a GitLab call failed with, when it got an answer. */
/** GitLab's own words in a refusal (its `message` or `error`), as gitbeaker keeps them. */
export function gitLabMessage(error: unknown): string | null {
  const description = (error as { cause?: { description?: unknown } } | null)?.cause?.description;
  return typeof description === "string" && description.trim() !== "" ? description.trim().slice(0, 500) : null;
}

export function gitLabStatus(error: unknown): number | null {
  const status = (error as { cause?: { response?: { status?: unknown } } } | null)?.cause?.response?.status;
  return typeof status === "number" ? status : null;
}

/** GitLab marks a draft by the title's prefix (the API's `draft` is read-only on older instances). */
export const draftTitle = (title: string, draft: boolean) => {
  const bare = title.replace(/^(\[draft\]|\(draft\)|draft:)\s*/i, "");
  return draft ? `Draft: ${bare}` : bare;
};

// gitbeaker's default waits five minutes: an instance that does not answer would hold a request or a task that long.
const GITLAB_TIMEOUT_MS = 20_000;

/**
 * The GitLab REST calls Inkwell makes, through @gitbeaker/rest, with one project's access token.
 * Every call is the project's own (its id), so a token scoped to that project is enough.
 */
export class GitLabApi {
  readonly #api: InstanceType<typeof Gitlab>;

  constructor(baseUrl: string, token: string) {
    this.#api = new Gitlab({ host: baseUrl, token, queryTimeout: GITLAB_TIMEOUT_MS });
  }

  async project(idOrPath: number | string): Promise<GitLabProjectInfo> {
    const project = await this.#api.Projects.show(idOrPath);
    return {
      id: project.id,
      pathWithNamespace: String(project.path_with_namespace),
      defaultBranch: (project.default_branch as string | undefined) ?? null,
      webUrl: String(project.web_url),
      archived: Boolean(project.archived),
      ciConfigPath: (project.ci_config_path as string | null | undefined) || ".gitlab-ci.yml",
      // Absent on instances before the setting (and for tokens that may not read it).
      pipelineVariablesRole: (project.ci_pipeline_variables_minimum_override_role as string | undefined) ?? (project.restrict_user_defined_variables === true ? "maintainer" : null),
      jobTokenPushAllowed: typeof project.ci_push_repository_for_job_token_allowed === "boolean" ? project.ci_push_repository_for_job_token_allowed : null,
    };
  }

  /** The token's own user (a project access token's bot user). */
  async tokenUser(): Promise<{ id: number; username: string }> {
    const user = await this.#api.Users.showCurrentUser();
    return { id: user.id, username: user.username };
  }

  /** Registers the project webhook Inkwell needs: merge requests, notes, pipelines and issues, with both tokens. */
  async addWebhook(projectId: number, url: string, tokens: { token: string; signingToken: string }): Promise<number> {
    const hook = await this.#api.ProjectHooks.add(projectId, url, {
      token: tokens.token,
      mergeRequestsEvents: true,
      noteEvents: true,
      pipelineEvents: true,
      issuesEvents: true,
      pushEvents: false,
      enableSslVerification: !url.startsWith("http://"),
      // GitLab 18.x: signs each delivery (Standard Webhooks); instances without it ignore the field.
      ...({ signingToken: tokens.signingToken } as object),
    });
    return hook.id;
  }

  /**
   * On a linked source project: a webhook with merge request events only, unless one to `url` is
   * there already (another automation of the same docs project linked it). Returns its id.
   */
  async addSourceWebhook(projectId: number, url: string, tokens: { token: string; signingToken: string }): Promise<number> {
    const existing = (await this.#api.ProjectHooks.all(projectId)).find((hook) => hook.url === url);
    if (existing) return existing.id;
    const hook = await this.#api.ProjectHooks.add(projectId, url, {
      token: tokens.token,
      mergeRequestsEvents: true,
      pushEvents: false,
      enableSslVerification: !url.startsWith("http://"),
      ...({ signingToken: tokens.signingToken } as object),
    });
    return hook.id;
  }

  /** Removes a linked source project's webhooks to `url`; how many there were. */
  async removeSourceWebhook(projectIdOrPath: number | string, url: string): Promise<number> {
    const ours = (await this.#api.ProjectHooks.all(projectIdOrPath)).filter((hook) => hook.url === url);
    for (const hook of ours) await this.#api.ProjectHooks.remove(projectIdOrPath, hook.id);
    return ours.length;
  }

  /** The files a merge request changed (its latest diff), as the merge-instruction lists them. */
  async mergeRequestFiles(projectId: number, iid: number): Promise<ChangeRequestFile[]> {
    const diffs = await this.#api.MergeRequests.allDiffs(projectId, iid, { perPage: 100, maxPages: 30 });
    return diffs.map((diff) => {
      const lines = String(diff.diff ?? "").split("\n");
      return {
        path: String(diff.new_path),
        status: diff.new_file ? "added" : diff.deleted_file ? "removed" : diff.renamed_file ? "renamed" : "modified",
        additions: lines.filter((line) => line.startsWith("+") && !line.startsWith("+++")).length,
        deletions: lines.filter((line) => line.startsWith("-") && !line.startsWith("---")).length,
        ...(diff.diff ? { patch: String(diff.diff) } : {}),
        ...(diff.renamed_file ? { previousPath: String(diff.old_path) } : {}),
      };
    });
  }

  /** A file's text at a commit (the repository files API's raw form); null when the commit has no such file. */
  async fileAt(projectId: number, path: string, ref: string): Promise<string | null> {
    try {
      const raw = await this.#api.RepositoryFiles.showRaw(projectId, path, ref);
      return typeof raw === "string" ? raw : await raw.text();
    } catch (error) {
      if (gitLabStatus(error) === 404) return null;
      throw error;
    }
  }

  async removeWebhook(projectId: number, hookId: number): Promise<void> {
    await this.#api.ProjectHooks.remove(projectId, hookId);
  }

  /** Starts a pipeline on `ref` with these inputs or variables (GitLab's pipeline API, pipeline-inputs.ts); its source is `api`. */
  async createPipeline(projectId: number, ref: string, parameters: PipelineParameters): Promise<{ id: number; webUrl: string }> {
    const pipeline = await this.#api.Pipelines.create(
      projectId,
      ref,
      "inputs" in parameters ? ({ inputs: parameters.inputs } as never) : { variables: Object.entries(parameters.variables).map(([key, value]) => ({ key, value, variable_type: "env_var" as const })) },
    );
    return { id: pipeline.id, webUrl: String(pipeline.web_url) };
  }

  async openMergeRequest(projectId: number, change: MergeRequestChange): Promise<MergeRequestRef> {
    const mr = await this.#api.MergeRequests.create(projectId, change.sourceBranch, change.targetBranch, draftTitle(change.title, change.draft), {
      description: change.description,
      ...(change.labels.length > 0 ? { labels: change.labels.join(",") } : {}),
      ...(change.reviewerIds.length > 0 ? { reviewerIds: change.reviewerIds } : {}),
      removeSourceBranch: true,
    });
    return { iid: mr.iid, webUrl: String(mr.web_url) };
  }

  /** The open merge request from this branch, if any (a report retried after GitLab opened it). */
  async openMergeRequestFrom(projectId: number, sourceBranch: string): Promise<MergeRequestRef | null> {
    const [mr] = await this.#api.MergeRequests.all({ projectId, sourceBranch, state: "opened" });
    return mr ? { iid: mr.iid, webUrl: String(mr.web_url) } : null;
  }

  async updateMergeRequest(projectId: number, iid: number, change: Pick<MergeRequestChange, "title" | "description" | "draft">): Promise<MergeRequestRef> {
    const mr = await this.#api.MergeRequests.edit(projectId, iid, { title: draftTitle(change.title, change.draft), description: change.description });
    return { iid: mr.iid, webUrl: String(mr.web_url) };
  }

  async mergedAt(projectId: number, iid: number): Promise<Date | null> {
    const mr = await this.#api.MergeRequests.show(projectId, iid);
    const at = mr.merged_at as string | null | undefined;
    return at ? new Date(at) : null;
  }

  /** Cancels a pipeline's jobs; GitLab answers with the pipeline: `canceled` (or `canceling`), or the status it had ended with. */
  async cancelPipeline(projectId: number, pipelineId: number): Promise<string> {
    const pipeline = await this.#api.Pipelines.cancel(projectId, pipelineId);
    return String(pipeline.status);
  }

  /** The pipelines that ran on a commit, newest first (branch and merge request pipelines alike). */
  async pipelinesOn(projectId: number, sha: string): Promise<PipelineRef[]> {
    const pipelines = await this.#api.Pipelines.all(projectId, { sha, orderBy: "id", sort: "desc", perPage: 100, maxPages: 1 });
    return pipelines.map((p) => ({ id: p.id, status: String(p.status), source: (p.source as string | undefined) ?? null, ref: String(p.ref), webUrl: String(p.web_url) }));
  }

  /** A pipeline's failed jobs that fail it (a job allowed to fail does not). */
  async failedJobs(projectId: number, pipelineId: number): Promise<FailedJob[]> {
    const jobs = await this.#api.Jobs.all(projectId, { pipelineId, scope: "failed", perPage: 100, maxPages: 1 });
    return jobs.filter((job) => !job.allow_failure).map((job) => ({ id: job.id, name: String(job.name), webUrl: String(job.web_url) }));
  }

  /** A job's log (its trace), as GitLab keeps it: with colours and section markers. */
  async jobTrace(projectId: number, jobId: number): Promise<string> {
    const trace = await this.#api.Jobs.showLog(projectId, jobId);
    return typeof trace === "string" ? trace : String(trace);
  }

  /** Takes the `Draft:` prefix off an open merge request's title: ready for review. Says what it did, or why not. */
  async markMergeRequestReady(projectId: number, iid: number): Promise<{ marked: string } | { skipped: string }> {
    const mr = await this.#api.MergeRequests.show(projectId, iid);
    if (mr.state !== "opened") return { skipped: `merge request !${iid} is ${String(mr.state)}` };
    const title = String(mr.title);
    const ready = draftTitle(title, false);
    if (ready === title && !mr.draft) return { skipped: `merge request !${iid} is ready for review already` };
    await this.#api.MergeRequests.edit(projectId, iid, { title: ready });
    return { marked: `merge request !${iid} marked ready for review` };
  }

  /** The user ids of these usernames (reviewers are asked by id); names GitLab does not know are left out. */
  async userIds(usernames: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const username of usernames) {
      const users = await this.#api.Users.all({ username });
      if (users[0]) ids.push(users[0].id);
    }
    return ids;
  }

  /** A user's access level in the project, inherited from its groups included; 0 for a non-member. */
  async accessLevel(projectId: number, userId: number): Promise<number> {
    try {
      const member = await this.#api.ProjectMembers.show(projectId, userId, { includeInherited: true });
      return Number(member.access_level);
    } catch (error) {
      if (gitLabStatus(error) === 404) return 0;
      throw error;
    }
  }

  /** Whether the user is a bot (project, group and service-account tokens' users, GitLab's own bots). */
  async isBot(userId: number): Promise<boolean> {
    return (await this.user(userId)).bot;
  }

  /** A user's name and whether it is a bot (project, group and service account bots). */
  async user(userId: number): Promise<{ username: string; bot: boolean }> {
    const user = await this.#api.Users.show(userId);
    return { username: String(user.username), bot: Boolean((user as { bot?: boolean }).bot) };
  }

  /** Writes the job's tracking note on the merge request: edits `noteId` when given, else adds one; returns its id. */
  async upsertNote(projectId: number, iid: number, noteId: number | null, body: string): Promise<number> {
    if (noteId !== null) {
      try {
        await this.#api.MergeRequestNotes.edit(projectId, iid, noteId, { body });
        return noteId;
      } catch (error) {
        if (gitLabStatus(error) !== 404) throw error;
      }
    }
    const note = await this.#api.MergeRequestNotes.create(projectId, iid, body);
    return note.id;
  }

  /** A note on an issue (the answer to an issue that started a job). */
  async noteOnIssue(projectId: number, iid: number, body: string): Promise<void> {
    await this.#api.IssueNotes.create(projectId, iid, body);
  }

  /** 👀 on an issue's note Inkwell took. */
  async reactToIssueNote(projectId: number, iid: number, noteId: number): Promise<void> {
    await this.#api.IssueNoteAwardEmojis.award(projectId, iid, noteId, "eyes");
  }

  /** 👀 on a note Inkwell took as a follow-up. */
  async reactToNote(projectId: number, iid: number, noteId: number): Promise<void> {
    await this.#api.MergeRequestNoteAwardEmojis.award(projectId, iid, noteId, "eyes");
  }
}
