import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ignore from "ignore";
import picomatch from "picomatch";
import { parse as parseYaml } from "yaml";
import type { SlugOptions } from "./anchors.js";
import { docusaurusMarkdown, installedDocusaurusVersion, objectBody, objectLiteral, objectLiterals, withoutJsComments, type DocusaurusMarkdown } from "./docusaurus.js";
import { docusaurusInstances, listPageFiles, type DocsProject, type DocusaurusInstance } from "./framework.js";
import { decodeJsString, JS_STRING, moduleWithLocalImports } from "./js-text.js";
import { readMintlifyConfig, type MintlifyConfig } from "./mintlify-docs-json.js";
import { fnmatchPattern, mkdocsPlugins } from "./mkdocs-config.js";
import { gitIgnore } from "./git-ignore.js";
import { installedVersion } from "./installed-version.js";
import { docusaurusBaseUrls, frameworkConfig } from "./site-routes.js";
import { escapeRegExp } from "../../shared/regexp.js";

/**
 * What the gate must know of a site, beyond its pages, to judge links as the framework does
 * (docs/action.md, "The validation gate"): Mintlify's redirects and OpenAPI-generated pages and
 * the files it ignores; VitePress's `public/` folder and `rewrites`; MkDocs' slug function,
 * snippet base paths and theme folder; which files are no pages (snippets, partials).
 */
export interface SiteModel {
  /** The folder the site's absolute links start from (docs.json's, VitePress's srcDir, Docusaurus' site). */
  siteDir: string;
  mintlify: MintlifyConfig | null;
  /** Files the framework does not serve: Mintlify's `.mintignore` and defaults, VitePress's `srcExclude`; a test of a repository-relative path. */
  ignored(file: string): boolean;
  /** Whether a page file is a page of the site (not a snippet, partial or ignored file). */
  isPage(file: string): boolean;
  /**
   * How the framework reads a page: its slug function; for Docusaurus, its `markdown.format` (and
   * whether .md is MDX under it), whether MDX takes HTML comments (`mdx1Compat.comments`), and
   * whether it is Docusaurus 2's MDX 1.
   */
  slugOptions: SlugOptions & { mdIsMdx?: boolean; mdx1?: boolean; format?: DocusaurusMarkdown["format"]; mdxComments?: boolean } & VitepressMarkdown;
  /** VitePress `rewrites`: the URL path (no extension) a page file is served at, and back. */
  rewrite: { toUrl(file: string): string; toFile(url: string): string | null } | null;
  /** Folders whose files are served at the site's root (VitePress public/, MkDocs theme custom_dir). */
  rootFolders: string[];
  /** MkDocs pymdownx.snippets base paths, repository-relative. */
  snippetBases: string[];
  /**
   * MkDocs hooks (`hooks:`, Python run on each page): they may turn what a page writes in an HTML
   * comment into an element with an id (Material's `<!-- md:setting config.name -->` is
   * `#config.name`), so on such a site an anchor a page's comment names is not judged; every other
   * anchor of a page in the repository still is.
   */
  mkdocsHooks: boolean;
  /**
   * Whether the repository ignores a file (its .gitignore files, git's rules): a file it ignores and
   * does not have is one the build writes (an MkDocs hook or plugin's page), not a missing one.
   */
  gitIgnored(file: string): boolean;
  /**
   * Files a plugin of the site writes at build time (Docusaurus: docusaurus-plugin-typedoc's `out`
   * folders): one the repository does not have is the build's, not a missing one.
   */
  builtByPlugin(file: string): boolean;
  /** Files the MkDocs theme adds to the site, docs-relative (the built-in themes' images). */
  themeFiles: Set<string>;
  /**
   * MkDocs' `not_in_nav` (gitignore-style patterns relative to `docs_dir`, MkDocs 1.6 mkdocs/config/defaults.py):
   * pages kept out of the navigation on purpose, which MkDocs does not report as missing from it.
   */
  notInNav(file: string): boolean;
  /**
   * MkDocs' i18n plugin (mkdocs-static-i18n) with `docs_structure: folder`: the files a path under a
   * language's folder also finds, the same path at the docs root and in the default language's folder
   * (its folder.py I18nFiles.get_file_from_path strips the language and looks again; files outside
   * every language folder are in each language's build). Empty for any other path or site.
   */
  languageFallbacks(file: string): string[];
  /** Where Material's blog plugin keeps the posts it lists itself (`<docs>/<blog_dir>/posts`); null without the plugin. */
  blogPosts: string | null;
  /**
   * MkDocs: the URL path a page is served at, relative to the site's root (`a/b/` with directory
   * URLs, `a/b.html` without; a blog post where the blog plugin puts it), for links MkDocs leaves as
   * written and the browser resolves. null on other frameworks.
   */
  mkdocsPageUrl: ((file: string) => string) | null;
  /** Docusaurus client redirects' `from` paths (literal in the config, or in a redirects.json beside it): links to them resolve. */
  redirectSources: Set<string>;
  /** Docusaurus' `baseUrl`s (site-routes.ts docusaurusBaseUrls), without slashes; empty elsewhere. A link may start with one. */
  baseUrls: string[];
  /**
   * Whether the site's own remark/rehype plugins (or a Markdown preprocessor) read this page before
   * its heading ids are made, so they may rewrite them: the page's anchors are then the build's to
   * judge, as generated content is (Docusaurus: docusaurusHeadingPlugins).
   */
  headingsRewritten(file: string): boolean;
  /**
   * VitePress: pages a data loader's `createContentLoader(glob)` lists (a blog index lists its posts
   * itself), so the page that renders the loader's data is their navigation.
   */
  listedByContentLoader(file: string): boolean;
  /**
   * VitePress' `ignoreDeadLinks` (src/node/markdownToVue.ts shouldIgnoreDeadLink): whether the build
   * lets this dead link (as the page writes it) pass: `true` lets every one pass; in an array, a
   * string is one link, a regular expression tests it, and a function is the site's own code, so
   * with one no dead link is judged here.
   */
  deadLinkIgnored(url: string): boolean;
}

