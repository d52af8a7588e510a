import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { ChangedFile } from "../git.js";
import { listPageFiles, navigationPages, pageExists, type DocsProject } from "../docs/framework.js";
import { siteRoutes, type SiteRoutes } from "../docs/site-routes.js";
import { mintlifyConfigProblems } from "./mintlify-config.js";
import { analyzePage, type PageAnalysis } from "./page.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";

export interface GateResult {
  passed: boolean;
  problems: string[];
}

export interface GateInput {
  repoRoot: string;
  project: DocsProject;
  /** Repository-relative files this run changed (existing or deleted). */
  changedThisRun: string[];
  /** What the branch changes against its base, this run included. */
  branchChanges: ChangedFile[];
  /** Navigation problems that were there before the run: not the agent's to answer for. */
  knownNavigationProblems: Set<string>;
  /**
   * The navigation file as it was before the run: given, a changed Mintlify docs.json is checked
   * against Mintlify's own schema, and what the schema refused before is not the agent's either.
   * (Compiling the schema takes a second, so it is not done before the first model call.)
   */
  navigationBefore?: string | null;
}

const MAX_PROBLEMS = 200;

/**
 * The deterministic check before anything is pushed: changed pages compile, their frontmatter is
 * valid, their internal links and anchors resolve, no page links to one this branch removed,
 * navigation lists only existing pages and lists every page the branch adds.
 */
export async function runGate(input: GateInput): Promise<GateResult> {
  const { repoRoot, project } = input;
  const isPage = (file: string) => /\.mdx?$/.test(file);
  const exists = (file: string) => existsSync(path.join(repoRoot, file));
  const cache = new Map<string, Promise<PageAnalysis | null>>();
  const analysis = (file: string) => {
    let pending = cache.get(file);
    if (!pending) {
      pending = exists(file) && isPage(file) ? analyzePage(file, readFileSync(path.join(repoRoot, file), "utf8"), project.framework) : Promise.resolve(null);
      cache.set(file, pending);
    }
    return pending;
  };
  const problems: string[] = [];
  const ctx: LinkContext = { repoRoot, project, exists, analysis, routes: siteRoutes(repoRoot, project) };

  const changedPages = input.changedThisRun.filter((file) => isPage(file) && exists(file));
  for (const file of changedPages) {
    const page = await analysis(file);
    if (!page) continue;
    problems.push(...page.problems);
    for (const link of page.links) {
      const problem = await checkLink(file, link.url, link.line, link.kind, ctx);
      if (problem) problems.push(problem);
    }
  }

  const removed = input.branchChanges.flatMap((change) => (change.status === "deleted" ? [change.path] : change.status === "renamed" && change.from ? [change.from] : []));
  problems.push(...(await linksIntoRemovedPages(removed.filter(isPage), new Set(changedPages), ctx)));
  problems.push(...navigationProblems(input));

  return { passed: problems.length === 0, problems: problems.slice(0, MAX_PROBLEMS) };
}

/**
 * Navigation entries that name no page, pages the branch adds that navigation does not list, and
 * (Mintlify) what its own docs.json schema refuses; problems that were there before the run are
 * not the agent's to answer for.
 */
export function navigationProblems(input: Pick<GateInput, "repoRoot" | "project" | "branchChanges" | "knownNavigationProblems" | "navigationBefore">): string[] {
  const { repoRoot, project } = input;
  const [nav] = project.navigationFiles;
  if (!nav) return [];
  const problems: string[] = [];
  let entries: string[] | null;
  try {
    entries = navigationPages(repoRoot, project);
  } catch (error) {
    return [`${nav}: cannot be read: ${(error as Error).message.split("\n")[0]}`];
  }
  if (entries) {
    for (const entry of entries) {
      if (pageExists(repoRoot, project, entry)) continue;
      const problem = `${nav}: lists '${path.posix.relative(path.posix.dirname(nav), entry)}' but there is no such page`;
      if (!input.knownNavigationProblems.has(problem)) problems.push(problem);
    }
  }
  // Mintlify's own rules for docs.json, beyond what the navigation check reads, when the run changed it.
  if (project.framework === "mintlify" && input.navigationBefore !== undefined) {
    const now = readFileSync(path.join(repoRoot, nav), "utf8");
    if (now !== input.navigationBefore) {
      const before = new Set(input.navigationBefore === null ? [] : mintlifyConfigProblems(nav, input.navigationBefore));
      problems.push(...mintlifyConfigProblems(nav, now).filter((problem) => !before.has(problem)));
    }
  }
  const added = input.branchChanges.filter((change) => (change.status === "added" || change.status === "renamed") && project.pageExtensions.some((ext) => change.path.endsWith(ext)));
  const docsPrefix = project.docsDir === "." ? "" : `${project.docsDir}/`;
  for (const { path: file } of added) {
    if (!file.startsWith(docsPrefix) || !existsSync(path.join(repoRoot, file))) continue;
    if (!isReachable(repoRoot, project, nav, entries, file)) problems.push(`${file}: new page is not in the navigation (${nav}): add it there`);
  }
  return problems;
}

