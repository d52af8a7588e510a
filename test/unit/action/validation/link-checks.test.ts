import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { siteModel } from "../../../../src/action/docs/site-model.js";
import { siteRoutes } from "../../../../src/action/docs/site-routes.js";
import { linkProblems, type LinkContext } from "../../../../src/action/validation/link-checks.js";
import { analyzePage } from "../../../../src/action/validation/page.js";

/** The link problems of one page of a site, with the gate's context (its site model, routes and page analyses). */
async function linksOf(files: Record<string, string>, page: string): Promise<string[]> {
  const repoRoot = writeRepo(files, "inkwell-links-");
  const project = detectDocsProject(repoRoot);
  const model = siteModel(repoRoot, project);
  const exists = (file: string) => existsSync(path.join(repoRoot, file));
  const analysis = async (file: string) => (exists(file) && /\.mdx?$/.test(file) ? analyzePage(file, readFileSync(path.join(repoRoot, file), "utf8"), project.framework, model.slugOptions) : null);
  const ctx: LinkContext = { repoRoot, project, model, exists, analysis, routes: siteRoutes(repoRoot, project) };
  return linkProblems(page, (await analysis(page)) ?? { problems: [], links: [], anchors: new Set(), generated: false }, ctx);
}

describe("Mintlify's resolution, as @mintlify/link-rot has it", () => {
  const site = (index: string) => ({
    "docs.json": JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index", "guides/page"] } }),
    "index.mdx": index,
    "guides/page.mdx": "# Page\n\n## Setup\n",
    "guides/v1.2.mdx": "# Version 1.2\n",
    "images/logo.png": "",
  });

  it("a link with another page extension names the page of the same name (./page.md is page.mdx), anchors included", async () => {
    expect(await linksOf(site("[page](./guides/page.md) [setup](./guides/page.md#setup) [abs](/guides/page.md) [dotted](/guides/v1.2)\n"), "index.mdx")).toEqual([]);
  });

  it("a page of no such name is still broken, and the anchor of the page found is still checked", async () => {
    expect(await linksOf(site("[nope](./guides/nope.md) [bad](./guides/page.md#teardown) [image](/images/logo.jpg)\n"), "index.mdx")).toEqual([
      "index.mdx:1: link './guides/nope.md' does not resolve to a file in the repository",
      "index.mdx:1: link './guides/page.md#teardown': guides/page.mdx has no heading with the anchor #teardown",
    ]);
  });
});

describe("raw HTML in VitePress pages", () => {
  it("a Vue binding (:href, v-bind:href) is an expression, not a link; a plain href is still checked", async () => {
    const page = [
      "# Dependencies",
      "",
      '<a v-for="dep in deps" :href="npmUrl(dep.name)">{{ dep.name }}</a>',
      '<a v-bind:href="repo.url" data-href="/data">repo</a> <img :src="logo">',
      '<a href="/nope">gone</a> <a href=/guide>guide</a>',
      "",
    ].join("\n");
    expect(await linksOf({ ".vitepress/config.ts": "export default {}\n", "index.md": page, "guide.md": "# Guide\n" }, "index.md")).toEqual(["index.md:5: link '/nope' does not resolve to a file in the repository"]);
  });
});

