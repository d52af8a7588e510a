import { z } from "zod";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";

/**
 * The code repository a job's agent may read (a source automation's merge): read-only, at one
 * commit, through a token of the installation on that repository. Later merges that follow up on
 * the job move it to their commit.
 */
export const sourceContextSchema = z.object({
  repository: z.string(),
  sha: z.string().regex(/^[0-9a-f]{40}$/),
  installationId: z.number().int(),
  pullRequestUrl: z.string().nullable(),
});
export type SourceContext = z.infer<typeof sourceContextSchema>;

export function sourceContextOf(stored: string | null): SourceContext | null {
  if (stored === null) return null;
  const parsed = sourceContextSchema.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : null;
}

/**
 * The source repository a run may read: the job's, only while the automation that started it still
 * links that repository (deleting the automation, or linking another, stops handing out tokens for it).
 */
export async function linkedSourceOf(db: Queryable, job: { source_context: string | null; automation_id: string | null }): Promise<SourceContext | null> {
  const source = sourceContextOf(job.source_context);
  if (!source || !job.automation_id) return null;
  const linked = await queryOne<{ source_repo: string | null }>(db, `SELECT source_repo FROM automations WHERE id = $1 AND kind = 'source'`, [job.automation_id]);
  return linked?.source_repo === source.repository.toLowerCase() ? source : null;
}
