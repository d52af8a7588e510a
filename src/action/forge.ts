import type { ReportRequest } from "../shared/runner-schemas.js";
import type { ChangedFile, GitIdentity } from "./git.js";
import type { PullRequestBodyInput } from "./change-request-body.js";

/** A pull request or merge request: its number (GitLab's iid) and its page. */
export interface ChangeRequest {
  number: number;
  url: string;
}

/** What the run publishes after its push: the change request's text and state, and the commit it is about. */
export interface PublishRequest {
  title: string;
  body: Omit<PullRequestBodyInput, "checkRunUrl">;
  draft: boolean;
  branch: string;
  base: string;
  headSha: string;
  /** The branch's files against its base. */
  files: ChangedFile[];
}

export interface Published {
  /** The change request when the runner opened or updated it itself (GitHub). */
  pr: ChangeRequest | null;
  /** What Inkwell opens or updates the merge request with when the report arrives (GitLab). */
  mergeRequest?: NonNullable<Extract<ReportRequest, { outcome: "completed" }>["mergeRequest"]>;
}

/**
 * The forge calls of one run, GitHub's or GitLab's: everything else a run does (the agent, its
 * tools, the gate, the budget, the transcript, the phases) is the same code for both.
 */
export interface RunnerForge {
  /** Sent to the forge's host by git as HTTP basic auth, for fetch and push. */
  gitAuth: { user: string; token: string };
  /** Values to mask in every later log line. */
  secrets: string[];
  /** The name of the publishing phase (`pull request`, `merge request`). */
  changePhase: string;
  commitAuthor(): Promise<GitIdentity>;
  /** The page of a change request the job already has. */
  changeUrl(number: number): string;
  publish(request: PublishRequest, log: { info(message: string): void; warning(message: string): void }): Promise<Published>;
}
