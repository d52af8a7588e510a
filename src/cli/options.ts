import { parseArgs } from "node:util";

/**
 * Every option of every command, in one table: parsing is strict (a typo is a usage error, not
 * silently ignored) and happens before the command is known, and many options are shared.
 */
const OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  key: { type: "string" },
  project: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ref: { type: "string" },
  name: { type: "string" },
  model: { type: "string" },
  "rate-limit": { type: "string" },
  "gitlab-url": { type: "string" },
  "gitlab-token": { type: "string" },
  "prompt-file": { type: "string" },
  "idempotency-key": { type: "string" },
  "plan-approval": { type: "boolean" },
  "no-plan-approval": { type: "boolean" },
  "max-questions": { type: "string" },
  "wait-limit-days": { type: "string" },
  "check-repair-rounds": { type: "string" },
  status: { type: "string" },
  limit: { type: "string" },
  offset: { type: "string" },
  interval: { type: "string" },
  days: { type: "string" },
  order: { type: "string" },
  from: { type: "string" },
  to: { type: "string" },
  through: { type: "string" },
  all: { type: "boolean" },
  csv: { type: "boolean" },
  format: { type: "string" },
  "log-format": { type: "string" },
  field: { type: "string", multiple: true },
  follow: { type: "boolean" },
  state: { type: "string" },
  "max-rejected": { type: "string" },
  "allowed-origin": { type: "string", multiple: true },
  "no-allowed-origins": { type: "boolean" },
  "salt-window": { type: "string" },
  "markdown-as-page": { type: "string" },
  category: { type: "string" },
  metric: { type: "string" },
  "path-prefix": { type: "string" },
  channel: { type: "string" },
  compare: { type: "boolean" },
  by: { type: "string" },
  agent: { type: "string" },
  "effective-at": { type: "string" },
  every: { type: "string" },
  remove: { type: "boolean" },
  pages: { type: "boolean" },
  event: { type: "string", multiple: true },
  scope: { type: "string", multiple: true },
  "allowed-model": { type: "string", multiple: true },
  "no-allowed-models": { type: "boolean" },
  "data-dir": { type: "string" },
  force: { type: "boolean" },
  trigger: { type: "string" },
  source: { type: "string" },
  issues: { type: "boolean" },
  schedule: { type: "string" },
  label: { type: "string" },
  path: { type: "string", multiple: true },
  "no-follow-ups": { type: "boolean" },
  "no-mention": { type: "boolean" },
  instruction: { type: "string" },
  mode: { type: "string" },
  group: { type: "string", multiple: true },
  "any-reply": { type: "boolean" },
} as const;

/** Throws on an unknown option or a missing option value (withSuggestion words the first). */
export function parseOptions(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

/**
 * Node's unknown-option error, or, when a long option is a typo of one of ours, that option named
 * instead, as the API names an unknown parameter's. The guesser loads only then: a run that parses
 * loads nothing beyond the usage lines.
 */
export async function withSuggestion(error: unknown): Promise<unknown> {
  if ((error as { code?: string }).code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return error;
  const name = /^Unknown option '--([^']+)'/.exec((error as Error).message)?.[1];
  const { nearestName } = await import("../shared/nearest-name.js");
  const meant = name ? nearestName(name, Object.keys(OPTIONS)) : null;
  return meant ? new Error(`Unknown option '--${name}'; did you mean '--${meant}'?`) : error;
}

export type OptionValues = ReturnType<typeof parseOptions>["values"];
