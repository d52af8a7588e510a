import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { commandEnvironment, howItEnded, runCommand } from "./check-command.js";
import { incrementalLinkGraph, loadGraphParts } from "./mintlify-link-graph.js";

/**
 * Mintlify's broken-link engine: `@mintlify/link-rot`, the library `mint broken-links` runs, pinned
 * with its whole dependency tree by a lockfile in the Action's checkout (vendor/mintlify/link-checker/,
 * next to dist/ in a release, at the repository root from source). A lockfile install skips npm's
 * resolution, a third of the package's size is left out (the `mint` CLI's bundled agents and
 * previewer), and nothing asks the registry which version is newest on every run.
 */
const LOCK_DIR_CANDIDATES = ["../vendor/mintlify/link-checker", "../../../vendor/mintlify/link-checker"].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
const PACKAGE = "@mintlify/link-rot";

export interface BrokenLink {
  /** Relative to the repository root. */
  file: string;
  link: string;
}

export interface LinkChecker {
  /** The engine's version, for messages. */
  version: string;
  /** Broken internal links of the Mintlify site whose docs.json is in `siteRoot`, files relative to `siteRoot`. */
  check(siteRoot: string): Promise<BrokenLink[]>;
  /** Reads the site's pages ahead of the first check (started while the model works) until `signal` aborts; a no-op where the engine cannot keep them. */
  warm(siteRoot: string, signal?: AbortSignal): Promise<void>;
}

/** Where a ready engine came from, and what getting it cost. */
export interface PreparedLinkChecker {
  checker: LinkChecker;
  source: "tool cache" | "actions cache" | "installed";
  ms: number;
  /** Saving a fresh install to the Actions cache, which the run awaits before it ends (null: nothing to save). */
  saving: Promise<void> | null;
}

/** GitHub's Actions cache as the checker uses it (production: @actions/cache; null where the runner has none). */
export interface ToolArchive {
  restore(directory: string, key: string): Promise<boolean>;
  save(directory: string, key: string): Promise<void>;
}

export interface PrepareOptions {
  /** RUNNER_TOOL_CACHE (kept between runs on self-hosted runners), else RUNNER_TEMP, else the OS's. */
  toolRoot: string;
  archive: ToolArchive | null;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  log: { info(message: string): void; warning(message: string): void };
  /** The directory holding the pinned package.json and package-lock.json (default: the vendored one). */
  lockDir?: string;
}

export const toolRootOf = (env: NodeJS.ProcessEnv) => env.RUNNER_TOOL_CACHE || env.RUNNER_TEMP || tmpdir();

export function vendoredLockDir(): string | null {
  return LOCK_DIR_CANDIDATES.find((candidate) => existsSync(path.join(candidate, "package-lock.json"))) ?? null;
}

/** The install's directory and cache key: named by the lockfile's hash, so a new pin is a new install, and by the platform (native parts). */
export function linkCheckerPlace(toolRoot: string, lockDir: string): { directory: string; key: string } {
  const lock = readFileSync(path.join(lockDir, "package-lock.json"));
  const hash = createHash("sha256").update(readFileSync(path.join(lockDir, "package.json"))).update(lock).digest("hex").slice(0, 16);
  const key = `inkwell-link-checker-${process.platform}-${process.arch}-${hash}`;
  return { directory: path.join(toolRoot, "inkwell-link-checker", key), key };
}

const installed = (directory: string) => existsSync(path.join(directory, "node_modules", ...PACKAGE.split("/"), "package.json"));

/**
 * The engine, ready to check: from the runner's tool cache, else GitHub's Actions cache, else a
 * lockfile install (`npm ci`), then saved to the Actions cache for the next run. Started when the
 * run starts, so it comes while the model works. Throws with the reason when it cannot be had.
 */
