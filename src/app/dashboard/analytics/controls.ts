import type { ReadFormat } from "../../../shared/analytics-vocabulary.js";
import type { ReferralChannel } from "../../analytics/ingest/referral.js";
import type { ReportOrder } from "../../analytics/reports/visitors-report.js";
import { html, type SafeHtml } from "../html.js";
import { projectPath } from "../layout.js";

export const PRESETS = [7, 30, 90] as const;

export interface AnalyticsRangeView {
  /** First day shown, YYYY-MM-DD. */
  from: string;
  /** Last day shown (inclusive), YYYY-MM-DD. */
  to: string;
  preset: number | null;
}

/** What the analytics page's URL says: the range, the pages table's order and page, and the filters. */
export interface AnalyticsState {
  range: AnalyticsRangeView;
  order: ReportOrder;
  offset: number;
  format?: ReadFormat | undefined;
  pathPrefix?: string | undefined;
  compare?: "previous" | undefined;
  channel?: ReferralChannel | undefined;
}

/** A change of the state for a link: another order, page or preset; `null` drops a filter. */
export interface StateChange {
  order?: ReportOrder;
  offset?: number;
  preset?: number;
  format?: null;
  channel?: null;
  pathPrefix?: null;
  compare?: null;
}

/** The query string of the analytics page, with some parameters changed. */
export const analyticsQuery = (state: AnalyticsState, change: StateChange = {}): string => new URLSearchParams(queryParams(state, change)).toString();

/** The range of a page's URL alone (`days=30`, or `from=…&to=…`): the agents pages' links. */
export const rangeQuery = (range: AnalyticsRangeView): string => (range.preset ? `days=${range.preset}` : `from=${range.from}&to=${range.to}`);

/** The analytics page's parameters, in a stable order; the table's default order and first page are left out. */
export function queryParams(state: AnalyticsState, change: StateChange = {}): [string, string][] {
  const params: [string, string][] = [];
  const preset = change.preset ?? state.range.preset;
  if (preset) params.push(["days", String(preset)]);
  else params.push(["from", state.range.from], ["to", state.range.to]);
  const order = change.order ?? state.order;
  if (order.by !== "total" || order.dir !== "desc") params.push(["sort", order.by], ["dir", order.dir]);
  if (state.format && change.format !== null) params.push(["format", state.format]);
  if (state.pathPrefix && change.pathPrefix !== null) params.push(["path", state.pathPrefix]);
  if (state.compare && change.compare !== null) params.push(["compare", state.compare]);
  if (state.channel && change.channel !== null) params.push(["channel", state.channel]);
  const offset = change.offset ?? state.offset;
  if (offset > 0) params.push(["offset", String(offset)]);
  return params;
}

/** Hidden fields that carry parameters through a GET form. */
export const hiddenFields = (params: [string, string][]): SafeHtml[] => params.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);

/** Said while views accepted before the request are still being counted. */
export const countingNotice = (pending: boolean): SafeHtml | "" =>
  pending ? html`<p class="notice notice-info" role="status">Some recently received views are still being counted; reload in a moment for the complete numbers.</p>` : "";

export interface RangeFormOptions {
  /** Parameters the preset links keep (filters, order). */
  links?: [string, string][];
  /** Parameters the form carries as hidden fields (those it has no input for). */
  hidden?: [string, string][];
  /** More inputs inside the form (the analytics page's section and comparison). */
  filters?: SafeHtml;
}

/**
 * The date range picker of the analytics pages: presets, or From and To. The form also sends the
 * preset it shows, so applying other filters with unchanged dates keeps "Last N days" (query.ts).
 */
export function rangeForm(base: string, range: AnalyticsRangeView, options: RangeFormOptions = {}): SafeHtml {
  const link = (days: number) => `${base}?${new URLSearchParams([["days", String(days)], ...(options.links ?? [])])}`;
  return html`<form method="get" action="${base}" class="range-form" aria-label="Date range">
<fieldset><legend>Range</legend>
<div class="presets">${PRESETS.map(
    (days) => html`<a class="button ${range.preset === days ? "" : "secondary"}" href="${link(days)}"${range.preset === days ? html` aria-current="true"` : ""}>Last ${days} days</a>`,
  )}</div>
${hiddenFields([...(range.preset ? ([["days", String(range.preset)]] as [string, string][]) : []), ...(options.hidden ?? [])])}
<div class="custom-range">
<label for="from">From (included)</label> <input type="date" id="from" name="from" value="${range.from}" required>
<label for="to">Through (included)</label> <input type="date" id="to" name="to" value="${range.to}" required>
${options.filters ?? ""}
<button type="submit" class="secondary">Apply</button>
</div>
</fieldset>
</form>`;
}

/** The CSV of one of the analytics page's tables (`file` under the project), with the page's range and filters. */
export const tableCsv = (projectId: string, state: AnalyticsState, file: string): string => `${projectPath(projectId, file)}?${analyticsQuery(state, { offset: 0 })}`;

/** A download link for a table's CSV, next to the table. */
export const csvLink = (href: string, what: string, id: string): SafeHtml =>
  html`<p class="csv-link"><a class="button secondary" id="${id}" href="${href}" download>Download CSV</a> <span class="help">${what}</span></p>`;
