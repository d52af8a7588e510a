import { readFileSync } from "node:fs";
import crawlerUserAgents from "crawler-user-agents";
import { describe, expect, it } from "vitest";
import { AI_AGENTS } from "../../../../../src/app/analytics/classify/ai-agents.js";
import { AI_CATEGORIES, classifyHit, type AiCategory, type Classification } from "../../../../../src/app/analytics/classify/classify.js";
import { readFormat } from "../../../../../src/app/analytics/ingest/read-format.js";

type Expected = "human" | "bot" | `ai/${AiCategory}`;
interface FixtureRow {
  ua: string;
  expect?: Expected;
  markdown?: Expected;
  agent?: string;
  /** Why a row departs from its group. */
  note?: string;
}
interface FixtureGroup {
  expect: Expected;
  markdown?: Expected;
  rows: (string | FixtureRow)[];
}
interface Case {
  group: string;
  ua: string;
  page: Expected;
  markdown: Expected;
  agent: string | undefined;
}

const fixture = JSON.parse(readFileSync(new URL("../../../../fixtures/user-agents.json", import.meta.url), "utf8")) as {
  groups: Record<string, FixtureGroup>;
};

const CASES: Case[] = Object.entries(fixture.groups).flatMap(([group, spec]) =>
  spec.rows.map((raw) => {
    const row = typeof raw === "string" ? { ua: raw } : raw;
    const page = row.expect ?? spec.expect;
    return { group, ua: row.ua, page, markdown: row.markdown ?? (row.expect ? page : (spec.markdown ?? page)), agent: row.agent };
  }),
);

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const CURL = "curl/8.4.0";
const REQUESTS = "python-requests/2.32.3";

const label = (c: Classification): Expected => (c.class === "ai" ? `ai/${c.category}` : c.class);
const classify = (userAgent: string, path = "/guide", accept?: string) => classifyHit({ userAgent, format: readFormat(path, accept) });

/** Every case whose classification differs from the fixture, as readable lines. */
function mismatches(path: string, expectedOf: (c: Case) => Expected): string[] {
  return CASES.flatMap((c) => {
    const got = classify(c.ua, path);
    const want = expectedOf(c);
    const agentWrong = c.agent !== undefined && want.startsWith("ai/") && (got.class !== "ai" || got.agent !== c.agent);
    if (label(got) === want && !agentWrong) return [];
    return [`[${c.group}] ${c.ua}\n    expected ${want}${c.agent ? ` (${c.agent})` : ""}, got ${JSON.stringify(got)}`];
  });
}

describe("classifyHit: real-world User-Agents", () => {
  it("has a few hundred fixture rows, each User-Agent once", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(300);
    expect(new Set(CASES.map((c) => c.ua)).size).toBe(CASES.length);
  });

  it("classes every fixture row as expected on an ordinary page", () => {
    expect(mismatches("/guide", (c) => c.page).join("\n")).toBe("");
  });

  it("classes every fixture row as expected on a markdown fetch", () => {
    expect(mismatches("/llms.txt", (c) => c.markdown).join("\n")).toBe("");
  });
});

describe("classifyHit: markdown fetches", () => {
  it.each([
    [CURL, "/llms.txt", undefined, "ai/assistant"],
    [CURL, "/docs/v2/llms-full.txt", undefined, "ai/assistant"],
    [CURL, "/guide.md", undefined, "ai/assistant"],
    [CURL, "/guide.MDX", undefined, "ai/assistant"],
    [CURL, "/guide.md?plain=1", undefined, "ai/assistant"],
    [CURL, "/guide", undefined, "bot"],
    [CURL, "/guide.md5", undefined, "bot"],
    [CURL, "/search?q=readme.md", undefined, "bot"],
    [CURL, "/notllms.txt", undefined, "bot"],
    [CHROME, "/guide.md", undefined, "human"],
    [CHROME, "/llms.txt", "text/markdown", "human"],
    [GOOGLEBOT, "/llms.txt", undefined, "bot"],
    [BINGBOT, "/guide.md", "text/markdown", "bot"],
    [REQUESTS, "/guide", "text/markdown", "ai/assistant"],
    [REQUESTS, "/guide", "text/x-markdown", "ai/assistant"],
  ] as const)("%s on %s (Accept: %s) → %s", (ua, path, accept, expected) => {
    expect(label(classify(ua, path, accept))).toBe(expected);
  });

  // Decision: markdown must rank above HTML (higher q, or the same q and listed first);
  // wildcards are fallbacks and do not count for HTML.
  it.each([
    ["text/markdown, text/html, */*", "ai/assistant"],
    ["text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1", "ai/assistant"],
    ["text/html;q=0.9, text/markdown", "ai/assistant"],
    ["TEXT/MARKDOWN; charset=utf-8", "ai/assistant"],
    ["text/html,text/markdown", "bot"],
    ["text/html, application/xhtml+xml, text/markdown;q=0.9", "bot"],
    ["text/markdown;q=0.5, text/html", "bot"],
    ["text/markdown;q=0", "bot"],
    ["text/html", "bot"],
    ["*/*", "bot"],
  ] as const)("a library sending Accept: %s on /guide → %s", (accept, expected) => {
    expect(label(classify(REQUESTS, "/guide", accept))).toBe(expected);
  });

  it("names the client in the agent", () => {
    expect(classify(CURL, "/llms.txt")).toEqual({ class: "ai", category: "assistant", agent: "markdown fetch (curl)", operator: "unknown" });
    expect(classify(REQUESTS, "/a.md")).toMatchObject({ agent: "markdown fetch (python-requests)", operator: "unknown" });
    const headless = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36";
    expect(classify(headless, "/a.md")).toMatchObject({ agent: "markdown fetch (HeadlessChrome)", operator: "unknown" });
  });

  // Decision: no browser omits the User-Agent, so an empty one reading markdown is a script, counted as an agent.
  it("treats an empty or blank User-Agent as a bot, and as an assistant on markdown", () => {
    for (const ua of ["", "   "]) {
      expect(classify(ua, "/guide")).toEqual({ class: "bot" });
      expect(classify(ua, "/llms.txt")).toEqual({ class: "ai", category: "assistant", agent: "markdown fetch (no user agent)", operator: "unknown" });
      expect(label(classify(ua, "/guide", "text/markdown"))).toBe("ai/assistant");
    }
  });

  it("keeps a known AI agent's own class on markdown", () => {
    const gptbot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
    expect(classify(gptbot, "/llms.txt")).toEqual({ class: "ai", category: "crawler", agent: "GPTBot", operator: "OpenAI" });
  });
});

