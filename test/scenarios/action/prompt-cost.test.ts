import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runAgentRound, userMessage, type AgentSession } from "../../../src/action/agent/agent-loop.js";
import { resolveModel } from "../../../src/action/agent/model.js";
import { ChangeJournal, createDocsTools } from "../../../src/action/agent/tools.js";
import { transcriptOf } from "../../../src/action/agent/transcript.js";
import { detectDocsProject } from "../../../src/action/docs/framework.js";
import { DocsWorkspace } from "../../../src/action/sandbox/workspace.js";
import { startFakeAnthropic } from "../../helpers/fake-anthropic.js";

/** A small Mintlify repository whose pages are long enough to matter. */
function docsRepo(pages: number) {
  const repo = mkdtempSync(path.join(tmpdir(), "inkwell-cost-"));
  mkdirSync(path.join(repo, "guides"));
  for (let i = 0; i < pages; i++) writeFileSync(path.join(repo, "guides", `p${i}.mdx`), `---\ntitle: Page ${i}\n---\n\n${`Paragraph about option-${i} and how to set it up. `.repeat(40)}\n`);
  writeFileSync(path.join(repo, "docs.json"), JSON.stringify({ name: "Docs", navigation: { groups: [{ group: "Guides", pages: Array.from({ length: pages }, (_, i) => `guides/p${i}`) }] } }));
  const project = detectDocsProject(repo);
  return createDocsTools(new DocsWorkspace(repo, project.docsDir, undefined, project.navigationFiles), project, new ChangeJournal(), { calls: 0, failures: 0, totalMs: 0 });
}

const session = (budget?: number): AgentSession => ({
  system: `You edit documentation. ${"Follow the style guide. ".repeat(300)}`,
  messages: [userMessage("Read every page and fix the wording")],
  turns: 0,
  usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 },
  calls: [],
  modelId: null,
  ...(budget ? { budget: { limitTokens: budget, measured: null } } : {}),
});

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function run(turns: number, s: AgentSession, pages = 8) {
  const provider = await startFakeAnthropic((_request, call) => (call < turns ? { answer: { tool: "read_file", input: { path: `guides/p${call % pages}.mdx` } } } : { answer: { text: "Done" } }));
  close = provider.close;
  const model = resolveModel("anthropic/claude-sonnet-4-5", { apiKey: "sk-ant-test", baseUrl: provider.url });
  await runAgentRound(s, { model, tools: docsRepo(pages), caps: { maxTurns: turns + 1, maxOutputTokens: 1e9, requestTimeoutMs: 30_000 }, signal: new AbortController().signal });
  return provider;
}

describe("prompt caching through the real Anthropic provider", () => {
  it("the stable prefix is written once and read on every later call, and the run reports what was read and written", async () => {
    const s = session();
    const provider = await run(6, s);
    const [first, ...later] = provider.calls;
    expect(first?.cacheReadTokens).toBe(0);
    expect(first?.cacheWriteTokens).toBeGreaterThan(1_024);
    // Each later call reads everything the call before it sent.
    later.forEach((call, index) => expect(call.cacheReadTokens).toBe(provider.calls[index]!.promptTokens));
    expect(s.usage.cachedInputTokens).toBe(provider.calls.reduce((t, c) => t + c.cacheReadTokens, 0));
    expect(s.calls.map((c) => c.cacheWriteInputTokens)).toEqual(provider.calls.map((c) => c.cacheWriteTokens));
    expect(s.usage.inputTokens).toBe(provider.calls.reduce((t, c) => t + c.promptTokens, 0));
    expect(provider.billedInputTokens() / s.usage.inputTokens).toBeLessThan(0.4);
  });
});

describe("the context budget", () => {
  it("a long run never sends a prompt over its budget, finishes, and says in the transcript where it elided", async () => {
    const budget = 12_000;
    const s = session(budget);
    const provider = await run(80, s);
    expect(provider.calls).toHaveLength(81);
    expect(Math.max(...provider.calls.map((c) => c.promptTokens))).toBeLessThanOrEqual(budget);
    expect(s.notes?.length).toBeGreaterThan(0);
    const context = transcriptOf(s).entries.filter((e) => e.kind === "context");
    expect(context.length).toBe(s.notes?.length);
    expect(context[0]?.text).toMatch(/^Elided \d+ old tool result\(s\) and argument\(s\): the prompt would have been about \d+ tokens, over the 12000-token context budget; it is about \d+ now\.$/);
    // The instruction is never elided.
    expect(s.messages[0]).toEqual(userMessage("Read every page and fix the wording"));
  });

  it("stops, saying why, rather than send a prompt that cannot fit", async () => {
    const s = session(2_500);
    await expect(run(3, s)).rejects.toMatchObject({ reason: "context-budget", message: expect.stringMatching(/over its context budget of 2500/) });
  });
});
