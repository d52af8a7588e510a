import { describe, expect, it } from "vitest";
import { headingSlugger, mintlifySlug, pythonMarkdownSlug, pymdownxSlug } from "../../../../src/action/docs/anchors.js";
import { analyzePage } from "../../../../src/action/validation/page.js";

/** Each framework's anchors for the same headings, as its own code makes them (anchors.ts cites where). */
const slugs = (framework: Parameters<typeof headingSlugger>[0], headings: string[], options = {}) => {
  const slugger = headingSlugger(framework, options);
  return headings.map((heading) => slugger.slug(heading, 2));
};

describe("heading anchors, framework by framework", () => {
  const headings = ["Café au lait", "What is foo?", "Foo.bar (baz)", "C++ API", "日本語 見出し", "Setup", "Setup", "config.yml options"];

  it("Mintlify: Unicode kept, punctuation dropped, repeats numbered from 2; h5 and h6 have none", () => {
    expect(slugs("mintlify", headings)).toEqual(["café-au-lait", "what-is-foo", "foo-bar-baz", "c++-api", "日本語-見出し", "setup", "setup-2", "config-yml-options"]);
    expect(headingSlugger("mintlify").slug("Deep", 5)).toBeNull();
    expect(mintlifySlug("A & B")).toBe("a-&-b");
  });

  it("VitePress: accents folded, a leading digit escaped, repeats numbered from 1", () => {
    expect(slugs("vitepress", ["Café", "2024 release", "Setup", "Setup"])).toEqual(["cafe", "_2024-release", "setup", "setup-1"]);
  });

  it("MkDocs: Python-Markdown's ASCII slugs and _1 repeats; pymdownx.slugs keeps Unicode", () => {
    expect(slugs("mkdocs", ["Café au lait", "日本語", "日本語", "Setup", "Setup"])).toEqual(["cafe-au-lait", "_1", "_2", "setup", "setup_1"]);
    expect(pythonMarkdownSlug("A & B -- C_d")).toBe("a-b-c_d");
    expect(pymdownxSlug("A & B -- C_d", true)).toBe("a--b----c_d");
  });

  it("Docusaurus: github-slugger", () => {
    expect(slugs("docusaurus", ["What's new? (v2.0)", "Setup", "Setup"])).toEqual(["whats-new-v20", "setup", "setup-1"]);
  });
});

describe("ids a page makes besides its headings", () => {
  it("Mintlify: {#id} on a heading, ParamField and Accordion ids, raw HTML ids; imports of files are links", async () => {
    const page = [
      "import Note from '/snippets/note.mdx'",
      "",
      "## Custom {#my-id}",
      "",
      '<ParamField path="user_id" type="string">The user</ParamField>',
      "",
      '<ParamField body="orgId" type="string">',
      "The org",
      "</ParamField>",
      "",
      '<Accordion title="Why: the reason">',
      "Text",
      "</Accordion>",
      "",
      '<div id="raw-id">x</div>',
    ].join("\n");
    const analysis = await analyzePage("a.mdx", page, "mintlify");
    expect(analysis.problems).toEqual([]);
    expect([...analysis.anchors]).toEqual(expect.arrayContaining(["my-id", "param-user-id", "param-org-id", "why-the-reason", "raw-id"]));
    expect(analysis.links).toContainEqual({ url: "/snippets/note.mdx", line: 1, kind: "import" });
  });

  it("MkDocs: attr_list ids on headings and elsewhere, footnotes; raw HTML links are links", async () => {
    const page = "# Title { #top .big }\n\nA paragraph.\n{: #para }\n\nText[^note].\n\n[^note]: A note.\n\n<a href=\"other.md\">other</a> <img src=\"img/x.png\">\n";
    const analysis = await analyzePage("a.md", page, "mkdocs");
    expect([...analysis.anchors]).toEqual(expect.arrayContaining(["top", "para", "fn:note", "fnref:note"]));
    expect(analysis.links).toEqual(expect.arrayContaining([{ url: "other.md", line: 10, kind: "page", raw: true }, { url: "img/x.png", line: 10, kind: "asset", raw: true }]));
  });
});