export async function prepareLinkChecker(options: PrepareOptions): Promise<PreparedLinkChecker> {
  const started = performance.now();
  const lockDir = options.lockDir ?? vendoredLockDir();
  if (!lockDir) throw new Error("the Action's checkout has no vendor/mintlify/link-checker/package-lock.json");
  const { directory, key } = linkCheckerPlace(options.toolRoot, lockDir);
  let source: PreparedLinkChecker["source"] = "tool cache";
  let saving: Promise<void> | null = null;
  if (!installed(directory) && options.archive && (await restoreQuietly(options.archive, directory, key, options.log))) source = "actions cache";
  if (!installed(directory)) {
    source = "installed";
    await installInto(directory, lockDir, options);
    saving = options.archive?.save(directory, key).catch((error: unknown) => options.log.warning(`link checker not saved to the Actions cache: ${messageOf(error)}`)) ?? null;
  }
  const checker = await loadLinkChecker(directory, options.log);
  return { checker, source, ms: Math.round(performance.now() - started), saving };
}

async function restoreQuietly(archive: ToolArchive, directory: string, key: string, log: PrepareOptions["log"]): Promise<boolean> {
  try {
    return (await archive.restore(directory, key)) && installed(directory);
  } catch (error) {
    log.warning(`link checker not restored from the Actions cache: ${messageOf(error)}`);
    return false;
  }
}

/** `npm ci` from the pinned lockfile into a fresh directory, moved into place only once complete. */
async function installInto(directory: string, lockDir: string, options: PrepareOptions): Promise<void> {
  const staging = `${directory}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of ["package.json", "package-lock.json"]) cpSync(path.join(lockDir, file), path.join(staging, file));
  // Its packages need no install scripts (native parts come as prebuilt optional packages).
  const command = "npm ci --ignore-scripts --no-audit --no-fund --loglevel=error";
  const run = await runCommand(command, staging, { timeoutMs: options.timeoutMs, env: { ...commandEnvironment(options.env), ...npmSettings(options.env) } });
  if (run.code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`\`${command}\` ${howItEnded(run, options.timeoutMs)}: ${run.output.trim().slice(-500)}`);
  }
  rmSync(directory, { recursive: true, force: true });
  renameSync(staging, directory);
}

/** npm's own settings from the environment (a registry mirror, its cache), which commandEnvironment leaves out. */
const npmSettings = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => /^npm_config_/i.test(entry[0]) && entry[1] !== undefined));

interface LinkRotPath {
  relativeDir: string;
  filename: string;
  originalPath: string;
}
interface LinkRot {
  buildGraph(root: string, options?: { checkSnippets?: boolean }): Promise<{ precomputeFileResolutions(): void; getBrokenInternalLinks(options: { checkAnchors: boolean }): LinkRotPath[] }>;
}

/**
 * Loads the installed engine into this process once. Its pages' parses are kept between checks
 * (mintlify-link-graph.ts), so a round re-reads only what changed; an engine without the parts for
 * that builds a fresh graph of the site on every check, as `mint broken-links` does.
 */
export async function loadLinkChecker(directory: string, log: Pick<PrepareOptions["log"], "warning">): Promise<LinkChecker> {
  const packageDir = path.join(directory, "node_modules", ...PACKAGE.split("/"));
  const entry = createRequire(path.join(directory, "package.json")).resolve(PACKAGE);
  const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string };
  const engine = (await import(pathToFileURL(entry).href)) as LinkRot;
  if (typeof engine.buildGraph !== "function") throw new Error(`${PACKAGE} ${version} has no buildGraph: the pin in vendor/mintlify/link-checker needs a look`);
  const parts = await loadGraphParts(packageDir);
  const incremental = parts ? incrementalLinkGraph(parts, (message) => log.warning(message)) : null;
  // As `mint broken-links --check-anchors --check-snippets`: Mintlify is the authority on its own anchors and snippet imports.
  const wholeGraph = async (siteRoot: string) => {
    const graph = await engine.buildGraph(siteRoot, { checkSnippets: true });
    graph.precomputeFileResolutions();
    return graph.getBrokenInternalLinks({ checkAnchors: true });
  };
  return {
    version,
    async check(siteRoot) {
      const broken = incremental ? await incremental.brokenLinks(siteRoot) : await wholeGraph(siteRoot);
      return broken.map((link) => ({ file: path.posix.join(link.relativeDir.split(path.sep).join("/"), link.filename), link: link.originalPath }));
    },
    warm: (siteRoot, signal) => incremental?.warm(siteRoot, signal) ?? Promise.resolve(),
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
