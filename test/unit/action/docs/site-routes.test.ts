import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { docusaurusRoute, docusaurusRouteBase, mkdocsAbsoluteLinks, siteRoutes } from "../../../../src/action/docs/site-routes.js";

const routesOf = (files: Record<string, string>) => {
  const repoRoot = writeRepo(files, "inkwell-routes-");
  return siteRoutes(repoRoot, detectDocsProject(repoRoot));
};

describe("Docusaurus routes, as plugin-content-docs' slug.ts makes them", () => {
  it("a folder's index page (index, README, named like its folder as written) is the folder, even with an id; an absolute or relative slug wins", () => {
    expect(docusaurusRoute("guides/index.md", { id: "overview" }, "docs")).toBe("docs/guides");
    expect(docusaurusRoute("02-guides/README.md", {}, "docs")).toBe("docs/guides");
    expect(docusaurusRoute("guides/guides.md", {}, "docs")).toBe("docs/guides");
    // Named like its folder only once the folder's prefix is dropped: not the folder's index.
    expect(docusaurusRoute("02-guides/guides.md", {}, "docs")).toBe("docs/guides/guides");
    expect(docusaurusRoute("guides/index.md", { slug: "start" }, "docs")).toBe("docs/guides/start");
    expect(docusaurusRoute("guides/setup.md", { slug: "/setup" }, "")).toBe("setup");
    expect(docusaurusRoute("guides/deep/setup.md", { slug: "../setup" }, "docs")).toBe("docs/guides/setup");
  });

  it("number prefixes dropped as numberPrefix.ts drops them (versions and dates kept), unless the page says parse_number_prefixes: false", () => {
    expect(docusaurusRoute("01-setup/02-install.md", {}, "docs")).toBe("docs/setup/install");
    expect(docusaurusRoute("releases/7.0-notes.md", {}, "docs")).toBe("docs/releases/7.0-notes");
    expect(docusaurusRoute("01-setup/02-install.md", { parse_number_prefixes: false }, "docs")).toBe("docs/01-setup/02-install");
    expect(docusaurusRoute("01-setup/02-install.md", {}, "docs", false)).toBe("docs/01-setup/02-install");
  });

  it("routeBasePath is the docs options' own, not the blog's", () => {
    expect(docusaurusRouteBase("presets: [['classic', { blog: { routeBasePath: '/' }, docs: { routeBasePath: 'guide' } }]]")).toBe("guide");
    expect(docusaurusRouteBase("presets: [['classic', { blog: { routeBasePath: 'news' }, docs: { path: 'docs' } }]]")).toBe("docs");
    expect(docusaurusRouteBase("plugins: [['content-docs', { routeBasePath: '/' }]]")).toBe("");
  });
});

describe("Docusaurus: the site paths the docs plugin serves", () => {
  it("a generated-index category of sidebars.js is a page at /category/<label slugged> (a repeated label -1) or at its slug, under the docs route", () => {
    const routes = routesOf({
      "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { sidebarPath: './sidebars.js' } }]] };\n",
      "sidebars.js": "module.exports = { a: [{ type: 'category', label: 'User Guide', link: { type: 'generated-index' }, items: ['intro'] }, { type: 'category', label: 'SDKs & APIs', link: { type: 'generated-index', slug: '/apis' }, items: ['intro'] }], b: [{ type: 'category', label: 'User Guide', link: { type: 'generated-index' }, items: ['intro'] }] };\n",
      "docs/intro.md": "# Intro\n",
    });
    expect(["/docs/category/user-guide", "/docs/category/user-guide-1", "/docs/apis", "/docs/intro"].map((route) => routes?.fileFor(route))).toEqual([undefined, undefined, undefined, "docs/intro.md"]);
    expect(routes?.fileFor("/docs/category/sdks--apis")).toBeNull();
    expect(routes?.fileFor("/docs/category/nothing")).toBeNull();
  });

  it("versioned docs at their version's path: the last at the root, another at its name, current at next; its categories under it", () => {
    const routes = routesOf({
      "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { sidebarPath: './sidebars.js' } }]] };\n",
      "sidebars.js": "module.exports = { docs: ['intro'] };\n",
      "versions.json": JSON.stringify(["2.x", "1.x"]),
      "docs/intro.md": "# Intro (next)\n",
      "versioned_docs/version-2.x/intro.md": "# Intro 2\n",
      "versioned_docs/version-1.x/guides/old.md": "# Old\n",
      "versioned_sidebars/version-1.x-sidebars.json": JSON.stringify({ docs: [{ type: "category", label: "Guides", link: { type: "generated-index" }, items: ["guides/old"] }] }),
    });
    expect(["/docs/intro", "/docs/next/intro", "/docs/1.x/guides/old", "/docs/1.x/category/guides"].map((route) => routes?.fileFor(route))).toEqual(["versioned_docs/version-2.x/intro.md", "docs/intro.md", "versioned_docs/version-1.x/guides/old.md", undefined]);
    expect(routes?.fileFor("/docs/2.x/intro")).toBeNull();
    expect(routes?.routeOf?.("versioned_docs/version-1.x/guides/old.md")).toBe("/docs/1.x/guides/old");
  });

  it("a link that already starts with baseUrl is not given it twice; one without it is under it", () => {
    const routes = routesOf({
      "docusaurus.config.js": "module.exports = { baseUrl: '/flash/docs/', presets: [['classic', { docs: { routeBasePath: '/', lastVersion: 'current', versions: { current: { path: '' }, '1.x': { path: '1.x' } } } }]] };\n",
      "versions.json": JSON.stringify(["1.x"]),
      "docs/index.md": "# Home\n",
      "versioned_docs/version-1.x/index.md": "# Home 1\n",
    });
    expect(["/flash/docs/1.x/", "/1.x", "/flash/docs", "/"].map((route) => routes?.fileFor(route))).toEqual(["versioned_docs/version-1.x/index.md", "versioned_docs/version-1.x/index.md", "docs/index.md", "docs/index.md"]);
    expect(routes?.fileFor("/flash/docs/2.x/")).toBeNull();
  });

  it("a baseUrl template reads the config's own constant (`${BASE_URL}/` with const BASE_URL = '/docs')", () => {
    const routes = routesOf({
      "docusaurus.config.js": "const BASE_URL = '/docs';\nmodule.exports = { baseUrl: `${BASE_URL}/`, presets: [['classic', { docs: { routeBasePath: '/' } }]] };\n",
      "docs/config.md": "---\nslug: /config\n---\n# Config\n",
    });
    expect(["/docs/config", "/config"].map((route) => routes?.fileFor(route))).toEqual(["docs/config.md", "docs/config.md"]);
  });
});

