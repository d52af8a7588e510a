import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { navigationProblems, runGate } from "../../../../src/action/validation/gate.js";
import { analyzePage } from "../../../../src/action/validation/page.js";

const repo = (files: Record<string, string>) => writeRepo(files, "inkwell-gate-");

describe("page checks", () => {
  it.each([
    ["mintlify", "---\ntitle: [unclosed\n---\n", "a.mdx:2: frontmatter is not valid YAML"],
    ["mintlify", "---\ndescription: no title\n---\n", "a.mdx:1: Mintlify pages need a non-empty 'title'"],
    ["mintlify", "# No frontmatter\n", "a.mdx:1: Mintlify pages need frontmatter with a title"],
    ["docusaurus", "---\nsidebar_position: first\n---\n", "a.mdx:2: frontmatter field 'sidebar_position' must be a number"],
    ["docusaurus", "---\n- a\n- b\n---\n", "a.mdx:1: frontmatter must be a YAML mapping"],
    ["docusaurus", "Hello <Tabs>\n", "a.mdx:1:1: does not compile as MDX: Expected a closing tag for `<Tabs>`"],
  ] as const)("%s: %j", async (framework, text, problem) => {
    const { problems } = await analyzePage("a.mdx", text, framework);
    expect(problems.join("\n")).toContain(problem);
  });

  it("treats .md as plain Markdown where the framework does (MkDocs): braces and tags are text", async () => {
    expect((await analyzePage("a.md", "# Title {#custom}\n\nA {brace} and <b>tag.\n", "mkdocs")).problems).toEqual([]);
    expect([...(await analyzePage("a.md", "# Title {#custom}\n\n## Two words\n", "mkdocs")).anchors]).toEqual(["custom", "two-words"]);
  });
});

describe("the gate on MkDocs and VitePress", () => {
  it("MkDocs: nav entries must exist and new pages must be in nav; relative links resolve", async () => {
    const root = repo({
      "mkdocs.yml": "site_name: Acme\nnav:\n  - Home: index.md\n  - Guide: guide.md\n  - Gone: gone.md\n",
      "docs/index.md": "# Home\n",
      "docs/guide.md": "# Guide\n\nSee [home](index.md#home) and [missing](nope.md).\n",
      "docs/new.md": "# New\n",
    });
    const project = detectDocsProject(root);
    const known = new Set(navigationProblems({ repoRoot: root, project, branchChanges: [], knownNavigationProblems: new Set() }));
    expect([...known]).toEqual(["mkdocs.yml: lists 'docs/gone.md' but there is no such page"]);
    const result = await runGate({
      repoRoot: root,
      project,
      changedThisRun: ["docs/guide.md", "docs/new.md"],
      branchChanges: [
        { path: "docs/guide.md", status: "modified" },
        { path: "docs/new.md", status: "added" },
      ],
      knownNavigationProblems: known,
    });
    expect(result.problems).toEqual(["docs/guide.md:3: link 'nope.md' does not resolve to a file in the repository", "docs/new.md: new page is not in the navigation (mkdocs.yml): add it there"]);
  });

  it("VitePress: a new page is reachable when the config links it", async () => {
    const root = repo({
      ".vitepress/config.mts": "export default { themeConfig: { sidebar: [{ text: 'Guide', link: '/guide/setup' }] } }\n",
      "guide/setup.md": "# Setup\n\n[Back](/)\n",
      "index.md": "# Home\n",
      "guide/other.md": "# Other\n",
    });
    const project = detectDocsProject(root);
    const gate = (file: string) => runGate({ repoRoot: root, project, changedThisRun: [file], branchChanges: [{ path: file, status: "added" }], knownNavigationProblems: new Set() });
    expect((await gate("guide/setup.md")).passed).toBe(true);
    expect((await gate("guide/other.md")).problems).toEqual(["guide/other.md: new page is not in the navigation (.vitepress/config.mts): add it there"]);
  });
});
