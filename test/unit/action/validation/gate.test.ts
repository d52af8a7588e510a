import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { runGate } from "../../../../src/action/validation/gate.js";
import { navigationProblems } from "../../../../src/action/validation/navigation-check.js";
import { analyzePage } from "../../../../src/action/validation/page.js";
import { writeStartingTree } from "../../../../src/action/validation/starting-tree.js";
import type { ChangedFile } from "../../../../src/action/git.js";

const repo = (files: Record<string, string>) => writeRepo(files, "inkwell-gate-");

/** A site committed as the run finds it; `edit` then makes the run's changes in the working tree. */
function committedSite(files: Record<string, string>): string {
  const root = repo(files);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "site");
  return root;
}
const edit = (root: string, files: Record<string, string | null>) => {
  for (const [file, content] of Object.entries(files)) {
    if (content === null) rmSync(path.join(root, file));
    else {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), content);
    }
  }
};
/** The gate on both trees: the committed one the run started from, and the working tree. */
async function gateOnBothTrees(root: string, changedThisRun: string[], branchChanges: ChangedFile[]) {
  const before = await writeStartingTree(root);
  try {
    return await runGate({ repoRoot: root, project: detectDocsProject(root), changedThisRun, branchChanges, beforeRoot: before.root });
  } finally {
    await before.remove();
  }
}

describe("page checks", () => {
  it.each([
    ["mintlify", "---\ntitle: [unclosed\n---\n", "a.mdx:2: frontmatter is not valid YAML"],
    ["docusaurus", "---\nsidebar_position: first\n---\n", "a.mdx:2: frontmatter field 'sidebar_position' must be a number"],
    ["docusaurus", "---\n- a\n- b\n---\n", "a.mdx:1: frontmatter must be a YAML mapping"],
    ["docusaurus", "Hello <Tabs>\n", "a.mdx:1:1: does not compile as MDX: Expected a closing tag for `<Tabs>`"],
  ] as const)("%s: %j", async (framework, text, problem) => {
    const { problems } = await analyzePage("a.mdx", text, framework);
    expect(problems.join("\n")).toContain(problem);
  });

  it("Mintlify: frontmatter is optional (a page without it is titled from its file name)", async () => {
    expect((await analyzePage("a.mdx", "# No frontmatter\n", "mintlify")).problems).toEqual([]);
    expect((await analyzePage("a.mdx", "---\ndescription: no title\n---\n", "mintlify")).problems).toEqual([]);
  });

  it("treats .md as plain Markdown where the framework does (MkDocs): braces and tags are text", async () => {
    expect((await analyzePage("a.md", "# Title {#custom}\n\nA {brace} and <b>tag.\n", "mkdocs")).problems).toEqual([]);
    expect([...(await analyzePage("a.md", "# Title {#custom}\n\n## Two words\n", "mkdocs")).anchors]).toEqual(["custom", "two-words"]);
  });
});

describe("the gate on MkDocs and VitePress", () => {
  it("MkDocs: nav entries must exist and new pages must be in nav; relative links resolve; a nav entry missing before the run is the site's", async () => {
    const root = committedSite({
      "mkdocs.yml": "site_name: Acme\nnav:\n  - Home: index.md\n  - Guide: guide.md\n  - Gone: gone.md\n",
      "docs/index.md": "# Home\n",
      "docs/guide.md": "# Guide\n",
    });
    edit(root, { "docs/guide.md": "# Guide\n\nSee [home](index.md#home) and [missing](nope.md).\n", "docs/new.md": "# New\n" });
    const result = await gateOnBothTrees(root, ["docs/guide.md", "docs/new.md"], [
      { path: "docs/guide.md", status: "modified" },
      { path: "docs/new.md", status: "added" },
    ]);
    expect(result.problems).toEqual(["docs/guide.md:3: link 'nope.md' does not resolve to a file in the repository", "docs/new.md: new page is not in the navigation (mkdocs.yml): add it there"]);
    expect(result.alreadyOnSite).toEqual(["mkdocs.yml: lists 'docs/gone.md' but there is no such page"]);
  });

  it("VitePress: a new page is reachable when the config links it", async () => {
    const root = repo({
      ".vitepress/config.mts": "export default { themeConfig: { sidebar: [{ text: 'Guide', link: '/guide/setup' }] } }\n",
      "guide/setup.md": "# Setup\n\n[Back](/)\n",
      "index.md": "# Home\n",
      "guide/other.md": "# Other\n",
    });
    const project = detectDocsProject(root);
    const gate = (file: string) => runGate({ repoRoot: root, project, changedThisRun: [file], branchChanges: [{ path: file, status: "added" }] });
    expect((await gate("guide/setup.md")).passed).toBe(true);
    expect((await gate("guide/other.md")).problems).toEqual(["guide/other.md: new page is not in the navigation (.vitepress/config.mts): add it there"]);
  });
});

