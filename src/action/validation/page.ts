import { createProcessor } from "@mdx-js/mdx";
import remarkComment from "@slorber/remark-comment";
import { load as loadJsYaml, YAMLException } from "js-yaml";
import type { Nodes, Root } from "mdast";
import { toString } from "mdast-util-to-string";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { headingSlugger, mintlifyCleanId, mintlifyComponentId, mintlifyParamId, mintlifySlug, pymdownxSlug, type HeadingSlugger, type SlugOptions } from "../docs/anchors.js";
import { docusaurusPageFormat, unwrapMdxCodeBlocks } from "../docs/docusaurus.js";
import type { Framework } from "../docs/framework.js";
import { frontmatterOf } from "../docs/frontmatter.js";
import { decodeJsString, JS_STRING } from "../docs/js-text.js";
import { escapeRegExp } from "../../shared/regexp.js";

export interface PageLink {
  url: string;
  line: number;
  /**
   * Images and other assets must exist as files; pages may omit their extension; an import (MDX) or
   * include (MkDocs `--8<--`, VitePress `<!--@include:-->`) names a file that must exist, whose
   * headings are the page's.
   */
  kind: "page" | "asset" | "import" | "include";
  /** Written in raw HTML: the browser resolves it from the page's URL, not the framework from its file (MkDocs). */
  raw?: true;
}

export interface PageAnalysis {
  problems: string[];
  links: PageLink[];
  /** Anchor ids of the page's headings (and explicit ids). */
  anchors: Set<string>;
  /** Part of the page is made at build time (mkdocstrings `:::`, macros): its anchors are not all known. */
  generated: boolean;
  /** MkDocs: the words of the page's HTML comments, from which a site's hooks may make ids. */
  commentWords?: Set<string>;
}

/** The text with fenced code blocks' lines blanked (``` and ~~~ fences). */
function withoutFencedCode(text: string): string {
  let fence: string | null = null;
  return text.split("\n").map((line) => {
    const opening = /^[ \t]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && opening) {
      fence = opening;
      return "";
    }
    if (fence !== null) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening) fence = null;
      return "";
    }
    return line;
  }).join("\n");
}

/** A heading's explicit id: `{#id}` (Docusaurus, VitePress, Mintlify) or an attr_list `{: #id .class }` / `{ id="id" }` (MkDocs). */
const HEADING_ID = headingIdPattern("{", "}");

/**
 * The explicit-id pattern for attribute delimiters: VitePress' `markdown.attrs` may set its own
 * (markdown-it-attrs `leftDelimiter`/`rightDelimiter`: `### Title %{#id}%`). Group 1 is the heading
 * without its attributes, group 2 the id.
 */
function headingIdPattern(left: string, right: string): RegExp {
  const [open, close, stop] = [escapeRegExp(left), escapeRegExp(right), classEscape(right[0] ?? "}")];
  return new RegExp(`^(#{1,6}\\s.*?)\\s*${open}:?\\s*(?:[^${stop}\\n]*?\\s)?(?:#|id=["']?)([^\\s${stop}"']+)["']?[^${stop}\\n]*${close}\\s*$`);
}

/** A character as written inside a RegExp character class. */
function classEscape(character: string): string {
  return character.replace(/[\\\]^-]/g, "\\$&");
}

/** Whether a page is compiled as MDX: always for .mdx, and for .md where the framework does (Mintlify, Docusaurus v3). */
export function isMdx(file: string, framework: Framework, mdIsMdx = true): boolean {
  return file.endsWith(".mdx") || (file.endsWith(".md") && mdIsMdx && (framework === "mintlify" || framework === "docusaurus"));
}

const processors = new Map<string, ReturnType<typeof createProcessor>>();
/** The page's compiler: MDX or Markdown; MDX with HTML comments taken as comments (Docusaurus' mdx1Compat.comments, by its own plugin). */
function processorFor(mdx: boolean, comments: boolean) {
  const key = mdx ? (comments ? "mdx+comments" : "mdx") : "md";
  let processor = processors.get(key);
  if (!processor) {
    processor = createProcessor({ format: mdx ? "mdx" : "md", remarkPlugins: [...(mdx && comments ? [remarkComment] : []), remarkFrontmatter, remarkGfm] });
    processors.set(key, processor);
  }
  return processor;
}

