import type { AgentPages, Agents, Failures } from "../../shared/analytics-schemas.js";
import { AI_CATEGORIES, READ_FORMATS } from "../../shared/analytics-vocabulary.js";
import { enc, need, projectOf, type CommandContext } from "../command-context.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import { exportCsv, fetchReport, more, printRanged } from "../report-fetch.js";
import { REFERRAL_CHANNELS } from "../../shared/analytics-vocabulary.js";
import { oneOf, referrersCommand, timeseriesCommand } from "./analytics-trends.js";
import type { NounRuns } from "./command-usage.js";
import { robotsCommand, robotsVersionsCommand } from "./analytics-robots.js";
import { counted } from "../../shared/counted.js";

type Counts = { human: number; ai: number; bot: number; total: number };
type Row = { path: string; previous?: Counts } & Counts;
type Compared = { previous?: { dateFrom: string; dateTo: string } };

/** Visitors and views are the same report of a different count. */
async function report(ctx: CommandContext, endpoint: "visitors" | "views") {
  const projectId = projectOf(ctx);
  type Report = { totals: Omit<Row, "path">; hasMore: boolean } & Record<typeof endpoint, Row[]> & Compared;
  const extra = {
    format: readFormatOption(ctx),
    pathPrefix: ctx.values["path-prefix"],
    channel: oneOf(ctx, "channel", REFERRAL_CHANNELS),
    compare: ctx.values.compare ? "previous" : undefined,
  };
  if (ctx.values.csv) return exportCsv(ctx, `/v1/analytics/${enc(projectId)}/${endpoint}`, extra);
  const { page, rows, nextOffset, range } = await fetchReport<Report>(ctx, `/v1/analytics/${enc(projectId)}/${endpoint}`, endpoint, extra);
  const result = { totals: page.totals, [endpoint]: rows, hasMore: page.hasMore, ...(page.previous ? { previous: page.previous } : {}) };
  printRanged(ctx, range, result, () => {
    const unit = endpoint === "visitors" ? "unique visitors" : "views";
    const scope = `${extra.pathPrefix ? ` under ${extra.pathPrefix}` : ""}${extra.channel ? ` from ${extra.channel}` : ""}`;
    const head = `Total ${unit}${scope}: ${page.totals.total} (human ${page.totals.human}, AI ${page.totals.ai}); other bots ${page.totals.bot}, not in the total${comparedWith(page)}`;
    if (rows.length === 0) return `${head}\nNo pages in this range.`;
    const compared = page.previous !== undefined;
    const body = table(
      ["PATH", "HUMAN", "AI", "TOTAL", "BOT", ...(compared ? ["PREVIOUS TOTAL"] : [])],
      (rows as Row[]).map((r) => [r.path, r.human, r.ai, r.total, r.bot, ...(compared ? [r.previous?.total ?? 0] : [])]),
    );
    return `${head}\n\n${body}${more(page.hasMore, nextOffset)}`;
  });
}

/** The head's last line with --compare: the previous period and its total. */
function comparedWith(page: Compared & { totals: { previous?: { total?: number; views?: number } } }): string {
  if (!page.previous) return "";
  const before = page.totals.previous?.total ?? page.totals.previous?.views ?? 0;
  return `\nCompared with ${page.previous.dateFrom} up to ${page.previous.dateTo}: ${before}`;
}

