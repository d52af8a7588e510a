import type { ReferrerPages, Referrers, Timeseries } from "../../shared/analytics-trend-schemas.js";
import { REFERRAL_CHANNELS, TIMESERIES_INTERVALS, TIMESERIES_METRICS } from "../../shared/analytics-vocabulary.js";
import { enc, projectOf, type CommandContext } from "../command-context.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import { exportCsv, fetchReport, more, printRanged, rangeQuery } from "../report-fetch.js";
import { counted } from "../../shared/counted.js";

/** An option that must be one of a closed set of words. */
export function oneOf(ctx: CommandContext, name: "interval" | "metric" | "channel" | "by", allowed: readonly string[]): string | undefined {
  const value = ctx.values[name];
  if (value !== undefined && !allowed.includes(value)) throw new CliError(`--${name} must be one of ${allowed.join(", ")}`, 2);
  return value;
}

/** Visitors or views per day, week or month, with the previous period beside each point on --compare. */
export async function timeseriesCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  const extra = {
    interval: oneOf(ctx, "interval", TIMESERIES_INTERVALS),
    metric: oneOf(ctx, "metric", TIMESERIES_METRICS),
    channel: oneOf(ctx, "channel", REFERRAL_CHANNELS),
    pathPrefix: ctx.values["path-prefix"],
    compare: ctx.values.compare ? "previous" : undefined,
  };
  const path = `/v1/analytics/${enc(projectId)}/timeseries`;
  if (ctx.values.csv) return exportCsv(ctx, path, extra);
  const { query, label } = rangeQuery(ctx, extra);
  const series = await ctx.client.request<Timeseries>("GET", `${path}?${query}`, ctx.projectKey);
  printRanged(ctx, label, series, () => {
    const unit = series.metric === "visitors" ? `unique visitors per ${series.interval}` : `views per ${series.interval}`;
    const headers = ["DATE", "HUMAN", "AI", "TOTAL", "BOT", ...(series.previous ? ["PREVIOUS TOTAL", "CHANGE"] : [])];
    const rows = series.series.map((p) => [p.date, p.human, p.ai, p.total, p.bot, ...(p.previous ? [p.previous.total, change(p.total, p.previous.total)] : [])]);
    const compared = series.previous ? `\nCompared with ${series.previous.dateFrom} up to ${series.previous.dateTo}` : "";
    return `${unit[0]?.toUpperCase()}${unit.slice(1)}${extra.pathPrefix ? ` under ${extra.pathPrefix}` : ""}${extra.channel ? ` from ${extra.channel}` : ""}${compared}\n\n${table(headers, rows)}`;
  });
}

const change = (now: number, before: number) => (before === 0 ? (now === 0 ? "0%" : "new") : `${now >= before ? "+" : ""}${Math.round(((now - before) / before) * 100)}%`);

/** Where people came from, by source; --pages: per page, the people who arrived from a channel (default ai). */
export async function referrersCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  const channel = oneOf(ctx, "channel", REFERRAL_CHANNELS);
  if (ctx.values.pages) {
    const path = `/v1/analytics/${enc(projectId)}/referrers/pages`;
    if (ctx.values.csv) return exportCsv(ctx, path, { channel });
    const { page, rows, nextOffset, range } = await fetchReport<ReferrerPages>(ctx, path, "pages", { channel });
    const pages = rows as ReferrerPages["pages"];
    return printRanged(ctx, range, { ...page, pages }, () => {
      const head = `People who arrived from ${page.channel}: ${page.totals.visitors} (${counted(page.totals.views, "view")})`;
      return pages.length === 0 ? head : `${head}\n\n${table(["PATH", "VISITORS", "VIEWS"], pages.map((p) => [p.path, p.visitors, p.views]))}${more(page.hasMore, nextOffset)}`;
    });
  }
  const path = `/v1/analytics/${enc(projectId)}/referrers`;
  if (ctx.values.csv) return exportCsv(ctx, path, { channel });
  const { page, rows, nextOffset, range } = await fetchReport<Referrers>(ctx, path, "referrers", { channel });
  const referrers = rows as Referrers["referrers"];
  printRanged(ctx, range, { referrers, hasMore: page.hasMore }, () => {
    if (referrers.length === 0) return "No one arrived from anywhere in this range.";
    return `${table(["SOURCE", "CHANNEL", "VISITORS", "VIEWS"], referrers.map((r) => [r.source, r.channel, r.visitors, r.views]))}${more(page.hasMore, nextOffset)}`;
  });
}
