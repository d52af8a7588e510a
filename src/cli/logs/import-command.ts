import { openSync, readSync, closeSync } from "node:fs";
import type { HitBatchResult } from "../../shared/analytics-schemas.js";
import { enc, need, print, projectOf, type CommandContext } from "../command-context.js";
import { CliError, UsageError } from "../errors.js";
import { followLog } from "./follow-import.js";
import { defaultStatePath } from "./follow-state.js";
import { createLineParser } from "./formats.js";
import { isLogFormat, LOG_FORMATS } from "./log-format-names.js";
import { importLog } from "./import.js";
import { importFailure, parseMaxRejected } from "./import-outcome.js";
import { isGzipHead, openLogInput } from "./input.js";
import type { SendHits } from "./sender.js";
import { formatSummary, progressLine, type ImportSummary } from "./summary.js";
import { sendWithRetry } from "../retry.js";

/** `inkwell analytics import`: one pass over a file or standard input, or `--follow` a live file until SIGINT/SIGTERM. */
export async function runImport(ctx: CommandContext): Promise<void> {
  const projectId = projectOf(ctx);
  const format = ctx.values.format;
  if (!format || !isLogFormat(format)) throw new CliError(`--format must be one of ${LOG_FORMATS.join(", ")}`, 2);
  const parser = createLineParser(format, { fields: ctx.values.field, logFormat: ctx.values["log-format"] });
  const source = need(ctx.args[0], "log file (or - for stdin)");
  const maxRejected = parseMaxRejected(ctx.values["max-rejected"]);
  const send: SendHits = (hits) =>
    sendWithRetry(
      () => ctx.client.request<HitBatchResult>("POST", `/v1/analytics/${enc(projectId)}/hits`, ctx.projectKey, { body: { hits } }),
      (ms) => ctx.io.sleep(ms),
    );
  let lastProgress = 0;
  const progress = (summary: ImportSummary, bytes: () => number, total: number | null) => {
    if (ctx.json || Date.now() - lastProgress < 1_000) return;
    lastProgress = Date.now();
    ctx.io.stderr(progressLine(summary, bytes(), total));
  };

  let summary: ImportSummary;
  if (ctx.values.follow) {
    summary = await follow(ctx, source, (statePath, intervalMs, signal) =>
      followLog({ path: source, statePath, parser, send, signal, intervalMs, progress: (s) => progress(s, () => 0, null), notice: (text) => ctx.io.stderr(text) }),
    );
  } else {
    if (ctx.values.state !== undefined || ctx.values.interval !== undefined) throw new UsageError("--state and --interval apply to --follow only");
    const input = openLogInput(source, () => ctx.io.stdinStream());
    summary = await importLog({ parser, lines: input.lines, send, progress: (s) => progress(s, input.bytesRead, input.totalBytes) });
  }
  print(ctx, summary, () => formatSummary(summary));
  const failure = importFailure(summary, maxRejected, { follow: ctx.values.follow === true });
  if (failure !== undefined) throw new CliError(failure);
}

type Follow = (statePath: string, intervalMs: number, signal: AbortSignal) => Promise<ImportSummary>;

/** Checks what --follow needs, then runs until SIGINT or SIGTERM; the batch in hand is sent and the position saved first. */
async function follow(ctx: CommandContext, source: string, run: Follow): Promise<ImportSummary> {
  if (source === "-") throw new UsageError("--follow needs a file, not standard input");
  if (startsWithGzip(source)) throw new UsageError(`${source} is gzip-compressed: a finished log; import it without --follow`);
  const interval = ctx.values.interval ?? "1";
  if (!/^\d+(\.\d+)?$/.test(interval) || Number(interval) <= 0) throw new UsageError("--interval must be a positive number of seconds");
  const statePath = ctx.values.state ?? defaultStatePath(source, ctx.io.env);
  ctx.io.stderr(`Following ${source} (position saved in ${statePath}); stop with Ctrl-C.`);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    return await run(statePath, Number(interval) * 1_000, controller.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

function startsWithGzip(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  try {
    const head = Buffer.alloc(2);
    readSync(fd, head, 0, 2, 0);
    return isGzipHead(head);
  } finally {
    closeSync(fd);
  }
}
