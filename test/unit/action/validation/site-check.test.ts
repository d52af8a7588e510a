import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkDocsSite } from "../../../../src/action/validation/site-check.js";

const REPO = path.resolve(".");

/** A copy of Inkwell's manual in a fresh directory, to break on purpose. */
function manualCopy(): string {
  const root = mkdtempSync(path.join(tmpdir(), "inkwell-manual-"));
  cpSync(path.join(REPO, "docs"), path.join(root, "docs"), { recursive: true, filter: (source) => !source.includes("screenshots") });
  return root;
}

describe("Inkwell's own manual through the docs gate", () => {
  it("docs/ is a Mintlify site that passes: pages compile, frontmatter, links and anchors, docs.json, every page in the navigation", async () => {
    const { passed, problems, project } = await checkDocsSite(REPO);
    expect(project).toMatchObject({ framework: "mintlify", docsDir: "docs", navigationFiles: ["docs/docs.json"] });
    expect(problems).toEqual([]);
    expect(passed).toBe(true);
  });

  it("fails on a broken link, a missing anchor, a page left out of the navigation and a docs.json Mintlify refuses", async () => {
    const root = manualCopy();
    const cli = path.join(root, "docs", "cli.md");
    writeFileSync(cli, `${readFileSync(cli, "utf8")}\nSee [deploying](deploy.md#no-such-section) and [the FAQ](faq.md).\n`);
    writeFileSync(path.join(root, "docs", "orphan.md"), "---\ntitle: Orphan\n---\n\nNo page lists me.\n");
    const config = JSON.parse(readFileSync(path.join(root, "docs", "docs.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(path.join(root, "docs", "docs.json"), JSON.stringify({ ...config, colour: "blue" }));

    const { passed, problems } = await checkDocsSite(root);
    expect(passed).toBe(false);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^docs\/cli\.md:\d+: link 'deploy\.md#no-such-section': docs\/deploy\.md has no heading with the anchor #no-such-section$/),
        expect.stringMatching(/^docs\/cli\.md:\d+: link 'faq\.md' does not resolve to a file in the repository$/),
        "docs/orphan.md: new page is not in the navigation (docs/docs.json): add it there",
        expect.stringContaining("docs/docs.json: the file: has 'colour', which Mintlify does not know"),
      ]),
    );
  });
});
