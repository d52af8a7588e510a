import { createProcessor } from "@mdx-js/mdx";
import GithubSlugger from "github-slugger";
import type { Nodes, Root } from "mdast";
import { toString } from "mdast-util-to-string";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import { parse as parseYaml, YAMLParseError } from "yaml";
import type { Framework } from "../docs/framework.js";

export interface PageLink {
  url: string;
  line: number;
  /** Images and other assets must exist as files; pages may omit their extension. */
  kind: "page" | "asset";
}

export interface PageAnalysis {
  problems: string[];
  links: PageLink[];
  /** Anchor ids of the page's headings (and explicit ids). */
  anchors: Set<string>;
}

const HEADING_ID = /\s*\{#([\w-]+)\}\s*$/;

/** Whether a page is compiled as MDX: always for .mdx, and for .md where the framework does (Mintlify, Docusaurus v3). */
export function isMdx(file: string, framework: Framework): boolean {
  return file.endsWith(".mdx") || (file.endsWith(".md") && (framework === "mintlify" || framework === "docusaurus"));
}

const processors = new Map<string, ReturnType<typeof createProcessor>>();
function processorFor(mdx: boolean) {
  const key = mdx ? "mdx" : "md";
  let processor = processors.get(key);
  if (!processor) {
    processor = createProcessor({ format: mdx ? "mdx" : "md", remarkPlugins: [remarkFrontmatter, remarkGfm] });
    processors.set(key, processor);
  }
  return processor;
}

/**
 * Parses and compiles one page the way its framework would, and checks its frontmatter. Returns
 * problems as `file:line: message`, and the page's links and anchors for the link check.
 */
export async function analyzePage(file: string, text: string, framework: Framework): Promise<PageAnalysis> {
  const problems: string[] = [];
  const anchors = new Set<string>();
  const links: PageLink[] = [];
  problems.push(...checkFrontmatter(file, text, framework));

  // Docusaurus and MkDocs let a heading set its id with `{#id}`; MDX would read it as an expression.
  const explicitIds = framework === "docusaurus" || framework === "mkdocs";
  const idsByLine = new Map<number, string>();
  if (explicitIds) {
    text.split("\n").forEach((line, index) => {
      const id = /^#{1,6} .*?\{#([\w-]+)\}\s*$/.exec(line)?.[1];
      if (id) idsByLine.set(index + 1, id);
    });
  }
  const source = idsByLine.size > 0 ? text.replace(/^(#{1,6} .*?)(\s*\{#[\w-]+\})\s*$/gm, (_, heading: string, id: string) => `${heading}${" ".repeat(id.length)}`) : text;

  const processor = processorFor(isMdx(file, framework));
  try {
    const tree = processor.parse(source) as unknown as Root;
    collect(tree, anchors, links, idsByLine);
    await processor.run(tree as never, { path: file, value: source } as never);
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
    problems.push(`${where}: does not compile as ${isMdx(file, framework) ? "MDX" : "Markdown"}: ${reason}`);
  }
  return { problems, links, anchors };
}

/** Headings' anchors (an explicit `{#id}` replaces the generated one) and the links and images of a parsed page. */
function collect(tree: Root, anchors: Set<string>, links: PageLink[], idsByLine: Map<number, string>): void {
  const slugger = new GithubSlugger();
  const visit = (node: Nodes) => {
    const line = node.position?.start.line ?? 0;
    if (node.type === "heading") {
      const generated = slugger.slug(toString(node).replace(HEADING_ID, ""));
      anchors.add(idsByLine.get(line) ?? generated);
    }
    else if (node.type === "link" || node.type === "definition") links.push({ url: node.url, line, kind: "page" });
    else if (node.type === "image") links.push({ url: node.url, line, kind: "asset" });
    else if (node.type === "mdxJsxFlowElement" || node.type === "mdxJsxTextElement") {
      for (const attribute of node.attributes) {
        if (attribute.type !== "mdxJsxAttribute" || typeof attribute.value !== "string") continue;
        if (attribute.name === "href") links.push({ url: attribute.value, line, kind: "page" });
        else if (attribute.name === "src" && node.name === "img") links.push({ url: attribute.value, line, kind: "asset" });
        else if (attribute.name === "id") anchors.add(attribute.value);
      }
    }
    if ("children" in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
}

function checkFrontmatter(file: string, text: string, framework: Framework): string[] {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  if (!match) return framework === "mintlify" ? [`${file}:1: Mintlify pages need frontmatter with a title`] : [];
  let data: unknown;
  try {
    data = parseYaml(match[1] as string, { prettyErrors: true });
  } catch (error) {
    const line = error instanceof YAMLParseError && error.linePos ? error.linePos[0].line + 1 : 1;
    return [`${file}:${line}: frontmatter is not valid YAML: ${(error as Error).message.split("\n")[0]}`];
  }
  if (data === null || data === undefined) return framework === "mintlify" ? [`${file}:1: Mintlify pages need a title in their frontmatter`] : [];
  if (typeof data !== "object" || Array.isArray(data)) return [`${file}:1: frontmatter must be a YAML mapping (key: value)`];
  const fields = data as Record<string, unknown>;
  const problems: string[] = [];
  const stringFields = framework === "mintlify" ? ["title", "description", "sidebarTitle", "icon"] : ["title", "description", "sidebar_label", "slug", "id"];
  for (const key of stringFields) {
    if (key in fields && typeof fields[key] !== "string") problems.push(`${file}:2: frontmatter field '${key}' must be a string`);
  }
  if (framework === "mintlify" && !(typeof fields.title === "string" && fields.title.trim())) problems.push(`${file}:1: Mintlify pages need a non-empty 'title' in their frontmatter`);
  if (framework === "docusaurus" && "sidebar_position" in fields && typeof fields.sidebar_position !== "number") {
    problems.push(`${file}:2: frontmatter field 'sidebar_position' must be a number`);
  }
  return problems;
}
