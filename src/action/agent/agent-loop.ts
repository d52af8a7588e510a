import type { JSONSchema7, LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3Message, LanguageModelV3Prompt, LanguageModelV3ToolResultPart } from "@ai-sdk/provider";
import { APICallError } from "ai";
import { z } from "zod";
import { describeIssues } from "../../shared/zod-issues.js";
import { ContextBudgetExceeded, fitToBudget, type BudgetState } from "./context-budget.js";
import { withCacheBreakpoints } from "./prompt-cache.js";

export interface AgentCaps {
  /** Model calls in the whole run (all repair rounds included). */
  maxTurns: number;
  /** Output tokens in the whole run; each call may use at most what is left. */
  maxOutputTokens: number;
  /** Longest a single model request may take before it is abandoned and retried. */
  requestTimeoutMs: number;
}

export interface RetryPolicy {
  /** Tries per model call, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 2_000, maxDelayMs: 60_000 };
const MAX_OUTPUT_TOKENS_PER_CALL = 16_384;

/** The conversation and what it has cost so far; kept across repair rounds. */
export interface AgentSession {
  system: string;
  /** The provider-level prompt after the system message, built once and appended to: never re-validated per turn. */
  messages: LanguageModelV3Prompt;
  turns: number;
  /** `inputTokens` counts every prompt token, `cachedInputTokens` those read from the provider's cache. */
  usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number };
  /** Each model call's tokens, in order (prices can depend on one call's size); cache writes cost more than plain input. */
  calls: { inputTokens: number; cachedInputTokens: number; cacheWriteInputTokens?: number; outputTokens: number }[];
  /** The model id the provider says answered (it may differ from the one asked for). */
  modelId: string | null;
  /** The prompt's token budget; none: no limit but the provider's. */
  budget?: BudgetState;
  /** What the harness did to the conversation (eliding for the budget), placed before the message at `at`, for the transcript. */
  notes?: { at: number; text: string }[];
  /** How many messages the previous request carried: its last one is where this request reads the cache. */
  sentMessages?: number;
}

export type StopReason = "max-turns" | "max-output-tokens" | "context-budget" | "timeout" | "cancelled";

/** The run hit one of its hard caps, or was stopped from outside. */
export class AgentStopped extends Error {
  constructor(
    readonly reason: StopReason,
    message: string,
  ) {
    super(message);
  }
}

/** The model provider kept failing (after retries, when retrying made sense). */
export class ModelProviderError extends Error {}

/** A tool the agent may call: a zod input schema and what it does; the answer is text for the model. */
export interface AgentTool {
  description: string;
  inputSchema: z.ZodType;
  execute: (input: never) => Promise<string>;
}
export type AgentTools = Record<string, AgentTool>;

export interface AgentRoundOptions {
  model: LanguageModelV3;
  tools: AgentTools;
  caps: AgentCaps;
  /** Aborted when the run must stop: its reason is a StopReason. */
  signal: AbortSignal;
  retry?: RetryPolicy;
  onTurn?: (session: AgentSession) => void;
  /** Checked after each turn's tools ran: true ends the round there (the agent submitted a plan or asked a question). */
  stopAfterTools?: () => boolean;
}

export const userMessage = (text: string): LanguageModelV3Message => ({ role: "user", content: [{ type: "text", text }] });

const definitions = new WeakMap<AgentTools, LanguageModelV3FunctionTool[]>();
function toolDefinitions(tools: AgentTools): LanguageModelV3FunctionTool[] {
  let list = definitions.get(tools);
  if (!list) {
    list = Object.entries(tools).map(([name, t]) => ({ type: "function", name, description: t.description, inputSchema: z.toJSONSchema(t.inputSchema, { io: "input" }) as JSONSchema7 }));
    definitions.set(tools, list);
  }
  return list;
}

/**
 * Lets the model work until it answers without calling a tool, one model call per turn, and
 * returns that answer. It talks to the AI SDK provider directly (the same providers generateText
 * uses) and keeps the prompt in the provider's format, so a turn costs the new messages only, not a
 * re-validation of the whole history. Caps are checked before every call, so a model that never stops is stopped.
 */
