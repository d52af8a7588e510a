import type { ImpactRanking, JobImpact, ReaderNumbersView } from "../../shared/impact-schemas.js";
import { csvFields, type CsvColumns } from "../http-kit/csv.js";

/** One line of a job's impact as CSV: a page's (or the site's) numbers over one side of one window. */
export interface ImpactRow {
  scope: "page" | "site";
  path: string;
  fromPath: string;
  change: string;
  windowDays: number;
  side: "before" | "after" | "fromPathAfter";
  dateFrom: string;
  dateTo: string;
  days: number;
  complete: boolean;
  numbers: ReaderNumbersView;
}

/** The impact as flat rows, the site's first (the baseline), then each page's, each window before then after. */
export function* impactRows(impact: JobImpact): Generator<ImpactRow> {
  const scopes = [
    { scope: "site" as const, path: "", fromPath: "", change: "", windows: impact.site },
    ...impact.pages.map((page) => ({ scope: "page" as const, path: page.path, fromPath: page.fromPath ?? "", change: page.change, windows: page.windows })),
  ];
  for (const { windows, ...scope } of scopes) {
    for (const [i, window] of windows.entries()) {
      const dates = impact.windows[i];
      if (!dates) continue;
      const before = { dateFrom: dates.before.dateFrom, dateTo: dates.before.dateTo, days: window.days, complete: true };
      const after = { dateFrom: dates.after.dateFrom, dateTo: dates.after.dateTo, days: dates.after.daysCounted, complete: dates.after.complete };
      yield { ...scope, windowDays: window.days, side: "before", ...before, numbers: window.before };
      yield { ...scope, windowDays: window.days, side: "after", ...after, numbers: window.after };
      const moved = (window as { fromPathAfter?: ReaderNumbersView }).fromPathAfter;
      if (moved) yield { ...scope, windowDays: window.days, side: "fromPathAfter", ...after, numbers: moved };
    }
  }
}

/** The CSV's columns: where and when, then each measure. */
export const IMPACT_COLUMNS: CsvColumns<ImpactRow> = [
  ...csvFields<ImpactRow>("scope", "path", "fromPath", "change", "windowDays", "side", "dateFrom", "dateTo", "days", "complete"),
  ["humanVisitors", (row) => row.numbers.humanVisitors],
  ["aiVisitors", (row) => row.numbers.aiVisitors],
  ["aiReadsAssistant", (row) => row.numbers.aiReads.assistant],
  ["aiReadsCrawler", (row) => row.numbers.aiReads.crawler],
  ["aiReadsSearch", (row) => row.numbers.aiReads.search],
  ["aiReads", (row) => row.numbers.aiReads.total],
  ["aiFailures", (row) => row.numbers.aiFailures],
  ["arrivalsFromAi", (row) => row.numbers.arrivalsFromAi],
  ["markdownReads", (row) => row.numbers.markdownReads],
  ["llmsTxtReads", (row) => row.numbers.llmsTxtReads],
];

type RankedJob = ImpactRanking["jobs"][number];
const MEASURE_NAMES = ["humanVisitors", "aiReads", "aiFailures", "arrivalsFromAi"] as const;

/** The ranking's CSV: a job per line, each measure before and after on its changed pages, then the site's. */
export const RANKING_COLUMNS: CsvColumns<RankedJob> = [
  ...csvFields<RankedJob>("jobId", "prLink", "mergedAt", "pages", "summary"),
  ...MEASURE_NAMES.flatMap((name) => [
    [`${name}Before`, (job: RankedJob) => job.changedPages[name].before] as const,
    [`${name}After`, (job: RankedJob) => job.changedPages[name].after] as const,
  ]),
  ...MEASURE_NAMES.flatMap((name) => [
    [`site${name[0]?.toUpperCase()}${name.slice(1)}Before`, (job: RankedJob) => job.site[name].before] as const,
    [`site${name[0]?.toUpperCase()}${name.slice(1)}After`, (job: RankedJob) => job.site[name].after] as const,
  ]),
];
