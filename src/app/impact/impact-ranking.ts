import type { ImpactOrder, ImpactRanking } from "../../shared/impact-schemas.js";
import { DAY_MS, type DayRange } from "../../shared/epoch-days.js";
import { mergedJobs } from "../domain/jobs/merges.js";
import type { Queryable } from "../store/db.js";
import { impactTotals, measureJob } from "./job-impact.js";

/** Jobs one ranking measures at most: each costs a few index reads per page. */
export const MAX_RANKED_JOBS = 500;

type Ranked = ImpactRanking["jobs"][number];

/** How a job's change is ranked: failures that fell most first; reads and people that rose most first. */
const CHANGE: Record<ImpactOrder, (job: Ranked) => number> = {
  aiFailures: (job) => job.changedPages.aiFailures.after - job.changedPages.aiFailures.before,
  aiReads: (job) => job.changedPages.aiReads.before - job.changedPages.aiReads.after,
  humanVisitors: (job) => job.changedPages.humanVisitors.before - job.changedPages.humanVisitors.after,
};

export interface RankingQuery {
  days: number;
  order: ImpactOrder;
  /** Merge days. */
  range: DayRange;
  limit: number;
  offset: number;
}

/**
 * The project's view of the closed loop (docs/analytics/impact.md): its jobs merged in the range
 * whose PR changed pages, each measured over one window, ranked by the change in its pages' AI
 * failures, AI reads or people (ties: the later merge first). A job whose window is not over yet
 * is listed as pending, with the day it will be ranked from.
 */
export async function impactRanking(db: Queryable, projectId: string, query: RankingQuery, now: number): Promise<ImpactRanking> {
  const day = (value: number | null) => (value === null ? null : new Date(value * DAY_MS));
  const merged = await mergedJobs(db, projectId, { from: day(query.range.from), to: day(query.range.to) }, MAX_RANKED_JOBS + 1);
  const measured = await Promise.all(merged.slice(0, MAX_RANKED_JOBS).map(async ({ job, mergedAt }) => ({ job, mergedAt, impact: await measureJob(db, projectId, job, mergedAt, now, [query.days]) })));
  const ranked: Ranked[] = [];
  const pending: ImpactRanking["pending"] = [];
  for (const { job, mergedAt, impact } of measured) {
    const window = impact.windows[0];
    if (impact.state !== "measured" || !window) continue;
    if (!window.after.complete) {
      pending.push({ jobId: job.id, mergedAt: mergedAt.toISOString(), completesOn: window.after.dateTo });
      continue;
    }
    ranked.push({ jobId: job.id, prLink: job.prLink, mergedAt: mergedAt.toISOString(), summary: job.summary?.split("\n")[0] ?? null, pages: impact.pages.length, ...impactTotals(impact, 0) });
  }
  const change = CHANGE[query.order];
  ranked.sort((a, b) => change(a) - change(b) || b.mergedAt.localeCompare(a.mergedAt) || (a.jobId < b.jobId ? -1 : 1));
  return {
    days: query.days as ImpactRanking["days"],
    order: query.order,
    jobs: ranked.slice(query.offset, query.offset + query.limit),
    hasMore: ranked.length > query.offset + query.limit,
    pending,
    truncated: merged.length > MAX_RANKED_JOBS,
  };
}
