import { describe, expect, it } from "vitest";
import { parseLogLine } from "../../../../src/cli/logs/formats.js";

/** The path an nginx line with this request target is sent with. */
function pathOf(target: string): string {
  const parsed = parseLogLine("combined", `203.0.113.7 - - [12/Mar/2025:09:14:02 +0000] "GET ${target} HTTP/1.1" 200 512 "https://news.example/?q=docs&utm_source=x" "Mozilla/5.0"`);
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.hit.path;
}

describe("utm_source in the request target", () => {
  it("is the one query parameter sent with the path, URL-encoded", () => {
    expect(pathOf("/docs/intro?utm_source=newsletter")).toBe("/docs/intro?utm_source=newsletter");
    expect(pathOf("/docs/intro?ref=nav&utm_medium=email&utm_source=news+letter&utm_campaign=march#top")).toBe("/docs/intro?utm_source=news%20letter");
    expect(pathOf("/docs/intro?utm_source=chatgpt.com%2Fshare&token=secret")).toBe("/docs/intro?utm_source=chatgpt.com%2Fshare");
    expect(pathOf("/docs/intro?utm_source=%C3%BCber")).toBe("/docs/intro?utm_source=%C3%BCber");
    expect(pathOf("https://docs.example.com/docs/intro?utm_source=bing")).toBe("/docs/intro?utm_source=bing");
  });

  it("is left out when absent or empty, and the rest of the query is always dropped", () => {
    expect(pathOf("/docs/intro?ref=nav&page=2")).toBe("/docs/intro");
    expect(pathOf("/docs/intro?utm_source=")).toBe("/docs/intro");
    expect(pathOf("/docs/intro?utm_sourcex=1&xutm_source=2")).toBe("/docs/intro");
    expect(pathOf("/docs/intro#utm_source=fragment")).toBe("/docs/intro");
  });

  it("does not make an asset a page, and the referrer stays the full Referer", () => {
    expect(parseLogLine("combined", `203.0.113.7 - - [12/Mar/2025:09:14:02 +0000] "GET /app.js?utm_source=x HTTP/1.1" 200 512 "-" "Mozilla/5.0"`)).toMatchObject({ ok: false, reason: "not-a-page-view" });
    const parsed = parseLogLine("combined", `203.0.113.7 - - [12/Mar/2025:09:14:02 +0000] "GET /docs?utm_source=a HTTP/1.1" 200 512 "https://news.example/?q=docs&utm_source=x" "Mozilla/5.0"`);
    expect(parsed).toMatchObject({ ok: true, hit: { referrer: "https://news.example/?q=docs&utm_source=x" } });
  });
});
