import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { siteModel } from "../../../../src/action/docs/site-model.js";

const modelOf = (files: Record<string, string>) => {
  const repoRoot = writeRepo(files, "inkwell-model-");
  return siteModel(repoRoot, detectDocsProject(repoRoot));
};

describe("what the site model reads of each framework's config", () => {
  it("VitePress: srcExclude's globs (picomatch, from the source folder) and its defaults leave files out of the pages", () => {
    const model = modelOf({ "docs/.vitepress/config.ts": "export default { srcExclude: ['**/parts/*.md', 'AGENTS.md', './drafts/**'] }\n" });
    const pages = ["docs/guide/parts/a.md", "docs/parts/b.md", "docs/AGENTS.md", "docs/guide/AGENTS.md", "docs/drafts/x/y.md", "docs/guide/start.md", "docs/dist/index.md"];
    expect(pages.filter((file) => !model.isPage(file))).toEqual(["docs/guide/parts/a.md", "docs/parts/b.md", "docs/AGENTS.md", "docs/drafts/x/y.md", "docs/dist/index.md"]);
  });

  it("Docusaurus: markdown.format and mdx1Compat.comments reach the page rules; Docusaurus 2 is MDX 1", () => {
    expect(modelOf({ "docusaurus.config.js": "module.exports = { markdown: { format: 'detect', mdx1Compat: { comments: false } } };\n" }).slugOptions).toEqual({ mdIsMdx: false, mdx1: false, format: "detect", mdxComments: false });
    expect(modelOf({ "docusaurus.config.js": "module.exports = {};\n" }).slugOptions).toEqual({ mdIsMdx: true, mdx1: false, format: "mdx", mdxComments: true });
    expect(modelOf({ "docusaurus.config.js": "module.exports = {};\n", "package.json": JSON.stringify({ dependencies: { "@docusaurus/core": "^2.4.3" } }) }).slugOptions).toMatchObject({ mdIsMdx: false, mdx1: true });
  });

  it("MkDocs: hooks, and pymdownx.tabbed's slugify, separator and combine_header_slug (its own block, not toc's)", () => {
    const config = [
      "site_name: Acme",
      "hooks:",
      "  - hooks/a.py",
      "markdown_extensions:",
      "  - toc:",
      "      permalink: true",
      "  - pymdownx.tabbed:",
      "      alternate_style: true",
      "      combine_header_slug: true",
      "      separator: _",
      "      slugify: !!python/object/apply:pymdownx.slugs.slugify",
      "        kwds:",
      "          case: lower",
      "",
    ].join("\n");
    const model = modelOf({ "mkdocs.yml": config });
    expect(model.mkdocsHooks).toBe(true);
    expect(model.slugOptions).toEqual({ mkdocsSlugify: "python-markdown", mkdocsTabs: { lower: true, combineHeaderSlug: true, separator: "_" } });
    const plain = modelOf({ "mkdocs.yml": "site_name: Acme\nmarkdown_extensions:\n  - pymdownx.tabbed:\n      alternate_style: true\n" });
    expect(plain.mkdocsHooks).toBe(false);
    expect(plain.slugOptions.mkdocsTabs).toBeUndefined();
  });

  it("the repository's .gitignore files as git reads them: nested files, folders, negations", () => {
    const model = modelOf({
      "mkdocs.yml": "site_name: Acme\n",
      ".gitignore": "site/\n*.log\ndocs/generated/\n!docs/generated/keep.md\n",
      "docs/.gitignore": "/changelog.md\napi/*.md\n!api/index.md\n",
    });
    const files = ["site/index.html", "docs/x.log", "docs/generated/a.md", "docs/generated/keep.md", "docs/changelog.md", "docs/sub/changelog.md", "docs/api/rest.md", "docs/api/index.md", "docs/index.md"];
    // git cannot re-include a file inside an excluded folder: keep.md stays ignored.
    expect(files.filter((file) => model.gitIgnored(file))).toEqual(["site/index.html", "docs/x.log", "docs/generated/a.md", "docs/generated/keep.md", "docs/changelog.md", "docs/api/rest.md"]);
  });
});

