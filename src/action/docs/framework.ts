import { existsSync, readFileSync, readdirSync, type Dirent } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { docsOptions as docsOptionsText, docsPluginInstances, docusaurusDocId, numberPrefixesOff, objectBody, ownString, readSidebars, sidebarLists, sidebarPathIn, withoutJsComments, type SidebarListing } from "./docusaurus.js";
import { frontmatterOf } from "./frontmatter.js";
import { moduleWithLocalImports } from "./js-text.js";
import { readMintlifyConfig, type MintlifyConfig } from "./mintlify-docs-json.js";
import { findMkdocsConfig, mkdocsConfigText, mkdocsParentConfigs, mkdocsPlugins } from "./mkdocs-config.js";

export type Framework = "mintlify" | "docusaurus" | "mkdocs" | "vitepress" | "markdown";

export interface DocsProject {
  framework: Framework;
  /** Repository-relative directory the agent may edit ("." for the whole repository). */
  docsDir: string;
  /** Repository-relative files that hold the navigation, when the framework has one. */
  navigationFiles: string[];
  /** Page extensions of the framework, most common first. */
  pageExtensions: string[];
  /** The framework's own config file (docusaurus.config.*, mkdocs.yml, .vitepress/config.*), repository-relative. */
  configFile?: string;
}

const firstExisting = (root: string, candidates: string[]) => candidates.find((c) => existsSync(path.join(root, c)));

/** Finds the docs framework and where its pages and navigation live. `docsDirInput` overrides the directory. */
export function detectDocsProject(repoRoot: string, docsDirInput?: string): DocsProject {
  const usual = [".", "docs", "documentation", "website"];
  // A monorepo keeps its site deeper (packages/website, hack/api-docs): the one folder that holds a site's config, when there is exactly one.
  const deeper = docsDirInput || usual.some((dir) => siteConfigIn(path.join(repoRoot, dir))) ? [] : foldersWithSiteConfig(repoRoot);
  const searchRoots = docsDirInput ? [docsDirInput] : deeper.length === 1 ? deeper : usual;
  for (const dir of searchRoots) {
    const root = path.join(repoRoot, dir);
    const mint = firstExisting(root, ["docs.json", "mint.json"]);
    if (mint) return { framework: "mintlify", docsDir: dir, navigationFiles: [path.posix.join(dir, mint)], pageExtensions: [".mdx", ".md"] };
    const docusaurus = firstExisting(root, DOCUSAURUS_CONFIGS);
    if (docusaurus) {
      const config = withoutJsComments(readFileSync(path.join(root, docusaurus), "utf8"));
      // The preset's docs, else the first docs plugin instance (a site whose docs are all plugins, `docs: false` in the preset).
      const instances = docsPluginInstances(config);
      const first = instances.find((instance) => instance.preset) ?? instances[0];
      const options = first?.preset === false ? first.options : null;
      // The sidebars file the docs options name (`sidebarPath`), else the usual one beside the config;
      // `sidebarPath: false` is a site without sidebars.
      const sidebarPath = options === null ? sidebarPathIn(docsOptionsText(config)) : sidebarPathIn(options);
      const named = typeof sidebarPath === "string" && existsSync(path.join(root, sidebarPath)) ? path.posix.normalize(sidebarPath) : undefined;
      const sidebars = sidebarPath === false ? undefined : (named ?? (options === null ? firstExisting(root, ["sidebars.ts", "sidebars.js", "sidebars.json"]) : undefined));
      // The docs plugin's `path` (default `docs`, relative to the site: jest keeps its docs in ../docs).
      const docsPath = (options === null ? docusaurusDocsPath(config) : ownString(options, "path")) ?? "docs";
      return {
        framework: "docusaurus",
        docsDir: docsDirInput ?? path.posix.normalize(path.posix.join(dir, docsPath)),
        navigationFiles: sidebars ? [path.posix.join(dir, sidebars)] : [],
        pageExtensions: [".md", ".mdx"],
        configFile: path.posix.join(dir, docusaurus),
      };
    }
    const mkdocs = findMkdocsConfig(root);
    if (mkdocs) {
      const configFile = path.posix.join(dir, mkdocs);
      const docsDir = readMkdocsDocsDir(repoRoot, configFile);
      // The nav may be in a config the site's config inherits from.
      const navigationFiles = [configFile, ...mkdocsParentConfigs(repoRoot, configFile)];
      return { framework: "mkdocs", docsDir: docsDirInput ?? path.posix.join(dir, docsDir), navigationFiles, pageExtensions: [".md"], configFile };
    }
    // VitePress' own order (vuejs/vitepress src/node/config.ts resolveUserConfig at ed2bfb26): for
    // each of js, ts, mjs, mts, `.vitepress/config/index.<ext>` before `.vitepress/config.<ext>`.
    const vitepress = firstExisting(root, ["js", "ts", "mjs", "mts"].flatMap((ext) => [`.vitepress/config/index.${ext}`, `.vitepress/config.${ext}`]));
    if (vitepress) {
      // The pages are under `srcDir` (default the project root, the folder of `.vitepress`), relative
      // to that root (vuejs/vitepress src/node/config.ts resolveConfig: path.resolve(root, userConfig.srcDir || '.')).
      const configFile = path.posix.join(dir, vitepress);
      const srcDir = vitepressSrcDir(moduleWithLocalImports(repoRoot, configFile).map((module) => withoutJsComments(module.text)));
      const docsDir = docsDirInput ?? (srcDir ? path.posix.normalize(path.posix.join(dir, srcDir)) : dir);
      return { framework: "vitepress", docsDir, navigationFiles: [configFile], pageExtensions: [".md"], configFile };
    }
  }
  const plain = docsDirInput ?? (existsSync(path.join(repoRoot, "docs")) ? "docs" : ".");
  return { framework: "markdown", docsDir: plain, navigationFiles: [], pageExtensions: [".md", ".mdx"] };
}

