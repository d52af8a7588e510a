import { describe, expect, it } from "vitest";
import type { HitBatchResult } from "../../../../src/shared/analytics-schemas.js";
import { createLineParser, lineHitId, type ParserOptions } from "../../../../src/cli/logs/formats.js";
import type { LogFormat } from "../../../../src/cli/logs/log-format-names.js";
import { importLog } from "../../../../src/cli/logs/import.js";
import { openLogInput } from "../../../../src/cli/logs/input.js";
import { LineOccurrences, OCCURRENCE_MEMORY } from "../../../../src/cli/logs/occurrences.js";
import { HitSender, type SentHit } from "../../../../src/cli/logs/sender.js";
import { emptySummary } from "../../../../src/cli/logs/summary.js";
import { CUSTOM_FORMAT } from "./format-cases.js";

const fixture = (name: string) => new URL(`../../../fixtures/logs/${name}`, import.meta.url).pathname;

/** A server that accepts every hit and knows the ids it saw. */
function fakeServer() {
  const seen = new Set<string>();
  const batches: SentHit[][] = [];
  const send = async (hits: SentHit[]): Promise<HitBatchResult> => {
    batches.push(hits);
    const duplicates = hits.filter((hit) => seen.has(hit.id)).length;
    for (const hit of hits) seen.add(hit.id);
    return { accepted: hits.length, duplicates, rejected: [] };
  };
  return { send, batches, seen };
}

async function importFixture(format: LogFormat, name: string, options: ParserOptions = {}, server = fakeServer()) {
  const input = openLogInput(fixture(name), () => {
    throw new Error("no stdin");
  });
  const summary = await importLog({ parser: createLineParser(format, options), lines: input.lines, send: server.send, progress: () => undefined });
  return { summary, server };
}

describe("an import's summary, per source", () => {
  it.each([
    ["combined", "vhost-combined.txt", {}, { lines: 15, accepted: 8, skipped: { malformed: 2, "not-a-page-view": 3, method: 1, status: 1, rejected: 0 } }],
    ["caddy", "caddy.ndjson", {}, { lines: 15, accepted: 7, skipped: { malformed: 2, "not-a-page-view": 4, method: 1, status: 1, rejected: 0 } }],
    ["nginx-json", "nginx-json.ndjson", {}, { lines: 14, accepted: 7, skipped: { malformed: 3, "not-a-page-view": 2, method: 1, status: 1, rejected: 0 } }],
    ["cloudfront", "cloudfront.tsv", {}, { lines: 17, accepted: 8, skipped: { malformed: 2, "not-a-page-view": 2, method: 1, status: 2, rejected: 0 } }],
    ["cloudfront", "cloudfront.tsv.gz", {}, { lines: 17, accepted: 8, skipped: { malformed: 2, "not-a-page-view": 2, method: 1, status: 2, rejected: 0 } }],
    ["netlify", "netlify.ndjson", {}, { lines: 14, accepted: 6, skipped: { malformed: 3, "not-a-page-view": 3, method: 1, status: 1, rejected: 0 } }],
    ["fastly", "fastly.ndjson", {}, { lines: 14, accepted: 7, skipped: { malformed: 3, "not-a-page-view": 2, method: 1, status: 1, rejected: 0 } }],
    ["custom", "custom-format.txt", { logFormat: CUSTOM_FORMAT }, { lines: 13, accepted: 7, skipped: { malformed: 2, "not-a-page-view": 2, method: 1, status: 1, rejected: 0 } }],
  ] as const)("%s %s: exact counts by reason, header lines counted as lines only", async (format, name, options, expected) => {
    const { summary } = await importFixture(format, name, options);
    expect(summary).toMatchObject({ ...expected, alreadyImported: 0 });
    expect(summary.examples.length).toBe(expected.skipped.malformed);
  });

  it("gives a gzip file's lines the ids of the plain file's, so either import counts them once", async () => {
    const plain = await importFixture("cloudfront", "cloudfront.tsv");
    const again = await importFixture("cloudfront", "cloudfront.tsv.gz", {}, plain.server);
    expect(again.summary).toMatchObject({ accepted: 8, alreadyImported: 8 });
  });

  it("keeps the ids of earlier releases: the line and how many identical lines came before it", async () => {
    const { server } = await importFixture("combined", "access.log");
    const ids = server.batches.flat().map((hit) => hit.id);
    expect(new Set(ids).size).toBe(16);
    const line = `160.79.104.10 - - [12/Mar/2025:11:31:12 +0000] "GET /docs/guides/webhooks.md HTTP/1.1" 200 5120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"`;
    expect(ids).toContain(lineHitId(line, 0));
    expect(ids).toContain(lineHitId(line, 1));
  });
});

