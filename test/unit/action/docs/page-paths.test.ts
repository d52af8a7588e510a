import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { pagePaths, reportedFiles } from "../../../../src/action/docs/page-paths.js";

const repo = (files: Record<string, string>) => writeRepo(files, "inkwell-pages-");
const pathsOf = (files: Record<string, string>) => {
  const root = repo(files);
  return pagePaths(root, detectDocsProject(root));
};

describe("where the site serves each page file", () => {
  it("Mintlify: the path without its extension, index for its folder, under a docs/ folder too", () => {
    const at = pathsOf({ "docs.json": "{}", "index.mdx": "# Home", "guides/setup.mdx": "# Setup", "guides/index.md": "# Guides", "logo.svg": "<svg/>" });
    expect(["index.mdx", "guides/setup.mdx", "guides/index.md", "logo.svg", "docs.json"].map((file) => at.of(file))).toEqual(["/", "/guides/setup", "/guides", null, null]);
    const nested = pathsOf({ "docs/docs.json": "{}", "docs/api/keys.mdx": "# Keys", "README.md": "# Repo" });
    expect([nested.of("docs/api/keys.mdx"), nested.of("README.md")]).toEqual(["/api/keys", null]);
  });

  it("Docusaurus: baseUrl, routeBasePath, a slug or id from the frontmatter, number prefixes dropped", () => {
    const at = pathsOf({
      "docusaurus.config.js": "module.exports = { baseUrl: '/handbook/', presets: [['classic', { docs: { routeBasePath: 'guide' } }]] }",
      "docs/intro.md": "# Intro",
      "docs/01-basics/02-setup.md": "# Setup",
      "docs/basics/moved.md": "---\nslug: /start-here\n---\n# Start",
      "docs/basics/named.md": "---\nid: the-name\n---\n# Named",
      "docs/basics/index.md": "# Basics",
    });
    expect(["docs/intro.md", "docs/01-basics/02-setup.md", "docs/basics/moved.md", "docs/basics/named.md", "docs/basics/index.md"].map((file) => at.of(file))).toEqual([
      "/handbook/guide/intro",
      "/handbook/guide/basics/setup",
      "/handbook/guide/start-here",
      "/handbook/guide/basics/the-name",
      "/handbook/guide/basics",
    ]);
    // A file's earlier content routes its earlier path.
    expect(at.of("docs/basics/moved.md", "---\nslug: /old-start\n---\n")).toBe("/handbook/guide/old-start");
  });

  it("MkDocs: the path under docs_dir below site_url's path; index and README for the folder", () => {
    const at = pathsOf({ "mkdocs.yml": "site_name: Acme\nsite_url: https://acme.example/docs/\n", "docs/index.md": "# Home", "docs/user/install.md": "# Install", "docs/user/README.md": "# User" });
    expect(["docs/index.md", "docs/user/install.md", "docs/user/README.md"].map((file) => at.of(file))).toEqual(["/docs", "/docs/user/install", "/docs/user"]);
  });

  it("plain Markdown has no known routes", () => {
    expect(pathsOf({ "README.md": "# Hi", "guide.md": "# Guide" }).of("guide.md")).toBeNull();
  });
});

describe("the changed files a run reports", () => {
  it("adds each page's site path, and a moved or deleted page's earlier one from its earlier content", async () => {
    const root = repo({ "docusaurus.config.js": "module.exports = { baseUrl: '/' }", "docs/new.md": "# New", "docs/edited.md": "# Edited", "docs/moved/here.md": "# Here", "static/logo.png": "x" });
    const pages = pagePaths(root, detectDocsProject(root));
    const before: Record<string, string> = { "docs/there.md": "---\nslug: /old-place\n---\n# There", "docs/gone.md": "---\nslug: /retired\n---\n# Gone" };
    const files = await reportedFiles(
      [
        { path: "docs/new.md", status: "added" },
        { path: "docs/edited.md", status: "modified" },
        { path: "docs/moved/here.md", status: "renamed", from: "docs/there.md" },
        { path: "docs/gone.md", status: "deleted" },
        { path: "docs/gone-too.md", status: "deleted" },
        { path: "static/logo.png", status: "added" },
        { path: "static/old.png", status: "deleted" },
      ],
      pages,
      async (file) => before[file] ?? "",
    );
    expect(files).toEqual([
      { path: "docs/new.md", change: "added", page: "/docs/new" },
      { path: "docs/edited.md", change: "modified", page: "/docs/edited" },
      { path: "docs/moved/here.md", change: "renamed", from: "docs/there.md", page: "/docs/moved/here", fromPage: "/docs/old-place" },
      { path: "docs/gone.md", change: "deleted", fromPage: "/docs/retired" },
      { path: "docs/gone-too.md", change: "deleted", fromPage: "/docs/gone-too" },
      { path: "static/logo.png", change: "added" },
      { path: "static/old.png", change: "deleted" },
    ]);
  });
});
