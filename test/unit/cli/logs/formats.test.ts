import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lineHitId, parseLogLine } from "../../../../src/cli/logs/formats.js";
import type { LogFormat } from "../../../../src/cli/logs/log-format-names.js";

const CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";
const CLAUDEBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
const HTML_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

function fixtureLines(name: string): string[] {
  return readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

/** What an import makes of each line: the page path it counts, or why it skips the line. */
function outcomes(format: LogFormat, lines: string[]): string[] {
  return lines.map((line) => {
    const parsed = parseLogLine(format, line);
    return parsed.ok ? parsed.hit.path : `skip: ${parsed.reason}`;
  });
}

/** The hit of line `n` (1-based, as an editor shows it); fails the test when the line is skipped. */
function hitOf(format: LogFormat, lines: string[], n: number) {
  const parsed = parseLogLine(format, lines[n - 1] ?? "");
  if (!parsed.ok) throw new Error(`line ${n} skipped: ${parsed.reason} (${parsed.detail})`);
  return parsed.hit;
}

function skipDetailOf(format: LogFormat, lines: string[], n: number): string {
  const parsed = parseLogLine(format, lines[n - 1] ?? "");
  if (parsed.ok) throw new Error(`line ${n} is a page view: ${parsed.hit.path}`);
  return parsed.detail;
}

/** One nginx line around a request line; the rest is fixed. */
function nginxLine(request: string, { status = 200, time = "12/Mar/2025:09:14:02 +0000", agent = "Mozilla/5.0" } = {}): string {
  return `203.0.113.7 - - [${time}] "${request}" ${status} 512 "-" "${agent}"`;
}

describe("importing an nginx/Apache access log (combined)", () => {
  const lines = fixtureLines("access.log");

  it("imports an nginx access log: counts page views, skips assets, errors, non-GETs and broken lines", () => {
    expect(outcomes("combined", lines)).toEqual([
      "/docs/getting-started",
      "skip: not-a-page-view", // .css
      "skip: not-a-page-view", // .js
      "skip: not-a-page-view", // /favicon.ico
      "/docs/api/authentication", // IPv6, query dropped
      "/llms.txt", // GPTBot
      "/docs/guides/webhooks.md", // ClaudeBot
      "/docs/guides/webhooks.md", // the same line again
      "/llms-full.txt", // PerplexityBot
      "skip: not-a-page-view", // /robots.txt
      "skip: not-a-page-view", // /sitemap.xml
      "/docs/old-page", // 404: imported with its status (failures report)
      "skip: method", // POST
      "/docs/getting-started", // HEAD
      "/docs/getting-started", // 304
      "skip: status", // 301
      "/wp-login.php", // scanner 404
      "skip: not-a-page-view", // /.well-known/
      "skip: malformed", // TLS handshake on the HTTP port
      "skip: malformed", // request line "-"
      "/docs/changelog", // common log format
      "/docs/faq", // escaped quotes in the user agent
      "/docs/faq", // absolute-form request target
      "skip: not-a-page-view", // /_next/image
      "/docs/guides/intro.html",
      "skip: not-a-page-view", // .png
      "skip: not-a-page-view", // .woff2
      "/docs/%C3%BCber-uns", // percent-encoding kept
      "skip: method", // OPTIONS *
      "/docs/getting-started", // 500
      "skip: malformed", // host name instead of IP
      "skip: malformed", // $time_iso8601 instead of $time_local
      "skip: malformed", // line cut off
    ]);
  });

  it("imports an nginx access log: hits carry the UTC time, the path without query, the client and the referrer", () => {
    expect(hitOf("combined", lines, 1)).toEqual({
      timestamp: "2025-03-12T09:14:02.000Z",
      path: "/docs/getting-started",
      ip: "203.0.113.7",
      userAgent: CHROME,
      referrer: "https://www.google.com/",
    });
    expect(hitOf("combined", lines, 5)).toEqual({
      timestamp: "2025-03-12T09:02:45.000Z", // logged at +0100
      path: "/docs/api/authentication",
      ip: "2001:db8:85a3::8a2e:370:7334",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0",
      referrer: "https://github.com/acme/widgets",
    });
    expect(hitOf("combined", lines, 6)).toEqual({
      timestamp: "2025-03-12T11:30:00.000Z", // logged at -0700; "-" referrer left out
      path: "/llms.txt",
      ip: "20.171.207.130",
      userAgent: GPTBOT,
    });
  });

  it("imports a common log format line, without referrer and user agent", () => {
    expect(hitOf("combined", lines, 21)).toEqual({ timestamp: "2025-03-12T13:05:09.000Z", path: "/docs/changelog", ip: "192.0.2.44", userAgent: "" });
  });

  it("reads escaped quotes and \\xHH bytes inside quoted fields", () => {
    expect(hitOf("combined", lines, 22).userAgent).toBe('Mozilla/5.0 (compatible; "LinkChecker"/10.2.1; +https://linkchecker.github.io/)');
    const escaped = parseLogLine("combined", nginxLine("GET /docs HTTP/1.1", { agent: String.raw`Check \xE2\x9C\x93 \x22v2\x22` }));
    expect(escaped).toMatchObject({ ok: true, hit: { userAgent: 'Check ✓ "v2"' } });
  });

  it("reduces an absolute-form request target to its path", () => {
    expect(hitOf("combined", lines, 23)).toEqual({ timestamp: "2025-03-12T13:25:13.000Z", path: "/docs/faq", ip: "192.0.2.51", userAgent: "curl/8.5.0" });
    expect(parseLogLine("combined", nginxLine("GET https://docs.example.com HTTP/1.1"))).toMatchObject({ ok: true, hit: { path: "/" } });
  });

  it("converts any numeric offset to UTC", () => {
    const at = (time: string) => parseLogLine("combined", nginxLine("GET /docs HTTP/1.1", { time }));
    expect(at("01/Jan/2025:03:15:00 +0530")).toMatchObject({ ok: true, hit: { timestamp: "2024-12-31T21:45:00.000Z" } });
    expect(at("31/Dec/2024:23:30:00 -0100")).toMatchObject({ ok: true, hit: { timestamp: "2025-01-01T00:30:00.000Z" } });
    expect(at("12/Mar/2025:10:00:00 -0030")).toMatchObject({ ok: true, hit: { timestamp: "2025-03-12T10:30:00.000Z" } });
  });

  it("refuses a time that names no moment, rather than rolling it over", () => {
    const at = (time: string) => parseLogLine("combined", nginxLine("GET /docs HTTP/1.1", { time }));
    expect(at("29/Feb/2024:12:00:00 +0000")).toMatchObject({ ok: true, hit: { timestamp: "2024-02-29T12:00:00.000Z" } });
    for (const time of ["29/Feb/2025:12:00:00 +0000", "31/Apr/2025:12:00:00 +0000", "12/Mar/2025:24:00:00 +0000", "12/Mar/2025:10:60:00 +0000", "12/Mar/2025:10:00:00 +0075"]) {
      expect(at(time), time).toMatchObject({ ok: false, reason: "malformed" });
    }
  });

  it("says what is wrong with a malformed line", () => {
    expect(skipDetailOf("combined", lines, 19)).toMatch(/^request line ".*" is not METHOD TARGET HTTP\/x\.y$/);
    expect(skipDetailOf("combined", lines, 20)).toBe("no request line (-)");
    expect(skipDetailOf("combined", lines, 31)).toBe('client address "crawl-66-249-66-1.googlebot.com" is not an IP address');
    expect(skipDetailOf("combined", lines, 32)).toBe('time "2025-03-12T14:40:00+00:00" is not dd/Mon/yyyy:HH:MM:SS ±hhmm');
    expect(skipDetailOf("combined", lines, 33)).toBe("not in combined or common log format");
  });
});

describe("importing a Vercel log drain (NDJSON)", () => {
  const lines = fixtureLines("vercel.ndjson");

  it("imports a Vercel log drain: counts proxy requests, skips build and function output, assets, errors and non-GETs", () => {
    expect(outcomes("vercel", lines)).toEqual([
      "/docs/getting-started?utm_source=newsletter", // utm_source kept, the rest of a query dropped
      "/docs/api/authentication", // lambda request, IPv6
      "skip: not-a-page-view", // that lambda's stdout line, repeating its proxy object
      "skip: not-a-page-view", // build stdout
      "skip: not-a-page-view", // /_next/static
      "skip: not-a-page-view", // /_next/image
      "skip: method", // POST /_vercel/insights/view
      "/llms.txt", // GPTBot
      "/docs/guides/webhooks.md", // ClaudeBot
      "/docs/missing-page", // 404
      "skip: status", // 308 trailing-slash redirect
      "skip: status", // -1: background revalidation
      "/docs/faq", // userAgent as a plain string
      "/docs/changelog", // no statusCode
      "skip: malformed", // no clientIp
      "skip: malformed", // line cut off
      "/docs/getting-started", // HEAD
      "skip: not-a-page-view", // /favicon.ico
      "skip: not-a-page-view", // /sitemap.xml
      "/docs/getting-started", // firewall 403
      "/docs/guides/deploy", // PerplexityBot
      "/docs/getting-started", // 304
    ]);
  });

  it("imports a Vercel log drain: hits come from the proxy object, with millisecond UTC times", () => {
    expect(hitOf("vercel", lines, 1)).toEqual({
      timestamp: "2025-03-12T09:14:02.123Z",
      path: "/docs/getting-started?utm_source=newsletter",
      ip: "203.0.113.7",
      userAgent: CHROME,
      referrer: "https://news.ycombinator.com/",
    });
    expect(hitOf("vercel", lines, 2)).toEqual({
      timestamp: "2025-03-12T09:20:41.500Z",
      path: "/docs/api/authentication",
      ip: "2001:db8:4:2::1b",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0",
      referrer: "https://github.com/acme/widgets",
    });
    expect(hitOf("vercel", lines, 13).userAgent).toBe("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)");
    expect(hitOf("vercel", lines, 21)).toEqual({
      timestamp: "2025-03-12T13:02:19.000Z", // empty referer left out
      path: "/docs/guides/deploy",
      ip: "44.221.181.252",
      userAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
    });
  });

  it("counts a request whose status the drain left out", () => {
    expect(hitOf("vercel", lines, 14)).toEqual({
      timestamp: "2025-03-12T12:07:00.000Z",
      path: "/docs/changelog",
      ip: "203.0.113.7",
      userAgent: CHROME,
      referrer: "https://docs.example.com/docs/faq",
    });
  });

  it("says why a Vercel line is skipped", () => {
    expect(skipDetailOf("vercel", lines, 3)).toBe("lambda stdout line, not a request");
    expect(skipDetailOf("vercel", lines, 4)).toBe("build stdout line, not a request");
    expect(skipDetailOf("vercel", lines, 12)).toBe("status -1 is not a page answer (2xx, 304, 4xx or 5xx)");
    expect(skipDetailOf("vercel", lines, 15)).toBe("no proxy.clientIp");
    expect(skipDetailOf("vercel", lines, 16)).toBe("not a JSON object");
    expect(skipDetailOf("vercel", ['{"source":"external","message":"GET https://api.example.com 200"}'], 1)).toBe("external line without a proxy object");
  });

  it("rejects a proxy timestamp that is not epoch milliseconds", () => {
    const line = JSON.stringify({ proxy: { timestamp: "yesterday", method: "GET", path: "/docs", clientIp: "203.0.113.7", statusCode: 200 } });
    expect(parseLogLine("vercel", line)).toEqual({ ok: false, reason: "malformed", detail: 'proxy.timestamp "yesterday" is not epoch milliseconds' });
  });
});

describe("importing Cloudflare Logpush http_requests (NDJSON)", () => {
  const lines = fixtureLines("cloudflare.ndjson");

  it("imports Cloudflare Logpush: counts visitor page views, skips assets, Cloudflare's own requests, errors and non-GETs", () => {
    expect(outcomes("cloudflare", lines)).toEqual([
      "/docs/getting-started", // unixnano number
      "/docs/api/authentication", // unixnano string
      "/docs/faq", // unix seconds
      "/docs/guides/deploy", // rfc3339
      "/docs/guides/webhooks", // ClaudeBot asking for markdown
      "skip: not-a-page-view", // .css
      "skip: not-a-page-view", // /cdn-cgi/ challenge
      "skip: not-a-page-view", // Worker subrequest
      "skip: method", // POST
      "/docs/old-page", // 404
      "/docs/getting-started", // WAF 403
      "/docs/changelog", // ClientRequestPath only
      "/docs/install", // OriginResponseStatus only
      "skip: malformed", // timestamp without zone
      "skip: malformed", // no ClientIP
      "skip: not-a-page-view", // /robots.txt
      "/llms-full.txt", // PerplexityBot
      "/docs/getting-started", // HEAD
      "/docs/getting-started", // 304
      "/docs/faq", // no status field at all
      "/docs/api/authentication.md", // GPTBot
    ]);
  });

  it("imports Cloudflare Logpush: reads every timestamp format to UTC and takes accept from RequestHeaders", () => {
    expect(hitOf("cloudflare", lines, 1)).toEqual({
      timestamp: "2025-03-12T09:14:02.123Z",
      path: "/docs/getting-started",
      ip: "203.0.113.7",
      userAgent: CHROME,
      accept: HTML_ACCEPT,
      referrer: "https://www.google.com/",
    });
    expect(hitOf("cloudflare", lines, 2).timestamp).toBe("2025-03-12T09:20:41.500Z");
    expect(hitOf("cloudflare", lines, 3)).toEqual({
      timestamp: "2025-03-12T09:35:00.000Z",
      path: "/docs/faq",
      ip: "2a02:c7c:1234:5600::42",
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1",
    });
    expect(hitOf("cloudflare", lines, 4).timestamp).toBe("2025-03-12T10:20:30.000Z");
    expect(hitOf("cloudflare", lines, 5)).toEqual({
      timestamp: "2025-03-12T11:31:12.000Z",
      path: "/docs/guides/webhooks",
      ip: "2600:1f28:365:80b0::5",
      userAgent: CLAUDEBOT,
      accept: "text/markdown, text/html;q=0.9",
    });
  });

  it("tells epoch seconds, milliseconds, microseconds and nanoseconds apart", () => {
    const at = (EdgeStartTimestamp: unknown) =>
      parseLogLine("cloudflare", JSON.stringify({ ClientIP: "203.0.113.7", ClientRequestMethod: "GET", ClientRequestURI: "/docs", EdgeStartTimestamp }));
    for (const epoch of [1741770842, 1741770842000, 1741770842000000, "1741770842000000000", "2025-03-12T10:14:02+01:00"]) {
      expect(at(epoch)).toMatchObject({ ok: true, hit: { timestamp: "2025-03-12T09:14:02.000Z" } });
    }
    expect(at(-5)).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("says why a Cloudflare line is skipped", () => {
    expect(skipDetailOf("cloudflare", lines, 8)).toBe("ClientRequestSource is edgeWorkerFetch");
    expect(skipDetailOf("cloudflare", lines, 14)).toBe('EdgeStartTimestamp "2025-03-12 14:40:00" is not unixnano, unix or rfc3339');
    expect(skipDetailOf("cloudflare", lines, 15)).toBe("no ClientIP");
  });
});

describe("which requests are page views", () => {
  const outcomeOf = (request: string, status = 200) => {
    const parsed = parseLogLine("combined", nginxLine(request, { status }));
    return parsed.ok ? parsed.hit.path : `skip: ${parsed.reason}`;
  };

  it("counts docs pages in any form, and llms.txt files wherever they live", () => {
    for (const path of ["/", "/docs/", "/docs/intro", "/docs/intro.md", "/docs/intro.mdx", "/docs/intro.html", "/docs/v1.2", "/docs/llms.txt", "/LLMS-FULL.TXT"]) {
      expect(outcomeOf(`GET ${path} HTTP/1.1`)).toBe(path);
    }
  });

  it("skips static assets, feeds, downloads and framework paths", () => {
    const assets = ["/app.mjs", "/app.js.map", "/data.json", "/feed.xml", "/logo.SVG", "/hero.webp", "/hero.avif", "/font.ttf", "/intro.mp4", "/guide.pdf", "/docs.zip", "/app.wasm", "/notes.txt"];
    const framework = ["/_next/data/build/docs.json", "/_vercel/insights/script", "/cdn-cgi/l/email-protection", "/.well-known/openid-configuration"];
    for (const path of [...assets, ...framework]) expect(outcomeOf(`GET ${path} HTTP/1.1`)).toBe("skip: not-a-page-view");
  });

  it("keeps 2xx, 304 and 4xx/5xx answers (with their status), and skips redirects and informational ones", () => {
    expect([200, 204, 206, 299, 304, 400, 401, 429, 500, 503].map((status) => outcomeOf("GET /docs HTTP/1.1", status))).toEqual(Array(10).fill("/docs"));
    expect(hitOf("combined", [nginxLine("GET /docs HTTP/1.1", { status: 404 })], 1).status).toBe(404);
    expect([101, 301, 302, 307, 308].map((status) => outcomeOf("GET /docs HTTP/1.1", status))).toEqual(Array(5).fill("skip: status"));
  });

  it("keeps GET and HEAD only, and judges an asset by its path before its status", () => {
    expect(["PUT", "DELETE", "PATCH", "PROPFIND"].map((method) => outcomeOf(`${method} /docs HTTP/1.1`))).toEqual(Array(4).fill("skip: method"));
    expect(outcomeOf("GET /missing.png HTTP/1.1", 404)).toBe("skip: not-a-page-view");
  });

  it("needs a request target that is a path", () => {
    expect(parseLogLine("combined", nginxLine("GET docs/intro HTTP/1.1"))).toEqual({ ok: false, reason: "malformed", detail: 'request target "docs/intro" is not a path' });
  });
});

describe("the idempotency id of a log line", () => {
  const line = `203.0.113.7 - - [12/Mar/2025:09:14:02 +0000] "GET /docs/getting-started HTTP/1.1" 200 8421 "https://www.google.com/" "Mozilla/5.0"`;

  it("is the same on every import, so re-importing a log counts nothing twice", () => {
    expect(lineHitId(line, 0)).toBe("KZ7agrkf49clMkK0ihqAzg");
    expect(lineHitId(line, 0)).toBe(lineHitId(line, 0));
  });

  it("differs for a repeated identical line and for another line", () => {
    const ids = new Set([lineHitId(line, 0), lineHitId(line, 1), lineHitId(line, 2), lineHitId(`${line} `, 0)]);
    expect(ids.size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
