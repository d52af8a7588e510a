import { READ_FORMATS, type ReadFormat } from "../../../shared/analytics-vocabulary.js";
import type { Visitors } from "../../../shared/api-schemas.js";
import type { ReportOrder } from "../../analytics/reports.js";
import type { Project } from "../../domain/projects.js";
import { html, jsonScript, type SafeHtml } from "../html.js";
import { number, projectPath } from "../layout.js";
import { FORMAT_LABELS } from "./format-labels.js";

export const PRESETS = [7, 30, 90] as const;

export interface AnalyticsRangeView {
  /** First day shown, YYYY-MM-DD. */
  from: string;
  /** Last day shown (inclusive), YYYY-MM-DD. */
  to: string;
  preset: number | null;
}

export interface AnalyticsView {
  project: Project;
  range: AnalyticsRangeView;
  order: ReportOrder;
  offset: number;
  limit: number;
  /** The site's totals, every format. */
  totals: Visitors["totals"];
  /** Only visitors who read pages in this format, in the pages table. */
  format?: ReadFormat;
  /** The pages table (of `format`'s readers when one is chosen) and its totals. */
  report: Visitors;
  /** One entry per day of the range, zeros included. */
  daily: { date: string; human: number; ai: number; total: number }[];
  aiCategories: { category: string; views: number }[];
  pending: boolean;
}

const CATEGORY_LABELS: Record<string, string> = {
  assistant: "Assistants and agents (fetching for a user)",
  crawler: "AI crawlers (training and indexing)",
  search: "AI search",
};

/** The query string of the page with some parameters changed (`format: null` drops the format). */
export function analyticsQuery(view: Pick<AnalyticsView, "range" | "order" | "offset" | "format">, change: { order?: ReportOrder; offset?: number; format?: null } = {}): string {
  return queryParams(view, change).toString();
}

function queryParams(view: Pick<AnalyticsView, "range" | "order" | "offset" | "format">, change: { order?: ReportOrder; offset?: number; format?: null }): URLSearchParams {
  const order = change.order ?? view.order;
  const params = new URLSearchParams();
  if (view.range.preset) params.set("days", String(view.range.preset));
  else {
    params.set("from", view.range.from);
    params.set("to", view.range.to);
  }
  if (order.by !== "total" || order.dir !== "desc") {
    params.set("sort", order.by);
    params.set("dir", order.dir);
  }
  const format = change.format === null ? undefined : view.format;
  if (format) params.set("format", format);
  const offset = change.offset ?? view.offset;
  if (offset > 0) params.set("offset", String(offset));
  return params;
}

/** Narrows the pages table to one read format, keeping the range and the order. */
function formatForm(base: string, view: AnalyticsView): SafeHtml {
  const kept = [...queryParams(view, { format: null, offset: 0 })];
  return html`<form method="get" action="${base}" class="format-form" aria-label="Read format">
${kept.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<label for="format">Read as</label>
<select id="format" name="format"><option value=""${view.format ? "" : html` selected`}>All formats</option>${READ_FORMATS.map(
    (format) => html`<option value="${format}"${view.format === format ? html` selected` : ""}>${FORMAT_LABELS[format]}</option>`,
  )}</select>
<button type="submit" class="secondary">Show</button>
</form>`;
}

/** The pages table's own totals when it shows one format's readers. */
function formatTotals(view: AnalyticsView): SafeHtml | "" {
  if (!view.format) return "";
  const { human, ai, total } = view.report.totals;
  return html`<p id="format-totals">Visitors who read ${FORMAT_LABELS[view.format]}: <strong id="format-total-human">${number(human)}</strong> human, <strong id="format-total-ai">${number(ai)}</strong> AI, <strong id="format-total-all">${number(total)}</strong> unique.</p>`;
}

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

/** Said while views accepted before the request are still being counted. */
export const countingNotice = (pending: boolean): SafeHtml | "" =>
  pending ? html`<p class="notice notice-info" role="status">Some recently received views are still being counted; reload in a moment for the complete numbers.</p>` : "";

/** The date range picker of the analytics pages: presets, or From and To. */
export function rangeForm(base: string, range: AnalyticsRangeView): SafeHtml {
  return html`<form method="get" action="${base}" class="range-form" aria-label="Date range">
<fieldset><legend>Range</legend>
<div class="presets">${PRESETS.map(
    (days) => html`<a class="button ${range.preset === days ? "" : "secondary"}" href="${base}?days=${days}"${range.preset === days ? html` aria-current="true"` : ""}>Last ${days} days</a>`,
  )}</div>
<div class="custom-range">
<label for="from">From (included)</label> <input type="date" id="from" name="from" value="${range.from}" required>
<label for="to">Through (included)</label> <input type="date" id="to" name="to" value="${range.to}" required>
<button type="submit" class="secondary">Apply</button>
</div>
</fieldset>
</form>`;
}

