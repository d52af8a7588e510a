import { describe, expect, it } from "vitest";
import { createLineParser, parseLogLine } from "../../../../src/cli/logs/formats.js";
import { CHROME, CLAUDEBOT, FIREFOX, GOOGLEBOT, GPTBOT, HTML_ACCEPT, SAFARI_IOS, readFile } from "./format-cases.js";

describe("importing AWS CloudFront standard logs (W3C, tab-separated)", () => {
  const log = readFile("cloudfront", "cloudfront.tsv");

  it("reads the columns #Fields names, counts page views, skips assets, redirects, aborted requests and broken lines", () => {
    expect(log.outcomes()).toEqual([
      "directive", // #Version
      "directive", // #Fields
      "/docs/getting-started?utm_source=newsletter", // cs-uri-query: utm_medium dropped
      "skip: not-a-page-view", // .css
      "/docs/api/authentication", // IPv6, query dropped
      "/llms.txt", // GPTBot
      "/docs/guides/webhooks.md", // ClaudeBot
      "skip: method", // POST
      "skip: status", // 301
      "skip: not-a-page-view", // /robots.txt
      "/docs/old-page", // 404
      "skip: status", // 000: the viewer closed the connection
      "/docs/getting-started", // HEAD
      "/docs/changelog", // 304
      "skip: malformed", // cut off after six fields
      "skip: malformed", // c-ip "-"
      "/docs/guides/deploy?utm_source=chatgpt.com",
    ]);
  });

  it("decodes the URL-encoded User-Agent and Referer, and reads date and time as UTC", () => {
    expect(log.hit(3)).toEqual({
      timestamp: "2025-03-12T09:14:02.000Z",
      path: "/docs/getting-started?utm_source=newsletter",
      ip: "203.0.113.7",
      userAgent: CHROME,
      referrer: "https://www.google.com/",
    });
    expect(log.hit(5)).toEqual({ timestamp: "2025-03-12T09:20:41.000Z", path: "/docs/api/authentication", ip: "2001:db8:4:2::1b", userAgent: FIREFOX, referrer: "https://github.com/acme/widgets" });
    expect(log.hit(6)).toEqual({ timestamp: "2025-03-12T11:30:00.000Z", path: "/llms.txt", ip: "20.171.207.130", userAgent: GPTBOT });
    expect(log.hit(11)).toEqual({ timestamp: "2025-03-12T11:51:00.000Z", path: "/docs/old-page", ip: "66.249.66.1", userAgent: GOOGLEBOT, status: 404 });
    expect(log.detail(15)).toBe("6 tab-separated fields where #Fields names 33");
    expect(log.detail(16)).toBe("no c-ip");
  });

  it("follows a #Fields line with another column order, and keeps a value that does not decode", () => {
    const parse = createLineParser("cloudfront");
    expect(parse("#Fields: c-ip date time cs-method cs-uri-stem cs-uri-query sc-status cs(User-Agent) cs(Referer)")).toBeNull();
    expect(parse(["198.51.100.3", "2025-03-12", "23:59:59", "GET", "/docs/intro", "-", "200", "Mozilla/5.0%20(100%25%20real)", "https://example.com/?q=%E2%9C%93"].join("\t"))).toEqual({
      ok: true,
      hit: { timestamp: "2025-03-12T23:59:59.000Z", path: "/docs/intro", ip: "198.51.100.3", userAgent: "Mozilla/5.0 (100% real)", referrer: "https://example.com/?q=✓" },
    });
    expect(parse(["198.51.100.3", "2025-03-12", "23:59:59", "GET", "/docs/intro", "-", "200", "bad%E2agent", "-"].join("\t"))).toMatchObject({ ok: true, hit: { userAgent: "bad%E2agent" } });
  });

  it("reads a line without a #Fields header in the documented legacy column order", () => {
    const line = log.lines[2] ?? "";
    expect(parseLogLine("cloudfront", line)).toEqual(createLineParser("cloudfront")(line));
    expect(parseLogLine("cloudfront", "#Version: 1.0")).toEqual({ ok: false, reason: "not-a-page-view", detail: "a directive line, no request" });
  });
});