describe("VitePress's dead-link rules (markdownToVue.ts)", () => {
  const site = {
    ".vitepress/config.ts": "export default { srcExclude: ['parts/**'], rewrites: { 'en/:rest*': ':rest*' } }\n",
    "en/guide/start.md": "# Start\n\n## Install\n",
    "parts/intro.md": "# Intro\n",
    "en/guide/links.md": "# Links\n\n[start](./start#install) [root](/guide/start) [excluded](/parts/intro) [source path](/en/guide/start)\n",
  };

  it("links resolve from the rewritten place; a srcExclude'd file and a page's pre-rewrite path are dead", async () => {
    expect(await linksOf(site, "en/guide/links.md")).toEqual([
      "en/guide/links.md:3: link '/parts/intro' does not resolve to a file in the repository",
      "en/guide/links.md:3: link '/en/guide/start' does not resolve to a file in the repository",
    ]);
  });

  const deadLinks = (setting: string) => ({
    ".vitepress/config.ts": `export default {\n  cleanUrls: true,\n  // ignoreDeadLinks: true,\n  ${setting}\n}\n`,
    "index.md": "# Home\n\n[app](/studio/) [deep](/studio/editor?x=1#top) [exact](/status) [exact too](/status.html) [near](/status/) [gone](/guide/missing)\n",
  });

  it("ignoreDeadLinks: a string lets that one link pass (as VitePress tests it: no query, hash, .html or .md; a trailing / is /index), a regular expression those it matches; a commented-out setting is none", async () => {
    const gone = "index.md:3: link '/guide/missing' does not resolve to a file in the repository";
    expect(await linksOf(deadLinks("ignoreDeadLinks: [/^\\/studio/, '/status', /:\\/\\/localhost/],"), "index.md")).toEqual(["index.md:3: link '/status/' does not resolve to a file in the repository", gone]);
    expect(await linksOf(deadLinks(""), "index.md")).toHaveLength(6);
  });

  it("ignoreDeadLinks: true, or an array holding a function (the site's code), leaves every dead link to the build; 'localhostLinks' none of these", async () => {
    expect(await linksOf(deadLinks("ignoreDeadLinks: true,"), "index.md")).toEqual([]);
    expect(await linksOf(deadLinks("ignoreDeadLinks: ['/status', (url) => url.startsWith('/studio')],"), "index.md")).toEqual([]);
    expect(await linksOf(deadLinks("ignoreDeadLinks: 'localhostLinks',"), "index.md")).toHaveLength(6);
  });
});

describe("MkDocs: hooks and pages the build writes", () => {
  it("with hooks, an anchor a page's comment names is left to the hook; every other anchor is checked", async () => {
    const files = {
      "mkdocs.yml": "site_name: Acme\nhooks:\n  - hooks/shortcodes.py\n",
      "docs/index.md": "# Home\n\n[hook](plugin.md#config.enabled) [option](plugin.md#+type:note) [heading](plugin.md#usage) [gone](plugin.md#config.disabled)\n",
      "docs/plugin.md": "# Plugin\n\n## Usage\n\n#### <!-- md:setting config.enabled -->\n\n<!-- md:option type:note -->\n",
    };
    expect(await linksOf(files, "docs/index.md")).toEqual(["docs/index.md:3: link 'plugin.md#config.disabled': docs/plugin.md has no heading with the anchor #config.disabled"]);
    // Without hooks no comment makes an id.
    expect(await linksOf({ ...files, "mkdocs.yml": "site_name: Acme\n" }, "docs/index.md")).toHaveLength(3);
  });

  it("a link to a missing file the repository ignores is the build's page; one it does not ignore is broken", async () => {
    const files = { "mkdocs.yml": "site_name: Acme\n", ".gitignore": "docs/reference/\n", "docs/index.md": "# Home\n\n[api](reference/api.md) <a href=\"reference/cli/\">cli</a> [gone](guide.md)\n" };
    expect(await linksOf(files, "docs/index.md")).toEqual(["docs/index.md:3: link 'guide.md' does not resolve to a file in the repository"]);
  });
});

describe("MkDocs: the i18n plugin's language folders (mkdocs-static-i18n, docs_structure: folder)", () => {
  const config = (structure: string) =>
    `site_name: Acme\nplugins:\n  - search\n  - i18n:\n      docs_structure: ${structure}\n      languages:\n        - locale: en\n          default: true\n          name: English\n        - locale: fr\n          name: Français\n        - locale: de\n          name: Deutsch\n`;
  const files = (structure: string) => ({
    "mkdocs.yml": config(structure),
    "docs/index.md": "# Home\n",
    "docs/api/client.md": "# Client\n\n## Options\n",
    "docs/img/flow.png": "",
    "docs/en/only-english.md": "# Only in English\n",
    "docs/fr/index.md": "# Accueil\n\n[client](api/client.md#options) [folder](api/) [image](img/flow.png) [default folder](only-english.md)\n\n[gone](api/server.md) [bad anchor](api/client.md#setup)\n",
  });

  it("a language's page finds a file its folder lacks at the docs root or in the default language's folder; a file in neither is broken, and the anchor of the file found is checked", async () => {
    expect(await linksOf(files("folder"), "docs/fr/index.md")).toEqual([
      "docs/fr/index.md:5: link 'api/server.md' does not resolve to a file in the repository",
      "docs/fr/index.md:5: link 'api/client.md#setup': docs/api/client.md has no heading with the anchor #setup",
    ]);
  });

  it("without folders (the suffix structure), a language folder is a folder like any other", async () => {
    expect(await linksOf(files("suffix"), "docs/fr/index.md")).toHaveLength(5);
  });
});

