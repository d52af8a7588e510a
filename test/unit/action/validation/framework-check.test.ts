import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DocsProject } from "../../../../src/action/docs/framework.js";
import { brokenLinkProblems, frameworkCheckFor, writtenLines, type FrameworkCheck } from "../../../../src/action/validation/framework-check.js";
import { writeRepo } from "../../../helpers/temp-repo.js";

const project = (framework: DocsProject["framework"], navigationFiles: string[]): DocsProject => ({ framework, docsDir: ".", navigationFiles, pageExtensions: [".mdx", ".md"] }) as DocsProject;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

describe("frameworkCheckFor", () => {
  it("is Mintlify's checker, on the site beside docs.json", () => {
    expect(frameworkCheckFor(project("mintlify", ["docs/docs.json"]))).toEqual({ name: "Mintlify's broken-link checker", siteDir: "docs" });
  });

  it("is none for a legacy mint.json or another framework", () => {
    expect(frameworkCheckFor(project("mintlify", ["mint.json"]))).toBeNull();
    expect(frameworkCheckFor(project("docusaurus", ["sidebars.js"]))).toBeNull();
  });
});

/** A committed three-page site, then the run's edits in the working tree. */
function editedSite() {
  const root = writeRepo(
    {
      "docs/docs.json": "{}\n",
      "docs/index.mdx": "---\ntitle: Home\n---\n\nSee [old](/retired) first.\n\nThen [guide](/guides/setup).\n",
      "docs/guides/setup.mdx": "---\ntitle: Setup\n---\n\nBack [home](/index) or [next](./moved).\n",
      "docs/guides/moved.mdx": "---\ntitle: Moved\n---\n",
    },
    "inkwell-framework-check-",
  );
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "site");
  // The run: a new link on line 7 of index.mdx, a new page, and moved.mdx removed.
  writeFileSync(path.join(root, "docs/index.mdx"), "---\ntitle: Home\n---\n\nSee [old](/retired) first.\n\nThen [guide](/guides/setup) and [api](/api/ref).\n");
  writeFileSync(path.join(root, "docs/new.mdx"), "---\ntitle: New\n---\n\nSee [nowhere](/nowhere).\n");
  rmSync(path.join(root, "docs/guides/moved.mdx"));
  return root;
}

describe("writtenLines", () => {
  it("reads the lines a change wrote from git's zero-context diff, and none of a deleted file", () => {
    const root = editedSite();
    const diff = git(root, "diff", "--unified=0", "--no-color", "HEAD", "--", "docs/index.mdx", "docs/guides/moved.mdx");
    const written = writtenLines(diff);
    expect([...(written.get("docs/index.mdx") ?? [])]).toEqual([7]);
    expect(written.has("docs/guides/moved.mdx")).toBe(false);
  });

  it("counts every line of a hunk that adds several, and one of `+n` without a count", () => {
    const diff = "diff --git a/a.mdx b/a.mdx\n--- a/a.mdx\n+++ b/a.mdx\n@@ -2,0 +3,3 @@\n+x\n+y\n+z\n@@ -9 +12 @@\n-old\n+new\n";
    expect([...(writtenLines(diff).get("a.mdx") ?? [])]).toEqual([3, 4, 5, 12]);
  });
});

describe("brokenLinkProblems", () => {
  const check: FrameworkCheck = { name: "Mintlify's broken-link checker", siteDir: "docs" };

  it("blames the run for links on lines it wrote, in pages it added, and into pages it removed; not for what was broken before", async () => {
    const root = editedSite();
    const diff = git(root, "diff", "--unified=0", "--no-color", "HEAD", "--", "docs/index.mdx", "docs/new.mdx", "docs/guides/moved.mdx");
    const filesBefore = new Set(git(root, "ls-tree", "-r", "--name-only", "HEAD").trim().split("\n"));
    const found = [
      { file: "docs/index.mdx", link: "/retired" },
      { file: "docs/index.mdx", link: "/api/ref" },
      { file: "docs/new.mdx", link: "/nowhere" },
      { file: "docs/guides/setup.mdx", link: "./moved" },
    ];
    expect(await brokenLinkProblems(check, found, { written: writtenLines(diff), filesBefore }, root)).toEqual([
      "docs/index.mdx:7: link '/api/ref' is broken (Mintlify's broken-link checker)",
      "docs/new.mdx:5: link '/nowhere' is broken (Mintlify's broken-link checker)",
      "docs/guides/setup.mdx:5: link './moved' is broken (Mintlify's broken-link checker: this change removed or moved what it pointed at)",
    ]);
  });

  it("blames a second copy of an old broken link when the run wrote it", async () => {
    const root = editedSite();
    writeFileSync(path.join(root, "docs/index.mdx"), "---\ntitle: Home\n---\n\nSee [old](/retired) first.\n\nThen [guide](/guides/setup).\n\nAlso [old](/retired).\n");
    const written = writtenLines(git(root, "diff", "--unified=0", "--no-color", "HEAD", "--", "docs/index.mdx"));
    const filesBefore = new Set(git(root, "ls-tree", "-r", "--name-only", "HEAD").trim().split("\n"));
    expect(await brokenLinkProblems(check, [{ file: "docs/index.mdx", link: "/retired" }], { written, filesBefore }, root)).toEqual([
      "docs/index.mdx:9: link '/retired' is broken (Mintlify's broken-link checker)",
    ]);
  });
});
