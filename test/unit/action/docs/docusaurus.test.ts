import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import {
  docsPluginInstances,
  docusaurusDocId,
  docusaurusMarkdown,
  docusaurusPageFormat,
  docusaurusSidebarPath,
  docusaurusVersions,
  installedDocusaurusVersion,
  isCategoryIndex,
  numberPrefixesOff,
  objectLiterals,
  readSidebars,
  sidebarLists,
  stripNumberPrefix,
  unwrapMdxCodeBlocks,
  withoutJsComments,
} from "../../../../src/action/docs/docusaurus.js";

describe("doc ids, as plugin-content-docs makes them", () => {
  it("number prefixes: `01-x`, `003 - x`, `2_x` lose theirs; versions and dates keep theirs (numberPrefix.ts)", () => {
    expect(["01-intro", "003 - My Doc", "2_setup", "1.guide", "7.0-release", "2021-11-notes", "1-", "42"].map(stripNumberPrefix)).toEqual(["intro", "My Doc", "setup", "guide", "7.0-release", "2021-11-notes", "1-", "42"]);
  });

  it("the folder without number prefixes, then the frontmatter id or the file name without its prefix; parse_number_prefixes: false keeps them", () => {
    expect(docusaurusDocId("02-guides/01-setup/03-install.md", {})).toBe("guides/setup/install");
    expect(docusaurusDocId("02-guides/GettingStarted.mdx", { id: "getting-started" })).toBe("guides/getting-started");
    expect(docusaurusDocId("02-guides/03-deploy.md", { parse_number_prefixes: false })).toBe("02-guides/03-deploy");
    expect(docusaurusDocId("01-intro.md", {}, false)).toBe("01-intro");
    expect(docusaurusDocId("faq.md", { id: "questions" })).toBe("questions");
  });

  it("a folder's index page: index, README, or named like its folder as written", () => {
    expect(["guides/index.md", "guides/README.mdx", "guides/guides.md", "02-guides/guides.md", "index.md", "guides/setup.md"].map(isCategoryIndex)).toEqual([true, true, true, false, true, false]);
  });
});