describe("absolute site links", () => {
  const gate = async (files: Record<string, string>, changed: string[]) => {
    const root = repo(files);
    const project = detectDocsProject(root);
    return runGate({ repoRoot: root, project, changedThisRun: changed, branchChanges: [] });
  };

  it("Docusaurus: routed by routeBasePath under baseUrl, with slugs, ids, number prefixes and index pages; other plugins' paths are left alone", async () => {
    const result = await gate(
      {
        "docusaurus.config.js": "module.exports = { baseUrl: '/acme/', presets: [['classic', { docs: { routeBasePath: 'guide' } }]] };\n",
        "sidebars.js": "module.exports = { docs: [{ type: 'autogenerated', dirName: '.' }] };\n",
        "docs/index.md": "# Start\n",
        "docs/01-setup/01-install.md": "# Install\n\n## Linux\n",
        "docs/01-setup/index.md": "# Setup\n",
        "docs/api.md": "---\nslug: /reference\n---\n# API\n",
        "docs/faq.md": "---\nid: questions\n---\n# FAQ\n",
        "docs/links.md": [
          "# Links",
          "[start](/acme/guide) [install](/acme/guide/setup/install#linux) [setup](/guide/setup/) [api](/acme/guide/reference) [faq](/acme/guide/questions)",
          "[blog](/acme/blog/post) [gone](/acme/guide/setup/uninstall) [old slug](/acme/guide/api) [bad anchor](/acme/guide/setup/install#windows)",
          "",
        ].join("\n"),
      },
      ["docs/links.md"],
    );
    expect(result.problems).toEqual([
      "docs/links.md:3: link '/acme/guide/setup/uninstall' does not resolve to a file in the repository",
      "docs/links.md:3: link '/acme/guide/api' does not resolve to a file in the repository",
      "docs/links.md:3: link '/acme/guide/setup/install#windows': docs/01-setup/01-install.md has no heading with the anchor #windows",
    ]);
  });

  it("MkDocs: absolute links are only information to MkDocs unless validation.links.absolute_links is relative_to_docs, which resolves them in docs_dir", async () => {
    const files = {
      "docs/index.md": "# Home\n",
      "docs/guide/setup.md": "# Setup\n\n## Proxy\n",
      "docs/links.md": "# Links\n\n[home](/docs/) [gone](/docs/guide/teardown/) [setup](/guide/setup.md#proxy) [missing](/guide/teardown.md)\n",
    };
    const nav = "site_name: Acme\nsite_url: https://acme.dev/docs/\nnav:\n  - index.md\n  - guide/setup.md\n  - links.md\n";
    expect((await gate({ ...files, "mkdocs.yml": nav }, ["docs/links.md"])).problems).toEqual([]);
    const checked = await gate({ ...files, "mkdocs.yml": `${nav}validation:\n  links:\n    absolute_links: relative_to_docs\n` }, ["docs/links.md"]);
    expect(checked.problems).toContain("docs/links.md:3: link '/guide/teardown.md' does not resolve to a file in the repository");
    expect(checked.problems.join("\n")).not.toContain("/guide/setup.md#proxy");
  });
});

