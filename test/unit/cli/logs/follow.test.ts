import { appendFileSync, mkdtempSync, readFileSync, renameSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HitBatchResult } from "../../../../src/shared/analytics-schemas.js";
import { followLog } from "../../../../src/cli/logs/follow-import.js";
import { defaultStatePath, readFollowState } from "../../../../src/cli/logs/follow-state.js";
import { createLineParser } from "../../../../src/cli/logs/formats.js";
import { importLog } from "../../../../src/cli/logs/import.js";
import { openLogInput } from "../../../../src/cli/logs/input.js";
import type { SentHit } from "../../../../src/cli/logs/sender.js";
import type { ImportSummary } from "../../../../src/cli/logs/summary.js";

const INTERVAL_MS = 10;

/** One page view per n; `same` gives the identical line again (the occurrence tells them apart). */
function line(n: number, page = `/docs/page-${n}`): string {
  const second = String(n % 60).padStart(2, "0");
  return `198.51.100.${n % 250} - - [12/Mar/2025:09:14:${second} +0000] "GET ${page} HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/123.0"\n`;
}
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => line(from + i)).join("");

function fakeServer() {
  const ids: string[] = [];
  const send = async (hits: SentHit[]): Promise<HitBatchResult> => {
    const duplicates = hits.filter((hit) => ids.includes(hit.id)).length;
    ids.push(...hits.map((hit) => hit.id));
    return { accepted: hits.length, duplicates, rejected: [] };
  };
  return { send, ids, unique: () => new Set(ids).size };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  // Generous: the follower's timers run on a real clock, and a loaded machine is slow to fire them.
  const deadline = Date.now() + 25_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let running: { stop: () => void; done: Promise<ImportSummary> }[] = [];
afterEach(async () => {
  for (const follower of running) follower.stop();
  await Promise.allSettled(running.map((follower) => follower.done));
  running = [];
});

function startFollowing(logPath: string, server: ReturnType<typeof fakeServer>, notices: string[] = [], graceMs?: number) {
  const controller = new AbortController();
  const done = followLog({
    path: logPath,
    statePath: `${logPath}.state.json`,
    parser: createLineParser("combined"),
    send: server.send,
    signal: controller.signal,
    intervalMs: INTERVAL_MS,
    progress: () => undefined,
    notice: (text) => notices.push(text),
    graceMs,
  });
  const follower = { stop: () => controller.abort(), done };
  running.push(follower);
  return follower;
}

/** The ids a one-off import of the given text sends. */
async function oneOffIds(text: string): Promise<string[]> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "inkwell-oneoff-")), "access.log");
  writeFileSync(file, text);
  const server = fakeServer();
  const input = openLogInput(file, () => {
    throw new Error("no stdin");
  });
  await importLog({ parser: createLineParser("combined"), lines: input.lines, send: server.send, progress: () => undefined });
  return server.ids;
}

function newLog(content = ""): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "inkwell-follow-")), "access.log");
  writeFileSync(file, content);
  return file;
}

