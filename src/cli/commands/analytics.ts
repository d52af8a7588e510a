import type { AgentPages, Agents, Failures } from "../../shared/analytics-schemas.js";
import { AI_CATEGORIES, READ_FORMATS } from "../../shared/analytics-vocabulary.js";
import { enc, need, projectOf, type CommandContext, type Noun } from "../command-context.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import { IMPORT_USAGE, runImport } from "../log-import-command.js";
import { exportCsv, fetchReport, more, printRanged } from "../report-fetch.js";
import { referrersCommand, REFERRERS_USAGE, timeseriesCommand, TIMESERIES_USAGE } from "./analytics-trends.js";

type Row = { path: string; human: number; ai: number; bot: number; total: number };


/** Visitors and views are the same report of a different count. */
async function report(ctx: CommandContext, endpoint: "visitors" | "views") {
  const projectId = projectOf(ctx);
  type Report = { totals: Omit<Row, "path">; hasMore: boolean } & Record<typeof endpoint, Row[]>;
  if (ctx.values.csv) return exportCsv(ctx, `/v1/analytics/${enc(projectId)}/${endpoint}`, { format: readFormatOption(ctx) });
  const { page, rows, nextOffset, range } = await fetchReport<Report>(ctx, `/v1/analytics/${enc(projectId)}/${endpoint}`, endpoint, {
    format: readFormatOption(ctx),
  });
  const result = { totals: page.totals, [endpoint]: rows, hasMore: page.hasMore };
  printRanged(ctx, range, result, () => {
    const unit = endpoint === "visitors" ? "unique visitors" : "views";
    const head = `Total ${unit}: ${page.totals.total} (human ${page.totals.human}, AI ${page.totals.ai}); other bots ${page.totals.bot}, not in the total`;
    if (rows.length === 0) return `${head}\nNo pages in this range.`;
    const body = table(["PATH", "HUMAN", "AI", "TOTAL", "BOT"], (rows as Row[]).map((r) => [r.path, r.human, r.ai, r.total, r.bot]));
    return `${head}\n\n${body}${more(page.hasMore, nextOffset)}`;
  });
}

function readFormatOption(ctx: CommandContext): string | undefined {
  const format = ctx.values.format;
  if (format !== undefined && !(READ_FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${READ_FORMATS.join(", ")}`, 2);
  return format;
}

async function agentsCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  const category = ctx.values.category;
  if (category !== undefined && !(AI_CATEGORIES as readonly string[]).includes(category)) throw new CliError(`--category must be one of ${AI_CATEGORIES.join(", ")}`, 2);
  if (ctx.values.csv) return exportCsv(ctx, `/v1/analytics/${enc(projectId)}/agents`, { category });
  const { page, rows, nextOffset, range } = await fetchReport<Agents>(ctx, `/v1/analytics/${enc(projectId)}/agents`, "agents", { category });
  const agents = rows as Agents["agents"];
  printRanged(ctx, range, { totals: page.totals, agents, hasMore: page.hasMore }, () => {
    const head = `AI agents: ${page.totals.views} views by ${page.totals.visitors} visitors`;
    if (agents.length === 0) return `${head}\nNo AI agent read a page in this range.`;
    const body = table(
      ["AGENT", "OPERATOR", "CATEGORY", "VIEWS", "VISITORS", "PAGES", "VERIFIED", "UNVERIFIABLE", "SPOOFED"],
      agents.map((a) => [a.agent, a.operator, a.category, a.views, a.visitors, a.pages, a.verification.verified, a.verification.unverifiable, a.verification.spoofed]),
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

export const analytics: Noun = {
  name: "analytics",
  commands: {
    visitors: {
      usage: "analytics visitors [--from DAY] [--through DAY | --to DAY] [--format html|markdown|llms.txt|text] [--limit N] [--offset N] [--all | --csv]",
      run: (ctx) => report(ctx, "visitors"),
    },

    views: {
      usage: "analytics views    [--from DAY] [--through DAY | --to DAY] [--format html|markdown|llms.txt|text] [--limit N] [--offset N] [--all | --csv]",
      run: (ctx) => report(ctx, "views"),
    },

    agents: {
      usage: "analytics agents   [--from DAY] [--through DAY | --to DAY] [--category assistant|crawler|search] [--limit N] [--offset N] [--all | --csv]",
      run: agentsCommand,
    },

    "agent-pages": {
      usage: "analytics agent-pages <AGENT> [--from DAY] [--through DAY | --to DAY] [--limit N] [--offset N] [--all | --csv]",
      run: agentPagesCommand,
    },

    failures: {
      usage: "analytics failures [--from DAY] [--through DAY | --to DAY] [--limit N] [--offset N] [--all | --csv]",
      run: failuresCommand,
    },

    timeseries: {
      usage: TIMESERIES_USAGE,
      run: timeseriesCommand,
    },

    referrers: {
      usage: REFERRERS_USAGE,
      run: referrersCommand,
    },

    import: {
      usage: IMPORT_USAGE,
      run: runImport,
    },
  },
};
