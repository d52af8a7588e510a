import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { parse as parseYaml } from "yaml";
import { gitIgnore } from "./git-ignore.js";
import { mkdocsConfigText } from "./mkdocs-config.js";
import { docsOptions, docusaurusVersions, isCategoryIndex, numberPrefixesOff, objectLiteral, ownString, readSidebars, skipLiteral, stripNumberPrefix, stripPathNumberPrefixes, withoutJsComments, type SidebarListing } from "./docusaurus.js";
import { docusaurusInstances, listPageFiles, type DocsProject } from "./framework.js";
import { frontmatterOf } from "./frontmatter.js";

export { frontmatterOf };

/**
 * Absolute site links (`/docs/guides/setup`) as the framework routes them, so the gate checks them
 * like relative ones. Docusaurus: the docs plugin's `routeBasePath` (default `docs`) under the
 * site's `baseUrl`, each page at its `slug`, else its `id` in place of the file name, else its path
 * with number prefixes (`01-`) dropped and `index`/`README`/a file named like its folder standing for
 * the folder; each version under its own path. MkDocs: only with `validation.links.absolute_links:
 * relative_to_docs`, the file under `docs_dir` the path names.
 */
export interface SiteRoutes {
  /** The file a site path names; null when it names no page; undefined when the path is not the docs' (another plugin, the blog). */
  fileFor(sitePath: string): string | null | undefined;
  /** The site path a page is served at (Docusaurus), for links relative to a page's URL. */
  routeOf?(file: string): string | undefined;
}

const stripSlashes = (value: string) => value.replace(/^\/+|\/+$/g, "");
/** Route parts joined, without slashes around them; the site's root is '' (never path.join's "."). */
const joinRoute = (...parts: string[]) => stripSlashes(path.posix.join(...parts)).replace(/^\.$/, "");

export function siteRoutes(repoRoot: string, project: DocsProject): SiteRoutes | null {
  if (project.framework === "docusaurus") return docusaurusRoutes(repoRoot, project);
  if (project.framework === "mkdocs") return mkdocsRoutes(repoRoot, project);
  return null;
}

/** The framework's config file as text (MkDocs' `mkdocs.yml` when detection named none); empty when there is none. */
export function frameworkConfig(repoRoot: string, project: DocsProject): string {
  const file = project.configFile ?? (project.framework === "mkdocs" ? "mkdocs.yml" : undefined);
  if (!file || !existsSync(path.join(repoRoot, file))) return "";
  // MkDocs merges the configs a site's config inherits from (`INHERIT`) under it.
  return project.framework === "mkdocs" ? mkdocsConfigText(repoRoot, file) : readFileSync(path.join(repoRoot, file), "utf8");
}

/**
 * Docusaurus' `baseUrl`s, without slashes around them, longest first: the string literals its value
 * is written with (`process.env.PREVIEW ? "/" : "/immer/"` is either), a template's `${NAME}` read
 * from the config's own `const NAME = '…'` (`` baseUrl: `${BASE_URL}/` ``); `/` when none is written.
 */