describe("Mintlify's own docs.json schema", () => {
  const valid = { $schema: "https://mintlify.com/docs.json", theme: "mint", name: "Acme", colors: { primary: "#6D28D9" }, navigation: { groups: [{ group: "Start", pages: ["index"] }] } };
  /** The problems after the run changed docs.json from `before` to `after`. */
  const problemsOf = (before: Record<string, unknown>, after: Record<string, unknown>) => {
    const root = repo({ "docs.json": JSON.stringify(after), "index.mdx": "---\ntitle: Home\n---\n# Home\n" });
    return navigationProblems({ repoRoot: root, project: detectDocsProject(root), branchChanges: [], navigationBefore: JSON.stringify(before) });
  };

  it("accepts a valid docs.json and names what it refuses, by path, in Mintlify's terms", () => {
    expect(problemsOf({ ...valid, name: "Old" }, valid)).toEqual([]);
    expect(problemsOf(valid, { ...valid, colors: { primary: "purple" }, navigaton: {} })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^docs\.json: colors\.primary: .* \(Mintlify's docs\.json schema\)$/), "docs.json: the file: has 'navigaton', which Mintlify does not know (Mintlify's docs.json schema)"]),
    );
    expect(problemsOf(valid, { ...valid, theme: "neon" })).toEqual(["docs.json: theme must be one of mint, maple, palm, willow, linden, almond, aspen, luma, sequoia (Mintlify's docs.json schema)"]);
  });

  it("leaves alone what was wrong before the run, and an unchanged file", () => {
    expect(problemsOf({ ...valid, theme: "neon", name: "Old" }, { ...valid, theme: "neon" })).toEqual([]);
    expect(problemsOf({ ...valid, theme: "neon" }, { ...valid, theme: "neon" })).toEqual([]);
  });
});

describe("the agent answers only for what its change did", () => {
  const site = () =>
    committedSite({
      "docs.json": JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index", "guide", "faq", "gone"] } }),
      "index.mdx": "# Home\n\n## Install\n\n## Upgrade\n",
      "guide.mdx": "# Guide\n\nAn old [broken](/nowhere) link and [a bad anchor](/index#gone).\n",
      "faq.mdx": "# FAQ\n\nHow to [upgrade](/index#upgrade), and an old [bad anchor](/index#never).\n",
    });

  it("problems a changed page had before are the site's, listed; one its change added, or one more of the same, blocks", async () => {
    const root = site();
    // The agent adds a paragraph above (the old problems move down a line) and one new broken link.
    edit(root, { "guide.mdx": "# Guide\n\nNew text.\n\nAn old [broken](/nowhere) link and [a bad anchor](/index#gone).\n\nSee [again](/nowhere) and [install](/index#install).\n" });
    const result = await gateOnBothTrees(root, ["guide.mdx"], [{ path: "guide.mdx", status: "modified" }]);
    expect(result.problems).toEqual(["guide.mdx:7: link '/nowhere' does not resolve to a file in the repository"]);
    expect(result.alreadyOnSite).toEqual([
      "guide.mdx:5: link '/nowhere' does not resolve to a file in the repository",
      "guide.mdx:5: link '/index#gone': index.mdx has no heading with the anchor #gone",
      "docs.json: lists 'gone' but there is no such page",
    ]);
    expect(result.alreadyOnSiteCount).toBe(3);
  });

  it("a problem the run fixed is gone from both lists", async () => {
    const root = site();
    edit(root, { "guide.mdx": "# Guide\n\nA [fixed](/faq) link and [a bad anchor](/index#gone).\n" });
    const result = await gateOnBothTrees(root, ["guide.mdx"], [{ path: "guide.mdx", status: "modified" }]);
    expect(result.passed).toBe(true);
    expect(result.alreadyOnSite?.join("\n")).not.toContain("/nowhere");
  });

  it("a heading the run renamed breaks the pages that link to it, which are then checked; their old broken anchors stay the site's", async () => {
    const root = site();
    edit(root, { "index.mdx": "# Home\n\n## Install\n\n## Upgrading\n" });
    const result = await gateOnBothTrees(root, ["index.mdx"], [{ path: "index.mdx", status: "modified" }]);
    expect(result.problems).toEqual(["faq.mdx:3: link '/index#upgrade': index.mdx has no heading with the anchor #upgrade"]);
    expect(result.alreadyOnSite).toContain("faq.mdx:3: link '/index#never': index.mdx has no heading with the anchor #never");
  });

  it("a navigation entry the run broke blocks; one broken before it does not", async () => {
    const root = site();
    edit(root, { "faq.mdx": null });
    const result = await gateOnBothTrees(root, ["faq.mdx"], [{ path: "faq.mdx", status: "deleted" }]);
    expect(result.problems).toEqual(["docs.json: lists 'faq' but there is no such page"]);
    expect(result.alreadyOnSite).toEqual(["docs.json: lists 'gone' but there is no such page"]);
  });

  it("a page that did not compile before the run is the site's while it still does not, whatever the compiler meets first", async () => {
    const root = committedSite({ "docs.json": JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["a"] } }), "a.mdx": "# A\n\n<Open\n" });
    edit(root, { "a.mdx": "# A\n\nNew {text\n\n<Open\n" });
    const result = await gateOnBothTrees(root, ["a.mdx"], [{ path: "a.mdx", status: "modified" }]);
    expect(result.passed).toBe(true);
    expect(result.alreadyOnSite?.[0]).toMatch(/^a\.mdx:\d+:\d+: does not compile as MDX/);
  });
});

