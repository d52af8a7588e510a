import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { ContextBudgetExceeded, estimateTokens, fitToBudget, promptChars, type BudgetState } from "../../../../src/action/agent/context-budget.js";

const page = (n: number, size = 3_000) => `# Page ${n}\n${"lorem ipsum ".repeat(size / 12)}`;

/** An instruction, then `reads` read_file calls and results, the last one re-reading the first file. */
function conversation(reads: number): LanguageModelV3Prompt {
  const messages: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Make every page say Node 20" }] }];
  for (let i = 0; i < reads; i++) {
    const path = i === reads - 1 ? "p0.mdx" : `p${i}.mdx`;
    messages.push({ role: "assistant", content: [{ type: "text", text: `Reading ${path}` }, { type: "tool-call", toolCallId: `c${i}`, toolName: "read_file", input: { path } }] });
    messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: `c${i}`, toolName: "read_file", output: { type: "text", value: page(i) } }] });
  }
  return messages;
}
const resultText = (messages: LanguageModelV3Prompt, callId: string) => {
  for (const m of messages) if (m.role === "tool") for (const p of m.content) if (p.type === "tool-result" && p.toolCallId === callId && p.output.type === "text") return p.output.value;
  return null;
};

describe("the context budget", () => {
  it("estimates from the provider's last count plus what was added since", () => {
    const state: BudgetState = { limitTokens: 10_000, measured: null };
    expect(estimateTokens(state, 3_000)).toBe(1_000);
    state.measured = { tokens: 5_000, chars: 20_000 };
    expect(estimateTokens(state, 23_000)).toBe(6_000);
  });

  it("leaves a conversation within budget untouched", () => {
    const messages = conversation(3);
    const before = JSON.stringify(messages);
    const { elision, chars } = fitToBudget({ limitTokens: 100_000, measured: null }, "system", [], messages);
    expect(elision).toBeNull();
    expect(chars).toBe(promptChars("system", [], messages));
    expect(JSON.stringify(messages)).toBe(before);
  });

  it("over budget: elides superseded results first, then the oldest, keeps the newest and every instruction and answer, and ends well under", () => {
    const messages = conversation(20);
    const state: BudgetState = { limitTokens: 16_000, measured: null };
    const { elision, chars } = fitToBudget(state, "system", [], messages);
    expect(elision).not.toBeNull();
    expect(elision!.tokensBefore).toBeGreaterThan(16_000);
    expect(elision!.tokensAfter).toBeLessThanOrEqual(16_000 * 0.7);
    expect(estimateTokens(state, chars)).toBe(elision!.tokensAfter);
    // p0.mdx was read again at the end: its first read went first.
    expect(resultText(messages, "c0")).toMatch(/^\[Elided for the context budget: read_file result, \d+ chars\. Call read_file again if needed\.\]$/);
    // The six newest results stay whole.
    for (let i = 14; i < 20; i++) expect(resultText(messages, `c${i}`)).toMatch(/^# Page/);
    // Oldest before newer: once one result is whole, every later one is too.
    const whole = Array.from({ length: 20 }, (_, i) => resultText(messages, `c${i}`)!.startsWith("# Page"));
    expect(whole.slice(whole.indexOf(true))).not.toContain(false);
    expect(messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "Make every page say Node 20" }] });
    expect(messages.filter((m) => m.role === "assistant").every((m) => m.content.some((p) => p.type === "text" && p.text.startsWith("Reading")))).toBe(true);
  });

  it("elides the long arguments of old calls too (a page the model wrote is in the file)", () => {
    const messages = conversation(1);
    for (let i = 0; i < 10; i++) {
      messages.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: `w${i}`, toolName: "write_file", input: { path: `w${i}.mdx`, content: page(i, 6_000), reason: "new page" } }] });
      messages.push({ role: "tool", content: [{ type: "tool-result", toolCallId: `w${i}`, toolName: "write_file", output: { type: "text", value: "Wrote it." } }] });
    }
    fitToBudget({ limitTokens: 16_000, measured: null }, "system", [], messages);
    const first = messages[3];
    expect(first?.role === "assistant" && first.content[0]?.type === "tool-call" ? first.content[0].input : null).toEqual({
      path: "w0.mdx",
      content: expect.stringMatching(/^\[Elided for the context budget: content sent, \d+ chars\. It is in the file now\.\]$/),
      reason: "new page",
    });
  });

  it("refuses to send what cannot fit even with everything old elided", () => {
    const messages = conversation(2);
    expect(() => fitToBudget({ limitTokens: 1_500, measured: null }, "system", [], messages)).toThrow(ContextBudgetExceeded);
  });
});