/**
 * Whether a page is compiled as MDX. Docusaurus: by its `markdown.format` (`mdx` unless the site
 * says `md` or `detect`), a page's frontmatter `format` first; elsewhere as isMdx has it.
 */
function compiledAsMdx(file: string, text: string, framework: Framework, rules: PageRules): boolean {
  if (framework !== "docusaurus") return isMdx(file, framework, rules.mdIsMdx ?? true);
  const siteFormat = rules.format ?? (rules.mdIsMdx === false ? "detect" : "mdx");
  return docusaurusPageFormat(file, siteFormat, frontmatterOf(text).format) === "mdx";
}

/**
 * Parses and compiles one page the way its framework would, and checks its frontmatter. Returns
 * problems as `file:line: message`, and the page's links and anchors for the link check.
 */
export interface PageRules extends SlugOptions {
  /** Docusaurus with `markdown.format: "detect"` reads .md as CommonMark, not MDX. */
  mdIsMdx?: boolean;
  /** Docusaurus' `markdown.format`: `mdx` (every page MDX), `md` (every page CommonMark), `detect` (by extension). */
  format?: "mdx" | "md" | "detect";
  /** Docusaurus' `markdown.mdx1Compat.comments` (default true): MDX takes `<!-- … -->` as a comment. */
  mdxComments?: boolean;
  /** Docusaurus 2 (MDX 1): pages are read as Markdown for their links, and compiling is the site build's to judge. */
  mdx1?: boolean;
  /** VitePress `markdown.attrs` delimiters, when the site sets its own: explicit ids are written `%{#id}%`, not `{#id}`. */
  attrsDelimiters?: { left: string; right: string };
  /**
   * VitePress `markdown.anchor.slugify` is the site's own function: a heading without an explicit id
   * gets an id the gate cannot compute, so a page with such a heading has anchors it cannot know
   * (PageAnalysis.generated) and links into it are left to the build.
   */
  customSlugify?: boolean;
}