function isReachable(repoRoot: string, project: DocsProject, nav: string, entries: string[] | null, file: string): boolean {
  const withoutExt = file.replace(/\.mdx?$/, "");
  if (entries) return entries.some((entry) => entry === file || entry === withoutExt || (withoutExt.endsWith("/index") && entry === withoutExt.slice(0, -"/index".length)));
  // Navigation in code (Docusaurus sidebars.js/ts, VitePress config): autogenerated, or the page's id/link appears in it.
  const text = readFileSync(path.join(repoRoot, nav), "utf8");
  if (project.framework === "docusaurus" && /autogenerated/.test(text)) return true;
  const id = path.posix.relative(project.docsDir, withoutExt);
  const quoted = (value: string) => new RegExp(`['"\`]${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}['"\`]`).test(text);
  return project.framework === "vitepress" ? quoted(`/${id}`) || quoted(`/${id}.md`) || quoted(`/${id}.html`) : quoted(id);
}

interface LinkContext {
  repoRoot: string;
  project: DocsProject;
  exists: (file: string) => boolean;
  analysis: (file: string) => Promise<PageAnalysis | null>;
  /** How absolute site links map to pages, where the framework's routes can be read (Docusaurus, MkDocs). */
  routes: SiteRoutes | null;
}

/** The repository file a link names, or null when it names none; undefined when it is not checkable (external, code-defined routes). */
function resolveLink(from: string, url: string, ctx: LinkContext): { file: string | null; anchor: string | null } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("//")) return undefined;
  const [beforeHash = "", anchor = null] = url.split("#", 2) as [string, string?];
  const target = decodeURIComponent(beforeHash.split("?")[0] ?? "");
  if (target === "") return { file: from, anchor };
  const { project } = ctx;
  let base: string;
  if (target.startsWith("/")) {
    if (project.framework === "mintlify") base = path.posix.join(path.posix.dirname(project.navigationFiles[0] ?? project.docsDir), target);
    else if (project.framework === "vitepress") base = path.posix.join(project.docsDir, target);
    else if (ctx.routes) {
      const file = ctx.routes.fileFor(target);
      return file === undefined ? undefined : { file, anchor };
    } else return undefined; // Plain Markdown has no known site layout.
  } else {
    base = path.posix.join(path.posix.dirname(from), target);
  }
  base = withoutTrailingSlashes(base).replace(/\.html$/, "");
  const candidates = [base, ...project.pageExtensions.map((ext) => `${base}${ext}`), ...project.pageExtensions.map((ext) => `${base}/index${ext}`), `${base}/README.md`];
  const file = candidates.find((candidate) => ctx.exists(candidate) && statSync(path.join(ctx.repoRoot, candidate)).isFile()) ?? null;
  return { file, anchor };
}

async function checkLink(from: string, url: string, line: number, kind: "page" | "asset", ctx: LinkContext): Promise<string | null> {
  const resolved = resolveLink(from, url, ctx);
  if (!resolved) return null;
  if (!resolved.file) return `${from}:${line}: ${kind === "asset" ? "image" : "link"} '${url}' does not resolve to a file in the repository`;
  if (!resolved.anchor || !/\.mdx?$/.test(resolved.file)) return null;
  const target = await ctx.analysis(resolved.file);
  if (target && target.problems.length === 0 && !target.anchors.has(resolved.anchor)) {
    return `${from}:${line}: link '${url}': ${resolved.file} has no heading with the anchor #${resolved.anchor}`;
  }
  return null;
}

/** Unchanged pages whose links pointed at a page the branch deleted or moved. */
async function linksIntoRemovedPages(removed: string[], alreadyChecked: Set<string>, ctx: LinkContext): Promise<string[]> {
  if (removed.length === 0) return [];
  const stems = removed.map((file) => path.posix.basename(file).replace(/\.mdx?$/, ""));
  const problems: string[] = [];
  const pages = listPageFiles(ctx.repoRoot, ctx.project.docsDir);
  for (const file of pages) {
    if (alreadyChecked.has(file)) continue;
    const text = readFileSync(path.join(ctx.repoRoot, file), "utf8");
    if (!stems.some((stem) => text.includes(stem))) continue;
    const page = await ctx.analysis(file);
    for (const link of page?.links ?? []) {
      const resolved = resolveLink(file, link.url, ctx);
      if (resolved && resolved.file === null && removed.some((gone) => pointsAt(file, link.url, gone, ctx.project))) {
        problems.push(`${file}:${link.line}: links to '${link.url}', which this change removed: update the link`);
      }
    }
  }
  return problems;
}

function pointsAt(from: string, url: string, removed: string, project: DocsProject): boolean {
  const target = withoutTrailingSlashes(url.split("#")[0] ?? "");
  const gone = removed.replace(/\.mdx?$/, "");
  const base = target.startsWith("/") ? path.posix.join(path.posix.dirname(project.navigationFiles[0] ?? project.docsDir), target) : path.posix.join(path.posix.dirname(from), target);
  return base.replace(/\.mdx?$/, "") === gone;
}
