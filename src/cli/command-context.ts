import type { Readable } from "node:stream";
import type { ApiClient, Credential } from "./api-client.js";
import { CliError, UsageError } from "./errors.js";
import type { OptionValues } from "./options.js";

/** Everything the CLI touches outside itself, so tests can run it in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  fetch: typeof fetch;
  readStdin: () => Promise<string>;
  /** Standard input as a stream (log imports read it line by line). */
  stdinStream: () => Readable;
  sleep: (ms: number) => Promise<void>;
  /** Bytes to standard output as they are (CSV exports), resolved once taken; without it they go to `stdout` as one text at the end. */
  write?: (chunk: Uint8Array) => Promise<void>;
}

export interface CommandContext {
  io: CliIo;
  values: OptionValues;
  /** The positionals after `<noun> <action>`. */
  args: string[];
  json: boolean;
  client: ApiClient;
  operator: Credential;
  projectKey: Credential;
}

export const enc = encodeURIComponent;

export function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`Missing ${what}`);
  return value;
}

export const projectOf = (ctx: CommandContext) => need(ctx.values.project ?? ctx.io.env.INKWELL_PROJECT, "--project (or INKWELL_PROJECT)");

export function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a non-negative integer`, 2);
  return Number(value);
}

/** `human` is a thunk so that `--json` never formats a table it will not print. */
export function print(ctx: CommandContext, data: unknown, human: () => string) {
  ctx.io.stdout(ctx.json ? JSON.stringify(data, null, 2) : human());
}
