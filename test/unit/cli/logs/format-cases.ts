import { readFileSync } from "node:fs";
import { createLineParser, type ParserOptions } from "../../../../src/cli/logs/formats.js";
import type { LogFormat } from "../../../../src/cli/logs/log-format-names.js";

/** Reading the fixture logs the way an import does: one parser per file, line by line. */

export const CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36";
export const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0";
export const SAFARI_IOS = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1";
export const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";
export const CLAUDEBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
export const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
export const HTML_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

/** The `--log-format` of test/fixtures/logs/custom-format.txt. */
export const CUSTOM_FORMAT = '$host $remote_addr [$time_iso8601] "$request_method $request_uri" $status $body_bytes_sent rt=$request_time "$http_referer" "$http_user_agent" "$http_accept"';

export function fixtureLines(name: string): string[] {
  return readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

/** Each line's outcome with one parser for the whole file: the page path, why it is skipped, or "directive". */
export function outcomes(format: LogFormat, lines: string[], options: ParserOptions = {}): string[] {
  const parse = createLineParser(format, options);
  return lines.map((line) => {
    const parsed = parse(line);
    if (parsed === null) return "directive";
    return parsed.ok ? parsed.hit.path : `skip: ${parsed.reason}`;
  });
}

/** The results of a whole file, indexed by line number (1-based, as an editor shows it). */
export function readFile(format: LogFormat, name: string, options: ParserOptions = {}) {
  const lines = fixtureLines(name);
  const parse = createLineParser(format, options);
  const results = lines.map((line) => parse(line));
  return {
    lines,
    outcomes: () => outcomes(format, lines, options),
    hit(n: number) {
      const parsed = results[n - 1];
      if (!parsed?.ok) throw new Error(`line ${n} is no page view: ${JSON.stringify(parsed)}`);
      return parsed.hit;
    },
    detail(n: number) {
      const parsed = results[n - 1];
      if (parsed === null || parsed === undefined || parsed.ok) throw new Error(`line ${n} is not skipped: ${JSON.stringify(parsed)}`);
      return parsed.detail;
    },
  };
}