describe("MkDocs: absolute links (validation.links.absolute_links)", () => {
  const site = (validation: string) => ({ "mkdocs.yml": `site_name: Acme\nsite_url: https://acme.dev/docs/\n${validation}`, "docs/guide/setup.md": "# Setup\n", "docs/img/logo.png": "" });

  it("left as written and not checked by default (info), or with warn: where /x/ leads depends on where the site is served", () => {
    expect(mkdocsAbsoluteLinks("site_name: Acme\n")).toBe("info");
    for (const validation of ["", "validation:\n  absolute_links: warn\n", "validation:\n  links:\n    absolute_links: info\n"]) {
      const routes = routesOf(site(validation));
      expect(["/guide/setup/", "/docs/guide/setup/", "/nowhere/"].map((route) => routes?.fileFor(route))).toEqual([undefined, undefined, undefined]);
    }
  });

  it("relative_to_docs (for links, or for all of validation): the path is a file under docs_dir, as a relative link's is", () => {
    for (const validation of ["validation:\n  links:\n    absolute_links: relative_to_docs\n", "validation:\n  absolute_links: relative_to_docs\n"]) {
      const routes = routesOf(site(validation));
      expect(["/guide/setup.md", "/img/logo.png", "/guide/setup/", "/guide/nope.md"].map((route) => routes?.fileFor(route))).toEqual(["docs/guide/setup.md", "docs/img/logo.png", null, null]);
    }
  });
});

describe("Docusaurus: every docs plugin instance's routes", () => {
  it("a second instance's pages at its routeBasePath; paths under no instance are another plugin's", () => {
    const routes = routesOf({
      "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { routeBasePath: '/docs' } }]], plugins: [['@docusaurus/plugin-content-docs', { id: 'community', path: 'community', routeBasePath: 'community' }]] };\n",
      "docs/intro.md": "# Intro\n",
      "community/join.md": "---\nslug: /welcome\n---\n# Join\n",
    });
    expect(["/docs/intro", "/community/welcome", "/community/join", "/blog/post"].map((route) => routes?.fileFor(route))).toEqual(["docs/intro.md", "community/join.md", null, undefined]);
  });

  it("under docs at the site's root, the blog's paths and src/pages' files are theirs, not missing docs", () => {
    const routes = routesOf({
      "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { routeBasePath: '/' }, blog: { routeBasePath: 'news' } }]] };\n",
      "docs/intro.md": "# Intro\n",
      "src/pages/play.tsx": "",
      "src/pages/team/index.md": "# Team\n",
    });
    expect(["/intro", "/news/2024/hello", "/play", "/team", "/nope"].map((route) => routes?.fileFor(route))).toEqual(["docs/intro.md", undefined, undefined, undefined, null]);
  });
});
