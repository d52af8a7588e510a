import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import crawlerUserAgents from "crawler-user-agents";
import { describe, expect, it } from "vitest";
import { AI_CATEGORIES, classifyHit } from "../../../../../src/app/analytics/classify/classify.js";
import { GENERATED_AI_AGENTS, NOT_COUNTED_AS_AI } from "../../../../../src/app/analytics/classify/known-ai-agents.generated.js";

const classify = (userAgent: string) => classifyHit({ userAgent, format: "html" });

type FixtureRow = string | { ua: string; expect?: string; agent?: string };
const fixture = JSON.parse(readFileSync(new URL("../../../../fixtures/user-agents.json", import.meta.url), "utf8")) as {
  groups: Record<string, { expect: string; rows: FixtureRow[] }>;
};
/** The real User-Agents of each AI agent the fixtures name, by agent. */
const realAiUserAgents = new Map<string, string[]>();
for (const group of Object.values(fixture.groups))
  for (const row of group.rows) {
    if (typeof row === "string" || row.agent === undefined || !(row.expect ?? group.expect).startsWith("ai/")) continue;
    realAiUserAgents.set(row.agent, [...(realAiUserAgents.get(row.agent) ?? []), row.ua]);
  }
const FROM_AI_ROBOTS_TXT = /^ai\.robots\.txt /;

describe("AI agents from upstream lists (npm run update:agents)", () => {
  it("the committed module is what the script makes of the installed packages and the snapshot", () => {
    // Exits 1 and names the module when a package update or snapshot change was not regenerated.
    expect(() => execFileSync(process.execPath, ["scripts/update-agents.mjs", "--check"], { stdio: "pipe" })).not.toThrow();
  });

  it("every entry compiles, names its agent, operator and sources, and has a known category", () => {
    expect(GENERATED_AI_AGENTS.length).toBeGreaterThan(150);
    for (const agent of GENERATED_AI_AGENTS) {
      expect(() => new RegExp(agent.pattern, agent.flags)).not.toThrow();
      expect(agent.name).not.toBe("");
      expect(agent.operator).not.toBe("");
      expect(AI_CATEGORIES).toContain(agent.category);
      expect(agent.knownTo).toContain(agent.from);
    }
  });

  it("counts long-tail agents only the community lists name", () => {
    expect(classify("Mozilla/5.0 (compatible; TavilyBot/1.0; +https://tavily.com/bot)")).toMatchObject({ class: "ai", agent: "TavilyBot" });
    expect(classify("Mozilla/5.0 (compatible; Kimi-User/1.0)")).toMatchObject({ class: "ai", category: "assistant" });
    expect(classify("Mozilla/5.0 (compatible; YandexAdditionalBot/1.0)")).toMatchObject({ class: "ai" });
  });

  it("fills a Matomo name's capture group from the User-Agent", () => {
    const templated = GENERATED_AI_AGENTS.find((agent) => agent.name.includes("$1"));
    expect(templated).toBeDefined();
    expect(classify("Mozilla/5.0 (compatible; Google-NotebookLM)")).toMatchObject({ class: "ai", agent: "Google-NotebookLM" });
  });

  it("leaves the contested cases to other bots, and says why", () => {
    for (const userAgent of [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "Scrapy/2.11.2 (+https://scrapy.org)",
      "Mozilla/5.0 (compatible; GoogleOther)",
    ]) {
      expect(classify(userAgent), userAgent).toEqual({ class: "bot" });
    }
    expect(NOT_COUNTED_AS_AI.map((entry) => entry.name)).toEqual(expect.arrayContaining(["Applebot", "facebookexternalhit", "Scrapy", "GoogleOther"]));
    for (const entry of NOT_COUNTED_AS_AI) expect(entry.reason).not.toBe("");
  });

  it("matches ai.robots.txt's tokens case-sensitively, as their operators publish them", () => {
    const tokens = GENERATED_AI_AGENTS.filter((agent) => FROM_AI_ROBOTS_TXT.test(agent.from));
    expect(tokens.length).toBeGreaterThan(100);
    for (const agent of tokens) expect(agent.flags, agent.name).toBe("");
  });

  it("every AI pattern matches its operator's real User-Agent in the fixtures", () => {
    const unmatched = GENERATED_AI_AGENTS.filter((agent) => realAiUserAgents.has(agent.name)).flatMap((agent) => {
      const pattern = new RegExp(agent.pattern, agent.flags);
      return realAiUserAgents.get(agent.name)?.some((ua) => pattern.test(ua)) ? [] : [`${agent.name} (${agent.from}): /${agent.pattern}/${agent.flags}`];
    });
    expect(realAiUserAgents.size).toBeGreaterThan(50);
    expect(unmatched).toEqual([]);
  });

  it("still counts every User-Agent crawler-user-agents records for its AI crawlers", () => {
    // The package's types leave out `tags`, which its data has.
    const missed = (crawlerUserAgents as { tags?: string[]; instances: string[] }[])
      .filter((entry) => entry.tags?.includes("ai-crawler"))
      .flatMap((entry) => entry.instances)
      .filter((ua) => classify(ua).class !== "ai");
    expect(missed).toEqual([]);
  });

  it("counts Exa's ExaBot as AI and Exalead's Exabot, a search crawler, as a bot", () => {
    expect(classify("Mozilla/5.0 (compatible; ExaBot/1.0; +https://exa.ai)")).toMatchObject({ class: "ai", agent: "ExaBot" });
    for (const userAgent of [
      "Mozilla/5.0 (compatible; Exabot/3.0; +http://www.exabot.com/go/robot)",
      "Mozilla/5.0 (compatible; Konqueror/3.5; Linux) KHTML/3.5.5 (like Gecko) (Exabot-Thumbnails)",
    ]) {
      expect(classify(userAgent), userAgent).toEqual({ class: "bot" });
    }
  });
});
