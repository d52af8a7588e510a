import { hash } from "node:crypto";
import { UsageError } from "../errors.js";
import { skip, type LineParser, type ParsedLine, type RecordReader } from "./fields.js";
import { readCaddy } from "./formats/caddy.js";
import { readCloudflare } from "./formats/cloudflare.js";
import { cloudfrontReader } from "./formats/cloudfront.js";
import { readCombined } from "./formats/combined.js";
import { compileLogFormat } from "./formats/custom.js";
import { readFastly } from "./formats/fastly.js";
import { readNetlify } from "./formats/netlify.js";
import { nginxJsonFieldMap, nginxJsonReader } from "./formats/nginx-json.js";
import { readVercel } from "./formats/vercel.js";
import { pageView } from "./page-view.js";
import type { LogFormat } from "./log-format-names.js";

export interface ParserOptions {
  /** nginx-json: `--field NAME=KEY` specs. */
  fields?: readonly string[];
  /** custom: the `--log-format` string. */
  logFormat?: string;
}

/** Builds a fresh reader per input: CloudFront's keeps the `#Fields:` of its file, custom compiles its format once. */
const READERS: Record<LogFormat, (options: ParserOptions) => RecordReader> = {
  combined: () => readCombined,
  vercel: () => readVercel,
  cloudflare: () => readCloudflare,
  caddy: () => readCaddy,
  "nginx-json": (options) => nginxJsonReader(nginxJsonFieldMap(options.fields ?? [])),
  cloudfront: () => cloudfrontReader(),
  netlify: () => readNetlify,
  fastly: () => readFastly,
  custom: (options) => {
    if (options.logFormat === undefined) throw new UsageError("--format custom needs --log-format '<nginx log_format string>'");
    return compileLogFormat(options.logFormat);
  },
};

/**
 * The parser for one input (a file, or standard input): each line (no trailing newline) to a hit,
 * a skip reason, or null for a directive line. Blank lines are the caller's business (it skips them).
 * Throws a UsageError for options the format cannot use.
 */
export function createLineParser(format: LogFormat, options: ParserOptions = {}): LineParser {
  if (options.fields?.length && format !== "nginx-json") throw new UsageError("--field applies to --format nginx-json only");
  if (options.logFormat !== undefined && format !== "custom") throw new UsageError("--log-format applies to --format custom only");
  const read = READERS[format](options);
  return (line) => {
    const request = read(line);
    if (request === null) return null;
    return "ok" in request ? request : pageView(request);
  };
}

/** One line on its own (no `#Fields:` before it): a directive reads as not-a-page-view. */
export function parseLogLine(format: LogFormat, line: string, options: ParserOptions = {}): ParsedLine {
  return createLineParser(format, options)(line) ?? skip("not-a-page-view", "a directive line, no request");
}

/** Stable idempotency id of a log line: the same line at the same occurrence gives the same id on every import. */
export function lineHitId(line: string, occurrence: number): string {
  // One-shot hash (no Hash object per line); hex rather than "buffer", which Node 20 may not take.
  return Buffer.from(hash("sha256", `${occurrence}\n${line}`, "hex").slice(0, 32), "hex").toString("base64url");
}
