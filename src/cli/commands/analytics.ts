import { createReadStream, statSync } from "node:fs";
import type { Readable } from "node:stream";
import type { AgentPages, Agents, Failures, HitBatchResult } from "../../shared/analytics-schemas.js";
import { AI_CATEGORIES, READ_FORMATS } from "../../shared/analytics-vocabulary.js";
import { enc, intOption, need, print, projectOf, type CommandContext, type Noun } from "../command-context.js";
import { cliRange } from "../date-range.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import { LOG_FORMATS, type LogFormat } from "../log-formats.js";
import { formatSummary, importLog, progressLine } from "../log-import.js";
import { sendWithRetry } from "../retry.js";

type Row = { path: string; human: number; ai: number; bot: number; total: number };

/** The dates and paging every report takes; `--all` follows the pages, gathering `rowsKey`. */
async function fetchReport<Report extends { hasMore: boolean }>(
  ctx: CommandContext,
  path: string,
  rowsKey: keyof Report & string,
  extra: Record<string, string | undefined> = {},
): Promise<{ page: Report; rows: unknown[]; nextOffset: number; range: string }> {
  const range = cliRange(ctx.values);
  const query = new URLSearchParams();
  if (range.dateFrom) query.set("dateFrom", range.dateFrom);
  if (range.dateTo) query.set("dateTo", range.dateTo);
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) query.set(name, value);
  const all = ctx.values.all ?? false;
  const limit = intOption(ctx.values.limit, "limit") ?? (all ? 250 : 50);
  let offset = intOption(ctx.values.offset, "offset") ?? 0;
  const rows: unknown[] = [];
  let page: Report;
  do {
    query.set("limit", String(limit));
    query.set("offset", String(offset));
    page = await ctx.client.request<Report>("GET", `${path}?${query}`, ctx.projectKey);
    rows.push(...(page[rowsKey] as unknown[]));
    offset += limit;
  } while (all && page.hasMore);
  return { page, rows, nextOffset: offset, range: range.label };
}

/** A report in words starts with the days it covers, said the same way for every report. */
const printRanged = (ctx: CommandContext, range: string, data: unknown, human: () => string) => print(ctx, data, () => `${range}\n${human()}`);

const more = (hasMore: boolean, offset: number) => (hasMore ? `\n\nMore: add --offset ${offset} (or --all)` : "");

/** Visitors and views are the same report of a different count. */
async function report(ctx: CommandContext, endpoint: "visitors" | "views") {
  const projectId = projectOf(ctx);
  type Report = { totals: Omit<Row, "path">; hasMore: boolean } & Record<typeof endpoint, Row[]>;
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
  const { page, rows, nextOffset, range } = await fetchReport<AgentPages>(ctx, `/v1/analytics/${enc(projectId)}/agents/${enc(agent)}/pages`, "pages");
  const pages = rows as AgentPages["pages"];
  printRanged(ctx, range, { pages, hasMore: page.hasMore }, () => {
    if (pages.length === 0) return `${agent} read no page in this range.`;
    return `${table(["PATH", "VIEWS", "VISITORS", "FAILED"], pages.map((p) => [p.path, p.views, p.visitors, p.failed]))}${more(page.hasMore, nextOffset)}`;
  });
}

async function failuresCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  const { page, rows, nextOffset, range } = await fetchReport<Failures>(ctx, `/v1/analytics/${enc(projectId)}/failures`, "failures");
  const failures = rows as Failures["failures"];
  printRanged(ctx, range, { failures, hasMore: page.hasMore }, () => {
    if (failures.length === 0) return "No AI agent got a 4xx/5xx answer in this range.";
    return `${table(["PATH", "STATUS", "VIEWS", "AGENTS"], failures.map((f) => [f.path, f.status, f.views, f.agents.join(", ")]))}${more(page.hasMore, nextOffset)}`;
  });
}

/** The size is known only for a file; it turns progress into a percentage. */
function openLogInput(ctx: CommandContext): { input: Readable; totalBytes: number | null } {
  const source = need(ctx.args[0], "log file (or - for stdin)");
  if (source === "-") return { input: ctx.io.stdinStream(), totalBytes: null };
  try {
    const totalBytes = statSync(source).size;
    return { input: createReadStream(source), totalBytes };
  } catch (error) {
    throw new CliError(`Cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
}

export const analytics: Noun = {
  name: "analytics",
  commands: {
    visitors: {
      usage: "analytics visitors [--from DAY] [--through DAY | --to DAY] [--format html|markdown|llms.txt|text] [--limit N] [--offset N] [--all]",
      run: (ctx) => report(ctx, "visitors"),
    },

    views: {
      usage: "analytics views    [--from DAY] [--through DAY | --to DAY] [--format html|markdown|llms.txt|text] [--limit N] [--offset N] [--all]",
      run: (ctx) => report(ctx, "views"),
    },

    agents: {
      usage: "analytics agents   [--from DAY] [--through DAY | --to DAY] [--category assistant|crawler|search] [--limit N] [--offset N] [--all]",
      run: agentsCommand,
    },

    "agent-pages": {
      usage: "analytics agent-pages <AGENT> [--from DAY] [--through DAY | --to DAY] [--limit N] [--offset N] [--all]",
      run: agentPagesCommand,
    },

    failures: {
      usage: "analytics failures [--from DAY] [--through DAY | --to DAY] [--limit N] [--offset N] [--all]",
      run: failuresCommand,
    },

    import: {
      usage: "analytics import --format combined|vercel|cloudflare <FILE|->",
      async run(ctx) {
        const projectId = projectOf(ctx);
        const format = ctx.values.format;
        if (!format || !(LOG_FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${LOG_FORMATS.join(", ")}`, 2);
        const { input, totalBytes } = openLogInput(ctx);
        let lastProgress = 0;
        const summary = await importLog({
          format: format as LogFormat,
          input,
          totalBytes,
          send: (hits) =>
            sendWithRetry(
              () => ctx.client.request<HitBatchResult>("POST", `/v1/analytics/${enc(projectId)}/hits`, ctx.projectKey, { body: { hits } }),
              (ms) => ctx.io.sleep(ms),
            ),
          progress: (current, bytesRead) => {
            if (ctx.json || Date.now() - lastProgress < 1_000) return;
            lastProgress = Date.now();
            ctx.io.stderr(progressLine(current, bytesRead, totalBytes));
          },
        });
        print(ctx, summary, () => formatSummary(summary));
      },
    },
  },
};