describe("the config's markdown settings", () => {
  it("defaults: every page MDX, HTML comments taken (mdx1Compat.comments)", () => {
    expect(docusaurusMarkdown("export default { title: 'Acme' };")).toEqual({ format: "mdx", mdxComments: true });
  });

  it("format and mdx1Compat as the site writes them; future v4 turns the mdx1Compat defaults off, an explicit flag wins", () => {
    expect(docusaurusMarkdown("export default { markdown: { format: 'detect', mermaid: true } };")).toEqual({ format: "detect", mdxComments: true });
    expect(docusaurusMarkdown("export default { markdown: { mdx1Compat: { comments: false, admonitions: true } } };")).toEqual({ format: "mdx", mdxComments: false });
    expect(docusaurusMarkdown("export default { future: { v4: true } };")).toEqual({ format: "mdx", mdxComments: false });
    expect(docusaurusMarkdown("export default { future: { v4: { mdx1CompatDisabledByDefault: true } } };")).toEqual({ format: "mdx", mdxComments: false });
    expect(docusaurusMarkdown("export default { future: { v4: true }, markdown: { mdx1Compat: { comments: true } } };")).toEqual({ format: "mdx", mdxComments: true });
    // mdx1CompatDisabledByDefault came with 3.10: on 3.9 `v4: true` leaves the comments on.
    expect(docusaurusMarkdown("export default { future: { v4: true } };", [3, 9])).toEqual({ format: "mdx", mdxComments: true });
    expect(docusaurusMarkdown("export default { future: { v4: true } };", [3, 10])).toEqual({ format: "mdx", mdxComments: false });
    // Another option's `format` (a blog feed's) is not the markdown format.
    expect(docusaurusMarkdown("export default { presets: [['classic', { blog: { feedOptions: { type: 'all' }, format: 'md' } }]] };").format).toBe("mdx");
  });

  it("a page's format: its frontmatter's over the site's; detect reads .md as CommonMark (mdx-loader format.ts)", () => {
    expect(docusaurusPageFormat("a.md", "mdx", undefined)).toBe("mdx");
    expect(docusaurusPageFormat("a.mdx", "md", undefined)).toBe("md");
    expect(docusaurusPageFormat("a.md", "detect", undefined)).toBe("md");
    expect(docusaurusPageFormat("a.mdx", "detect", undefined)).toBe("mdx");
    expect(docusaurusPageFormat("a.md", "detect", "mdx")).toBe("mdx");
    expect(docusaurusPageFormat("a.mdx", "mdx", "detect")).toBe("mdx");
    expect(docusaurusPageFormat("a.md", "mdx", "nonsense")).toBe("mdx");
  });

  it("mdx-code-block fences are unwrapped, every line keeping its number", () => {
    const text = "# A\n\n```mdx-code-block\n<Tabs>\n```\n\ntext\n\n````mdx-code-block\n</Tabs>\n````\n\n```js\ncode\n```\n";
    const unwrapped = unwrapMdxCodeBlocks(text);
    expect(unwrapped.split("\n")).toHaveLength(text.split("\n").length);
    expect(unwrapped).not.toContain("mdx-code-block");
    expect(unwrapped.split("\n")[3]).toBe("<Tabs>");
    expect(unwrapped).toContain("```js\ncode\n```");
  });

  it("the docs options: sidebarPath in its written forms, numberPrefixParser: false, themeConfig's docs block ignored", () => {
    expect(docusaurusSidebarPath("presets: [['classic', { docs: { sidebarPath: require.resolve('./sidebars.js') } }]]")).toBe("sidebars.js");
    expect(docusaurusSidebarPath("docs: { path: '../docs', sidebarPath: path.resolve(__dirname, './sidebars.json') }")).toBe("sidebars.json");
    expect(docusaurusSidebarPath("docs: { sidebarPath: './config/sidebars.ts', editUrl: 'x' }")).toBe("config/sidebars.ts");
    expect(docusaurusSidebarPath("docs: { sidebarPath: false }")).toBe(false);
    expect(docusaurusSidebarPath("themeConfig: { docs: { sidebar: { hideable: true } } }")).toBeUndefined();
    expect(numberPrefixesOff("docs: { numberPrefixParser: false }")).toBe(true);
    expect(numberPrefixesOff("docs: { path: 'docs' }")).toBe(false);
    expect(objectLiterals("a: { b: '}', c: { d: 1 } } // a: {\n", "a")).toEqual([" b: '}', c: { d: 1 } "]);
  });
});

