import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { parse as parseYaml } from "yaml";
import { docsOptions, isCategoryIndex, numberPrefixesOff, stripNumberPrefix, stripPathNumberPrefixes } from "./docusaurus.js";
import { listPageFiles, type DocsProject } from "./framework.js";
import { frontmatterOf } from "./frontmatter.js";

export { frontmatterOf };

/**
 * Absolute site links (`/docs/guides/setup`) as the framework routes them, so the gate checks them
 * like relative ones. Docusaurus: the docs plugin's `routeBasePath` (default `docs`) under the
 * site's `baseUrl`, each page at its `slug`, else its `id` in place of the file name, else its path
 * with number prefixes (`01-`) dropped and `index`/`README`/a file named like its folder standing for
 * the folder. MkDocs: the page's path under `docs_dir`, below the path of `site_url`.
 */
export interface SiteRoutes {
  /** The file a site path names; null when it names no page; undefined when the path is not the docs' (another plugin, the blog). */
  fileFor(sitePath: string): string | null | undefined;
  /** The site path a page is served at (Docusaurus), for links relative to a page's URL. */
  routeOf?(file: string): string | undefined;
}

const stripSlashes = (value: string) => value.replace(/^\/+|\/+$/g, "");

export function siteRoutes(repoRoot: string, project: DocsProject): SiteRoutes | null {
  if (project.framework === "docusaurus") return docusaurusRoutes(repoRoot, project);
  if (project.framework === "mkdocs") return mkdocsRoutes(repoRoot, project);
  return null;
}

/** The framework's config file as text (MkDocs' `mkdocs.yml` when detection named none); empty when there is none. */
export function frameworkConfig(repoRoot: string, project: DocsProject): string {
  const file = project.configFile ?? (project.framework === "mkdocs" ? "mkdocs.yml" : undefined);
  return file && existsSync(path.join(repoRoot, file)) ? readFileSync(path.join(repoRoot, file), "utf8") : "";
}