/**
 * VitePress' `srcDir`: a key of the config object itself (`defineConfig({ … })`, `export default
 * { … }`), not one of an option nested in it (vite-plugin-pwa's `pwa: { srcDir }`). Where no
 * config object is in view (one built from shared parts), the key is read where it is written.
 */
function vitepressSrcDir(modules: string[]): string | undefined {
  let configObjects = 0;
  for (const code of modules) {
    for (const start of code.matchAll(/(?:\bdefineConfig(?:WithTheme)?\s*(?:<[^()]*>\s*)?\(\s*|\bexport\s+default\s+)\{/g)) {
      const body = objectBody(code, (start.index ?? 0) + start[0].length - 1);
      if (body === null) continue;
      configObjects++;
      const value = ownString(body, "srcDir");
      if (value !== undefined) return value;
    }
  }
  if (configObjects > 0) return undefined;
  for (const code of modules) {
    const value = /(?:^|[^\w$.])srcDir\s*:\s*['"`]([^'"`$]+)['"`]/.exec(code)?.[1];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Docusaurus' config file names, in the order it looks for them (@docusaurus/utils DEFAULT_CONFIG_FILE_NAME and its extensions). */
const DOCUSAURUS_CONFIGS = ["ts", "mts", "cts", "js", "mjs", "cjs"].map((ext) => `docusaurus.config.${ext}`);
const SITE_CONFIGS = ["docs.json", "mint.json", ...DOCUSAURUS_CONFIGS, "mkdocs.yml", ...["js", "ts", "mjs", "mts"].flatMap((ext) => [`.vitepress/config/index.${ext}`, `.vitepress/config.${ext}`])];
const siteConfigIn = (dir: string) => SITE_CONFIGS.some((file) => existsSync(path.join(dir, file))) || findMkdocsConfig(dir) !== undefined;

/** Folders up to three levels down (no dependencies, no hidden folders) that hold a docs framework's config. */
function foldersWithSiteConfig(repoRoot: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (depth > 3 || found.length > 1) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(repoRoot, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const child = dir === "." ? entry.name : `${dir}/${entry.name}`;
      if (siteConfigIn(path.join(repoRoot, child))) found.push(child);
      else visit(child, depth + 1);
    }
  };
  visit(".", 1);
  return found;
}

/** The `path` of the classic preset's `docs: { … }` options: the first `path:` string at that object's own level. */
export function docusaurusDocsPath(config: string): string | null {
  for (const start of config.matchAll(/\bdocs\s*:\s*\{/g)) {
    let depth = 0;
    for (let i = (start.index ?? 0) + start[0].length - 1; i < config.length; i++) {
      const character = config[i];
      if (character === "{") depth++;
      else if (character === "}" && --depth === 0) break;
      else if (depth === 1 && config.startsWith("path", i) && /\W/.test(config[i - 1] ?? " ")) {
        const value = /^path\s*:\s*['"`]([^'"`]+)['"`]/.exec(config.slice(i))?.[1];
        if (value) return value;
      }
    }
  }
  return null;
}

function readMkdocsDocsDir(repoRoot: string, configFile: string): string {
  try {
    const config = parseYaml(mkdocsConfigText(repoRoot, configFile), { logLevel: "silent", customTags: [] }) as { docs_dir?: unknown } | null;
    return typeof config?.docs_dir === "string" ? config.docs_dir : "docs";
  } catch {
    return "docs";
  }
}

/**
 * The pages a navigation file points at, as repository-relative paths without extension (Mintlify,
 * Docusaurus sidebars.json) or with it (MkDocs). null when the navigation is generated (Docusaurus
 * autogenerated sidebars, VitePress config code) and so cannot be checked statically.
 */
export function navigationPages(repoRoot: string, project: DocsProject): string[] | null {
  const [nav] = project.navigationFiles;
  if (!nav) return null;
  if (project.framework === "mintlify") return mintlifyNavigationPages(readMintlifyConfig(repoRoot, nav));
  if (project.framework === "mkdocs") {
    const config = parseYaml(mkdocsConfigText(repoRoot, project.configFile ?? nav), { logLevel: "silent" }) as { nav?: unknown; plugins?: unknown } | null;
    const literate = literateNavFile(config?.plugins);
    if (literate) return literateNavPages(repoRoot, project.docsDir, literate);
    // Without `nav`, MkDocs lists every page itself.
    if (config?.nav === undefined || config.nav === null) return null;
    const pages: string[] = [];
    collectMkdocsPages(config.nav, pages);
    return pages.map((page) => path.posix.join(project.docsDir, page));
  }
  if (project.framework === "docusaurus" && nav.endsWith(".json")) {
    // Sidebars name docs by id (a page's folder and its frontmatter `id` or file name), not by file.
    const listing = readSidebars(repoRoot, nav, docusaurusSiteDir(project));
    const files = docusaurusDocIds(repoRoot, project);
    return [...(listing?.ids ?? [])].map((id) => files.get(id) ?? path.posix.join(project.docsDir, id));
  }
  return null;
}

/**
 * The files a VitePress site's navigation may be written in: everything under `.vitepress/` but the
 * theme, and the locale folders' `config.*` (a sidebar per language, per path).
 */
export function vitepressConfigFiles(repoRoot: string, project: DocsProject): string[] {
  // The `.vitepress` folder, also when the config is `.vitepress/config/index.ts`.
  const configFile = project.configFile ?? project.navigationFiles[0] ?? path.posix.join(project.docsDir, ".vitepress/config.ts");
  const configDir = /^(.*?\.vitepress)(?:\/|$)/.exec(configFile)?.[1] ?? path.posix.dirname(configFile);
  const localeConfigs = listPageFiles(repoRoot, project.docsDir, [".ts", ".mts", ".js", ".mjs"]).filter((config) => /(^|\/)config\.[mc]?[jt]s$/.test(config));
  return [...new Set([...listPageFiles(repoRoot, configDir, [".ts", ".mts", ".js", ".mjs", ".json"]).filter((config) => !config.startsWith(`${configDir}/theme/`)), ...localeConfigs])];
}

/** The pages a Mintlify config's navigation lists, repository-relative without extension. */
export const mintlifyNavigationPages = (config: MintlifyConfig) => config.navigation.map((entry) => path.posix.join(path.posix.dirname(config.configFile), entry.page.replace(/^\/+/, "")));

/** mkdocs-literate-nav's nav file name (`nav_file`, default SUMMARY.md) when the site enables the plugin. */
function literateNavFile(plugins: unknown): string | null {
  const options = mkdocsPlugins(plugins).get("literate-nav");
  if (!options) return null;
  return typeof options.nav_file === "string" ? options.nav_file : "SUMMARY.md";
}

/**
 * The pages literate-nav's nav files link (each link relative to its file). null when the
 * navigation is partly generated: no nav file at the top, a wildcard, or a folder link (which
 * lists that folder's pages, or its own nav file's).
 */
function literateNavPages(repoRoot: string, docsDir: string, navFile: string): string[] | null {
  const files = listPageFiles(repoRoot, docsDir, [path.posix.extname(navFile)]).filter((file) => path.posix.basename(file) === navFile);
  if (!files.includes(path.posix.join(docsDir, navFile))) return null;
  const pages: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(repoRoot, file), "utf8");
    if (/^\s*[-*+]\s+(?:\[[^\]]*\]\()?[^\s)]*\*/m.test(text)) return null;
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue;
      if (target.endsWith("/")) return null;
      pages.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), target.split("#")[0] as string)));
    }
  }
  return pages;
}

