import { describe, expect, it } from "vitest";
import { docusaurusRoute, docusaurusRouteBase } from "../../../../src/action/docs/site-routes.js";

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
