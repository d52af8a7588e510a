import type { AgentJob } from "../../shared/api-schemas.js";
import type { ImpactNotice, ImpactTotals, JobImpact } from "../../shared/impact-schemas.js";
import type { FileChange } from "../../shared/job-outcome-schemas.js";
import { dayToIso, epochDay } from "../../shared/epoch-days.js";
import { IMPACT_WINDOW_DAYS, impactWindows, type ImpactWindow } from "../domain/jobs/impact-windows.js";
import { impactNumbers, type ImpactPeriod, type ReaderNumbers } from "../analytics/reports/page-impact.js";
import { jobWithMerge } from "../domain/jobs/merges.js";
import type { Queryable } from "../store/db.js";

/** A page the PR changed, at the path the site serves it (several files may be one page: a moved file's old and new name). */
export interface ChangedPage {
  path: string;
  fromPath?: string;
  change: FileChange["change"];
  files: string[];
}

/**
 * The PR's files as site pages (the runner reports each file's `page` through the framework's
 * routes, and a moved or deleted page's `fromPage`): added, modified, moved and deleted pages, a
 * deleted one at the path it was served at (after the merge its readers are sent on by a redirect
 * or fail there); the rest (config, images, and deleted pages a runner before this release
 * reported without their path) are other files.
 */
export function changedPages(files: readonly FileChange[]): { pages: ChangedPage[]; otherFiles: string[] } {
  const pages = new Map<string, ChangedPage>();
  const otherFiles: string[] = [];
  for (const file of files) {
    const path = file.change === "deleted" ? file.fromPage : file.page;
    if (!path) {
      otherFiles.push(file.path);
      continue;
    }
    const known = pages.get(path);
    if (known) {
      known.files.push(file.path);
      // One file of the page went and another serves it now: the page itself stays, changed.
      if ((known.change === "deleted") !== (file.change === "deleted")) known.change = "modified";
      continue;
    }
    const fromPath = file.change === "renamed" && file.fromPage && file.fromPage !== file.page ? file.fromPage : undefined;
    pages.set(path, { path, ...(fromPath ? { fromPath } : {}), change: fromPath ? "renamed" : file.change === "renamed" ? "modified" : file.change, files: [file.path] });
  }
  return { pages: [...pages.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), otherFiles };
}

/** Why a job has no impact to measure yet (not an error). */
function notMergedReason(job: AgentJob): string {
  if (!job.prLink) return "The job has no pull request yet: its impact is measured once its pull request is merged.";
  if (job.status === "archived") return "The pull request was closed without merging: nothing changed for readers.";
  return "The pull request is not merged yet: its impact is measured from the day after the merge.";
}

/**
 * A job's impact (docs/analytics/impact.md): for each page its merged PR changed, the readers of
 * the N days before the merge day and of the N days after it (N = 7, 14, 28; a window not over
 * yet counts its ended days), beside the whole site over the same days. `now` is the clock.
 */
export async function jobImpact(db: Queryable, projectId: string, jobId: string, now = Date.now()): Promise<JobImpact> {
  const { job, mergedAt } = await jobWithMerge(db, projectId, jobId);
  return measureJob(db, projectId, job, mergedAt, now);
}

/** A job's impact over the windows of `days` (all three by default): jobImpact's, and the ranking's (one window per job). */
export async function measureJob(db: Queryable, projectId: string, job: AgentJob, mergedAt: Date | null, now: number, days: readonly number[] = IMPACT_WINDOW_DAYS): Promise<JobImpact> {
  const base = { jobId: job.id, prLink: job.prLink, mergedAt: mergedAt?.toISOString() ?? null };
  if (!mergedAt) return { ...base, state: "not_merged", reason: notMergedReason(job), windows: [], site: [], pages: [], otherFiles: [] };
  const { pages, otherFiles } = changedPages(job.files ?? []);
  const windows = impactWindows(epochDay(mergedAt.getTime()), epochDay(now)).filter((window) => days.includes(window.days));
  const numbers = await impactNumbers(db, projectId, pages.flatMap((page) => (page.fromPath ? [page.path, page.fromPath] : [page.path])), windows.flatMap(periodsOf));
  const sides = (of: ReaderNumbers[]) => windows.map((window, i) => ({ days: window.days, before: of[2 * i] as ReaderNumbers, after: of[2 * i + 1] as ReaderNumbers }));
  return {
    ...base,
    state: pages.length === 0 ? "no_pages" : "measured",
    ...(pages.length === 0 ? { reason: "The pull request changed no page the site serves (only other files), so no page's readers could change." } : {}),
    windows: windows.map(windowDates),
    site: sides(numbers.site),
    pages: pages.map((page) => {
      const now = numbers.paths.get(page.path) ?? [];
      const before = page.fromPath ? (numbers.paths.get(page.fromPath) ?? []) : now;
      return {
        ...page,
        windows: windows.map((window, i) => ({
          days: window.days,
          before: before[2 * i] as ReaderNumbers,
          after: now[2 * i + 1] as ReaderNumbers,
          ...(page.fromPath ? { fromPathAfter: before[2 * i + 1] as ReaderNumbers } : {}),
        })),
      };
    }),
    otherFiles,
  };
}

/** A window's two periods as impactNumbers counts them: before, then the ended days after. */
const periodsOf = (window: ImpactWindow): ImpactPeriod[] => [window.before, window.after.counted];

const windowDates = (window: ImpactWindow): JobImpact["windows"][number] => ({
  days: window.days,
  before: { dateFrom: dayToIso(window.before.from), dateTo: dayToIso(window.before.to) },
  after: { dateFrom: dayToIso(window.after.from), dateTo: dayToIso(window.after.to), daysCounted: window.after.counted.to - window.after.counted.from, complete: window.after.complete },
});

/**
 * The changed pages' numbers over window `i`, summed (a visitor of two pages counts on each),
 * and the site's: what the notice, the ranking and a one-line answer say. A moved page's old path
 * after the merge adds its failures: agents still asking for it failed on the change's account.
 */
export function impactTotals(impact: JobImpact, i: number): ImpactTotals {
  const sum = (sides: { before: ReaderNumbers; after: ReaderNumbers; fromPathAfter?: ReaderNumbers | undefined }[]): ImpactTotals["site"] => {
    const total = (pick: (n: ReaderNumbers) => number, oldPathToo = false) => ({
      before: sides.reduce((s, x) => s + pick(x.before), 0),
      after: sides.reduce((s, x) => s + pick(x.after) + (oldPathToo && x.fromPathAfter ? pick(x.fromPathAfter) : 0), 0),
    });
    return { humanVisitors: total((n) => n.humanVisitors), aiReads: total((n) => n.aiReads.total), aiFailures: total((n) => n.aiFailures, true), arrivalsFromAi: total((n) => n.arrivalsFromAi) };
  };
  return { changedPages: sum(impact.pages.flatMap((page) => page.windows[i] ?? [])), site: sum(impact.site.slice(i, i + 1)) };
}

/** The first (7-day) window's result in brief: the webhook's and the tracking comment's. Null until that window is complete or for a job with no impact. */
export function impactNotice(impact: JobImpact): ImpactNotice | null {
  const i = impact.windows.findIndex((window) => window.days === 7);
  const window = impact.windows[i];
  if (impact.state !== "measured" || !window?.after.complete || !impact.mergedAt) return null;
  return {
    days: 7,
    mergedAt: impact.mergedAt,
    before: window.before,
    after: { dateFrom: window.after.dateFrom, dateTo: window.after.dateTo },
    pages: impact.pages.length,
    ...impactTotals(impact, i),
  };
}