function readFormatOption(ctx: CommandContext): string | undefined {
  const format = ctx.values.format;
  if (format !== undefined && !(READ_FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${READ_FORMATS.join(", ")}`, 2);
  return format;
}

const viewsBy = (totals: { views: number; visitors: number }) => `${counted(totals.views, "view")} by ${counted(totals.visitors, "visitor")}`;

async function agentsCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  const category = ctx.values.category;
  if (category !== undefined && !(AI_CATEGORIES as readonly string[]).includes(category)) throw new CliError(`--category must be one of ${AI_CATEGORIES.join(", ")}`, 2);
  const extra = { category, pathPrefix: ctx.values["path-prefix"], compare: ctx.values.compare ? "previous" : undefined };
  if (ctx.values.csv) return exportCsv(ctx, `/v1/analytics/${enc(projectId)}/agents`, extra);
  const { page, rows, nextOffset, range } = await fetchReport<Agents>(ctx, `/v1/analytics/${enc(projectId)}/agents`, "agents", extra);
  const agents = rows as Agents["agents"];
  printRanged(ctx, range, { totals: page.totals, agents, hasMore: page.hasMore, ...(page.previous ? { previous: page.previous } : {}) }, () => {
    const head = `AI agents: ${viewsBy(page.totals)}${page.previous ? `\nCompared with ${page.previous.dateFrom} up to ${page.previous.dateTo}: ${viewsBy(page.totals.previous ?? { views: 0, visitors: 0 })}` : ""}`;
    if (agents.length === 0) return `${head}\nNo AI agent read a page in this range.`;
    const compared = page.previous !== undefined;
    const body = table(
      ["AGENT", "OPERATOR", "CATEGORY", "VIEWS", "VISITORS", "PAGES", "VERIFIED", "UNVERIFIABLE", "SPOOFED", ...(compared ? ["PREVIOUS VIEWS"] : [])],
      agents.map((a) => [
        a.agent,
        a.operator,
        a.category,
        a.views,
        a.visitors,
        a.pages,
        a.verification.verified,
        a.verification.unverifiable,
        a.verification.spoofed,
        ...(compared ? [a.previous?.views ?? 0] : []),
      ]),
    );
    return `${head}\n\n${body}${more(page.hasMore, nextOffset)}`;
  });
}

async function agentPagesCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  const agent = need(ctx.args[0], "agent name (as analytics agents prints it)");
  if (ctx.values.csv) return exportCsv(ctx, `/v1/analytics/${enc(projectId)}/agents/${enc(agent)}/pages`);
  const { page, rows, nextOffset, range } = await fetchReport<AgentPages>(ctx, `/v1/analytics/${enc(projectId)}/agents/${enc(agent)}/pages`, "pages");
  const pages = rows as AgentPages["pages"];
  printRanged(ctx, range, { pages, hasMore: page.hasMore }, () => {
    if (pages.length === 0) return `${agent} read no page in this range.`;
    return `${table(["PATH", "VIEWS", "VISITORS", "FAILED"], pages.map((p) => [p.path, p.views, p.visitors, p.failed]))}${more(page.hasMore, nextOffset)}`;
  });
}

async function failuresCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  if (ctx.values.csv) return exportCsv(ctx, `/v1/analytics/${enc(projectId)}/failures`);
  const { page, rows, nextOffset, range } = await fetchReport<Failures>(ctx, `/v1/analytics/${enc(projectId)}/failures`, "failures");
  const failures = rows as Failures["failures"];
  printRanged(ctx, range, { failures, hasMore: page.hasMore }, () => {
    if (failures.length === 0) return "No AI agent got a 4xx/5xx answer in this range.";
    return `${table(["PATH", "STATUS", "VIEWS", "AGENTS"], failures.map((f) => [f.path, f.status, f.views, f.agents.join(", ")]))}${more(page.hasMore, nextOffset)}`;
  });
}

export const analytics: NounRuns<"analytics"> = {
  visitors: (ctx) => report(ctx, "visitors"),

  views: (ctx) => report(ctx, "views"),

  agents: agentsCommand,

  "agent-pages": agentPagesCommand,

  failures: failuresCommand,

  robots: robotsCommand,

  "robots-versions": robotsVersionsCommand,

  timeseries: timeseriesCommand,

  referrers: referrersCommand,

  // The log reader (parsers of every format, zod's schemas) is loaded only for an import: every other
  // command would pay its startup (about a third of `analytics visitors`' CPU beyond a bare Node).
  import: async (ctx) => (await import("../logs/import-command.js")).runImport(ctx),
};
