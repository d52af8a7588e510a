import { intOption, print, type CommandContext } from "./command-context.js";
import { cliRange } from "./date-range.js";
import { CliError } from "./errors.js";

/** The dates every report takes, and its own `extra` parameters. */
export function rangeQuery(ctx: CommandContext, extra: Record<string, string | undefined>) {
  const range = cliRange(ctx.values);
  const query = new URLSearchParams();
  if (range.dateFrom) query.set("dateFrom", range.dateFrom);
  if (range.dateTo) query.set("dateTo", range.dateTo);
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) query.set(name, value);
  return { query, label: range.label };
}

/** `--csv`: the server's CSV (every row of the range, or the page --limit/--offset name) to standard output as it arrives. */
export async function exportCsv(ctx: CommandContext, path: string, extra: Record<string, string | undefined> = {}) {
  if (ctx.json) throw new CliError("--csv and --json are two different outputs: give one", 2);
  const { query } = rangeQuery(ctx, { ...extra, output: "csv" });
  for (const name of ["limit", "offset"] as const) {
    const value = intOption(ctx.values[name], name);
    if (value !== undefined) query.set(name, String(value));
  }
  const body = await ctx.client.download(`${path}?${query}`, ctx.projectKey, "text/csv");
  if (ctx.io.write) {
    for await (const chunk of body) await ctx.io.write(chunk);
    return;
  }
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  ctx.io.stdout(Buffer.concat(chunks).toString("utf8"));
}

/** The dates and paging every report takes; `--all` follows the pages, gathering `rowsKey`. */
export async function fetchReport<Report extends { hasMore: boolean }>(
  ctx: CommandContext,
  path: string,
  rowsKey: keyof Report & string,
  extra: Record<string, string | undefined> = {},
): Promise<{ page: Report; rows: unknown[]; nextOffset: number; range: string }> {
  const { query, label } = rangeQuery(ctx, extra);
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
  return { page, rows, nextOffset: offset, range: label };
}

/** A report in words starts with the days it covers, said the same way for every report. */
export const printRanged = (ctx: CommandContext, range: string, data: unknown, human: () => string) => print(ctx, data, () => `${range}\n${human()}`);

export const more = (hasMore: boolean, offset: number) => (hasMore ? `\n\nMore: add --offset ${offset} (or --all)` : "");
