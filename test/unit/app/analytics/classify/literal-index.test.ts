import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GENERATED_AI_AGENTS, LISTED_BOTS, NON_AI_BOTS } from "../../../../../src/app/analytics/classify/known-ai-agents.generated.js";
import { LiteralIndex, type IndexedPattern } from "../../../../../src/app/analytics/classify/literal-index.js";

const fixture = JSON.parse(readFileSync(new URL("../../../../fixtures/user-agents.json", import.meta.url), "utf8")) as {
  groups: Record<string, { rows: (string | { ua: string })[] }>;
};
const FIXTURE_UAS = Object.values(fixture.groups).flatMap((group) => group.rows.map((row) => (typeof row === "string" ? row : row.ua)));

// The three lists classify.ts puts behind one index: a literal many lists share must find each list's patterns.
const LISTS = { aiAgents: GENERATED_AI_AGENTS, matomoBots: LISTED_BOTS, nonAiCrawlers: NON_AI_BOTS };
const INDEX = new LiteralIndex(LISTS);

/** What the index must agree with: every pattern tried in order. */
const bruteForce = (patterns: readonly IndexedPattern[], text: string) => patterns.find((p) => new RegExp(p.pattern, p.flags).test(text));

// Pieces of real agent names, in any case, glued with characters that trip up scanners: combining
// marks, dotless i, long s, Kelvin sign, emoji, CR LF, NUL.
const NAMES = [...GENERATED_AI_AGENTS.map((agent) => agent.name), "Googlebot/2.1", "bingbot", "AhrefsBot", "Miniature.io", "360JK yunjiankong", "httpx", "Mozilla/5.0 (compatible; ", "Chrome/131.0"];
const piece = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...NAMES).chain((name) => fc.tuple(fc.nat(name.length), fc.nat(name.length)).map(([a, b]) => name.slice(Math.min(a, b), Math.max(a, b) + 1))),
  fc.constantFrom("\u0301", "ı", "ſ", "\u212a", "😀", "\r\n", "\u0000", " ", "/", ";", "İ", "ß"),
  fc.string({ maxLength: 4 }),
);
const userAgent = fc.array(piece, { maxLength: 12 }).chain((pieces) =>
  fc.array(fc.boolean(), { minLength: pieces.length, maxLength: pieces.length }).map((upper) => pieces.map((p, i) => (upper[i] ? p.toUpperCase() : p)).join("")),
);

describe("literal index: runs only the patterns whose literal occurs, and finds what trying them all finds", () => {
  for (const [name, patterns] of Object.entries(LISTS) as [keyof typeof LISTS, readonly IndexedPattern[]][]) {
    it(`${name}: every fixture User-Agent`, () => {
      for (const ua of FIXTURE_UAS) expect(INDEX.scan(ua).first(name)?.entry, ua).toBe(bruteForce(patterns, ua));
    });

    it(`${name}: generated names in any case, among combining marks, case-folding oddities and emoji`, () => {
      fc.assert(
        fc.property(userAgent, (ua) => INDEX.scan(ua).first(name)?.entry === bruteForce(patterns, ua)),
        { numRuns: 500 },
      );
    });
  }

  it("a pattern without a usable literal is always run, in its own list only", () => {
    const index = new LiteralIndex({
      first: [
        { value: "indexed", pattern: "GPTBot", flags: "", literals: ["gptbot"] },
        { value: "always", pattern: "b.t", flags: "", literals: null },
      ],
      second: [{ value: "other", pattern: "GPTBot", flags: "i", literals: ["gptbot"] }],
    });
    expect(index.scan("a bat").first("first")?.entry.value).toBe("always");
    expect(index.scan("a bat").first("second")).toBeUndefined();
    const both = index.scan("GPTBot bit");
    expect(both.first("first")?.entry.value).toBe("indexed");
    expect(both.first("second")?.entry.value).toBe("other");
    expect(() => both.first("third" as "first")).toThrow(/no pattern list third/);
  });
});