/** How a VitePress site's markdown options change heading ids. */
export interface VitepressMarkdown {
  /** `markdown.attrs` with its own delimiters (`%{#id}%` for leftDelimiter '%{', rightDelimiter '}%'). */
  attrsDelimiters?: { left: string; right: string };
  /** `markdown.anchor.slugify` is the site's own function: a heading without an explicit id has an id the gate cannot know. */
  customSlugify?: boolean;
  /**
   * VitePress 2 rewrites every internal link's fragment to `slugify(decodeURI(hash))` before it is
   * rendered (src/node/markdown/plugins/link.ts normalizeHash, since 2.0.0-alpha.5), so `#numberFormats`
   * reaches the heading `numberformats`; VitePress 1 keeps the fragment as written. Unset when the
   * site's VitePress is 1.x.
   */
  normalizesHash?: boolean;
}

export function siteModel(repoRoot: string, project: DocsProject): SiteModel {
  // VitePress bundles its config with the local modules it imports (a config split in files).
  const configText = project.framework === "vitepress" && project.configFile ? moduleWithLocalImports(repoRoot, project.configFile).map((module) => module.text).join("\n") : frameworkConfig(repoRoot, project);
  const nav = project.navigationFiles[0];
  let mintlify: MintlifyConfig | null = null;
  if (project.framework === "mintlify" && nav) {
    try {
      mintlify = readMintlifyConfig(repoRoot, nav);
    } catch {
      // The navigation check reports an unreadable docs.json.
    }
  }
  // MkDocs' config, parsed once for every reading of it below.
  const mkdocs = project.framework === "mkdocs" ? parsedConfig(configText) : null;
  const siteDir = project.framework === "mintlify" && nav ? path.posix.dirname(nav) : project.framework === "docusaurus" && project.configFile ? path.posix.dirname(project.configFile) : project.docsDir;
  const ignored = project.framework === "mintlify" ? mintIgnore(repoRoot, siteDir) : project.framework === "vitepress" ? vitepressExcluded(configText, siteDir) : project.framework === "mkdocs" ? mkdocsExcluded(mkdocs, project.docsDir) : project.framework === "docusaurus" ? docusaurusExcluded(repoRoot, project, siteDir) : () => false;
  const blogPosts = project.framework === "mkdocs" ? mkdocsBlogPosts(mkdocs, project) : null;
  const model: SiteModel = {
    siteDir,
    mintlify,
    ignored,
    isPage: (file) => isSitePage(project, siteDir, file) && !ignored(file),
    slugOptions: project.framework === "mkdocs" ? { mkdocsSlugify: mkdocsSlugify(configText), ...mkdocsTabs(configText) } : project.framework === "docusaurus" ? docusaurusReading(repoRoot, project, configText) : project.framework === "vitepress" ? { ...vitepressMarkdown(configText), ...vitepressHashes(repoRoot, project) } : {},
    rewrite: project.framework === "vitepress" ? vitepressRewrites(repoRoot, configText, project.docsDir) : null,
    rootFolders: rootFolders(repoRoot, project, configText),
    snippetBases: project.framework === "mkdocs" ? mkdocsSnippetBases(configText, project) : [],
    redirectSources: project.framework === "docusaurus" ? docusaurusRedirectSources(repoRoot, siteDir, configText) : new Set(),
    baseUrls: project.framework === "docusaurus" ? docusaurusBaseUrls(configText).filter(Boolean) : [],
    mkdocsHooks: project.framework === "mkdocs" && /^hooks:/m.test(configText),
    gitIgnored: gitIgnore(repoRoot),
    builtByPlugin: project.framework === "docusaurus" ? typedocOutputs(configText, siteDir) : () => false,
    themeFiles: project.framework === "mkdocs" && !/^\s*name:\s*['"]?material/m.test(configText) ? MKDOCS_THEME_FILES : new Set(),
    blogPosts,
    mkdocsPageUrl: project.framework === "mkdocs" ? mkdocsPageUrls(mkdocs, project, blogPosts) : null,
    notInNav: project.framework === "mkdocs" ? mkdocsPatterns(mkdocs, "not_in_nav", project.docsDir) : () => false,
    languageFallbacks: project.framework === "mkdocs" ? mkdocsLanguageFallbacks(mkdocs, project.docsDir) : () => [],
    headingsRewritten: project.framework === "docusaurus" ? docusaurusHeadingPlugins(configText, siteDir, project.docsDir, docusaurusInstances(repoRoot, project).slice(1)) : project.framework === "vitepress" && vitepressMarkdownPreTransform(repoRoot, project) ? () => true : () => false,
    listedByContentLoader: project.framework === "vitepress" ? vitepressContentLoaders(repoRoot, project) : () => false,
    deadLinkIgnored: project.framework === "vitepress" ? vitepressIgnoredDeadLinks(configText) : () => false,
  };
  return model;
}

/** The MDX plugin options of Docusaurus' content plugins (plugin-content-docs/pages/blog options, MDXOptions in @docusaurus/mdx-loader). */
const MDX_PLUGIN_OPTIONS = /(?:^|[^\w$.])(?:beforeDefaultRemarkPlugins|remarkPlugins|beforeDefaultRehypePlugins|rehypePlugins)\s*(?::\s*(?!\[\s*\])\S|[,}])/;