describe("sidebars, as Docusaurus normalizes them", () => {
  it("JSON: string items, doc and ref items, a category's doc link, shorthand categories and autogenerated folders; links and html are no ids", () => {
    const repoRoot = writeRepo({
      "sidebars.json": JSON.stringify({
        docs: ["intro", { type: "category", label: "Guides", link: { type: "doc", id: "guides/index" }, items: [{ type: "doc", id: "guides/setup" }, { type: "ref", id: "api/cli" }, { type: "link", label: "Site", href: "https://acme.dev" }, { type: "html", value: "<hr>" }] }],
        api: { Reference: ["api/rest", { Deep: ["api/deep"] }] },
        auto: [{ type: "autogenerated", dirName: "02-tutorials" }],
      }),
    });
    const listing = readSidebars(repoRoot, "sidebars.json", ".");
    expect([...(listing?.ids ?? [])].sort()).toEqual(["api/cli", "api/deep", "api/rest", "guides/index", "guides/setup", "intro"]);
    expect(listing?.autogenerated).toEqual(["02-tutorials"]);
  });

  it("JS and TS: read as text with the local modules they import; an autogenerated item's own dirName (not a nested object's), without one everything", () => {
    const repoRoot = writeRepo({
      "website/sidebars.ts": [
        "import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';",
        "import api from './sidebars/api';",
        "const guides = require('@site/sidebars/guides.json');",
        "// 'commented-out' is no id",
        "const sidebars: SidebarsConfig = {",
        "  docs: ['intro', {type: 'category', label: 'Guides', items: guides}, {type: \"autogenerated\", customProps: {dirName: 'not-this'}, dirName: 'tutorials'}],",
        "  api,",
        "};",
        "export default sidebars;",
        "",
      ].join("\n"),
      "website/sidebars/api.ts": "export default [{ type: 'doc', id: 'api/rest' }, { type: 'autogenerated' }];\n",
      "website/sidebars/guides.json": JSON.stringify(["guides/setup"]),
    });
    const listing = readSidebars(repoRoot, "website/sidebars.ts", "website");
    expect(listing?.ids).toEqual(expect.any(Set));
    for (const id of ["intro", "api/rest", "guides/setup"]) expect(listing?.ids.has(id), id).toBe(true);
    expect(listing?.ids.has("commented-out")).toBe(false);
    expect(listing?.autogenerated).toEqual(["tutorials", "."]);
  });

  it("code that builds ids, or a local module the repository does not have, makes the listing unknown (null)", () => {
    const repoRoot = writeRepo({
      "built.js": "module.exports = { docs: ['a', 'b'].map((name) => `guides/${name}`) };\n",
      "joined.js": "module.exports = { docs: ['guides/' + 'a'] };\n",
      "generated.js": "module.exports = { docs: require('./docs/api/sidebar.js') };\n",
    });
    expect(readSidebars(repoRoot, "built.js", ".")).toBeNull();
    expect(readSidebars(repoRoot, "joined.js", ".")).toBeNull();
    expect(readSidebars(repoRoot, "generated.js", ".")).toBeNull();
  });

  it("a listing lists a doc by id, or by an autogenerated folder as written (not a folder that only starts the same)", () => {
    const listing = { ids: new Set(["guides/setup"]), autogenerated: ["02-api"], fromCode: false };
    expect(sidebarLists(listing, "guides/setup", "02-guides/setup.md")).toBe(true);
    expect(sidebarLists(listing, "api/rest", "02-api/rest.md")).toBe(true);
    expect(sidebarLists(listing, "api/v2/rest", "02-api/v2/rest.md")).toBe(true);
    expect(sidebarLists(listing, "api2/rest", "02-api2/rest.md")).toBe(false);
    expect(sidebarLists(listing, "api/rest", "api/rest.md")).toBe(false);
    expect(sidebarLists({ ...listing, autogenerated: ["./"] }, "anything", "deep/anything.md")).toBe(true);
  });
});

describe("generated-index categories a sidebars file declares", () => {
  it("JSON: each category whose link is a generated index, with its label and slug if it has one; a doc link is an id", () => {
    const repoRoot = writeRepo({
      "sidebars.json": JSON.stringify({
        docs: [
          { type: "category", label: "User Guide", link: { type: "generated-index" }, items: ["guide/start", { type: "category", label: "Deep Dive", link: { type: "generated-index", slug: "/deep" }, items: ["guide/deep"] }] },
          { type: "category", label: "API", link: { type: "doc", id: "api/index" }, items: ["api/rest"] },
        ],
      }),
    });
    const listing = readSidebars(repoRoot, "sidebars.json", ".");
    expect(listing?.generatedIndexes).toEqual([{ label: "User Guide" }, { label: "Deep Dive", slug: "/deep" }]);
    expect(listing?.ids.has("api/index")).toBe(true);
  });

  it("JS: the label is the category's (the object around `link`), the slug the link's own; a label built by code is not known", () => {
    const repoRoot = writeRepo({
      "sidebars.js": [
        "module.exports = {",
        "  docs: [",
        "    { type: 'category', label: 'Developer Guide', link: { type: 'generated-index', description: 'All of it' }, items: [",
        "      { type: 'category', label: 'Mobile SDKs', collapsed: true, link: { type: \"generated-index\", slug: '/sdks' }, items: ['dev/ios'] },",
        "    ] },",
        "    { type: 'category', label: translate({ message: 'Elsewhere' }), link: { type: 'generated-index' }, items: ['x'] },",
        "  ],",
        "};",
        "",
      ].join("\n"),
    });
    expect(readSidebars(repoRoot, "sidebars.js", ".")?.generatedIndexes).toEqual([{ label: "Developer Guide" }, { label: "Mobile SDKs", slug: "/sdks" }]);
  });
});

