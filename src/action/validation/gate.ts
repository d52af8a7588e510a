import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { siteRoutes } from "../docs/site-routes.js";
import { siteModel } from "../docs/site-model.js";
import { linkProblems, linksIntoRemovedPages, type LinkContext } from "./link-checks.js";
import { navigationProblems, type NavigationInput } from "./navigation-check.js";
import { analyzePage, type PageAnalysis } from "./page.js";

export interface GateResult {
  passed: boolean;
  problems: string[];
}

export interface GateInput extends NavigationInput {
  /** Repository-relative files this run changed (existing or deleted). */
  changedThisRun: string[];
  /**
   * A changed file's content before the run (null: it did not exist). Given, the problems a changed
   * page already had are not the agent's: only those its change added or made more of count.
   */
  readBefore?: (file: string) => Promise<string | null>;
  /** The most problems reported (default 200); the benchmark asks for all. */
  maxProblems?: number;
}

const MAX_PROBLEMS = 200;

/**
 * The deterministic check before anything is pushed: changed pages compile, their frontmatter is
 * valid, their internal links and anchors resolve, no page links to one this branch removed,
 * navigation lists only existing pages and lists every page the branch adds.
 */
export async function runGate(input: GateInput): Promise<GateResult> {
  const { repoRoot, project } = input;
  const model = siteModel(repoRoot, project);
  const isPage = (file: string) => /\.mdx?$/.test(file);
  const removed = input.branchChanges.flatMap((change) => (change.status === "deleted" ? [change.path] : change.status === "renamed" && change.from ? [change.from] : []));
  const movedFrom = new Map(input.branchChanges.flatMap((change) => (change.status === "renamed" && change.from ? [[change.path, change.from] as const] : [])));
  const exists = (file: string) => existsSync(path.join(repoRoot, file));
  const cache = new Map<string, Promise<PageAnalysis | null>>();
  const analysis = (file: string) => {
    let pending = cache.get(file);
    if (!pending) {
      pending = exists(file) && isPage(file) ? analyzePage(file, readFileSync(path.join(repoRoot, file), "utf8"), project.framework, model.slugOptions) : Promise.resolve(null);
      cache.set(file, pending);
    }
    return pending;
  };
  const problems: string[] = [];
  const ctx: LinkContext = { repoRoot, project, model, exists, analysis, routes: siteRoutes(repoRoot, project) };

  // Files the framework ignores (.mintignore) are not served: nothing in them is checked.
  const changedPages = input.changedThisRun.filter((file) => isPage(file) && exists(file) && !model.ignored(file));
  for (const file of changedPages) {
    const page = await analysis(file);
    if (!page) continue;
    const found = [...page.problems, ...(await linkProblems(file, page, ctx))];
    const before = await pageBefore(input, file, movedFrom.get(file));
    if (before === null) {
      problems.push(...found);
      continue;
    }
    // The page as it was, where it was, judged in the same site (the files this branch removed count
    // as there): what it already had is not the agent's; what its move broke (a relative link) is.
    const { text, at } = before;
    const old = await analyzePage(at, text, project.framework, model.slugOptions);
    const oldCtx: LinkContext = { ...ctx, exists: (target) => exists(target) || removed.includes(target) };
    const had = [...old.problems, ...(await linkProblems(at, old, oldCtx))].map((problem) => problem.replaceAll(at, file));
    problems.push(...newProblems(found, had));
  }

  problems.push(...(await linksIntoRemovedPages(removed.filter(isPage), new Set(changedPages), ctx)));
  problems.push(...navigationProblems(input, model));

  return { passed: problems.length === 0, problems: problems.slice(0, input.maxProblems ?? MAX_PROBLEMS) };
}

/** The page as the run found it: at its path, or, moved by this branch, at its old one. */
async function pageBefore(input: GateInput, file: string, from: string | undefined): Promise<{ text: string; at: string } | null> {
  if (!input.readBefore) return null;
  const here = await input.readBefore(file);
  if (here !== null) return { text: here, at: file };
  const there = from ? await input.readBefore(from) : null;
  return there !== null && from ? { text: there, at: from } : null;
}

/** A problem without its line and column: the same problem after lines moved. */
const problemKey = (problem: string) => problem.replace(/^([^:]+):\d+(?::\d+)?:/, "$1:");

/** The problems of `now` beyond those `before` had (as many of each as there were before are forgiven). */
export function newProblems(now: string[], before: string[]): string[] {
  const forgiven = new Map<string, number>();
  for (const problem of before) forgiven.set(problemKey(problem), (forgiven.get(problemKey(problem)) ?? 0) + 1);
  return now.filter((problem) => {
    const left = forgiven.get(problemKey(problem)) ?? 0;
    if (left === 0) return true;
    forgiven.set(problemKey(problem), left - 1);
    return false;
  });
}
