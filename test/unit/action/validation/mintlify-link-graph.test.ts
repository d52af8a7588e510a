import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { incrementalLinkGraph, type GraphParts } from "../../../../src/action/validation/mintlify-link-graph.js";

/**
 * The graph kept between rounds, over a stand-in of link-rot's parts that records each parse (the
 * real engine against `buildGraph` is in test/scenarios/action/real-docs-link-checker.test.ts).
 */
function site(pages: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), "inkwell-link-graph-"));
  for (const [file, text] of Object.entries(pages)) writeFileSync(path.join(root, file), text);
  return root;
}

function standIn(root: string) {
  const parsedLabels: string[] = [];
  class Node {
    paths: { label: string; link: string }[] = [];
    headingSlugs: Set<string> | null = null;
    constructor(readonly label: string) {}
    addPath(link: string) {
      this.paths.push({ label: this.label, link });
    }
  }
  class Graph {
    nodes = new Map<string, Node>();
    addNodes(labels: string[]) {
      for (const label of labels) this.addNode(label);
    }
    addNode(label: string) {
      return this.nodes.get(label) ?? this.nodes.set(label, new Node(label)).get(label) as Node;
    }
    getNode(label: string) {
      return this.nodes.get(label);
    }
    setRedirects() {}
    addAliasNodes() {}
    addVirtualNodes() {}
    precomputeFileResolutions() {}
    getBrokenInternalLinks() {
      return [...this.nodes.values()].flatMap((node) => node.paths.filter((p) => !this.nodes.has(`${p.link.slice(1)}.mdx`)).map((p) => ({ relativeDir: "", filename: node.label, originalPath: p.link })));
    }
  }
  const pages = () => readdirSync(root).filter((file) => file.endsWith(".mdx")).sort();
  const parts = {
    Graph,
    Node,
    getMintIgnore: async () => [],
    isMintIgnored: () => false,
    getLinkPaths: () => pages(),
    getPagePaths: () => pages(),
    getRedirects: async () => [],
    getOpenApiPagePaths: async () => [],
    getNavigationHrefs: async () => undefined,
    async decorateGraphNodeFromPageContent(node: Node, content: string) {
      parsedLabels.push(node.label);
      if (content.includes("<Broken")) throw new Error("Unexpected end of file");
      for (const match of content.matchAll(/\]\((\/[^)]+)\)/g)) node.addPath(match[1] as string);
      node.headingSlugs = new Set();
    },
  } as unknown as GraphParts;
  return { parts, parsedLabels };
}

describe("Mintlify's link graph, a round at a time", () => {
  it("reads each page once, then in a later round only the page whose text changed, and answers as a fresh graph would", async () => {
    const root = site({ "a.mdx": "[b](/b)", "b.mdx": "[gone](/gone)", "c.mdx": "[a](/a)" });
    const { parts, parsedLabels } = standIn(root);
    const graph = incrementalLinkGraph(parts, () => undefined);
    await graph.warm(root);
    expect(await graph.brokenLinks(root)).toEqual([{ relativeDir: "", filename: "b.mdx", originalPath: "/gone" }]);
    expect(parsedLabels.sort()).toEqual(["a.mdx", "b.mdx", "c.mdx"]);

    writeFileSync(path.join(root, "c.mdx"), "[a](/a) [d](/d)");
    const fresh = incrementalLinkGraph(standIn(root).parts, () => undefined);
    expect(await graph.brokenLinks(root)).toEqual(await fresh.brokenLinks(root));
    expect(parsedLabels.sort()).toEqual(["a.mdx", "b.mdx", "c.mdx", "c.mdx"]);
    expect(graph.parsed).toBe(4);
  });

  it("stops reading ahead when the run's signal aborts, and still answers for every page when asked", async () => {
    const root = site(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}.mdx`, `[next](/p${i + 1})`])));
    const { parts, parsedLabels } = standIn(root);
    const graph = incrementalLinkGraph(parts, () => undefined);
    const stop = new AbortController();
    stop.abort();
    await graph.warm(root, stop.signal);
    expect(parsedLabels).toEqual([]);
    expect(await graph.brokenLinks(root)).toEqual([{ relativeDir: "", filename: "p39.mdx", originalPath: "/p40" }]);
    expect(parsedLabels).toHaveLength(40);
  });

  it("a page that does not parse is named in the round's error, and is read again once it is fixed", async () => {
    const root = site({ "a.mdx": "<Broken", "b.mdx": "[a](/a)" });
    const { parts } = standIn(root);
    const graph = incrementalLinkGraph(parts, () => undefined);
    await graph.warm(root);
    await expect(graph.brokenLinks(root)).rejects.toThrow("Unable to parse a.mdx - Error: Unexpected end of file");
    writeFileSync(path.join(root, "a.mdx"), "[b](/b)");
    expect(await graph.brokenLinks(root)).toEqual([]);
  });
});