export async function analyzePage(file: string, text: string, framework: Framework, rules: PageRules = {}): Promise<PageAnalysis> {
  const mdx = !rules.mdx1 && compiledAsMdx(file, text, framework, rules);
  const problems: string[] = [];
  const anchors = new Set<string>();
  const links: PageLink[] = [];
  problems.push(...checkFrontmatter(file, text, framework));
  // Docusaurus unwraps ```mdx-code-block fences before MDX reads the page.
  const body = framework === "docusaurus" ? unwrapMdxCodeBlocks(text) : text;

  // A heading may set its id with `{#id}`; MDX would read the braces as an expression, so they are
  // blanked (keeping every column) and the id noted for the heading's line.
  const slugger = headingSlugger(framework, rules);
  const idsByLine = new Map<number, string>();
  const lines = body.split("\n");
  const delimiters = framework === "vitepress" ? rules.attrsDelimiters : undefined;
  const headingId = delimiters ? headingIdPattern(delimiters.left, delimiters.right) : HEADING_ID;
  lines.forEach((line, index) => {
    const id = headingId.exec(line)?.[2];
    if (id) idsByLine.set(index + 1, slugger.explicit(id));
  });
  const source = idsByLine.size > 0 ? lines.map((line, index) => (idsByLine.has(index + 1) ? line.replace(headingId, (all, heading: string) => heading.padEnd(all.length)) : line)).join("\n") : body;
  if (framework === "mkdocs") for (const id of mkdocsExtraAnchors(source)) anchors.add(id);
  // VitePress (markdown-it-attrs) takes `{#id}` on a paragraph of its own and in a container's title too.
  if (framework === "vitepress") {
    const [left, right] = [delimiters?.left ?? "{", delimiters?.right ?? "}"];
    for (const match of source.matchAll(new RegExp(`${escapeRegExp(left)}#([^\\s${classEscape(right[0] ?? "}")}]+)${escapeRegExp(right)}`, "g"))) anchors.add(match[1] as string);
  }

  const processor = processorFor(mdx, framework === "docusaurus" && (rules.mdxComments ?? true));
  let implicitIds = 0;
  const unfolded = framework === "mkdocs" ? unfoldMkdocsBlocks(source) : source;
  try {
    const tree = processor.parse(unfolded) as unknown as Root;
    const headings: Collector["headings"] = [];
    const collector: Collector = { anchors, links, idsByLine, slugger, framework, headings, implicitIds: 0 };
    collect(tree, collector);
    implicitIds = collector.implicitIds;
    if (framework === "mkdocs" && rules.mkdocsTabs) for (const id of mkdocsTabIds(unfolded, headings, rules.mkdocsTabs, anchors)) anchors.add(id);
    if (rules.mdx1) links.push(...mdx1Imports(tree, unfolded));
    await processor.run(tree as never, { path: file, value: unfolded } as never);
  } catch (error) {
    const failure = error as { line?: number; column?: number; reason?: string; message?: string };
    let reason = failure.reason ?? failure.message ?? String(error);
    let [line, column] = [failure.line, failure.column];
    // Some MDX errors carry their place only in the text: "… (6:1-6:7)".
    const inText = /\s*\((\d+):(\d+)-\d+:\d+\)$/.exec(reason);
    if (inText) {
      line ??= Number(inText[1]);
      column ??= Number(inText[2]);
      reason = reason.slice(0, inText.index);
    }
    const where = line ? `${file}:${line}${column ? `:${column}` : ""}` : file;
    // Docusaurus 2's MDX 1 is its build's to judge.
    if (!rules.mdx1) problems.push(`${where}: does not compile as ${mdx ? "MDX" : "Markdown"}: ${reason}`);
  }
  links.push(...includes(text, framework));
  // mkdocstrings and macros write part of an MkDocs page; a site's own slugify names headings without an explicit id.
  // A VitePress page with no heading of its own that renders Vue components (`<ApiIndex />`) gets
  // whatever ids it has from them, or reads the URL's hash in their code: its anchors are not the gate's to know.
  const componentsOnly = framework === "vitepress" && anchors.size === 0 && /^[ \t]*<(?:[A-Z][\w.]*|[a-z][\w]*-[\w-]+)[\s/>]/m.test(withoutFencedCode(text));
  const generated = (framework === "mkdocs" && /^:::\s+\S|\{\{[^}]+\}\}/m.test(text)) || (rules.customSlugify === true && implicitIds > 0) || componentsOnly;
  const analysis: PageAnalysis = { problems, links, anchors, generated };
  if (framework === "mkdocs") analysis.commentWords = commentWords(text);
  return analysis;
}

/**
 * The ids pymdownx.tabbed gives content tabs (`=== "Title"`) when mkdocs.yml gives it a `slugify`
 * (pymdownx/tabbed.py TabbedTreeprocessor): the title slugged, after the id of the heading before
 * the tabs and the separator when `combine_header_slug` is on, made unique the way toc does (`_1`).
 */
