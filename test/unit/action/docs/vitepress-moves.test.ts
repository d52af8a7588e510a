import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { vitepressMove } from "../../../../src/action/docs/vitepress-moves.js";
import type { DocsWorkspace } from "../../../../src/action/sandbox/workspace.js";

function site(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "inkwell-vitepress-move-"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** The workspace's file calls, on a folder (the tools' checks are the workspace's own tests). */
const workspaceOf = (root: string) =>
  ({
    repoRoot: root,
    read: async (file: string) => readFileSync(path.join(root, file), "utf8"),
    write: async (file: string, text: string) => writeFileSync(path.join(root, file), text),
    withHarnessAccess: async <T>(_files: string[], work: () => Promise<T>) => work(),
  }) as unknown as DocsWorkspace;

describe("a VitePress move", () => {
  it("renames the links that name the page, absolutely or under their file's base, and nothing else; another language's page of the same name stays", async () => {
    const config = "export default {\n  themeConfig: {\n    nav: [{ text: 'CMS', link: '/guide/cms.md' }],\n    sidebar: { '/guide/': { base: '/guide/', items: [\n      { text: 'CMS', link: 'cms' },\n      { text: 'CMS again', link: \"/guide/cms\" },\n      { text: 'Other', link: 'cms-other' },\n    ] } },\n  },\n}\n";
    const spanish = "export const es = { themeConfig: { sidebar: { '/es/guide/': { base: '/es/guide/', items: [{ text: 'CMS', link: 'cms' }] } } } }\n";
    const root = site({ ".vitepress/config.ts": config, "es/config.ts": spanish, "guide/cms.md": "# CMS\n", "guide/cms-other.md": "# Other\n", "es/guide/cms.md": "# CMS\n" });
    renameSync(path.join(root, "guide/cms.md"), path.join(root, "guide/content.md"));
    const outcome = await vitepressMove(workspaceOf(root), detectDocsProject(root), "guide/cms.md", "guide/content.md");

    expect(outcome).toEqual({ done: ["renamed 3 navigation entries in .vitepress/config.ts", "added no redirect: VitePress has no redirects (its rewrites map files to URLs), so the old URL now answers 404"], changed: [".vitepress/config.ts"] });
    expect(readFileSync(path.join(root, ".vitepress/config.ts"), "utf8")).toBe(config.replace("'/guide/cms.md'", "'/guide/content.md'").replace("link: 'cms' }", "link: 'content' }").replace('"/guide/cms"', '"/guide/content"'));
    expect(readFileSync(path.join(root, "es/config.ts"), "utf8")).toBe(spanish);
  });

  it("says there is no redirect, and changes nothing, when no link names the page", async () => {
    const root = site({ ".vitepress/config.ts": "export default { themeConfig: { sidebar: [{ text: 'A', link: '/a' }] } }\n", "a.md": "# A\n", "b.md": "# B\n" });
    expect(await vitepressMove(workspaceOf(root), detectDocsProject(root), "b.md", "c.md")).toEqual({ none: "VitePress has no redirects (its rewrites map files to URLs), so the old URL now answers 404" });
  });
});
