import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Mintlify's link graph built a round at a time. `@mintlify/link-rot`'s `buildGraph` parses every
 * page of the site on every call (38–56 s on a 1,116-page site), though between two rounds of a run
 * only the pages the agent wrote differ. This builds the same graph from the same parts of the
 * package (its Graph, its page list, redirects, OpenAPI pages and navigation hrefs, and its page
 * parser), keeping each page's parse keyed by its path and content, so a round parses only what
 * changed. A test holds it to `buildGraph`'s answer on real sites.
 */

interface LinkRotPath {
  relativeDir: string;
  filename: string;
  originalPath: string;
}
interface GraphNode {
  paths: unknown[];
  headingSlugs: Set<string> | null;
}
interface Graph {
  addNodes(labels: string[]): void;
  addNode(label: string): GraphNode & { addPath(path: string): void };
  getNode(label: string): GraphNode | undefined;
  setRedirects(redirects: unknown): void;
  addAliasNodes(): void;
  addVirtualNodes(labels: string[]): void;
  precomputeFileResolutions(): void;
  getBrokenInternalLinks(options: { checkAnchors: boolean }): LinkRotPath[];
}
export interface GraphParts {
  Graph: new (baseDir: string, mintIgnoreGlobs: string[]) => Graph;
  Node: new (label: string) => GraphNode;
  getMintIgnore(baseDir: string): Promise<string[]>;
  isMintIgnored(file: string, globs: string[]): boolean;
  getLinkPaths(baseDir: string, globs: string[]): string[];
  getPagePaths(baseDir: string, globs: string[]): string[];
  getRedirects(baseDir: string): Promise<unknown>;
  getOpenApiPagePaths(baseDir: string, options: object): Promise<string[]>;
  getNavigationHrefs(baseDir: string): Promise<{ configFile: string; hrefs: string[] } | undefined>;
  decorateGraphNodeFromPageContent(node: GraphNode, content: string, options: { checkSnippets: boolean }): Promise<void>;
}

/** The package's parts, from the installed engine's own files; null when this version does not have them all. */
export async function loadGraphParts(packageDir: string): Promise<GraphParts | null> {
  const from = createRequire(path.join(packageDir, "package.json"));
  const load = async (specifier: string) => (await import(pathToFileURL(from.resolve(specifier)).href)) as Record<string, unknown>;
  const own = (file: string) => load(path.join(packageDir, "dist", file));
  try {
    const [graph, prebuild, redirects, openApi, navigation, internal, mintPrebuild, common] = await Promise.all([
      own("graph.js"),
      own("prebuild.js"),
      own("static-checking/getRedirects.js"),
      own("static-checking/getOpenApiPagePaths.js"),
      own("static-checking/getNavigationHrefs.js"),
      own("static-checking/getBrokenInternalLinks.js"),
      load("@mintlify/prebuild"),
      load("@mintlify/common"),
    ]);
    const parts = {
      Graph: graph.Graph,
      Node: graph.Node,
      getMintIgnore: mintPrebuild.getMintIgnore,
      isMintIgnored: common.isMintIgnored,
      getLinkPaths: prebuild.getLinkPaths,
      getPagePaths: prebuild.getPagePaths,
      getRedirects: redirects.getRedirects,
      getOpenApiPagePaths: openApi.getOpenApiPagePaths,
      getNavigationHrefs: navigation.getNavigationHrefs,
      decorateGraphNodeFromPageContent: internal.decorateGraphNodeFromPageContent,
    };
    return Object.values(parts).every((part) => typeof part === "function") ? (parts as unknown as GraphParts) : null;
  } catch {
    return null;
  }
}

/** As many pages parsed at once as `buildGraph` parses. */
const PARSE_CONCURRENCY = 8;

