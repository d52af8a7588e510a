import type { Queryable } from "../store/db.js";
import { queryOne, toIso } from "../store/db.js";
import { ConflictError, notFound } from "./errors.js";
import { newId } from "./ids.js";
import type { SaltWindow } from "../../shared/analytics-vocabulary.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";

/** Where a project's repository lives: GitHub (the App) or GitLab (gitlab-connections.ts). */
export type Forge = "github" | "gitlab";

export interface Project {
  id: string;
  forge: Forge;
  name: string | null;
  repository: string;
  repoName: string;
  baseRef: string | null;
  model: string;
  /** Models a job may ask for besides `model`. */
  allowedModels: string[];
  rateLimitPerHour: number | null;
  installationId: number | null;
  installationSuspended: boolean;
  analytics: { saltWindow: SaltWindow; allowedOrigins: string[]; markdownAsPage: boolean };
  /** How its jobs start and how long one may wait for the user (docs/api.md, "Plans and questions"). */
  jobs: JobSettings;
  createdAt: string;
  updatedAt: string;
}

interface ProjectRow {
  id: string;
  forge: Forge;
  name: string | null;
  repository: string;
  repo_full_name: string;
  base_ref: string | null;
  model: string;
  allowed_models: string[];
  rate_limit_per_hour: number | null;
  installation_id: string | number | null;
  installation_suspended: boolean;
  analytics_salt_window: SaltWindow;
  analytics_origins: string[];
  analytics_markdown_as_page: boolean;
  plan_approval: boolean;
  wait_limit_days: number;
  check_repair_rounds: number;
  created_at: unknown;
  updated_at: unknown;
}

const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  forge: row.forge,
  name: row.name,
  repository: row.repository,
  repoName: row.repo_full_name,
  baseRef: row.base_ref,
  model: row.model,
  allowedModels: row.allowed_models,
  rateLimitPerHour: row.rate_limit_per_hour,
  installationId: row.installation_id === null ? null : Number(row.installation_id),
  installationSuspended: row.installation_suspended,
  analytics: { saltWindow: row.analytics_salt_window, allowedOrigins: row.analytics_origins, markdownAsPage: row.analytics_markdown_as_page },
  jobs: { planApproval: row.plan_approval, waitLimitDays: row.wait_limit_days, checkRepairRounds: row.check_repair_rounds },
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export interface NewProject {
  /** Chosen before the row exists when something outside must name it first (a GitLab webhook's URL). */
  id?: string | undefined;
  forge?: Forge | undefined;
  /** The forge's own id of the repository (GitLab's project id). */
  repositoryId?: number | undefined;
  repoName: string;
  repository: string;
  name?: string | undefined;
  baseRef?: string | undefined;
  model: string;
  allowedModels?: string[] | undefined;
  rateLimitPerHour?: number | undefined;
  analytics?: AnalyticsSettingsChange | undefined;
  jobs?: Partial<JobSettings> | undefined;
}

export interface JobSettings {
  /** Every job's first run stops after planning, unless the job says otherwise. */
  planApproval: boolean;
  /** A job waiting for its plan's approval or an answer longer than this is archived. */
  waitLimitDays: number;
  /** Repair rounds a job gets from the docs repository's failing checks; 0: its checks are not watched (domain/jobs/checks.ts). */
  checkRepairRounds: number;
}

export interface AnalyticsSettingsChange {
  saltWindow?: SaltWindow | undefined;
  allowedOrigins?: string[] | undefined;
  markdownAsPage?: boolean | undefined;
}

export async function createProject(db: Queryable, input: NewProject): Promise<Project> {
  const existing = await queryOne<{ id: string }>(db, `SELECT id FROM projects WHERE repo_full_name = $1`, [
    input.repoName.toLowerCase(),
  ]);
  if (existing) throw new ConflictError(`A project for ${input.repoName} already exists: ${existing.id}`);
  const rows = await db.query<ProjectRow>(
    `INSERT INTO projects (id, name, repository, repo_full_name, base_ref, model, rate_limit_per_hour, analytics_salt_window, analytics_origins, analytics_markdown_as_page, allowed_models,
       plan_approval, wait_limit_days, forge, repository_id, check_repair_rounds)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     ON CONFLICT (repo_full_name) DO NOTHING RETURNING *`,
    [
      input.id ?? newId(),
      input.name ?? null,
      input.repository,
      input.repoName.toLowerCase(),
      input.baseRef ?? null,
      input.model,
      input.rateLimitPerHour ?? null,
      input.analytics?.saltWindow ?? "month",
      input.analytics?.allowedOrigins ?? [],
      input.analytics?.markdownAsPage ?? true,
      input.allowedModels ?? [],
      input.jobs?.planApproval ?? false,
      input.jobs?.waitLimitDays ?? 14,
      input.forge ?? "github",
      input.repositoryId ?? null,
      input.jobs?.checkRepairRounds ?? 2,
    ],
  );
  if (!rows[0]) throw new ConflictError(`A project for ${input.repoName} already exists`);
  return toProject(rows[0]);
}

