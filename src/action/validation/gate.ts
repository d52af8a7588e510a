import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DocsProject } from "../docs/framework.js";
import { listPageFiles } from "../docs/framework.js";
import { siteRoutes } from "../docs/site-routes.js";
import { siteModel, type SiteModel } from "../docs/site-model.js";
import { escapeRegExp } from "../../shared/regexp.js";
import { linkProblems, linksIntoRemovedPages, type LinkContext } from "./link-checks.js";
import { navigationProblems, type NavigationInput } from "./navigation-check.js";
import { analyzePage, type PageAnalysis } from "./page.js";
import { splitByKey } from "./problem-keys.js";

export interface GateResult {
  passed: boolean;
  /** What blocks the run: problems it introduced (all problems where nothing is known of the site before it). */
  problems: string[];
  /** Problems the checked files already had when the run started and still have: the site's, never blocking. */
  alreadyOnSite?: string[];
  /** How many problems the site already had, of which `alreadyOnSite` lists the first. */
  alreadyOnSiteCount?: number;
}

export interface GateInput extends NavigationInput {
  /** Repository-relative files this run changed (existing or deleted). */
  changedThisRun: string[];
  /**
   * The tree the run started from (starting-tree.ts). Given, every check runs on it too, and only the
   * problems the run introduced block it (problem-keys.ts); without it every problem found counts
   * (the manual's check, the benchmark).
   */
  beforeRoot?: string;
  /** Page analyses by path and content, shared by both trees and kept between rounds. */
  pages?: PageAnalyses;
  /** The most problems reported (default 200); the benchmark asks for all. */
  maxProblems?: number;
}

const MAX_PROBLEMS = 200;

/** Analyses of pages by path and content: a page the run left alone is compiled once for both trees. */
export type PageAnalyses = Map<string, Promise<PageAnalysis>>;

/** One tree of the site (before or after the run) with what the checks read of it. */
interface SiteTree {
  root: string;
  model: SiteModel;
  ctx: LinkContext;
}

const isPage = (file: string) => /\.mdx?$/.test(file);

function openTree(root: string, project: DocsProject, pages: PageAnalyses): SiteTree {
  const model = siteModel(root, project);
  const exists = (file: string) => existsSync(path.join(root, file));
  const analysis = (file: string): Promise<PageAnalysis | null> => {
    if (!isPage(file) || !exists(file)) return Promise.resolve(null);
    const text = readFileSync(path.join(root, file), "utf8");
    const key = `${file}\0${JSON.stringify(model.slugOptions)}\0${text}`;
    let pending = pages.get(key);
    if (!pending) pages.set(key, (pending = analyzePage(file, text, project.framework, model.slugOptions)));
    return pending;
  };
  return { root, model, ctx: { repoRoot: root, project, model, exists, analysis, routes: siteRoutes(root, project) } };
}

/**
 * The deterministic check before anything is pushed: changed pages compile, their frontmatter is
 * valid, their internal links and anchors resolve, no page links to one this branch removed or to
 * a heading this run took away, navigation lists only existing pages and lists every page the
 * branch adds. With the tree the run started from, every check runs on both trees and a problem
 * blocks the run only if the run introduced it (docs/action.md, "Only what the run broke").
 */