/**
 * Which pages a Docusaurus site's own Markdown plugins read: `remarkPlugins`, `rehypePlugins` and
 * their `beforeDefault…` forms in the docs options cover the docs (current, versioned and
 * translated), in the pages options `src/pages`, in the blog options `blog`; a
 * `markdown.preprocessor` rewrites every page's text. Such a plugin may rewrite a heading before
 * Docusaurus makes its id (a site's plugin that drops trailing badges from headings, say), so the
 * ids of those pages are not the gate's to compute. An empty list (`remarkPlugins: []`) names none.
 */
function docusaurusHeadingPlugins(config: string, siteDir: string, docsDir: string, otherInstances: DocusaurusInstance[] = []): (file: string) => boolean {
  // The options' closing brace is put back, so a shorthand property at their end (`{ remarkPlugins }`) counts.
  const names = (key: string) => objectLiterals(config, key).some((options) => MDX_PLUGIN_OPTIONS.test(`${options}}`));
  if (/(?:^|[^\w$.])preprocessor\s*[:(,]/.test(objectLiteral(config, "markdown") ?? "")) return () => true;
  const within = (folder: string, file: string) => folder === "." || file.startsWith(`${folder}/`);
  const inSite = (file: string) => (siteDir === "." ? file : path.posix.relative(siteDir, file));
  const docs = names("docs");
  const pages = names("pages");
  const blog = names("blog");
  // Each other docs plugin instance names its own plugins: its docs and `<id>_versioned_docs`.
  const instanceFolders = otherInstances.filter((instance) => MDX_PLUGIN_OPTIONS.test(`${instance.options}}`)).flatMap((instance) => [instance.docsDir, path.posix.join(siteDir, `${instance.id}_versioned_docs`)]);
  return (file) => {
    const relative = inSite(file);
    if (instanceFolders.some((folder) => within(folder, file))) return true;
    if (docs && (within(docsDir, file) || /^versioned_docs\//.test(relative) || /^i18n\/[^/]+\/docusaurus-plugin-content-docs[^/]*\//.test(relative))) return true;
    if (pages && (/^src\/pages\//.test(relative) || /^i18n\/[^/]+\/docusaurus-plugin-content-pages\//.test(relative))) return true;
    return blog && (/^blog\//.test(relative) || /^i18n\/[^/]+\/docusaurus-plugin-content-blog\//.test(relative));
  };
}

/**
 * Whether a VitePress site's config loads a Vite plugin of its own that rewrites Markdown before
 * VitePress reads it: `enforce: 'pre'` with a `transform` of `.md` modules (Vite runs pre plugins
 * before VitePress' own, which compiles the page; vueuse appends each function's sections that
 * way). Such a site's headings are the build's to judge.
 */
function vitepressMarkdownPreTransform(repoRoot: string, project: DocsProject): boolean {
  if (!project.configFile) return false;
  return moduleWithLocalImports(repoRoot, project.configFile).some(({ text }) => {
    const code = withoutJsComments(text);
    return /\benforce\s*:\s*['"`]pre['"`]/.test(code) && /\btransform\s*[(:]/.test(code) && /\\\.md\b|['"`]\.md['"`]|\.md\$/.test(code);
  });
}

/** Whether the site's VitePress normalizes link fragments: 2.x, or a version nothing in the repository names (the newest behaviour). */
function vitepressHashes(repoRoot: string, project: DocsProject): { normalizesHash?: boolean } {
  // The site's folder: the one holding `.vitepress` (srcDir may be below it).
  const vitepressDir = /^(.*?\.vitepress)(?:\/|$)/.exec(project.configFile ?? "")?.[1];
  const version = installedVersion(repoRoot, vitepressDir ? path.posix.dirname(vitepressDir) : project.docsDir, "vitepress");
  return version !== null && version[0] < 2 ? {} : { normalizesHash: true };
}

/**
 * VitePress' markdown options that decide heading ids (vuejs/vitepress src/node/markdown/markdown.ts
 * at ed2bfb26: `md.use(attrsPlugin, options.attrs)`, then markdown-it-anchor with
 * `options.anchor`, whose `slugify` replaces VitePress' own): attrs' `leftDelimiter` and
 * `rightDelimiter`, and whether `anchor` names a `slugify` of the site's.
 */
function vitepressMarkdown(config: string): VitepressMarkdown {
  const markdown = objectLiterals(config, "markdown").join("\n");
  const attrs = objectLiteral(markdown, "attrs") ?? "";
  const delimiter = (key: string) => {
    const written = new RegExp(String.raw`(?:^|[^\w$.])${key}\s*:\s*${JS_STRING}`).exec(attrs);
    return written ? decodeJsString(written[2] ?? "") : undefined;
  };
  const left = delimiter("leftDelimiter");
  const right = delimiter("rightDelimiter");
  const slugify = /(?:^|[^\w$.])slugify\b/.test(objectLiteral(markdown, "anchor") ?? "");
  return {
    ...(left !== undefined || right !== undefined ? { attrsDelimiters: { left: left ?? "{", right: right ?? "}" } } : {}),
    ...(slugify ? { customSlugify: true } : {}),
  };
}

/**
 * Files a Docusaurus docs instance's `exclude` globs leave out of its docs (plugin-content-docs,
 * matched relative to the instance's folder and to each of its versions' folders; the defaults,
 * `_`-prefixed files and tests, are isSitePage's).
 */
function docusaurusExcluded(repoRoot: string, project: DocsProject, siteDir: string): (file: string) => boolean {
  const rules = docusaurusInstances(repoRoot, project).flatMap((instance) => {
    const list = /(?:^|[^\w$.])exclude\s*:\s*\[([^\]]*)\]/.exec(instance.options)?.[1];
    if (!list) return [];
    const patterns = [...list.matchAll(new RegExp(JS_STRING, "g"))].map((literal) => decodeJsString(literal[2] ?? ""));
    if (patterns.length === 0) return [];
    const versions = `${siteDir === "." ? "" : `${siteDir}/`}${instance.id === "default" ? "" : `${instance.id}_`}versioned_docs/version-`;
    return [{ docsDir: instance.docsDir, versions, isMatch: picomatch(patterns, { dot: true }) }];
  });
  if (rules.length === 0) return () => false;
  return (file) =>
    rules.some((rule) => {
      const versionEnd = file.startsWith(rule.versions) ? file.indexOf("/", rule.versions.length) : -1;
      const relative = file.startsWith(`${rule.docsDir}/`) ? file.slice(rule.docsDir.length + 1) : versionEnd > 0 ? file.slice(versionEnd + 1) : null;
      return relative !== null && relative !== "" && rule.isMatch(relative);
    });
}

/**
 * Pages a VitePress data loader (a `*.data.{js,ts,mjs,mts}` file, vitepress
 * src/node/plugins/staticDataPlugin.ts loaderMatch) lists through `createContentLoader(…)`: its
 * globs, string or list, are relative to the source folder and `!` negates one
 * (src/node/contentLoader.ts and utils/glob.ts normalizeGlob at ed2bfb26; tinyglobby's picomatch,
 * node_modules and dist ignored). Loaders in `.vitepress/` count too.
 */
function vitepressContentLoaders(repoRoot: string, project: DocsProject): (file: string) => boolean {
  const srcDir = project.docsDir;
  const extensions = [".js", ".ts", ".mjs", ".mts"];
  // The config's `.vitepress` folder (beside srcDir's parent when `srcDir` is set).
  const configDir = /^(.*?\.vitepress)(?:\/|$)/.exec(project.configFile ?? "")?.[1] ?? path.posix.join(srcDir, ".vitepress");
  const loaders = [...listPageFiles(repoRoot, srcDir, extensions), ...listPageFiles(repoRoot, configDir, extensions)].filter((file) => /\.data\.m?[jt]s$/.test(file));
  const patterns: string[] = [];
  for (const loader of loaders) {
    const text = readFileSync(path.join(repoRoot, loader), "utf8");
    for (const call of text.matchAll(/\bcreateContentLoader\s*(?:<[^()]*>\s*)?\(\s*(\[[^\]]*\]|(["'`])(?:\\[\s\S]|(?!\2)[^\\\n])*\2)/g)) {
      for (const literal of (call[1] ?? "").matchAll(new RegExp(JS_STRING, "g"))) patterns.push(decodeJsString(literal[2] ?? ""));
      if (call[1]?.startsWith("`") && !call[1].includes("${")) patterns.push(call[1].slice(1, -1));
    }
  }
  if (patterns.length === 0) return () => false;
  const positive = picomatch(patterns.filter((pattern) => !pattern.startsWith("!")).map((pattern) => pattern.replace(/^\.\//, "")), { dot: true });
  const negative = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1).replace(/^\.\//, ""));
  const excluded = picomatch(["**/node_modules/**", "**/dist/**", ...negative], { dot: true });
  return (file) => {
    const relative = srcDir === "." ? file : path.posix.relative(srcDir, file);
    return !relative.startsWith("../") && positive(relative) && !excluded(relative);
  };
}

/**
 * How Docusaurus reads pages (docusaurus.ts docusaurusMarkdown): v3 compiles every page as MDX 3
 * unless `markdown.format` says `md` or `detect` (a page's frontmatter `format` wins), HTML
 * comments included while `mdx1Compat.comments` is on (its default); v2 (`@docusaurus/core` 2.x
 * in the site's package.json) uses MDX 1, whose grammar the gate does not have, so there it reads
 * pages as Markdown and leaves compiling to the site's build.
 */
function docusaurusReading(repoRoot: string, project: DocsProject, config: string): { mdIsMdx: boolean; mdx1: boolean; format: DocusaurusMarkdown["format"]; mdxComments: boolean } {
  const siteDir = path.posix.dirname(project.configFile ?? "docusaurus.config.js");
  let mdx1 = false;
  try {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, siteDir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    mdx1 = /^[~^]?2\./.test(manifest.dependencies?.["@docusaurus/core"] ?? "");
  } catch {
    // No package.json beside the config: Docusaurus 3 is assumed.
  }
  const markdown = docusaurusMarkdown(config, installedDocusaurusVersion(repoRoot, siteDir) ?? undefined);
  return { mdIsMdx: !mdx1 && markdown.format === "mdx", mdx1, ...markdown };
}

function docusaurusRedirectSources(repoRoot: string, siteDir: string, config: string): Set<string> {
  if (!config.includes("plugin-client-redirects")) return new Set();
  const sources = [...config.matchAll(/\bfrom\s*:\s*['"`]([^'"`]+)['"`]/g)].map((match) => match[1] as string);
  const file = path.join(repoRoot, siteDir, "redirects.json");
  if (existsSync(file)) {
    try {
      const listed = JSON.parse(readFileSync(file, "utf8")) as unknown;
      if (Array.isArray(listed)) for (const entry of listed) for (const from of [entry?.from].flat()) if (typeof from === "string") sources.push(from);
    } catch {
      // Not a list of redirects: nothing more to read.
    }
  }
  return new Set(sources.map((source) => source.replace(/\/+$/, "")));
}

/** What MkDocs leaves out of the site: `exclude_docs` and the mkdocs-exclude plugin's patterns. */
function mkdocsExcluded(config: MkdocsConfig, docsDir: string): (file: string) => boolean {
  const excludeDocs = mkdocsPatterns(config, "exclude_docs", docsDir);
  const excludePlugin = mkdocsExcludePlugin(config, docsDir);
  return (file) => excludeDocs(file) || excludePlugin(file);
}

/**
 * MkDocs' `exclude_docs` (files of docs_dir that are no part of the site) or `not_in_nav` (pages kept
 * out of the navigation on purpose): a multi-line string of gitignore patterns relative to
 * `docs_dir` (mkdocs/config/config_options.py PathSpec, through pathspec's gitwildmatch), as a test
 * of a repository-relative path.
 */
function mkdocsPatterns(config: MkdocsConfig, key: "exclude_docs" | "not_in_nav", docsDir: string): (file: string) => boolean {
  const written = config?.[key];
  if (typeof written !== "string" || !written.trim()) return () => false;
  const rules = ignore().add(written);
  return (file) => {
    const relative = docsDir === "." ? file : path.posix.relative(docsDir, file);
    return !relative.startsWith("../") && rules.ignores(relative);
  };
}

/**
 * The folders docusaurus-plugin-typedoc writes its Markdown pages into: each instance's `out`
 * (default `./docs/api`, relative to the site's folder, where Docusaurus runs; the plugin's
 * dist/options.js getPluginOptions at 1.4.0). A template substitution in it (`${packageName}`,
 * one instance per package) stands for any one path segment.
 */
function typedocOutputs(config: string, siteDir: string): (file: string) => boolean {
  const code = withoutJsComments(config);
  const folders: string[] = [];
  for (const plugin of code.matchAll(/(['"`])docusaurus-plugin-typedoc\1\s*,\s*(\{|[\w$]+)/g)) {
    // The options in place, or in a constant of the config (`['docusaurus-plugin-typedoc', typedocConfig]`).
    const declared = plugin[2] === "{" ? null : new RegExp(`(?:const|let|var)\\s+${escapeRegExp(plugin[2] as string)}\\s*(?::[^=]*)?=\\s*\\{`).exec(code);
    const open = plugin[2] === "{" ? (plugin.index ?? 0) + plugin[0].length - 1 : declared ? (declared.index ?? 0) + declared[0].length - 1 : -1;
    const options = open < 0 ? "" : (objectBody(code, open) ?? "");
    const out = /(?:^|[^\w$.])out\s*:\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/.exec(options);
    folders.push(out ? (out[2] as string).replace(/\$\{[^}]*\}/g, "*") : "./docs/api");
  }
  if (folders.length === 0) return () => false;
  const isMatch = picomatch(folders.map((folder) => `${path.posix.normalize(path.posix.join(siteDir, folder)).replace(/\/+$/, "")}/**`), { dot: true });
  return (file) => isMatch(path.posix.normalize(file));
}

/** Files MkDocs' built-in themes add to every site (mkdocs 1.6: themes/mkdocs/img, themes/readthedocs/img). */
const MKDOCS_THEME_FILES = new Set(["img/favicon.ico", "img/grid.png"]);

function mkdocsLanguageFallbacks(config: MkdocsConfig, docsDir: string): (file: string) => string[] {
  const options = mkdocsPlugins(config?.plugins).get("i18n");
  if (options?.docs_structure !== "folder" || !Array.isArray(options.languages)) return () => [];
  const languages = (options.languages as unknown[]).filter((language): language is Record<string, unknown> => !!language && typeof language === "object" && typeof (language as Record<string, unknown>).locale === "string");
  const locales = new Set(languages.map((language) => String(language.locale)));
  const fallback = languages.find((language) => language.default === true)?.locale;
  return (file) => {
    const relative = docsDir === "." ? file : path.posix.relative(docsDir, file);
    const [locale, ...rest] = relative.split("/");
    if (relative.startsWith("../") || !locale || !locales.has(locale) || rest.length === 0) return [];
    const inDefault = typeof fallback === "string" && fallback !== locale ? [path.posix.join(docsDir, fallback, ...rest)] : [];
    return [path.posix.join(docsDir, ...rest), ...inDefault];
  };
}

/** Material's blog plugin (`- blog`, `blog_dir` default `blog`) lists the posts under `<blog_dir>/posts/` itself. */
function mkdocsBlogPosts(config: MkdocsConfig, project: DocsProject): string | null {
  const blog = mkdocsPlugins(config?.plugins).get("blog");
  if (!blog) return null;
  const blogDir = typeof blog.blog_dir === "string" ? blog.blog_dir : "blog";
  return `${path.posix.join(project.docsDir, blogDir)}/posts`;
}

/**
 * Where MkDocs serves a page (structure/files.py File.url: `index.md` and `README.md` are their
 * folder, every other page `name/` under `use_directory_urls`, default true, else `name.html`), and
 * where Material's blog plugin serves a post: `post_url_format` (default `{date}/{slug}`) under
 * `blog_dir`, the date as `post_url_date_format` (default `yyyy/MM/dd`). Only the depth of a post's
 * URL matters to the links it resolves, so its date and slug are read, not slugified.
 */
function mkdocsPageUrls(config: MkdocsConfig, project: DocsProject, blogPosts: string | null): (file: string) => string {
  const directoryUrls = config?.use_directory_urls !== false;
  const blog = mkdocsPlugins(config?.plugins).get("blog");
  const posts = blogPosts === null ? null : `${blogPosts}/`;
  const blogDir = blogPosts === null ? "" : path.posix.relative(project.docsDir, path.posix.dirname(blogPosts));
  const postFormat = typeof blog?.post_url_format === "string" ? blog.post_url_format : "{date}/{slug}";
  const dateFormat = typeof blog?.post_url_date_format === "string" ? blog.post_url_date_format : "yyyy/MM/dd";
  return (file) => {
    const relative = project.docsDir === "." ? file : path.posix.relative(project.docsDir, file);
    if (posts && file.startsWith(posts)) {
      const name = path.posix.basename(file, ".md");
      const url = postFormat.replace(/\{date\}/g, dateFormat.replace(/[^/]+/g, "date")).replace(/\{slug\}/g, name).replace(/\{file\}/g, name).replace(/\{categories\}/g, "category");
      return `${path.posix.join(blogDir, url)}/`;
    }
    if (/(^|\/)(index|README)\.md$/.test(relative)) return relative.replace(/(^|\/)(index|README)\.md$/, "$1");
    return directoryUrls ? relative.replace(/\.md$/, "/") : relative.replace(/\.md$/, ".html");
  };
}

/**
 * Pages the mkdocs-exclude plugin (`exclude:` with `glob` and `regex`, each one pattern or a list)
 * takes out of the build: its on_files matches each file's path under docs_dir with
 * `fnmatch.fnmatchcase` and `re.match` (apenwarr/mkdocs-exclude plugin.py).
 */
function mkdocsExcludePlugin(config: MkdocsConfig, docsDir: string): (file: string) => boolean {
  const options = mkdocsPlugins(config?.plugins).get("exclude");
  if (!options) return () => false;
  const listed = (value: unknown) => (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
  const patterns = [...listed(options.glob).map(fnmatchPattern), ...listed(options.regex).flatMap((source) => {
    try {
      return [new RegExp(`^(?:${source})`)];
    } catch {
      // A Python-only regular expression: the gate cannot apply it, so it excludes nothing here.
      return [];
    }
  })];
  return (file) => {
    const relative = docsDir === "." ? file : path.posix.relative(docsDir, file);
    return !relative.startsWith("../") && patterns.some((pattern) => pattern.test(relative));
  };
}

/** MkDocs' config as YAML gives it (tags such as `!!python/name:` read as plain values); null when unreadable. */
type MkdocsConfig = Record<string, unknown> | null;
function parsedConfig(config: string): MkdocsConfig {
  try {
    return parseYaml(config, { logLevel: "silent", customTags: [] }) as Record<string, unknown> | null;
  } catch {
    return null;
  }
}

/** Snippets (Mintlify `snippets/`), partials (Docusaurus `_name`), and what no framework serves as a page. */
function isSitePage(project: DocsProject, siteDir: string, file: string): boolean {
  const relative = siteDir === "." ? file : path.posix.relative(siteDir, file);
  const segments = relative.split("/");
  const name = segments.at(-1) ?? "";
  switch (project.framework) {
    case "mintlify":
      // @mintlify/common getFileCategory: snippets/ and _snippets/ hold snippets; README and the like are not pages.
      return !segments.slice(0, -1).some((segment) => segment === "snippets" || segment === "_snippets") && !/^(readme|license|contributing|contribute|changelog)\.md$/i.test(name);
    case "docusaurus":
      // plugin-content-docs' default exclude: `**/_*.{md,mdx}`, `**/_*/**`, tests.
      return !segments.some((segment) => segment.startsWith("_")) && !segments.includes("__tests__");
    case "mkdocs":
      // literate-nav's nav files (SUMMARY.md) are the navigation, not pages.
      return name !== "SUMMARY.md";
    default:
      return true;
  }
}

/**
 * Files VitePress leaves out of its pages: `**\/node_modules/**`, `**\/dist/**` and the config's
 * `srcExclude` globs, relative to the source folder (vitepress src/node/utils/glob.ts, through
 * tinyglobby's picomatch). Read as the literal list the config writes.
 */
function vitepressIgnoredDeadLinks(config: string): (url: string) => boolean {
  const code = withoutJsComments(config);
  const key = /(?:^|[^\w$.])ignoreDeadLinks\s*:\s*/.exec(code);
  if (!key) return () => false;
  let at = key.index + key[0].length;
  if (/^true\b/.test(code.slice(at))) return () => true;
  if (code[at] !== "[") return () => false; // false, 'localhostLinks' (URLs, never checked here), or a variable
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (at++; at < code.length; ) {
    const rest = code.slice(at);
    const space = /^[\s,]+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    if (rest.startsWith("]")) break;
    const string = new RegExp(`^${JS_STRING}`).exec(rest);
    if (string) {
      exact.add(decodeJsString(string[2] ?? ""));
      at += string[0].length;
      continue;
    }
    // A regular expression literal: escapes and character classes may hold `/`.
    const literal = /^\/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+)\/([a-z]*)/.exec(rest);
    if (!literal) return () => true; // a function or an expression: the site's code decides
    try {
      patterns.push(new RegExp(literal[1] ?? "", (literal[2] ?? "").replace(/[gy]/g, "")));
    } catch {
      return () => true;
    }
    at += literal[0].length;
  }
  return (url) => {
    // What VitePress tests: the link without its query and hash, `.html` or `.md`; a trailing `/` is `/index`.
    let tested = url.replace(/[?#].*$/, "").replace(/\.(html|md)$/, "");
    if (tested.endsWith("/")) tested += "index";
    return exact.has(tested) || patterns.some((pattern) => pattern.test(tested));
  };
}

function vitepressExcluded(config: string, srcDir: string): (file: string) => boolean {
  const listed = /\bsrcExclude\s*:\s*\[([^\]]*)\]/.exec(config)?.[1] ?? "";
  const patterns = ["**/node_modules/**", "**/dist/**", ...[...listed.matchAll(/['"`]([^'"`]+)['"`]/g)].map((match) => (match[1] as string).replace(/^\.\//, ""))];
  const isMatch = picomatch(patterns, { dot: true });
  return (file) => {
    const relative = srcDir === "." ? file : path.posix.relative(srcDir, file);
    return !relative.startsWith("../") && isMatch(relative);
  };
}

/** Mintlify's ignored files: its defaults and `.mintignore` (gitignore syntax), case-insensitive. */
function mintIgnore(repoRoot: string, siteDir: string): (file: string) => boolean {
  const file = path.join(repoRoot, siteDir, ".mintignore");
  const patterns = ["node_modules/", ".git/", ".github/", ".mintlify/", "README.md", "LICENSE.md", "CHANGELOG.md", "CONTRIBUTING.md"];
  if (existsSync(file)) patterns.push(...readFileSync(file, "utf8").split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith("#")));
  const rules = patterns.map((pattern) => {
    const negated = pattern.startsWith("!");
    const body = negated ? pattern.slice(1) : pattern;
    const anchored = body.startsWith("/") || body.slice(0, -1).includes("/");
    const directory = body.endsWith("/");
    const core = body.replace(/^\/|\/$/g, "");
    const glob = core.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*\*\/?/g, "\uE000").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]").replace(/\uE000/g, "(?:.*/)?");
    const regex = new RegExp(`${anchored ? "^" : "(?:^|/)"}${glob}${directory ? "/" : "(?:/|$)"}`, "i");
    return { negated, regex };
  });
  return (target) => {
    const relative = siteDir === "." ? target : path.posix.relative(siteDir, target);
    let result = false;
    for (const rule of rules) if (rule.regex.test(relative)) result = !rule.negated;
    return result;
  };
}

/** The toc extension's slugify as mkdocs.yml names it (Material sites often use pymdownx.slugs). */
function mkdocsSlugify(config: string): SlugOptions["mkdocsSlugify"] {
  // Only the toc extension's own block counts (pymdownx.tabbed has a slugify of its own).
  const toc = /^([ \t]*)-?[ \t]*toc:[ \t]*\n((?:\1[ \t]+\S.*\n|[ \t]*\n)*)/m.exec(config.endsWith("\n") ? config : `${config}\n`)?.[2] ?? "";
  const named = /slugify:\s*!!python\/(?:object\/apply|name):pymdownx\.slugs\.(\w+)/.exec(toc);
  if (!named) return "python-markdown";
  return /case:\s*['"]?lower\b/.test(toc) || named[1] === "uslugify" ? "pymdownx-lower" : "pymdownx";
}

/**
 * pymdownx.tabbed's tab ids: with a `slugify` in its options, each tab's id is its title slugged
 * (pymdownx.slugs.slugify, `case: lower` or not), after the heading's id when `combine_header_slug`
 * is on, joined by `separator` (default `-`); without one the ids are `__tabbed_<set>_<tab>`, which
 * no link names. Read from the extension's own block of mkdocs.yml.
 */
function mkdocsTabs(config: string): { mkdocsTabs?: SlugOptions["mkdocsTabs"] } {
  const block = /^([ \t]*)-?[ \t]*pymdownx\.tabbed:[ \t]*\n((?:\1[ \t]+\S.*\n|[ \t]*\n)*)/m.exec(config.endsWith("\n") ? config : `${config}\n`)?.[2] ?? "";
  const named = /slugify:\s*!!python\/(?:object\/apply|name):pymdownx\.slugs\.(\w+)/.exec(block);
  if (!named) return {};
  const separator = /^\s*separator:\s*['"]?([^'"\n]*?)['"]?\s*$/m.exec(block)?.[1] ?? "-";
  return { mkdocsTabs: { lower: /case:\s*['"]?lower\b/.test(block) || named[1] === "uslugify", combineHeaderSlug: /combine_header_slug:\s*true\b/i.test(block), separator } };
}

/** pymdownx.snippets' base_path (default `.`, the folder mkdocs runs in), and the docs folder beside it. */
function mkdocsSnippetBases(config: string, project: DocsProject): string[] {
  const configDir = path.posix.dirname(project.configFile ?? "mkdocs.yml");
  const bases = new Set<string>([configDir, project.docsDir]);
  const setting = /base_path:\s*(\[[^\]]*\]|[^\n#]+)/.exec(config)?.[1];
  if (setting) {
    try {
      const parsed = parseYaml(setting, { logLevel: "silent", customTags: [] }) as unknown;
      // MkDocs' `!relative $config_dir` and `!relative $docs_dir` (mkdocs/utils/yaml.py RelativeDirPlaceholder) read as their text here.
      const placeholders: Record<string, string> = { $config_dir: configDir, $docs_dir: project.docsDir };
      for (const base of Array.isArray(parsed) ? parsed : [parsed]) if (typeof base === "string") bases.add(placeholders[base.trim()] ?? path.posix.normalize(path.posix.join(configDir, base)));
    } catch {
      // An unreadable setting leaves the defaults.
    }
  }
  return [...bases];
}

/** Folders served at the site's root besides the pages: VitePress's public/, MkDocs' theme custom_dir. */
function rootFolders(repoRoot: string, project: DocsProject, config: string): string[] {
  if (project.framework === "vitepress") return [path.posix.join(project.docsDir, "public")];
  if (project.framework === "docusaurus" && project.configFile) return [path.posix.join(path.posix.dirname(project.configFile), "static")];
  if (project.framework === "mkdocs") {
    const customDir = /^\s+custom_dir:\s*['"]?([^'"\n#]+?)['"]?\s*$/m.exec(config)?.[1];
    const configDir = path.posix.dirname(project.configFile ?? "mkdocs.yml");
    return customDir && existsSync(path.join(repoRoot, configDir, customDir)) ? [path.posix.normalize(path.posix.join(configDir, customDir))] : [];
  }
  return [];
}

/** The URL path VitePress serves a page at: through `rewrites`, from the site's folder, an index page as its folder's path. */
export function vitepressUrl(model: SiteModel, file: string): string {
  return `/${model.rewrite?.toUrl(file) ?? path.posix.relative(model.siteDir, file).replace(/\.mdx?$/, "")}`.replace(/\/index$/, "/");
}

/** The `base:`s a VitePress config file declares: a sidebar group's base joins its items' `link`s (`'/reference/default-theme-'` + `'badge'`). */
export const vitepressBases = (configText: string): string[] => [...configText.matchAll(/\bbase\s*:\s*['"`]([^'"`]*)['"`]/g)].map((match) => match[1] as string);

/**
 * VitePress `rewrites` (a literal object of `'from': 'to'` path patterns in the config; `:param`
 * and `:param*` as in its docs), as functions both ways between page files and URL paths.
 */
function vitepressRewrites(repoRoot: string, config: string, srcDir: string): SiteModel["rewrite"] {
  const block = /\brewrites\s*:\s*\{([^}]*)\}/.exec(config)?.[1];
  if (!block) return null;
  const pairs = [...block.matchAll(/['"`]([^'"`]+)['"`]\s*:\s*['"`]([^'"`]*)['"`]/g)].map((match) => [match[1] as string, match[2] as string] as const);
  if (pairs.length === 0) return null;
  const compile = (pattern: string) => {
    const names: string[] = [];
    const source = pattern.replace(/\.md$/, "").split("/").map((segment) => {
      const param = /^:(\w+)(\*)?$/.exec(segment);
      if (!param) return escapeRegExp(segment);
      names.push(param[1] as string);
      return param[2] ? "(.*)" : "([^/]+)";
    }).join("/");
    return { regex: new RegExp(`^${source}$`), names };
  };
  const fill = (pattern: string, values: Map<string, string>) => pattern.replace(/\.md$/, "").replace(/:(\w+)\*?/g, (_, name: string) => values.get(name) ?? "").replace(/^\/+|\/+$/g, "");
  const apply = (value: string, fromPattern: string, toPattern: string) => {
    const { regex, names } = compile(fromPattern);
    const match = regex.exec(value);
    if (!match) return null;
    return fill(toPattern, new Map(names.map((name, index) => [name, match[index + 1] ?? ""])));
  };
  const relative = (file: string) => (srcDir === "." ? file : path.posix.relative(srcDir, file)).replace(/\.md$/, "");
  return {
    toUrl(file) {
      const page = relative(file);
      for (const [from, to] of pairs) {
        const rewritten = apply(page, from, to);
        if (rewritten !== null) return rewritten;
      }
      return page;
    },
    toFile(url) {
      const clean = url.replace(/^\/+|\/+$/g, "");
      for (const [from, to] of pairs) {
        const original = apply(clean, to, from);
        if (original !== null && existsSync(path.join(repoRoot, srcDir, `${original}.md`))) return path.posix.join(srcDir, `${original}.md`);
      }
      return null;
    },
  };
}

/** Whether a repository-relative path is an existing directory. */
function isDirectory(repoRoot: string, file: string): boolean {
  try {
    return statSync(path.join(repoRoot, file)).isDirectory();
  } catch {
    return false;
  }
}

/** Whether a directory holds any file (a link to it resolves in Mintlify). */
export const hasFiles = (repoRoot: string, dir: string) => isDirectory(repoRoot, dir) && readdirSync(path.join(repoRoot, dir)).length > 0;
