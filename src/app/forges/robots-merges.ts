import type { Logger } from "pino";
import { addRobotsVersion } from "../analytics/robots/robots-versions.js";
import { ConflictError, InvalidInputError } from "../domain/errors.js";
import type { Db } from "../store/db.js";
import type { TaskOutcome } from "../tasks/task-definition.js";

/**
 * robots.txt from the docs repository (docs/analytics/robots.md, "Where versions come from"), by
 * the same rules on every forge: a merge into the default branch that changed the site's
 * robots.txt is a new version at the merge's time, read at the merge's commit.
 */

/**
 * Where a docs framework serves robots.txt from, relative to the repository: the root (Mintlify),
 * the static folder copied to the site's root (Docusaurus `static/`, VitePress `<srcDir>/public/`,
 * Next-based sites `public/`), or the docs folder MkDocs copies (`docs/`).
 */
const SITE_ROOTS = new Set(["", "public", "static", "docs", "docs/public", "docs/static", "website/static", "src/public"]);

/**
 * The site's robots.txt among a merge's files: a file named robots.txt in one of the folders a
 * site is served from (an example's or a test fixture's robots.txt deeper in the tree is not the
 * site's); with several, the one nearest the root. A changed or removed file counts; null when the
 * merge left the site's robots.txt alone.
 */
export function robotsFileIn(files: ReadonlyArray<{ path: string; status: string }>): { path: string; removed: boolean } | null {
  const folder = (path: string) => path.split("/").slice(0, -1).join("/");
  const touched = files.filter((file) => file.path.split("/").pop() === "robots.txt" && SITE_ROOTS.has(folder(file.path)));
  const nearest = touched.sort((a, b) => a.path.split("/").length - b.path.split("/").length || (a.path < b.path ? -1 : 1))[0];
  return nearest ? { path: nearest.path, removed: nearest.status === "removed" } : null;
}

/** What a forge reads of one merge: its changed files, and a file's text at the merge's commit (null when it is not there). */
export interface MergeReader {
  files(): Promise<ReadonlyArray<{ path: string; status: string }>>;
  fileAt(path: string): Promise<string | null>;
  /** The merge's commit, as the version's origin names it. */
  sha: string;
  /** When the forge says it merged (null: when the merge was heard of); asked only of a merge that changed robots.txt. */
  mergedAt(): Promise<Date | null>;
  /** The repository as the origin names it (`owner/repo`, or a GitLab project's `host/path`). */
  repository: string;
}

/**
 * A merge's robots.txt as the project's new version (a removed file is a site without rules). The
 * same body as the version in force adds nothing; a merge older than the latest version, or a file
 * over robots.txt's size limit, is not one to judge by and no retry changes that: skipped.
 */
export async function robotsVersionFromMerge(db: Db, projectId: string, merge: MergeReader, log: Logger): Promise<TaskOutcome> {
  const file = robotsFileIn(await merge.files());
  if (!file) return { skipped: "robots.txt unchanged" };
  const body = file.removed ? "" : await merge.fileAt(file.path);
  if (body === null) return { skipped: `${file.path} is not in the merge commit` };
  const effectiveAt = (await merge.mergedAt()) ?? new Date();
  try {
    const { version, created } = await db.transaction((tx) =>
      addRobotsVersion(tx, projectId, { body, source: "repository", effectiveAt, origin: `${merge.repository}@${merge.sha.slice(0, 12)}:${file.path}` }),
    );
    log.info({ projectId, repository: merge.repository, sha: merge.sha, versionId: version.id, created }, "robots.txt from a merge");
    return created ? { ok: true } : { skipped: "robots.txt the same as the version in force" };
  } catch (error) {
    if (error instanceof ConflictError || error instanceof InvalidInputError) return { skipped: error.message };
    throw error;
  }
}
