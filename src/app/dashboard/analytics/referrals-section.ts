import { REFERRAL_CHANNELS } from "../../../shared/analytics-vocabulary.js";
import type { ReferralChannel } from "../../analytics/ingest/referral.js";
import { html, type SafeHtml } from "../html.js";
import { number } from "../layout.js";
import type { AnalyticsView } from "./view.js";
import { csvLink, hiddenFields, queryParams, tableCsv } from "./controls.js";

/** How the dashboard names each channel. */
export const CHANNEL_LABELS: Record<ReferralChannel, string> = { ai: "AI", search: "Search", social: "Social", direct: "Direct", other: "Other" };
const CHANNEL_OPTIONS: Record<ReferralChannel, string> = {
  ai: "AI answers",
  search: "Search engines",
  social: "Social networks",
  direct: "Direct (no referrer)",
  other: "Other sites and campaigns",
};

/** Narrows the referrals table to one channel, keeping everything else the page shows. */
function channelForm(base: string, view: AnalyticsView): SafeHtml {
  return html`<form method="get" action="${base}" class="format-form" aria-label="Referral channel">
${hiddenFields(queryParams(view, { channel: null, offset: 0 }))}
<label for="channel">Channel</label>
<select id="channel" name="channel"><option value=""${view.channel ? "" : html` selected`}>All channels</option>${REFERRAL_CHANNELS.map(
    (channel) => html`<option value="${channel}"${view.channel === channel ? html` selected` : ""}>${CHANNEL_OPTIONS[channel]}</option>`,
  )}</select>
<button type="submit" class="secondary">Show</button>
</form>`;
}

/** Where people came from: the top sources (all of them in the CSV), each with its channel as a badge. */
export function referralsSection(base: string, view: AnalyticsView): SafeHtml {
  const { referrers, hasMore } = view.referrers;
  return html`<section aria-labelledby="referrers-heading">
<h2 id="referrers-heading">Where people came from</h2>
<p class="help">People (never agents) arriving from another site, an AI answer, a search, a campaign's <code>utm_source</code>, or directly${view.pathPrefix ? ", on the whole site" : ""}; a referrer's host only, never its path.</p>
<p id="ai-arrivals">People who arrived from an AI answer: <strong id="ai-arrivals-visitors">${number(view.aiArrivals.visitors)}</strong> (<span id="ai-arrivals-views">${number(view.aiArrivals.views)}</span> views).</p>
${channelForm(base, view)}
${
  referrers.length === 0
    ? html`<p>No arrivals${view.channel ? ` from ${CHANNEL_OPTIONS[view.channel].toLowerCase()}` : ""} in this range.</p>`
    : html`${csvLink(tableCsv(view.project.id, view, "analytics/referrers.csv"), "every source of this range", "referrers-csv")}<div class="table-wrap"><table id="referrers-table">
<thead><tr><th scope="col">Source</th><th scope="col">Channel</th><th scope="col" class="num">People</th><th scope="col" class="num">Views</th></tr></thead>
<tbody>${referrers.map(
        (r) =>
          html`<tr><td class="path">${r.source}</td><td><span class="badge badge-${r.channel}" data-channel="${r.channel}">${CHANNEL_LABELS[r.channel]}</span></td><td class="num">${number(r.visitors)}</td><td class="num">${number(r.views)}</td></tr>`,
      )}</tbody>
</table></div>${hasMore ? html`<p class="help">The ${referrers.length} sources with the most people; the CSV has every one.</p>` : ""}`
}
</section>`;
}
