import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { withCacheBreakpoints } from "../../../../src/action/agent/prompt-cache.js";

const BREAKPOINT = { anthropic: { cacheControl: { type: "ephemeral" } } };
const conversation = (): LanguageModelV3Prompt => [
  { role: "user", content: [{ type: "text", text: "Fix the quickstart" }] },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "1", toolName: "read_file", input: { path: "a.mdx" } }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: "1", toolName: "read_file", output: { type: "text", value: "# A" } }] },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "2", toolName: "read_file", input: { path: "b.mdx" } }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: "2", toolName: "read_file", output: { type: "text", value: "# B" } }] },
];

describe("cache breakpoints", () => {
  it("mark the system prompt, the newest message, and the newest of the call before (where this call reads)", () => {
    const messages = conversation();
    const prompt = withCacheBreakpoints("You edit docs.", messages, 3);
    expect(prompt[0]).toEqual({ role: "system", content: "You edit docs.", providerOptions: BREAKPOINT });
    const marked = prompt.slice(1).flatMap((message, index) => (message.providerOptions ? [index] : []));
    expect(marked).toEqual([2, 4]);
  });

  it("never change the conversation itself, so its bytes stay the same from turn to turn", () => {
    const messages = conversation();
    const before = JSON.stringify(messages);
    withCacheBreakpoints("s", messages, 3);
    expect(JSON.stringify(messages)).toBe(before);
    // The unmarked messages are the session's own objects: nothing is copied that need not be.
    expect(withCacheBreakpoints("s", messages, 3)[1]).toBe(messages[0]);
  });

  it("on the first call mark only the newest message", () => {
    const prompt = withCacheBreakpoints("s", conversation().slice(0, 1), 0);
    expect(prompt.map((m) => Boolean(m.providerOptions))).toEqual([true, true]);
  });
});
