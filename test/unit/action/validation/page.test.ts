import { describe, expect, it } from "vitest";
import { analyzePage } from "../../../../src/action/validation/page.js";

describe("a page's imports", () => {
  it("MDX 1 (Docusaurus 2): a top-level import block is module code, its local imports are checked, each on its own line; code and prose are not", async () => {
    const text = "---\ntitle: Check\n---\n\nimport Tabs from '@theme/Tabs';\nimport Partial from './_partial.mdx';\n\n<Partial />\n\n```js\nimport X from './_not-read.mdx';\n```\n\nimport this from './prose' is a sentence? No: it starts a block, so MDX 1 reads it as code.\n";
    const { links } = await analyzePage("docs/page.md", text, "docusaurus", { mdx1: true });
    expect(links.filter((link) => link.kind === "import")).toEqual([
      { url: "./_partial.mdx", line: 6, kind: "import" },
      { url: "./prose", line: 14, kind: "import" },
    ]);
  });

  it("an import's specifier is a JavaScript string: its escapes are decoded (Prettier's `./\\_shared` is ./_shared), in MDX 3 and MDX 1 alike", async () => {
    const text = "import Shared from './\\_shared/config.mdx';\nimport Other from \"../x\\u002Fy.md\";\nimport Quote from './it\\'s.mdx';\n\n# Title\n\n<Shared />\n";
    const expected = [
      { url: "./_shared/config.mdx", line: 1, kind: "import" },
      { url: "../x/y.md", line: 2, kind: "import" },
      { url: "./it's.mdx", line: 3, kind: "import" },
    ];
    expect((await analyzePage("docs/page.mdx", text, "docusaurus")).links.filter((link) => link.kind === "import")).toEqual(expected);
    expect((await analyzePage("docs/page.md", text, "docusaurus", { mdx1: true })).links.filter((link) => link.kind === "import")).toEqual(expected);
  });

  it("MDX 3: imports in module code, each with its line", async () => {
    const { links } = await analyzePage("page.mdx", "import A from '/snippets/a.mdx'\nimport B from \"./b.mdx\"\n\n# Title\n", "mintlify");
    expect(links.filter((link) => link.kind === "import")).toEqual([
      { url: "/snippets/a.mdx", line: 1, kind: "import" },
      { url: "./b.mdx", line: 2, kind: "import" },
    ]);
  });
});

describe("Docusaurus' MDX settings (@docusaurus/mdx-loader)", () => {
  it("a heading's id takes the text of an inline element in it (Docusaurus 3's headings plugin); on Markdown pages (format md, Docusaurus 2) a tag is raw HTML and adds nothing", async () => {
    const text = '## `retryLimit` <span className="tag beta">Beta</span>\n\n### `timeout: number` <Pill />\n';
    expect([...(await analyzePage("docs/a.md", text, "docusaurus")).anchors]).toEqual(["retrylimit-beta", "timeout-number-"]);
    const markdown = '## `retryLimit` <span class="tag beta">Beta</span>\n';
    expect([...(await analyzePage("docs/a.md", markdown, "docusaurus", { format: "md" })).anchors]).toEqual(["retrylimit-beta"]);
    expect([...(await analyzePage("docs/a.md", markdown, "docusaurus", { mdx1: true })).anchors]).toEqual(["retrylimit-beta"]);
  });

  const withComment = "# Title\n\n<!-- prettier-ignore -->\n| a | b |\n| - | - |\n\n## After\n";

  it("mdx1Compat.comments (the default): an HTML comment in MDX is a comment; turned off, it is MDX's error", async () => {
    const on = await analyzePage("docs/a.md", withComment, "docusaurus");
    expect(on.problems).toEqual([]);
    expect([...on.anchors]).toEqual(["title", "after"]);
    const off = await analyzePage("docs/a.md", withComment, "docusaurus", { mdxComments: false });
    expect(off.problems).toEqual([expect.stringMatching(/^docs\/a\.md:3:2: does not compile as MDX: Unexpected character `!`/)]);
  });

  it("format: md reads even .mdx as CommonMark; a page's frontmatter format wins over the site's", async () => {
    expect((await analyzePage("docs/a.mdx", "# A {set of} braces <b>\n", "docusaurus", { format: "md" })).problems).toEqual([]);
    expect((await analyzePage("docs/a.md", "---\nformat: md\n---\n# A {set of} braces\n", "docusaurus", { format: "mdx" })).problems).toEqual([]);
    expect((await analyzePage("docs/a.md", "---\nformat: mdx\n---\n# A {set of} braces\n", "docusaurus", { format: "detect" })).problems).toEqual([expect.stringContaining("does not compile as MDX")]);
  });

  it("mdx-code-block fences are unwrapped: their JSX is the page's, their headings anchors, their lines where they were", async () => {
    const text = "# Tabs\n\n```mdx-code-block\n<Tabs>\n<TabItem value=\"npm\">\n```\n\n## With npm\n\n[bad](#nope)\n\n```mdx-code-block\n</TabItem>\n<TabItem value=\"yarn\">\n\n## With yarn\n\n[also](#gone)\n\n</TabItem>\n</Tabs>\n```\n";
    const page = await analyzePage("docs/a.md", text, "docusaurus");
    expect(page.problems).toEqual([]);
    expect([...page.anchors]).toEqual(["tabs", "with-npm", "with-yarn"]);
    expect(page.links).toEqual([
      { url: "#nope", line: 10, kind: "page" },
      { url: "#gone", line: 18, kind: "page" },
    ]);
  });
});

