import path from "node:path";
import type { DocsWorkspace } from "../sandbox/workspace.js";
import type { DocsProject } from "./framework.js";
import { docusaurusRedirect, mkdocsRedirect, type RedirectOutcome } from "./redirects.js";

/**
 * What the framework needs when a page moves, so its old URL keeps working: Mintlify, a redirect in
 * docs.json and the navigation entry renamed; Docusaurus, an entry for the client redirects
 * plugin; MkDocs, one in the redirects plugin's map. Where there is no mechanism (VitePress, plain
 * Markdown, a site without the plugin), `none` says why, for the pull request.
 */
export async function followPageMove(workspace: DocsWorkspace, project: DocsProject, from: string, to: string): Promise<RedirectOutcome> {
  const isPage = (file: string) => project.pageExtensions.includes(path.posix.extname(file));
  if (!isPage(from) || !isPage(to)) return { done: [], changed: [] };
  if (project.framework === "docusaurus") return docusaurusRedirect(workspace, project, from, to);
  if (project.framework === "mkdocs") return mkdocsRedirect(workspace, project, from, to);
  const [nav] = project.navigationFiles;
  if (project.framework !== "mintlify" || !nav) {
    return { none: project.framework === "vitepress" ? "VitePress has no redirects (its rewrites map files to URLs), so the old URL now answers 404" : "plain Markdown has no redirects" };
  }
  const base = path.posix.dirname(nav);
  const pageId = (file: string) => path.posix.relative(base, file).replace(/\.mdx?$/, "");
  const [oldId, newId] = [pageId(from), pageId(to)];
  const config = JSON.parse(await workspace.read(nav)) as Record<string, unknown>;
  let renamed = 0;
  const rename = (node: unknown): unknown => {
    if (node === oldId) {
      renamed++;
      return newId;
    }
    if (Array.isArray(node)) return node.map(rename);
    if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === "redirects" ? value : rename(value)]));
    return node;
  };
  const updated = rename(config) as Record<string, unknown>;
  const redirects = Array.isArray(updated.redirects) ? (updated.redirects as unknown[]) : [];
  redirects.push({ source: `/${oldId}`, destination: `/${newId}` });
  updated.redirects = redirects;
  await workspace.write(nav, `${JSON.stringify(updated, null, 2)}\n`);
  const done = [`added a redirect /${oldId} → /${newId} to ${nav}`];
  if (renamed > 0) done.push(`renamed ${renamed} navigation entr${renamed === 1 ? "y" : "ies"} in ${nav}`);
  return { done, changed: [nav] };
}
