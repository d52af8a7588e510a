import type { AgentPages, Agents, Failures } from "../../../shared/analytics-schemas.js";
import type { RobotsCompliance, RobotsDisallowed } from "../../../shared/robots-schemas.js";
import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";
import type { Project } from "../../domain/projects.js";
import { html, type SafeHtml } from "../html.js";
import { number, projectPath } from "../layout.js";
import { countingNotice, csvLink, rangeForm, rangeQuery, type AnalyticsRangeView } from "../analytics/controls.js";
import { FORMAT_LABELS } from "../format-labels.js";
import type { OperatorRatio } from "../../analytics/reports/operator-ratios.js";

export interface AgentsView {
  project: Project;
  range: AnalyticsRangeView;
  agents: Agents;
  formats: { format: ReadFormat; human: number; ai: number; bot: number }[];
  failures: Failures;
  operators: OperatorRatio[];
  pending: boolean;
}

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 1000) / 10}%` : "—");
/** A table's CSV (`file` under the project), of the page's range. */
const csvOf = (view: { project: Project; range: AnalyticsRangeView }, file: string) => `${projectPath(view.project.id, file)}?${rangeQuery(view.range)}`;

/** Who reads the docs among AI agents: views, visitors, pages and how many claims verified; formats read; failed fetches. */
export function agentsBody(view: AgentsView): SafeHtml {
  const base = projectPath(view.project.id, "agents");
  const { totals, agents } = view.agents;
  const claims = agents.reduce((sum, a) => sum + a.verification.verified + a.verification.unverifiable + a.verification.spoofed, 0);
  const verified = agents.reduce((sum, a) => sum + a.verification.verified, 0);
  const spoofed = agents.reduce((sum, a) => sum + a.verification.spoofed, 0);
  return html`${rangeForm(base, view.range)}
