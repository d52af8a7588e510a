import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { CliError } from "../errors.js";
import type { FileCursor } from "./follow.js";

/**
 * What `import --follow` keeps between runs: which file it read up to where, and the line
 * occurrence counters of that file, so the next run sends the same ids a one-off import would.
 * Written after each batch the server accepted (and the lines before it), never ahead of them.
 */

const stateSchema = z.object({
  version: z.literal(1),
  /** The followed log, absolute: a state file is refused for another log. */
  log: z.string(),
  file: z.object({
    path: z.string(),
    dev: z.number(),
    ino: z.number(),
    offset: z.int().min(0),
    head: z.string().nullable(),
  }),
  occurrences: z.string(),
  savedAt: z.string(),
});
export type FollowState = z.infer<typeof stateSchema>;

/**
 * `$XDG_STATE_HOME/inkwell/follow/<name>-<hash of the absolute path>.json` (XDG_STATE_HOME
 * defaulting to ~/.local/state): next to nothing secret, and writable where /var/log is not.
 */
export function defaultStatePath(logPath: string, env: NodeJS.ProcessEnv): string {
  const absolute = path.resolve(logPath);
  const stateHome = env.XDG_STATE_HOME || path.join(env.HOME || homedir(), ".local", "state");
  const id = createHash("sha256").update(absolute).digest("hex").slice(0, 12);
  return path.join(stateHome, "inkwell", "follow", `${path.basename(absolute)}-${id}.json`);
}

/** The saved state, or null when there is none yet. */
export function readFollowState(statePath: string, logPath: string): FollowState | null {
  let text: string;
  try {
    text = readFileSync(statePath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CliError(`Cannot read the state file ${statePath}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  let parsed: ReturnType<typeof stateSchema.safeParse>;
  try {
    parsed = stateSchema.safeParse(JSON.parse(text));
  } catch {
    throw new CliError(`The state file ${statePath} is not JSON; delete it to start over from the start of the log`, 2);
  }
  if (!parsed.success) throw new CliError(`The state file ${statePath} is not an inkwell follow state; delete it to start over from the start of the log`, 2);
  const log = path.resolve(logPath);
  if (parsed.data.log !== log) throw new CliError(`The state file ${statePath} is for ${parsed.data.log}, not ${log}`, 2);
  return parsed.data;
}

/** Written to a temporary file and renamed over the old one, so a crash leaves one or the other, whole. */
export function writeFollowState(statePath: string, logPath: string, file: FileCursor, occurrences: string): void {
  const state: FollowState = { version: 1, log: path.resolve(logPath), file, occurrences, savedAt: new Date().toISOString() };
  mkdirSync(path.dirname(statePath), { recursive: true });
  const temporary = `${statePath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`);
  renameSync(temporary, statePath);
}
