import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { openLogInput, textLines } from "../../../../src/cli/logs/input.js";

const fixture = (name: string) => new URL(`../../../fixtures/logs/${name}`, import.meta.url).pathname;
const noStdin = () => {
  throw new Error("stdin is not read here");
};

async function collect(lines: AsyncIterable<readonly string[]>): Promise<string[]> {
  const all: string[] = [];
  for await (const batch of lines) all.push(...batch);
  return all;
}

/** A stream that hands over its bytes in pieces of `size`, as a pipe may. */
function trickle(bytes: Buffer, size: number): Readable {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return Readable.from(pieces, { objectMode: false });
}

describe("reading a log file or standard input", () => {
  const plain = readFileSync(fixture("cloudfront.tsv"), "utf8").split("\n").slice(0, -1);

  it("recognizes gzip by its magic bytes, not its name, in a file", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "inkwell-log-input-"));
    const disguised = path.join(directory, "cloudfront.tsv");
    writeFileSync(disguised, readFileSync(fixture("cloudfront.tsv.gz")));
    const input = openLogInput(disguised, noStdin);
    expect(await collect(input.lines)).toEqual(plain);
    // Progress is measured on the compressed bytes, against the file's size.
    expect(input.bytesRead()).toBe(input.totalBytes);
    expect(await collect(openLogInput(fixture("cloudfront.tsv.gz"), noStdin).lines)).toEqual(plain);
  });

  it("recognizes gzip on standard input even when the first chunk is one byte, and concatenated members", async () => {
    const gz = readFileSync(fixture("cloudfront.tsv.gz"));
    expect(await collect(openLogInput("-", () => trickle(gz, 1)).lines)).toEqual(plain);
    const twoMembers = Buffer.concat([gzipSync("first line\n"), gzipSync("second line\n")]);
    expect(await collect(openLogInput("-", () => trickle(twoMembers, 7)).lines)).toEqual(["first line", "second line"]);
    expect(await collect(openLogInput("-", () => trickle(Buffer.from("x\n"), 1)).lines)).toEqual(["x"]);
    expect(await collect(openLogInput("-", () => trickle(Buffer.alloc(0), 1)).lines)).toEqual([]);
  });

  it("fails with the reason on a cut-off gzip file", async () => {
    const gz = readFileSync(fixture("cloudfront.tsv.gz"));
    await expect(collect(openLogInput("-", () => trickle(gz.subarray(0, gz.length - 40), 100)).lines)).rejects.toThrow(/^Cannot decompress the gzip input: /);
  });

  it("refuses a file it cannot read, as a usage error", () => {
    expect(() => openLogInput("/nonexistent/access.log", noStdin)).toThrow(/^Cannot read \/nonexistent\/access.log: ENOENT/);
  });

  it("splits lines at \\n, drops the \\r of CRLF, keeps UTF-8 whole across chunks, and keeps a last line without its end", async () => {
    const text = Buffer.from("ä first\r\n€ second\n\nlast ✓");
    expect(await collect(textLines(trickle(text, 1)))).toEqual(["ä first", "€ second", "", "last ✓"]);
    // A lone \r is part of its line (servers escape control bytes, so it never starts one).
    expect(await collect(textLines(trickle(Buffer.from("a\rb\r\n"), 2)))).toEqual(["a\rb"]);
  });
});
