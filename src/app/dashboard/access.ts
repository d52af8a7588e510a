import type { Logger } from "pino";
import { notFound } from "../domain/errors.js";
import { getProject, listProjects, type Project } from "../domain/projects.js";
import type { GitHubApi, RepoPermission } from "../forges/github/api.js";
import type { Queryable } from "../store/db.js";
import type { DashboardUser } from "./sessions.js";

const RANK: Record<RepoPermission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };
const PERMISSION_TTL_MS = 60_000;

/** What a signed-in user may do with one project. */
export interface ProjectAccess {
  /** Create jobs and send follow-ups (write on the repository, as for PR comments). */
  canWrite: boolean;
  /** Create and revoke API keys (admin on the repository). */
  canAdmin: boolean;
  /** Shown to the user: "operator" or the repository permission. */
  role: string;
}

const OPERATOR: ProjectAccess = { canWrite: true, canAdmin: true, role: "operator" };

/**
 * Which projects a dashboard user sees: the operator sees all; a GitHub user sees a project when
 * the App's installation says they hold at least `minPermission` on its repository. Answers are
 * cached for a minute per user and repository, so a page costs no GitHub call on most views.
 */
export class DashboardAccess {
  readonly #cache = new Map<string, { permission: RepoPermission; until: number }>();

  constructor(
    private readonly db: Queryable,
    private readonly github: GitHubApi | null,
    private readonly minPermission: Exclude<RepoPermission, "none">,
    private readonly log: Logger,
  ) {}

  async projects(user: DashboardUser): Promise<{ project: Project; access: ProjectAccess }[]> {
    const all = await listProjects(this.db);
    const checked = await Promise.all(all.map(async (project) => ({ project, access: await this.#accessTo(user, project) })));
    return checked.filter((c): c is { project: Project; access: ProjectAccess } => c.access !== null);
  }

  /** One project; 404 alike for a project that does not exist and one the user may not see. */
  async project(user: DashboardUser, projectId: string): Promise<{ project: Project; access: ProjectAccess }> {
    const project = await getProject(this.db, projectId).catch(() => null);
    const access = project ? await this.#accessTo(user, project) : null;
    if (!project || !access) throw notFound("Project");
    return { project, access };
  }

  async #accessTo(user: DashboardUser, project: Project): Promise<ProjectAccess | null> {
    if (user.kind === "operator") return OPERATOR;
    if (!this.github || project.installationId === null) return null;
    const permission = await this.#permission(user.login, project.installationId, project.repoName);
    // A permission name GitHub may add later ranks as none: fail closed.
    if ((RANK[permission] ?? 0) < RANK[this.minPermission]) return null;
    return { canWrite: RANK[permission] >= RANK.write, canAdmin: permission === "admin", role: permission };
  }

  async #permission(login: string, installationId: number, repo: string): Promise<RepoPermission> {
    const key = `${login.toLowerCase()}\n${installationId}\n${repo.toLowerCase()}`;
    const cached = this.#cache.get(key);
    if (cached && cached.until > Date.now()) return cached.permission;
    let permission: RepoPermission;
    try {
      permission = await (this.github as GitHubApi).permission(installationId, repo, login);
    } catch (error) {
      // Fail closed: a project whose permission cannot be read is not shown.
      this.log.warn({ err: error, repo }, "dashboard: could not read a repository permission from GitHub");
      return "none";
    }
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(key, { permission, until: Date.now() + PERMISSION_TTL_MS });
    return permission;
  }
}
