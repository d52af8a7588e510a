import type { AgentJob, JobStatus } from "../../../shared/api-schemas.js";
import { toIso, toIsoOrNull } from "../../store/db.js";
import type { JobTrigger } from "../../../shared/automation-schemas.js";
import type { JobTriggerType, WaitingFor } from "../../../shared/job-vocabulary.js";
import { outcomeOf } from "./outcome.js";
import { jobChecksOf } from "./checks-record.js";

/** A `jobs` row as the drivers return it. Only this folder reads job tables; everything else gets `JobInRepository` or `AgentJob`. */
export interface JobRow {
  id: string;
  project_id: string;
  /** The project's forge, kept on the job (migration 37). */
  forge: "github" | "gitlab";
  status: JobStatus;
  repository: string;
  branch: string;
  base_ref: string | null;
  model: string;
  run_attempt: number;
  pr_number: number | null;
  pr_url: string | null;
  error: string | null;
  idempotency_key: string | null;
  tracking_comment_id: string | number | null;
  /** JobOutcome as JSON (outcome.ts); null before the first report. */
  outcome: string | null;
  progress: string | null;
  /** The model the job asked for on create (it wins over the workflow's `model` input); null: none. */
  requested_model: string | null;
  draft: boolean;
  labels: string[];
  reviewers: string[];
  trigger_type: JobTriggerType;
  trigger_url: string | null;
  automation_id: string | null;
  /** SourceContext as JSON: the code repository the agent may read; null for most jobs. */
  source_context: string | null;
  plan_approval: boolean;
  plan_approved_attempt: number | null;
  max_questions: number;
  waiting_for: WaitingFor | null;
  waiting_since: unknown;
  plan: string | null;
  question: string | null;
  /** The commit at the branch's head as the last run that pushed reported it. */
  head_sha: string | null;
  /** StoredChecks as JSON (checks.ts): what the repository's own checks say of head_sha; null when they are not watched. */
  checks: string | null;
  created_at: unknown;
  updated_at: unknown;
  archived_at: unknown;
}

/** What the AgentJob view reads: fewer columns is measurably faster on the polling path. */
export const VIEW_COLUMNS =
  "id, forge, status, repository, branch, base_ref, model, pr_url, error, outcome, progress, draft, labels, reviewers, trigger_type, trigger_url, automation_id, plan_approval, waiting_for, plan, question, head_sha, checks, created_at, updated_at, archived_at";
export type JobViewRow = Pick<
  JobRow,
  | "id"
  | "forge"
  | "status"
  | "repository"
  | "branch"
  | "base_ref"
  | "model"
  | "pr_url"
  | "error"
  | "outcome"
  | "progress"
  | "draft"
  | "labels"
  | "reviewers"
  | "trigger_type"
  | "trigger_url"
  | "automation_id"
  | "plan_approval"
  | "waiting_for"
  | "plan"
  | "question"
  | "head_sha"
  | "checks"
  | "created_at"
  | "updated_at"
  | "archived_at"
>;

/** The number of an issue of the job's own repository that `url` points at (the PR then says `Fixes #n`); null for anything else. */
export function issueNumberIn(url: string | null, repositoryUrl: string): number | null {
  // GitHub's issues are at <repository>/issues/n, GitLab's at <project>/-/issues/n.
  const prefix = [`${repositoryUrl}/issues/`, `${repositoryUrl}/-/issues/`].find((p) => url?.toLowerCase().startsWith(p.toLowerCase()));
  if (!url || !prefix) return null;
  const number = /^(\d{1,9})$/.exec(url.slice(prefix.length))?.[1];
  return number ? Number(number) : null;
}

export function triggerOf(row: Pick<JobRow, "trigger_type" | "trigger_url" | "automation_id">): JobTrigger {
  return { type: row.trigger_type, ...(row.trigger_url ? { url: row.trigger_url } : {}), ...(row.automation_id ? { automationId: row.automation_id } : {}) };
}