function mkdocsTabIds(text: string, headings: { line: number; id: string }[], tabs: NonNullable<SlugOptions["mkdocsTabs"]>, taken: Set<string>): string[] {
  const used = new Set(taken);
  const ids: string[] = [];
  let fence: string | null = null;
  text.split("\n").forEach((line, index) => {
    const mark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length) fence = null;
      return;
    }
    if (mark) {
      fence = mark;
      return;
    }
    const title = /^ {0,3}={3}(?:\+|\+!|!\+|!)? +"(.*?)" *$/.exec(line)?.[1];
    if (title === undefined) return;
    const header = tabs.combineHeaderSlug ? headings.filter((heading) => heading.line < index + 1).at(-1)?.id : undefined;
    // The label's text as toc strips it: emphasis stars and code ticks gone, an emoji shortcode (`:octicons-image-16:`, an element) empty.
    const slug = pymdownxSlug(title.replace(/:[\w+-]+:/g, "").replace(/[*`]/g, ""), tabs.lower, tabs.separator);
    let id = header ? `${header}${tabs.separator}${slug}` : slug;
    while (!id || used.has(id)) {
      const counted = /^(.*)_([0-9]+)$/.exec(id);
      id = counted ? `${counted[1]}_${Number(counted[2]) + 1}` : `${id}_1`;
    }
    used.add(id);
    ids.push(id);
  });
  return ids;
}

/** The words of a page's HTML comments, where an MkDocs hook may find what to turn into an element with an id (Material's `<!-- md:setting config.name -->`). */
function commentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const comment of text.matchAll(/<!--([\s\S]*?)-->/g)) for (const word of (comment[1] ?? "").split(/\s+/)) if (word) words.add(word);
  return words;
}

/**
 * MDX 1 (Docusaurus 2) takes a top-level block that starts with `import` or `export` as ES module
 * code; read as Markdown it is a paragraph, so its imports of local files are taken from there.
 */
function mdx1Imports(tree: Root, text: string): PageLink[] {
  const links: PageLink[] = [];
  for (const node of tree.children) {
    if (node.type !== "paragraph" || !node.position) continue;
    const block = text.slice(node.position.start.offset, node.position.end.offset);
    if (/^(?:import|export)\s/.test(block)) links.push(...localImports(block, node.position.start.line));
  }
  return links;
}

/** `from '…'` or a bare `import '…'`: the module specifier's quote and body (groups 1 and 2, JS_STRING). */
const IMPORT_SPECIFIER = new RegExp(String.raw`(?:\bfrom|^\s*import)\s+${JS_STRING}`, "gm");

/**
 * The imports of local files (a snippet, a partial) in ES module code starting at `firstLine`: each
 * must name a file that exists. The specifier is a JavaScript string literal, so its escapes are
 * decoded first (`'./\_shared/a.mdx'` is `./_shared/a.mdx`: js-text.ts decodeJsString).
 */
function localImports(code: string, firstLine: number): PageLink[] {
  const links: PageLink[] = [];
  for (const match of code.matchAll(IMPORT_SPECIFIER)) {
    const source = decodeJsString(match[2] ?? "");
    const line = firstLine + code.slice(0, match.index).split("\n").length - 1;
    if (/^(\.{1,2}\/|\/|@site\/)/.test(source)) links.push({ url: source, line, kind: "import" });
  }
  return links;
}

/**
 * MkDocs content inside admonitions (`!!! note`, `??? tip`) and content tabs (`=== "Tab"`) is
 * indented four spaces under its opener (pymdownx, Material); CommonMark would read it as code, so
 * it is moved left, line numbers kept, and read as the Markdown it is.
 */
export function unfoldMkdocsBlocks(text: string): string {
  const openers: number[] = [];
  let fence: string | null = null;
  return text
    .split("\n")
    .map((line) => {
      if (line.trim() === "") return line;
      const indent = line.length - line.trimStart().length;
      while (openers.length > 0 && indent < (openers.at(-1) as number) + 4) openers.pop();
      const shift = openers.length > 0 ? (openers.at(-1) as number) + 4 : 0;
      const moved = line.slice(Math.min(shift, indent));
      const fenceMark = /^(`{3,}|~{3,})/.exec(moved.trimStart())?.[1];
      if (fence) {
        if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
        return moved;
      }
      if (fenceMark) fence = fenceMark;
      else if (/^(?:!!!|\?\?\?\+?|===)\s/.test(line.trimStart())) openers.push(indent);
      return moved;
    })
    .join("\n");
}

/**
 * Files a page pulls in at build time: pymdownx.snippets' `--8<-- "file"` (line and block forms,
 * `:5:10` and `:section` selectors dropped; `;--8<--` is escaped), and VitePress's
 * `<!--@include: path-->` and `<<< path` (`@` is the source folder).
 */