/** Docusaurus' `baseUrl`, without slashes around it. */
export const docusaurusBaseUrl = (config: string) => stripSlashes(/\bbaseUrl\s*:\s*['"`]([^'"`]*)['"`]/.exec(config)?.[1] ?? "/");

/** The path of MkDocs' `site_url`, without slashes around it: where the site's pages start. */
export function mkdocsSitePrefix(config: string): string {
  try {
    const parsed = parseYaml(config, { logLevel: "silent" }) as { site_url?: unknown } | null;
    return typeof parsed?.site_url === "string" ? stripSlashes(new URL(parsed.site_url).pathname) : "";
  } catch {
    // No readable site_url: pages are from the site's root.
    return "";
  }
}

function docusaurusRoutes(repoRoot: string, project: DocsProject): SiteRoutes {
  const config = frameworkConfig(repoRoot, project);
  const baseUrl = docusaurusBaseUrl(config);
  const routeBase = docusaurusRouteBase(config);
  const numberPrefixes = !numberPrefixesOff(config);
  const routes = new Map<string, string>();
  const routeOfFile = new Map<string, string>();
  const pages = listPageFiles(repoRoot, project.docsDir, project.pageExtensions);
  for (const file of pages) {
    const route = docusaurusRoute(path.posix.relative(project.docsDir, file), frontmatter(path.join(repoRoot, file)), routeBase, numberPrefixes);
    routes.set(route, file);
    routeOfFile.set(file, `/${[baseUrl, route].filter(Boolean).join("/")}`);
  }
  // The current version served under its own path (`versions: { current: { path: 'v4' } }`).
  const currentPath = /\bcurrent\s*:\s*\{[^}]*?\bpath\s*:\s*['"`]([^'"`]+)['"`]/.exec(config)?.[1];
  // Category pages: a `_category_` file's generated index (its `slug`, or `/category/<label slug>`)
  // is a page with no file; a folder with a category file and no pages has them made at build time.
  const generated: string[] = [];
  const categoryPages = new Set<string>();
  for (const category of listPageFiles(repoRoot, project.docsDir, [".json", ".yml", ".yaml"]).filter((file) => /(^|\/)_category_\.(json|ya?ml)$/.test(file))) {
    const folder = path.posix.dirname(category);
    let settings: { label?: unknown; link?: { type?: unknown; slug?: unknown } } = {};
    try {
      settings = (parseYaml(readFileSync(path.join(repoRoot, category), "utf8"), { logLevel: "silent" }) ?? {}) as typeof settings;
    } catch {
      // An unreadable category file makes no page.
    }
    if (settings.link?.type === "generated-index") {
      const slug = typeof settings.link.slug === "string" ? settings.link.slug : `/category/${new GithubSlugger().slug(String(settings.label ?? path.posix.basename(folder)))}`;
      categoryPages.add(stripSlashes(path.posix.join(routeBase, slug)));
    }
    if (!pages.some((page) => page.startsWith(`${folder}/`))) generated.push(stripSlashes(docusaurusRoute(`${path.posix.relative(project.docsDir, folder)}/x.md`, {}, routeBase, numberPrefixes).replace(/\/x$/, "")));
  }
  return {
    fileFor(sitePath) {
      let route = stripSlashes(sitePath);
      if (baseUrl && (route === baseUrl || route.startsWith(`${baseUrl}/`))) route = stripSlashes(route.slice(baseUrl.length));
      if (routeBase && route !== routeBase && !route.startsWith(`${routeBase}/`)) return undefined;
      if (currentPath) {
        const versioned = stripSlashes(path.posix.join(routeBase, currentPath));
        if (route === versioned || route.startsWith(`${versioned}/`)) route = stripSlashes(path.posix.join(routeBase, route.slice(versioned.length)));
      }
      if (categoryPages.has(route) || generated.some((folder) => route === folder || route.startsWith(`${folder}/`))) return undefined;
      return routes.get(route) ?? null;
    },
    routeOf: (file) => routeOfFile.get(file),
  };
}

/**
 * The docs plugin's route of one page (its path relative to the docs directory), without baseUrl or
 * slashes around it (plugin-content-docs src/slug.ts getSlug): an absolute `slug`; a folder's index
 * page (index, README, or named like its folder, as written) at its folder; else the `slug`, the
 * frontmatter `id` or the file name without its number prefix, under its folder without theirs.
 */
export function docusaurusRoute(relative: string, front: Record<string, unknown>, routeBase: string, numberPrefixes = true): string {
  const parse = numberPrefixes && front.parse_number_prefixes !== false;
  const dir = path.posix.dirname(relative);
  const folder = dir === "." ? "" : parse ? stripPathNumberPrefixes(dir) : dir;
  const slug = typeof front.slug === "string" ? front.slug : undefined;
  let route: string;
  if (slug?.startsWith("/")) route = slug;
  else if (slug === undefined && isCategoryIndex(relative)) route = folder;
  else {
    const name = path.posix.basename(relative, path.posix.extname(relative));
    route = path.posix.join(folder, slug ?? (typeof front.id === "string" ? front.id : parse ? stripNumberPrefix(name) : name));
  }
  return stripSlashes(path.posix.join(routeBase, stripSlashes(route)));
}

/** The docs plugin's `routeBasePath` as the site's config sets it in the docs options (default `docs`). */
export function docusaurusRouteBase(config: string): string {
  // The docs options' own (the blog has a routeBasePath too); the whole config where no `docs: {}` is written.
  const options = docsOptions(config) || config;
  return stripSlashes(/(?:^|[^\w$.])routeBasePath\s*:\s*['"`]([^'"`]*)['"`]/.exec(options)?.[1] ?? "docs");
}

function mkdocsRoutes(repoRoot: string, project: DocsProject): SiteRoutes {
  const sitePrefix = mkdocsSitePrefix(frameworkConfig(repoRoot, project));
  const pages = new Set(listPageFiles(repoRoot, project.docsDir, project.pageExtensions));
  return {
    fileFor(sitePath) {
      let route = stripSlashes(sitePath).replace(/\.html$/, "");
      if (sitePrefix && (route === sitePrefix || route.startsWith(`${sitePrefix}/`))) route = stripSlashes(route.slice(sitePrefix.length));
      const base = route ? path.posix.join(project.docsDir, route.replace(/\.md$/, "")) : project.docsDir;
      return [`${base}.md`, `${base}/index.md`, `${base}/README.md`].find((file) => pages.has(file)) ?? null;
    },
  };
}

function frontmatter(file: string): Record<string, unknown> {
  return frontmatterOf(readFileSync(file, "utf8"));
}
