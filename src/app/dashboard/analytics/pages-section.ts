import { READ_FORMATS } from "../../../shared/analytics-vocabulary.js";
import type { ReportOrder } from "../../analytics/reports/visitors-report.js";
import { html, type SafeHtml } from "../html.js";
import { number } from "../layout.js";
import type { AnalyticsView } from "./view.js";
import { analyticsQuery, csvLink, hiddenFields, queryParams, tableCsv } from "./controls.js";
import { percentOf } from "../comparison.js";
import { FORMAT_LABELS } from "../format-labels.js";

const COLUMNS: { by: ReportOrder["by"]; label: string; numeric: boolean }[] = [
  { by: "path", label: "Page", numeric: false },
  { by: "human", label: "Human", numeric: true },
  { by: "ai", label: "AI", numeric: true },
  { by: "total", label: "Total", numeric: true },
];

function sortHeader(view: AnalyticsView, column: (typeof COLUMNS)[number], base: string): SafeHtml {
  const active = view.order.by === column.by;
  const next: ReportOrder = { by: column.by, dir: active ? (view.order.dir === "desc" ? "asc" : "desc") : column.numeric ? "desc" : "asc" };
  const ariaSort = active ? (view.order.dir === "asc" ? "ascending" : "descending") : null;
  return html`<th scope="col"${column.numeric ? html` class="num"` : ""}${ariaSort ? html` aria-sort="${ariaSort}"` : ""}><a href="${base}?${analyticsQuery(view, { order: next, offset: 0 })}">${column.label}<span class="sort-mark" aria-hidden="true">${active ? (view.order.dir === "asc" ? " ▲" : " ▼") : ""}</span><span class="visually-hidden">, sort ${next.dir === "asc" ? "ascending" : "descending"}</span></a></th>`;
}

/** Narrows the pages table to one read format, keeping the range, the order and the other filters. */
function formatForm(base: string, view: AnalyticsView): SafeHtml {
  return html`<form method="get" action="${base}" class="format-form" aria-label="Read format">
${hiddenFields(queryParams(view, { format: null, offset: 0 }))}
<label for="format">Read as</label>
<select id="format" name="format"><option value=""${view.format ? "" : html` selected`}>All formats</option>${READ_FORMATS.map(
    (format) => html`<option value="${format}"${view.format === format ? html` selected` : ""}>${FORMAT_LABELS[format]}</option>`,
  )}</select>
<button type="submit" class="secondary">Show</button>
</form>`;
}

/** The pages table's own totals when it shows one format's readers (those of the whole site: a section's are not kept per format). */
function formatTotals(view: AnalyticsView): SafeHtml | "" {
  if (!view.format) return "";
  const { human, ai, total } = view.report.totals;
  return html`<p id="format-totals">Visitors who read ${FORMAT_LABELS[view.format]}${view.pathPrefix ? " on the whole site" : ""}: <strong id="format-total-human">${number(human)}</strong> human, <strong id="format-total-ai">${number(ai)}</strong> AI, <strong id="format-total-all">${number(total)}</strong> unique.</p>`;
}

/**
 * People who arrived on the page from an AI answer, and their share of its human visitors ("12 · 4%");
 * arrivals are not kept per format, so with a format chosen the number stands alone.
 */
function fromAiCell(view: AnalyticsView, path: string, human: number): SafeHtml {
  const people = view.fromAi.get(path) ?? 0;
  if (people === 0 || view.format) return html`<td class="num from-ai">${number(people)}</td>`;
  const share = percentOf(people, human);
  return html`<td class="num from-ai">${number(people)} <span class="muted">· ${share}</span><span class="visually-hidden"> of the page's human visitors</span></td>`;
}

/** The per-page table: sortable, paged like the API, narrowed by format and section, with its CSV. */
export function pagesSection(base: string, view: AnalyticsView): SafeHtml {
  const first = view.report.visitors.length > 0 ? view.offset + 1 : 0;
  const last = view.offset + view.report.visitors.length;
  const scope = [view.format ? ` read as ${FORMAT_LABELS[view.format]}` : "", view.pathPrefix ? ` under ${view.pathPrefix}` : ""].join("");
  return html`<section aria-labelledby="pages-heading">
<h2 id="pages-heading">Pages${view.pathPrefix ? html` under <code>${view.pathPrefix}</code>` : ""}</h2>
${formatForm(base, view)}
${formatTotals(view)}
${csvLink(tableCsv(view.project.id, view, "analytics.csv"), "every page of this range, in this order", "pages-csv")}
${
  view.report.visitors.length === 0
    ? html`<p>No visits in this range${scope}.${view.offset > 0 ? html` <a href="${base}?${analyticsQuery(view, { offset: 0 })}">Back to the first page</a>` : ""}</p>`
    : html`<p class="scroll-hint" id="pages-scroll-hint">Scroll the table sideways for more columns →</p><div class="table-wrap"><table id="pages-table">
<caption>Rows ${first}–${last}${view.report.hasMore ? "" : ` of ${last}`}</caption>
<thead><tr>${COLUMNS.map((c) => sortHeader(view, c, base))}<th scope="col" class="num">Other bots</th><th scope="col" class="num">From AI answers</th></tr></thead>
<tbody>${view.report.visitors.map(
        (row) =>
          html`<tr><td class="path">${pathWithBreaks(row.path)}</td><td class="num">${number(row.human)}</td><td class="num">${number(row.ai)}</td><td class="num">${number(row.total)}</td><td class="num">${number(row.bot)}</td>${fromAiCell(view, row.path, row.human)}</tr>`,
      )}</tbody>
</table></div>
<p class="help">From AI answers: people who arrived on the page from an AI answer (ChatGPT, Perplexity, Claude…)${view.format ? ", whatever they read" : ", and their share of the page's human visitors"}.</p>
<nav class="pager" aria-label="Pages of the table">
${view.offset > 0 ? html`<a class="button secondary" rel="prev" href="${base}?${analyticsQuery(view, { offset: Math.max(0, view.offset - view.limit) })}">Previous ${view.limit}</a>` : ""}
${view.report.hasMore ? html`<a class="button secondary" rel="next" href="${base}?${analyticsQuery(view, { offset: view.offset + view.limit })}">Next ${view.limit}</a>` : ""}
</nav>`
}
</section>`;
}

/** A path that a narrow column wraps after its slashes (`/guides/` `install`), never inside a word. */
function pathWithBreaks(path: string): SafeHtml {
  return html`${path.split(/(?<=\/)/).map((part, index) => (index === 0 ? part : html`<wbr>${part}`))}`;
}
