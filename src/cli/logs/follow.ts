import { createHash } from "node:crypto";
import { open, readdir, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { CliError } from "../errors.js";
import { isGzipHead, withoutCr } from "./input.js";

/** Where a followed file was read up to: complete lines only, so a line being written is read again whole. */
export interface FileCursor {
  /** The name the file was opened under (the followed name, or a rotated one found on resume). */
  path: string;
  dev: number;
  ino: number;
  offset: number;
  /** Hash of the file's first line: what tells the same file again after a restart, whatever its name or device number. */
  head: string | null;
}

export type TailEvent =
  /** A file was opened: `resumed` when it continues the cursor given, else it is read from its start. */
  | { kind: "open"; cursor: FileCursor; resumed: boolean; note?: string }
  | { kind: "line"; text: string; firstInFile: boolean; cursor: FileCursor }
  /** Caught up with the writer: a good moment to send what was read and save the position. */
  | { kind: "idle"; cursor: FileCursor };

export interface TailOptions {
  path: string;
  resume: FileCursor | null;
  intervalMs: number;
  signal: AbortSignal;
  /** How long a rotated-away file must stay unchanged before the tail moves to the new one (default two intervals). */
  graceMs?: number;
  now?: () => number;
}

const CHUNK = 64 * 1024;
// A "line" this long has no line end: it is handed on (and skipped as malformed) rather than held in memory.
const MAX_LINE = 1024 * 1024;

interface Tailed {
  handle: FileHandle;
  cursor: FileCursor;
  /** Bytes read past cursor.offset: the start of a line not yet ended. */
  partial: Buffer;
}

/**
 * Follows a log like `tail -F`: reads to the end, then polls for growth. When the name points to
 * a new file (rotation), the old one is read until it has stayed unchanged for the grace period,
 * then the new one from its start; a file that shrank (truncated in place) is read again from its
 * start. Stops at the next read or poll after `signal` aborts.
 */
export async function* tailFile(options: TailOptions): AsyncGenerator<TailEvent> {
  const now = options.now ?? Date.now;
  const graceMs = options.graceMs ?? options.intervalMs * 2;
  const start = await openStart(options.path, options.resume);
  let file = start.file;
  yield { kind: "open", cursor: { ...file.cursor }, resumed: start.resumed, ...(start.note ? { note: start.note } : {}) };
  let changed = true;
  let quietSince: number | null = null;
  try {
    while (!options.signal.aborted) {
      const lines = await readMore(file);
      if (lines !== null) {
        for (const line of lines) yield line;
        changed = true;
        quietSince = null;
        continue;
      }
      const state = await fileState(options.path, file);
      if (state === "truncated") {
        file.cursor = { ...file.cursor, offset: 0, head: null };
        file.partial = Buffer.alloc(0);
        yield { kind: "open", cursor: { ...file.cursor }, resumed: false, note: `${file.cursor.path} was truncated: reading it again from its start` };
        continue;
      }
      if (state === "replaced" && (quietSince ??= now()) + graceMs <= now()) {
        const last = lastLine(file);
        if (last) yield last;
        await file.handle.close();
        file = await openAt(options.path, 0, null);
        yield { kind: "open", cursor: { ...file.cursor }, resumed: false, note: `${options.path} was rotated: following the new file` };
        quietSince = null;
        continue;
      }
      if (changed) yield { kind: "idle", cursor: { ...file.cursor } };
      changed = false;
      await delay(options.intervalMs, options.signal);
    }
  } finally {
    await file.handle.close();
  }
}

/** The next complete lines, or null at the end of the file. */
async function readMore(file: Tailed): Promise<TailEvent[] | null> {
  const buffer = Buffer.alloc(CHUNK);
  const { bytesRead } = await file.handle.read(buffer, 0, CHUNK, file.cursor.offset + file.partial.length);
  if (bytesRead === 0) return null;
  const data = Buffer.concat([file.partial, buffer.subarray(0, bytesRead)]);
  const lines: TailEvent[] = [];
  let start = 0;
  for (let end = data.indexOf(0x0a); end >= 0; end = data.indexOf(0x0a, start)) {
    lines.push(lineEvent(file, data.subarray(start, end + 1)));
    start = end + 1;
  }
  file.partial = data.subarray(start);
  if (file.partial.length > MAX_LINE) lines.push(lastLine(file) as TailEvent);
  return lines;
}

/** Hands on a line (with its line end, if any), moving the cursor past it. */
function lineEvent(file: Tailed, bytes: Buffer): TailEvent {
  const firstInFile = file.cursor.offset === 0;
  if (firstInFile) file.cursor.head = headHash(bytes);
  file.cursor = { ...file.cursor, offset: file.cursor.offset + bytes.length };
  const text = withoutCr(bytes.toString("utf8").replace(/\n$/, ""));
  return { kind: "line", text, firstInFile, cursor: { ...file.cursor } };
}

/** A rotated-away file's last line may lack its line end: the writer is gone, so it is complete as it is. */
function lastLine(file: Tailed): TailEvent | undefined {
  if (file.partial.length === 0) return undefined;
  const bytes = file.partial;
  file.partial = Buffer.alloc(0);
  return lineEvent(file, bytes);
}

async function fileState(name: string, file: Tailed): Promise<"same" | "truncated" | "replaced"> {
  const own = await file.handle.stat();
  if (own.size < file.cursor.offset + file.partial.length) return "truncated";
  const current = await stat(name).catch(() => null);
  // No file under the name yet (renamed, the new one not created): keep reading the old one meanwhile.
  if (current === null) return "same";
  return current.ino !== file.cursor.ino || current.dev !== file.cursor.dev ? "replaced" : "same";
}

/**
 * Where to start: the cursor's file at its offset if it is still there under the followed name,
 * or under a rotated name next to it (`access.log.1`, `access.log-20261010`: logrotate's), found by
 * its first line; otherwise the followed file from its start.
 */
async function openStart(name: string, resume: FileCursor | null): Promise<{ file: Tailed; resumed: boolean; note?: string }> {
  if (resume === null || resume.head === null || resume.offset === 0) return { file: await openAt(name, 0, null), resumed: false };
  const directory = path.dirname(name);
  const base = path.basename(name);
  const siblings = (await readdir(directory).catch(() => [])).filter((entry) => entry !== base && entry.startsWith(base)).sort();
  for (const candidate of [base, ...siblings]) {
    const full = path.join(directory, candidate);
    if ((await headOf(full, resume.offset)) !== resume.head) continue;
    const note = candidate === base ? undefined : `resuming ${full} (rotated since the last run), then ${name}`;
    return { file: await openAt(full, resume.offset, resume.head), resumed: true, ...(note ? { note } : {}) };
  }
  return {
    file: await openAt(name, 0, null),
    resumed: false,
    note: `${name} is not the file the last run read (rotated or truncated since, and not found next to it): reading it from its start`,
  };
}

async function openAt(name: string, offset: number, head: string | null): Promise<Tailed> {
  let handle: FileHandle;
  try {
    handle = await open(name, "r");
  } catch (error) {
    throw new CliError(`Cannot read ${name}: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  const info = await handle.stat();
  return { handle, cursor: { path: name, dev: info.dev, ino: info.ino, offset, head }, partial: Buffer.alloc(0) };
}

/** The hash of a file's first line, when it is a plain file at least `minSize` long (gzip-compressed rotations are not resumed). */
async function headOf(name: string, minSize: number): Promise<string | null> {
  const handle = await open(name, "r").catch(() => null);
  if (handle === null) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size < minSize) return null;
    const buffer = Buffer.alloc(Math.min(CHUNK, info.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    const end = head.indexOf(0x0a);
    return isGzipHead(head) || end < 0 ? null : headHash(head.subarray(0, end + 1));
  } finally {
    await handle.close();
  }
}

function headHash(firstLine: Buffer): string {
  return createHash("sha256").update(firstLine).digest("base64url").slice(0, 22);
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
