import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DocsProject } from "../../../../src/action/docs/framework.js";
import { frameworkCheckFor, introducedBrokenLinks, type FrameworkCheck } from "../../../../src/action/validation/framework-check.js";
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

describe("introducedBrokenLinks", () => {
  const check: FrameworkCheck = { name: "Mintlify's broken-link checker", siteDir: "docs" };
  const before = [{ file: "docs/index.mdx", link: "/retired" }];

  it("blames the run for links broken after it and not before: on lines it wrote, in pages it added, into pages it removed; what was broken before is the site's", async () => {
    const root = editedSite();
    const found = [
      { file: "docs/index.mdx", link: "/retired" },
      { file: "docs/index.mdx", link: "/api/ref" },
      { file: "docs/new.mdx", link: "/nowhere" },
      { file: "docs/guides/setup.mdx", link: "./moved" },
    ];
    expect(await introducedBrokenLinks(check, found, before, new Map(), root)).toEqual({
      problems: [
        "docs/index.mdx:7: link '/api/ref' is broken (Mintlify's broken-link checker)",
        "docs/new.mdx:5: link '/nowhere' is broken (Mintlify's broken-link checker)",
        "docs/guides/setup.mdx:5: link './moved' is broken (Mintlify's broken-link checker)",
      ],
      alreadyOnSite: ["docs/index.mdx:5: link '/retired' is broken (Mintlify's broken-link checker)"],
      alreadyOnSiteCount: 1,
    });
  });

  it("blames a second copy of an old broken link, at the copy after the site's own", async () => {
    const root = editedSite();
    writeFileSync(path.join(root, "docs/index.mdx"), "---\ntitle: Home\n---\n\nSee [old](/retired) first.\n\nThen [guide](/guides/setup).\n\nAlso [old](/retired).\n");
    const found = [
      { file: "docs/index.mdx", link: "/retired" },
      { file: "docs/index.mdx", link: "/retired" },
    ];
    const { problems } = await introducedBrokenLinks(check, found, before, new Map(), root);
    expect(problems).toEqual(["docs/index.mdx:9: link '/retired' is broken (Mintlify's broken-link checker)"]);
  });

  it("a page the branch moved keeps its old broken links as the site's; a link it fixed is in neither list", async () => {
    const root = editedSite();
    const moved = new Map([["docs/guides/home.mdx", "docs/index.mdx"]]);
    const result = await introducedBrokenLinks(check, [{ file: "docs/guides/home.mdx", link: "/retired" }], [...before, { file: "docs/index.mdx", link: "/fixed" }], moved, root);
    expect(result.problems).toEqual([]);
    expect(result.alreadyOnSiteCount).toBe(1);
  });
});