export function analyticsBody(view: AnalyticsView): SafeHtml {
  const base = projectPath(view.project.id, "analytics");
  const { totals } = view;
  const first = view.report.visitors.length > 0 ? view.offset + 1 : 0;
  const last = view.offset + view.report.visitors.length;
  return html`${rangeForm(base, view.range)}
<p class="help">Range: ${view.range.from} through ${view.range.to} (UTC days, first and last included; the API's <code>dateTo</code> is the day after). Unique visitors are exact; a person counts once per salt window (${view.project.analytics.saltWindow}).</p>
${countingNotice(view.pending)}
<section aria-labelledby="totals-heading">
<h2 id="totals-heading" class="visually-hidden">Totals</h2>
<dl class="totals">
<div><dt>Human visitors</dt><dd id="total-human">${number(totals.human)}</dd></div>
<div><dt>AI visitors</dt><dd id="total-ai">${number(totals.ai)}</dd></div>
<div><dt>Unique visitors</dt><dd id="total-all">${number(totals.total)}</dd></div>
<div><dt>Other bots (not in the total)</dt><dd id="total-bot">${number(totals.bot)}</dd></div>
</dl>
</section>
<section aria-labelledby="chart-heading">
<h2 id="chart-heading">Daily unique visitors</h2>
<div class="chart-box"><canvas id="visitors-chart" role="img" aria-label="Daily unique visitors, human and AI, ${view.range.from} to ${view.range.to}; the table below has the numbers"></canvas></div>
${jsonScript("visitors-series", view.daily)}
<details><summary>Daily numbers</summary><div class="table-wrap"><table id="daily-table">
<thead><tr><th scope="col">Day</th><th scope="col" class="num">Human</th><th scope="col" class="num">AI</th><th scope="col" class="num">Total</th></tr></thead>
<tbody>${view.daily.map((d) => html`<tr><td>${d.date}</td><td class="num">${number(d.human)}</td><td class="num">${number(d.ai)}</td><td class="num">${number(d.total)}</td></tr>`)}</tbody>
</table></div></details>
</section>
<section aria-labelledby="pages-heading">
<h2 id="pages-heading">Pages</h2>
${formatForm(base, view)}
${formatTotals(view)}
<p><a class="button secondary" href="${projectPath(view.project.id, "analytics.csv")}?${analyticsQuery(view, { offset: 0 })}" download>Download CSV</a> <span class="help">every page of this range, in this order</span></p>
${
  view.report.visitors.length === 0
    ? html`<p>No visits in this range${view.format ? ` read as ${FORMAT_LABELS[view.format]}` : ""}.${view.offset > 0 ? html` <a href="${base}?${analyticsQuery(view, { offset: 0 })}">Back to the first page</a>` : ""}</p>`
    : html`<div class="table-wrap"><table id="pages-table">
<caption>Rows ${first}–${last}${view.report.hasMore ? "" : ` of ${last}`}</caption>
<thead><tr>${COLUMNS.map((c) => sortHeader(view, c, base))}<th scope="col" class="num">Other bots</th></tr></thead>
<tbody>${view.report.visitors.map((row) => html`<tr><td class="path">${row.path}</td><td class="num">${number(row.human)}</td><td class="num">${number(row.ai)}</td><td class="num">${number(row.total)}</td><td class="num">${number(row.bot)}</td></tr>`)}</tbody>
</table></div>
<nav class="pager" aria-label="Pages of the table">
${view.offset > 0 ? html`<a class="button secondary" rel="prev" href="${base}?${analyticsQuery(view, { offset: Math.max(0, view.offset - view.limit) })}">Previous ${view.limit}</a>` : ""}
${view.report.hasMore ? html`<a class="button secondary" rel="next" href="${base}?${analyticsQuery(view, { offset: view.offset + view.limit })}">Next ${view.limit}</a>` : ""}
</nav>`
}
</section>
<section aria-labelledby="ai-heading">
<h2 id="ai-heading">AI traffic by kind</h2>
${
  view.aiCategories.length === 0
    ? html`<p>No AI views in this range.</p>`
    : html`<div class="table-wrap"><table id="ai-table">
<thead><tr><th scope="col">Kind</th><th scope="col" class="num">Views</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${(() => {
        const all = view.aiCategories.reduce((sum, c) => sum + c.views, 0);
        return view.aiCategories.map(
          (c) => html`<tr><td>${CATEGORY_LABELS[c.category] ?? c.category}</td><td class="num">${number(c.views)}</td><td class="num">${all > 0 ? `${Math.round((c.views / all) * 1000) / 10}%` : "—"}</td></tr>`,
        );
      })()}</tbody>
</table></div>`
}
<p class="help">Views (not unique visitors) by AI agents, split by what they were doing.</p>
</section>`;
}
