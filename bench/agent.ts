// npm run bench:agent — what the agent's prompts cost, printed:
//   1. a scripted 30-turn run on a 1,000-page repository through the real Anthropic provider
//      (@ai-sdk/anthropic) against a local Messages API that caches and bills as Anthropic
//      documents: billed input tokens with the run's cache breakpoints, and the same prompts
//      billed without caching — target with ≤ 25% of without;
//   2. a scripted 200-turn run with a small context budget: the largest prompt the provider
//      received, which must stay within the budget, and that the run finishes;
//   3. harness time per turn with a zero-latency model (tools, budget bookkeeping and cache
//      breakpoints included) — target ≤ 5 ms.
import { MockLanguageModelV3 } from "ai/test";
import { runAgentRound, userMessage, type AgentSession } from "../src/action/agent/agent-loop.js";
import { resolveModel } from "../src/action/agent/model.js";
import { buildSystemPrompt } from "../src/action/agent/prompt.js";
import { ChangeJournal, createDocsTools, type ToolStats } from "../src/action/agent/tools.js";
import { detectDocsProject } from "../src/action/docs/framework.js";
import { DocsWorkspace } from "../src/action/sandbox/workspace.js";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { benchDocsRepo, benchPagePath } from "./docs-repo.js";

const PAGES = 1_000;
const BUDGET_TURNS = Number(process.env.BENCH_BUDGET_TURNS ?? 200);
const BUDGET_TOKENS = Number(process.env.BENCH_BUDGET_TOKENS ?? 40_000);

type Call = { tool: string; input: Record<string, unknown> };
const page = (i: number) => benchPagePath(PAGES, i);
/** What a model does on a docs task: look around, read, search, edit; one tool call per turn. */
const callFor = (turn: number): Call =>
  [
    { tool: "list_files", input: { glob: `section-${turn % 20}/*.mdx` } },
    { tool: "search_text", input: { pattern: `option-${(turn * 11) % 300}\\b`, glob: "**/*.mdx" } },
    { tool: "read_file", input: { path: page(turn * 37) } },
    { tool: "read_file", input: { path: page(turn * 37 + 1) } },
    { tool: "edit_file", input: { path: page(turn * 37), find: "Paragraph 3 of", replace: `Paragraph 3 (revised ${turn}) of`, reason: "Clarify" } },
  ][turn % 5] as Call;

function newSession(system: string, budgetTokens?: number): AgentSession {
  return {
    system,
    messages: [userMessage("Revise the option descriptions across the guides and keep the navigation intact.")],
    turns: 0,
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 },
    calls: [],
    modelId: null,
    ...(budgetTokens ? { budget: { limitTokens: budgetTokens, measured: null } } : {}),
  };
}

function docsTools() {
  const repo = benchDocsRepo(PAGES);
  const project = detectDocsProject(repo);
  const stats: ToolStats = { calls: 0, failures: 0, totalMs: 0 };
  const tools = createDocsTools(new DocsWorkspace(repo, project.docsDir, undefined, project.navigationFiles), project, new ChangeJournal(), stats);
  return { tools, system: buildSystemPrompt(repo, project) };
}

async function scriptedRun(turns: number, budgetTokens?: number) {
  const { tools, system } = docsTools();
  const provider = await startFakeAnthropic((_request, call) => (call < turns ? { answer: callFor(call) } : { answer: { text: "Revised the option descriptions." } }));
  const model = resolveModel("anthropic/claude-sonnet-4-5", { apiKey: "sk-ant-bench", baseUrl: provider.url });
  const session = newSession(system, budgetTokens);
  const answer = await runAgentRound(session, { model, tools, caps: { maxTurns: turns + 1, maxOutputTokens: 1e9, requestTimeoutMs: 60_000 }, signal: new AbortController().signal });
  await provider.close();
  return { session, answer, calls: provider.calls, billed: provider.billedInputTokens() };
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

// 1. Caching.
const cached = await scriptedRun(30);
const uncachedBill = cached.calls.reduce((total, c) => total + c.promptTokens, 0);
const share = cached.billed / uncachedBill;
console.log(`30-turn run, ${cached.calls.length} model calls on ${PAGES} pages (Anthropic-style billing: cache writes 1.25×, reads 0.1× of input):`);
console.log(`  prompt tokens sent       ${fmt(uncachedBill)} (what is billed without caching)`);
console.log(
  `  billed with caching      ${fmt(cached.billed)} = ${fmt(cached.calls.reduce((t, c) => t + c.inputTokens, 0))} plain + 1.25 × ${fmt(cached.calls.reduce((t, c) => t + c.cacheWriteTokens, 0))} written + 0.1 × ${fmt(cached.calls.reduce((t, c) => t + c.cacheReadTokens, 0))} read`,
);
console.log(`  with / without           ${(share * 100).toFixed(1)}% — target ≤ 25%`);
console.log(`  reported by the run      input ${fmt(cached.session.usage.inputTokens)}, of which cached ${fmt(cached.session.usage.cachedInputTokens)}`);

// 2. The context budget over a long run.
const long = await scriptedRun(BUDGET_TURNS, BUDGET_TOKENS);
const largest = Math.max(...long.calls.map((c) => c.promptTokens));
const notes = long.session.notes ?? [];
console.log(`${BUDGET_TURNS}-turn run with a ${fmt(BUDGET_TOKENS)}-token context budget: ${long.calls.length} model calls, finished ("${long.answer}")`);
console.log(`  largest prompt sent      ${fmt(largest)} tokens — must be ≤ ${fmt(BUDGET_TOKENS)}${largest <= BUDGET_TOKENS ? "" : "  ✗ OVER BUDGET"}`);
console.log(`  elisions                 ${notes.length} (each a batch down to about 70% of the budget)`);
console.log(`  billed input             ${fmt(long.billed)} (without caching ${fmt(long.calls.reduce((t, c) => t + c.promptTokens, 0))})`);

// 3. Harness time per turn, the model taking no time.
const { tools, system } = docsTools();
let turn = 0;
const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const zeroLatency = new MockLanguageModelV3({
  doGenerate: async () => {
    const call = turn < BUDGET_TURNS ? callFor(turn) : null;
    turn++;
    if (!call) return { content: [{ type: "text", text: "Done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    return { content: [{ type: "tool-call", toolCallId: `c${turn}`, toolName: call.tool, input: JSON.stringify(call.input) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
  },
});
const session = newSession(system, BUDGET_TOKENS);
const started = performance.now();
await runAgentRound(session, { model: zeroLatency as never, tools, caps: { maxTurns: BUDGET_TURNS + 1, maxOutputTokens: 1e9, requestTimeoutMs: 60_000 }, signal: new AbortController().signal });
const perTurn = (performance.now() - started) / (BUDGET_TURNS + 1);
console.log(`harness per turn (zero-latency model, ${BUDGET_TURNS} tool calls, budget and cache breakpoints on): ${perTurn.toFixed(2)} ms — target ≤ 5 ms`);

if (share > 0.25 || largest > BUDGET_TOKENS || perTurn > 5) process.exitCode = 1;
