import type { ImpactNotice } from "../../shared/impact-schemas.js";
import { percentChangeText } from "../../shared/percent-change.js";

type BeforeAfter = { before: number; after: number };

const arrow = (numbers: BeforeAfter) => `${numbers.before.toLocaleString("en-US")} → ${numbers.after.toLocaleString("en-US")}`;

/** One measure of the changed pages, with the site's change beside it as the baseline. */
function measure(name: string, pages: BeforeAfter, site: BeforeAfter): string {
  const own = percentChangeText(pages.before, pages.after);
  const baseline = percentChangeText(site.before, site.after);
  const notes = [own, baseline === null ? null : `site ${baseline}`].filter((note) => note !== null);
  return `${name} ${arrow(pages)}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
}

/**
 * The first week's result in one line (the PR's tracking comment and the Slack message): the
 * changed pages' 7 days after the merge against the 7 before, each with the site's change.
 */
export function impactLine(notice: ImpactNotice): string {
  const { changedPages: pages, site } = notice;
  const measures = [
    measure("people", pages.humanVisitors, site.humanVisitors),
    measure("AI reads", pages.aiReads, site.aiReads),
    measure("AI fetch failures", pages.aiFailures, site.aiFailures),
    measure("arrivals from AI answers", pages.arrivalsFromAi, site.arrivalsFromAi),
  ];
  const what = notice.pages === 1 ? "the changed page" : `the ${notice.pages} changed pages`;
  return `First 7 days after the merge (${notice.after.dateFrom} to ${notice.after.dateTo}, exclusive) against the 7 before, on ${what}: ${measures.join(", ")}.`;
}