function includes(text: string, framework: Framework): PageLink[] {
  const found: PageLink[] = [];
  // Includes shown as examples in fenced code are text, not includes.
  let fence: string | null = null;
  const lines = text.split("\n").map((line) => {
    const mark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length) fence = null;
      return "";
    }
    if (mark) {
      fence = mark;
      return "";
    }
    return line;
  });
  if (framework === "mkdocs") {
    let block = false;
    lines.forEach((line, index) => {
      if (/^\s*-+8<-+\s*$/.test(line)) {
        block = !block;
        return;
      }
      const single = /^\s*-+8<-+\s+(["'])([^"']+)\1/.exec(line)?.[2];
      const target = single ?? (block && line.trim() && !line.trim().startsWith(";") ? line.trim() : null);
      if (target && !/^[a-z]+:\/\//i.test(target)) found.push({ url: target.replace(/(:\d+(?::\d+)?(?:,\d+(?::\d+)?)*|:[\w-]+)$/, ""), line: index + 1, kind: "include" });
    });
  }
  if (framework === "vitepress") {
    lines.forEach((line, index) => {
      const include = /<!--\s*@include:\s*([^\s{#]+)[^>]*-->/.exec(line)?.[1] ?? /^<<<\s+([^\s{#[]+)/.exec(line)?.[1];
      if (include) found.push({ url: include, line: index + 1, kind: "include" });
    });
  }
  return found;
}

/**
 * MkDocs ids that are not headings': attr_list's `{: #id }` on any block or inline element
 * (Python-Markdown attr_list), and footnotes' `fn:label` / `fnref:label` (footnotes extension).
 */
function mkdocsExtraAnchors(text: string): string[] {
  const ids: string[] = [];
  for (const match of text.matchAll(/\{:?[ ]*([^}\n ][^}\n]*)\}/g)) {
    for (const token of (match[1] ?? "").split(/\s+/)) {
      if (token.startsWith("#") && token.length > 1) ids.push(token.slice(1));
      const keyed = /^id=["']?([^"']+)["']?$/.exec(token)?.[1];
      if (keyed) ids.push(keyed);
    }
  }
  for (const match of text.matchAll(/^ {0,3}\[\^([^\]]+)\]:/gm)) ids.push(`fn:${match[1]}`, `fnref:${match[1]}`);
  return ids;
}

/**
 * A heading's text as the framework slugs it: raw HTML is never part of it; an inline JSX element's
 * text is, on MDX pages: Mintlify (`## Switch <Badge>Cloud</Badge>` is `switch-cloud`, as its checker
 * has it) and Docusaurus 3, whose mdx-loader heading plugin drops only `html` and MDX 1's `jsx`
 * children and slugs the rest with mdast-util-to-string (`<div class="label">Experimental</div>`
 * adds `-experimental`). Docusaurus 2 pages are read as Markdown, where such a tag is raw HTML.
 */
function headingText(node: Nodes, framework: Framework): string {
  if (node.type === "html" || node.type === "mdxTextExpression") return "";
  if (node.type === "mdxJsxTextElement" && framework !== "mintlify" && framework !== "docusaurus") return "";
  if ("children" in node) return node.children.map((child) => headingText(child as Nodes, framework)).join("");
  return toString(node);
}

interface Collector {
  anchors: Set<string>;
  links: PageLink[];
  idsByLine: Map<number, string>;
  slugger: HeadingSlugger;
  framework: Framework;
  /** Each heading's line and id, in order. */
  headings: { line: number; id: string }[];
  /** How many headings have no explicit id (their id is the slug function's). */
  implicitIds: number;
}

/**
 * A tag's attributes, each whole as HTML tokenizes them (a name runs to whitespace, `=`, `/`, `>` or
 * a quote), so a Vue binding (`:href="npmUrl(dep.name)"`, `v-bind:href`) or `data-href` is its own
 * attribute, never an `href`: a bound attribute's value is a JavaScript expression, not a URL.
 */
const HTML_ATTRIBUTE = /([^\s"'=<>/`]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** Raw HTML's links and ids, as the frameworks' checkers read them (`<a href>`, `<img src>`, any `id`, `<a name>`). */
function collectHtml(html: string, line: number, into: Collector): void {
  for (const match of html.matchAll(/<([a-z][\w-]*)\b([^>]*)>/gi)) {
    const [, tag = "", attributes = ""] = match;
    for (const attribute of attributes.matchAll(HTML_ATTRIBUTE)) {
      const name = (attribute[1] ?? "").toLowerCase();
      const value = attribute[2] ?? attribute[3] ?? attribute[4];
      if (value === undefined || !["href", "src", "id", "name"].includes(name)) continue;
      if (name === "href") into.links.push({ url: value, line, kind: "page", raw: true });
      else if (name === "src" && /^(img|source|video|audio|iframe|script)$/i.test(tag)) into.links.push({ url: value, line, kind: "asset", raw: true });
      else if (name === "id" || (name === "name" && tag.toLowerCase() === "a")) into.anchors.add(value);
    }
  }
}

/** Mintlify components that make anchors (link-rot's extractComponentAnchorIds; @mintlify/common remarkComponentIds). */
const MINTLIFY_PARAM_FIELDS = new Set(["ParamField", "Param", "ResponseField"]);
const MINTLIFY_TITLED = new Set(["Accordion", "View"]);
const PARAM_ATTRIBUTES = ["query", "path", "body", "header", "name"];

/** Headings' anchors (an explicit `{#id}` replaces the generated one), components' ids, and the links and images of a parsed page. */
function collect(tree: Root, into: Collector): void {
  const { anchors, links, idsByLine, slugger, framework } = into;
  // A reference definition nothing refers to renders nothing (CommonMark), so its URL is no link.
  const definitions: { id: string; link: PageLink }[] = [];
  const referenced = new Set<string>();
  const paramCounts = new Map<string, number>();
  const titledCounts = new Map<string, number>();
  const visit = (node: Nodes) => {
    const line = node.position?.start.line ?? 0;
    if (node.type === "heading") {
      const generated = slugger.slug(headingText(node, framework), node.depth);
      if (!idsByLine.has(line)) into.implicitIds++;
      const id = idsByLine.get(line) ?? generated;
      if (id !== null) {
        anchors.add(id);
        into.headings.push({ line, id });
      }
    } else if (node.type === "link") links.push({ url: node.url, line, kind: "page" });
    else if (node.type === "definition") definitions.push({ id: node.identifier, link: { url: node.url, line, kind: "page" } });
    else if (node.type === "linkReference" || node.type === "imageReference") referenced.add(node.identifier);
    else if (node.type === "image") links.push({ url: node.url, line, kind: "asset" });
    else if (node.type === "html") collectHtml(node.value, line, into);
    else if (node.type === "mdxjsEsm") links.push(...localImports(node.value, line));
    else if (node.type === "mdxJsxFlowElement" || node.type === "mdxJsxTextElement") {
      const attributes = new Map<string, string>();
      for (const attribute of node.attributes) if (attribute.type === "mdxJsxAttribute" && typeof attribute.value === "string") attributes.set(attribute.name, attribute.value);
      const href = attributes.get("href");
      const src = attributes.get("src");
      // Mintlify's checker follows `href` on <a> and <Card> only: another component's href (a site's own
      // HeroCard) is that component's to render, often under the site's base path.
      if (href !== undefined && (framework !== "mintlify" || node.name === "a" || node.name === "Card")) links.push({ url: href, line, kind: "page" });
      if (src !== undefined && /^(img|source|video|audio|iframe)$/.test(node.name ?? "")) links.push({ url: src, line, kind: "asset" });
      const id = attributes.get("id");
      const name = node.name ?? "";
      if (framework === "mintlify" && MINTLIFY_PARAM_FIELDS.has(name)) {
        // Mintlify's renderer honours an explicit id; link-rot uses the first of these attributes.
        const field = node.attributes.find((attribute) => attribute.type === "mdxJsxAttribute" && PARAM_ATTRIBUTES.includes(attribute.name) && typeof attribute.value === "string");
        if (field && field.type === "mdxJsxAttribute") {
          const value = String(field.value);
          const count = paramCounts.get(value) ?? 0;
          paramCounts.set(value, count + 1);
          anchors.add(mintlifyParamId(value, count));
        }
        if (id) anchors.add(id);
      } else if (framework === "mintlify" && (MINTLIFY_TITLED.has(name) || name === "Tab" || name === "Update" || name === "Step")) {
        const title = attributes.get(name === "Update" ? "label" : "title");
        if (id) anchors.add(name === "Accordion" || name === "View" || name === "Tab" ? id : mintlifyCleanId(id));
        else if (title) {
          const base = name === "Tab" || name === "Update" || name === "Step" ? mintlifySlug(title) : mintlifyComponentId(title);
          const count = titledCounts.get(`${name}:${base}`) ?? 0;
          titledCounts.set(`${name}:${base}`, count + 1);
          anchors.add(count === 0 ? base : `${base}-${name === "Tab" ? count + 1 : count}`);
        }
      } else if (id) anchors.add(id);
    }
    if ("children" in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  for (const definition of definitions) if (referenced.has(definition.id)) links.push(definition.link);
}

function checkFrontmatter(file: string, text: string, framework: Framework): string[] {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  // Frontmatter is optional everywhere: Mintlify titles a page without one from its file name.
  if (!match) return [];
  let data: unknown;
  try {
    // Mintlify (@mintlify/common parseFrontmatter: front-matter), Docusaurus and VitePress (gray-matter)
    // read frontmatter with js-yaml, which takes what the stricter `yaml` refuses (a quoted string
    // continued on a line less indented than its key); MkDocs reads it with PyYAML.
    data = framework === "mkdocs" || framework === "markdown" ? parseYaml(match[1] as string, { prettyErrors: true }) : loadJsYaml(match[1] as string);
  } catch (refused) {
    // Where and why, in `yaml`'s words when it refuses the text too (it names the line of the broken value, js-yaml often the end).
    let error = refused;
    if (refused instanceof YAMLException) {
      try {
        parseYaml(match[1] as string, { prettyErrors: true });
      } catch (also) {
        error = also;
      }
    }
    const line = error instanceof YAMLParseError && error.linePos ? error.linePos[0].line + 1 : error instanceof YAMLException ? error.mark.line + 2 : 1;
    return [`${file}:${line}: frontmatter is not valid YAML: ${(error instanceof YAMLException ? error.reason : (error as Error).message).split("\n")[0]}`];
  }
  if (data === null || data === undefined) return [];
  if (typeof data !== "object" || Array.isArray(data)) return [`${file}:1: frontmatter must be a YAML mapping (key: value)`];
  const fields = data as Record<string, unknown>;
  const problems: string[] = [];
  const stringFields = framework === "mintlify" ? ["title", "description", "sidebarTitle", "icon"] : ["title", "description", "sidebar_label", "slug", "id"];
  // Mintlify takes frontmatter values as YAML gives them (@mintlify/common getDecoratedNavPageAndSlug
  // checks no type), so `title: 3.1` shows as 3.1; a list or mapping is what it cannot show.
  // Docusaurus' frontmatter schema (Joi.string()) refuses a number.
  const shown = (value: unknown) => typeof value === "string" || (framework === "mintlify" && (typeof value === "number" || typeof value === "boolean"));
  for (const key of stringFields) {
    if (key in fields && !shown(fields[key])) problems.push(`${file}:2: frontmatter field '${key}' must be a string`);
  }
  if (framework === "docusaurus" && "sidebar_position" in fields && typeof fields.sidebar_position !== "number") {
    problems.push(`${file}:2: frontmatter field 'sidebar_position' must be a number`);
  }
  return problems;
}
