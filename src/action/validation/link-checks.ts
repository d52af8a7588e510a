import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { mintlifyCleanId, safeDecode, vitepressSlug } from "../docs/anchors.js";
import { listPageFiles, type DocsProject } from "../docs/framework.js";
import { redirectMatches } from "../docs/mintlify-docs-json.js";
import { hasFiles, type SiteModel } from "../docs/site-model.js";
import type { SiteRoutes } from "../docs/site-routes.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";
import type { PageAnalysis, PageLink } from "./page.js";

/**
 * A page's links judged as its framework resolves them (docs/action.md, "The validation gate"):
 * each names a file, or an anchor its target has, and none points at a page the branch removed.
 */
export async function linkProblems(file: string, page: PageAnalysis, ctx: LinkContext): Promise<string[]> {
  const problems: string[] = [];
  for (const link of page.links) {
    const problem = await checkLink(file, link, ctx);
    if (problem) problems.push(problem);
  }
  return problems;
}

export interface LinkContext {
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
    // pymdownx.snippets looks in its base paths; VitePress reads a path starting with `@` from its
    // source folder, the `@` and one separator after it dropped (`@/a.md`, `@shared/a.md`:
    // src/node/markdown/plugins/include.ts and snippet.ts), else from the page.
    const fromSource = target.startsWith("@") ? path.posix.join(project.docsDir, target.slice(/^@[\\/]/.test(target) ? 2 : 1)) : null;
    const bases = project.framework === "mkdocs" ? model.snippetBases.map((base) => path.posix.join(base, target)) : [fromSource ?? path.posix.join(dir, target)];
    const file = firstFile(bases);
    // A file the repository ignores and does not have is one the build writes (an MkDocs hook's, a generator's).
    if (!file && bases.some((base) => model.gitIgnored(base) || model.builtByPlugin(base))) return undefined;
    return { file, anchor: null };
  }
  if (kind === "import") {
    const base = target.startsWith("@site/") ? path.posix.join(model.siteDir, target.slice("@site/".length)) : target.startsWith("/") ? path.posix.join(model.siteDir, target) : path.posix.join(dir, target);
    const extensions = [".mdx", ".md", ".jsx", ".js", ".tsx", ".ts"];
    const candidates = [base, ...extensions.map((ext) => `${base}${ext}`), ...extensions.map((ext) => `${base}/index${ext}`)];
    const file = firstFile(candidates);
    if (!file && candidates.some((candidate) => model.gitIgnored(candidate) || model.builtByPlugin(candidate))) return undefined;
    return { file, anchor: null };
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
        const file = firstFile(pageCandidates(base)) ?? mintlifySameName(ctx, base);
        if (file) return { file, anchor };
        if (hasFiles(ctx.repoRoot, base)) return { file: base, anchor: null };
      }
      // A page's site path has no `index` (`/cli/index` is served as `/cli`); a redirect's source may name either.
      const linked = path.posix.join("/", path.posix.relative(model.siteDir, bases[0] as string));
      const sitePaths = [linked, linked.replace(/\/index$/, "") || "/"];
      if (model.mintlify?.redirects.some((redirect) => sitePaths.some((sitePath) => redirectMatches(redirect.source, sitePath)))) return undefined;
      // Pages Mintlify generates from OpenAPI specs: its own checker knows them.
      if (model.mintlify?.openapi) return undefined;
      return { file: null, anchor };
    }
    case "docusaurus": {
      if (target.startsWith("/") && !/\.mdx?$/i.test(target)) {
        // A static file is served under baseUrl, and a link may name it so (`/immer/img/logo.svg`).
        const base = model.baseUrls.find((candidate) => target.startsWith(`/${candidate}/`));
        const inStatic = inRootFolders() || (base !== undefined && model.rootFolders.some((folder) => ctx.exists(path.posix.join(folder, target.slice(base.length + 1)))));
        if (inStatic || model.redirectSources.has(withoutTrailingSlashes(target))) return undefined;
        const file = ctx.routes?.fileFor(target);
        return file === undefined ? undefined : { file, anchor };
      }
      if (/\.mdx?$/i.test(target)) {
        // @docusaurus/utils resolveMarkdownLinkPathname: `./x.md` from the page's folder only; a bare
        // `x.md` from the page's folder, then the docs' content folder, then the site's.
        const roots = docusaurusContentRoots(from, ctx);
        const bases = target.startsWith("/") ? [...roots, model.siteDir].map((root) => path.posix.join(root, target)) : target.startsWith(".") ? [path.posix.join(dir, target)] : [dir, ...roots, model.siteDir].map((root) => path.posix.join(root, target));
        const file = firstFile(bases);
        // A page a plugin writes at build time (TypeDoc's) is the build's to check.
        if (!file && bases.some((base) => model.builtByPlugin(base))) return undefined;
        return { file, anchor };
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
      const file = firstFile(pageCandidates(path.posix.join(project.docsDir, clean))) ?? firstFile([path.posix.join(project.docsDir, url)]);
      // VitePress's dead-link check (src/node/markdownToVue.ts): a file `srcExclude` leaves out is no
      // page, and a page `rewrites` serves elsewhere is not at its own path (`cleanUrls` changes
      // neither: `.html` and `.md` are dropped before the check).
      const dead = !file || (/\.md$/.test(file) && (model.ignored(file) || (model.rewrite && model.rewrite.toUrl(file) !== path.posix.relative(project.docsDir, file).replace(/\.md$/, ""))));
      // A dead link the site's `ignoreDeadLinks` lets pass is the build's (another app the host serves);
      // so is a page where the repository ignores files: one its build writes first (TypeDoc's API pages).
      if (dead) return model.deadLinkIgnored(url) || (!file && pageCandidates(path.posix.join(project.docsDir, clean)).some((candidate) => model.gitIgnored(candidate))) ? undefined : { file: null, anchor };
      return { file, anchor };
    }
    case "mkdocs": {
      // MkDocs leaves raw HTML alone, and a relative link to no file of the site as written
      // (structure/pages.py path_to_url, "unrecognized relative link"): the browser resolves it from
      // the page's URL (`a/b.md` is `/a/b/`), never above the site's root.
      const servedAt = () => path.posix.join(project.docsDir, safeDecode(new URL(beforeHash.split("?")[0] ?? "", `http://site/${model.mkdocsPageUrl?.(from) ?? ""}`).pathname.slice(1)));
      const servedFile = (served: string) => firstFile([...pageCandidates(served), served]) ?? (model.rootFolders.some((folder) => ctx.exists(path.posix.join(folder, path.posix.relative(project.docsDir, served)))) ? served : null);
      if (raw && !target.startsWith("/")) {
        const served = servedAt();
        const file = servedFile(served);
        if (!file && [served, ...pageCandidates(served)].some((candidate) => model.gitIgnored(candidate))) return undefined;
        return file ? { file, anchor } : { file: null, anchor };
      }
      // MkDocs validates relative links to files; an absolute one only with `validation.links.absolute_links:
      // relative_to_docs` (site-routes.ts mkdocsRoutes), and never one in raw HTML, which it leaves alone.
      if (target.startsWith("/")) {
        if (raw || inRootFolders()) return undefined;
        const file = ctx.routes?.fileFor(target);
        if (file === null && model.gitIgnored(path.posix.join(project.docsDir, target))) return undefined;
        return file === undefined ? undefined : { file, anchor };
      }
      const base = path.posix.normalize(path.posix.join(dir, target));
      // With the i18n plugin's folders, a language's page finds the default language's file where its own folder has none.
      const bases = [base, ...model.languageFallbacks(base)];
      if (!path.posix.extname(base) || target.endsWith("/")) {
        const file = firstFile(bases.flatMap(pageCandidates));
        return file ? { file, anchor } : undefined;
      }
      const found = firstFile(bases);
      if (found) return { file: found, anchor };
      const servedInstead = /\.md$/i.test(base) ? null : servedFile(servedAt());
      if (servedInstead) return { file: servedInstead, anchor };
      const docsRelative = path.posix.relative(project.docsDir, base);
      if (model.themeFiles.has(docsRelative)) return undefined;
      if (model.rootFolders.some((folder) => ctx.exists(path.posix.join(folder, docsRelative)))) return undefined;
      // A file the repository ignores is one the build writes (a hook's or plugin's page).
      if (model.gitIgnored(base)) return undefined;
      return { file: null, anchor };
    }
    default: {
      if (target.startsWith("/")) return undefined; // Plain Markdown has no known site layout.
      return { file: firstFile(pageCandidates(path.posix.join(dir, target))), anchor };
    }
  }
}

