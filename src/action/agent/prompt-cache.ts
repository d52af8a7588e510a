import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { SharedV3ProviderOptions } from "@ai-sdk/provider";

/** Anthropic's cache breakpoint; other providers ignore options under another provider's name. */
const BREAKPOINT: SharedV3ProviderOptions = { anthropic: { cacheControl: { type: "ephemeral" } } };

/**
 * The request's prompt with cache breakpoints on its stable prefix (docs/architecture.md, "The
 * agent's prompt"): one after the system message (Anthropic caches tools, then system, then
 * messages, so this covers the tool definitions too), one on the newest message (this call writes
 * the conversation so far) and one on the message that was newest on the call before (this call
 * reads what that one wrote). Three of Anthropic's four. The session's own messages are never
 * changed: the breakpoints are on copies, so the bytes of the history stay the same between turns
 * and providers that cache prefixes by themselves (OpenAI) hit them too.
 */
export function withCacheBreakpoints(system: string, messages: LanguageModelV3Prompt, previousLength: number): LanguageModelV3Prompt {
  const marked = new Set([messages.length - 1, previousLength - 1].filter((index) => index >= 0 && index < messages.length));
  return [{ role: "system", content: system, providerOptions: BREAKPOINT }, ...messages.map((message, index) => (marked.has(index) ? withBreakpoint(message) : message))];
}

function withBreakpoint(message: LanguageModelV3Message): LanguageModelV3Message {
  return { ...message, providerOptions: { ...message.providerOptions, ...BREAKPOINT } } as LanguageModelV3Message;
}
