import type { JobImpact, ReaderNumbersView } from "../../../shared/impact-schemas.js";
import { html, type SafeHtml } from "../html.js";
import { number } from "../layout.js";
import { changeFrom } from "../comparison.js";
import { forgeWords, type ForgeName } from "../../../shared/forge-words.js";

const MEASURES: [heading: string, value: (n: ReaderNumbersView) => number, lowerIsBetter?: boolean][] = [
  ["People", (n) => n.humanVisitors],
  ["AI visitors", (n) => n.aiVisitors],
  ["AI reads", (n) => n.aiReads.total],
  ["AI fetch failures", (n) => n.aiFailures, true],
  ["From AI answers", (n) => n.arrivalsFromAi],
  ["Markdown reads", (n) => n.markdownReads],
];

/** before → after, and the change once the window is complete (fewer days after compare with nothing). */
function cell(before: number, after: number, complete: boolean, lowerIsBetter = false): SafeHtml {
  return html`<td class="num">${number(before)} → ${number(after)}${complete ? html` ${changeFrom(after, before, lowerIsBetter)}` : ""}</td>`;
}

/**
 * The job page's panel of what its merged change did for readers (docs/analytics/impact.md):
 * why there is none yet, or a table per window (7, 14, 28 days) of each changed page beside the
 * whole site, with the CSV of all of it.
 */
export function impactSection(impact: JobImpact, csvHref: string, forge: ForgeName): SafeHtml {
  const change = forgeWords(forge).change;
  const heading = html`<h2 id="impact-heading">Readers before and after the merge</h2>`;
  if (impact.state === "not_merged") return html`<section id="job-impact" aria-labelledby="impact-heading">${heading}<p class="help">${impact.reason ?? ""}</p></section>`;
  return html`<section id="job-impact" aria-labelledby="impact-heading">${heading}
<p class="help">Each page the ${change} changed, over the days before the merge day and the days after it (the merge day itself is on neither side), beside the whole site over the same days. A moved page is read at its old path before. Exact counts. <a href="${csvHref}" download>Download CSV</a></p>
${impact.state === "no_pages" ? html`<p class="notice notice-info">${impact.reason ?? ""}</p>` : ""}
${impact.windows.map((window, i) => {
  const rows = [
    ...impact.pages.map((page) => ({ label: page.fromPath ? html`<code>${page.fromPath}</code> → <code>${page.path}</code>` : html`<code>${page.path}</code>`, sides: page.windows[i], site: false })),
    { label: html`Whole site`, sides: impact.site[i], site: true },
  ];
  const state = window.after.complete ? "" : html` <span class="muted">(${window.after.daysCounted} of ${window.days} days so far)</span>`;
  return html`<details${i === 0 ? html` open` : ""} data-window="${window.days}"><summary>${window.days} days: ${window.before.dateFrom} to ${window.before.dateTo} before, ${window.after.dateFrom} to ${window.after.dateTo} after${state}</summary>
<div class="table-wrap"><table class="impact-table">
<thead><tr><th scope="col">Page</th>${MEASURES.map(([heading]) => html`<th scope="col" class="num">${heading}</th>`)}</tr></thead>
<tbody>${rows.map(({ label, sides, site }) =>
    sides ? html`<tr${site ? html` class="baseline"` : ""}><th scope="row">${label}</th>${MEASURES.map(([, value, lowerIsBetter]) => cell(value(sides.before), value(sides.after), window.after.complete, lowerIsBetter))}</tr>` : "",
  )}</tbody>
</table></div></details>`;
})}
${impact.otherFiles.length > 0 ? html`<p class="help">Other files of the ${change}: ${impact.otherFiles.map((file, i) => html`${i > 0 ? ", " : ""}<code>${file}</code>`)}</p>` : ""}
</section>`;
}
