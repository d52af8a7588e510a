import type { Logger } from "pino";
import { z } from "zod";
import { forgeWords, type ForgeName } from "../../shared/forge-words.js";
import { addRobotsVersion } from "../analytics/robots/robots-versions.js";
import { ConflictError, InvalidInputError } from "../domain/errors.js";
import type { Db, Queryable } from "../store/db.js";
import { defineTask, type TaskDefinition, type TaskOutcome } from "../tasks/task-definition.js";
import { enqueueTask } from "../tasks/tasks.js";

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

export const ROBOTS_MERGE_TASK = "robots_merge";
/** The kind GitLab's merges were queued under before the forge was in the payload: still taken, as GitLab's. */
const LEGACY_GITLAB_KIND = "gitlab_robots_merge";

/** A forge's side of robots.txt from a merge (`github/robots-merges.ts`, `gitlab/robots-merges.ts`): the merge it queued, read back. */
export interface MergeReadingForge {
  /** The merge a `robots_merge` task names (its payload, the forge's own fields), as its project and a reader; skipped when there is none to read. */
  readMerge(merge: Record<string, unknown>): Promise<{ projectId: string; reader: MergeReader } | { skipped: string }>;
}

/** After a merge into a docs repository's default branch: read robots.txt from it, in a task of its own (retried apart from the merge's other work), by its forge. */
export async function queueRobotsFromMerge(tx: Queryable, forge: ForgeName, dedupeKey: string, merge: Record<string, unknown>): Promise<void> {
  await enqueueTask(tx, ROBOTS_MERGE_TASK, dedupeKey, { ...merge, forge });
}

// A payload queued before the forge was in it is GitHub's.
const payload = z.looseObject({ forge: z.enum(["github", "gitlab"]).default("github") });

/**
 * The `robots_merge` task (docs/analytics/robots.md, "Where versions come from"): the forge named in
 * the payload reads the merge (GitHub with the App's installation token, GitLab with the project's
 * access token) and a merge that changed robots.txt is a new version at its merge time. A forge
 * without what it reads with (a server without the App) skips.
 */
export function robotsMergeTasks(db: Db, forges: Partial<Record<ForgeName, MergeReadingForge>>, log: Logger): TaskDefinition[] {
  const run = async ({ forge, ...merge }: z.infer<typeof payload>): Promise<TaskOutcome> => {
    const reading = forges[forge];
    if (!reading) return { skipped: `no ${forgeWords(forge).access} to read the merge with` };
    const read = await reading.readMerge(merge);
    return "skipped" in read ? read : robotsVersionFromMerge(db, read.projectId, read.reader, log);
  };
  return [
    defineTask({ kind: ROBOTS_MERGE_TASK, payload, run }),
    defineTask({ kind: LEGACY_GITLAB_KIND, payload: z.looseObject({}), run: (merge) => run({ ...merge, forge: "gitlab" }) }),
  ];
}
