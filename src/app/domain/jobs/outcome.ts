import { calcPrice } from "@pydantic/genai-prices";
import type { FileChange, JobUsage, JobValidation } from "../../../shared/job-outcome-schemas.js";
import { parseProblem } from "../../../shared/job-outcome-schemas.js";
import type { ReportRequest } from "../../../shared/runner-schemas.js";

/** What the job shows of its runs (the `outcome` column of `jobs`, as JSON). */
export interface JobOutcome {
  summary: string | null;
  files: FileChange[];
  validation: JobValidation | null;
  usage: JobUsage | null;
}

export const EMPTY_OUTCOME: JobOutcome = { summary: null, files: [], validation: null, usage: null };

export const outcomeOf = (stored: string | null): JobOutcome => (stored ? { ...EMPTY_OUTCOME, ...(JSON.parse(stored) as Partial<JobOutcome>) } : EMPTY_OUTCOME);

/** A run's usage as reported, with its cost where the model's price is known. */
export function runUsage(report: ReportRequest, model: string): JobUsage | null {
  if (!report.usage) return null;
  const usage = {
    inputTokens: report.usage.inputTokens,
    cachedInputTokens: Math.min(report.usage.cachedInputTokens ?? 0, report.usage.inputTokens),
    outputTokens: report.usage.outputTokens,
    turns: report.turns ?? 0,
    durationMs: report.durationMs ?? 0,
  };
  return { ...usage, estimatedCostUsd: runCostUsd(model, report.calls ?? averageCalls(usage)) };
}

type CallTokens = { inputTokens: number; cachedInputTokens?: number; cacheWriteInputTokens?: number; outputTokens: number };

/** Without each call's tokens (an older Action), the run's calls are taken as all the same size. */
function averageCalls(usage: { inputTokens: number; cachedInputTokens: number; outputTokens: number; turns: number }): CallTokens[] {
  const turns = Math.max(1, usage.turns);
  const call = { inputTokens: usage.inputTokens / turns, cachedInputTokens: usage.cachedInputTokens / turns, outputTokens: usage.outputTokens / turns };
  return Array.from({ length: turns }, () => call);
}

/** A run's price is the sum of its calls' prices: a price tier applies to one request's size, not to a run's total. */
function runCostUsd(model: string, calls: CallTokens[]): number | null {
  let total = 0;
  for (const call of calls) {
    const cached = Math.min(call.cachedInputTokens ?? 0, call.inputTokens);
    const written = Math.min(call.cacheWriteInputTokens ?? 0, call.inputTokens - cached);
    const cost = estimatedCostUsd(model, { inputTokens: call.inputTokens, cachedInputTokens: cached, cacheWriteInputTokens: written, outputTokens: call.outputTokens });
    if (cost === null) return null;
    total += cost;
  }
  return Math.round(total * 1e6) / 1e6;
}

/**
 * List price of one model call, from the maintained `@pydantic/genai-prices` tables (its version
 * is the date of the prices); null for a provider or model they do not know, never a guess.
 */
export function estimatedCostUsd(model: string, usage: { inputTokens: number; cachedInputTokens: number; cacheWriteInputTokens?: number; outputTokens: number }): number | null {
  const slash = model.indexOf("/");
  if (slash <= 0) return null;
  const price = calcPrice(
    { input_tokens: usage.inputTokens, cache_read_tokens: usage.cachedInputTokens, cache_write_tokens: usage.cacheWriteInputTokens ?? 0, output_tokens: usage.outputTokens },
    model.slice(slash + 1),
    { providerId: model.slice(0, slash) },
  );
  return price ? price.total_price : null;
}

/** The job's outcome after one more run reported: the latest summary, files and validation, usage summed. */
export function withRunReport(previous: JobOutcome, report: ReportRequest, model: string): JobOutcome {
  const usage = runUsage(report, model);
  return {
    summary: report.outcome === "completed" ? (report.summary ?? null) : null,
    files: report.files ?? previous.files,
    validation: report.validation ? validationOf(report.validation) : previous.validation,
    usage: usage ? addUsage(previous.usage, usage) : previous.usage,
  };
}

export function validationOf(reported: NonNullable<ReportRequest["validation"]>): JobValidation {
  const parsed = (problems: typeof reported.problems) => problems.map((problem) => (typeof problem === "string" ? parseProblem(problem) : problem));
  const validation: JobValidation = { passed: reported.passed, problems: parsed(reported.problems) };
  if (reported.alreadyOnSite?.length) validation.alreadyOnSite = parsed(reported.alreadyOnSite);
  if (reported.alreadyOnSiteCount) validation.alreadyOnSiteCount = reported.alreadyOnSiteCount;
  return validation;
}

function addUsage(total: JobUsage | null, run: JobUsage): JobUsage {
  if (!total) return run;
  return {
    inputTokens: total.inputTokens + run.inputTokens,
    cachedInputTokens: total.cachedInputTokens + run.cachedInputTokens,
    outputTokens: total.outputTokens + run.outputTokens,
    turns: total.turns + run.turns,
    durationMs: total.durationMs + run.durationMs,
    estimatedCostUsd: total.estimatedCostUsd === null || run.estimatedCostUsd === null ? null : Math.round((total.estimatedCostUsd + run.estimatedCostUsd) * 1e6) / 1e6,
  };
}