export async function runGate(input: GateInput): Promise<GateResult> {
  const { project } = input;
  const pages = input.pages ?? new Map();
  const after = openTree(input.repoRoot, project, pages);
  const before = input.beforeRoot ? openTree(input.beforeRoot, project, pages) : null;
  const removed = input.branchChanges.flatMap((change) => (change.status === "deleted" ? [change.path] : change.status === "renamed" && change.from ? [change.from] : []));
  const movedFrom = new Map(input.branchChanges.flatMap((change) => (change.status === "renamed" && change.from ? [[change.path, change.from] as const] : [])));
  /** Where a page of the run was when the run started: a page this branch moved was at its old path. */
  const earlier = (file: string) => (before && !before.ctx.exists(file) ? (movedFrom.get(file) ?? file) : file);

  // Files the framework ignores (.mintignore) are not served: nothing in them is checked.
  const changedPages = input.changedThisRun.filter((file) => isPage(file) && after.ctx.exists(file) && !after.model.ignored(file));
  const referrers = before ? await referrersOfLostAnchors(changedPages, after, before, earlier) : [];
  const checked = [...new Set([...changedPages, ...referrers])];

  const now = [
    ...(await pageProblems(after, checked)),
    ...(await linksIntoRemovedPages(removed.filter(isPage), new Set(checked), after.ctx)),
    ...navigationProblems(input, after.model),
  ];
  const max = input.maxProblems ?? MAX_PROBLEMS;
  if (!before) return { passed: now.length === 0, problems: now.slice(0, max) };

  // The same checks on the tree the run started from, each page where it was then, named where it is now.
  const was: string[] = [];
  for (const file of checked) {
    const at = earlier(file);
    was.push(...(await pageProblems(before, [at])).map((problem) => (at === file ? problem : problem.replaceAll(at, file))));
  }
  was.push(...navigationProblems({ repoRoot: before.root, project, branchChanges: input.branchChanges }, before.model));
  was.push(...unlistedBeforeTheMove(input, before));
  const { introduced, kept } = splitByKey(now, was);
  return { passed: introduced.length === 0, problems: introduced.slice(0, max), ...(kept.length > 0 ? { alreadyOnSite: kept.slice(0, max), alreadyOnSiteCount: kept.length } : {}) };
}

async function pageProblems(tree: SiteTree, files: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files) {
    const page = await tree.ctx.analysis(file);
    if (page) problems.push(...page.problems, ...(await linkProblems(file, page, tree.ctx)));
  }
  return problems;
}

/**
 * Unchanged pages that link to a heading a changed page no longer has: the run may have broken
 * them, so they are checked on both trees. Found by a link to the page's name followed by an
 * anchor, a cheap text search; a site whose links do not name the file is left to its own checks.
 */
async function referrersOfLostAnchors(changedPages: string[], after: SiteTree, before: SiteTree, earlier: (file: string) => string): Promise<string[]> {
  const stems: string[] = [];
  for (const file of changedPages) {
    const [now, was] = await Promise.all([after.ctx.analysis(file), before.ctx.analysis(earlier(file))]);
    if (!was) continue;
    const lost = [...was.anchors].some((anchor) => !now?.anchors.has(anchor));
    if (!lost) continue;
    // A folder's index page is linked by its folder's name too.
    const stem = path.posix.basename(earlier(file)).replace(/\.mdx?$/, "");
    stems.push(stem);
    if (/^(index|README)$/i.test(stem)) stems.push(path.posix.basename(path.posix.dirname(earlier(file))));
  }
  if (stems.length === 0) return [];
  const linkToAnchor = new RegExp(`(?:^|[/("'\\s])(?:${stems.map(escapeRegExp).join("|")})(?:\\.mdx?)?/?#`, "m");
  const changed = new Set(changedPages);
  return listPageFiles(after.root, after.ctx.project.docsDir).filter((file) => !changed.has(file) && linkToAnchor.test(readFileSync(path.join(after.root, file), "utf8")));
}

/**
 * A page the branch moved answers for the navigation as it stood: one the navigation did not list
 * at its old path (a hidden page) need not be listed at its new one. Its "not in the navigation"
 * on the starting tree, at its old path, named where it is now.
 */
function unlistedBeforeTheMove(input: GateInput, before: SiteTree): string[] {
  const moves = input.branchChanges.flatMap((change) => (change.status === "renamed" && change.from ? [{ to: change.path, from: change.from }] : []));
  if (moves.length === 0) return [];
  const atOldPaths = navigationProblems({ repoRoot: before.root, project: input.project, branchChanges: moves.map(({ from }) => ({ path: from, status: "added" as const })) }, before.model);
  return moves.flatMap(({ from, to }) => atOldPaths.filter((problem) => problem.startsWith(`${from}: new page is not in the navigation`)).map((problem) => `${to}${problem.slice(from.length)}`));
}