export function docusaurusBaseUrls(config: string): string[] {
  const value = valueAfter(config, /\bbaseUrl\s*:\s*/);
  const constant = (name: string) => new RegExp(`(?:const|let|var)\\s+${name.replace(/\$/g, "\\$")}\\s*=\\s*(['"\`])([^'"\`$]*)\\1`).exec(config)?.[2];
  const literals = [...value.matchAll(/(['"`])((?:(?!\1)[^\\])*)\1/g)].map((match) => stripSlashes((match[2] as string).replace(/\$\{\s*([\w$]+)\s*\}/g, (all, name: string) => constant(name) ?? all)));
  const found = [...new Set(literals.length > 0 ? literals : [""])];
  return found.sort((a, b) => b.length - a.length);
}

/** The expression written after `key` up to the `,` or closing brace that ends it (strings and nested brackets skipped). */
function valueAfter(code: string, key: RegExp): string {
  const found = key.exec(code);
  if (!found) return "";
  const start = (found.index ?? 0) + found[0].length;
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const skipped = skipLiteral(code, i);
    if (skipped !== i) {
      i = skipped - 1;
      continue;
    }
    const character = code[i] as string;
    if (character === "(" || character === "[" || character === "{") depth++;
    else if ((character === ")" || character === "]" || character === "}") && depth-- === 0) return code.slice(start, i);
    else if ((character === "," || character === "\n") && depth === 0) return code.slice(start, i);
  }
  return code.slice(start);
}

/** The `baseUrl` the site is built with (of several written, the longest: a preview's is `/`). */
export const docusaurusBaseUrl = (config: string) => docusaurusBaseUrls(config)[0] ?? "";

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
  const baseUrls = docusaurusBaseUrls(config).filter(Boolean);
  const siteDir = path.posix.dirname(project.configFile ?? project.navigationFiles[0] ?? path.posix.join(project.docsDir, ".."));
  const routes = new Map<string, string>();
  const routeOfFile = new Map<string, string>();
  const generated: string[] = [];
  const categoryPages = new Set<string>();
  // Every docs plugin instance under its own routeBasePath (framework.ts docusaurusInstances).
  const instances = docusaurusInstances(repoRoot, project);
  // Each version's docs under its own path (docusaurus.ts docusaurusVersions): the current docs,
  // and versioned_docs/version-<name> at `/docs/<name>/` unless the config says another path.
  for (const [index, instance] of instances.entries()) {
    const { routeBase } = instance;
    const numberPrefixes = !numberPrefixesOff(index === 0 ? config : `docs: {${instance.options}}`);
    for (const version of docusaurusVersions(repoRoot, siteDir, instance.docsDir, config, instance.sidebars, index === 0 ? undefined : instance)) {
      const versionBase = joinRoute(routeBase, version.path);
      const pages = listPageFiles(repoRoot, version.contentDir, project.pageExtensions);
      for (const file of pages) {
        const route = docusaurusRoute(path.posix.relative(version.contentDir, file), frontmatter(path.join(repoRoot, file)), versionBase, numberPrefixes);
        // A page of a later version at the same route does not hide the current one (routes are the current's first).
        if (!routes.has(route)) routes.set(route, file);
        routeOfFile.set(file, `/${[baseUrl, route].filter(Boolean).join("/")}`);
      }
      // Generated-index category pages have no file (plugin-content-docs sidebars/postProcessor.ts
      // normalizeCategoryLink at 0858c84c): at the link's `slug`, else `/category/<label>` slugged by
      // one slugger per version (@docusaurus/utils createSlugger: github-slugger, so a repeated label
      // is `-1`), under the version's path. They come from the sidebars file (`link: {type:
      // 'generated-index'}` on a category) and from `_category_` files; a folder with a category file
      // and no pages has its pages made at build time.
      const slugger = new GithubSlugger();
      const categoryPage = (label: string, slug: string | undefined) => categoryPages.add(joinRoute(versionBase, slug ?? `/category/${slugger.slug(label)}`));
      let listing: SidebarListing | null = null;
      try {
        listing = version.sidebars ? readSidebars(repoRoot, version.sidebars, siteDir) : null;
      } catch {
        // An unreadable sidebars file is the navigation check's to report.
      }
      for (const category of listing?.generatedIndexes ?? []) categoryPage(category.label, category.slug);
      for (const category of listPageFiles(repoRoot, version.contentDir, [".json", ".yml", ".yaml"]).filter((file) => /(^|\/)_category_\.(json|ya?ml)$/.test(file))) {
        const folder = path.posix.dirname(category);
        let settings: { label?: unknown; link?: { type?: unknown; slug?: unknown } } = {};
        try {
          settings = (parseYaml(readFileSync(path.join(repoRoot, category), "utf8"), { logLevel: "silent" }) ?? {}) as typeof settings;
        } catch {
          // An unreadable category file makes no page.
        }
        if (settings.link?.type === "generated-index") categoryPage(String(settings.label ?? path.posix.basename(folder)), typeof settings.link.slug === "string" ? settings.link.slug : undefined);
        if (!pages.some((page) => page.startsWith(`${folder}/`))) generated.push(stripSlashes(docusaurusRoute(`${path.posix.relative(version.contentDir, folder)}/x.md`, {}, versionBase, numberPrefixes).replace(/\/x$/, "")));
      }
    }
  }
  const routeBases = instances.map((instance) => instance.routeBase);
  // Under a docs instance at the site's root, other plugins still serve their own paths: the blog
  // at its routeBasePath (default `blog`, unless `blog: false`), and each file of `src/pages` at its
  // path (plugin-content-pages: .js/.jsx/.ts/.tsx/.md/.mdx, `index` for its folder).
  const blogOptions = objectLiteral(withoutJsComments(config), "blog");
  const blogBase = /(?:^|[^\w$.])blog\s*:\s*false\b/.test(withoutJsComments(config)) ? null : stripSlashes(blogOptions === null ? "blog" : (ownString(blogOptions, "routeBasePath") ?? "blog"));
  const pageExtensions = [".js", ".jsx", ".ts", ".tsx", ".md", ".mdx"];
  const otherPlugin = (route: string) =>
    (blogBase !== null && (route === blogBase || route.startsWith(`${blogBase}/`))) ||
    pageExtensions.some((extension) => [route ? `${route}${extension}` : `index${extension}`, path.posix.join(route, `index${extension}`)].some((file) => existsSync(path.join(repoRoot, siteDir, "src/pages", file))));
  // A path into a docs folder the repository ignores is a page the build writes there first
  // (lexical's /docs/api and /docs/packages, written by TypeDoc and a local plugin).
  const ignoredByGit = gitIgnore(repoRoot);
  const writtenByBuild = (route: string) =>
    instances.some(({ routeBase, docsDir }) => {
      if (routeBase && route !== routeBase && !route.startsWith(`${routeBase}/`)) return false;
      const file = path.posix.join(docsDir, stripSlashes(route.slice(routeBase.length)));
      return [file, ...project.pageExtensions.map((extension) => `${file}${extension}`)].some(ignoredByGit);
    });
  return {
    fileFor(sitePath) {
      let route = stripSlashes(sitePath);
      // A link that already starts with baseUrl does not get it twice (@docusaurus/core
      // client/exports/useBaseUrl.ts addBaseUrl at 062348e6: "avoid adding the baseurl twice").
      const written = baseUrls.find((base) => route === base || route.startsWith(`${base}/`));
      if (written) route = stripSlashes(route.slice(written.length));
      // A path under no instance's routeBasePath is another plugin's (the blog, pages).
      if (!routeBases.some((routeBase) => !routeBase || route === routeBase || route.startsWith(`${routeBase}/`))) return undefined;
      if (categoryPages.has(route) || generated.some((folder) => route === folder || route.startsWith(`${folder}/`))) return undefined;
      return routes.get(route) ?? (otherPlugin(route) || writtenByBuild(route) ? undefined : null);
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
  return joinRoute(routeBase, stripSlashes(route));
}

/** The docs plugin's `routeBasePath` as the site's config sets it in the docs options (default `docs`). */
export function docusaurusRouteBase(config: string): string {
  // The docs options' own (the blog has a routeBasePath too); the whole config where no `docs: {}` is written.
  const options = docsOptions(config) || withoutJsComments(config);
  return stripSlashes(/(?:^|[^\w$.])routeBasePath\s*:\s*['"`]([^'"`]*)['"`]/.exec(options)?.[1] ?? "docs");
}

/**
 * MkDocs' absolute links (mkdocs/mkdocs mkdocs/structure/pages.py _RelativePathTreeprocessor.path_to_url
 * at 28625367): left as written and only logged (`validation.links.absolute_links`, default `info`)
 * unless that setting is `relative_to_docs` (MkDocs 1.6), which reads `/a/b.md` as the docs file
 * `a/b.md` and warns when there is none: the path as written names a file (`/a/b/` names none, as
 * for a relative link). Anywhere else an absolute link's target depends on where the site is
 * served (a `site_url` path, mike's versions), which the build does not check either.
 */
function mkdocsRoutes(repoRoot: string, project: DocsProject): SiteRoutes {
  const relativeToDocs = mkdocsAbsoluteLinks(frameworkConfig(repoRoot, project)) === "relative_to_docs";
  return {
    fileFor(sitePath) {
      if (!relativeToDocs) return undefined;
      const file = path.posix.normalize(path.posix.join(project.docsDir, sitePath.replace(/^\/+/, "")));
      return !file.startsWith("../") && isFile(path.join(repoRoot, file)) ? file : null;
    },
  };
}

/**
 * MkDocs' `validation.links.absolute_links` (mkdocs/config/defaults.py at 28625367: default `info`);
 * a value given for the whole `validation` block holds for `links` unless `links` sets its own.
 */
export function mkdocsAbsoluteLinks(config: string): string {
  try {
    const parsed = parseYaml(config, { logLevel: "silent" }) as { validation?: { absolute_links?: unknown; links?: { absolute_links?: unknown } | null } | null } | null;
    const value = parsed?.validation?.links?.absolute_links ?? parsed?.validation?.absolute_links;
    return typeof value === "string" ? value : "info";
  } catch {
    return "info";
  }
}

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

function frontmatter(file: string): Record<string, unknown> {
  return frontmatterOf(readFileSync(file, "utf8"));
}
