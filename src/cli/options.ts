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
  "prompt-file": { type: "string" },
  "idempotency-key": { type: "string" },
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
} as const;

/** Throws on an unknown option or a missing option value. */
export const parseOptions = (argv: string[]) => parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });

export type OptionValues = ReturnType<typeof parseOptions>["values"];
