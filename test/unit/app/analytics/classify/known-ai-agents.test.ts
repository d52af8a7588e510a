import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { AI_CATEGORIES, classifyHit } from "../../../../../src/app/analytics/classify/classify.js";
import { GENERATED_AI_AGENTS, NOT_COUNTED_AS_AI } from "../../../../../src/app/analytics/classify/known-ai-agents.generated.js";

const classify = (userAgent: string) => classifyHit({ userAgent, format: "html" });

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
});