describe("Docusaurus: partials imported with escaped paths, and plugins that rewrite headings", () => {
  const site = (config: string) => ({
    "docusaurus.config.js": `module.exports = { presets: [['classic', { docs: { ${config} } }]] };\n`,
    "docs/gestures/_shared/config.mdx": "### hitSlop [A][I]\n\nThe area.\n",
    "docs/gestures/pan.mdx": "import Config from './\\_shared/config.mdx';\n\n# Pan\n\n<Config />\n",
    "docs/guide.md": "# Guide\n\n[slop](./gestures/pan.mdx#hitslop-ai) [gone](./gestures/pan.mdx#nothing)\n",
  });

  it("the escaped import resolves and the partial's headings are the page's", async () => {
    expect(await linksOf(site(""), "docs/gestures/pan.mdx")).toEqual([]);
    expect(await linksOf(site(""), "docs/guide.md")).toEqual(["docs/guide.md:3: link './gestures/pan.mdx#nothing': docs/gestures/pan.mdx has no heading with the anchor #nothing"]);
  });

  it("with the site's own remark plugins in the docs options, anchors into docs pages are left to the build", async () => {
    expect(await linksOf(site("beforeDefaultRemarkPlugins: [require('./src/markers')],"), "docs/guide.md")).toEqual([]);
    expect(await linksOf(site("remarkPlugins: [],"), "docs/guide.md")).toHaveLength(1);
  });
});

describe("VitePress: a slugify of the site's", () => {
  it("anchors into a page with headings of generated ids are left to the build; a page whose every heading has its id is still checked", async () => {
    const files = {
      ".vitepress/config.ts": "import { slug } from './slug'\nexport default { markdown: { anchor: { slugify: slug } } }\n",
      ".vitepress/slug.ts": "export const slug = (s: string) => s\n",
      "api.md": "# API\n\n## createSpy()\n",
      "explicit.md": "# Explicit {#explicit}\n\n## Options {#options}\n",
      "index.md": "# Home {#home}\n\n[spy](./api.md#createSpy-) [options](./explicit.md#options) [gone](./explicit.md#options-api)\n",
    };
    expect(await linksOf(files, "index.md")).toEqual(["index.md:3: link './explicit.md#options-api': explicit.md has no heading with the anchor #options-api"]);
  });
});

describe("MkDocs: absolute links", () => {
  const files = (validation: string) => ({
    "mkdocs.yml": `site_name: Acme\n${validation}`,
    "docs/index.md": "# Home\n\n[dev](/dev/community/users/) [setup](/guide/setup.md) [gone](/guide/gone.md) <a href=\"/raw/\">raw</a>\n",
    "docs/guide/setup.md": "# Setup\n",
  });

  it("not checked by default: MkDocs leaves them as written (absolute_links: info)", async () => {
    expect(await linksOf(files(""), "docs/index.md")).toEqual([]);
  });

  it("relative_to_docs: each names a file under docs_dir, as MkDocs validates it; raw HTML is still left alone", async () => {
    expect(await linksOf(files("validation:\n  links:\n    absolute_links: relative_to_docs\n"), "docs/index.md")).toEqual([
      "docs/index.md:3: link '/dev/community/users/' does not resolve to a file in the repository",
      "docs/index.md:3: link '/guide/gone.md' does not resolve to a file in the repository",
    ]);
  });
});

