import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DocsProject } from "../docs/framework.js";
import type { BrokenLink } from "./link-checker.js";
import { splitByKey } from "./problem-keys.js";

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

const MAX_PROBLEMS = 50;
/** As many of the site's own broken links as a report lists (all are counted). */
const MAX_LISTED = 200;

/**
 * The broken links the run introduced: those the checker finds on the site after the run beyond
 * those it found on the site the run started from (a link is the page it is on and its URL; a page
 * the branch moved is named where it is now). Links broken before the run are the site's: listed,
 * never blocking, whoever wrote the line they sit on.
 */
export async function introducedBrokenLinks(check: FrameworkCheck, found: BrokenLink[], before: BrokenLink[], movedFrom: Map<string, string>, repoRoot: string): Promise<{ problems: string[]; alreadyOnSite: string[]; alreadyOnSiteCount: number }> {
  const movedTo = new Map([...movedFrom].map(([to, from]) => [from, to]));
  const keyOf = (link: BrokenLink) => `${link.file}\0${link.link}`;
  const { introduced, kept } = splitByKey(
    found,
    before.map((link) => ({ ...link, file: movedTo.get(link.file) ?? link.file })),
    keyOf,
  );
  const texts = new Map<string, Promise<string[]>>();
  const linesOf = (file: string) => {
    let text = texts.get(file);
    if (!text) texts.set(file, (text = readFile(path.join(repoRoot, file), "utf8").then((t) => t.split("\n"), () => [])));
    return text;
  };
  // The site's copies of a link come first in its page; the run's are the ones after them.
  const copies = new Map<string, number>();
  const describe = async (link: BrokenLink) => {
    const copy = copies.get(keyOf(link)) ?? 0;
    copies.set(keyOf(link), copy + 1);
    const lines = linesWithLink(await linesOf(link.file), link.link);
    return `${link.file}:${lines[Math.min(copy, lines.length - 1)] ?? 1}: link '${link.link}' is broken (${check.name})`;
  };
  const alreadyOnSite: string[] = [];
  for (const link of kept) {
    if (alreadyOnSite.length < MAX_LISTED) alreadyOnSite.push(await describe(link));
    else copies.set(keyOf(link), (copies.get(keyOf(link)) ?? 0) + 1);
  }
  const problems: string[] = [];
  for (const link of introduced.slice(0, MAX_PROBLEMS)) problems.push(await describe(link));
  return { problems, alreadyOnSite, alreadyOnSiteCount: kept.length };
}

/** 1-based numbers of the lines that hold the link as a Markdown, JSX or autolink target. */
function linesWithLink(lines: string[], link: string): number[] {
  const quoted = [`(${link}`, `"${link}"`, `'${link}'`, `<${link}>`, `{${link}}`];
  const exact = lines.flatMap((line, index) => (quoted.some((form) => line.includes(form)) ? [index + 1] : []));
  return exact.length > 0 ? exact : lines.flatMap((line, index) => (line.includes(link) ? [index + 1] : []));
}
