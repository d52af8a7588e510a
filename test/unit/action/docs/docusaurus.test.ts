import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import {
  docusaurusDocId,
  docusaurusMarkdown,
  docusaurusPageFormat,
  docusaurusSidebarPath,
  isCategoryIndex,
  numberPrefixesOff,
  objectLiterals,
  readSidebars,
  sidebarLists,
  stripNumberPrefix,
  unwrapMdxCodeBlocks,
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