describe("a moved page", () => {
  it("keeps the problems it had at its old path as the site's; a problem the move makes is the run's", async () => {
    const root = committedSite({
      "docs.json": JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index", "old"] } }),
      "index.mdx": "# Home\n",
      "old.mdx": "# Moved\n\nAn old [bad anchor](/index#gone) and a [relative](./index) link.\n",
    });
    const moved: ChangedFile[] = [{ path: "guides/moved.mdx", status: "renamed", from: "old.mdx" }];
    const docsJson = JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index", "guides/moved"] } });
    edit(root, { "old.mdx": null, "docs.json": docsJson, "guides/moved.mdx": "# Moved\n\nAn old [bad anchor](/index#gone) and a [relative](../index) link.\n" });
    const result = await gateOnBothTrees(root, ["guides/moved.mdx", "old.mdx", "docs.json"], moved);
    expect(result.problems).toEqual([]);
    expect(result.alreadyOnSite).toEqual(["guides/moved.mdx:3: link '/index#gone': index.mdx has no heading with the anchor #gone"]);
    edit(root, { "guides/moved.mdx": "# Moved\n\nAn old [bad anchor](/index#gone) and a [relative](./index) link.\n" });
    const broken = await gateOnBothTrees(root, ["guides/moved.mdx", "old.mdx", "docs.json"], moved);
    expect(broken.problems).toEqual(["guides/moved.mdx:3: link './index' does not resolve to a file in the repository"]);
  });
});

describe("a moved page and the navigation", () => {
  const site = () =>
    committedSite({
      "mkdocs.yml": "site_name: Acme\nnav:\n  - index.md\n  - listed.md\n",
      "docs/index.md": "# Home\n",
      "docs/listed.md": "# Listed\n",
      "docs/hidden.md": "# Hidden\n",
    });
  it("a page the navigation did not list need not be listed where it moves; one it listed must still be", async () => {
    const root = site();
    edit(root, { "docs/hidden.md": null, "docs/guides/hidden.md": "# Hidden\n" });
    expect((await gateOnBothTrees(root, ["docs/guides/hidden.md", "docs/hidden.md"], [{ path: "docs/guides/hidden.md", status: "renamed", from: "docs/hidden.md" }])).problems).toEqual([]);
    const again = site();
    edit(again, { "docs/listed.md": null, "docs/guides/listed.md": "# Listed\n", "mkdocs.yml": "site_name: Acme\nnav:\n  - index.md\n" });
    const moved = await gateOnBothTrees(again, ["docs/guides/listed.md", "docs/listed.md", "mkdocs.yml"], [{ path: "docs/guides/listed.md", status: "renamed", from: "docs/listed.md" }]);
    expect(moved.problems).toEqual(["docs/guides/listed.md: new page is not in the navigation (mkdocs.yml): add it there"]);
  });
});

