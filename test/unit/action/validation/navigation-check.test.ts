import { describe, expect, it } from "vitest";
import { writeRepo } from "../../../helpers/temp-repo.js";
import { detectDocsProject } from "../../../../src/action/docs/framework.js";
import { navigationProblems } from "../../../../src/action/validation/navigation-check.js";

/** The navigation problems of a run that added these pages. */
function addedPages(files: Record<string, string>, added: string[]): string[] {
  const repoRoot = writeRepo(files, "inkwell-nav-");
  return navigationProblems({ repoRoot, project: detectDocsProject(repoRoot), branchChanges: added.map((path) => ({ path, status: "added" as const })) });
}

describe("VitePress: pages that need no sidebar entry", () => {
  const config = "export default {\n  locales: { root: { label: 'English', link: '/' }, fr: { label: 'Français', link: '/fr/', themeConfig: { outline: { label: 'Sur cette page' } } } },\n  themeConfig: { sidebar: [{ text: 'Guide', items: [{ text: 'Start', link: '/guide/start' }] }] }\n}\n";

  it("the site's root, a language's root, and a page with layout: home (or isHome) are home pages; another page is not", () => {
    const files = {
      ".vitepress/config.ts": config,
      "index.md": "# Home\n",
      "fr/index.md": "# Accueil\n",
      "fr/guide/index.md": "# Guide\n",
      "launch.md": "---\nlayout: home\n---\n",
      "landing.md": "---\nisHome: true\nlayout: page\n---\n",
      "guide/start.md": "# Start\n",
      "guide/other.md": "# Other\n",
    };
    expect(addedPages(files, ["index.md", "fr/index.md", "launch.md", "landing.md", "guide/start.md", "guide/other.md", "fr/guide/index.md"])).toEqual([
      "guide/other.md: new page is not in the navigation (.vitepress/config.ts): add it there",
      "fr/guide/index.md: new page is not in the navigation (.vitepress/config.ts): add it there",
    ]);
  });

  it("a page a data loader's createContentLoader lists is listed by the page that renders the loader's data", () => {
    const files = {
      ".vitepress/config.ts": config,
      "blog.md": "---\nlayout: home\n---\n\n<BlogIndex />\n",
      "_data/blog.data.ts": "import { createContentLoader } from 'vitepress'\nexport default createContentLoader('blog/*.md')\n",
      "blog/new-release.md": "# New release\n",
      "news/old.md": "# Not a post\n",
    };
    expect(addedPages(files, ["blog/new-release.md", "news/old.md"])).toEqual(["news/old.md: new page is not in the navigation (.vitepress/config.ts): add it there"]);
  });
});
