import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { followPageMove } from "../../../../src/action/docs/moves.js";
import { DocsWorkspace } from "../../../../src/action/sandbox/workspace.js";
import { writeRepo } from "../../../helpers/temp-repo.js";

/** Moves a page the way move_file does, then follows it. */
async function move(files: Record<string, string>, from: string, to: string) {
  const root = writeRepo(files, "inkwell-redirects-");
  const project = detectDocsProject(root);
  const workspace = new DocsWorkspace(root, project.docsDir, undefined, project.navigationFiles);
  await workspace.move(from, to);
  const outcome = await followPageMove(workspace, project, from, to);
  return { outcome, read: (file: string) => readFileSync(path.join(root, file), "utf8") };
}

const DOCUSAURUS_CONFIG = `module.exports = {
  baseUrl: "/",
  plugins: [
    [
      "@docusaurus/plugin-client-redirects",
      {
        redirects: [
          { from: "/docs/legacy", to: "/docs/intro" },
        ],
      },
    ],
  ],
};
`;

describe("a moved page keeps its old URL where the framework can", () => {
  it("Docusaurus with the client redirects plugin: a { from, to } entry by the docs plugin's routes", async () => {
    const { outcome, read } = await move({ "docusaurus.config.js": DOCUSAURUS_CONFIG, "sidebars.js": "module.exports = {};\n", "docs/02-guides/webhooks.md": "# Webhooks\n" }, "docs/02-guides/webhooks.md", "docs/02-guides/events.md");
    expect(outcome).toEqual({ done: ["added a redirect /docs/guides/webhooks → /docs/guides/events to docusaurus.config.js"], changed: ["docusaurus.config.js"] });
    expect(read("docusaurus.config.js")).toContain(`        redirects: [\n          { from: "/docs/guides/webhooks", to: "/docs/guides/events" },\n          { from: "/docs/legacy", to: "/docs/intro" },`);
  });

  it("Docusaurus with its redirects in a JSON file the config requires (defang's shape): one entry appended there, in place", async () => {
    const redirects = `[\n  {\n    "from": "/docs/faq",\n    "to": "/docs/intro/faq"\n  }\n]\n`;
    const config = `const redirects = require("./redirects.json");\nmodule.exports = { baseUrl: "/", plugins: [["@docusaurus/plugin-client-redirects", { redirects }]] };\n`;
    const { outcome, read } = await move({ "docusaurus.config.js": config, "redirects.json": redirects, "docs/a.md": "# A\n" }, "docs/a.md", "docs/b.md");
    expect(outcome).toEqual({ done: ["added a redirect /docs/a → /docs/b to redirects.json"], changed: ["redirects.json"] });
    expect(read("redirects.json")).toBe(`[\n  {\n    "from": "/docs/faq",\n    "to": "/docs/intro/faq"\n  },\n  {\n    "from": "/docs/a",\n    "to": "/docs/b"\n  }\n]\n`);
    expect(read("docusaurus.config.js")).toBe(config);
  });

  it("Docusaurus: a page with an absolute slug keeps its URL and needs none; a site without the plugin is told so", async () => {
    const slugged = await move({ "docusaurus.config.js": DOCUSAURUS_CONFIG, "docs/a.md": "---\nslug: /api\n---\n# API\n" }, "docs/a.md", "docs/reference/a.md");
    expect(slugged.outcome).toEqual({ done: [], changed: [] });
    const bare = await move({ "docusaurus.config.js": "module.exports = { baseUrl: '/' };\n", "docs/a.md": "# A\n" }, "docs/a.md", "docs/b.md");
    expect(bare.outcome).toEqual({ none: "the site does not use @docusaurus/plugin-client-redirects, so /docs/a now answers 404 (add the plugin and a redirect to /docs/b)" });
  });

  it("MkDocs with the redirects plugin: an entry in redirect_maps, comments and layout kept", async () => {
    const yml = "site_name: Acme\n# The plugins we use\nplugins:\n  - search\n  - redirects\nnav:\n  - old.md\n";
    const { outcome, read } = await move({ "mkdocs.yml": yml, "docs/old.md": "# Old\n" }, "docs/old.md", "docs/guide/new.md");
    expect(outcome).toEqual({ done: ["added a redirect old.md → guide/new.md to mkdocs.yml (redirect_maps)", "renamed 1 navigation entry in mkdocs.yml"], changed: ["mkdocs.yml"] });
    expect(read("mkdocs.yml")).toBe("site_name: Acme\n# The plugins we use\nplugins:\n  - search\n  - redirects:\n      redirect_maps:\n        old.md: guide/new.md\nnav:\n  - guide/new.md\n");
    const again = await move({ "mkdocs.yml": read("mkdocs.yml"), "docs/guide/new.md": "# New\n" }, "docs/guide/new.md", "docs/guide/newer.md");
    expect(again.read("mkdocs.yml")).toContain("redirect_maps:\n        old.md: guide/new.md\n        guide/new.md: guide/newer.md\n");
  });

  it("MkDocs: the diff of mkdocs.yml is the lines the move needs; tags, flow lists, quoting, comments and long lines stay", async () => {
    const yml = [
      "site_name: Acme docs # the name in the header",
      "theme:",
      "  name: material",
      "  features: [navigation.tabs, content.code.copy]",
      "markdown_extensions:",
      "  - pymdownx.emoji:",
      "      emoji_index: !!python/name:material.extensions.emoji.twemoji",
      "      emoji_generator: !!python/name:material.extensions.emoji.to_svg",
      "  - toc:",
      "      permalink: true",
      "plugins:",
      "  - search",
      "  - redirects:",
      "      redirect_maps:",
      "        'legacy.md': 'index.md'",
      "nav:",
      "  - Home: index.md",
      "  - 'Guides':",
      "    - \"Setting things up\": 'guides/setup.md'",
      `  - A very long title that goes well past eighty characters so a serializer would fold it: guides/long.md`,
      "",
    ].join("\n");
    const { outcome, read } = await move({ "mkdocs.yml": yml, "docs/index.md": "# Home\n", "docs/guides/setup.md": "# Setup\n", "docs/guides/long.md": "# Long\n" }, "docs/guides/setup.md", "docs/start/setup.md");
    expect(outcome).toMatchObject({ changed: ["mkdocs.yml"] });
    const before = yml.split("\n");
    const after = read("mkdocs.yml").split("\n");
    expect(after.filter((line) => !before.includes(line))).toEqual(["        guides/setup.md: start/setup.md", `    - "Setting things up": 'start/setup.md'`]);
    expect(before.filter((line) => !after.includes(line))).toEqual([`    - "Setting things up": 'guides/setup.md'`]);
  });

  it("says why not where there is no mechanism: MkDocs without the plugin, VitePress", async () => {
    expect((await move({ "mkdocs.yml": "site_name: Acme\n", "docs/a.md": "# A\n" }, "docs/a.md", "docs/b.md")).outcome).toMatchObject({ none: expect.stringMatching(/does not enable the redirects plugin/) });
    expect((await move({ ".vitepress/config.ts": "export default {}\n", "a.md": "# A\n" }, "a.md", "b.md")).outcome).toMatchObject({ none: expect.stringMatching(/^VitePress has no redirects/) });
  });
});

