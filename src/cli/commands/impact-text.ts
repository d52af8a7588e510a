import type { ImpactRanking, JobImpact, ReaderNumbersView } from "../../shared/impact-schemas.js";
import { percentChangeText } from "../../shared/percent-change.js";
import { fields, table } from "../format.js";

/** A before → after pair, with its change in percent when there was something before and the window is complete (fewer days after are no match for all the days before). */
function change(before: number, after: number, complete: boolean): string {
  if (!complete) return `${before} → ${after}`;
  const percent = percentChangeText(before, after);
  return `${before} → ${after}${percent === null ? "" : ` (${percent})`}`;
}

const MEASURES: [heading: string, value: (n: ReaderNumbersView) => number][] = [
  ["PEOPLE", (n) => n.humanVisitors],
  ["AI VISITORS", (n) => n.aiVisitors],
  ["AI READS", (n) => n.aiReads.total],
  ["AI FAILURES", (n) => n.aiFailures],
  ["FROM AI ANSWERS", (n) => n.arrivalsFromAi],
  ["MARKDOWN", (n) => n.markdownReads],
];

/** `inkwell jobs impact` for people: why there is none, or a table per window of each page and the site, before → after. */
export function impactText(impact: JobImpact, onlyDays?: number): string {
  const head = fields([
    ["job", impact.jobId],
    ["pull request", impact.prLink],
    ["merged", impact.mergedAt],
    ...(impact.otherFiles.length > 0 ? ([["other files", impact.otherFiles.join(", ")]] as [string, string][]) : []),
  ]);
  if (impact.state === "not_merged") return `${head}\n\n${impact.reason ?? "Not merged."}`;
  const sections = impact.windows.flatMap((window, i) => {
    if (onlyDays !== undefined && window.days !== onlyDays) return [];
    const rows = [
      ...impact.pages.map((page) => ({ label: page.fromPath ? `${page.fromPath} → ${page.path}` : page.path, sides: page.windows[i] })),
      { label: "(whole site)", sides: impact.site[i] },
    ];
    const state = window.after.complete ? "complete" : `${window.after.daysCounted} of ${window.days} days so far`;
    const title = `${window.days} days: ${window.before.dateFrom}..${window.before.dateTo} before, ${window.after.dateFrom}..${window.after.dateTo} after (${state}; end dates exclusive)`;
    return [
      `${title}\n${table(
        ["PAGE", ...MEASURES.map(([heading]) => heading)],
        rows.map(({ label, sides }) => [label, ...MEASURES.map(([, value]) => (sides ? change(value(sides.before), value(sides.after), window.after.complete) : null))]),
      )}`,
    ];
  });
  const note = impact.state === "no_pages" ? `\n\n${impact.reason ?? ""}` : "";
  return `${head}${note}\n\n${sections.join("\n\n")}`;
}

/** `inkwell jobs ranking` for people: a line per job, its pages' change over the window, then the jobs still waiting for theirs. */
export function rankingText(ranking: ImpactRanking): string {
  const pair = ({ before, after }: { before: number; after: number }) => change(before, after, true);
  const ranked =
    ranking.jobs.length === 0
      ? "No merged job that changed pages has a complete window yet."
      : table(
          ["JOB", "MERGED", "PAGES", "PEOPLE", "AI READS", "AI FAILURES", "FROM AI ANSWERS", "SUMMARY"],
          ranking.jobs.map((job) => [job.jobId, job.mergedAt.slice(0, 10), job.pages, pair(job.changedPages.humanVisitors), pair(job.changedPages.aiReads), pair(job.changedPages.aiFailures), pair(job.changedPages.arrivalsFromAi), job.summary]),
        );
  const pending = ranking.pending.length === 0 ? "" : `\n\nStill measuring (ranked from the day given): ${ranking.pending.map((job) => `${job.jobId} (${job.completesOn})`).join(", ")}`;
  const more = ranking.hasMore ? "\n\nMore: add --offset" : "";
  const truncated = ranking.truncated ? "\n\nOnly the latest merges were measured: narrow --from/--to." : "";
  return `Merged jobs by ${ranking.order}, ${ranking.days} days before and after each merge (changed pages, before → after):\n${ranked}${pending}${more}${truncated}`;
}
