// npm run bench:run — a whole run of the Action, phase by phase, with an instant scripted model on a
// 200-page Mintlify repository: the real bundle spawned as GitHub's runner would (`node dist/index.js`),
// the real service (OIDC claim, heartbeats, report), real git on a bare remote, and Mintlify's real
// link engine (framework-check on), installed from the registry with an empty npm cache (cold) and
// then taken from the runner's tool cache (warm, as after a restore from GitHub's Actions cache).
// Runs: a first run, a follow-up, and a run whose first edit the gate refuses (one repair round).
// Needs the npm registry for the cold install. BENCH_RUN_COLD=0 skips the cold run.
// BENCH_RUN_BUNDLE=path/to/index.js runs another build of the Action instead.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkout, git, startActionHarness } from "../test/helpers/action-harness.js";
import { lastUserText, type ChatRequest, type ModelStep } from "../test/helpers/fake-model.js";
import { benchDocsRepo } from "./docs-repo.js";

const PAGES = 200;
// BENCH_RUN_BUNDLE: another build of the Action to compare (an older release prints no phases, only the wall time).
const BUNDLE = path.resolve(process.env.BENCH_RUN_BUNDLE ?? "dist/index.js");
const COLD = process.env.BENCH_RUN_COLD !== "0";

type Phase = { name: string; ms: number; background?: true };
type Measured = { label: string; wallMs: number; phases: Phase[]; status: string };

// Seed the harness's remote with the 200-page site.
const h = await startActionHarness("mintlify", () => ({ text: "unused" }));
const seed = checkout(h.remote);
for (const entry of readdirSync(seed)) if (entry !== ".git") rmSync(path.join(seed, entry), { recursive: true, force: true });
cpSync(benchDocsRepo(PAGES), seed, { recursive: true });
git(seed, "add", "-A");
git(seed, "-c", "user.name=Docs", "-c", "user.email=docs@example.com", "commit", "-qm", `${PAGES}-page site`);
git(seed, "push", "-q", "--force", "origin", "HEAD:main");

const edit = (page: number, find: string, replace: string) => ({ tools: [{ name: "edit_file", args: { path: `section-0/page-${page}.mdx`, find, replace, reason: "Benchmark edit." } }] });
/** Edits once, then answers; a repair request gets the fixed edit. */
const script =
  (first: ModelStep, repaired: ModelStep | null, summary: string) =>
  (request: ChatRequest): ModelStep => {
    const repairing = lastUserText(request).startsWith("Validation found");
    if (request.messages.at(-1)?.role === "tool") return { text: summary };
    return repairing && repaired ? repaired : first;
  };

const toolCache = mkdtempSync(path.join(tmpdir(), "inkwell-bench-tool-cache-"));
const npmCache = mkdtempSync(path.join(tmpdir(), "inkwell-bench-npm-cache-"));

async function runBundle(label: string, dispatched: { jobId: string; runAttempt: number }, extraEnv: Record<string, string>): Promise<Measured> {
  const { env, outputPath } = h.bundleEnv(dispatched, checkout(h.remote), { "framework-check": "true" });
  const started = performance.now();
  const child = spawn(process.execPath, [BUNDLE], { env: { ...env, RUNNER_TOOL_CACHE: toolCache, npm_config_cache: npmCache, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const wallMs = performance.now() - started;
  const outputs = readFileSync(outputPath, "utf8");
  const phases = JSON.parse(/phases<<(\S+)\n([\s\S]*?)\n\1/.exec(outputs)?.[2] ?? "[]") as Phase[];
  const status = /status<<(\S+)\n([\s\S]*?)\n\1/.exec(outputs)?.[2] ?? `exit ${code}`;
  if (code !== 0 || status !== "completed") throw new Error(`${label}: ${status}\n${log.slice(-3000)}`);
  return { label, wallMs, phases, status };
}

const results: Measured[] = [];
if (COLD) {
  h.model.setScript(script(edit(1, "See [the next page]", "Start with [the overview](/section-0/page-2). See [the next page]"), null, "Link the overview"));
  results.push(await runBundle("first run, cold npm cache", await h.createJob("Link the overview from page 1"), {}));
}
h.model.setScript(script(edit(3, "See [the next page]", "Start with [the overview](/section-0/page-2). See [the next page]"), null, "Link the overview"));
const job = await h.createJob("Link the overview from page 3");
results.push(await runBundle("first run, warm", job, {}));
h.model.setScript(script(edit(4, "See [the next page]", "Also read [page 5](/section-0/page-5). See [the next page]"), null, "Link page 5"));
results.push(await runBundle("follow-up, warm", await h.followUp(job.jobId, "Also link page 5 from page 4"), {}));
h.model.setScript(
  script(
    edit(6, "See [the next page]", "Read [the missing guide](/section-0/no-such-page). See [the next page]"),
    edit(6, "Read [the missing guide](/section-0/no-such-page).", "Read [the guide](/section-0/page-7)."),
    "Link the guide",
  ),
);
results.push(await runBundle("with one repair round, warm", await h.createJob("Link the guide from page 6"), {}));
await h.close();

// The table: one column per run, one row per phase (background phases marked), then the totals.
const names: string[] = [];
for (const { phases } of results) for (const { name, background } of phases) if (!names.includes(`${name}${background ? " (background)" : ""}`)) names.push(`${name}${background ? " (background)" : ""}`);
const seconds = (ms: number | undefined) => (ms === undefined ? "" : (ms / 1000).toFixed(2));
const rows = [
  ["phase", ...results.map((r) => r.label)],
  ...names.map((name) => [name, ...results.map((r) => seconds(r.phases.filter((p) => `${p.name}${p.background ? " (background)" : ""}` === name).reduce<number | undefined>((sum, p) => (sum ?? 0) + p.ms, undefined)))]),
  ["process start and exit (wall − phases on the path)", ...results.map((r) => seconds(r.wallMs - r.phases.filter((p) => !p.background).reduce((sum, p) => sum + p.ms, 0)))],
  ["whole run, wall", ...results.map((r) => seconds(r.wallMs))],
];
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
console.log(`Action run on a ${PAGES}-page Mintlify repository, instant model, framework-check on (seconds):`);
for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));

const repair = results.find((r) => r.label.startsWith("with one repair"));
if (repair) {
  const beyondModel = repair.phases.filter((p) => /\(round 2\)$/.test(p.name)).reduce((sum, p) => sum + p.ms, 0);
  console.log(`repair round beyond the model (agent tools, gate and link check of round 2): ${seconds(beyondModel)} s — goal ≤ 10 s`);
}
for (const r of results) console.log(`${r.label}: ${seconds(r.wallMs)} s — goal ≤ ${r.label.includes("cold") ? 60 : 30} s`);