describe("Mintlify: a move edits docs.json and the files its $refs name in place", () => {
  const DOCS_JSON = `{
  "$schema": "https://mintlify.com/docs.json",
  "theme": "mint",
  "name": "Acme",
  "navigation": {
    "languages": [
      {
        "language": "en",
        "tabs": [
          { "tab": "Guides", "groups": [{ "group": "Start", "pages": ["index", "guides/webhooks"] }] },
          { "tab": "API", "menu": [{ "item": "REST", "pages": ["api/intro", "GET /users"] }] }
        ]
      },
      { "$ref": "./fr/navigation.json" }
    ]
  },
  "redirects": { "$ref": "./redirects.json" },
  "footer": { "socials": { "x": "https://x.com/acme" } }
}
`;
  const REDIRECTS = `[
\t{
\t\t"source": "/legacy",
\t\t"destination": "/index"
\t},
\t{
\t\t"source": "/old/:slug*",
\t\t"destination": "/guides/:slug*"
\t}
]
`;
  const FR = `{"language": "fr", "groups": [{"group": "Début", "pages": ["fr/index", "guides/webhooks"]}]}\n`;

  it("renames every navigation entry where it is written and appends one redirect to the $ref'd list; nothing else changes", async () => {
    const files = { "docs.json": DOCS_JSON, "redirects.json": REDIRECTS, "fr/navigation.json": FR, "index.mdx": "# Home\n", "guides/webhooks.mdx": "# Webhooks\n", "api/intro.mdx": "# API\n", "fr/index.mdx": "# Accueil\n" };
    const { outcome, read } = await move(files, "guides/webhooks.mdx", "guides/events.mdx");
    expect(outcome).toEqual({
      done: ["added a redirect /guides/webhooks → /guides/events to redirects.json", "renamed 2 navigation entries in docs.json, fr/navigation.json"],
      changed: ["docs.json", "fr/navigation.json", "redirects.json"],
    });
    // docs.json: its $ref to the redirects stays, and the one line that named the page is the only change.
    expect(read("docs.json")).toBe(DOCS_JSON.replace(`"pages": ["index", "guides/webhooks"]`, `"pages": ["index", "guides/events"]`));
    expect(read("fr/navigation.json")).toBe(FR.replace(`"guides/webhooks"]`, `"guides/events"]`));
    // The redirects file keeps its entries and its tabs; one entry is added after them.
    const redirects = read("redirects.json");
    expect(redirects.startsWith(REDIRECTS.slice(0, REDIRECTS.lastIndexOf("\t}") + 2))).toBe(true);
    expect(JSON.parse(redirects)).toEqual([...JSON.parse(REDIRECTS), { source: "/guides/webhooks", destination: "/guides/events" }]);
    expect(redirects).toContain(`\t{\n\t\t"source": "/guides/webhooks",`);
  });

  it("a site without redirects gets a redirects list at the end of docs.json; a broken $ref is said, not guessed", async () => {
    const plain = `{\n  "theme": "mint",\n  "name": "Acme",\n  "navigation": { "pages": ["a"] }\n}\n`;
    const { outcome, read } = await move({ "docs.json": plain, "a.mdx": "# A\n" }, "a.mdx", "b.mdx");
    expect(outcome).toMatchObject({ changed: ["docs.json"] });
    expect(read("docs.json")).toBe(`{\n  "theme": "mint",\n  "name": "Acme",\n  "navigation": { "pages": ["b"] },\n  "redirects": [\n    {\n      "source": "/a",\n      "destination": "/b"\n    }\n  ]\n}\n`);
    const broken = await move({ "docs.json": `{"navigation": {"$ref": "./missing.json"}}`, "a.mdx": "# A\n" }, "a.mdx", "b.mdx");
    expect(broken.outcome).toEqual({ none: "docs.json: $ref names missing.json, which does not exist, so neither the navigation nor the redirects could be updated" });
  });
});
