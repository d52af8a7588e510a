// npm run bench:real-docs — the gate over thirteen real documentation sites (bench/real-docs/),
// as if every page were new: what it reports, how long it takes, and, for Mintlify sites, how much
// of it Mintlify's own broken-link checker confirms. The goal is measured by "unconfirmed problems
// per 100 pages" (≤ 1): problems that no framework checker raises are likely false alarms that
// would stop an agent's run on a healthy site.
//
//   --site NAME (repeatable) or REAL_DOCS_SITES=a,b   only these sites
//   --verbose or REAL_DOCS_SHOW=N                      up to N sample problems per kind per site (5 with --verbose)
//   REAL_DOCS_DIR=DIR                                  extract the corpus into DIR once and keep it (reused when present)
//
// Writes every problem per site to bench/real-docs/last-run.json for review. Mintlify's checker is
// installed from the npm registry into os.tmpdir()/inkwell-real-docs-tools, kept between runs.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { detectDocsProject, listPageFiles, type DocsProject } from "../src/action/docs/framework.js";
import { frameworkCheckFor } from "../src/action/validation/framework-check.js";
import { navigationProblems, runGate, type GateInput } from "../src/action/validation/gate.js";
import { prepareLinkChecker, type BrokenLink, type LinkChecker } from "../src/action/validation/link-checker.js";

const CORPUS_DIR = "bench/real-docs";
const REPORT_FILE = path.join(CORPUS_DIR, "last-run.json");
const TOOL_ROOT = path.join(tmpdir(), "inkwell-real-docs-tools");
/** runGate keeps at most this many problems (gate.ts MAX_PROBLEMS, not exported); a result this long was cut. */
const GATE_CAP = 200;
/** Pages per gate call when a site's problems must be gathered past the cap. */
const CHUNK = 100;

interface Source {
  name: string;
  repo: string;
  commit: string;
  framework: string;
  root: string;
  features: string[];
}

// ---------------------------------------------------------------------------------------------
// Problem kinds, read from the message formats of gate.ts, page.ts and mintlify-config.ts.

const KINDS = ["no-file", "anchor", "removed", "compile", "frontmatter", "not-in-nav", "nav-no-page", "schema", "other"] as const;
type Kind = (typeof KINDS)[number];
/** The kinds about links, which a framework's link checker can confirm. */
const LINK_KINDS = new Set<Kind>(["no-file", "anchor", "removed"]);

/** `file:line[:column]: ` or `file: ` before the message itself. */
const LOCATION = /^(.+?)(?::(\d+)(?::\d+)?)?: /;

