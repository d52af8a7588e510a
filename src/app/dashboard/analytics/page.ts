import { dayToIso, isoToDay } from "../../../shared/epoch-days.js";
import type { Counts } from "./data.js";
import { html, jsonScript, type SafeHtml } from "../html.js";
import { number, projectPath } from "../layout.js";
import { analyticsQuery, countingNotice, csvLink, queryParams, rangeForm, tableCsv } from "./controls.js";
import type { AnalyticsView } from "./view.js";
import { changeFrom, percentOf } from "../comparison.js";
import { pagesSection } from "./pages-section.js";
import { referralsSection } from "./referrals-section.js";

const CATEGORY_LABELS: Record<string, string> = {
  assistant: "Assistants and agents (fetching for a user)",
  crawler: "AI crawlers (training and indexing)",
  search: "AI search",
};

/** The range form with the page's own filters: a section (path prefix) and the comparison. */
function analyticsRangeForm(base: string, view: AnalyticsView): SafeHtml {
  const kept = queryParams(view, { offset: 0, pathPrefix: null, compare: null }).filter(([name]) => !["days", "from", "to"].includes(name));
  const filters = html`<label for="path">Section</label> <input type="text" id="path" name="path" value="${view.pathPrefix ?? ""}" placeholder="/docs" size="14" aria-describedby="path-help" spellcheck="false" autocapitalize="off">
<span id="path-help" class="visually-hidden">A path prefix of at most two segments, like /docs or /docs/guides; empty for the whole site</span>
<label class="check"><input type="checkbox" id="compare" name="compare" value="previous"${view.compare ? html` checked` : ""}> Compare with previous period</label>`;
  return rangeForm(base, view.range, { links: queryParams(view, { offset: 0 }).filter(([name]) => !["days", "from", "to"].includes(name)), hidden: kept, filters });
}

/** One total, and with a comparison the previous period's number and the change. */
function total(id: string, label: string, now: number, before: number | undefined): SafeHtml {
  return html`<div><dt>${label}</dt><dd id="${id}">${number(now)}</dd>${
    before === undefined ? "" : html`<dd class="change" id="${id}-change">${changeFrom(now, before)} <span class="muted">· was <span id="${id}-previous">${number(before)}</span></span></dd>`
  }</div>`;
}

function totalsSection(view: AnalyticsView): SafeHtml {
  const { totals, previous } = view;
  const was = (key: keyof Counts) => previous?.totals[key];
  return html`<section aria-labelledby="totals-heading">
<h2 id="totals-heading" class="visually-hidden">Totals</h2>
${view.pathPrefix ? html`<p id="section-scope">Section <code>${view.pathPrefix}</code>: the page and every page under it. <a href="${projectPath(view.project.id, "analytics")}?${analyticsQuery(view, { offset: 0, pathPrefix: null })}">Show the whole site</a></p>` : ""}
${previous ? html`<p class="help" id="previous-period">Compared with the previous period: ${previous.from} through ${previous.to}.</p>` : ""}
<dl class="totals">
${total("total-human", "Human visitors", totals.human, was("human"))}
${total("total-ai", "AI visitors", totals.ai, was("ai"))}
${total("total-all", "Unique visitors", totals.total, was("total"))}
${total("total-bot", "Other bots (not in the total)", totals.bot, was("bot"))}
</dl>
</section>`;
}

function chartSection(view: AnalyticsView): SafeHtml {
  const comparing = view.previous !== undefined;
  const span = view.daily.length;
  const series = view.daily.map((point, i) => ({ ...point, ...(comparing ? { previousDate: shiftIso(view.range.from, i - span) } : {}) }));
  const scope = view.pathPrefix ? ` under ${view.pathPrefix}` : "";
  const label = comparing
    ? `Daily unique visitors${scope}, ${view.range.from} to ${view.range.to}, as a line, with the previous period as a dimmer dashed line; the table below has the numbers`
    : `Daily unique visitors${scope}, human and AI, ${view.range.from} to ${view.range.to}; the table below has the numbers`;
  return html`<section aria-labelledby="chart-heading">
<h2 id="chart-heading">Daily unique visitors${scope}</h2>
<div class="chart-box"><canvas id="visitors-chart" role="img" aria-label="${label}"></canvas></div>
${jsonScript("visitors-series", series)}
<details><summary>Daily numbers</summary>
${csvLink(tableCsv(view.project.id, view, "analytics/daily.csv"), "every day of this range", "daily-csv")}
<div class="table-wrap"><table id="daily-table">
<thead><tr><th scope="col">Day</th><th scope="col" class="num">Human</th><th scope="col" class="num">AI</th><th scope="col" class="num">Total</th>${
    comparing ? html`<th scope="col">Previous period's day</th><th scope="col" class="num">Its total</th>` : ""
  }</tr></thead>
<tbody>${series.map(
    (d) =>
      html`<tr><td>${d.date}</td><td class="num">${number(d.human)}</td><td class="num">${number(d.ai)}</td><td class="num">${number(d.total)}</td>${
        d.previous ? html`<td>${d.previousDate}</td><td class="num">${number(d.previous.total)}</td>` : ""
      }</tr>`,
  )}</tbody>
</table></div></details>
</section>`;
}

const shiftIso = (iso: string, days: number) => dayToIso(isoToDay(iso) + days);

function aiKindsSection(view: AnalyticsView): SafeHtml {
  const all = view.aiCategories.reduce((sum, c) => sum + c.views, 0);
  return html`<section aria-labelledby="ai-heading">
<h2 id="ai-heading">AI traffic by kind</h2>
<p class="help" id="ai-kinds-scope">Views of pages that were served. Fetches that failed (a 404, a 410…) are left out here; the <a href="${projectPath(view.project.id, "agents")}">AI agents</a> page counts them too and lists them under the pages agents failed to fetch, so its totals can be higher.</p>
${
  view.aiCategories.length === 0
    ? html`<p>No AI views in this range.</p>`
    : html`${csvLink(tableCsv(view.project.id, view, "analytics/ai-kinds.csv"), "views per kind", "ai-kinds-csv")}<div class="table-wrap"><table id="ai-table">
<thead><tr><th scope="col">Kind</th><th scope="col" class="num">Views</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${view.aiCategories.map(
        (c) => html`<tr><td>${CATEGORY_LABELS[c.category] ?? c.category}</td><td class="num">${number(c.views)}</td><td class="num">${percentOf(c.views, all, 1)}</td></tr>`,
      )}</tbody>
</table></div>`
}
<p class="help">Views (not unique visitors) by AI agents, split by what they were doing${view.pathPrefix ? ", on the whole site" : ""}.</p>
</section>`;
}

export function analyticsBody(view: AnalyticsView): SafeHtml {
  const base = projectPath(view.project.id, "analytics");
  return html`${analyticsRangeForm(base, view)}
<p class="help">Range: ${view.range.from} through ${view.range.to} (UTC days, first and last included; the API's <code>dateTo</code> is the day after). Unique visitors are exact; a person counts once per salt window (${view.project.analytics.saltWindow}).</p>
${countingNotice(view.pending)}
${totalsSection(view)}
${chartSection(view)}
${pagesSection(base, view)}
${referralsSection(base, view)}
${aiKindsSection(view)}`;
}