describe("what the site's config promised stays", () => {
  it("refuses a change that drops a redirect or the navigation entry of a page that stays; a move's renamed entry is kept", async () => {
    const { configPromises, brokenPromises } = await import("../../../../src/action/validation/config-keeps.js");
    const { writeFileSync } = await import("node:fs");
    const files = {
      "docs.json": JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index", "a", "b"] }, redirects: { $ref: "./redirects.json" } }),
      "redirects.json": JSON.stringify([{ source: "/old", destination: "/a" }]),
      "index.mdx": "# Home\n",
      "a.mdx": "# A\n",
      "c.mdx": "# B, moved\n",
    };
    const repoRoot = repo(files);
    const project = detectDocsProject(repoRoot);
    const before = configPromises(repoRoot, project);
    expect(before.redirectSources).toEqual(["/old"]);
    const exists = (file: string) => (["index.mdx", "a.mdx", "c.mdx"] as string[]).includes(file);
    // b moved to c: its entry renamed is what keeps it.
    writeFileSync(`${repoRoot}/docs.json`, JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index", "a", "c"] }, redirects: [{ source: "/b", destination: "/c" }] }));
    const moved = [{ path: "c.mdx", status: "renamed" as const, from: "b.mdx" }];
    expect(brokenPromises(before, configPromises(repoRoot, project), moved, project, exists)).toEqual(["docs.json: the redirect from /old is gone: keep every redirect the site had (move_file adds the new ones)"]);
    writeFileSync(`${repoRoot}/docs.json`, JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index", "c"] }, redirects: { $ref: "./redirects.json" } }));
    expect(brokenPromises(before, configPromises(repoRoot, project), moved, project, exists)).toEqual(["docs.json: no longer lists 'a', a page that is still there: keep every navigation entry of a page that stays"]);
  });
});

describe("each framework's own rules, on the shapes real sites have", () => {
  /** Every page of the site taken as new, as bench:real-docs runs the gate. */
  const allNew = async (files: Record<string, string>) => {
    const repoRoot = repo(files);
    const project = detectDocsProject(repoRoot);
    const pages = Object.keys(files).filter((file) => /\.mdx?$/.test(file));
    return (await runGate({ repoRoot, project, changedThisRun: pages, branchChanges: pages.map((page) => ({ path: page, status: "added" as const })), maxProblems: Infinity })).problems;
  };

  it("Mintlify: redirects, folders and ignored files resolve as its checker has them; a missing snippet import and a bad anchor are caught", async () => {
    const problems = await allNew({
      "docs.json": JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index", "guides/index"] }, redirects: [{ source: "/old/:slug*", destination: "/guides/:slug*" }] }),
      ".mintignore": "drafts/\n",
      "index.mdx": "import Gone from '/snippets/gone.mdx'\n\n# Home\n\n[old](/old/setup) [folder](/guides) [bare](guides/index#start-here) <HeroCard href=\"/docs/elsewhere\" /> [bad](/guides#nope)\n",
      "guides/index.mdx": "## Start here\n",
      "drafts/wip.mdx": "<Broken\n",
    });
    expect(problems).toEqual([
      "index.mdx:1: import '/snippets/gone.mdx' does not resolve to a file in the repository",
      "index.mdx:5: link '/guides#nope': guides/index.mdx has no heading with the anchor #nope",
    ]);
  });

  it("Mintlify takes a badge's text into its heading's anchor; MkDocs with hooks leaves to the build only the ids a hook makes of a page's comment", async () => {
    expect(
      await allNew({
        "docs.json": JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["a"] } }),
        "a.mdx": '## ワークスペースの切り替え <Badge color="blue">Cloud</Badge>\n\n[switch](#ワークスペースの切り替え-cloud)\n',
      }),
    ).toEqual([]);
    expect(await allNew({ "mkdocs.yml": "site_name: Acme\nhooks:\n  - hooks/shortcodes.py\n", "docs/index.md": "# Home\n\n<!-- md:setting config.name -->\n\n[made by a hook](#config.name) [not](#config.title)\n" })).toEqual([
      "docs/index.md:5: link '#config.title': docs/index.md has no heading with the anchor #config.title",
    ]);
  });

  it("MkDocs: toc's own slugify (not pymdownx.tabbed's), raw HTML from the page's URL, blog posts listed by the plugin", async () => {
    const problems = await allNew({
      "mkdocs.yml": [
        "site_name: Acme",
        "plugins:",
        "  - blog",
        "markdown_extensions:",
        "  - pymdownx.tabbed:",
        "      slugify: !!python/object/apply:pymdownx.slugs.slugify",
        "  - toc:",
        "      slugify: !!python/object/apply:pymdownx.slugs.slugify",
        "        kwds:",
        "          case: lower",
        "nav:",
        "  - index.md",
        "  - setup/cards.md",
        "",
      ].join("\n"),
      "docs/index.md": "# Home\n\n## Usage Notes\n\n[usage](#usage-notes)\n\n!!! note\n\n    ## In a note\n\n[note](#in-a-note) [wrong](#nope)\n",
      "docs/setup/cards.md": "# Cards\n\n<img src=\"../../assets/card.png\">\n",
      "docs/assets/card.png": "",
      "docs/blog/posts/hello.md": "# Hello\n",
    });
    expect(problems).toEqual(["docs/index.md:11: link '#nope': docs/index.md has no heading with the anchor #nope"]);
  });

  it("VitePress: a sidebar group's base joins its links; rewrites map URLs to files; public/ files resolve", async () => {
    const problems = await allNew({
      ".vitepress/config.ts": "export default { rewrites: { 'en/:rest*': ':rest*' }, themeConfig: { sidebar: { '/reference/': { base: '/reference/default-theme-', items: [{ text: 'Badge', link: 'badge' }] } } } }\n",
      "en/reference/default-theme-badge.md": "# Badge {#the-badge}\n\nSee [home](/guide/start#install) and [file](/pure.html) and [self](#the-badge).\n",
      "en/guide/start.md": "## Install\n",
      "public/pure.html": "",
    });
    expect(problems).toEqual(["en/guide/start.md: new page is not in the navigation (.vitepress/config.ts): add it there"]);
  });

  it("Docusaurus: a generated category index and a folder whose pages are generated are not missing pages; Docusaurus 2 sites are not held to MDX 3", async () => {
    const problems = await allNew({
      "docusaurus.config.js": "module.exports = { baseUrl: '/' };\n",
      "package.json": JSON.stringify({ dependencies: { "@docusaurus/core": "^2.4.3" } }),
      "sidebars.js": "module.exports = { docs: [{ type: 'autogenerated', dirName: '.' }] };\n",
      "docs/intro.md": "# Intro\n\n<!-- an HTML comment MDX 1 allows -->\n\n[faq](/docs/category/faq) [cli](/docs/cli/defang) [gone](/docs/nowhere)\n",
      "docs/faq/_category_.json": JSON.stringify({ label: "FAQ", link: { type: "generated-index" } }),
      "docs/faq/one.md": "# One\n",
      "docs/cli/_category_.json": JSON.stringify({ label: "CLI" }),
    });
    expect(problems).toEqual(["docs/intro.md:5: link '/docs/nowhere' does not resolve to a file in the repository"]);
  });
});