describe("includes and imports of files the build writes", () => {
  it("MkDocs: a snippet the repository ignores and does not have is a hook's output; another missing snippet is broken", async () => {
    const files = { "mkdocs.yml": "site_name: Acme\nhooks:\n  - hooks/people.py\n", ".gitignore": "/docs/assets/people.md\n", "docs/index.md": '# Home\n\n--8<-- "docs/assets/people.md"\n\n--8<-- "docs/assets/missing.md"\n' };
    expect(await linksOf(files, "docs/index.md")).toEqual(["docs/index.md:5: include 'docs/assets/missing.md' does not resolve to a file in the repository"]);
  });

  it("Docusaurus: an import of an ignored, generated file is the build's", async () => {
    const files = {
      "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: {} }]] };\n",
      ".gitignore": "docs/api/generated/\n",
      "docs/api.mdx": "import Generated from './api/generated/index.md';\nimport Missing from './api/missing.md';\n\n# API\n\n<Generated />\n<Missing />\n",
    };
    expect(await linksOf(files, "docs/api.mdx")).toEqual(["docs/api.mdx:2: import './api/missing.md' does not resolve to a file in the repository"]);
  });

  it("Docusaurus: pages docusaurus-plugin-typedoc writes into its `out` folders (relative to the site, a substitution any one segment; default ./docs/api) are the build's", async () => {
    const config = [
      "const packages = ['core', 'utils'];",
      "module.exports = {",
      "  presets: [['classic', { docs: { path: '../docs' } }]],",
      "  plugins: [...packages.map((name) => ['docusaurus-plugin-typedoc', { id: name, out: `../docs/packages/${name}/generated` }]), ['docusaurus-plugin-typedoc', { id: 'main' }]],",
      "};",
    ].join("\n");
    const files = {
      "website/docusaurus.config.js": config,
      "website/package.json": "{}",
      "docs/packages/core.mdx": "import Generated from './core/generated/index.md';\nimport Other from './core/written/index.md';\n\n# Core\n\n<Generated />\n<Other />\n\n[api](../../website/docs/api/index.md)\n",
    };
    expect(await linksOf(files, "docs/packages/core.mdx")).toEqual(["docs/packages/core.mdx:2: import './core/written/index.md' does not resolve to a file in the repository"]);
  });
  it("Docusaurus: typedoc options in a constant of the config; a site path into a docs folder the repository ignores is the build's", async () => {
    const config = [
      "const typedocOptions = { entryPoints: [], out: './docs/reference' };",
      "module.exports = { presets: [['classic', { docs: {} }]], plugins: [['docusaurus-plugin-typedoc', typedocOptions]] };",
    ].join("\n");
    const files = {
      "docusaurus.config.js": config,
      ".gitignore": "/docs/packages\n",
      "docs/intro.md": "# Intro\n\n[ref](./reference/index.md) [pkg](/docs/packages/core) [nope](/docs/nope) [ref2](./api/index.md)\n",
    };
    expect(await linksOf(files, "docs/intro.md")).toEqual([
      "docs/intro.md:3: link '/docs/nope' does not resolve to a file in the repository",
      "docs/intro.md:3: link './api/index.md' does not resolve to a file in the repository",
    ]);
  });
});

describe("links MkDocs leaves as written (raw HTML, a relative link to no file of the site): the browser resolves them from the page's URL", () => {
  const site = {
    "mkdocs.yml": "site_name: Acme\nplugins:\n  - blog\n",
    "docs/index.md": "# Home\n",
    "docs/types/integer.md": "# Integer\n",
    "docs/styles/grid/index.md": '# Grid\n\n<a href="../../../types/integer">integer</a> <a href="./missing">gone</a>\n',
    "docs/blog/posts/hello.md": "# Hello\n\n![demo](../../../../images/demo.png) ![nope](../../../../images/nope.png)\n",
    "docs/blog/images/demo.png": "",
  };

  it("never above the site's root; a blog post from where the blog plugin serves it; what resolves nowhere is still broken", async () => {
    expect(await linksOf(site, "docs/styles/grid/index.md")).toEqual(["docs/styles/grid/index.md:3: link './missing' does not resolve to a file in the repository"]);
    expect(await linksOf(site, "docs/blog/posts/hello.md")).toEqual(["docs/blog/posts/hello.md:3: image '../../../../images/nope.png' does not resolve to a file in the repository"]);
  });
});

describe("pages the build writes first", () => {
  it("VitePress: a link into a folder the repository ignores (TypeDoc's output) is the build's; a link elsewhere is still dead", async () => {
    const files = { ".vitepress/config.ts": "export default {}\n", ".gitignore": "api\n", "index.md": "# Home\n\n[ref](/api/interfaces/Router.md#push) [nope](/guide/nope)\n" };
    expect(await linksOf(files, "index.md")).toEqual(["index.md:3: link '/guide/nope' does not resolve to a file in the repository"]);
  });
});

describe("Mintlify redirects", () => {
  it("a redirect whose source names a folder's index page (v3/old/index) answers a link to it", async () => {
    const files = {
      "docs.json": JSON.stringify({ theme: "mint", name: "Acme", navigation: { pages: ["index"] }, redirects: [{ source: "v3/old/index", destination: "/v3/new" }] }),
      "index.mdx": "[old](/v3/old/index#setup) [other](/v3/other/index)\n",
    };
    expect(await linksOf(files, "index.mdx")).toEqual(["index.mdx:1: link '/v3/other/index' does not resolve to a file in the repository"]);
  });
});