describe("the docs' versions (plugin-content-docs versions/)", () => {
  const site = (config: string, versions?: string[]) => writeRepo({ "docusaurus.config.js": config, ...(versions ? { "versions.json": JSON.stringify(versions) } : {}) });
  const paths = (repoRoot: string, config: string) => docusaurusVersions(repoRoot, ".", "docs", config, "sidebars.js").map((version) => [version.name, version.path, version.contentDir]);

  it("without versions.json only the current docs, at the docs root", () => {
    const config = "module.exports = { presets: [['classic', { docs: {} }]] };";
    expect(paths(site(config), config)).toEqual([["current", "", "docs"]]);
  });

  it("the last version (versions.json's first) at the root, the current one at next, the others at their names", () => {
    const config = "module.exports = { presets: [['classic', { docs: {} }]] };";
    expect(paths(site(config, ["2.x", "1.x"]), config)).toEqual([
      ["current", "next", "docs"],
      ["2.x", "", "versioned_docs/version-2.x"],
      ["1.x", "1.x", "versioned_docs/version-1.x"],
    ]);
  });

  it("lastVersion moves the root; a version's own path wins; includeCurrentVersion and onlyIncludeVersions leave versions out", () => {
    const config = "module.exports = { presets: [['classic', { docs: { lastVersion: 'current', versions: { current: { label: '3.x' }, '1.x': { path: 'legacy' } } } }]] };";
    expect(paths(site(config, ["2.x", "1.x"]), config)).toEqual([
      ["current", "", "docs"],
      ["2.x", "2.x", "versioned_docs/version-2.x"],
      ["1.x", "legacy", "versioned_docs/version-1.x"],
    ]);
    const only = "module.exports = { presets: [['classic', { docs: { includeCurrentVersion: false, onlyIncludeVersions: ['1.x'] } }]] };";
    // The last version is chosen among the versions kept: 1.x, so at the root.
    expect(paths(site(only, ["2.x", "1.x"]), only)).toEqual([["1.x", "", "versioned_docs/version-1.x"]]);
    expect(docusaurusVersions(site(config, ["2.x"]), ".", "docs", config, "sidebars.js")[1]?.sidebars).toBe("versioned_sidebars/version-2.x-sidebars.json");
  });
});

describe("the @docusaurus/core a site builds with", () => {
  it("the lockfile's resolved version (the site's folder or above it), else the lowest the package.json range allows", () => {
    const berry = '"@docusaurus/core@npm:3.9.2, @docusaurus/core@npm:^3.9.2":\n  version: 3.9.2\n  resolution: "@docusaurus/core@npm:3.9.2"\n';
    expect(installedDocusaurusVersion(writeRepo({ "yarn.lock": berry, "website/package.json": JSON.stringify({ dependencies: { "@docusaurus/core": "^3.8.0" } }) }), "website")).toEqual([3, 9]);
    const classic = '"@docusaurus/core@^3.5.0":\n  version "3.10.1"\n';
    expect(installedDocusaurusVersion(writeRepo({ "yarn.lock": classic }), ".")).toEqual([3, 10]);
    const npm = JSON.stringify({ lockfileVersion: 3, packages: { "": {}, "node_modules/@docusaurus/core": { version: "3.7.0" } } });
    expect(installedDocusaurusVersion(writeRepo({ "package-lock.json": npm }), ".")).toEqual([3, 7]);
    expect(installedDocusaurusVersion(writeRepo({ "package.json": JSON.stringify({ dependencies: { "@docusaurus/core": "^3.9.2" } }), "yarn.lock": "" }), ".")).toEqual([3, 9]);
    expect(installedDocusaurusVersion(writeRepo({ "docusaurus.config.js": "" }), ".")).toBeNull();
  });
});

