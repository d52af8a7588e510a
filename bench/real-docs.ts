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
import { detectDocsProject, docusaurusInstances, listPageFiles, type DocsProject } from "../src/action/docs/framework.js";
import { frameworkCheckFor } from "../src/action/validation/framework-check.js";
import { runGate } from "../src/action/validation/gate.js";
import { prepareLinkChecker, type BrokenLink, type LinkChecker } from "../src/action/validation/link-checker.js";

const CORPUS_DIR = "bench/real-docs";
const REPORT_FILE = path.join(CORPUS_DIR, "last-run.json");
const TOOL_ROOT = path.join(tmpdir(), "inkwell-real-docs-tools");

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

/** What checkLink names the reference it could not resolve (page.ts PageLink kinds: page is "link", asset "image"). */
const REFERENCE = "(?:link|image|import|include)";
const UNRESOLVED = new RegExp(`^${REFERENCE} '.*' does not resolve to a file`);
/** A link problem: the page, then the URL (unresolved or anchorless), or the URL into a removed page. */
const LINK_PROBLEM = new RegExp(`^(.+?):\\d+: (?:${REFERENCE} '(.*)'(?: does not resolve|: )|links to '(.*)', which)`);
/** `file:line[:column]: ` or `file: ` before the message itself. */
const LOCATION = /^(.+?)(?::(\d+)(?::\d+)?)?: /;

function classify(problem: string): Kind {
  // The schema's messages end with this whatever the field (which may contain any word).
  if (problem.endsWith("(Mintlify's docs.json schema)")) return "schema";
  const message = problem.replace(LOCATION, "");
  if (UNRESOLVED.test(message)) return "no-file";
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
  const match = LINK_PROBLEM.exec(problem);
  if (!match) return null;
  return { file: match[1] as string, url: (match[2] ?? match[3]) as string };
}

/**
 * What a link points at, comparable between the gate and the checker: the path without query,
 * trailing slash or page extension, and the anchor, decoded. (The checker reports a link's path as
 * written; the gate its URL.)
 */
function linkKey(file: string, url: string): string {
  const [beforeHash = "", anchor] = url.split("#", 2);
  const target = decode(beforeHash.split("?")[0] ?? "").replace(/\/+$/, "").replace(/\.mdx?$/, "");
  return `${file}\0${target}${anchor === undefined ? "" : `#${decode(anchor)}`}`;
}

/** A malformed escape stays as written, on both sides. */
function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
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
  /** One repair round as a run meets it: one page changed, another moved away (its old links checked across the site). */
  roundSeconds: number;
}

async function gateSite(repoRoot: string): Promise<GateRun> {
  const project = detectDocsProject(repoRoot);
  // Every page of the docs: on a Docusaurus site, of each docs plugin instance.
  const docsDirs = project.framework === "docusaurus" ? docusaurusInstances(repoRoot, project).map((instance) => instance.docsDir) : [project.docsDir];
  const pages = [...new Set(docsDirs.flatMap((dir) => listPageFiles(repoRoot, dir, project.pageExtensions)))];
  const [nav] = project.navigationFiles;
  const started = performance.now();
  const { problems } = await runGate({
    repoRoot,
    project,
    changedThisRun: pages,
    // Every page new: each must be reachable from the navigation, and none had problems before.
    branchChanges: pages.map((page) => ({ path: page, status: "added" as const })),
    // The navigation as it is, unchanged: the docs.json schema check has nothing to answer for.
    navigationBefore: nav ? readFileSync(path.join(repoRoot, nav), "utf8") : null,
    // The gate stops at 200 by default; the bench counts every problem.
    maxProblems: Infinity,
  });
  const seconds = (performance.now() - started) / 1000;
  return { project, pages, seconds, problems, roundSeconds: await timeRound(repoRoot, project, pages) };
}

