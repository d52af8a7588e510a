import type { Queryable } from "../../store/db.js";
import { RateLimitedError } from "../errors.js";
import type { Project } from "../projects.js";

const WINDOW_SECONDS = 3600;

/**
 * Job creations + messages from the API and the dashboard (not PR comments) per project per
 * rolling hour. Call inside the transaction that holds the project's row lock, so concurrent
 * requests cannot both take the last slot.
 * Reads at most `limit` index entries, however busy the project is.
 */
export async function enforceRateLimit(tx: Queryable, project: Project, defaultPerHour: number): Promise<void> {
  const limit = project.rateLimitPerHour ?? defaultPerHour;
  const rows = await tx.query<{ used: number; retry_after: number | null }>(
    `WITH recent AS (
       SELECT created_at FROM job_messages
       WHERE project_id = $1 AND source <> 'comment' AND created_at > now() - make_interval(secs => $2)
       ORDER BY created_at DESC LIMIT $3
     ), counted AS (SELECT count(*)::int AS used FROM recent)
     SELECT counted.used,
       (SELECT ceil(extract(epoch FROM (created_at + make_interval(secs => $2) - now())))::int
          FROM recent ORDER BY created_at ASC LIMIT 1) AS retry_after
     FROM counted`,
    [project.id, WINDOW_SECONDS, limit],
  );
  const used = rows[0]?.used ?? 0;
  if (used < limit) return;
  const retryAfter = Math.max(1, rows[0]?.retry_after ?? 1);
  throw new RateLimitedError(`Rate limit reached: at most ${limit} job creations and messages per hour for this project`, retryAfter);
}
