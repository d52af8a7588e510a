// npm run bench:import — `inkwell analytics import` beside GoAccess on the same combined log of
// BENCH_IMPORT_LINES lines (default 1,000,000), made from the real lines of
// test/fixtures/logs/access.log (bench/import-log.ts). Best of two runs, wall and CPU seconds:
// - GoAccess (Debian's `goaccess`), its whole run to a JSON report;
// - the CLI's own work, in cumulative passes over the file: read (the lines), + parse (each line
//   to a page view with its id, batched: the import's own loop, with a send that drops the batch);
//   classify: classifyHit on each of those page views, as the server does when it takes a batch;
// - send/store: the real CLI process importing a log of BENCH_IMPORT_SEND_LINES lines (default
//   100,000, the same mix; 0 leaves it out) into a server on BENCH_IMPORT_STORE (pglite, the
//   default, or postgres), until every batch is accepted (durable).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { classifyHit } from "../src/app/analytics/classify/classify.js";
import { readFormat } from "../src/app/analytics/ingest/read-format.js";
import { createLineParser } from "../src/cli/logs/formats.js";
import { importLog } from "../src/cli/logs/import.js";
import { openLogInput } from "../src/cli/logs/input.js";
import type { SentHit } from "../src/cli/logs/sender.js";
import { call, setUpStore, startServer, TOKEN } from "./bench-server.js";
import { writeCombinedLog } from "./import-log.js";

const LINES = Number(process.env.BENCH_IMPORT_LINES ?? 1_000_000);
const STORE = process.env.BENCH_IMPORT_STORE ?? "pglite";
const SEND_LINES = Math.min(LINES, Number(process.env.BENCH_IMPORT_SEND_LINES ?? 100_000));
interface Took {
  wall: number;
  cpu: number;
}

/** Wall and CPU seconds (this process's user + system time, which a busy machine inflates less). */
async function took(run: () => Promise<unknown>): Promise<Took> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await run();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - started) / 1_000, cpu: (used.user + used.system) / 1e6 };
}

async function best(run: () => Promise<unknown>): Promise<Took> {
  const [a, b] = [await took(run), await took(run)];
  return { wall: Math.min(a.wall, b.wall), cpu: Math.min(a.cpu, b.cpu) };
}

const drop = async (hits: SentHit[]) => ({ accepted: hits.length, duplicates: 0, rejected: [] });

/** The page views of the log, as the server receives them (kept for the classify pass). */
async function pageViews(file: string): Promise<SentHit[]> {
  const all: SentHit[] = [];
  await importWith(file, async (hits) => {
    all.push(...hits);
    return drop(hits);
  });
  return all;
}

/** What the server does first with each page view of a batch: its format, then its class. */
async function classifyAll(hits: readonly SentHit[]): Promise<void> {
  for (const hit of hits) classifyHit({ userAgent: hit.userAgent, format: readFormat(hit.path, hit.accept) });
}

async function readChars(file: string): Promise<number> {
  let chars = 0;
  for await (const line of openLogInput(file, () => process.stdin).lines) chars += line.length;
  return chars;
}

const importWith = (file: string, send: typeof drop) =>
  importLog({ parser: createLineParser("combined"), lines: openLogInput(file, () => process.stdin).lines, send, progress: () => undefined });

/** GoAccess's whole run to a JSON report, best of two; its CPU time is its user + system time, as bash's `time` reports it. */
function goaccess(file: string, dir: string): Took | string {
  try {
    execFileSync("goaccess", ["--version"], { stdio: "ignore" });
  } catch {
    return "not installed (Debian: apt-get install -y goaccess)";
  }
  const once = (): Took => {
    const command = `TIMEFORMAT='%R %U %S'; time goaccess "$1" --log-format=COMBINED --no-global-config --no-progress -o "$2" >/dev/null 2>&1`;
    const result = spawnSync("bash", ["-c", command, "bash", file, path.join(dir, "goaccess.json")], { encoding: "utf8" });
    const [wall = NaN, user = NaN, system = NaN] = result.stderr.trim().split("\n").at(-1)?.split(" ").map(Number) ?? [];
    return { wall, cpu: user + system };
  };
  const [a, b] = [once(), once()];
  return { wall: Math.min(a.wall, b.wall), cpu: Math.min(a.cpu, b.cpu) };
}

async function sendAndStore(dir: string): Promise<{ seconds: number; summary: string }> {
  const head = path.join(dir, "send.log");
  await writeCombinedLog(head, SEND_LINES);
  const store = await setUpStore(STORE);
  const server = await startServer(store.env);
  try {
    const project = await call(`${server.url}/admin/projects`, "POST", TOKEN, JSON.stringify({ repository: "acme/docs" }));
    const { key } = await call(`${server.url}/admin/projects/${project.id}/keys`, "POST", TOKEN, "{}");
    const env = { PATH: process.env.PATH ?? "", INKWELL_URL: server.url, INKWELL_API_KEY: key, INKWELL_PROJECT: project.id };
    let summary = "";
    const { wall } = await took(
      () =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ["bin/inkwell.js", "analytics", "import", "--format", "combined", "--json", head], { env, stdio: ["ignore", "pipe", "inherit"] });
          child.stdout.on("data", (chunk: Buffer) => (summary += chunk.toString()));
          child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`import exited ${code}: ${summary}`))));
        }),
    );
    return { seconds: wall, summary };
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    await store.cleanup();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), "inkwell-bench-import-"));
try {
  const file = path.join(dir, "access.log");
  await writeCombinedLog(file, LINES);
  const theirs = goaccess(file, dir);
  const read = await best(() => readChars(file));
  const parsed = await best(() => importWith(file, drop));
  const views = await pageViews(file);
  const classified = await best(() => classifyAll(views));
  const sent = SEND_LINES > 0 ? await sendAndStore(dir) : null;
  const row = (wall: number, cpu: number) => ({ "wall s": +wall.toFixed(2), "cpu s": +cpu.toFixed(2) });
  console.log(`import: ${LINES.toLocaleString("en")} combined lines (${views.length.toLocaleString("en")} page views), made from test/fixtures/logs/access.log`);
  console.table({
    "GoAccess, whole run": typeof theirs === "string" ? { "wall s": theirs } : row(theirs.wall, theirs.cpu),
    read: row(read.wall, read.cpu),
    parse: row(parsed.wall - read.wall, parsed.cpu - read.cpu),
    classify: row(classified.wall, classified.cpu),
    "CLI: read + parse + classify": row(parsed.wall + classified.wall, parsed.cpu + classified.cpu),
    ...(sent ? { [`send/store: the CLI process, ${SEND_LINES.toLocaleString("en")} lines, ${STORE}`]: { "wall s": +sent.seconds.toFixed(2) } } : {}),
  });
  if (typeof theirs !== "string") {
    const ours = { wall: parsed.wall + classified.wall, cpu: parsed.cpu + classified.cpu };
    console.log(`read + parse + classify / GoAccess: ${(ours.wall / theirs.wall).toFixed(2)}× wall, ${(ours.cpu / theirs.cpu).toFixed(2)}× cpu (goal ≤ 2×)`);
  }
  if (sent) {
    const { lines, accepted } = JSON.parse(sent.summary) as { lines: number; accepted: number };
    console.log(`send/store: ${Math.round(lines / sent.seconds).toLocaleString("en")} lines/s, ${Math.round(accepted / sent.seconds).toLocaleString("en")} page views/s accepted`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