<p class="help">Range: ${view.range.from} through ${view.range.to} (UTC days, first and last included). An agent is verified when its address is in the ranges its operator publishes; a claim from elsewhere is spoofed and counted as an unknown bot, not as the agent.</p>
${countingNotice(view.pending)}
<dl class="totals">
<div><dt>AI views</dt><dd id="agents-views">${number(totals.views)}</dd></div>
<div><dt>AI visitors</dt><dd id="agents-visitors">${number(totals.visitors)}</dd></div>
<div><dt>Claims verified</dt><dd id="agents-verified">${percent(verified, claims)}</dd></div>
<div><dt>Spoofed claims</dt><dd id="agents-spoofed">${number(spoofed)}</dd></div>
</dl>
<section aria-labelledby="agents-heading">
<h2 id="agents-heading">Agents</h2>
${
  agents.length === 0
    ? html`<p>No AI agent read a page in this range.</p>`
    : html`${csvLink(csvOf(view, "agents.csv"), "every agent of this range", "agents-csv")}<div class="table-wrap"><table id="agents-table">
<thead><tr><th scope="col">Agent</th><th scope="col">Operator</th><th scope="col">Kind</th><th scope="col" class="num">Views</th><th scope="col" class="num">Visitors</th><th scope="col" class="num">Pages</th><th scope="col" class="num">Verified</th><th scope="col" class="num">Spoofed</th><th scope="col" class="num">Disallowed by robots.txt</th></tr></thead>
<tbody>${agents.map(
        (a) =>
          html`<tr><td><a href="${base}/${encodeURIComponent(a.agent)}?${rangeQuery(view.range)}">${a.agent}</a></td><td>${a.operator}</td><td>${a.category}</td><td class="num">${number(a.views)}</td><td class="num">${number(a.visitors)}</td><td class="num">${number(a.pages)}</td><td class="num">${a.verification.unverifiable > 0 && a.verification.verified === 0 ? "unverifiable" : percent(a.verification.verified, a.verification.verified + a.verification.unverifiable + a.verification.spoofed)}</td><td class="num">${number(a.verification.spoofed)}</td><td class="num">${a.robotsDisallowed > 0 ? html`<a href="${base}/${encodeURIComponent(a.agent)}?${rangeQuery(view.range)}#robots-heading">${number(a.robotsDisallowed)}</a>` : number(a.robotsDisallowed)}</td></tr>`,
      )}</tbody>
</table></div>${view.agents.hasMore ? html`<p class="help">The ${agents.length} agents with the most views; the CSV, the API and the CLI (inkwell analytics agents --all) list every one.</p>` : ""}`
}
</section>
<section aria-labelledby="operators-heading">
<h2 id="operators-heading">Crawling against readers sent, per operator</h2>
<p class="help">Each company's AI crawler and search-bot views, and the people who arrived from its AI answers (ChatGPT, Claude, Gemini, Perplexity…): the views it takes for each reader it sends. Companies from v2fly/domain-list-community's lists.</p>
${
  view.operators.length === 0
    ? html`<p>No AI crawler read a page and no one arrived from an AI answer in this range.</p>`
    : html`${csvLink(csvOf(view, "agents/operators.csv"), "every operator of this range", "operators-csv")}<div class="table-wrap"><table id="operators-table">
<thead><tr><th scope="col">Operator</th><th scope="col" class="num">Crawler views</th><th scope="col" class="num">Search-bot views</th><th scope="col" class="num">People sent</th><th scope="col" class="num">Their arrivals</th><th scope="col" class="num">Views per person sent</th></tr></thead>
<tbody>${view.operators.map(
        (o) =>
          html`<tr><td>${o.name}</td><td class="num">${number(o.crawlerViews)}</td><td class="num">${number(o.searchViews)}</td><td class="num">${number(o.people)}</td><td class="num">${number(o.arrivals)}</td><td class="num">${o.crawlsPerPerson === null ? html`<span class="muted">no one sent</span>` : o.crawlsPerPerson.toLocaleString("en-US")}</td></tr>`,
      )}</tbody>
</table></div>`
}
</section>
<section aria-labelledby="formats-heading">
<h2 id="formats-heading">What was read</h2>
${
  view.formats.length === 0
    ? html`<p>No views in this range.</p>`
    : html`${csvLink(csvOf(view, "agents/formats.csv"), "views per format and class", "formats-csv")}<div class="table-wrap"><table id="formats-table">
<thead><tr><th scope="col">Format</th><th scope="col" class="num">Human views</th><th scope="col" class="num">AI views</th><th scope="col" class="num">Other bots</th></tr></thead>
<tbody>${view.formats.map((f) => html`<tr><td>${FORMAT_LABELS[f.format]}</td><td class="num">${number(f.human)}</td><td class="num">${number(f.ai)}</td><td class="num">${number(f.bot)}</td></tr>`)}</tbody>
</table></div>`
}
</section>
<section aria-labelledby="failures-heading">
<h2 id="failures-heading">Pages AI agents failed to fetch</h2>
${
  view.failures.failures.length === 0
    ? html`<p>No AI agent got a 4xx or 5xx answer in this range (statuses come from server-side hits and log imports).</p>`
    : html`${csvLink(csvOf(view, "agents/failures.csv"), "every failed page of this range", "failures-csv")}<div class="table-wrap"><table id="failures-table">
<thead><tr><th scope="col">Page</th><th scope="col" class="num">Status</th><th scope="col" class="num">Views</th><th scope="col">Agents</th></tr></thead>
<tbody>${view.failures.failures.map((f) => html`<tr><td class="path">${f.path}</td><td class="num">${f.status}</td><td class="num">${number(f.views)}</td><td>${f.agents.join(", ")}</td></tr>`)}</tbody>
</table></div>${view.failures.hasMore ? html`<p class="help">The ${view.failures.failures.length} pages with the most failed views; the CSV has every one.</p>` : ""}`
}
</section>`;
}

export interface AgentView {
  project: Project;
  range: AnalyticsRangeView;
  agent: string;
  pages: AgentPages;
  daily: { date: string; views: number; spoofed: number }[];
  robots: { totals: RobotsCompliance["totals"] } & RobotsDisallowed;
  pending: boolean;
}

/** The agent's verdicts against robots.txt and the pages it was disallowed, each with the rule as written and its version. */
function agentRobotsSection(view: AgentView, base: string): SafeHtml {
  const { robots } = view;
  return html`<section aria-labelledby="robots-heading">
