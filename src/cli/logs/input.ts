import { createReadStream, statSync } from "node:fs";
import { Readable, pipeline } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createGunzip } from "node:zlib";
import { CliError } from "../errors.js";

/** A log to import: its lines, and how far into the (possibly compressed) bytes the import is, for the progress bar. */
export interface LogInput {
  /** The lines of each read, in order: awaiting each line on its own cost more than parsing it. */
  lines: AsyncIterable<readonly string[]>;
  bytesRead: () => number;
  /** The size on disk when it is a file. */
  totalBytes: number | null;
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** A file path or `-` for standard input; gzip is recognized by its first two bytes, whatever the name. */
export function openLogInput(source: string, stdin: () => Readable): LogInput {
  let totalBytes: number | null = null;
  let raw: Readable;
  if (source === "-") raw = stdin();
  else {
    try {
      totalBytes = statSync(source).size;
      raw = createReadStream(source);
    } catch (error) {
      throw new CliError(`Cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`, 2);
    }
  }
  let bytesRead = 0;
  const counted = countBytes(raw, (n) => (bytesRead += n));
  return { lines: textLines(decompressed(counted)), bytesRead: () => bytesRead, totalBytes };
}

export function isGzipHead(head: Uint8Array): boolean {
  return head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

async function* countBytes(raw: Readable, add: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of raw) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    add(buffer.length);
    yield buffer;
  }
}

/** The bytes as they are, or gunzipped (streaming, concatenated members too) when they start with gzip's magic number. */
async function* decompressed(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < GZIP_MAGIC.length) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  const first = Buffer.concat(head);
  async function* all(): AsyncGenerator<Buffer> {
    if (first.length > 0) yield first;
    while (!ended) {
      const next = await iterator.next();
      if (next.done) ended = true;
      else yield next.value;
    }
  }
  if (!isGzipHead(first)) return yield* all();
  // pipeline destroys the gunzip stream with the first error (a corrupt or cut-off file), which ends the loop below with it.
  const gunzip = pipeline(Readable.from(all()), createGunzip(), () => undefined);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    throw new CliError(`Cannot decompress the gzip input: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * UTF-8 lines split at \n, a \r before it dropped (CRLF files); the last one with or without its
 * line end; the lines each chunk completes together. `--follow` splits files the same way, so both
 * give a line the same id.
 */
export async function* textLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  for await (const chunk of chunks) {
    pending += decoder.write(chunk);
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    if (lines.length > 0) yield lines.map(withoutCr);
  }
  pending += decoder.end();
  if (pending !== "") yield [withoutCr(pending)];
}

export function withoutCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