function classify(problem: string): Kind {
  // The schema's messages end with this whatever the field (which may contain any word).
  if (problem.endsWith("(Mintlify's docs.json schema)")) return "schema";
  const message = problem.replace(LOCATION, "");
  if (/^(?:link|image) '.*' does not resolve to a file/.test(message)) return "no-file";
  if (/^link '.*': .* has no heading with the anchor #/.test(message)) return "anchor";
  if (/^links to '.*', which this change removed/.test(message)) return "removed";
  if (message.startsWith("does not compile as")) return "compile";
  if (message.startsWith("frontmatter") || /^Mintlify pages need .*frontmatter/.test(message)) return "frontmatter";
  if (message.startsWith("new page is not in the navigation")) return "not-in-nav";
  if (/^lists '.*' but there is no such page/.test(message)) return "nav-no-page";
  return "other";
}

/** The page and the link's URL of a link problem, as the gate writes them. */
function linkOfProblem(problem: string): { file: string; url: string } | null {
  const match = /^(.+?):\d+: (?:(?:link|image) '(.*)'(?: does not resolve|: )|links to '(.*)', which)/.exec(problem);
  if (!match) return null;
  return { file: match[1] as string, url: (match[2] ?? match[3]) as string };
}

/**
 * What a link points at, comparable between the gate and the checker: the path without anchor,
 * query, trailing slash or page extension, decoded. (The checker reports a link's path as
 * written; the gate its URL.)
 */
function linkKey(file: string, url: string): string {
  let target = url.split("#")[0]?.split("?")[0] ?? "";
  try {
    target = decodeURIComponent(target);
  } catch {
    // A malformed escape stays as written, on both sides.
  }
  target = target.replace(/\/+$/, "").replace(/\.mdx?$/, "");
  return `${file}\0${target || url}`;
}

// ---------------------------------------------------------------------------------------------
// Options and the corpus on disk.

function options() {
  const args = process.argv.slice(3); // node scripts/run-ts.mjs bench/real-docs.ts …
  const named = args.flatMap((arg, i) => (arg === "--site" && args[i + 1] ? [args[i + 1] as string] : []));
  const fromEnv = (process.env.REAL_DOCS_SITES ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const show = process.env.REAL_DOCS_SHOW ? Number(process.env.REAL_DOCS_SHOW) : args.includes("--verbose") ? 5 : 0;
  return { sites: [...named, ...fromEnv], show };
}

function selectSources(wanted: string[]): Source[] {
  const sources = JSON.parse(readFileSync(path.join(CORPUS_DIR, "sources.json"), "utf8")) as Source[];
  const unknown = wanted.filter((name) => !sources.some((s) => s.name === name));
  if (unknown.length) throw new Error(`unknown site(s): ${unknown.join(", ")}; known: ${sources.map((s) => s.name).join(", ")}`);
  return wanted.length ? sources.filter((s) => wanted.includes(s.name)) : sources;
}

/** The unpacked corpus: REAL_DOCS_DIR (extracted there once, then reused), else a temporary directory removed at the end. */
function unpackCorpus(): { dir: string; temporary: boolean } {
  const kept = process.env.REAL_DOCS_DIR;
  const dir = kept ? path.resolve(kept) : mkdtempSync(path.join(tmpdir(), "inkwell-real-docs-"));
  if (!kept || !existsSync(dir) || readdirSync(dir).length === 0) {
    mkdirSync(dir, { recursive: true });
    execFileSync("tar", ["-xzf", path.resolve(CORPUS_DIR, "corpus.tar.gz"), "-C", dir]);
  }
  return { dir, temporary: !kept };
}

/** Makes a site folder a git repository with one commit of everything: the gate compares against HEAD in places. */
function commitSite(repoRoot: string): void {
  if (existsSync(path.join(repoRoot, ".git"))) return;
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=bench@inkwell", "-c", "user.name=bench", "-c", "commit.gpgsign=false", ...args], { cwd: repoRoot, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  // -f: the sites' own .gitignore may name files their repositories nonetheless hold.
  git("add", "-A", "-f", ".");
  git("commit", "-q", "-m", "corpus snapshot");
}

// ---------------------------------------------------------------------------------------------
// The gate.

interface GateRun {
  project: DocsProject;
  pages: string[];
  seconds: number;
  problems: string[];
  /** Whether runGate's own result was cut at its cap, and the full list was gathered in chunks. */
  capped: boolean;
}

async function gateSite(repoRoot: string): Promise<GateRun> {
  const project = detectDocsProject(repoRoot);
  const pages = listPageFiles(repoRoot, project.docsDir, project.pageExtensions);
  const [nav] = project.navigationFiles;
  // The navigation as it is: unchanged, so the docs.json schema check has nothing to answer for.
  const navigationBefore = nav ? readFileSync(path.join(repoRoot, nav), "utf8") : null;
  const input: GateInput = {
    repoRoot,
    project,
    changedThisRun: pages,
    branchChanges: pages.map((page) => ({ path: page, status: "added" as const })),
    knownNavigationProblems: new Set(),
    navigationBefore,
  };
  const started = performance.now();
  const result = await runGate(input);
  const seconds = (performance.now() - started) / 1000;
  const capped = result.problems.length >= GATE_CAP;
  const problems = capped ? await gateUncapped(input) : result.problems;
  return { project, pages, seconds, problems, capped };
}

/**
 * Every problem of the gate, past its cap (gate.ts has no option to lift it): the pages in chunks,
 * each call small enough to stay under the cap (a full chunk is split again), then the navigation
 * once. Same problems as one call: page checks are per page, nothing is removed, and the
 * navigation's own problems are held back from the chunks (known) and taken once at the end.
 */
async function gateUncapped(input: GateInput): Promise<string[]> {
  const navigation = navigationProblems(input);
  const known = new Set(navigationProblems({ ...input, branchChanges: [] }));
  const pagesOf = async (pages: string[]): Promise<string[]> => {
    const { problems } = await runGate({ ...input, changedThisRun: pages, branchChanges: [], knownNavigationProblems: known });
    if (problems.length < GATE_CAP || pages.length === 1) return problems;
    const half = Math.ceil(pages.length / 2);
    return [...(await pagesOf(pages.slice(0, half))), ...(await pagesOf(pages.slice(half)))];
  };
  const problems: string[] = [];
  for (let i = 0; i < input.changedThisRun.length; i += CHUNK) problems.push(...(await pagesOf(input.changedThisRun.slice(i, i + CHUNK))));
  return [...problems, ...navigation];
}

// ---------------------------------------------------------------------------------------------
// Mintlify's checker.

interface CheckerRun {
  version: string;
  seconds: number;
  broken: BrokenLink[];
  /** Gate link problems the checker does not raise. */
  gateOnly: string[];
  /** Broken links the checker raises that the gate does not. */
  checkerOnly: BrokenLink[];
}

async function readyChecker(): Promise<{ checker: LinkChecker; line: string } | { error: string }> {
  try {
    const log = { info: (m: string) => console.log(`  ${m}`), warning: (m: string) => console.log(`  warning: ${m}`) };
    const prepared = await prepareLinkChecker({ toolRoot: TOOL_ROOT, archive: null, env: process.env, timeoutMs: 10 * 60_000, log });
    return { checker: prepared.checker, line: `@mintlify/link-rot ${prepared.checker.version} ready (${prepared.source}) in ${seconds(prepared.ms / 1000)} s` };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Runs the checker on the site as the Action does (run-validation.ts), files made repository-relative, and matches it with the gate's link problems. */
async function checkSite(checker: LinkChecker, repoRoot: string, project: DocsProject, problems: string[]): Promise<CheckerRun | null> {
  const check = frameworkCheckFor(project);
  if (!check) return null;
  const started = performance.now();
  const found = await checker.check(path.join(repoRoot, check.siteDir));
  const elapsed = (performance.now() - started) / 1000;
  const broken = found.map((link) => ({ ...link, file: path.posix.join(check.siteDir, link.file) }));
  const checkerKeys = new Set(broken.map((link) => linkKey(link.file, link.link)));
  const gateLinks = problems.filter((p) => LINK_KINDS.has(classify(p)));
  const gateKeys = new Set(gateLinks.flatMap((p) => {
    const link = linkOfProblem(p);
    return link ? [linkKey(link.file, link.url)] : [];
  }));
  const gateOnly = gateLinks.filter((p) => {
    const link = linkOfProblem(p);
    return !link || !checkerKeys.has(linkKey(link.file, link.url));
  });
  const checkerOnly = broken.filter((link) => !gateKeys.has(linkKey(link.file, link.link)));
  return { version: checker.version, seconds: elapsed, broken, gateOnly, checkerOnly };
}

// ---------------------------------------------------------------------------------------------
// Printing.

const seconds = (s: number) => s.toFixed(2);
const per100 = (count: number, pages: number) => (pages ? ((count / pages) * 100).toFixed(1) : "—");
const countKinds = (problems: string[]) => {
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number>;
  for (const problem of problems) counts[classify(problem)]++;
  return counts;
};

/** A plain-text table: the first `textColumns` columns left-aligned, numbers right-aligned. */
function table(header: string[], rows: string[][], textColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < textColumns ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function samples(name: string, problems: string[], show: number): void {
  for (const kind of KINDS) {
    const ofKind = problems.filter((p) => classify(p) === kind);
    if (!ofKind.length) continue;
    console.log(`  ${name} · ${kind} (${ofKind.length}):`);
    for (const problem of ofKind.slice(0, show)) console.log(`    ${problem}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

interface SiteResult {
  source: Source;
  gate: GateRun;
  checker: CheckerRun | null;
}

/** Problems no framework checker confirms: for Mintlify, gate link problems the checker does not raise, and every other problem; elsewhere, all. */
const unconfirmed = (site: SiteResult) => (site.checker ? site.checker.gateOnly.length + site.gate.problems.filter((p) => !LINK_KINDS.has(classify(p))).length : site.gate.problems.length);

const wallStarted = performance.now();
const { sites: wanted, show } = options();
const sources = selectSources(wanted);
const corpus = unpackCorpus();
console.log(`corpus in ${corpus.dir}${corpus.temporary ? " (temporary; REAL_DOCS_DIR=… keeps it)" : ""}`);

const results: SiteResult[] = [];
const findings: string[] = [];
const gateHeader = ["site", "framework", "pages", "gate s", "problems", "/100 pages", ...KINDS];
const gateRow = ({ source, gate }: SiteResult) => {
  const counts = countKinds(gate.problems);
  return [source.name, gate.project.framework, String(gate.pages.length), seconds(gate.seconds), String(gate.problems.length), per100(gate.problems.length, gate.pages.length), ...KINDS.map((k) => String(counts[k]))];
};

for (const source of sources) {
  const repoRoot = path.join(corpus.dir, source.name);
  if (!existsSync(repoRoot)) {
    findings.push(`${source.name}: not in corpus.tar.gz`);
    continue;
  }
  commitSite(repoRoot);
  const gate = await gateSite(repoRoot);
  if (gate.project.framework !== source.framework) findings.push(`${source.name}: detected as ${gate.project.framework}, sources.json says ${source.framework}`);
  if (gate.pages.length === 0) findings.push(`${source.name}: no pages under the detected docs directory '${gate.project.docsDir}'`);
  if (gate.capped) findings.push(`${source.name}: runGate cut its result at ${GATE_CAP}; all ${gate.problems.length} problems gathered by chunked gate calls (untimed)`);
  results.push({ source, gate, checker: null });
  console.log(`gate: ${source.name} done in ${seconds(gate.seconds)} s (${gate.project.framework}, docs '${gate.project.docsDir}', navigation ${gate.project.navigationFiles.join(", ") || "none"})`);
}

console.log(`\nThe gate, every page as new:\n${table(gateHeader, results.map(gateRow), 2)}`);

const mintlify = results.filter((site) => frameworkCheckFor(site.gate.project));
if (mintlify.length) {
  console.log(`\nMintlify's broken-link checker (tool root ${TOOL_ROOT}):`);
  const ready = await readyChecker();
  if ("error" in ready) findings.push(`Mintlify's checker could not be had, so no Mintlify problem counts as confirmed: ${ready.error}`);
  else {
    console.log(`  ${ready.line}`);
    for (const site of mintlify) site.checker = await checkSite(ready.checker, path.join(corpus.dir, site.source.name), site.gate.project, site.gate.problems);
  }
}

const checkerHeader = ["site", "checker s", "checker broken", "gate links", "gate-only links", "checker-only", "unconfirmed", "unconfirmed /100 pages"];
const checkerRow = (site: SiteResult) => {
  const links = site.gate.problems.filter((p) => LINK_KINDS.has(classify(p))).length;
  const { checker } = site;
  const dash = "—";
  return [site.source.name, checker ? seconds(checker.seconds) : dash, checker ? String(checker.broken.length) : dash, String(links), checker ? String(checker.gateOnly.length) : dash, checker ? String(checker.checkerOnly.length) : dash, String(unconfirmed(site)), per100(unconfirmed(site), site.gate.pages.length)];
};
console.log(`\nAgainst the framework's own checker (goal: unconfirmed ≤ 1 per 100 pages):\n${table(checkerHeader, results.map(checkerRow))}`);

if (show > 0) {
  console.log(`\nSamples (up to ${show} per kind):`);
  for (const { source, gate } of results) samples(source.name, gate.problems, show);
}

const totalPages = results.reduce((n, s) => n + s.gate.pages.length, 0);
const totalProblems = results.reduce((n, s) => n + s.gate.problems.length, 0);
const totalUnconfirmed = results.reduce((n, s) => n + unconfirmed(s), 0);
const totalGateSeconds = results.reduce((n, s) => n + s.gate.seconds, 0);
console.log(`\nTotals: ${results.length} sites, ${totalPages} pages, gate ${seconds(totalGateSeconds)} s, ${totalProblems} problems (${per100(totalProblems, totalPages)} per 100 pages), unconfirmed ${totalUnconfirmed} (${per100(totalUnconfirmed, totalPages)} per 100 pages)`);
if (results.some((s) => !frameworkCheckFor(s.gate.project))) {
  console.log("— no framework checker: VitePress, MkDocs and Docusaurus builds need the sites' dependencies or Python, not available offline; all their problems count as unconfirmed.");
}
console.log("Mintlify's checker runs as the Action runs it, without anchors (link-checker.ts passes checkAnchors: false), so every gate anchor problem counts as unconfirmed.");
for (const finding of findings) console.log(`finding: ${finding}`);

writeFileSync(REPORT_FILE, `${JSON.stringify(report(), null, 2)}\n`);
console.log(`\nEvery problem: ${REPORT_FILE}; wall ${seconds((performance.now() - wallStarted) / 1000)} s`);
if (corpus.temporary) rmSync(corpus.dir, { recursive: true, force: true });

function report() {
  return { ranAt: new Date().toISOString(), findings, sites: results.map(siteReport) };
}

/** One site's part of the report: every problem with its kind, and whether the checker raised it too (Mintlify link problems). */
function siteReport(site: SiteResult) {
  const { source, gate, checker } = site;
  const gateOnly = new Set(checker?.gateOnly);
  const confirmation = (text: string) => (checker && LINK_KINDS.has(classify(text)) ? { confirmedByChecker: !gateOnly.has(text) } : {});
  return {
    name: source.name,
    framework: source.framework,
    detected: { framework: gate.project.framework, docsDir: gate.project.docsDir, navigationFiles: gate.project.navigationFiles },
    pages: gate.pages.length,
    gateSeconds: +seconds(gate.seconds),
    gateCapped: gate.capped,
    counts: countKinds(gate.problems),
    unconfirmed: unconfirmed(site),
    problems: gate.problems.map((text) => ({ kind: classify(text), text, ...confirmation(text) })),
    checker: checker && { version: checker.version, seconds: +seconds(checker.seconds), broken: checker.broken, checkerOnly: checker.checkerOnly },
  };
}
