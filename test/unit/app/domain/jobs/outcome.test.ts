import { jobValidationSchema } from "../../../../../src/shared/job-outcome-schemas.js";
import { describe, expect, it } from "vitest";
import { EMPTY_OUTCOME, estimatedCostUsd, outcomeOf, withRunReport } from "../../../../../src/app/domain/jobs/outcome.js";
import type { ReportRequest } from "../../../../../src/shared/runner-schemas.js";

const ref = { jobId: "job1", runAttempt: 1 };
const completed = (extra: Partial<ReportRequest & { outcome: "completed" }> = {}): ReportRequest => ({ ...ref, outcome: "completed", pr: null, ...extra });

describe("the job's outcome, run by run", () => {
  it("keeps what was already on the site apart from what the run introduced, parsed the same way", () => {
    const outcome = withRunReport(EMPTY_OUTCOME, completed({ validation: { passed: true, problems: [], alreadyOnSite: ["guide.mdx:5: link '/gone' does not resolve to a file in the repository"], alreadyOnSiteCount: 116 } }), "anthropic/claude-sonnet-4-5");
    expect(outcome.validation).toEqual({ passed: true, problems: [], alreadyOnSite: [{ file: "guide.mdx", line: 5, message: "link '/gone' does not resolve to a file in the repository" }], alreadyOnSiteCount: 116 });
    expect(jobValidationSchema.parse(outcome.validation)).toEqual(outcome.validation);
  });

  it("takes the latest summary, files and validation, and adds up usage over runs", () => {
    const first = withRunReport(EMPTY_OUTCOME, completed({
      summary: "Added the retries page",
      files: [{ path: "guides/retries.mdx", change: "added" }],
      validation: { passed: true, problems: [] },
      usage: { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 20_000 },
      turns: 7,
      durationMs: 60_000,
    }), "anthropic/claude-sonnet-4-5");
    // $3 per million uncached input, $0.30 per million cache reads, $15 per million output: every
    // call (the 7 taken as equal, no per-call figures sent) is under the 200k-token long-context tier.
    expect(first.usage).toMatchObject({ inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 20_000, turns: 7, durationMs: 60_000 });
    expect(first.usage?.estimatedCostUsd).toBeCloseTo(0.6 * 3 + 0.4 * 0.3 + 0.02 * 15, 6);

    const failed = withRunReport(outcomeOf(JSON.stringify(first)), { ...ref, runAttempt: 2, outcome: "failed", error: "max-turns", usage: { inputTokens: 10, outputTokens: 5 }, turns: 1, durationMs: 1_000 }, "anthropic/claude-sonnet-4-5");
    expect(failed.summary).toBeNull();
    expect(failed.files).toEqual(first.files);
    expect(failed.validation).toEqual(first.validation);
    expect(failed.usage).toMatchObject({ inputTokens: 1_000_010, cachedInputTokens: 400_000, outputTokens: 20_005, turns: 8, durationMs: 61_000 });
  });

  it("prices each model call on its own: a call over 200k tokens is at the long-context price, the run's total is not", () => {
    const calls = [
      { inputTokens: 300_000, outputTokens: 1_000 },
      { inputTokens: 100_000, outputTokens: 1_000 },
    ];
    const run = withRunReport(EMPTY_OUTCOME, completed({ usage: { inputTokens: 400_000, outputTokens: 2_000 }, turns: 2, calls }), "anthropic/claude-sonnet-4-5");
    // $6 / $22.50 per million over 200k input tokens in one request, $3 / $15 under.
    expect(run.usage?.estimatedCostUsd).toBeCloseTo(0.3 * 6 + 0.001 * 22.5 + (0.1 * 3 + 0.001 * 15), 6);
  });

  it("never guesses a price: an unknown model makes the total unknown", () => {
    expect(estimatedCostUsd("openai-compatible/my-local-llama", { inputTokens: 100, cachedInputTokens: 0, outputTokens: 10 })).toBeNull();
    expect(estimatedCostUsd("no-provider", { inputTokens: 100, cachedInputTokens: 0, outputTokens: 10 })).toBeNull();
    const known = withRunReport(EMPTY_OUTCOME, completed({ usage: { inputTokens: 100, outputTokens: 10 } }), "openai/gpt-4.1");
    expect(known.usage?.estimatedCostUsd).toBeGreaterThan(0);
    const unknown = withRunReport(known, completed({ usage: { inputTokens: 100, outputTokens: 10 } }), "openai-compatible/my-local-llama");
    expect(unknown.usage).toMatchObject({ inputTokens: 200, estimatedCostUsd: null });
  });

  it("reads problems sent as lines by older Actions as {file, line, message}", () => {
    const outcome = withRunReport(EMPTY_OUTCOME, completed({
      validation: {
        passed: false,
        problems: [
          "docs/a.mdx:12: links to '/x', which does not exist",
          "docs/b.mdx:6:1: does not compile as MDX: Unexpected end of file",
          "docs.json: the navigation names a missing page",
          "something odd",
          `${"a".repeat(600)}: no file is that long`,
          { file: "b.md", message: "kept" },
        ],
      },
    }), "x/y");
    expect(outcome.validation?.problems).toEqual([
      { file: "docs/a.mdx", line: 12, message: "links to '/x', which does not exist" },
      { file: "docs/b.mdx", line: 6, message: "does not compile as MDX: Unexpected end of file" },
      { file: "docs.json", message: "the navigation names a missing page" },
      { file: "", message: "something odd" },
      { file: "", message: `${"a".repeat(600)}: no file is that long` },
      { file: "b.md", message: "kept" },
    ]);
    // What the job shows holds to its own schema (MCP clients check answers against it).
    expect(jobValidationSchema.safeParse(outcome.validation).success).toBe(true);
  });
});