/**
 * The file @mintlify/link-rot resolves a link to when no file has its exact path: one in the same
 * folder whose name without its extension is the link's (`./page.md` is `page.mdx`), or is the
 * link's whole last segment (`v1.2` is `v1.2.mdx`), among pages and media (link-rot 3.0.1419,
 * dist/graph.js MdxPath.getResolvedFiles over prebuild.js getLinkPaths). Pages come first.
 */
const MINTLIFY_LINKABLE = /\.(mdx|md|jpe?g|jfif|pjpeg|pjp|png|svgz?|ico|webp|gif|apng|avif|bmp|mp4|css|xml)$/i;
function mintlifySameName(ctx: LinkContext, base: string): string | null {
  const { repoRoot } = ctx;
  const dir = path.posix.dirname(base);
  const { name, base: last } = path.posix.parse(base);
  let entries: string[];
  try {
    entries = readdirSync(path.join(repoRoot, dir));
  } catch {
    return null;
  }
  const matches = entries.filter((entry) => MINTLIFY_LINKABLE.test(entry) && [name, last].includes(path.posix.parse(entry).name) && isFile(repoRoot, path.posix.join(dir, entry)) && !ctx.model.ignored(path.posix.join(dir, entry)));
  const match = matches.find((entry) => /\.mdx?$/i.test(entry)) ?? matches[0];
  return match ? path.posix.join(dir, match) : null;
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
  if (!target || target.problems.length > 0 || target.generated) return null;
  // The site's own Markdown plugins may rewrite the target's headings before their ids are made.
  if (ctx.model.headingsRewritten(resolved.file)) return null;
  const anchors = await anchorsWithImports(resolved.file, target, ctx);
  const wanted = ctx.project.framework === "mintlify" ? mintlifyCleanId(resolved.anchor) : safeDecode(resolved.anchor);
  // An MkDocs hook may make an id of what the page's comment names (`#config.name`, `#+type:note`).
  if (ctx.model.mkdocsHooks && target.commentWords?.has(wanted.replace(/^\+/, ""))) return null;
  // VitePress 2 slugifies a link's fragment as it renders it (site-model.ts VitepressMarkdown.normalizesHash).
  const normalized = ctx.project.framework === "vitepress" && ctx.model.slugOptions.normalizesHash ? vitepressSlug(wanted) : wanted;
  const found = (ids: Set<string>) => ids.has(wanted) || ids.has(resolved.anchor as string) || ids.has(normalized);
  if (found(anchors)) return null;
  // A fragment VitePress includes is spliced into each including page before it is rendered
  // (src/node/markdown/plugins/include.ts), so its own `#x` links land on those pages' headings.
  if (ctx.project.framework === "vitepress" && resolved.file === from) {
    for (const includer of await includersOf(from, ctx)) {
      const page = await ctx.analysis(includer);
      if (page && found(await anchorsWithImports(includer, page, ctx))) return null;
    }
  }
  return `${from}:${line}: link '${url}': ${resolved.file} has no heading with the anchor #${resolved.anchor}`;
}

/** The pages that include each file (VitePress `<!--@include: -->` and `<<<`, as the pages' analyses read them), found once per check. */
const includers = new WeakMap<LinkContext, Promise<Map<string, string[]>>>();
async function includersOf(file: string, ctx: LinkContext): Promise<string[]> {
  let found = includers.get(ctx);
  if (!found) {
    found = (async () => {
      const map = new Map<string, string[]>();
      for (const page of listPageFiles(ctx.repoRoot, ctx.project.docsDir, [".md"])) {
        for (const link of (await ctx.analysis(page))?.links ?? []) {
          const target = link.kind === "include" ? resolveLink(page, link.url, "include", ctx)?.file : null;
          if (target) map.set(target, [...(map.get(target) ?? []), page]);
        }
      }
      return map;
    })();
    includers.set(ctx, found);
  }
  return (await found).get(file) ?? [];
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
export async function linksIntoRemovedPages(removed: string[], alreadyChecked: Set<string>, ctx: LinkContext): Promise<string[]> {
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