/** A round's gate: the first page edited, the second taken as moved (every page linking to it is read), checked on the trees before and after. */
async function timeRound(repoRoot: string, project: DocsProject, pages: string[]): Promise<number> {
  const [edited, moved] = pages;
  if (!edited) return 0;
  const started = performance.now();
  await runGate({
    repoRoot,
    project,
    changedThisRun: [edited],
    branchChanges: [{ path: edited, status: "modified" }, ...(moved ? [{ path: `${moved}.moved`, status: "renamed" as const, from: moved }] : [])],
    // Every check on both trees (the same site here): the differential round's cost.
    beforeRoot: repoRoot,
  });
  return (performance.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Mintlify's checker.

interface CheckerRun {
  version: string;
  seconds: number;
  /** A repair round after it: one page edited, the rest read from the pages kept since the first check. */
  roundSeconds: number;
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
async function checkSite(checker: LinkChecker, repoRoot: string, project: DocsProject, problems: string[], pages: string[]): Promise<CheckerRun | null> {
  const check = frameworkCheckFor(project);
  if (!check) return null;
  const started = performance.now();
  const found = await checker.check(path.join(repoRoot, check.siteDir));
  const elapsed = (performance.now() - started) / 1000;
  const roundSeconds = await timeCheckerRound(checker, path.join(repoRoot, check.siteDir), pages[0] ? path.join(repoRoot, pages[0]) : null);
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
  return { version: checker.version, seconds: elapsed, roundSeconds, broken, gateOnly, checkerOnly };
}

/** The checker's second round: one page edited (a repair round's change), then put back. */
async function timeCheckerRound(checker: LinkChecker, siteRoot: string, file: string | null): Promise<number> {
  if (!file) return 0;
  const before = readFileSync(file, "utf8");
  writeFileSync(file, `${before}\n\nEdited in a repair round.\n`);
  const started = performance.now();
  await checker.check(siteRoot);
  const elapsed = (performance.now() - started) / 1000;
  writeFileSync(file, before);
  return elapsed;
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

/**
 * Problems a person read in the site and confirmed as real (bench/real-docs/confirmed.json: the
 * problem's text without its line number, and why), for frameworks whose own checker cannot run
 * here. A problem the review confirms counts like one the framework's checker raises.
 */
const reviewed = loadReviewed();
function loadReviewed(): Map<string, Set<string>> {
  // npm runs benchmarks from the repository root.
  const found = path.resolve("bench", "real-docs", "confirmed.json");
  if (!existsSync(found)) return new Map();
  const entries = JSON.parse(readFileSync(found, "utf8")) as { site: string; problem: string; why: string }[];
  const bySite = new Map<string, Set<string>>();
  for (const entry of entries) (bySite.get(entry.site) ?? bySite.set(entry.site, new Set()).get(entry.site))?.add(entry.problem);
  return bySite;
}
const withoutLine = (problem: string) => problem.replace(/^([^:]+):\d+(?::\d+)?:/, "$1:");

/**
 * Pages the site already has outside its navigation (Mintlify's hidden pages, a blog's posts): the
 * "new page is not in the navigation" rule is Inkwell's for pages an agent adds, and in a real run
 * it never reads a page the branch did not add; the bench, taking every page as new, meets them all.
 * They are counted apart, not as false problems.
 */
const hidden = (site: SiteResult) => site.gate.problems.filter((p) => classify(p) === "not-in-nav").length;

/** Problems neither the framework's checker (Mintlify) nor the review confirms, hidden pages apart. */
const unconfirmed = (site: SiteResult) => {
  const confirmedByReview = reviewed.get(site.source.name) ?? new Set<string>();
  const open = (problem: string) => classify(problem) !== "not-in-nav" && !confirmedByReview.has(withoutLine(problem));
  if (!site.checker) return site.gate.problems.filter(open).length;
  const gateOnly = new Set(site.checker.gateOnly);
  return site.gate.problems.filter((problem) => open(problem) && (!LINK_KINDS.has(classify(problem)) || gateOnly.has(problem))).length;
};

const wallStarted = performance.now();
const { sites: wanted, show } = options();
const sources = selectSources(wanted);
const corpus = unpackCorpus();
console.log(`corpus in ${corpus.dir}${corpus.temporary ? " (temporary; REAL_DOCS_DIR=… keeps it)" : ""}`);

const results: SiteResult[] = [];
const findings: string[] = [];
const gateHeader = ["site", "framework", "pages", "gate s", "round s", "problems", "/100 pages", ...KINDS];
const gateRow = ({ source, gate }: SiteResult) => {
  const counts = countKinds(gate.problems);
  return [source.name, gate.project.framework, String(gate.pages.length), seconds(gate.seconds), seconds(gate.roundSeconds), String(gate.problems.length), per100(gate.problems.length, gate.pages.length), ...KINDS.map((k) => String(counts[k]))];
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
    for (const site of mintlify) site.checker = await checkSite(ready.checker, path.join(corpus.dir, site.source.name), site.gate.project, site.gate.problems, site.gate.pages);
  }
}

const checkerHeader = ["site", "checker s", "round s", "checker broken", "gate links", "gate-only links", "checker-only", "hidden pages", "unconfirmed", "unconfirmed /100 pages"];
const checkerRow = (site: SiteResult) => {
  const links = site.gate.problems.filter((p) => LINK_KINDS.has(classify(p))).length;
  const { checker } = site;
  const dash = "—";
  return [site.source.name, checker ? seconds(checker.seconds) : dash, checker ? seconds(checker.roundSeconds) : dash, checker ? String(checker.broken.length) : dash, String(links), checker ? String(checker.gateOnly.length) : dash, checker ? String(checker.checkerOnly.length) : dash, String(hidden(site)), String(unconfirmed(site)), per100(unconfirmed(site), site.gate.pages.length)];
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
  console.log("— no framework checker: VitePress, MkDocs and Docusaurus builds need the sites' dependencies or Python, not available offline; their problems count as unconfirmed unless a person confirmed them (bench/real-docs/confirmed.json).");
}
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
    counts: countKinds(gate.problems),
    unconfirmed: unconfirmed(site),
    problems: gate.problems.map((text) => ({ kind: classify(text), text, ...confirmation(text) })),
    checker: checker && { version: checker.version, seconds: +seconds(checker.seconds), roundSeconds: +seconds(checker.roundSeconds), broken: checker.broken, checkerOnly: checker.checkerOnly },
  };
}
