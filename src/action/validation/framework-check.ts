import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DocsProject } from "../docs/framework.js";
import { commandEnvironment, howItEnded, runCommand } from "./check-command.js";

/**
 * Mintlify's own broken-link checker, the `mint` CLI from npm (the major version pinned; npx keeps it
 * in the runner's npm cache, so a workflow that caches `~/.npm` installs it once).
 */
export const MINT_BROKEN_LINKS_COMMAND = "npx --yes mint@4 broken-links";

/** A framework's own checker the gate runs next to its own link check. */
export interface FrameworkCheck {
  name: string;
  command: string;
  /** Where it runs, relative to the repository root. */
  directory: string;
}

export interface BrokenLink {
  /** Relative to the repository root. */
  file: string;
  link: string;
}

export type FrameworkCheckRun = { ran: true; broken: BrokenLink[] } | { ran: false; why: string };

export function frameworkCheckFor(project: DocsProject): FrameworkCheck | null {
  if (project.framework !== "mintlify") return null;
  // mint rewrites a legacy mint.json into a new docs.json before it checks: it runs only where docs.json already is.
  const config = project.navigationFiles.find((file) => path.posix.basename(file) === "docs.json");
  if (!config) return null;
  return { name: "Mintlify's broken-link checker", command: MINT_BROKEN_LINKS_COMMAND, directory: path.posix.dirname(config) };
}

// eslint-disable-next-line no-control-regex -- terminal escapes are what is being removed
const TERMINAL_ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * The broken links in `mint broken-links` output (`found N broken links in M files`, then each file
 * and its links, marked `⎿` or, under CLI_TEST_MODE, `├─`/`└─`); null when the output holds no such report.
 */
export function parseBrokenLinksReport(output: string): BrokenLink[] | null {
  const lines = output
    .replace(TERMINAL_ESCAPES, "")
    .replace(/\u00a0/g, " ")
    .split(/\r?\n/);
  const start = lines.findIndex((line) => /^found \d+ broken links? in \d+ files?$/.test(line.trim()));
  if (start < 0) return null;
  const broken: BrokenLink[] = [];
  let file: string | null = null;
  for (const line of lines.slice(start + 1)) {
    const item = /^\s*(?:⎿|├─|└─)\s*(\S.*)$/.exec(line);
    if (item) {
      if (file) broken.push({ file, link: (item[1] as string).trim() });
    } else if (line.trim()) {
      file = line.trim();
    }
  }
  return broken;
}

/** Runs the checker on the docs under `root` (the workspace, or a checkout of the run's starting commit). */
export async function runFrameworkCheck(check: FrameworkCheck, root: string, options: { timeoutMs: number; env: NodeJS.ProcessEnv }): Promise<FrameworkCheckRun> {
  // CLI_TEST_MODE makes mint print plain lines instead of an interactive terminal view.
  const run = await runCommand(check.command, path.join(root, check.directory), { timeoutMs: options.timeoutMs, env: { ...commandEnvironment(options.env), CLI_TEST_MODE: "true" } });
  if (run.code === 0) return { ran: true, broken: [] };
  const broken = run.code === 1 ? parseBrokenLinksReport(run.output) : null;
  if (broken) return { ran: true, broken: broken.map((link) => ({ file: path.posix.join(check.directory, link.file), link: link.link })) };
  const tail = run.output.replace(TERMINAL_ESCAPES, "").trim().slice(-1_000);
  return { ran: false, why: `\`${check.command}\` ${howItEnded(run, options.timeoutMs)}${tail ? `: ${tail}` : ""}` };
}

/**
 * The checker's findings on the commit the run starts from, in a separate worktree so it can run
 * while the agent edits the workspace: what was broken before is not the agent's to fix.
 */
export async function runFrameworkCheckBefore(
  check: FrameworkCheck,
  git: { git(args: string[]): Promise<string> },
  options: { timeoutMs: number; env: NodeJS.ProcessEnv },
): Promise<FrameworkCheckRun> {
  const directory = await mkdtemp(path.join(options.env.RUNNER_TEMP || tmpdir(), "inkwell-before-"));
  try {
    await git.git(["worktree", "add", "--detach", directory, "HEAD"]);
    return await runFrameworkCheck(check, directory, options);
  } catch (error) {
    return { ran: false, why: error instanceof Error ? error.message : String(error) };
  } finally {
    await git.git(["worktree", "remove", "--force", directory]).catch(() => undefined);
    await rm(directory, { recursive: true, force: true });
  }
}

const MAX_PROBLEMS = 50;

/**
 * The links the run broke: those found now beyond the same file's and link's count before the run;
 * when the checker could not run before, those in the files this run changed.
 */
export async function brokenLinkProblems(check: FrameworkCheck, after: BrokenLink[], before: FrameworkCheckRun, changedThisRun: string[], repoRoot: string): Promise<string[]> {
  const key = (link: BrokenLink) => `${link.file}\n${link.link}`;
  const remaining = new Map<string, number>();
  if (before.ran) for (const link of before.broken) remaining.set(key(link), (remaining.get(key(link)) ?? 0) + 1);
  const changed = new Set(changedThisRun);
  const fresh = after.filter((link) => {
    if (!before.ran) return changed.has(link.file);
    const left = remaining.get(key(link)) ?? 0;
    remaining.set(key(link), left - 1);
    return left <= 0;
  });
  return Promise.all(fresh.slice(0, MAX_PROBLEMS).map(async (link) => `${link.file}:${await lineOf(repoRoot, link)}: link '${link.link}' is broken (${check.name}, \`mint broken-links\`)`));
}

async function lineOf(repoRoot: string, link: BrokenLink): Promise<number> {
  const text = await readFile(path.join(repoRoot, link.file), "utf8").catch(() => "");
  const lines = text.split("\n");
  const quoted = [`(${link.link}`, `"${link.link}"`, `'${link.link}'`, `<${link.link}>`];
  const index = lines.findIndex((line) => quoted.some((form) => line.includes(form)));
  return index >= 0 ? index + 1 : Math.max(1, lines.findIndex((line) => line.includes(link.link)) + 1);
}
