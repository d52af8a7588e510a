import type { LanguageModelV3FunctionTool, LanguageModelV3Prompt, LanguageModelV3ToolCallPart, LanguageModelV3ToolResultPart } from "@ai-sdk/provider";

/**
 * Characters per token when nothing better is known. Deliberately low (real prose and code run at
 * about 3.5 to 4.5), so an estimate errs towards eliding early rather than sending too much.
 */
const CHARS_PER_TOKEN = 3;
/** Eliding stops once the prompt is this share of the budget: a batch at a time, so the cached prefix breaks rarely. */
const ELIDE_DOWN_TO = 0.7;
/** The newest tool results always stay whole: the model is working with them. */
const KEEP_RECENT_RESULTS = 6;
/** A result shorter than this costs less than the stub that would replace it. */
const MIN_ELIDED_CHARS = 600;

/** Without a known context window, a budget most current models take (GPT-4o's is 128k, Claude's 200k). */
const DEFAULT_BUDGET_TOKENS = 100_000;

/** The `context-budget` input, else 80% of the model's context window (the rest is room for the answer), else the default. */
export const budgetTokens = (configured: number | null, contextWindow: number | null | undefined) =>
  configured ?? (contextWindow ? Math.floor(contextWindow * 0.8) : DEFAULT_BUDGET_TOKENS);

export interface BudgetState {
  /** Most prompt tokens a request may carry. */
  limitTokens: number;
  /** The last request's prompt as the provider counted it, and its size in characters then. */
  measured: { tokens: number; chars: number } | null;
}

export interface Elision {
  results: number;
  charsBefore: number;
  tokensBefore: number;
  tokensAfter: number;
}

export class ContextBudgetExceeded extends Error {}

/** Sizes of parts already measured: a turn measures only what is new (or was just elided). */
const measuredChars = new WeakMap<object, number>();
function partChars(part: object): number {
  let chars = measuredChars.get(part);
  if (chars === undefined) {
    chars = JSON.stringify(part).length;
    measuredChars.set(part, chars);
  }
  return chars;
}
const remeasure = (part: object) => {
  measuredChars.delete(part);
  return partChars(part);
};

/** The prompt's size in characters: the system message, the tool definitions and every message. */
export function promptChars(system: string, tools: LanguageModelV3FunctionTool[], messages: LanguageModelV3Prompt): number {
  let chars = system.length + partChars(tools);
  for (const message of messages) {
    if (typeof message.content === "string") chars += message.content.length;
    else for (const part of message.content) chars += partChars(part);
  }
  return chars;
}

/** Tokens the next request would carry: the provider's count for the last one, plus an estimate for what was added since. */
export function estimateTokens(state: BudgetState, chars: number): number {
  if (!state.measured) return Math.ceil(chars / CHARS_PER_TOKEN);
  return state.measured.tokens + Math.ceil(Math.max(0, chars - state.measured.chars) / CHARS_PER_TOKEN);
}

/**
 * Keeps the next request within the budget: when it would be over, old tool results are replaced
 * by a short stub naming the tool and saying it can be called again, results that a later
 * identical call superseded first, then the oldest; the newest results, every instruction and
 * every answer of the model stay. Returns what was elided (null when nothing needed to be), and
 * throws when even that is not enough: the run never sends a prompt over its budget.
 */
