import { createReadStream, statSync } from "node:fs";
import type { Readable } from "node:stream";
import type { HitBatchResult } from "../../shared/analytics-schemas.js";
import { enc, intOption, need, print, projectOf, type CommandContext, type Noun } from "../command-context.js";
import { CliError } from "../errors.js";
import { table } from "../format.js";
import { LOG_FORMATS, type LogFormat } from "../log-formats.js";
import { formatSummary, importLog, progressLine } from "../log-import.js";
import { sendWithRetry } from "../retry.js";

type Row = { path: string; human: number; ai: number; total: number };

/** Visitors and views are the same report of a different count; `--all` follows the pages. */
async function report(ctx: CommandContext, endpoint: "visitors" | "views") {
  const projectId = projectOf(ctx);
  const query = new URLSearchParams();
  if (ctx.values.from) query.set("dateFrom", ctx.values.from);
  if (ctx.values.to) query.set("dateTo", ctx.values.to);
  const all = ctx.values.all ?? false;
  const limit = intOption(ctx.values.limit, "limit") ?? (all ? 250 : 50);
  let offset = intOption(ctx.values.offset, "offset") ?? 0;
  type Report = { totals: { human: number; ai: number; total: number }; hasMore: boolean } & Record<typeof endpoint, Row[]>;
  const rows: Row[] = [];
  let page: Report;
  do {
    query.set("limit", String(limit));
    query.set("offset", String(offset));
    page = await ctx.client.request<Report>("GET", `/v1/analytics/${enc(projectId)}/${endpoint}?${query}`, ctx.projectKey);
    rows.push(...page[endpoint]);
    offset += limit;
  } while (all && page.hasMore);
  const result = { totals: page.totals, [endpoint]: rows, hasMore: page.hasMore };
  print(ctx, result, () => {
    const unit = endpoint === "visitors" ? "unique visitors" : "views";
    const head = `Total ${unit}: ${page.totals.total} (human ${page.totals.human}, AI ${page.totals.ai})`;
    if (rows.length === 0) return `${head}\nNo pages in this range.`;
    const body = table(["PATH", "HUMAN", "AI", "TOTAL"], rows.map((r) => [r.path, r.human, r.ai, r.total]));
    return `${head}\n\n${body}${page.hasMore ? `\n\nMore: add --offset ${offset} (or --all)` : ""}`;
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
      usage: "analytics visitors [--from DATE] [--to DATE] [--limit N] [--offset N] [--all]",
      run: (ctx) => report(ctx, "visitors"),
    },

    views: {
      usage: "analytics views    [--from DATE] [--to DATE] [--limit N] [--offset N] [--all]",
      run: (ctx) => report(ctx, "views"),
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
