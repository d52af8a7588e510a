import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { ChangedFile } from "../git.js";
import { listPageFiles, navigationPages, pageExists, vitepressConfigFiles, type DocsProject } from "../docs/framework.js";
import { siteRoutes, type SiteRoutes } from "../docs/site-routes.js";
import { mintlifyConfigProblems } from "./mintlify-config.js";
import { analyzePage, type PageAnalysis, type PageLink } from "./page.js";
import { mintlifyCleanId, safeDecode } from "../docs/anchors.js";
import { redirectMatches } from "../docs/mintlify-docs-json.js";
import { hasFiles, siteModel, type SiteModel } from "../docs/site-model.js";
import { escapeRegExp } from "../../shared/regexp.js";
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

async function linkProblems(file: string, page: PageAnalysis, ctx: LinkContext): Promise<string[]> {
  const problems: string[] = [];
  for (const link of page.links) {
    const problem = await checkLink(file, link, ctx);
    if (problem) problems.push(problem);
  }
  return problems;
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

/**
 * Navigation entries that name no page, pages the branch adds that navigation does not list, and
 * (Mintlify) what its own docs.json schema refuses; problems that were there before the run are
 * not the agent's to answer for.
 */
export function navigationProblems(input: Pick<GateInput, "repoRoot" | "project" | "branchChanges" | "knownNavigationProblems" | "navigationBefore">, model: SiteModel = siteModel(input.repoRoot, input.project)): string[] {
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
  const added = input.branchChanges.filter((change) => (change.status === "added" || change.status === "renamed") && project.pageExtensions.some((ext) => change.path.endsWith(ext)) && model.isPage(change.path));
  const docsPrefix = project.docsDir === "." ? "" : `${project.docsDir}/`;
  for (const { path: file } of added) {
    if (!file.startsWith(docsPrefix) || !existsSync(path.join(repoRoot, file))) continue;
    if (!isReachable(repoRoot, project, model, nav, entries, file)) problems.push(`${file}: new page is not in the navigation (${nav}): add it there`);
  }
  return problems;
}

function isReachable(repoRoot: string, project: DocsProject, model: SiteModel, nav: string, entries: string[] | null, file: string): boolean {
  const withoutExt = file.replace(/\.mdx?$/, "");
  // Material's blog plugin lists its posts itself.
  if (entries && model.blogPosts && file.startsWith(`${model.blogPosts}/`)) return true;
  if (entries) return entries.some((entry) => entry === file || entry === withoutExt || (withoutExt.endsWith("/index") && entry === withoutExt.slice(0, -"/index".length)));
  // MkDocs without a `nav`, or literate-nav with wildcards or folder entries: the navigation is generated.
  if (project.framework === "mkdocs") return true;
  // Navigation in code (Docusaurus sidebars.js/ts, VitePress config): autogenerated, or the page's id/link appears in it.
  const text = readFileSync(path.join(repoRoot, nav), "utf8");
  if (project.framework === "docusaurus" && (/autogenerated/.test(text) || isCategoryLinkDoc(repoRoot, file))) return true;
  const id = path.posix.relative(project.docsDir, withoutExt);
  const quoted = (value: string, within = text) => new RegExp(`['"\`]${escapeRegExp(value)}['"\`]`).test(within);
  if (project.framework !== "vitepress") return quoted(id);
  // VitePress sidebars may sit in several config files (one per language) and name a page by a path
  // under a `base`: a quoted link ending in the page's path, with or without its extension.
  const texts = vitepressConfigFiles(repoRoot, project).map((config) => readFileSync(path.join(repoRoot, config), "utf8"));
  // A sidebar group's `base` joins its items' `link`s (`base: '/reference/default-theme-'` + `link: 'badge'`).
  const url = `/${model.rewrite?.toUrl(file) ?? id}`.replace(/\/index$/, "/");
  const forms = new Set([url, `${url}.md`, `${url}.html`, url.endsWith("/") ? url : `${url}/`]);
  return texts.some((config) => {
    if ([...forms].some((form) => quoted(form, config))) return true;
    const bases = ["", ...[...config.matchAll(/\bbase\s*:\s*['"`]([^'"`]*)['"`]/g)].map((match) => match[1] as string)];
    const links = [...config.matchAll(/\blink\s*:\s*['"`]([^'"`]+)['"`]/g)].map((match) => match[1] as string);
    return links.some((link) => bases.some((base) => forms.has(link.startsWith("/") ? link : `${base}${link}`)));
  });
}

interface LinkContext {
  repoRoot: string;
  project: DocsProject;
  model: SiteModel;
  exists: (file: string) => boolean;
  analysis: (file: string) => Promise<PageAnalysis | null>;
  /** How absolute site links map to pages, where the framework's routes can be read (Docusaurus, MkDocs). */
  routes: SiteRoutes | null;
}

type Resolution = { file: string | null; anchor: string | null } | undefined;

/**
 * The repository file a link names, or null when it names none; undefined when it is not checkable
 * (external, code-defined routes, pages a framework generates). Each framework's own resolution:
 * docs/action.md, "The validation gate".
 */
function resolveLink(from: string, url: string, kind: PageLink["kind"], ctx: LinkContext, raw = false): Resolution {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("//") || url.includes("{{") || url.includes("${")) return undefined;
  const [beforeHash = "", anchor = null] = url.split("#", 2) as [string, string?];
  const target = safeDecode(beforeHash.split("?")[0] ?? "");
  if (target === "") return { file: from, anchor };
  const { project, model } = ctx;
  const dir = path.posix.dirname(from);
  const firstFile = (candidates: string[]) => candidates.find((candidate) => ctx.exists(candidate) && isFile(ctx.repoRoot, candidate)) ?? null;
  if (kind === "include") {
    // pymdownx.snippets looks in its base paths; VitePress reads `@/` from its source folder, else from the page.
    const bases = project.framework === "mkdocs" ? model.snippetBases.map((base) => path.posix.join(base, target)) : [target.startsWith("@/") ? path.posix.join(project.docsDir, target.slice(2)) : path.posix.join(dir, target)];
    return { file: firstFile(bases), anchor: null };
  }
  if (kind === "import") {
    const base = target.startsWith("@site/") ? path.posix.join(model.siteDir, target.slice("@site/".length)) : target.startsWith("/") ? path.posix.join(model.siteDir, target) : path.posix.join(dir, target);
    const extensions = [".mdx", ".md", ".jsx", ".js", ".tsx", ".ts"];
    return { file: firstFile([base, ...extensions.map((ext) => `${base}${ext}`), ...extensions.map((ext) => `${base}/index${ext}`)]), anchor: null };
  }
  const pageCandidates = (base: string) => {
    const clean = withoutTrailingSlashes(base).replace(/\.html$/, "");
    return [clean, ...project.pageExtensions.map((ext) => `${clean}${ext}`), ...project.pageExtensions.map((ext) => `${clean}/index${ext}`), `${clean}/README.md`];
  };
  const inRootFolders = () => model.rootFolders.some((folder) => ctx.exists(path.posix.join(folder, target)));

  switch (project.framework) {
    case "mintlify": {
      // link-rot: `./x` from the page's folder; `/x` and a bare `x` from the site's root; any extension; a folder resolves.
      const bases = target.startsWith("/") ? [path.posix.join(model.siteDir, target)] : target.startsWith(".") ? [path.posix.join(dir, target)] : [path.posix.join(model.siteDir, target), path.posix.join(dir, target)];
      for (const base of bases) {
        const file = firstFile(pageCandidates(base));
        if (file) return { file, anchor };
        if (hasFiles(ctx.repoRoot, base)) return { file: base, anchor: null };
      }
      // A page's site path has no `index` (`/cli/index` is served as `/cli`), as a redirect's source names it.
      const sitePath = path.posix.join("/", path.posix.relative(model.siteDir, bases[0] as string)).replace(/\/index$/, "") || "/";
      if (model.mintlify?.redirects.some((redirect) => redirectMatches(redirect.source, sitePath))) return undefined;
      // Pages Mintlify generates from OpenAPI specs: its own checker knows them.
      if (model.mintlify?.openapi) return undefined;
      return { file: null, anchor };
    }
    case "docusaurus": {
      if (target.startsWith("/") && !/\.mdx?$/i.test(target)) {
        if (inRootFolders() || model.redirectSources.has(withoutTrailingSlashes(target))) return undefined;
        const file = ctx.routes?.fileFor(target);
        return file === undefined ? undefined : { file, anchor };
      }
      if (/\.mdx?$/i.test(target)) {
        // @docusaurus/utils resolveMarkdownLinkPathname: `./x.md` from the page's folder only; a bare
        // `x.md` from the page's folder, then the docs' content folder, then the site's.
        const roots = docusaurusContentRoots(from, ctx);
        const bases = target.startsWith("/") ? [...roots, model.siteDir].map((root) => path.posix.join(root, target)) : target.startsWith(".") ? [path.posix.join(dir, target)] : [dir, ...roots, model.siteDir].map((root) => path.posix.join(root, target));
        return { file: firstFile(bases), anchor };
      }
      const relative = path.posix.join(dir, target);
      const byFile = firstFile([...pageCandidates(relative), relative, `${withoutTrailingSlashes(relative)}/${path.posix.basename(withoutTrailingSlashes(relative))}.md`]);
      if (byFile) return { file: byFile, anchor };
      // A link without .md is a URL: relative to the page's own URL (`configuration` from /docs/cli is /docs/configuration).
      const route = ctx.routes?.routeOf?.(from);
      if (route && ctx.routes) {
        const file = ctx.routes.fileFor(path.posix.join(path.posix.dirname(route), target));
        return file === undefined ? undefined : { file, anchor };
      }
      return { file: null, anchor };
    }
    case "vitepress": {
      if (target.startsWith("/") && inRootFolders()) return undefined;
      // Relative links resolve from the page's rewritten place; the result maps back through the rewrites.
      const pageUrl = model.rewrite ? model.rewrite.toUrl(from) : path.posix.relative(project.docsDir, from).replace(/\.md$/, "");
      const url = target.startsWith("/") ? target : path.posix.join("/", path.posix.dirname(pageUrl), target);
      const clean = withoutTrailingSlashes(url).replace(/\.(html|md)$/, "") || "/index";
      const rewritten = model.rewrite?.toFile(clean);
      if (rewritten) return { file: rewritten, anchor };
      return { file: firstFile(pageCandidates(path.posix.join(project.docsDir, clean))) ?? firstFile([path.posix.join(project.docsDir, url)]), anchor };
    }
    case "mkdocs": {
      if (raw && !target.startsWith("/")) {
        // MkDocs leaves raw HTML alone: the browser resolves it from the page's directory URL (`a/b.md` is `/a/b/`).
        const page = path.posix.relative(project.docsDir, from).replace(/(^|\/)(index|README)\.md$/, "$1").replace(/\.md$/, "/");
        const served = path.posix.normalize(path.posix.join(project.docsDir, page, target));
        const file = firstFile([...pageCandidates(served), served]) ?? (model.rootFolders.some((folder) => ctx.exists(path.posix.join(folder, path.posix.relative(project.docsDir, served)))) ? served : null);
        return file ? { file, anchor } : { file: null, anchor };
      }
      // MkDocs validates only relative links to files (`absolute_links` and `unrecognized_links` are info).
      if (target.startsWith("/")) {
        if (inRootFolders()) return undefined;
        const file = ctx.routes?.fileFor(target);
        return file === undefined ? undefined : { file, anchor };
      }
      const base = path.posix.normalize(path.posix.join(dir, target));
      if (!path.posix.extname(base) || target.endsWith("/")) {
        const file = firstFile(pageCandidates(base));
        return file ? { file, anchor } : undefined;
      }
      if (firstFile([base])) return { file: base, anchor };
      const docsRelative = path.posix.relative(project.docsDir, base);
      if (model.themeFiles.has(docsRelative)) return undefined;
      if (model.rootFolders.some((folder) => ctx.exists(path.posix.join(folder, docsRelative)))) return undefined;
      return { file: null, anchor };
    }
    default: {
      if (target.startsWith("/")) return undefined; // Plain Markdown has no known site layout.
      return { file: firstFile(pageCandidates(path.posix.join(dir, target))), anchor };
    }
  }
}

/** Docusaurus' content folders for a page: its version's (versioned_docs/version-x), or the docs folder. */
function docusaurusContentRoots(from: string, ctx: LinkContext): string[] {
  const versioned = /^(.*?versioned_docs\/version-[^/]+)\//.exec(from)?.[1];
  const localized = /^(.*?i18n\/[^/]+\/docusaurus-plugin-content-docs[^/]*\/[^/]+)\//.exec(from)?.[1];
  return [...(localized ? [localized] : []), ...(versioned ? [versioned] : []), ctx.project.docsDir];
}

const isFile = (repoRoot: string, file: string) => {
  try {
    return statSync(path.join(repoRoot, file)).isFile();
  } catch {
    return false;
  }
};

async function checkLink(from: string, link: PageLink, ctx: LinkContext): Promise<string | null> {
  const { url, line, kind } = link;
  const resolved = resolveLink(from, url, kind, ctx, link.raw);
  if (!resolved) return null;
  if (!resolved.file) {
    const what = kind === "asset" ? "image" : kind === "page" ? "link" : kind;
    return `${from}:${line}: ${what} '${url}' does not resolve to a file in the repository`;
  }
  if (!resolved.anchor || !/\.mdx?$/.test(resolved.file)) return null;
  const target = await ctx.analysis(resolved.file);
  if (!target || target.problems.length > 0 || target.generated || !ctx.model.anchorsKnown) return null;
  const anchors = await anchorsWithImports(resolved.file, target, ctx);
  const wanted = ctx.project.framework === "mintlify" ? mintlifyCleanId(resolved.anchor) : safeDecode(resolved.anchor);
  if (!anchors.has(wanted) && !anchors.has(resolved.anchor)) {
    return `${from}:${line}: link '${url}': ${resolved.file} has no heading with the anchor #${resolved.anchor}`;
  }
  return null;
}

/** A page's anchors with those of the pages it imports (a partial's or snippet's headings are the page's). */
async function anchorsWithImports(file: string, page: PageAnalysis, ctx: LinkContext): Promise<Set<string>> {
  const imports = page.links.filter((link) => link.kind === "import" || link.kind === "include");
  if (imports.length === 0) return page.anchors;
  const all = new Set(page.anchors);
  for (const link of imports) {
    const resolved = resolveLink(file, link.url, link.kind, ctx);
    const imported = resolved?.file ? await ctx.analysis(resolved.file) : null;
    for (const anchor of imported?.anchors ?? []) all.add(anchor);
  }
  return all;
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
      const resolved = resolveLink(file, link.url, link.kind, ctx, link.raw);
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

/** Docusaurus: a page a `_category_` file links (`link: {type: doc, id}`) is the category's own page. */
function isCategoryLinkDoc(repoRoot: string, file: string): boolean {
  const dir = path.posix.dirname(file);
  const id = path.posix.basename(file).replace(/\.mdx?$/, "");
  return ["_category_.json", "_category_.yml", "_category_.yaml"].some((name) => {
    const category = path.join(repoRoot, dir, name);
    if (!existsSync(category)) return false;
    const text = readFileSync(category, "utf8");
    return /type["']?\s*:\s*["']?doc/.test(text) && new RegExp(`id["']?\\s*:\\s*["']?(?:[^"'\\n]*/)?${escapeRegExp(id)}["']?\\s*(?:[,}\\n]|$)`).test(text);
  });
}
