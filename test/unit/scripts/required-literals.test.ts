import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requiredLiterals } from "../../../scripts/required-literals.mjs";

describe("required literals of a pattern", () => {
  it.each([
    ["\\bGPTBot\\b", "i", ["gptbot"]],
    ["PerplexityBot\\/", "", ["perplexitybot/"]],
    ["(?:^|[^A-Z0-9_-])(?:ClaudeBot|Anthropic-Claude)", "i", ["claudebot", "anthropic-claude"]],
    ["[cC]laude[bB]ot", "", ["laude"]],
    ["^openai/", "i", ["openai/"]],
    ["(?<! channel/|google/)google(?!(?:wv|app))", "i", ["google"]],
    ["Bot(?:x)?yz", "", ["bot"]],
    ["x{2}Fetcher+", "", ["fetche"]],
  ])("%s (%s) → %j", (source, flags, expected) => {
    expect(requiredLiterals(source, flags)).toEqual(expected);
  });

  it.each([["a.b"], ["(?:ab|c)"], ["(?:Bot)?"], ["[a-z]+"], ["\\w+/\\d"]])("%s has none of three characters", (source) => {
    expect(requiredLiterals(source)).toBeNull();
  });

  it("every match of a generated pattern contains one of its literals", () => {
    // Patterns assembled from literal words, optional parts, alternatives and classes; strings
    // drawn around them; whenever the pattern matches, a literal must occur in the folded string.
    const word = fc.constantFrom("bot", "crawl", "GPT", "claude", "spider", "x", "-", "/");
    const part = fc.oneof(word, word.map((w) => `(?:${w})?`), fc.tuple(word, word).map(([a, b]) => `(?:${a}|${b})`), fc.constant("[a-z]"), fc.constant("\\b"));
    const pattern = fc.array(part, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(""));
    const text = fc.array(fc.constantFrom("bot", "crawl", "gpt", "CLAUDE", "spider", "x", "-", "/", " ", "é", "a"), { maxLength: 8 }).map((pieces) => pieces.join(""));
    fc.assert(
      fc.property(pattern, text, fc.boolean(), (source, subject, caseless) => {
        const flags = caseless ? "i" : "";
        const literals = requiredLiterals(source, flags);
        if (literals === null || !new RegExp(source, flags).test(subject)) return true;
        return literals.some((literal) => subject.toLowerCase().includes(literal));
      }),
      { numRuns: 2_000 },
    );
  });
});