describe("the config read as code: comments and every docs plugin instance", () => {
  it("comments are blanked (lines kept), strings untouched: a commented-out version path is no path", () => {
    expect(withoutJsComments("a: 1, // path: 'v10'\nb: 'http://x' /* c */")).toBe("a: 1,               \nb: 'http://x'        ");
    const repoRoot = writeRepo({ "versions.json": JSON.stringify(["2.x"]) });
    const config = "presets: [['classic', { docs: { lastVersion: 'current', versions: { current: {\n  label: '3.x',\n  // path: 'v2',\n}, '2.x': { path: 'v2' } } } }]]";
    expect(docusaurusVersions(repoRoot, ".", "docs", config, "sidebars.js").map((version) => [version.name, version.path])).toEqual([["current", ""], ["2.x", "v2"]]);
  });

  it("the preset's docs and each plugin-content-docs, options in place or in a constant; a plugin without an id is default; docs: false has no preset instance", () => {
    const config = [
      "const guideOptions = { id: 'guide', path: 'guide', routeBasePath: 'guide', sidebarPath: './sidebars-guide.js' };",
      "export default {",
      "  presets: [['classic', { docs: { path: 'docs', routeBasePath: '/docs' } }]],",
      "  plugins: [",
      "    ['@docusaurus/plugin-content-docs', { id: 'community', path: 'community', routeBasePath: 'community', sidebarPath: require.resolve('./sidebarsCommunity.js') }],",
      "    ['@docusaurus/plugin-content-docs', guideOptions],",
      "  ],",
      "};",
    ].join("\n");
    expect(docsPluginInstances(config).map(({ id, preset }) => [id, preset])).toEqual([["default", true], ["community", false], ["guide", false]]);
    expect(docsPluginInstances(config)[2]?.options).toContain("sidebars-guide.js");
    expect(docsPluginInstances("import type { Options } from '@docusaurus/plugin-content-docs';\nexport default { presets: [['classic', { docs: false }]], plugins: [['@docusaurus/plugin-content-docs', { path: 'api' }]] };").map(({ id, preset }) => [id, preset])).toEqual([["default", false]]);
  });

  it("an instance other than default keeps its versions in <id>_versions.json, <id>_versioned_docs and <id>_versioned_sidebars", () => {
    const repoRoot = writeRepo({ "community_versions.json": JSON.stringify(["1.0"]), "versions.json": JSON.stringify(["9.9"]) });
    expect(docusaurusVersions(repoRoot, ".", "community", "", "sidebarsCommunity.js", { id: "community", options: "path: 'community'" })).toEqual([
      { name: "current", contentDir: "community", sidebars: "sidebarsCommunity.js", path: "next" },
      { name: "1.0", contentDir: "community_versioned_docs/version-1.0", sidebars: "community_versioned_sidebars/version-1.0-sidebars.json", path: "" },
    ]);
  });

  it("a code sidebar whose items take their id from an expression (`id: rule.name`) lists what the gate cannot know", () => {
    const repoRoot = writeRepo({ "sidebars.js": "const plugin = require('some-plugin');\nmodule.exports = { rules: ['README', ...Object.keys(plugin.rules).map((name) => ({ type: 'doc', id: name }))] };\n" });
    expect(readSidebars(repoRoot, "sidebars.js", ".")).toBeNull();
  });
});