describe("VitePress: a Vite plugin of the site's that rewrites Markdown first (enforce: 'pre')", () => {
  const files = (plugin: string) => ({
    ".vitepress/config.ts": "import { defineConfig } from 'vitepress'\nimport vite from './vite.config'\nexport default defineConfig({ vite })\n",
    ".vitepress/vite.config.ts": "import { Append } from './plugins/append'\nexport default { plugins: [Append()] }\n",
    ".vitepress/plugins/append.ts": plugin,
    "guide.md": "# Guide\n\nSee the [types](#type-declarations).\n",
  });
  const transform = (enforce: string) => `export function Append() {\n  return {\n    name: 'append',\n    ${enforce}\n    transform(code, id) {\n      if (!/\\.md\\b/.test(id)) return null\n      return code + '\\n## Type Declarations\\n'\n    },\n  }\n}\n`;

  it("makes the pages' headings the build's; without enforce: 'pre' VitePress has compiled the page first and the anchor is judged", async () => {
    expect(await linksOf(files(transform("enforce: 'pre',")), "guide.md")).toEqual([]);
    expect(await linksOf(files(transform("")), "guide.md")).toEqual(["guide.md:3: link '#type-declarations': guide.md has no heading with the anchor #type-declarations"]);
  });
});

describe("round 7's rules, from each framework's code", () => {
  it("VitePress reads an include starting with @ from its source folder, the @ and one separator dropped (@shared/x.md is <srcDir>/shared/x.md)", async () => {
    const files = { ".vitepress/config.ts": "export default {}\n", "shared/install.md": "## Package manager\n", "guide.md": "# Guide\n\n<!--@include: @shared/install.md-->\n<!--@include: @/shared/install.md-->\n<!--@include: @shared/missing.md-->\n\n[pm](#package-manager)\n" };
    expect(await linksOf(files, "guide.md")).toEqual(["guide.md:5: include '@shared/missing.md' does not resolve to a file in the repository"]);
  });

  it("VitePress 2 slugifies a link's fragment before rendering it; VitePress 1 keeps it as written (the site's package.json says which)", async () => {
    const site = (version: string) => ({ ".vitepress/config.ts": "export default {}\n", "package.json": JSON.stringify({ devDependencies: { vitepress: version } }), "api.md": "# API\n\n## numberFormats\n\n[formats](#numberFormats) [nope](#dateFormats)\n" });
    expect(await linksOf(site("2.0.0-alpha.16"), "api.md")).toEqual(["api.md:5: link '#dateFormats': api.md has no heading with the anchor #dateFormats"]);
    expect(await linksOf(site("^1.6.3"), "api.md")).toEqual([
      "api.md:5: link '#numberFormats': api.md has no heading with the anchor #numberFormats",
      "api.md:5: link '#dateFormats': api.md has no heading with the anchor #dateFormats",
    ]);
  });

  it("Docusaurus: a static file linked under a baseUrl the config writes as an expression (`process.env.PREVIEW ? '/' : '/acme/'`)", async () => {
    const files = {
      "website/docusaurus.config.js": "module.exports = {\n  baseUrl: process.env.PREVIEW ? '/' : '/acme/',\n  presets: [['classic', { docs: { routeBasePath: '/' } }]],\n};\n",
      "website/package.json": "{}",
      "website/static/img/logo.svg": "",
      "website/docs/intro.md": "# Intro\n\n![logo](/acme/img/logo.svg) ![root](/img/logo.svg) [intro](/acme/intro) [nope](/acme/nope)\n",
    };
    expect(await linksOf(files, "website/docs/intro.md")).toEqual(["website/docs/intro.md:3: link '/acme/nope' does not resolve to a file in the repository"]);
  });
});

describe("a fragment VitePress includes (spliced into each including page before it is rendered)", () => {
  it("its own #anchors land on the including pages' headings; one no including page has is still broken", async () => {
    const files = {
      ".vitepress/config.ts": "export default {}\n",
      "guide.md": "# Guide\n\n## Package manager\n\n<!--@include: ./shared/install.md-->\n",
      "shared/install.md": "Install it with your [package manager](#package-manager), see [nothing](#nowhere).\n",
    };
    expect(await linksOf(files, "shared/install.md")).toEqual(["shared/install.md:1: link '#nowhere': shared/install.md has no heading with the anchor #nowhere"]);
  });
});
