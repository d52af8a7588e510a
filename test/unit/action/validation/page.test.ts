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

  it("MDX 3: imports in module code, each with its line", async () => {
    const { links } = await analyzePage("page.mdx", "import A from '/snippets/a.mdx'\nimport B from \"./b.mdx\"\n\n# Title\n", "mintlify");
    expect(links.filter((link) => link.kind === "import")).toEqual([
      { url: "/snippets/a.mdx", line: 1, kind: "import" },
      { url: "./b.mdx", line: 2, kind: "import" },
    ]);
  });
});