export async function runAgentRound(session: AgentSession, options: AgentRoundOptions): Promise<string> {
  const tools = toolDefinitions(options.tools);
  for (;;) {
    throwIfStopped(options.signal);
    if (session.turns >= options.caps.maxTurns) {
      throw new AgentStopped("max-turns", `the agent did not finish within max-turns (${options.caps.maxTurns} model calls)`);
    }
    const remaining = options.caps.maxOutputTokens - session.usage.outputTokens;
    if (remaining <= 0) {
      throw new AgentStopped("max-output-tokens", `the agent used its whole output budget (max-output-tokens ${options.caps.maxOutputTokens}) before finishing`);
    }
    const sentChars = keepWithinBudget(session, tools);
    const prompt = withCacheBreakpoints(session.system, session.messages, session.sentMessages ?? 0);
    session.sentMessages = session.messages.length;
    const result = await withRetries(options, () =>
      withDeadline(options.signal, options.caps.requestTimeoutMs, (abortSignal) =>
        options.model.doGenerate({
          prompt,
          tools,
          toolChoice: { type: "auto" },
          maxOutputTokens: Math.min(remaining, MAX_OUTPUT_TOKENS_PER_CALL),
          abortSignal,
        }),
      ),
    );
    session.turns++;
    const input = result.usage.inputTokens;
    const call = { inputTokens: input.total ?? 0, cachedInputTokens: input.cacheRead ?? 0, cacheWriteInputTokens: input.cacheWrite ?? 0, outputTokens: result.usage.outputTokens.total ?? 0 };
    if (session.budget && call.inputTokens > 0) session.budget.measured = { tokens: call.inputTokens, chars: sentChars };
    session.calls.push(call);
    session.usage.inputTokens += call.inputTokens;
    session.usage.cachedInputTokens += call.cachedInputTokens;
    session.usage.outputTokens += call.outputTokens;
    session.modelId = result.response?.modelId || session.modelId;

    const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    const calls = result.content.filter((part) => part.type === "tool-call");
    const assistant: LanguageModelV3Message = { role: "assistant", content: [] };
    if (text) assistant.content.push({ type: "text", text });
    for (const call of calls) assistant.content.push({ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: parseJson(call.input) });
    session.messages.push(assistant);
    options.onTurn?.(session);
    if (calls.length === 0) return text.trim();

    const results: LanguageModelV3ToolResultPart[] = [];
    for (const call of calls) {
      results.push({ type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: { type: "text", value: await runTool(options.tools, call.toolName, call.input) } });
    }
    session.messages.push({ role: "tool", content: results });
    if (options.stopAfterTools?.()) return text.trim();
  }
}

/** Elides old tool results when the next request would be over the budget (saying so for the transcript); returns the prompt's size in characters. */
function keepWithinBudget(session: AgentSession, tools: LanguageModelV3FunctionTool[]): number {
  if (!session.budget) return 0;
  try {
    const { chars, elision } = fitToBudget(session.budget, session.system, tools, session.messages);
    if (elision) {
      (session.notes ??= []).push({
        at: session.messages.length,
        text: `Elided ${elision.results} old tool result(s) and argument(s): the prompt would have been about ${elision.tokensBefore} tokens, over the ${session.budget.limitTokens}-token context budget; it is about ${elision.tokensAfter} now.`,
      });
    }
    return chars;
  } catch (error) {
    if (error instanceof ContextBudgetExceeded) throw new AgentStopped("context-budget", error.message);
    throw error;
  }
}

async function runTool(tools: AgentTools, name: string, rawInput: string): Promise<string> {
  const tool = tools[name];
  if (!tool) return `Error: there is no tool named ${name}; use one of ${Object.keys(tools).join(", ")}`;
  const parsed = tool.inputSchema.safeParse(parseJson(rawInput));
  if (!parsed.success) return `Error: invalid input for ${name}: ${describeIssues(parsed.error, "input")}`;
  return tool.execute(parsed.data as never);
}

function parseJson(text: string): unknown {
  try {
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}

/** Throws AgentStopped when the run was stopped from outside (timeout, or the job no longer wants it). */
export function throwIfStopped(signal: AbortSignal): void {
  if (!signal.aborted) return;
  const reason = signal.reason as StopReason;
  throw new AgentStopped(reason, reason === "timeout" ? "the run reached its timeout-minutes" : "the job no longer wants this run (it was cancelled, archived or taken over)");
}

/**
 * Runs `call` with a signal that aborts when `signal` does or after `ms` (a TimeoutError, as
 * AbortSignal.timeout gives). A timer, not AbortSignal.timeout inside AbortSignal.any: that
 * timeout signal can be garbage-collected before it fires, and then a hung request never ends.
 */
async function withDeadline<T>(signal: AbortSignal, ms: number, call: (signal: AbortSignal) => PromiseLike<T>): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), ms);
  try {
    return await call(AbortSignal.any([signal, deadline.signal]));
  } finally {
    clearTimeout(timer);
  }
}

async function withRetries<T>(options: AgentRoundOptions, call: () => Promise<T>): Promise<T> {
  const policy = options.retry ?? DEFAULT_RETRY;
  let lastError: unknown;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    try {
      return await call();
    } catch (error) {
      throwIfStopped(options.signal);
      lastError = error;
      if (!isRetryable(error) || attempt === policy.attempts) break;
      await sleep(retryDelay(error, attempt, policy), options.signal);
    }
  }
  throw new ModelProviderError(`the model provider failed${policy.attempts > 1 && isRetryable(lastError) ? ` after ${policy.attempts} attempts` : ""}: ${describe(lastError)}`);
}

function isRetryable(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.isRetryable;
  const name = (error as { name?: string } | null)?.name;
  return name === "TimeoutError" || name === "AbortError" || error instanceof TypeError;
}

function retryDelay(error: unknown, attempt: number, policy: RetryPolicy): number {
  const header = APICallError.isInstance(error) ? error.responseHeaders?.["retry-after"] : undefined;
  const seconds = header !== undefined ? Number(header) : Number.NaN;
  const asked = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1_000 : policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(asked, policy.maxDelayMs);
}

function describe(error: unknown): string {
  if (APICallError.isInstance(error)) return `${error.statusCode ?? "no status"} ${error.message}`.trim();
  const name = (error as { name?: string } | null)?.name;
  if (name === "TimeoutError" || name === "AbortError") return "the request timed out";
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
