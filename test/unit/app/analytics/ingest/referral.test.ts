import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { aiOperatorOfSource, channelOf, channelOfSource, referralOf, referrerHost, utmSourceOf } from "../../../../../src/app/analytics/ingest/referral.js";
import { referralGroups } from "../../../../../src/app/analytics/rollup/referral-groups.js";

const own = new Set(["docs.acme.test"]);

describe("channelOf: Matomo's lists, by host or parent domain", () => {
  it.each([
    ["chatgpt.com", "ai"],
    ["chat.openai.com", "ai"],
    ["perplexity.ai", "ai"],
    ["claude.ai", "ai"],
    ["gemini.google.com", "ai"],
    ["copilot.microsoft.com", "ai"],
    ["poe.com", "ai"],
    ["google.com", "search"],
    ["google.de", "search"],
    ["google.co.uk", "search"],
    ["bing.com", "search"],
    ["duckduckgo.com", "search"],
    ["m.facebook.com", "social"],
    ["t.co", "social"],
    ["linkedin.com", "social"],
    ["reddit.com", "social"],
  ])("%s is %s", (host, channel) => {
    expect(channelOf(host)?.channel).toBe(channel);
  });

  it("knows nothing of an unlisted host, and does not take a look-alike for a listed one", () => {
    expect(channelOf("blog.example.org")).toBeNull();
    expect(channelOf("notchatgpt.com")).toBeNull();
    expect(channelOf("google.evil.com")).toBeNull();
  });
});

describe("referralOf", () => {
  it("keeps a referrer's host only, never its path or query", () => {
    expect(referralOf({ path: "/docs", referrer: "https://chatgpt.com/c/123-secret?x=1" }, own)).toEqual({ source: "chatgpt.com", channel: "ai" });
    expect(referralOf({ path: "/docs", referrer: "https://user:pw@WWW.Example.org:8443/a?b" }, own)).toEqual({ source: "example.org", channel: "other" });
  });

  it("prefers a campaign's utm_source to the referrer, and classifies it the same way", () => {
    expect(referralOf({ path: "/docs?utm_source=Perplexity.ai&utm_medium=answer", referrer: "https://t.co/x" }, own)).toEqual({ source: "perplexity.ai", channel: "ai" });
    expect(referralOf({ path: "/docs?utm_source=newsletter" }, own)).toEqual({ source: "newsletter", channel: "other" });
  });

  it("no referrer is direct; the site's own host is a step within the site; a non-URL referrer is other", () => {
    expect(referralOf({ path: "/docs" }, own)).toEqual({ source: "(direct)", channel: "direct" });
    expect(referralOf({ path: "/docs", referrer: "   " }, own)).toEqual({ source: "(direct)", channel: "direct" });
    expect(referralOf({ path: "/docs", referrer: "https://docs.acme.test/intro" }, own)).toBeNull();
    expect(referralOf({ path: "/docs", referrer: "android-app://com.slack" }, own)).toEqual({ source: "(unknown)", channel: "other" });
  });

  it("reads utm_source and referrer hosts defensively", () => {
    expect(utmSourceOf("/a?utm_source=%20X%20")).toBe("x");
    expect(utmSourceOf("/a#utm_source=x")).toBeNull();
    expect(utmSourceOf(`/a?utm_source=${"y".repeat(500)}`)).toHaveLength(100);
    expect(referrerHost("not a url")).toBeNull();
    expect(referrerHost("javascript:alert(1)")).toBeNull();
  });

  it("a stored source is classified again when reported", () => {
    expect(channelOfSource("(direct)")).toBe("direct");
    expect(channelOfSource("(unknown)")).toBe("other");
    expect(channelOfSource("chatgpt.com")).toBe("ai");
  });
});

describe("referralGroups", () => {
  it("counts an arrival in its source, its channel on the site, its page and the page's sections, and an AI answer's in its operator", () => {
    expect(referralGroups({ source: "chatgpt.com", channel: "ai" }, "/docs/guides/setup")).toEqual([
      "@source/chatgpt.com",
      "@channel/ai",
      "@channel/ai/docs/guides/setup",
      "@channel/ai/docs/",
      "@channel/ai/docs/guides/",
      "@operator/openai",
    ]);
    expect(referralGroups({ source: "(direct)", channel: "direct" }, "/")).toEqual(["@source/(direct)", "@channel/direct", "@channel/direct/"]);
  });
});

describe("known-referrers.generated.ts", () => {
  it("is what scripts/update-referrers.mjs makes of the vendored lists", () => {
    expect(() => execFileSync(process.execPath, ["scripts/update-referrers.mjs", "--check"], { stdio: "pipe" })).not.toThrow();
  });
});

describe("aiOperatorOfSource: the company behind an AI answer engine (v2fly/domain-list-community)", () => {
  it.each([
    ["chatgpt.com", "openai"],
    ["chat.openai.com", "openai"],
    ["www.chatgpt.com", "openai"],
    ["claude.ai", "anthropic"],
    ["gemini.google.com", "alphabet"],
    ["copilot.microsoft.com", "microsoft"],
    ["perplexity.ai", "perplexity"],
    ["search.perplexity.ai", "perplexity"],
    ["chat.mistral.ai", "mistral.ai"],
    ["google.com", null],
    ["news.ycombinator.com", null],
  ])("%s → %s", (source, operator) => {
    expect(aiOperatorOfSource(source)).toBe(operator);
  });

  it("an AI arrival also counts in its operator's group; other arrivals in none", () => {
    expect(referralGroups({ source: "chat.openai.com", channel: "ai" }, "/docs/a")).toContain("@operator/openai");
    expect(referralGroups({ source: "google.com", channel: "search" }, "/docs/a").filter((group) => group.startsWith("@operator/"))).toEqual([]);
  });
});

describe("ai-operators.generated.ts", () => {
  it("is what scripts/update-operators.mjs makes of the vendored lists", () => {
    expect(() => execFileSync(process.execPath, ["scripts/update-operators.mjs", "--check"], { stdio: "pipe" })).not.toThrow();
  });
});