describe("the occurrence counters", () => {
  it("count identical lines, and survive being written out and read back", () => {
    const counters = new LineOccurrences();
    expect(["a", "b", "a", "a", "c"].map((line) => counters.next(line))).toEqual([0, 0, 1, 2, 0]);
    const restored = LineOccurrences.parse(counters.serialize());
    expect(["a", "b", "d"].map((line) => restored.next(line))).toEqual([3, 1, 0]);
    expect(counters.serialize().split(" ")).toHaveLength(3);
    expect(LineOccurrences.parse("").next("a")).toBe(0);
  });

  it("forget the line first seen longest ago once more than OCCURRENCE_MEMORY are held, also after a restore", () => {
    const counters = new LineOccurrences();
    const distinct = Array.from({ length: OCCURRENCE_MEMORY * 3 }, (_, n) => `line ${n}`);
    counters.next("first");
    counters.next("second");
    counters.next("first");
    for (const line of distinct.slice(0, OCCURRENCE_MEMORY - 2)) counters.next(line);
    // Full: the next new line pushes out "first" (first seen longest ago, though counted again since), not "second".
    counters.next(distinct[OCCURRENCE_MEMORY - 2] as string);
    const restored = LineOccurrences.parse(counters.serialize());
    expect([counters.next("second"), counters.next("first")]).toEqual([1, 0]);
    expect([restored.next("second"), restored.next("first")]).toEqual([1, 0]);
    // Many times the memory later, only the most recent lines are held, in the order first seen.
    for (const line of distinct) counters.next(line);
    const held = counters.serialize().split(" ");
    expect(held).toHaveLength(OCCURRENCE_MEMORY);
    expect(counters.next(distinct.at(-1) as string)).toBe(1);
    expect(counters.next(distinct.at(-OCCURRENCE_MEMORY - 1) as string)).toBe(0);
  });
});

describe("sending batches", () => {
  it("runs each checkpoint once its batch and every earlier batch were accepted, in order, and none after a failure", async () => {
    const answers: ((result: HitBatchResult | Error) => void)[] = [];
    const send = (_hits: SentHit[]) =>
      new Promise<HitBatchResult>((resolve, reject) => answers.push((r) => (r instanceof Error ? reject(r) : resolve(r))));
    const accepted = (n: number): HitBatchResult => ({ accepted: n, duplicates: 0, rejected: [] });
    const summary = emptySummary();
    const sender = new HitSender({ send, summary, inFlight: 10 });
    const ran: string[] = [];
    const hit = (id: string): SentHit => ({ id, timestamp: "2025-03-12T09:00:00.000Z", path: "/", ip: "192.0.2.1", userAgent: "x" });
    sender.add(hit("1"), 1);
    await sender.flush(() => ran.push("first"));
    sender.add(hit("2"), 2);
    await sender.flush(() => ran.push("second"));
    await sender.flush(() => ran.push("empty after second"));
    sender.add(hit("3"), 3);
    await sender.flush(() => ran.push("third"));
    answers[1]?.(accepted(1));
    await new Promise((r) => setTimeout(r, 5));
    expect(ran).toEqual([]);
    answers[0]?.(accepted(1));
    await new Promise((r) => setTimeout(r, 5));
    expect(ran).toEqual(["first", "second", "empty after second"]);
    answers[2]?.(new Error("502: bad gateway"));
    await expect(sender.finish()).rejects.toThrow("502: bad gateway");
    expect(ran).toEqual(["first", "second", "empty after second"]);
    expect(summary.accepted).toBe(2);
  });
});
