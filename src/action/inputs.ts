import { z } from "zod";
import { withoutTrailingSlashes } from "../shared/trailing-slashes.js";

const positiveInt = (name: string, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.int().min(1, `${name} must be at least 1`).max(max, `${name} must be at most ${max}`));

/** A duration in minutes, decimals allowed, more than 0 and at most `max`. */
const minutes = (name: string, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, `${name} must be a number of minutes`)
    .transform(Number)
    .pipe(z.number().positive(`${name} must be more than 0`).max(max, `${name} must be at most ${max}`));

/** The Action's inputs as the runner reads them (strings, "" when unset), checked once at the edge. */
export const actionInputsSchema = z.object({
  inkwellUrl: z.url({ protocol: /^https?$/, error: "inkwell-url must be an http(s) URL (your Inkwell server's PUBLIC_URL)" }),
  model: z
    .string()
    .trim()
    .refine((value) => value === "" || /^(anthropic|openai|openai-compatible)\/\S+$/.test(value), {
      error: "model must look like anthropic/<model>, openai/<model> or openai-compatible/<model>",
    })
    .transform((value) => value || null),
  apiKey: z.string().transform((value) => value || null),
  baseUrl: z
    .string()
    .trim()
    .refine((value) => value === "" || /^https?:\/\/\S+$/.test(value), { error: "base-url must be an http(s) URL" })
    .transform((value) => value || null),
  docsDir: z
    .string()
    .trim()
    .refine((value) => !value.startsWith("/") && !value.split(/[\\/]/).includes(".."), { error: "docs-dir must be a path inside the repository" })
    .transform((value) => withoutTrailingSlashes(value) || null),
  maxTurns: positiveInt("max-turns", 500),
  maxOutputTokens: positiveInt("max-output-tokens", 10_000_000),
  timeoutMinutes: minutes("timeout-minutes", 360),
  draft: z.enum(["true", "false", ""], { error: "draft must be true or false" }).transform((value) => value === "true"),
  /** The project's own check (its build), run in the workspace after the gate passes; null: none. */
  checkCommand: z
    .string()
    .trim()
    .max(2_000, "check-command must be at most 2000 characters")
    .transform((value) => value || null),
  checkTimeoutMinutes: minutes("check-timeout-minutes", 120),
  /** Whether the gate runs the framework's own checker where there is one (Mintlify: its broken-link engine, link-checker.ts). */
  frameworkCheck: z.enum(["true", "false"], { error: "framework-check must be true or false" }).transform((value) => value === "true"),
  /** Most prompt tokens one model call may carry; null: from the model's context window (the service knows it). */
  contextBudget: z
    .string()
    .trim()
    .regex(/^\d*$/, "context-budget must be a whole number of tokens")
    .transform((value) => (value === "" ? null : Number(value)))
    .pipe(z.int().min(1_000, "context-budget must be at least 1000 tokens").max(10_000_000, "context-budget must be at most 10000000").nullable()),
});
export type ActionInputs = z.infer<typeof actionInputsSchema>;

/** Input names as action.yml spells them, with the defaults action.yml declares. */
export const INPUT_DEFAULTS = {
  "inkwell-url": "",
  model: "",
  "api-key": "",
  "base-url": "",
  "docs-dir": "",
  "max-turns": "40",
  "max-output-tokens": "64000",
  "timeout-minutes": "30",
  draft: "false",
  "context-budget": "",
  "check-command": "",
  "check-timeout-minutes": "10",
  "framework-check": "true",
} as const;

export type InputName = keyof typeof INPUT_DEFAULTS;

/** Reads and checks the inputs; throws one message naming every bad input. */
export function readInputs(getInput: (name: InputName) => string): ActionInputs {
  const raw = (name: InputName) => getInput(name) || INPUT_DEFAULTS[name];
  const parsed = actionInputsSchema.safeParse({
    inkwellUrl: raw("inkwell-url"),
    model: raw("model"),
    apiKey: raw("api-key"),
    baseUrl: raw("base-url"),
    docsDir: raw("docs-dir"),
    maxTurns: raw("max-turns"),
    maxOutputTokens: raw("max-output-tokens"),
    timeoutMinutes: raw("timeout-minutes"),
    draft: raw("draft").toLowerCase(),
    contextBudget: raw("context-budget").trim(),
    checkCommand: raw("check-command"),
    checkTimeoutMinutes: raw("check-timeout-minutes"),
    frameworkCheck: raw("framework-check").trim().toLowerCase(),
  });
  if (!parsed.success) throw new Error(`Invalid inputs: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  return parsed.data;
}
