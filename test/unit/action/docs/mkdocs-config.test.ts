import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject, navigationPages } from "../../../../src/action/docs/framework.js";
import { fnmatchPattern, mkdocsConfigText, mkdocsPlugins } from "../../../../src/action/docs/mkdocs-config.js";
import { siteModel } from "../../../../src/action/docs/site-model.js";

const repo = (files: Record<string, string>) => writeRepo(files, "inkwell-mkdocs-");

describe("MkDocs' config as MkDocs reads it", () => {
  it("mkdocs.yaml is a config name too (after mkdocs.yml)", () => {
    expect(detectDocsProject(repo({ "mkdocs.yaml": "site_name: Acme\n", "docs/index.md": "# Home\n" }))).toMatchObject({ framework: "mkdocs", configFile: "mkdocs.yaml" });
  });

  it("without mkdocs.yml, the config a site builds with -f: one with site_name that nothing inherits from, the published one (site_url) first", () => {
    const root = repo({
      "mkdocs-common.yml": "site_name: Acme\ndocs_dir: pages\n",
      "mkdocs-offline.yml": "INHERIT: mkdocs-common.yml\nplugins:\n  - offline\n",
      "mkdocs-online.yml": "INHERIT: mkdocs-common.yml\nsite_url: https://acme.dev/\n",
      "codecov.yml": "coverage: {}\n",
      "pages/index.md": "# Home\n",
    });
    expect(detectDocsProject(root)).toMatchObject({ framework: "mkdocs", configFile: "mkdocs-online.yml", docsDir: "pages", navigationFiles: ["mkdocs-online.yml", "mkdocs-common.yml"] });
  });

  it("INHERIT merges the parent under the child: mappings key by key, lists replaced, tags kept", () => {
    const root = repo({
      "base.yml": "site_name: Acme\nnav:\n  - index.md\n  - old.md\ntheme:\n  name: material\n  features: [a]\nmarkdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
      "mkdocs.yml": "INHERIT: base.yml\nnav:\n  - index.md\n  - new.md\ntheme:\n  features: [b]\n",
      "docs/index.md": "# Home\n",
      "docs/new.md": "# New\n",
    });
    const text = mkdocsConfigText(root, "mkdocs.yml");
    expect(text).toContain("name: material");
    expect(text).toContain("!!python/name:material.extensions.emoji.twemoji");
    expect(text).not.toContain("INHERIT");
    expect(text).toMatch(/features: \[ b \]/);
    expect(navigationPages(root, detectDocsProject(root))).toEqual(["docs/index.md", "docs/new.md"]);
  });

  it("plugins written as a list or as a mapping, material/ names as Material's", () => {
    expect([...mkdocsPlugins(["search", { "material/blog": { blog_dir: "news" } }]).entries()]).toEqual([["search", {}], ["blog", { blog_dir: "news" }]]);
    expect([...mkdocsPlugins({ blog: null, exclude: { glob: ["a/*"] } }).entries()]).toEqual([["blog", {}], ["exclude", { glob: ["a/*"] }]]);
  });
});

describe("the mkdocs-exclude plugin (fnmatch globs and regexes on paths under docs_dir)", () => {
  it("fnmatch: * crosses folders, ? is one character, [!…] a complement", () => {
    expect(fnmatchPattern("**/_template.md").test("styles/_template.md")).toBe(true);
    expect(fnmatchPattern("**/_template.md").test("_template.md")).toBe(false);
    expect(fnmatchPattern("snippets/*").test("snippets/a/b.md")).toBe(true);
    expect(fnmatchPattern("v?.md").test("v1.md")).toBe(true);
    expect(fnmatchPattern("[!a]*.md").test("a.md")).toBe(false);
    expect(fnmatchPattern("file.(md)").test("file.(md)")).toBe(true);
  });

  it("excluded files are no pages of the site", () => {
    const root = repo({
      "mkdocs.yml": "site_name: Acme\nplugins:\n  exclude:\n    glob:\n      - 'snippets/*'\n    regex: '.*\\.tmp\\.md'\n",
      "docs/index.md": "# Home\n",
      "docs/snippets/see-also.md": "[a](./a.md)\n",
      "docs/draft.tmp.md": "# Draft\n",
    });
    const model = siteModel(root, detectDocsProject(root));
    expect(["docs/index.md", "docs/snippets/see-also.md", "docs/draft.tmp.md"].map((file) => model.isPage(file))).toEqual([true, false, false]);
  });
});

describe("where MkDocs serves a page", () => {
  it("directory URLs, index pages as their folder, blog posts at post_url_format under blog_dir", () => {
    const root = repo({ "mkdocs.yml": "site_name: Acme\nplugins:\n  - blog\n", "docs/index.md": "# Home\n" });
    const url = siteModel(root, detectDocsProject(root)).mkdocsPageUrl;
    expect(["docs/index.md", "docs/guide/index.md", "docs/guide/setup.md", "docs/blog/posts/hello.md"].map((file) => url?.(file))).toEqual(["", "guide/", "guide/setup/", "blog/date/date/date/hello/"]);
    const flat = repo({ "mkdocs.yml": "site_name: Acme\nuse_directory_urls: false\n", "docs/index.md": "# Home\n" });
    expect(siteModel(flat, detectDocsProject(flat)).mkdocsPageUrl?.("docs/guide/setup.md")).toBe("guide/setup.html");
  });
});
