import type { Queryable } from "../store/db.js";
import { newId } from "./ids.js";

export interface InstalledRepository {
  fullName: string;
  repositoryId: number;
  /** null when not known yet (the installation payloads do not carry it). */
  defaultBranch: string | null;
}

/**
 * The App was installed on these repositories: link each to its project, creating the project
 * (base ref = default branch) when the operator has not made one. Returns the project ids.
 */
export async function linkRepositories(
  tx: Queryable,
  installationId: number,
  repositories: InstalledRepository[],
  serverUrl: string,
  defaultModel: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (const repo of repositories) {
    const rows = await tx.query<{ id: string }>(
      `INSERT INTO projects (id, repository, repo_full_name, base_ref, model, installation_id, repository_id, installation_suspended)
       VALUES ($1, $2, $3, $4, $5, $6, $7, false)
       ON CONFLICT (repo_full_name) DO UPDATE SET
         installation_id = EXCLUDED.installation_id,
         repository_id = EXCLUDED.repository_id,
         installation_suspended = false,
         base_ref = COALESCE(projects.base_ref, EXCLUDED.base_ref),
         updated_at = now()
       RETURNING id`,
      [newId(), `${serverUrl}/${repo.fullName}`, repo.fullName.toLowerCase(), repo.defaultBranch, defaultModel, installationId, repo.repositoryId],
    );
    if (rows[0]) ids.push(rows[0].id);
  }
  return ids;
}

/** The App lost access to these repositories (or the whole installation when `fullNames` is null). */
export async function unlinkRepositories(tx: Queryable, installationId: number, fullNames: string[] | null): Promise<number> {
  const rows = fullNames
    ? await tx.query(
        `UPDATE projects SET installation_id = NULL, updated_at = now() WHERE installation_id = $1 AND repo_full_name = ANY($2::text[]) RETURNING id`,
        [installationId, fullNames.map((n) => n.toLowerCase())],
      )
    : await tx.query(`UPDATE projects SET installation_id = NULL, updated_at = now() WHERE installation_id = $1 RETURNING id`, [installationId]);
  return rows.length;
}

export async function setInstallationSuspended(tx: Queryable, installationId: number, suspended: boolean): Promise<void> {
  await tx.query(`UPDATE projects SET installation_suspended = $2, updated_at = now() WHERE installation_id = $1`, [installationId, suspended]);
}
