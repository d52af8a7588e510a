import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { FileChange } from "../../shared/job-outcome-schemas.js";
import type { ChangedFile } from "../git.js";
import type { DocsProject } from "./framework.js";
import { docusaurusBaseUrl, docusaurusRoute, docusaurusRouteBase, frameworkConfig, frontmatterOf, mkdocsSitePrefix } from "./site-routes.js";

/**
 * Where the site serves each page file, written as the service's analytics count pages (a leading
 * slash, no trailing one: `/guides/setup`), so a job's changed files can be matched with their
 * readers. The inverse of site-routes.ts, framework by framework: Mintlify and VitePress serve a
 * page at its path under the docs directory without its extension (`index` standing for its
 * folder; VitePress under its `base`); Docusaurus at its route (slug, id or path) under `baseUrl`;
 * MkDocs at its path under `docs_dir` below `site_url`'s path (`index` and `README` for the folder).
 * Plain Markdown repositories have no known routes.
 */
export interface PagePaths {
  /** The site path of a page file (repository-relative); null for a file that is no page. `text`: the file's content, when it is not the working tree's (a file as it was before a move). */
  of(file: string, text?: string): string | null;
}

const stripSlashes = (value: string) => value.replace(/^\/+|\/+$/g, "");
const sitePath = (...parts: string[]) => `/${parts.map(stripSlashes).filter(Boolean).join("/")}`;

export function pagePaths(repoRoot: string, project: DocsProject): PagePaths {
  const route = routeOf(project, frameworkConfig(repoRoot, project));
  return {
    of(file, text) {
      if (!route) return null;
      const relative = project.docsDir === "." ? file : path.posix.relative(project.docsDir, file);
      if (relative.startsWith("../") || !project.pageExtensions.some((extension) => relative.endsWith(extension))) return null;
      const content = text ?? (existsSync(path.join(repoRoot, file)) ? readFileSync(path.join(repoRoot, file), "utf8") : "");
      return route(relative, content);
    },
  };
}

type Route = (relative: string, content: string) => string;

function routeOf(project: DocsProject, config: string): Route | null {
  switch (project.framework) {
    case "mintlify":
      return (relative) => sitePath(withoutIndex(relative, /^index$/i));
    case "vitepress": {
      const base = /\bbase\s*:\s*['"`]([^'"`]*)['"`]/.exec(config)?.[1] ?? "/";
      return (relative) => sitePath(base, withoutIndex(relative, /^index$/i));
    }
    case "docusaurus": {
      const baseUrl = docusaurusBaseUrl(config);
      const routeBase = docusaurusRouteBase(config);
      return (relative, content) => sitePath(baseUrl, docusaurusRoute(relative, frontmatterOf(content), routeBase));
    }
    case "mkdocs": {
      const prefix = mkdocsSitePrefix(config);
      return (relative) => sitePath(prefix, withoutIndex(relative, /^(index|readme)$/i));
    }
    case "markdown":
      return null;
  }
}

/** A page's path without its extension; a page named like `index` stands for its folder. */
function withoutIndex(relative: string, index: RegExp): string {
  const segments = relative.replace(/\.[^./]+$/, "").split("/");
  if (index.test(segments.at(-1) ?? "")) segments.pop();
  return segments.join("/");
}

/**
 * The branch's changed files as the run reports them: each with the site path it is served at when
 * it is a page, and for a moved or deleted page the path it was served at (from its content before,
 * `readBefore`, since a slug in its frontmatter can route it), so the closed loop can follow
 * readers and agents that still ask for it.
 */
export async function reportedFiles(files: ChangedFile[], pages: PagePaths, readBefore: (file: string) => Promise<string>): Promise<FileChange[]> {
  return Promise.all(
    files.map(async (file) => {
      const page = file.status === "deleted" ? null : pages.of(file.path);
      const earlier = file.status === "deleted" ? file.path : file.from;
      const fromPage = earlier ? pages.of(earlier, await readBefore(earlier).catch(() => "")) : null;
      return {
        path: file.path,
        change: file.status,
        ...(file.from ? { from: file.from } : {}),
        ...(page ? { page } : {}),
        ...(fromPage ? { fromPage } : {}),
      };
    }),
  );
}
