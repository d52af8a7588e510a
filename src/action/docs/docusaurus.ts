import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { decodeJsString } from "./js-text.js";
import { installedVersion } from "./installed-version.js";
import { escapeRegExp } from "../../shared/regexp.js";

/**
 * Docusaurus' own rules, read from its code (facebook/docusaurus 3.10.2 as published on npm; the
 * files named below are in each package's src/): which doc an id names, which docs a sidebar
 * lists, how pages are compiled. Nothing here runs the site's code: its config and JS sidebars are
 * read as text, the way their literals are written.
 */

// ---------------------------------------------------------------------------------------------
// The site's config, read as text

/** Where a JavaScript string literal or comment starts, so scans skip over them. */
const QUOTES = new Set(["'", '"', "`"]);

/** The index just past the string literal or comment starting at `i`, or `i` when none starts there. */
export function skipLiteral(text: string, i: number): number {
  const character = text[i] as string;
  if (QUOTES.has(character)) {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === "\\") j++;
      else if (text[j] === character) return j + 1;
    }
    return text.length;
  }
  if (character === "/" && text[i + 1] === "/") {
    const end = text.indexOf("\n", i);
    return end === -1 ? text.length : end;
  }
  if (character === "/" && text[i + 1] === "*") {
    const end = text.indexOf("*/", i + 2);
    return end === -1 ? text.length : end + 2;
  }
  return i;
}

/**
 * The text with its comments blanked (newlines kept, string literals untouched): what the config
 * says, not what was commented out of it (`// path: 'v10',` in a version's options is no path).
 */
export function withoutJsComments(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const end = skipLiteral(text, i);
    if (end === i) continue;
    if (text[i] === "/") out += `${text.slice(from, i)}${text.slice(i, end).replace(/[^\n]/g, " ")}`;
    else out += text.slice(from, end);
    from = end;
    i = end - 1;
  }
  return out + text.slice(from);
}

/** The body of the object literal whose `{` is at `open`, braces excluded; strings and comments inside do not count; null when it is not closed. */
export function objectBody(text: string, open: number): string | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const skipped = skipLiteral(text, i);
    if (skipped !== i) {
      i = skipped - 1;
      continue;
    }
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return text.slice(open + 1, i);
  }
  return null;
}

/** The string a key of the object's own level is set to (`id: 'community'`), not a nested object's. */
export function ownString(body: string, key: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const skipped = skipLiteral(body, i);
    if (skipped !== i) {
      i = skipped - 1;
      continue;
    }
    const character = body[i] as string;
    if (character === "{" || character === "[" || character === "(") depth++;
    else if (character === "}" || character === "]" || character === ")") depth--;
    else if (depth === 0 && !/[\w$.]/.test(body[i - 1] ?? " ")) {
      const match = new RegExp(`^['"]?${key}['"]?\\s*:\\s*(['"\`])`).exec(body.slice(i, i + key.length + 40));
      if (match) {
        const start = i + match[0].length - 1;
        const end = skipLiteral(body, start);
        const literal = body.slice(start + 1, end - 1);
        return match[1] === "`" && literal.includes("${") ? undefined : decodeJsString(literal);
      }
    }
  }
  return undefined;
}

/**
 * The bodies of the object literals written as the value of `key` (`key: { … }`, the key bare or
 * quoted), braces excluded; strings and comments inside do not count as braces.
 */
export function objectLiterals(text: string, key: string): string[] {
  const bodies: string[] = [];
  for (const start of text.matchAll(new RegExp(`(?:^|[^\\w$.])['"]?${key}['"]?\\s*:\\s*\\{`, "g"))) {
    const body = objectBody(text, (start.index ?? 0) + start[0].length - 1);
    if (body !== null) bodies.push(body);
  }
  return bodies;
}

/** The body of the first object literal written as the value of `key`; null when there is none. */
export const objectLiteral = (text: string, key: string): string | null => objectLiterals(text, key)[0] ?? null;