export interface IncrementalLinkGraph {
  /** Parses every page of the site into the cache (while the model works), so the first round parses only what the run wrote; stops early when `signal` aborts. */
  warm(siteRoot: string, signal?: AbortSignal): Promise<void>;
  /** The broken links of the site as it is now, with anchors and snippet imports checked (as `mint broken-links --check-anchors --check-snippets`). */
  brokenLinks(siteRoot: string): Promise<LinkRotPath[]>;
  /** Pages parsed so far (for tests and the bench). */
  readonly parsed: number;
}

/** `warn` gets what `buildGraph` would print: an OpenAPI spec whose pages could not be listed. */
export function incrementalLinkGraph(parts: GraphParts, warn: (message: string) => void): IncrementalLinkGraph {
  /** A page's parse: its paths (immutable once made) and heading ids, by path and content. */
  const pages = new Map<string, Promise<GraphNode>>();
  let parsed = 0;
  let warming: Promise<void> | null = null;

  const parsePage = (siteRoot: string, label: string): Promise<GraphNode> => {
    const content = readFileSync(path.join(siteRoot, label), "utf8");
    const key = `${label}\0${createHash("sha1").update(content).digest("hex")}`;
    let page = pages.get(key);
    if (!page) {
      const node = new parts.Node(label);
      page = parts.decorateGraphNodeFromPageContent(node, content, { checkSnippets: true }).then(
        () => {
          parsed++;
          return node;
        },
        (error: unknown) => {
          pages.delete(key);
          throw new Error(`Syntax error - Unable to parse ${label} - ${String(error)}`);
        },
      );
      pages.set(key, page);
    }
    return page;
  };

  const eachPage = async (labels: string[], visit: (label: string) => Promise<void>, signal?: AbortSignal) => {
    let cursor = 0;
    const worker = async () => {
      while (cursor < labels.length && !signal?.aborted) await visit(labels[cursor++] as string);
    };
    await Promise.all(Array.from({ length: Math.min(PARSE_CONCURRENCY, labels.length) }, worker));
  };

  const sitePages = async (siteRoot: string) => {
    const ignored = await parts.getMintIgnore(siteRoot);
    return { ignored, pages: parts.getPagePaths(siteRoot, ignored).filter((file) => !parts.isMintIgnored(file, ignored)) };
  };

  return {
    get parsed() {
      return parsed;
    },
    warm(siteRoot, signal) {
      warming ??= sitePages(siteRoot).then(({ pages: labels }) =>
        // A page that does not parse now is reported by the round that reads it.
        eachPage(labels, (label) => parsePage(siteRoot, label).then(() => undefined, () => undefined), signal),
      );
      return warming;
    },
    async brokenLinks(siteRoot) {
      await warming?.catch(() => undefined);
      // The steps of link-rot's buildGraph, in its order.
      const { ignored, pages: labels } = await sitePages(siteRoot);
      const graph = new parts.Graph(siteRoot, ignored);
      graph.addNodes(parts.getLinkPaths(siteRoot, ignored).filter((file) => !parts.isMintIgnored(file, ignored)));
      graph.setRedirects(await parts.getRedirects(siteRoot));
      graph.addAliasNodes();
      try {
        graph.addVirtualNodes(await parts.getOpenApiPagePaths(siteRoot, {}));
      } catch (error) {
        warn(`Mintlify's link checker could not list the OpenAPI pages: ${String(error)}`);
      }
      const navigation = await parts.getNavigationHrefs(siteRoot);
      if (navigation) {
        const configNode = graph.addNode(navigation.configFile);
        for (const href of navigation.hrefs) configNode.addPath(href === "/" || href === "" ? "/index" : href.replace(/^\/#/, "/index#"));
      }
      await eachPage(labels, async (label) => {
        const node = graph.getNode(label);
        if (!node) return;
        const page = await parsePage(siteRoot, label);
        node.paths.push(...page.paths);
        node.headingSlugs = page.headingSlugs;
      });
      graph.precomputeFileResolutions();
      return graph.getBrokenInternalLinks({ checkAnchors: true });
    },
  };
}