function collectMkdocsPages(node: unknown, out: string[]): void {
  if (typeof node === "string") {
    if (!/^[a-z]+:\/\//i.test(node)) out.push(node);
  } else if (Array.isArray(node)) node.forEach((item) => collectMkdocsPages(item, out));
  else if (node && typeof node === "object") Object.values(node).forEach((value) => collectMkdocsPages(value, out));
}

/** Docusaurus doc ids (docusaurus.ts docusaurusDocId: folder with number prefixes dropped, then frontmatter `id` or the file name) to their files. */
export function docusaurusDocIds(repoRoot: string, project: DocsProject): Map<string, string> {
  const ids = new Map<string, string>();
  const numberPrefixes = !numberPrefixesOff(docusaurusConfigText(repoRoot, project));
  for (const file of listPageFiles(repoRoot, project.docsDir, project.pageExtensions)) {
    const front = frontmatterOf(readFileSync(path.join(repoRoot, file), "utf8"));
    ids.set(docusaurusDocId(path.posix.relative(project.docsDir, file), front, numberPrefixes), file);
  }
  return ids;
}

/**
 * Whether the Docusaurus sidebars list a doc: the current docs' sidebars file, or a version's
 * (`versioned_sidebars/version-X-sidebars.json` for `versioned_docs/version-X/`), names its id
 * or autogenerates its folder (docusaurus.ts sidebarLists). A translation (`i18n/<locale>/…`) has
 * its source doc's place; sidebars built by code the gate cannot read count as listing it.
 */
export function docusaurusListsPage(repoRoot: string, project: DocsProject, file: string): boolean {
  const siteDir = docusaurusSiteDir(project);
  const inSite = siteDir === "." ? file : path.posix.relative(siteDir, file);
  if (/^i18n\/[^/]+\/docusaurus-plugin-content-docs[^/]*\//.test(inSite)) return true;
  const instances = docusaurusInstances(repoRoot, project);
  // A versioned doc belongs to the instance its folder names (`<id>_versioned_docs` for an instance other than default).
  const versioned = /^(?:([^/]+)_)?versioned_docs\/version-([^/]+)\//.exec(inSite);
  const instance = versioned ? instances.find((candidate) => candidate.id === (versioned[1] ?? "default")) : docusaurusInstanceOf(instances, file);
  if (!instance) return true;
  const version = versioned?.[2];
  const prefix = versioned?.[1] ? `${versioned[1]}_` : "";
  const root = version === undefined ? instance.docsDir : path.posix.join(siteDir, `${prefix}versioned_docs`, `version-${version}`);
  const sidebars = version === undefined ? instance.sidebars : path.posix.join(siteDir, `${prefix}versioned_sidebars`, `version-${version}-sidebars.json`);
  if (!sidebars) return true;
  let listing: SidebarListing | null;
  try {
    listing = readSidebars(repoRoot, sidebars, siteDir);
  } catch {
    // An unreadable sidebars file is the navigation check's to report.
    return true;
  }
  if (!listing) return true;
  const relative = path.posix.relative(root, file);
  const id = docusaurusDocId(relative, frontmatterOf(readFileSync(path.join(repoRoot, file), "utf8")), !/(?:^|[^\w$.])numberPrefixParser\s*:\s*false\b/.test(instance.options));
  // Sidebars of versions cut by Docusaurus 1 and early 2 name docs `version-X/<id>`.
  return sidebarLists(listing, id, relative) || (version !== undefined && listing.ids.has(`version-${version}/${id}`));
}

/** One docs plugin instance of a Docusaurus site, where its files are. */
export interface DocusaurusInstance {
  /** Its plugin id (`default` when none is written). */
  id: string;
  /** Repository-relative folder of its current docs. */
  docsDir: string;
  /** Its `routeBasePath`, without slashes around it ('' for `/`). */
  routeBase: string;
  /** Its sidebars file, repository-relative; undefined for none (an autogenerated sidebar, or `sidebarPath: false`). */
  sidebars: string | undefined;
  /** Its options' text (comments blanked). */
  options: string;
}

/**
 * Every docs plugin instance of a Docusaurus site (docusaurus.ts docsPluginInstances): the one
 * detection found (the project's docs folder and sidebars), then each other `plugin-content-docs`
 * with its own `path` (default `docs`), `routeBasePath` (default `docs`) and `sidebarPath`, relative
 * to the site's folder. Instances whose docs folder is the project's are one.
 */
export function docusaurusInstances(repoRoot: string, project: DocsProject): DocusaurusInstance[] {
  if (project.framework !== "docusaurus") return [];
  const config = withoutJsComments(docusaurusConfigText(repoRoot, project));
  const siteDir = docusaurusSiteDir(project);
  const declared = docsPluginInstances(config);
  const primary = declared.find((instance) => instance.preset) ?? declared[0];
  const primaryRouteBase = primary && !primary.preset ? (ownString(primary.options, "routeBasePath") ?? "docs") : docusaurusPrimaryRouteBase(config);
  const instances: DocusaurusInstance[] = [{ id: primary?.id ?? "default", docsDir: project.docsDir, routeBase: primaryRouteBase.replace(/^\/+|\/+$/g, ""), sidebars: project.navigationFiles[0], options: primary?.options ?? "" }];
  for (const instance of declared) {
    if (instance === primary) continue;
    const docsDir = path.posix.normalize(path.posix.join(siteDir, ownString(instance.options, "path") ?? "docs"));
    if (instances.some((known) => known.docsDir === docsDir)) continue;
    const sidebarPath = sidebarPathIn(instance.options);
    const sidebars = typeof sidebarPath === "string" && existsSync(path.join(repoRoot, siteDir, sidebarPath)) ? path.posix.normalize(path.posix.join(siteDir, sidebarPath)) : undefined;
    instances.push({ id: instance.id, docsDir, routeBase: (ownString(instance.options, "routeBasePath") ?? "docs").replace(/^\/+|\/+$/g, ""), sidebars, options: instance.options });
  }
  return instances;
}

/** The instance whose docs folder holds a file (the deepest, when one folder is inside another); undefined for none. */
export function docusaurusInstanceOf<T extends { docsDir: string }>(instances: T[], file: string): T | undefined {
  const within = (dir: string) => dir === "." || file.startsWith(`${dir}/`);
  return instances.filter((instance) => within(instance.docsDir)).sort((a, b) => b.docsDir.length - a.docsDir.length)[0];
}

/** The preset docs' `routeBasePath` (default `docs`), read from the docs options. */
function docusaurusPrimaryRouteBase(config: string): string {
  const options = docsOptionsText(config) || config;
  return /(?:^|[^\w$.])routeBasePath\s*:\s*['"`]([^'"`]*)['"`]/.exec(options)?.[1] ?? "docs";
}

/** The Docusaurus site's folder (where its config is). */
export const docusaurusSiteDir = (project: DocsProject) => path.posix.dirname(project.configFile ?? project.navigationFiles[0] ?? path.posix.join(project.docsDir, ".."));

const docusaurusConfigText = (repoRoot: string, project: DocsProject) => (project.configFile && existsSync(path.join(repoRoot, project.configFile)) ? readFileSync(path.join(repoRoot, project.configFile), "utf8") : "");

/** Whether a navigation entry names an existing page (trying the framework's extensions). */
export function pageExists(repoRoot: string, project: DocsProject, entry: string): boolean {
  const full = path.join(repoRoot, entry);
  if (path.extname(entry) && existsSync(full)) return true;
  return project.pageExtensions.some((ext) => existsSync(`${full}${ext}`)) || (existsSync(full) && readdirSync(full).some((f) => /^index\.mdx?$/.test(f)));
}

/** Every page file under `dir` (repository-relative), skipping dot-entries and node_modules; a directory that cannot be read has none. */
export function listPageFiles(repoRoot: string, dir: string, extensions: string[] = [".md", ".mdx"]): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(repoRoot, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && extensions.includes(path.posix.extname(entry.name))) out.push(child);
    }
  };
  walk(dir);
  return out;
}