export function fitToBudget(state: BudgetState, system: string, tools: LanguageModelV3FunctionTool[], messages: LanguageModelV3Prompt): { chars: number; elision: Elision | null } {
  const charsBefore = promptChars(system, tools, messages);
  const tokensBefore = estimateTokens(state, charsBefore);
  if (tokensBefore <= state.limitTokens) return { chars: charsBefore, elision: null };
  const target = Math.floor(state.limitTokens * ELIDE_DOWN_TO);
  let chars = charsBefore;
  let results = 0;
  for (const item of elisionOrder(messages)) {
    if (estimateTokens(state, chars) <= target) break;
    chars -= item.elide();
    results++;
  }
  // The measured count covered what was just elided: scale it by what is left.
  if (state.measured && results > 0) state.measured = { tokens: Math.ceil((state.measured.tokens * chars) / charsBefore), chars };
  const tokensAfter = estimateTokens(state, chars);
  if (tokensAfter > state.limitTokens) {
    throw new ContextBudgetExceeded(
      `the conversation needs about ${tokensAfter} prompt tokens even with every old tool result elided, over its context budget of ${state.limitTokens} (the context-budget input)`,
    );
  }
  return { chars, elision: { results, charsBefore, tokensBefore, tokensAfter } };
}

const ELIDED = "[Elided";
/** Short on purpose: a long run can hold hundreds of them. */
const stub = (what: string, chars: number, again: string) => `${ELIDED} for the context budget: ${what}, ${chars} chars. ${again}]`;
const outputText = (part: LanguageModelV3ToolResultPart) => (part.output.type === "text" || part.output.type === "error-text" ? part.output.value : JSON.stringify(part.output));

/** Something old in the conversation that may be replaced by a stub; `elide` does it and returns the characters saved. */
interface Elidable {
  elide(): number;
}

/**
 * What may be elided, in the order it should go: tool results older than the newest few (those a
 * later identical call superseded first, then the oldest), then the long text arguments of calls
 * already answered, oldest first (a page the model wrote is in the file now). Instructions and
 * the model's own words never go.
 */
function elisionOrder(messages: LanguageModelV3Prompt): Elidable[] {
  const callKey = new Map<string, string>();
  const results: LanguageModelV3ToolResultPart[] = [];
  const calls: LanguageModelV3ToolCallPart[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type !== "tool-call") continue;
        callKey.set(part.toolCallId, `${part.toolName} ${JSON.stringify(part.input)}`);
        calls.push(part);
      }
    } else if (message.role === "tool") {
      for (const part of message.content) if (part.type === "tool-result") results.push(part);
    }
  }
  const old = results.slice(0, Math.max(0, results.length - KEEP_RECENT_RESULTS));
  const lastIndexOf = new Map<string, number>();
  results.forEach((part, index) => lastIndexOf.set(callKey.get(part.toolCallId) ?? part.toolCallId, index));
  const candidates = old
    .map((part, index) => ({ part, index, text: outputText(part) }))
    .filter(({ text }) => text.length >= MIN_ELIDED_CHARS && !text.startsWith(ELIDED));
  const superseded = ({ part, index }: { part: LanguageModelV3ToolResultPart; index: number }) => lastIndexOf.get(callKey.get(part.toolCallId) ?? part.toolCallId) !== index;
  const resultItems = [...candidates.filter(superseded), ...candidates.filter((c) => !superseded(c))].map(({ part, text }) => ({
    elide() {
      const before = partChars(part);
      part.output = { type: "text", value: stub(`${part.toolName} result`, text.length, `Call ${part.toolName} again if needed.`) };
      return before - remeasure(part);
    },
  }));
  // An argument has done its work once its call has a result, however recent: the model wrote it.
  const answered = new Set(results.map((part) => part.toolCallId));
  const callItems = calls
    .filter((call) => answered.has(call.toolCallId))
    .flatMap((call) => {
      const input = call.input as Record<string, unknown> | null;
      if (typeof input !== "object" || input === null) return [];
      const long = Object.entries(input).filter(([, value]) => typeof value === "string" && value.length >= MIN_ELIDED_CHARS && !value.startsWith(ELIDED));
      return long.length === 0
        ? []
        : [
            {
              elide() {
                const before = partChars(call);
                const copy = { ...input };
                for (const [key, value] of long) copy[key] = stub(`${key} sent`, (value as string).length, "It is in the file now.");
                call.input = copy;
                return before - remeasure(call);
              },
            },
          ];
    });
  return [...resultItems, ...callItems];
}