describe("curated AI agent table", () => {
  const listedTags = (name: string) => crawlerUserAgents.find((entry) => entry.pattern === name) as { tags?: string[] } | undefined;

  it("wins over crawler-user-agents' tags", () => {
    // crawler-user-agents: ChatGPT-User is an `ai-crawler`, YouBot a plain `search-engine`, Amazonbot too.
    expect(listedTags("ChatGPT-User")?.tags).toContain("ai-crawler");
    expect(listedTags("YouBot")?.tags).toEqual(["search-engine"]);
    expect(listedTags("Amazonbot")?.tags).toEqual(["search-engine"]);
    const chatgpt = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
    expect(classify(chatgpt)).toEqual({ class: "ai", category: "assistant", agent: "ChatGPT-User", operator: "OpenAI" });
    expect(classify("YouBot (+http://www.you.com)")).toEqual({ class: "ai", category: "search", agent: "YouBot", operator: "You.com" });
  });

  it("uses the upstream lists (known-ai-agents.generated.ts) for agents it does not list", () => {
    const vertex = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-CloudVertexBot; +https://cloud.google.com/enterprise-search) Chrome/W.X.Y.Z Safari/537.36";
    expect(AI_AGENTS.some((agent) => agent.pattern.test(vertex))).toBe(false);
    // Matomo device-detector, first in precedence, calls it an AI data scraper.
    expect(classify(vertex)).toEqual({ class: "ai", category: "crawler", agent: "Google-CloudVertexBot", operator: "Google" });
  });

  it.each(AI_AGENTS.map((agent) => [agent.name, agent] as const))("%s: valid entry, proven by a fixture User-Agent", (_name, agent) => {
    expect(AI_CATEGORIES).toContain(agent.category);
    expect(agent.operator).not.toBe("");
    expect(agent.pattern.flags.replace("i", "")).toBe("");
    const matching = CASES.filter((c) => agent.pattern.test(c.ua));
    expect(matching.length, `no fixture User-Agent matches ${agent.pattern}`).toBeGreaterThan(0);
    // At least one of them is classed by this entry, so an earlier entry does not shadow it.
    expect(matching.map((c) => classify(c.ua))).toContainEqual({ class: "ai", category: agent.category, agent: agent.name, operator: agent.operator });
  });

  it("has unique names", () => {
    expect(new Set(AI_AGENTS.map((agent) => agent.name)).size).toBe(AI_AGENTS.length);
  });
});

describe("User-Agent cache", () => {
  it("does not change answers: the same User-Agent on different paths", () => {
    for (let round = 0; round < 2; round++) {
      expect(classify(CURL, "/guide")).toEqual({ class: "bot" });
      expect(label(classify(CURL, "/llms.txt"))).toBe("ai/assistant");
      expect(classify(CHROME, "/llms.txt")).toEqual({ class: "human" });
      expect(classify(GOOGLEBOT, "/llms.txt")).toEqual({ class: "bot" });
    }
  });

  it("answers the same for User-Agents too long to cache", () => {
    const long = `${CURL} ${"x".repeat(2_000)}`;
    for (let round = 0; round < 2; round++) {
      expect(classify(long, "/guide")).toEqual({ class: "bot" });
      expect(classify(long, "/llms.txt")).toEqual({ class: "ai", category: "assistant", agent: "markdown fetch (curl)", operator: "unknown" });
    }
  });

  it("keeps answering correctly once it starts evicting", () => {
    for (let i = 0; i < 10_050; i++) classify(`probe-client/${i}`, "/guide");
    expect(classify("probe-client/0", "/guide")).toEqual({ class: "bot" });
    expect(classify("probe-client/0", "/llms.txt")).toEqual({ class: "ai", category: "assistant", agent: "markdown fetch (probe-client)", operator: "unknown" });
    expect(classify(CHROME, "/guide")).toEqual({ class: "human" });
  });
});