/** The project on this repository (`owner/repo` on GitHub, `host/path` on GitLab), if there is one. */
export async function projectIdOfRepository(db: Queryable, repoName: string): Promise<string | null> {
  const row = await queryOne<{ id: string }>(db, `SELECT id FROM projects WHERE repo_full_name = $1`, [repoName.toLowerCase()]);
  return row?.id ?? null;
}

export async function getProject(db: Queryable, id: string): Promise<Project> {
  const row = await queryOne<ProjectRow>(db, `SELECT * FROM projects WHERE id = $1`, [id]);
  if (!row) throw notFound("Project");
  return toProject(row);
}

/**
 * Reads and locks the project row: serializes rate-limited writes of one project. NO KEY UPDATE,
 * not UPDATE: a transaction that holds a job's lock and inserts a row referencing the project
 * (foreign key checks take KEY SHARE) must not wait for us while we wait for that job.
 */
export async function lockProject(tx: Queryable, id: string): Promise<Project> {
  const row = await queryOne<ProjectRow>(tx, `SELECT * FROM projects WHERE id = $1 FOR NO KEY UPDATE`, [id]);
  if (!row) throw notFound("Project");
  return toProject(row);
}

/**
 * Changes a project's analytics settings. The salt window cannot change once views were counted:
 * windows of two sizes would overlap, and a visitor would count once in each.
 */
export async function updateProjectAnalytics(tx: Queryable, id: string, change: AnalyticsSettingsChange): Promise<Project> {
  const project = await lockProject(tx, id);
  if (change.saltWindow && change.saltWindow !== project.analytics.saltWindow) {
    const used = await queryOne(tx, `SELECT 1 FROM analytics_salts WHERE project_id = $1 UNION ALL SELECT 1 FROM analytics_windows WHERE project_id = $1 LIMIT 1`, [id]);
    if (used) {
      throw new ConflictError(`The salt window is ${project.analytics.saltWindow} and views were already counted with it; it can only be chosen before the first view`);
    }
  }
  const row = await queryOne<ProjectRow>(
    tx,
    `UPDATE projects SET analytics_salt_window = COALESCE($2, analytics_salt_window), analytics_origins = COALESCE($3, analytics_origins),
       analytics_markdown_as_page = COALESCE($4, analytics_markdown_as_page), updated_at = now()
     WHERE id = $1 RETURNING *`,
    [id, change.saltWindow ?? null, change.allowedOrigins ?? null, change.markdownAsPage ?? null],
  );
  return toProject(row as ProjectRow);
}

/** Which models the project's jobs may ask for (besides its own). */
export async function updateAllowedModels(tx: Queryable, id: string, allowedModels: string[]): Promise<Project> {
  const row = await queryOne<ProjectRow>(tx, `UPDATE projects SET allowed_models = $2, updated_at = now() WHERE id = $1 RETURNING *`, [id, [...new Set(allowedModels)]]);
  if (!row) throw notFound("Project");
  return toProject(row);
}

/** How the project's jobs start and how long they may wait; a setting left out stays as it is. */
export async function updateJobSettings(tx: Queryable, id: string, change: Partial<JobSettings>): Promise<Project> {
  const row = await queryOne<ProjectRow>(
    tx,
    `UPDATE projects SET plan_approval = COALESCE($2, plan_approval), wait_limit_days = COALESCE($3, wait_limit_days),
       check_repair_rounds = COALESCE($4, check_repair_rounds), updated_at = now() WHERE id = $1 RETURNING *`,
    [id, change.planApproval ?? null, change.waitLimitDays ?? null, change.checkRepairRounds ?? null],
  );
  if (!row) throw notFound("Project");
  return toProject(row);
}

export async function listProjects(db: Queryable): Promise<Project[]> {
  const rows = await db.query<ProjectRow>(`SELECT * FROM projects ORDER BY created_at, id`);
  return rows.map(toProject);
}

/**
 * Accepts `owner/repo`, `https://host/owner/repo` or `…/owner/repo.git`; returns the canonical
 * repository URL on the configured GitHub host and its `owner/repo`.
 */
export function parseRepository(input: string, githubServerUrl: string): { repoName: string; repository: string } | null {
  const trimmed = withoutTrailingSlashes(input.trim().replace(/\.git$/, ""));
  const server = withoutTrailingSlashes(githubServerUrl);
  let path = trimmed;
  if (/^https?:\/\//i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      return null;
    }
    if (url.origin.toLowerCase() !== new URL(server).origin.toLowerCase()) return null;
    path = url.pathname.replace(/^\/+/, "");
  }
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/.test(path)) return null;
  if (path.endsWith("/.") || path.endsWith("/..")) return null;
  return { repoName: path, repository: `${server}/${path}` };
}
