import type { Queryable } from "../store/db.js";
import { queryOne } from "../store/db.js";
import { ConflictError, notFound } from "./errors.js";
import { createProject, type NewProject, type Project } from "./projects.js";

/** How Inkwell reaches a GitLab project: the instance, the project, the access token and the webhook's tokens. */
export interface GitLabConnection {
  projectId: string;
  /** The instance's URL (https://gitlab.com): its API's base and the issuer of its CI ID tokens. */
  baseUrl: string;
  gitlabProjectId: number;
  /** group/sub/project, as GitLab spells it. */
  projectPath: string;
  defaultBranch: string | null;
  accessToken: string;
  /** The access token's user: mentioning it addresses the agent; its own notes are never follow-ups. */
  tokenUsername: string;
  webhookToken: string;
  signingToken: string;
  webhookId: number | null;
}

interface ConnectionRow {
  project_id: string;
  base_url: string;
  gitlab_project_id: string | number;
  project_path: string;
  default_branch: string | null;
  access_token: string;
  token_username: string;
  webhook_token: string;
  signing_token: string;
  webhook_id: string | number | null;
}

const toConnection = (row: ConnectionRow): GitLabConnection => ({
  projectId: row.project_id,
  baseUrl: row.base_url,
  gitlabProjectId: Number(row.gitlab_project_id),
  projectPath: row.project_path,
  defaultBranch: row.default_branch,
  accessToken: row.access_token,
  tokenUsername: row.token_username,
  webhookToken: row.webhook_token,
  signingToken: row.signing_token,
  webhookId: row.webhook_id === null ? null : Number(row.webhook_id),
});

/** A GitLab project's repo_full_name: host and path, lower-cased, so it never meets a GitHub owner/repo. */
export const gitLabRepoName = (baseUrl: string, projectPath: string) => `${new URL(baseUrl).host}/${projectPath}`.toLowerCase();

/** The project path in such a name (lower-cased, as stored), or null when it names a project on another instance. */
export const gitLabProjectPathIn = (baseUrl: string, repoName: string): string | null => {
  const host = gitLabRepoName(baseUrl, "");
  return repoName.toLowerCase().startsWith(host) ? repoName.slice(host.length) : null;
};

export type NewGitLabConnection = Omit<GitLabConnection, "projectId">;

/** Creates the project (forge gitlab, repository = the project's web URL) and its connection, in the caller's transaction. */
export async function createGitLabProject(tx: Queryable, project: Omit<NewProject, "forge" | "repoName" | "repositoryId"> & { id: string }, connection: NewGitLabConnection): Promise<Project> {
  const taken = await queryOne<{ project_id: string }>(tx, `SELECT project_id FROM gitlab_connections WHERE base_url = $1 AND gitlab_project_id = $2`, [
    connection.baseUrl,
    connection.gitlabProjectId,
  ]);
  if (taken) throw new ConflictError(`A project for ${connection.projectPath} on ${connection.baseUrl} already exists: ${taken.project_id}`);
  const created = await createProject(tx, {
    ...project,
    forge: "gitlab",
    repoName: gitLabRepoName(connection.baseUrl, connection.projectPath),
    repositoryId: connection.gitlabProjectId,
  });
  await tx.query(
    `INSERT INTO gitlab_connections (project_id, base_url, gitlab_project_id, project_path, default_branch, access_token, token_username, webhook_token, signing_token, webhook_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      created.id,
      connection.baseUrl,
      connection.gitlabProjectId,
      connection.projectPath,
      connection.defaultBranch,
      connection.accessToken,
      connection.tokenUsername,
      connection.webhookToken,
      connection.signingToken,
      connection.webhookId,
    ],
  );
  return created;
}

/** Whether a project id is taken or a project of this repository exists, before anything is registered on GitLab for it. */
export async function gitLabProjectTaken(db: Queryable, baseUrl: string, projectPath: string): Promise<string | null> {
  const row = await queryOne<{ id: string }>(db, `SELECT id FROM projects WHERE repo_full_name = $1`, [gitLabRepoName(baseUrl, projectPath)]);
  return row?.id ?? null;
}

/** The connection of a GitLab project; null for a GitHub project or none. */
export async function gitLabConnectionOf(db: Queryable, projectId: string): Promise<GitLabConnection | null> {
  const row = await queryOne<ConnectionRow>(db, `SELECT * FROM gitlab_connections WHERE project_id = $1`, [projectId]);
  return row ? toConnection(row) : null;
}

/** The connection of a GitLab project, which must exist (NotFoundError otherwise). */
export async function requireGitLabConnection(db: Queryable, projectId: string): Promise<GitLabConnection> {
  const connection = await gitLabConnectionOf(db, projectId);
  if (!connection) throw notFound("GitLab connection");
  return connection;
}

/** Whether some connected project is on this instance: only those instances' ID tokens are trusted. */
export async function isGitLabIssuer(db: Queryable, baseUrl: string): Promise<boolean> {
  return Boolean(await queryOne(db, `SELECT 1 FROM gitlab_connections WHERE base_url = $1 LIMIT 1`, [baseUrl]));
}

/** The connected project a CI ID token's instance and project id name; null when none is connected. */
export async function gitLabConnectionByGitLabId(db: Queryable, baseUrl: string, gitlabProjectId: number): Promise<GitLabConnection | null> {
  const row = await queryOne<ConnectionRow>(db, `SELECT * FROM gitlab_connections WHERE base_url = $1 AND gitlab_project_id = $2`, [baseUrl, gitlabProjectId]);
  return row ? toConnection(row) : null;
}
