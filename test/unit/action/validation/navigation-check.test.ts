import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { navigationProblems } from "../../../../src/action/validation/navigation-check.js";

/** The navigation problems of a run that added these pages. */
function addedPages(files: Record<string, string>, added: string[]): string[] {
  const repoRoot = writeRepo(files, "inkwell-nav-");
  return navigationProblems({ repoRoot, project: detectDocsProject(repoRoot), branchChanges: added.map((path) => ({ path, status: "added" as const })) });
}

describe("VitePress: pages that need no sidebar entry", () => {
  const config = "export default {\n  locales: { root: { label: 'English', link: '/' }, fr: { label: 'Français', link: '/fr/', themeConfig: { outline: { label: 'Sur cette page' } } } },\n  themeConfig: { sidebar: [{ text: 'Guide', items: [{ text: 'Start', link: '/guide/start' }] }] }\n}\n";

  it("the site's root, a language's root, and a page with layout: home (or isHome) are home pages; another page is not", () => {
    const files = {
      ".vitepress/config.ts": config,
      "index.md": "# Home\n",
      "fr/index.md": "# Accueil\n",
      "fr/guide/index.md": "# Guide\n",
      "launch.md": "---\nlayout: home\n---\n",
      "landing.md": "---\nisHome: true\nlayout: page\n---\n",
      "guide/start.md": "# Start\n",
      "guide/other.md": "# Other\n",
    };
    expect(addedPages(files, ["index.md", "fr/index.md", "launch.md", "landing.md", "guide/start.md", "guide/other.md", "fr/guide/index.md"])).toEqual([
      "guide/other.md: new page is not in the navigation (.vitepress/config.ts): add it there",
      "fr/guide/index.md: new page is not in the navigation (.vitepress/config.ts): add it there",
    ]);
  });

  it("a page a data loader's createContentLoader lists is listed by the page that renders the loader's data", () => {
    const files = {
      ".vitepress/config.ts": config,
      "blog.md": "---\nlayout: home\n---\n\n<BlogIndex />\n",
      "_data/blog.data.ts": "import { createContentLoader } from 'vitepress'\nexport default createContentLoader('blog/*.md')\n",
      "blog/new-release.md": "# New release\n",
      "news/old.md": "# Not a post\n",
    };
    expect(addedPages(files, ["blog/new-release.md", "news/old.md"])).toEqual(["news/old.md: new page is not in the navigation (.vitepress/config.ts): add it there"]);
  });
});

describe("VitePress navigation built by the config's code", () => {
  it("a helper joining a group's folder to its items, a computed link's fixed parts, and a folder's index.html all list the page", () => {
    const config = [
      "const packages = { analytics: '1.0', storage: '2.0' }",
      "const group = (text, base, items) => ({ text, base, items })",
      "const item = (text, link) => ({ text, link })",
      "export default { themeConfig: {",
      "  nav: [{ text: 'Packages', items: Object.entries(packages).map(([name]) => ({ text: name, link: `/${name}` })) }],",
      "  sidebar: [group('Guide', '/guide/', [item('Intro', 'intro.md')]), { text: 'Migration', link: '/migration/index.html' }],",
      "} }",
    ].join("\n");
    const files = { ".vitepress/config.ts": config, "guide/intro.md": "# Intro\n", "guide/other.md": "# Other\n", "analytics.md": "# Analytics\n", "migration/index.md": "# Migration\n", "deep/page.md": "# Deep\n" };
    expect(addedPages(files, ["guide/intro.md", "analytics.md", "migration/index.md", "guide/other.md", "deep/page.md"])).toEqual([
      "guide/other.md: new page is not in the navigation (.vitepress/config.ts): add it there",
      "deep/page.md: new page is not in the navigation (.vitepress/config.ts): add it there",
    ]);
  });
  it("a computed link with fixed text of its own takes any run of segments where it substitutes (`/api/${version}legacy`)", () => {
    const config = "const api = (version) => [{ text: 'Legacy', link: `/api/${version}legacy` }]\nexport default { themeConfig: { sidebar: { '/api/': api('v11/') } } }\n";
    const files = { ".vitepress/config.ts": config, "api/v11/legacy.md": "# Legacy\n", "api/v11/general.md": "# General\n" };
    expect(addedPages(files, ["api/v11/legacy.md", "api/v11/general.md"])).toEqual(["api/v11/general.md: new page is not in the navigation (.vitepress/config.ts): add it there"]);
  });
});

describe("pages kept out of the navigation by the framework's own rules", () => {
  it("Docusaurus: a file the docs options' exclude names is no page, in the docs folder and in each version's", () => {
    const files = {
      "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { sidebarPath: './sidebars.json', exclude: ['README.md'] } }]] };\n",
      "sidebars.json": JSON.stringify({ docs: ["intro"] }),
      "versions.json": JSON.stringify(["1.0"]),
      "docs/intro.md": "# Intro\n",
      "docs/README.md": "# About this folder\n",
      "versioned_docs/version-1.0/README.md": "# About\n",
      "docs/guide.md": "# Guide\n",
    };
    expect(addedPages(files, ["docs/README.md", "versioned_docs/version-1.0/README.md", "docs/guide.md"])).toEqual(["docs/guide.md: new page is not in the navigation (sidebars.json): add it there"]);
  });

  it("VitePress: a dynamic route's template ([id].md beside [id].paths.ts) is no page to list; a bracketed name without a paths loader is", () => {
    const files = {
      ".vitepress/config.ts": "export default { themeConfig: { sidebar: [{ text: 'Guide', items: [{ text: 'Start', link: '/guide/start' }] }] } }\n",
      "guide/start.md": "# Start\n",
      "partners/[partnerId].md": "# {{ $params.name }}\n",
      "partners/[partnerId].paths.ts": "export default { paths() { return [] } }\n",
      "notes/[draft].md": "# Draft\n",
    };
    expect(addedPages(files, ["partners/[partnerId].md", "notes/[draft].md"])).toEqual(["notes/[draft].md: new page is not in the navigation (.vitepress/config.ts): add it there"]);
  });

  it("MkDocs: a page not_in_nav names needs no nav entry", () => {
    const files = { "mkdocs.yml": "site_name: Acme\nnav:\n  - index.md\nnot_in_nav: |\n  /_build/\n", "docs/index.md": "# Home\n", "docs/_build/snippets/note.md": "Note.\n", "docs/other.md": "# Other\n" };
    expect(addedPages(files, ["docs/_build/snippets/note.md", "docs/other.md"])).toEqual(["docs/other.md: new page is not in the navigation (mkdocs.yml): add it there"]);
  });

  it("Docusaurus: a page of a second docs instance answers to that instance's sidebars, named in the problem", () => {
    const files = {
      "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { sidebarPath: './sidebars.js' } }]], plugins: [['@docusaurus/plugin-content-docs', { id: 'community', path: 'community', routeBasePath: 'community', sidebarPath: './sidebarsCommunity.js' }]] };\n",
      "sidebars.js": "module.exports = { docs: ['intro'] };\n",
      "sidebarsCommunity.js": "module.exports = { community: ['join'] };\n",
      "docs/intro.md": "# Intro\n",
      "community/join.md": "# Join\n",
      "community/new.md": "# New\n",
    };
    expect(addedPages(files, ["community/join.md", "community/new.md"])).toEqual(["community/new.md: new page is not in the navigation (sidebarsCommunity.js): add it there"]);
  });
});