describe("which pages a site's own Markdown plugins read (their headings' ids are the build's)", () => {
  it("Docusaurus: plugins in the docs options cover the docs (current, versioned, translated); the pages' and blog's options theirs; an empty list none", () => {
    const withDocs = modelOf({ "docusaurus.config.js": "const mark = require('./src/remark/mark');\nmodule.exports = { presets: [['classic', { docs: { beforeDefaultRemarkPlugins: [mark] }, pages: { remarkPlugins: [] } }]] };\n" });
    const files = ["docs/a.md", "versioned_docs/version-1.x/a.md", "i18n/fr/docusaurus-plugin-content-docs/current/a.md", "src/pages/about.md", "blog/post.md"];
    expect(files.filter((file) => withDocs.headingsRewritten(file))).toEqual(["docs/a.md", "versioned_docs/version-1.x/a.md", "i18n/fr/docusaurus-plugin-content-docs/current/a.md"]);
    const withPages = modelOf({ "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { remarkPlugins: [] }, pages: { rehypePlugins: [[require('rehype-x'), {}]] }, blog: { remarkPlugins } }]] };\n" });
    expect(files.filter((file) => withPages.headingsRewritten(file))).toEqual(["src/pages/about.md", "blog/post.md"]);
    expect(modelOf({ "docusaurus.config.js": "module.exports = { markdown: { preprocessor: ({ fileContent }) => fileContent } };\n" }).headingsRewritten("docs/a.md")).toBe(true);
    expect(files.some((file) => modelOf({ "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: {} }]] };\n" }).headingsRewritten(file))).toBe(false);
  });

  it("VitePress: attrs delimiters and a slugify of the site's, read from a config split across local modules", () => {
    const split = {
      ".vitepress/config/index.ts": "import { shared } from './shared'\nexport default { ...shared }\n",
      ".vitepress/config/shared.ts": "import { slugify } from './slug'\nexport const shared = { markdown: { attrs: { leftDelimiter: '%{', rightDelimiter: '}%' }, anchor: { slugify } } }\n",
      ".vitepress/config/slug.ts": "export const slugify = (s: string) => s\n",
    };
    // No package.json names its VitePress: the newest's way with link fragments (normalized).
    expect(modelOf(split).slugOptions).toEqual({ attrsDelimiters: { left: "%{", right: "}%" }, customSlugify: true, normalizesHash: true });
    expect(modelOf({ ".vitepress/config.ts": "export default { markdown: { anchor: { level: [2, 3] } } }\n", "package.json": JSON.stringify({ devDependencies: { vitepress: "^1.6.3" } }) }).slugOptions).toEqual({});
  });

  it("VitePress: pages a data loader's createContentLoader globs list (from the source folder; ! negates), in .vitepress too", () => {
    const model = modelOf({
      "docs/.vitepress/config.ts": "export default {}\n",
      "docs/_data/posts.data.ts": "import { createContentLoader } from 'vitepress'\nexport default createContentLoader('blog/*.md', { excerpt: true })\n",
      "docs/.vitepress/theme/notes.data.js": "export default createContentLoader(['notes/**/*.md', '!notes/drafts/**'])\n",
      "docs/blog.md": "# Blog\n",
    });
    const files = ["docs/blog/one.md", "docs/blog/deep/two.md", "docs/notes/a/b.md", "docs/notes/drafts/c.md", "docs/guide.md"];
    expect(files.filter((file) => model.listedByContentLoader(file))).toEqual(["docs/blog/one.md", "docs/notes/a/b.md"]);
  });
});

describe("MkDocs: exclude_docs and not_in_nav (gitignore patterns relative to docs_dir)", () => {
  it("an excluded file is no page; a not_in_nav page is kept out of the navigation on purpose", () => {
    const model = modelOf({
      "mkdocs.yml": "site_name: Acme\ndocs_dir: docs/source\nexclude_docs: |\n  drafts/\nnot_in_nav: |\n  /_build/\n  orphan.md\n",
      "docs/source/index.md": "# Home\n",
    });
    expect(["docs/source/drafts/a.md", "docs/source/index.md"].map((file) => model.isPage(file))).toEqual([false, true]);
    expect(["docs/source/_build/snippets/note.md", "docs/source/guide/orphan.md", "docs/source/guide/_build/x.md", "docs/source/index.md"].map((file) => model.notInNav(file))).toEqual([true, true, false, false]);
  });
});
