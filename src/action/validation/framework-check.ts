import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DocsProject } from "../docs/framework.js";
import type { BrokenLink } from "./link-checker.js";

/** A framework's own checker the gate runs next to its own link check. */
export interface FrameworkCheck {
  name: string;
  /** The directory of the site's config (docs.json), relative to the repository root. */
  siteDir: string;
}

export function frameworkCheckFor(project: DocsProject): FrameworkCheck | null {
  if (project.framework !== "mintlify") return null;
  // Mintlify's engine reads docs.json (a legacy mint.json is rewritten by `mint` itself first): it runs only where docs.json already is.
  const config = project.navigationFiles.find((file) => path.posix.basename(file) === "docs.json");
  if (!config) return null;
  return { name: "Mintlify's broken-link checker", siteDir: path.posix.dirname(config) };
}

/**
 * The lines a change wrote, per file (new line numbers), from `git diff --unified=0` output: the
 * `+c,d` side of each hunk.
 */
export function writtenLines(diff: string): Map<string, Set<number>> {
  const written = new Map<string, Set<number>>();
  let lines: Set<number> | null = null;
  for (const line of diff.split("\n")) {
    const file = /^\+\+\+ (?:b\/(.*)|\/dev\/null)$/.exec(line);
    if (file) {
      lines = file[1] === undefined ? null : new Set();
      if (lines && file[1]) written.set(file[1], lines);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && lines) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      for (let n = start; n < start + count; n++) lines.add(n);
    }
  }
  return written;
}

/** What the run changed, against the commit it started from. */
export interface RunChange {
  /** Lines the run wrote, per repository-relative file. */
  written: Map<string, Set<number>>;
  /** Every file of the starting commit (repository-relative). */
  filesBefore: Set<string>;
}

const MAX_PROBLEMS = 50;

/**
 * The broken links this run is answerable for, without checking the starting commit a second time:
 * a link on a line the run wrote (a new file's every line), or a link that pointed at a file of the
 * starting commit, which the run removed or moved. Links broken before the run, on lines it left
 * alone, are not the agent's.
 */
export async function brokenLinkProblems(check: FrameworkCheck, found: BrokenLink[], change: RunChange, repoRoot: string): Promise<string[]> {
  const problems: string[] = [];
  const texts = new Map<string, Promise<string[]>>();
  const linesOf = (file: string) => {
    let text = texts.get(file);
    if (!text) texts.set(file, (text = readFile(path.join(repoRoot, file), "utf8").then((t) => t.split("\n"), () => [])));
    return text;
  };
  for (const link of found) {
    if (problems.length >= MAX_PROBLEMS) break;
    const lines = await linesOf(link.file);
    const at = linesWithLink(lines, link.link);
    const isNew = !change.filesBefore.has(link.file);
    const written = change.written.get(link.file);
    const wrote = isNew ? at[0] : at.find((line) => written?.has(line));
    const pointedBefore = targetCandidates(check, link).some((candidate) => change.filesBefore.has(candidate));
    if (wrote === undefined && !pointedBefore) continue;
    const line = wrote ?? at[0] ?? 1;
    problems.push(`${link.file}:${line}: link '${link.link}' is broken (${check.name}${pointedBefore && wrote === undefined ? ": this change removed or moved what it pointed at" : ""})`);
  }
  return problems;
}

/** 1-based numbers of the lines that hold the link as a Markdown, JSX or autolink target. */
function linesWithLink(lines: string[], link: string): number[] {
  const quoted = [`(${link}`, `"${link}"`, `'${link}'`, `<${link}>`, `{${link}}`];
  const exact = lines.flatMap((line, index) => (quoted.some((form) => line.includes(form)) ? [index + 1] : []));
  return exact.length > 0 ? exact : lines.flatMap((line, index) => (line.includes(link) ? [index + 1] : []));
}

/** The repository files a site link may have named: root-relative to the site, or relative to its page. */
function targetCandidates(check: FrameworkCheck, link: BrokenLink): string[] {
  const target = link.link.split("#")[0]?.split("?")[0] ?? "";
  if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) return [];
  const base = (target.startsWith("/") ? path.posix.join(check.siteDir, target) : path.posix.join(path.posix.dirname(link.file), target)).replace(/\/+$/, "");
  return [base, `${base}.mdx`, `${base}.md`, `${base}/index.mdx`, `${base}/index.md`];
}
