import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject, navigationPages, pageExists } from "../../../../src/action/docs/framework.js";

const repo = (files: Record<string, string>) => writeRepo(files, "inkwell-fw-");

describe("docs framework detection", () => {
  it("Mintlify (docs.json) with nested navigation", () => {
    const root = repo({
      "docs.json": JSON.stringify({ name: "Acme", navigation: { tabs: [{ tab: "Guides", groups: [{ group: "Start", pages: ["index", "quickstart", { group: "Deep", pages: ["guides/webhooks"] }] }] }] } }),
      "index.mdx": "# Home",
      "quickstart.mdx": "# Quickstart",
    });
    const project = detectDocsProject(root);
    expect(project).toEqual({ framework: "mintlify", docsDir: ".", navigationFiles: ["docs.json"], pageExtensions: [".mdx", ".md"] });
    const pages = navigationPages(root, project) ?? [];
    expect(pages).toEqual(["index", "quickstart", "guides/webhooks"]);
    expect(pages.map((p) => pageExists(root, project, p))).toEqual([true, true, false]);
  });

  it("legacy mint.json under docs/", () => {
    const root = repo({ "docs/mint.json": JSON.stringify({ navigation: [{ group: "Get started", pages: ["introduction"] }] }), "docs/introduction.mdx": "# Hi" });
    const project = detectDocsProject(root);
    expect(project.framework).toBe("mintlify");
    expect(project.docsDir).toBe("docs");
    expect(navigationPages(root, project)).toEqual(["docs/introduction"]);
  });

  it("Docusaurus: docs/ pages, sidebars file", () => {
    const root = repo({ "docusaurus.config.ts": "export default {}", "sidebars.json": JSON.stringify({ tutorial: ["intro", { type: "category", label: "Basics", items: [{ type: "doc", id: "basics/setup" }] }] }), "docs/intro.md": "# Intro" });
    const project = detectDocsProject(root);
    expect(project).toMatchObject({ framework: "docusaurus", docsDir: "docs", navigationFiles: ["sidebars.json"] });
    // Sidebars name docs by id: a known id is its file; an unknown one stays as written (and the gate says it is missing).
    expect(navigationPages(root, project)).toEqual(["docs/intro.md", "docs/basics/setup"]);
  });

  it("Docusaurus: the docs plugin's path (docs outside the site folder), ids from frontmatter and number prefixes", () => {
    const root = repo({
      "website/docusaurus.config.mjs": "export default { presets: [['classic', { docs: { path: '../docs', sidebarPath: './sidebars.json' } }]] };",
      "website/sidebars.json": JSON.stringify({ docs: ["getting-started", "guides/setup"] }),
      "docs/GettingStarted.md": "---\nid: getting-started\ntitle: Getting started\n---\n# Hi",
      "docs/02-guides/setup.md": "# Setup",
    });
    const project = detectDocsProject(root);
    expect(project).toMatchObject({ framework: "docusaurus", docsDir: "docs" });
    expect(navigationPages(root, project)).toEqual(["docs/GettingStarted.md", "docs/02-guides/setup.md"]);
  });

  it("Docusaurus with JS sidebars: navigation generated, not checked statically", () => {
    const root = repo({ "website/docusaurus.config.js": "module.exports = {}", "website/sidebars.js": "module.exports = {}" });
    const project = detectDocsProject(root);
    expect(project).toMatchObject({ framework: "docusaurus", docsDir: "website/docs", navigationFiles: ["website/sidebars.js"] });
    expect(navigationPages(root, project)).toBeNull();
  });

  it("MkDocs with docs_dir and nav", () => {
    const root = repo({ "mkdocs.yml": "site_name: Acme\ndocs_dir: content\nnav:\n  - Home: index.md\n  - Guides:\n      - guides/setup.md\n  - GitHub: https://github.com/acme\n", "content/index.md": "# Home" });
    const project = detectDocsProject(root);
    expect(project).toMatchObject({ framework: "mkdocs", docsDir: "content", navigationFiles: ["mkdocs.yml"] });
    expect(navigationPages(root, project)).toEqual(["content/index.md", "content/guides/setup.md"]);
  });

  it("VitePress and plain Markdown", () => {
    expect(detectDocsProject(repo({ "docs/.vitepress/config.mts": "export default {}" }))).toMatchObject({ framework: "vitepress", docsDir: "docs" });
    expect(detectDocsProject(repo({ "docs/readme.md": "# x" }))).toMatchObject({ framework: "markdown", docsDir: "docs", navigationFiles: [] });
    expect(detectDocsProject(repo({ "README.md": "# x" }))).toMatchObject({ framework: "markdown", docsDir: "." });
    expect(detectDocsProject(repo({ "guides/a.md": "# a" }), "guides")).toMatchObject({ framework: "markdown", docsDir: "guides" });
  });
});