describe("importing a Netlify log drain (NDJSON)", () => {
  const log = readFile("netlify", "netlify.ndjson");

  it("counts traffic records, skips function and deploy records, assets, redirects, non-GETs and broken lines", () => {
    expect(log.outcomes()).toEqual([
      "/docs/getting-started?utm_source=hn",
      "skip: not-a-page-view", // .css
      "/docs/faq", // url as a full URL, IPv6
      "/llms.txt", // GPTBot
      "skip: method", // POST to a function
      "skip: not-a-page-view", // functions record
      "skip: status", // 301
      "skip: not-a-page-view", // deploys record
      "/docs/old-page", // 404
      "skip: malformed", // drain set to exclude personal data: no client_ip
      "/docs/getting-started", // HEAD
      "/docs/guides/webhooks.md", // ClaudeBot
      "skip: malformed", // cut off
      "skip: malformed", // timestamp not RFC 3339
    ]);
  });

  it("reads client_ip, timestamp, url, status_code, user_agent and referrer", () => {
    expect(log.hit(1)).toEqual({
      timestamp: "2025-03-12T09:14:02.123Z",
      path: "/docs/getting-started?utm_source=hn",
      ip: "203.0.113.7",
      userAgent: CHROME,
      referrer: "https://duckduckgo.com/",
    });
    expect(log.hit(3)).toEqual({ timestamp: "2025-03-12T09:35:00.000Z", path: "/docs/faq", ip: "2a02:c7c:1234:5600::42", userAgent: SAFARI_IOS });
    expect(log.hit(9)).toMatchObject({ status: 404, userAgent: GOOGLEBOT });
    expect(log.hit(12).userAgent).toBe(CLAUDEBOT);
    expect(log.detail(6)).toBe("functions log line, not traffic");
    expect(log.detail(10)).toBe("no client_ip");
    expect(log.detail(14)).toMatch(/^timestamp "12 Mar 2025 12:08:00" is not a time/);
  });
});

describe("importing Fastly real-time log streaming (JSON)", () => {
  const log = readFile("fastly", "fastly.ndjson");

  it("reads Fastly's example fields and the other common spellings", () => {
    expect(log.outcomes()).toEqual([
      "/docs/getting-started?utm_source=linkedin", // Fastly's documented example format
      "skip: not-a-page-view", // .js
      "/docs/faq", // IPv6, Referer "(null)"
      "/llms-full.txt", // time_start in ms, method/status/user_agent/referer spellings
      "skip: method", // POST
      "skip: status", // 301, req.request as the method
      "/docs/old-page", // 404
      "skip: not-a-page-view", // /sitemap.xml
      "skip: malformed", // no client_ip
      "/docs/getting-started", // HEAD
      "/docs/guides/webhooks.md", // ClaudeBot with Accept
      "/docs/changelog", // a whole request line in `request`, status as a string
      "skip: malformed", // cut off
      "skip: malformed", // timestamp "yesterday"
    ]);
  });

  it("reads strftime's +0000 zone, a zoneless time as GMT, epoch milliseconds, and drops (null) headers", () => {
    expect(log.hit(1)).toEqual({
      timestamp: "2025-03-12T09:14:02.000Z",
      path: "/docs/getting-started?utm_source=linkedin",
      ip: "203.0.113.7",
      userAgent: CHROME,
      referrer: "https://www.linkedin.com/",
    });
    expect(log.hit(3)).toEqual({ timestamp: "2025-03-12T09:35:00.000Z", path: "/docs/faq", ip: "2a02:c7c:1234:5600::42", userAgent: SAFARI_IOS, accept: HTML_ACCEPT });
    expect(log.hit(4)).toEqual({ timestamp: "2025-03-12T11:30:00.123Z", path: "/llms-full.txt", ip: "20.171.207.130", userAgent: GPTBOT });
    expect(log.hit(11)).toMatchObject({ accept: "text/markdown, text/html;q=0.9", userAgent: CLAUDEBOT });
    const zoneless = JSON.stringify({ timestamp: "2025-03-12T11:40:00", client_ip: "203.0.113.9", url: "/docs", request_method: "GET", request_user_agent: "x" });
    expect(parseLogLine("fastly", zoneless)).toMatchObject({ ok: true, hit: { timestamp: "2025-03-12T11:40:00.000Z" } });
    expect(log.detail(9)).toBe("no client_ip");
  });
});
