// npm run bench:action — the Action's own costs, printed:
//   1. bundle size of dist/index.js;
//   2. cold start: from spawning `node dist/index.js` (as GitHub's runner does) to the first model
//      request, against the real Inkwell service (claim with an OIDC token), real git on a bare remote;
//   3. harness time per tool call on a 1,000-page Mintlify repo, excluding the model: the tools alone,
//      and the whole AI SDK loop (tool-call parsing, input validation, history) with a zero-latency model.
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { MockLanguageModelV3 } from "ai/test";
import { runAgentRound, userMessage, type AgentSession } from "../src/action/agent/agent-loop.js";
import { ChangeJournal, createDocsTools, type ToolStats } from "../src/action/agent/tools.js";
import { detectDocsProject } from "../src/action/docs/framework.js";
import { DocsWorkspace } from "../src/action/sandbox/workspace.js";
import { runGate } from "../src/action/validation/gate.js";
import { checkout, startActionHarness } from "../test/helpers/action-harness.js";
import { steps } from "../test/helpers/fake-model.js";
import { benchDocsRepo, benchPagePath } from "./docs-repo.js";
import { percentile } from "./percentile.js";

const BUNDLE = path.resolve("dist/index.js");
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);
const PAGES = 1_000;
const TOOL_ROUNDS = Number(process.env.BENCH_TOOL_ROUNDS ?? 50);

const ms = (value: number) => `${value.toFixed(2)} ms`;

// 1. Bundle size.
const bundle = readFileSync(BUNDLE);
console.log(`bundle: dist/index.js ${(bundle.length / 1024 / 1024).toFixed(2)} MB (${bundle.length} bytes; gzip ${(gzipSync(bundle).length / 1024 / 1024).toFixed(2)} MB) — target ≤ 3 MB`);

// 2. Cold start.
const h = await startActionHarness("mintlify", steps({ text: "Nothing to change" }));
const coldStarts: number[] = [];
for (let i = 0; i < COLD_RUNS; i++) {
  h.model.setScript(steps({ text: "Nothing to change" }));
  const dispatched = await h.createJob(`Cold start ${i}`);
  const { env } = h.bundleEnv(dispatched, checkout(h.remote));
  const started = performance.now();
  const child = spawn(process.execPath, [BUNDLE], { env, stdio: "ignore" });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0 || h.model.arrivals.length === 0) throw new Error(`run ${i} failed (exit ${code})`);
  coldStarts.push((h.model.arrivals[0] as number) - started);
}
await h.close();
console.log(
  `cold start (spawn → first model request, ${COLD_RUNS} runs; includes OIDC token, claim, git fetch/checkout, docs detection): ` +
    `p50 ${ms(percentile(coldStarts, 50))}, min ${ms(Math.min(...coldStarts))}, max ${ms(Math.max(...coldStarts))} — target ≤ 500 ms`,
);

// 3. A 1,000-page docs repository.
const repo = benchDocsRepo(PAGES);
const project = detectDocsProject(repo);
const workspace = new DocsWorkspace(repo, project.docsDir, undefined, project.navigationFiles);
const stats: ToolStats = { calls: 0, failures: 0, totalMs: 0 };
const tools = createDocsTools(workspace, project, new ChangeJournal(), stats);

type Call = { name: string; args: Record<string, unknown> };
const pagePath = (i: number) => benchPagePath(PAGES, i);
const mix = (round: number): Call[] => [
  { name: "list_files", args: { glob: `section-${round % 20}/*.mdx` } },
  { name: "search_text", args: { pattern: `option-${round % 300}\\b`, glob: "**/*.mdx" } },
  { name: "read_file", args: { path: pagePath(round * 37) } },
  { name: "read_file", args: { path: pagePath(round * 37 + 1), startLine: 5, endLine: 25 } },
  { name: "edit_file", args: { path: pagePath(round * 37), find: "Paragraph 3 of", replace: `Paragraph 3 (edited ${round}) of`, reason: "bench" } },
  { name: "write_file", args: { path: `new/page-${round}.mdx`, content: `---\ntitle: New ${round}\n---\n\nNew page.\n`, reason: "bench" } },
];

// 3a. The tools alone (what the harness does per call, no SDK, no model).
const perTool = new Map<string, number[]>();
const coldSearchStarted = performance.now();
await tools.search_text!.execute({ pattern: "never-matches-anything" } as never);
const coldSearch = performance.now() - coldSearchStarted;
for (let round = 0; round < TOOL_ROUNDS; round++) {
  for (const call of mix(round)) {
    const started = performance.now();
    const result = await tools[call.name]!.execute(call.args as never);
    const took = performance.now() - started;
    if (result.startsWith("Error:")) throw new Error(`${call.name}: ${result}`);
    perTool.set(call.name, [...(perTool.get(call.name) ?? []), took]);
  }
}
const allTools = [...perTool.values()].flat();
console.log(`tools on ${PAGES} pages (${allTools.length} calls; first search reads every page: ${ms(coldSearch)}):`);
for (const [name, values] of perTool) console.log(`  ${name.padEnd(12)} p50 ${ms(percentile(values, 50))}  p95 ${ms(percentile(values, 95))}`);
console.log(`  all          mean ${ms(allTools.reduce((a, b) => a + b, 0) / allTools.length)}  p95 ${ms(percentile(allTools, 95))}`);

// 3b. The whole loop with a zero-latency model: one tool call per turn, history growing as in a real run.
const script = Array.from({ length: TOOL_ROUNDS }, (_, round) => mix(round + TOOL_ROUNDS)).flat();
let turn = 0;
const model = new MockLanguageModelV3({
  doGenerate: async () => {
    const call = script[turn++];
    const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
    if (!call) return { content: [{ type: "text", text: "Done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    return { content: [{ type: "tool-call", toolCallId: `c${turn}`, toolName: call.name, input: JSON.stringify(call.args) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
  },
});
const session: AgentSession = { system: "bench", messages: [userMessage("go")], turns: 0, usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 }, calls: [], modelId: null };
const loopStarted = performance.now();
await runAgentRound(session, { model: model as never, tools, caps: { maxTurns: script.length + 1, maxOutputTokens: 1e9, requestTimeoutMs: 60_000 }, signal: new AbortController().signal });
const loopMs = performance.now() - loopStarted;
console.log(`agent loop with a zero-latency model: ${script.length} tool calls in ${ms(loopMs)} → ${ms(loopMs / script.length)} per tool call (AI SDK + tools + history) — target ≤ 5 ms`);

// For scale: the validation gate over the changes above.
const gateStarted = performance.now();
const changed = workspace.changedPaths();
const gate = await runGate({ repoRoot: repo, project, changedThisRun: changed, branchChanges: changed.filter((f) => f.startsWith("new/")).map((f) => ({ path: f, status: "added" as const })) });
console.log(`validation gate: ${changed.length} changed pages checked in ${ms(performance.now() - gateStarted)} (${gate.problems.length} problems, as expected for pages not added to navigation)`);
console.log(`(repo ${repo}: ${statSync(path.join(repo, "docs.json")).size} bytes of navigation)`);