describe("MkDocs: ids not in headings", () => {
  const tabs = { lower: true, combineHeaderSlug: true, separator: "-" };
  const text = '# Setup\n\n### Logo\n\n=== ":octicons-image-16: Image"\n\n    An image.\n\n=== "Icon, *bundled*"\n\n    An icon.\n\n```\n=== "In code"\n```\n\n=== "Logo"\n\n    Again.\n';

  it("pymdownx.tabbed with a slugify: each tab's slugged title after its heading's id, unique as toc makes ids; none in code", async () => {
    expect([...(await analyzePage("docs/a.md", text, "mkdocs", { mkdocsTabs: tabs })).anchors]).toEqual(["setup", "logo", "logo-image", "logo-icon-bundled", "logo-logo"]);
    expect([...(await analyzePage("docs/a.md", text, "mkdocs", { mkdocsTabs: { ...tabs, combineHeaderSlug: false } })).anchors]).toEqual(["setup", "logo", "image", "icon-bundled", "logo_1"]);
    expect([...(await analyzePage("docs/a.md", text, "mkdocs")).anchors]).toEqual(["setup", "logo"]);
  });

  it("the words of a page's HTML comments, where a hook may find an id to make", async () => {
    const page = await analyzePage("docs/a.md", "# A\n\n<!-- md:setting config.name -->\n<!--\n  md:option type:note\n-->\n", "mkdocs");
    expect([...(page.commentWords ?? [])]).toEqual(["md:setting", "config.name", "md:option", "type:note"]);
  });
});

describe("VitePress' markdown options (markdown-it-attrs, markdown-it-anchor)", () => {
  const page = "# Store %{#store}%\n\n## State Tree %{#statetree .api}%\n\n## Getters\n\n::: tip Note %{#note}%\n:::\n";

  it("attrs with its own delimiters: `%{#id}%` is the heading's id (and its text no part of the slug)", async () => {
    const { anchors, generated } = await analyzePage("api.md", page, "vitepress", { attrsDelimiters: { left: "%{", right: "}%" } });
    expect([...anchors].sort()).toEqual(["getters", "note", "statetree", "store"]);
    expect(generated).toBe(false);
    // With the default delimiters the same text is part of the heading.
    expect([...(await analyzePage("api.md", page, "vitepress")).anchors]).toContain("state-tree-statetree-api");
  });

  it("a slugify of the site's: a heading without an explicit id has an id the gate cannot know, so the page's anchors are not all known", async () => {
    const rules = { attrsDelimiters: { left: "%{", right: "}%" }, customSlugify: true };
    expect((await analyzePage("api.md", page, "vitepress", rules)).generated).toBe(true);
    const allExplicit = "# Store %{#store}%\n\n## State Tree %{#statetree}%\n";
    expect((await analyzePage("api.md", allExplicit, "vitepress", rules)).generated).toBe(false);
  });
});

describe("frontmatter as each framework's parser reads it", () => {
  const continued = '---\ntitle: "REST API"\ndescription: "\nTwo APIs, one page."\n---\n\n# REST API\n';

  it("Mintlify, Docusaurus and VitePress read it with js-yaml: a quoted string continued on a less indented line is valid", async () => {
    for (const framework of ["mintlify", "docusaurus", "vitepress"] as const) expect((await analyzePage(framework === "mintlify" ? "api.mdx" : "api.md", continued, framework)).problems).toEqual([]);
    expect((await analyzePage("bad.mdx", '---\ntitle: "open\n---\n', "mintlify")).problems[0]).toMatch(/^bad\.mdx:\d+: frontmatter is not valid YAML: /);
  });

  it("MkDocs reads it with PyYAML's rules, as before", async () => {
    expect((await analyzePage("api.md", continued, "mkdocs")).problems[0]).toMatch(/frontmatter is not valid YAML/);
  });
  it("Mintlify shows a number title as written (it checks no type); a list is no title; Docusaurus' schema refuses a number", async () => {
    expect((await analyzePage("notes/3-1.mdx", "---\ntitle: 3.1\n---\n\nText.\n", "mintlify")).problems).toEqual([]);
    expect((await analyzePage("notes/list.mdx", "---\ntitle: [a, b]\n---\n\nText.\n", "mintlify")).problems).toEqual(["notes/list.mdx:2: frontmatter field 'title' must be a string"]);
    expect((await analyzePage("docs/3-1.md", "---\ntitle: 3.1\n---\n\nText.\n", "docusaurus")).problems).toEqual(["docs/3-1.md:2: frontmatter field 'title' must be a string"]);
  });
});

describe("VitePress: a page made of Vue components", () => {
  it("with no heading of its own, its ids are the components' (generated); with a heading, or a component only in code, they are the gate's", async () => {
    expect((await analyzePage("api/index.md", "---\npage: true\n---\n\n<script setup>\nimport ApiIndex from './ApiIndex.vue'\n</script>\n\n<ApiIndex />\n", "vitepress")).generated).toBe(true);
    expect((await analyzePage("examples.md", "<ClientOnly>\n  <example-repl />\n</ClientOnly>\n", "vitepress")).generated).toBe(true);
    expect((await analyzePage("guide.md", "# Guide\n\n<ApiIndex />\n", "vitepress")).generated).toBe(false);
    expect((await analyzePage("code.md", "Text.\n\n```vue\n<ApiIndex />\n```\n", "vitepress")).generated).toBe(false);
  });
});
