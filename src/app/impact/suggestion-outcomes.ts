import type { AgentJob } from "../../shared/api-schemas.js";
import { epochDay } from "../../shared/epoch-days.js";
import { impactNumbers } from "../analytics/reports/page-impact.js";
import { latestSuggestedJobs } from "../domain/jobs/merges.js";
import type { Queryable } from "../store/db.js";

/** What became of a suggestion: the job started from it and, once merged, the AI failures on its page since. */
export type SuggestionOutcome =
  | { job: AgentJob; merged: false }
  | {
      job: AgentJob;
      merged: true;
      mergedAt: string;
      /** Days after the merge day counted, today included. */
      days: number;
      /** AI fetches of the page answered 4xx/5xx over those days. */
      failuresSince: number;
    };

/**
 * For each suggested page (docs/analytics/impact.md), the latest job started from a suggestion
 * about it: still open, or merged and how many AI fetches of the page failed since the day after
 * the merge (today included, so "stopped" shows as soon as it has). A page with no job is absent.
 */
export async function suggestionOutcomes(db: Queryable, projectId: string, paths: readonly string[], now: number): Promise<Map<string, SuggestionOutcome>> {
  const jobs = await latestSuggestedJobs(db, projectId, paths);
  const today = epochDay(now);
  const outcomes = await Promise.all(
    [...jobs].map(async ([path, { job, mergedAt }]): Promise<[string, SuggestionOutcome]> => {
      if (!mergedAt) return [path, { job, merged: false }];
      const since = { from: epochDay(mergedAt.getTime()) + 1, to: today + 1 };
      const numbers = await impactNumbers(db, projectId, [path], [since]);
      const failuresSince = numbers.paths.get(path)?.[0]?.aiFailures ?? 0;
      return [path, { job, merged: true, mergedAt: mergedAt.toISOString(), days: Math.max(0, since.to - since.from), failuresSince }];
    }),
  );
  return new Map(outcomes);
}
