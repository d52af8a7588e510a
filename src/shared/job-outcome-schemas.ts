/**
 * What a job's runs did (docs/architecture.md, "Job outcome"): the files of its branch, the last
 * validation, the tokens spent. Both the runner's report and the public job carry these shapes.
 */
import { z } from "zod";
import { storedInt, storedText } from "./stored-values.js";

export const FILE_CHANGES = ["added", "modified", "deleted", "renamed"] as const;

export const fileChangeSchema = z
  .object({
    path: storedText(500),
    change: z.enum(FILE_CHANGES),
    from: storedText(500).optional().meta({ description: "Where a renamed file was." }),
    page: storedText(500).optional().meta({ description: "The site path the file is served at, when it is a page (from the docs framework's routes)." }),
    fromPage: storedText(500).optional().meta({ description: "For a renamed or deleted page, the site path it was served at before." }),
  })
  .meta({ id: "JobFile" });
export type FileChange = z.infer<typeof fileChangeSchema>;

export const validationProblemSchema = z
  .object({
    file: storedText(500),
    line: storedInt(1).optional(),
    message: storedText(1000),
  })
  .meta({ id: "ValidationProblem" });
export type ValidationProblem = z.infer<typeof validationProblemSchema>;

export const jobValidationSchema = z
  .object({
    passed: z.boolean(),
    problems: z.array(validationProblemSchema).max(200).meta({ description: "What the run introduced: only these block it." }),
    alreadyOnSite: z.array(validationProblemSchema).max(200).optional().meta({ description: "Problems that were on the site before the run and are still there: listed, never blocking (the first 200)." }),
    alreadyOnSiteCount: z.int().min(0).optional().meta({ description: "How many problems were already on the site." }),
  })
  .meta({ id: "JobValidation", description: "The docs checks of the last run that changed files." });
export type JobValidation = z.infer<typeof jobValidationSchema>;

const tokens = z.int().min(0);
export const runUsageSchema = z.object({
  inputTokens: tokens.meta({ description: "Every prompt token, cached ones included." }),
  cachedInputTokens: tokens.meta({ description: "Prompt tokens read from the provider's cache (billed at its cache price)." }),
  outputTokens: tokens,
  turns: tokens.meta({ description: "Model calls." }),
  durationMs: tokens,
});

/** One step of a run and its time: claim, checkout, each agent and validation round, push, pull request. */
export const runPhaseSchema = z
  .object({
    name: storedText(100),
    ms: z.int().min(0).max(86_400_000),
    background: z.literal(true).optional().meta({ description: "Ran while other work went on (not on the run's critical path)." }),
  })
  .meta({ id: "RunPhase" });
export type RunPhaseRecord = z.infer<typeof runPhaseSchema>;

export const jobUsageSchema = runUsageSchema
  .extend({
    estimatedCostUsd: z.number().min(0).nullable().meta({
      description: "From the model's list prices (the @pydantic/genai-prices package); null when the price of a run's model is not known.",
    }),
  })
  .meta({ id: "JobUsage" });
export type JobUsage = z.infer<typeof jobUsageSchema>;

/** `docs/a.mdx:12: broken link` (or `…:12:3: …`, with a column) → `{file, line, message}`; a line without a file is about the whole change. */
export function parseProblem(text: string): ValidationProblem {
  const match = /^([^\s:][^:]*?)(?::(\d+)(?::\d+)?)?: (.+)$/s.exec(text);
  // What is longer than a file's name (the schema's 500 characters) is no file: the line is one message.
  if (!match || (match[1] as string).length > 500) return { file: "", message: text };
  const line = match[2] ? Number(match[2]) : undefined;
  return { file: match[1] as string, ...(line && line >= 1 && line <= 2_147_483_647 ? { line } : {}), message: match[3] as string };
}

/** `context`: what the harness did to the conversation itself (eliding old tool results for the context budget). */
export const TRANSCRIPT_ENTRY_KINDS = ["system", "instruction", "assistant", "tool_call", "tool_result", "context"] as const;
/** The longest text one transcript entry keeps. */
export const TRANSCRIPT_ENTRY_CHARS = 2_000;

export const transcriptEntrySchema = z
  .object({
    kind: z.enum(TRANSCRIPT_ENTRY_KINDS),
    tool: storedText(100).optional().meta({ description: "The tool called, for tool_call and tool_result." }),
    text: storedText(TRANSCRIPT_ENTRY_CHARS + 100).meta({ description: "What was said or done, cut to 2,000 characters (the cut says how much was left out)." }),
  })
  .meta({ id: "TranscriptEntry" });
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;

export const transcriptSchema = z
  .object({
    attempt: z.int(),
    entries: z.array(transcriptEntrySchema),
    elided: z.int().min(0).meta({ description: "Entries left out of the middle of a very long run." }),
  })
  .meta({ id: "JobRunTranscript" });
export type Transcript = z.infer<typeof transcriptSchema>;
