import path from "node:path";
import type { DocsWorkspace } from "../sandbox/workspace.js";
import type { DocsProject } from "./framework.js";

/**
 * What the framework needs when a page moves: for Mintlify, a redirect from the old URL and the
 * navigation entry renamed. Returns what was done, for the tool's answer; nothing for frameworks
 * whose redirects live in code (Docusaurus, VitePress) or a plugin the repo may not have.
 */
export async function followPageMove(workspace: DocsWorkspace, project: DocsProject, from: string, to: string): Promise<string[]> {
  const [nav] = project.navigationFiles;
  if (project.framework !== "mintlify" || !nav) return [];
  const isPage = (file: string) => project.pageExtensions.includes(path.posix.extname(file));
  if (!isPage(from) || !isPage(to)) return [];
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
  return done;
}
