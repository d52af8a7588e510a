import { IMPACT_ORDERS, type ImpactOrder, type ImpactRanking } from "../../../shared/impact-schemas.js";
import type { Project } from "../../domain/projects.js";
import { html, type SafeHtml } from "../html.js";
import { number, projectPath } from "../layout.js";
import { changeFrom } from "../comparison.js";
import { forgeWords } from "../../../shared/forge-words.js";

const ORDER_LABELS: Record<ImpactOrder, string> = { aiFailures: "Fewer AI failures", aiReads: "More AI reads", humanVisitors: "More people" };
const MEASURES = [
  ["People", "humanVisitors", false],
  ["AI reads", "aiReads", false],
  ["AI fetch failures", "aiFailures", true],
  ["From AI answers", "arrivalsFromAi", false],
] as const;

export interface ImpactRankingView {
  project: Project;
  ranking: ImpactRanking;
  offset: number;
}

/** The project's merged jobs ranked by what their changed pages' readers did (docs/analytics/impact.md), a window and an order to choose. */
export function impactRankingBody(view: ImpactRankingView): SafeHtml {
  const { ranking } = view;
  const base = `${projectPath(view.project.id, "jobs")}-impact`;
  const link = (change: { days?: number; order?: ImpactOrder; offset?: number }) =>
    `${base}?${new URLSearchParams({ days: String(change.days ?? ranking.days), order: change.order ?? ranking.order, ...(change.offset ? { offset: String(change.offset) } : {}) })}`;
  const jobs = projectPath(view.project.id, "jobs");
  return html`<p><a href="${jobs}">← All jobs</a></p>
<p class="help">Merged jobs whose ${forgeWords(view.project.forge).change} changed pages, by what their pages' readers did over the days before the merge day and after it, beside the whole site over the same days. Page numbers are summed over the changed pages (a visitor of two pages counts on each). <a href="${projectPath(view.project.id, "jobs")}-impact.csv?days=${ranking.days}&amp;order=${ranking.order}" download>Download CSV</a></p>
<nav class="filters" aria-label="Window"><ul>${[7, 14, 28].map((days) => html`<li><a href="${link({ days, offset: 0 })}"${ranking.days === days ? html` aria-current="true"` : ""}>${days} days</a></li>`)}</ul></nav>
<nav class="filters" aria-label="Order"><ul>${IMPACT_ORDERS.map((order) => html`<li><a href="${link({ order, offset: 0 })}"${ranking.order === order ? html` aria-current="true"` : ""}>${ORDER_LABELS[order]}</a></li>`)}</ul></nav>
${
  ranking.jobs.length === 0
    ? html`<p>No merged job that changed pages has a complete ${ranking.days}-day window yet.</p>`
    : html`<div class="table-wrap"><table id="impact-ranking" class="impact-table">
<thead><tr><th scope="col">Job</th><th scope="col">Merged</th><th scope="col" class="num">Pages</th>${MEASURES.map(([label]) => html`<th scope="col" class="num">${label}</th>`)}<th scope="col" class="num">Site people</th></tr></thead>
<tbody>${ranking.jobs.map(
        (job) =>
          html`<tr><th scope="row"><a href="${jobs}/${encodeURIComponent(job.jobId)}">${job.summary ?? job.jobId}</a></th><td>${job.mergedAt.slice(0, 10)}</td><td class="num">${number(job.pages)}</td>${MEASURES.map(
            ([, key, lowerIsBetter]) => html`<td class="num">${number(job.changedPages[key].before)} → ${number(job.changedPages[key].after)} ${changeFrom(job.changedPages[key].after, job.changedPages[key].before, lowerIsBetter)}</td>`,
          )}<td class="num">${changeFrom(job.site.humanVisitors.after, job.site.humanVisitors.before)}</td></tr>`,
      )}</tbody></table></div>
<nav class="pager" aria-label="Pages of jobs">${view.offset > 0 ? html`<a class="button secondary" rel="prev" href="${link({ offset: Math.max(0, view.offset - 20) })}">Previous</a>` : ""}${ranking.hasMore ? html`<a class="button secondary" rel="next" href="${link({ offset: view.offset + 20 })}">Next</a>` : ""}</nav>`
}
${ranking.pending.length > 0 ? html`<p class="help">Still measuring: ${ranking.pending.map((job, i) => html`${i > 0 ? ", " : ""}<a href="${jobs}/${encodeURIComponent(job.jobId)}">${job.jobId}</a> (ranked from ${job.completesOn})`)}.</p>` : ""}
${ranking.truncated ? html`<p class="help">Only the latest 500 merges are measured here; the API narrows by merge date.</p>` : ""}`;
}