/** How the site compiles its Markdown: `markdown.format` and `markdown.mdx1Compat.comments`. */
export interface DocusaurusMarkdown {
  /** `mdx` (the default): every page is MDX; `md`: every page CommonMark; `detect`: by extension. */
  format: "mdx" | "md" | "detect";
  /** HTML comments are comments in MDX (@slorber/remark-comment), not a syntax error. */
  mdxComments: boolean;
}

/**
 * The config's markdown settings. Defaults (@docusaurus/core lib/server/configValidation.js):
 * `format: 'mdx'`; each `mdx1Compat` flag true unless the site opts into `future: { v4: true }`
 * (or `v4: { mdx1CompatDisabledByDefault: true }`), and what the site sets itself wins. The flag
 * came with Docusaurus 3.10 (3.9.2's configValidation.js has no mdx1CompatDisabledByDefault, and
 * its `v4: true` leaves mdx1Compat on), so `installed` (major, minor of @docusaurus/core, when
 * known) below 3.10 keeps the comments.
 */
export function docusaurusMarkdown(config: string, installed?: [number, number]): DocusaurusMarkdown {
  const markdown = objectLiteral(config, "markdown") ?? "";
  const format = /(?:^|[^\w$.])format\s*:\s*['"`](mdx|md|detect)['"`]/.exec(markdown)?.[1] as DocusaurusMarkdown["format"] | undefined;
  const compat = objectLiteral(markdown, "mdx1Compat") ?? "";
  const comments = /(?:^|[^\w$.])comments\s*:\s*(true|false)\b/.exec(compat)?.[1];
  const future = objectLiteral(config, "future") ?? "";
  const knowsFlag = !installed || installed[0] > 3 || (installed[0] === 3 && installed[1] >= 10);
  const v4 = knowsFlag && (/(?:^|[^\w$.])v4\s*:\s*true\b/.test(future) || /mdx1CompatDisabledByDefault\s*:\s*true\b/.test(objectLiteral(future, "v4") ?? ""));
  return { format: format ?? "mdx", mdxComments: comments === undefined ? !v4 : comments === "true" };
}

/**
 * A page's own format (`format:` in its frontmatter) over the site's; `detect` reads .md as
 * CommonMark and anything else as MDX (@docusaurus/mdx-loader src/format.ts getFormat).
 */
export function docusaurusPageFormat(file: string, siteFormat: DocusaurusMarkdown["format"], frontFormat: unknown): "mdx" | "md" {
  const format = frontFormat === "md" || frontFormat === "mdx" || frontFormat === "detect" ? frontFormat : siteFormat;
  if (format !== "detect") return format;
  return /\.(md|markdown|mdown|mkdn|mkd|mdwn|mkdown|ron)$/.test(file) ? "md" : "mdx";
}

/**
 * ```mdx-code-block fences (three or four backticks) are unwrapped before MDX reads the page
 * (@docusaurus/utils src/markdownUtils.ts unwrapMdxCodeBlocks); here the fence lines are blanked
 * instead of removed, so every line keeps its number.
 */
export function unwrapMdxCodeBlocks(text: string): string {
  const blank = (fence: string) =>
    new RegExp(`(^|\\r?\\n)(\\x20*${fence}\\x20*mdx-code-block)(\\r?\\n.*?\\r?\\n)(\\x20*${fence})(?=\\r?\\n|$)`, "gs");
  const replace = (_all: string, begin: string, open: string, children: string, close: string) => `${begin}${" ".repeat(open.length)}${children}${" ".repeat(close.length)}`;
  return text.replaceAll(blank("```"), replace).replaceAll(blank("````"), replace);
}

// ---------------------------------------------------------------------------------------------
// Doc ids

/** Versions and dates are not number prefixes (`7.0-foo`, `2021-11-foo`): numberPrefix.ts ignoredPrefixPattern. */
const IGNORED_PREFIX = /^\d+[-_.]\d+/;
const NUMBER_PREFIX = /^\d+\s*[-_.]+\s*([^-_.\s].*)$/;

/** A file or folder name without its number prefix (`01-intro` is `intro`): numberPrefix.ts DefaultNumberPrefixParser. */
export function stripNumberPrefix(name: string): string {
  if (IGNORED_PREFIX.test(name)) return name;
  return NUMBER_PREFIX.exec(name)?.[1] ?? name;
}

/** Each segment of a path without its number prefix (numberPrefix.ts stripPathNumberPrefixes). */
export const stripPathNumberPrefixes = (dir: string) => dir.split("/").map(stripNumberPrefix).join("/");

/**
 * A doc's id from its path in its content folder and its frontmatter (plugin-content-docs src/docs.ts
 * doProcessDocMetadata): the folder, number prefixes dropped, then the frontmatter `id` or the file
 * name without its number prefix; `parse_number_prefixes: false` keeps the prefixes.
 */
export function docusaurusDocId(relative: string, front: Record<string, unknown>, numberPrefixes = true): string {
  const parse = numberPrefixes && front.parse_number_prefixes !== false;
  const dir = path.posix.dirname(relative);
  const name = path.posix.basename(relative, path.posix.extname(relative));
  const base = typeof front.id === "string" ? front.id : parse ? stripNumberPrefix(name) : name;
  return [dir === "." ? "" : parse ? stripPathNumberPrefixes(dir) : dir, base].filter(Boolean).join("/");
}

/** Whether a doc is its folder's index: named index or README, or like its folder (docs.ts isCategoryIndex, on the names as written). */
export function isCategoryIndex(relative: string): boolean {
  const name = path.posix.basename(relative, path.posix.extname(relative)).toLowerCase();
  const folder = path.posix.basename(path.posix.dirname(relative)).toLowerCase();
  return name === "index" || name === "readme" || (path.posix.dirname(relative) !== "." && name === folder);
}

// ---------------------------------------------------------------------------------------------
// Sidebars

/** What a sidebars file lists: doc ids, and the folders whose docs autogenerated items list. */
export interface SidebarListing {
  /** Doc ids the sidebars name (items, `{type: 'doc' | 'ref', id}`, a category's `link: {type: 'doc', id}`). */
  ids: Set<string>;
  /** `{type: 'autogenerated', dirName}` items: every doc in that folder (as written, prefixes kept) or below it. */
  autogenerated: string[];
  /**
   * Read from JS or TS as text: every string literal counts as an id it may name (the file is code;
   * labels and hrefs are literals too). Code that builds ids (template substitutions, string
   * concatenation, reading folders) or imports a local module the repository does not have makes
   * the listing unknown (readSidebars gives null).
   */
  fromCode: boolean;
  /**
   * Categories whose link is a generated index (`link: {type: 'generated-index', slug?}`), in the
   * order written: each is a page of its version at its `slug`, else `/category/<label slugged>`.
   */
  generatedIndexes?: { label: string; slug?: string }[];
}

/**
 * Reads a sidebars file (sidebars.json, or sidebars.js/ts read as text with the local modules it
 * imports) as Docusaurus normalizes it (src/sidebars/normalization.ts: a string item is a doc id, an
 * object without `type` is a shorthand of categories; processor.ts/generator.ts: autogenerated
 * items list their folder's docs). null when what it lists cannot be known without running it.
 */
export function readSidebars(repoRoot: string, file: string, siteDir: string): SidebarListing | null {
  const full = path.join(repoRoot, file);
  if (!existsSync(full)) return null;
  const text = readFileSync(full, "utf8");
  if (file.endsWith(".json") || file.endsWith(".yml") || file.endsWith(".yaml")) {
    const listing: SidebarListing = { ids: new Set(), autogenerated: [], fromCode: false, generatedIndexes: [] };
    const config = file.endsWith(".json") ? (JSON.parse(text) as unknown) : (parseYaml(text) as unknown);
    if (config && typeof config === "object") for (const sidebar of Object.values(config)) collectSidebar(sidebar, listing);
    return listing;
  }
  return readCodeSidebars(repoRoot, file, siteDir);
}

/** One sidebar (an array of items, or a shorthand object of categories) into the listing. */
function collectSidebar(sidebar: unknown, into: SidebarListing): void {
  if (Array.isArray(sidebar)) for (const item of sidebar) collectItem(item, into);
  else if (sidebar && typeof sidebar === "object") for (const items of Object.values(sidebar)) collectSidebar(items, into);
}

function collectItem(item: unknown, into: SidebarListing): void {
  if (typeof item === "string") {
    into.ids.add(item);
    return;
  }
  if (!item || typeof item !== "object") return;
  const entry = item as { type?: unknown; id?: unknown; dirName?: unknown; items?: unknown; label?: unknown; link?: { type?: unknown; id?: unknown; slug?: unknown } };
  if (entry.type === undefined) {
    // A shorthand: { "Category label": [items] }.
    collectSidebar(item, into);
    return;
  }
  if ((entry.type === "doc" || entry.type === "ref") && typeof entry.id === "string") into.ids.add(entry.id);
  if (entry.type === "autogenerated") into.autogenerated.push(typeof entry.dirName === "string" ? entry.dirName : ".");
  if (entry.type === "category") {
    if (entry.link?.type === "doc" && typeof entry.link.id === "string") into.ids.add(entry.link.id);
    if (entry.link?.type === "generated-index" && typeof entry.label === "string") into.generatedIndexes?.push({ label: entry.label, ...(typeof entry.link.slug === "string" ? { slug: entry.link.slug } : {}) });
    collectSidebar(entry.items, into);
  }
}

/** Code that makes ids the text does not show: template substitutions, concatenated strings, folders read, an item's `id:` set to an expression (`id: rule.name`). */
const BUILDS_IDS = /\$\{|\uE000\d+\uE000\s*\+|\+\s*\uE000\d+\uE000|readdirSync|readdir\(|globSync|glob\(|\bid\s*:\s*(?!\uE000)[A-Za-z_$(]/;

/** JS/TS sidebars, as text: the string literals of the file and of the local modules it imports. */
function readCodeSidebars(repoRoot: string, file: string, siteDir: string): SidebarListing | null {
  const listing: SidebarListing = { ids: new Set(), autogenerated: [], fromCode: true, generatedIndexes: [] };
  const seen = new Set<string>();
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    if (seen.has(current)) continue;
    seen.add(current);
    const text = readFileSync(path.join(repoRoot, current), "utf8");
    if (current.endsWith(".json")) {
      try {
        const sidebar: unknown = JSON.parse(text);
        collectSidebar(sidebar, listing);
        collectStrings(sidebar, listing.ids);
      } catch {
        return null;
      }
      continue;
    }
    const { strings, code } = literalsOf(text);
    if (BUILDS_IDS.test(code)) return null;
    for (const value of strings) listing.ids.add(value);
    for (const type of code.matchAll(/\btype\s*:\s*\uE000(\d+)\uE000/g)) {
      if (strings[Number(type[1])] !== "autogenerated") continue;
      // The object the item is: its own level of braces around `type`, nested objects left out.
      const body = ownLevel(code, type.index ?? 0);
      const dirName = /\bdirName\s*:\s*\uE000(\d+)\uE000/.exec(body)?.[1];
      listing.autogenerated.push(dirName === undefined ? "." : (strings[Number(dirName)] as string));
    }
    for (const type of code.matchAll(/\btype\s*:\s*\uE000(\d+)\uE000/g)) {
      if (strings[Number(type[1])] !== "generated-index") continue;
      // The link object's own slug; the label is its category's, the object around `link: {…}`.
      const slug = /\bslug\s*:\s*\uE000(\d+)\uE000/.exec(ownLevel(code, type.index ?? 0))?.[1];
      const label = /\blabel\s*:\s*\uE000(\d+)\uE000/.exec(ownLevel(code, openingBrace(code, type.index ?? 0)))?.[1];
      if (label !== undefined) listing.generatedIndexes?.push({ label: strings[Number(label)] as string, ...(slug === undefined ? {} : { slug: strings[Number(slug)] as string }) });
    }
    for (const specifier of localModules(code, strings)) {
      const resolved = resolveModule(repoRoot, current, specifier, siteDir);
      // A module the repository does not have (made at build time) may list anything.
      if (!resolved) return null;
      queue.push(resolved);
    }
  }
  return listing;
}

/** The index of the `{` that opens the object literal around `index`; -1 when there is none. */
function openingBrace(code: string, index: number): number {
  for (let i = index - 1, depth = 0; i >= 0; i--) {
    if (code[i] === "}") depth++;
    else if (code[i] === "{" && depth-- === 0) return i;
  }
  return -1;
}

/** The text of the object literal around `index` at its own level: what nested braces hold is left out. */
function ownLevel(code: string, index: number): string {
  const start = openingBrace(code, index) + 1;
  let own = "";
  for (let i = start, depth = 0; i < code.length; i++) {
    if (code[i] === "{") depth++;
    else if (code[i] === "}" && depth-- === 0) break;
    else if (depth === 0) own += code[i];
  }
  return own;
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) value.forEach((item) => collectStrings(item, into));
  else if (value && typeof value === "object") Object.values(value).forEach((item) => collectStrings(item, into));
}

/**
 * A module's string literals, and its code with each literal replaced by a numbered placeholder
 * (`\uE000<n>\uE000`, a private-use character) and comments removed, so what the code does with
 * them can be read without being fooled by the text inside them. A template literal with a
 * substitution stays in the code, `${` and all.
 */
function literalsOf(text: string): { strings: string[]; code: string } {
  const strings: string[] = [];
  let code = "";
  for (let i = 0; i < text.length; i++) {
    const end = skipLiteral(text, i);
    if (end === i) {
      code += text[i];
      continue;
    }
    const literal = text.slice(i, end);
    i = end - 1;
    if (literal.startsWith("//") || literal.startsWith("/*")) continue;
    if (literal.startsWith("`") && literal.includes("${")) {
      code += literal;
      continue;
    }
    const value = decodeJsString(literal.slice(1, -1));
    code += `\uE000${strings.length}\uE000`;
    strings.push(value);
  }
  return { strings, code };
}

/** The local modules a module imports or requires (`./x`, `../x`, `@site/x`). */
function localModules(code: string, strings: string[]): string[] {
  const specifiers: string[] = [];
  for (const match of code.matchAll(/(?:\brequire(?:\.resolve)?\s*\(|\bimport\s*\(|\bfrom|\bimport)\s*\uE000(\d+)\uE000/g)) {
    const specifier = strings[Number(match[1])] ?? "";
    if (/^(\.{1,2}\/|@site\/)/.test(specifier)) specifiers.push(specifier);
  }
  return specifiers;
}

function resolveModule(repoRoot: string, from: string, specifier: string, siteDir: string): string | null {
  const base = specifier.startsWith("@site/") ? path.posix.join(siteDir, specifier.slice("@site/".length)) : path.posix.join(path.posix.dirname(from), specifier);
  const candidates = [base, ...[".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".json"].map((ext) => `${base}${ext}`), ...["js", "ts", "json"].map((ext) => `${base}/index.${ext}`)];
  return candidates.find((candidate) => {
    try {
      return statSync(path.join(repoRoot, candidate)).isFile();
    } catch {
      return false;
    }
  }) ?? null;
}

/**
 * Whether a sidebar listing lists a doc: by its id, or by an autogenerated item over its folder
 * (generator.ts getAutogenDocs: the doc's folder as written is dirName, or below it; `.` is all).
 */
export function sidebarLists(listing: SidebarListing, id: string, relative: string): boolean {
  if (listing.ids.has(id)) return true;
  const dir = path.posix.dirname(relative);
  return listing.autogenerated.some((dirName) => {
    const folder = dirName.replace(/^\.\/+/, "").replace(/\/+$/, "") || ".";
    return folder === "." || dir === folder || dir.startsWith(`${folder}/`);
  });
}

// ---------------------------------------------------------------------------------------------
// The docs plugin's options

/** The classic preset's `docs: { … }` options as text (with themeConfig's `docs: { sidebar }`, which names none of theirs); empty when there are none. */
export const docsOptions = (config: string): string => objectLiterals(withoutJsComments(config), "docs").join("\n");

/**
 * The sidebars file the docs options name (`sidebarPath: './sidebars.js'`, `require.resolve(…)`,
 * `path.resolve(__dirname, …)`), site-relative; false for `sidebarPath: false` (no sidebars);
 * undefined when the options do not say.
 */
export const docusaurusSidebarPath = (config: string): string | false | undefined => sidebarPathIn(docsOptions(config));

/** The sidebars file one instance's options name (docusaurusSidebarPath). */
export function sidebarPathIn(options: string): string | false | undefined {
  const written = /(?:^|[^\w$.])sidebarPath\s*:\s*(?:(false)\b|(?:require\.resolve|path\.(?:resolve|join))\(\s*(?:__dirname\s*,\s*)?['"`]([^'"`]+)['"`]\s*\)|['"`]([^'"`]+)['"`])/.exec(options);
  if (!written) return undefined;
  if (written[1]) return false;
  return path.posix.normalize((written[2] ?? written[3]) as string);
}

/** Whether the docs options turn number prefixes off (`numberPrefixParser: false`). */
export const numberPrefixesOff = (config: string) => /(?:^|[^\w$.])numberPrefixParser\s*:\s*false\b/.test(docsOptions(config));

/** One instance of the docs plugin, as the config writes it. */
export interface DocsPluginOptions {
  /** Its `id` (`default` when none is written). */
  id: string;
  /** Its options' text, comments blanked. */
  options: string;
  /** Whether it is the classic preset's `docs` (else a `@docusaurus/plugin-content-docs` in `plugins`). */
  preset: boolean;
}

/**
 * Every instance of the docs plugin the config declares (docusaurus.io "Docs Multi-instance": the
 * classic preset's `docs`, unless `docs: false`, and each `['@docusaurus/plugin-content-docs', {…}]`
 * in `plugins`, its options written in place or as a constant of the config); a plugin without an
 * `id` is `default`. Read as text: options built by code the config does not write are not seen.
 */
export function docsPluginInstances(configText: string): DocsPluginOptions[] {
  const config = withoutJsComments(configText);
  const instances: DocsPluginOptions[] = [];
  const presetOptions = docsOptions(config);
  const hasPreset = /['"`](?:classic|@docusaurus\/preset-classic)['"`]/.test(config);
  if (!/(?:^|[^\w$.])docs\s*:\s*false\b/.test(config) && (presetOptions || hasPreset)) instances.push({ id: ownString(presetOptions, "id") ?? "default", options: presetOptions, preset: true });
  for (const plugin of config.matchAll(/\[\s*(?:require(?:\.resolve)?\(\s*)?(['"`])@docusaurus\/plugin-content-docs\1\s*\)?\s*(,\s*(?:\{|[A-Za-z_$][\w$]*))?/g)) {
    let options = "";
    const value = plugin[2]?.replace(/^,\s*/, "");
    if (value === "{") options = objectBody(config, (plugin.index ?? 0) + plugin[0].length - 1) ?? "";
    else if (value) {
      // Options kept in a constant: `const docsOptions: Options = { … }`.
      const declared = new RegExp(`\\b(?:const|let|var)\\s+${escapeRegExp(value)}\\b[^=]*=\\s*\\{`).exec(config);
      if (declared) options = objectBody(config, (declared.index ?? 0) + declared[0].length - 1) ?? "";
    }
    instances.push({ id: ownString(options, "id") ?? "default", options, preset: false });
  }
  return instances;
}

// ---------------------------------------------------------------------------------------------
// Versions

/** One version of the docs as plugin-content-docs makes it. */
export interface DocusaurusVersion {
  /** `current`, or a name from versions.json. */
  name: string;
  /** Repository-relative folder of its docs: the docs path for `current`, else `versioned_docs/version-<name>`. */
  contentDir: string;
  /** Its sidebars file, repository-relative: sidebarPath for `current`, else `versioned_sidebars/version-<name>-sidebars.json`. */
  sidebars: string | undefined;
  /** Where it is served under routeBasePath, without slashes around it ('' for the last version). */
  path: string;
}

/** A string option of the docs options at any level (`lastVersion: '2.x'`), read from the literal. */
const stringOption = (options: string, key: string) => new RegExp(`(?:^|[^\\w$.])${key}\\s*:\\s*['"\`]([^'"\`]*)['"\`]`).exec(options)?.[1];

/**
 * The docs' versions, as plugin-content-docs reads them (facebook/docusaurus
 * packages/docusaurus-plugin-content-docs/src/versions/files.ts readVersionNames and
 * getVersionMetadataPaths at 0559a6b6; version.ts getVersionPathPart and getLastVersionName at
 * 243aff6c): `current` first unless `includeCurrentVersion: false`, then versions.json's names
 * (none with `disableVersioning: true`), kept to `onlyIncludeVersions` when it is written; the last
 * version is `lastVersion`, else the first name of versions.json, else `current`. A version's path
 * is its `versions: { <name>: { path } }`, else '' for the last version, `next` for `current`, and
 * its own name for the others (`2.x` is served at `/docs/2.x/`).
 */
export function docusaurusVersions(repoRoot: string, siteDir: string, docsDir: string, config: string, sidebars: string | undefined, instance?: { id: string; options: string }): DocusaurusVersion[] {
  const options = instance ? instance.options : docsOptions(withoutJsComments(config));
  // Another instance than `default` keeps its versions in `<id>_versions.json`, `<id>_versioned_docs`
  // and `<id>_versioned_sidebars` (plugin-content-docs versions/files.ts getVersionDocsDirPath et al.).
  const prefix = instance && instance.id !== "default" ? `${instance.id}_` : "";
  let listed: string[] = [];
  if (!/(?:^|[^\w$.])disableVersioning\s*:\s*true\b/.test(options)) {
    try {
      const parsed = JSON.parse(readFileSync(path.join(repoRoot, siteDir, `${prefix}versions.json`), "utf8")) as unknown;
      if (Array.isArray(parsed)) listed = parsed.filter((name): name is string => typeof name === "string");
    } catch {
      // No versions.json (or not a list): the site has only its current version.
    }
  }
  let names = [...(/(?:^|[^\w$.])includeCurrentVersion\s*:\s*false\b/.test(options) || listed.includes("current") ? [] : ["current"]), ...listed];
  const only = /(?:^|[^\w$.])onlyIncludeVersions\s*:\s*\[([^\]]*)\]/.exec(options)?.[1];
  if (only !== undefined) {
    const kept = new Set([...only.matchAll(/['"`]([^'"`]+)['"`]/g)].map((match) => match[1] as string));
    names = names.filter((name) => kept.has(name));
  }
  const last = stringOption(options, "lastVersion") ?? names.find((name) => name !== "current") ?? "current";
  const versions = objectLiteral(options, "versions") ?? "";
  return names.map((name) => {
    const own = objectLiteral(versions, escapeRegExp(name)) ?? "";
    const written = stringOption(own, "path");
    const versionPath = written ?? (name === last ? "" : name === "current" ? "next" : name);
    return {
      name,
      contentDir: name === "current" ? docsDir : path.posix.join(siteDir, `${prefix}versioned_docs`, `version-${name}`),
      sidebars: name === "current" ? sidebars : path.posix.join(siteDir, `${prefix}versioned_sidebars`, `version-${name}-sidebars.json`),
      path: versionPath.replace(/^\/+|\/+$/g, ""),
    };
  });
}

/** The @docusaurus/core a site builds with (major, minor): installed-version.ts, null when nothing says. */
export const installedDocusaurusVersion = (repoRoot: string, siteDir: string): [number, number] | null => installedVersion(repoRoot, siteDir, "@docusaurus/core");