describe("import --follow", () => {
  it("reads what is there, then each line as it is completed; a half-written line waits for its end", async () => {
    const log = newLog(lines(1, 3));
    const server = fakeServer();
    const follower = startFollowing(log, server);
    await waitFor(() => server.ids.length === 3, "the first three lines");
    appendFileSync(log, line(4).slice(0, 40));
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 5));
    expect(server.ids).toHaveLength(3);
    appendFileSync(log, line(4).slice(40) + line(5));
    await waitFor(() => server.ids.length === 5, "the completed line and the next");
    follower.stop();
    expect(await follower.done).toMatchObject({ lines: 5, accepted: 5, alreadyImported: 0 });
    expect(server.ids).toEqual(await oneOffIds(lines(1, 5)));
  });

  it("finishes a rotated file, lines written to it after the rename included, then reads the new one from its start", async () => {
    const log = newLog(lines(1, 2));
    const server = fakeServer();
    const notices: string[] = [];
    const follower = startFollowing(log, server, notices);
    await waitFor(() => server.ids.length === 2, "the first lines");
    renameSync(log, `${log}.1`);
    appendFileSync(`${log}.1`, lines(3, 4)); // the server had not reopened its log yet
    writeFileSync(log, lines(5, 6));
    await waitFor(() => server.ids.length === 6, "both files");
    follower.stop();
    await follower.done;
    expect(server.unique()).toBe(6);
    expect(server.ids).toEqual([...(await oneOffIds(lines(1, 4))), ...(await oneOffIds(lines(5, 6)))]);
    expect(notices).toEqual([`${log} was rotated: following the new file`]);
  });

  it("keeps reading a rotated file while its writer still appends, until it has been quiet for the grace period", async () => {
    const log = newLog(lines(1, 2));
    const server = fakeServer();
    const follower = startFollowing(log, server, [], 400);
    await waitFor(() => server.ids.length === 2, "the first lines");
    renameSync(log, `${log}.1`);
    writeFileSync(log, lines(5, 6));
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 4));
    appendFileSync(`${log}.1`, lines(3, 4)); // the writer reopens its log only now
    await waitFor(() => server.ids.length === 6, "both files");
    follower.stop();
    await follower.done;
    expect(server.ids).toEqual([...(await oneOffIds(lines(1, 4))), ...(await oneOffIds(lines(5, 6)))]);
  });

  it("reads a file truncated in place (copytruncate) again from its start", async () => {
    const log = newLog(lines(1, 3));
    const server = fakeServer();
    const follower = startFollowing(log, server);
    await waitFor(() => server.ids.length === 3, "the first lines");
    truncateSync(log, 0);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 3));
    appendFileSync(log, lines(4, 5));
    await waitFor(() => server.ids.length === 5, "the rewritten file");
    follower.stop();
    await follower.done;
    expect(server.unique()).toBe(5);
  });

  it("resumes where the last accepted batch ended after a stop, identical lines on both sides counted apart", async () => {
    const repeated = line(7, "/docs/same");
    const log = newLog(lines(1, 2) + repeated);
    const server = fakeServer();
    const first = startFollowing(log, server);
    await waitFor(() => server.ids.length === 3, "the first lines");
    first.stop();
    expect(await first.done).toMatchObject({ accepted: 3 });
    expect(readFollowState(`${log}.state.json`, log)?.file).toMatchObject({ path: log, offset: readFileSync(log).length });

    appendFileSync(log, repeated + lines(3, 4));
    const second = startFollowing(log, server);
    await waitFor(() => server.ids.length === 6, "the lines added while stopped");
    second.stop();
    expect(await second.done).toMatchObject({ lines: 3, accepted: 3, alreadyImported: 0 });
    expect(server.unique()).toBe(6);
    expect(server.ids).toEqual(await oneOffIds(readFileSync(log, "utf8")));
  });

  it("finds the file it was reading under its rotated name after a restart, and finishes it before the new one", async () => {
    const log = newLog(lines(1, 2));
    const server = fakeServer();
    const first = startFollowing(log, server);
    await waitFor(() => server.ids.length === 2, "the first lines");
    first.stop();
    await first.done;
    appendFileSync(log, lines(3, 3));
    renameSync(log, `${log}.1`);
    writeFileSync(log, lines(4, 5));
    const notices: string[] = [];
    const second = startFollowing(log, server, notices);
    await waitFor(() => server.ids.length === 5, "the rest of the old file and the new one");
    second.stop();
    await second.done;
    expect(server.unique()).toBe(5);
    expect(notices[0]).toBe(`resuming ${log}.1 (rotated since the last run), then ${log}`);
  });

  it("keeps its state next to nothing secret, and refuses a state file of another log", () => {
    expect(defaultStatePath("/var/log/nginx/access.log", { XDG_STATE_HOME: "/home/ada/.state" })).toMatch(/^\/home\/ada\/\.state\/inkwell\/follow\/access\.log-[0-9a-f]{12}\.json$/);
    expect(defaultStatePath("/var/log/nginx/access.log", { HOME: "/home/ada" })).toMatch(/^\/home\/ada\/\.local\/state\/inkwell\/follow\/access\.log-[0-9a-f]{12}\.json$/);
    expect(defaultStatePath("/var/log/a/access.log", {})).not.toBe(defaultStatePath("/var/log/b/access.log", {}));
    const log = newLog();
    const other = newLog();
    writeFileSync(`${log}.state.json`, JSON.stringify({ version: 1, log: other, file: { path: other, dev: 1, ino: 2, offset: 0, head: null }, occurrences: "", savedAt: "" }));
    expect(() => readFollowState(`${log}.state.json`, log)).toThrow(`is for ${other}, not ${log}`);
    writeFileSync(`${log}.state.json`, "{");
    expect(() => readFollowState(`${log}.state.json`, log)).toThrow(/is not JSON/);
  });
});