export function toAgentJob(row: JobViewRow): AgentJob {
  return {
    id: row.id,
    status: row.status,
    forge: row.forge,
    source: { repository: row.repository, ref: row.branch },
    model: row.model,
    prLink: row.pr_url,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    archivedAt: toIsoOrNull(row.archived_at),
    error: row.error,
    ...outcomeOf(row.outcome),
    progress: row.status === "active" ? row.progress : null,
    baseBranch: row.base_ref,
    draft: row.draft,
    labels: row.labels,
    reviewers: row.reviewers,
    trigger: triggerOf(row),
    waitingFor: row.status === "active" ? row.waiting_for : null,
    plan: row.plan,
    question: row.status === "active" && row.waiting_for === "answer" ? row.question : null,
    planApproval: row.plan_approval,
    checks: jobChecksOf(row.checks, row.head_sha),
  };
}

/** A job with its project's repository (on its forge) and the GitHub App's installation: what forge, dispatch and runner code act on. */
export interface JobInRepository {
  id: string;
  projectId: string;
  status: JobStatus;
  runAttempt: number;
  /** The repository's URL, as the API shows it. */
  repository: string;
  branch: string;
  baseRef: string | null;
  model: string;
  /** The change request's number: the pull request's, the merge request's iid (stored as jobs.pr_number). */
  changeNumber: number | null;
  trackingCommentId: number | null;
  error: string | null;
  /** The repository's name as its forge writes it, lower-cased (how webhooks and runner tokens are matched): GitHub's owner/repo, a GitLab project's host/path. Stored as projects.repo_full_name. */
  repoName: string;
  repositoryId: number | null;
  installationId: number | null;
  installationSuspended: boolean;
  /** Where the repository lives: GitHub (the App's installation) or GitLab (the project's connection). */
  forge: "github" | "gitlab";
  /** Put on the pull request (or merge request) when it is opened; reviewers are logins (usernames on GitLab). */
  labels: string[];
  reviewers: string[];
  /** The project's repair rounds for failing checks; 0: the repository's checks are not watched. */
  checkRepairRounds: number;
}

export interface JobInRepositoryRow extends JobRow {
  forge: "github" | "gitlab";
  repo_full_name: string;
  repository_id: string | number | null;
  installation_id: string | number | null;
  installation_suspended: boolean;
  check_repair_rounds: number;
}

/** The one read of a job with its project; callers add WHERE (and FOR UPDATE OF j). */
export const SELECT_JOB_IN_REPOSITORY = `SELECT j.*, p.forge, p.repo_full_name, p.repository_id, p.installation_id, p.installation_suspended, p.check_repair_rounds
  FROM jobs j JOIN projects p ON p.id = j.project_id`;

const idOrNull = (value: string | number | null): number | null => (value === null ? null : Number(value));

/** bigint columns arrive as strings from PostgreSQL and as numbers from PGlite: converted here, once. */
export function toJobInRepository(row: JobInRepositoryRow): JobInRepository {
  return {
    id: row.id,
    projectId: row.project_id,
    status: row.status,
    runAttempt: row.run_attempt,
    repository: row.repository,
    branch: row.branch,
    baseRef: row.base_ref,
    model: row.model,
    changeNumber: row.pr_number,
    trackingCommentId: idOrNull(row.tracking_comment_id),
    error: row.error,
    repoName: row.repo_full_name,
    repositoryId: idOrNull(row.repository_id),
    installationId: idOrNull(row.installation_id),
    installationSuspended: row.installation_suspended,
    forge: row.forge,
    labels: row.labels,
    reviewers: row.reviewers,
    checkRepairRounds: row.check_repair_rounds,
  };
}

const BRANCH_PREFIX = "inkwell/";

/** The branch a job's runs work on and its PR comes from. */
export const branchOf = (jobId: string) => `${BRANCH_PREFIX}${jobId}`;

/** The job a branch belongs to, or null for any other branch. */
export const jobIdOfBranch = (ref: string) => /^inkwell\/([a-z0-9]{1,64})$/.exec(ref)?.[1] ?? null;
