import { z } from "zod";

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