<h2 id="robots-heading">robots.txt</h2>
<p class="help">Each view judged against the robots.txt in force at its time, for ${view.agent}'s product token; views before the first known version are unknown, never disallowed.</p>
<dl class="totals">
<div><dt>Allowed</dt><dd id="robots-allowed">${number(robots.totals.allowed)}</dd></div>
<div><dt>Disallowed</dt><dd id="robots-disallowed">${number(robots.totals.disallowed)}</dd></div>
<div><dt>Unknown</dt><dd id="robots-unknown">${number(robots.totals.unknown)}</dd></div>
<div><dt>Fetched robots.txt</dt><dd id="robots-reads">${robots.totals.robotsReads > 0 ? `yes, ${number(robots.totals.robotsReads)} times` : "no"}</dd></div>
</dl>
${
  robots.disallowed.length === 0
    ? html`<p>robots.txt disallowed none of the pages ${view.agent} read in this range.</p>`
    : html`${csvLink(`${base}/robots-disallowed.csv?${rangeQuery(view.range)}`, `every page robots.txt disallowed ${view.agent} in this range`, "agent-robots-csv")}<div class="table-wrap"><table id="agent-robots-table">
<thead><tr><th scope="col">Page</th><th scope="col">Rule</th><th scope="col">Version in force since</th><th scope="col" class="num">Views</th><th scope="col">First seen</th><th scope="col">Last seen</th></tr></thead>
<tbody>${robots.disallowed.map(
        (d) =>
          html`<tr><td class="path">${d.path}</td><td><code>${d.rule ?? ""}</code>${d.line === null ? "" : html` <span class="muted">line ${d.line}</span>`}</td><td>${d.versionEffectiveAt}</td><td class="num">${number(d.views)}</td><td>${d.firstSeen}</td><td>${d.lastSeen}</td></tr>`,
      )}</tbody>
</table></div>${robots.hasMore ? html`<p class="help">The ${robots.disallowed.length} pages with the most disallowed views; the CSV has every one.</p>` : ""}`
}
</section>`;
}

/** One agent: its views per day (and spoofed claims of its name), and the pages it read. */
export function agentBody(view: AgentView): SafeHtml {
  const base = `${projectPath(view.project.id, "agents")}/${encodeURIComponent(view.agent)}`;
  return html`<p><a href="${projectPath(view.project.id, "agents")}?${rangeQuery(view.range)}">All agents</a></p>
${rangeForm(base, view.range)}
${countingNotice(view.pending)}
<section aria-labelledby="agent-pages-heading">
<h2 id="agent-pages-heading">Pages ${view.agent} read</h2>
${
  view.pages.pages.length === 0
    ? html`<p>${view.agent} read no page in this range.</p>`
    : html`${csvLink(`${base}/pages.csv?${rangeQuery(view.range)}`, `every page ${view.agent} read in this range`, "agent-pages-csv")}<div class="table-wrap"><table id="agent-pages-table">
<thead><tr><th scope="col">Page</th><th scope="col" class="num">Views</th><th scope="col" class="num">Visitors</th><th scope="col" class="num">Failed (4xx/5xx)</th></tr></thead>
<tbody>${view.pages.pages.map((p) => html`<tr><td class="path">${p.path}</td><td class="num">${number(p.views)}</td><td class="num">${number(p.visitors)}</td><td class="num">${number(p.failed)}</td></tr>`)}</tbody>
</table></div>`
}
</section>
<section aria-labelledby="agent-trend-heading">
<h2 id="agent-trend-heading">Views per day</h2>
${csvLink(`${base}/daily.csv?${rangeQuery(view.range)}`, "every day of this range", "agent-daily-csv")}
<div class="table-wrap"><table id="agent-daily-table">
<thead><tr><th scope="col">Day</th><th scope="col" class="num">Views</th><th scope="col" class="num">Spoofed claims</th></tr></thead>
<tbody>${view.daily.map((d) => html`<tr><td>${d.date}</td><td class="num">${number(d.views)}</td><td class="num">${number(d.spoofed)}</td></tr>`)}</tbody>
</table></div>
</section>
${agentRobotsSection(view, base)}`;
}
