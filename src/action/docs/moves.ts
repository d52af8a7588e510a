import { readFileSync } from "node:fs";
import path from "node:path";
import type { DocsWorkspace } from "../sandbox/workspace.js";
import type { DocsProject } from "./framework.js";
import { appendJsonValue, setJsonValue } from "./json-edits.js";
import { MintlifyConfigError, readMintlifyConfig } from "./mintlify-docs-json.js";
import { pagePaths } from "./page-paths.js";
import { docusaurusRedirect, mkdocsRedirect, renamedLine, type RedirectOutcome } from "./redirects.js";
import { vitepressMove } from "./vitepress-moves.js";

/**
 * What the framework needs when a page moves, so its old URL keeps working: Mintlify, a redirect in
 * docs.json and the navigation entry renamed; Docusaurus, an entry for the client redirects
 * plugin; MkDocs, one in the redirects plugin's map; VitePress, which has no redirects, its sidebar
 * and nav links renamed. Where there is no mechanism (plain Markdown, a site without the plugin),
 * `none` says why, for the pull request.
 */
export async function followPageMove(workspace: DocsWorkspace, project: DocsProject, from: string, to: string): Promise<RedirectOutcome> {
  const isPage = (file: string) => project.pageExtensions.includes(path.posix.extname(file));
  if (!isPage(from) || !isPage(to)) return { done: [], changed: [] };
  if (project.framework === "docusaurus") return docusaurusRedirect(workspace, project, from, to);
  if (project.framework === "mkdocs") return mkdocsRedirect(workspace, project, from, to);
  if (project.framework === "vitepress") return vitepressMove(workspace, project, from, to);
  const [nav] = project.navigationFiles;
  if (project.framework !== "mintlify" || !nav) return { none: "plain Markdown has no redirects" };
  return mintlifyMove(workspace, project, nav, from, to);
}

/**
 * Mintlify: the navigation entries that named the page are renamed where they are written, and one
 * redirect is appended to the redirects list, following `$ref`s into the files that hold them; each
 * file is edited in place (json-edits.ts), so its diff is those lines and nothing else.
 */
async function mintlifyMove(workspace: DocsWorkspace, project: DocsProject, nav: string, from: string, to: string): Promise<RedirectOutcome> {
  let config;
  try {
    config = readMintlifyConfig(workspace.repoRoot, nav);
  } catch (error) {
    if (!(error instanceof MintlifyConfigError)) throw error;
    return { none: `${error.message}, so neither the navigation nor the redirects could be updated` };
  }
  const base = path.posix.dirname(nav);
  const pageId = (file: string) => path.posix.relative(base, file).replace(/\.mdx?$/, "");
  const [oldId, newId] = [pageId(from), pageId(to)];
  const pages = pagePaths(workspace.repoRoot, project);
  const [source, destination] = [pages.of(from, ""), pages.of(to, "")] as [string, string];
  const texts = new Map<string, string>();
  const textOf = (file: string) => texts.get(file) ?? readFileSync(path.join(workspace.repoRoot, file), "utf8");

  const renamed = config.navigation.filter((entry) => entry.page.replace(/^\/+/, "") === oldId);
  for (const entry of renamed) texts.set(entry.at.file, setJsonValue(textOf(entry.at.file), entry.at.path, entry.page.startsWith("/") ? `/${newId}` : newId));
  const done: string[] = [];
  if (!config.redirects.some((redirect) => redirect.source === source && redirect.destination === destination)) {
    const entry = { source, destination };
    const at = config.redirectsAt;
    if (at) texts.set(at.file, appendJsonValue(textOf(at.file), at.path, entry));
    else texts.set(nav, setJsonValue(textOf(nav), ["redirects"], [entry]));
    done.push(`added a redirect ${source} → ${destination} to ${at?.file ?? nav}`);
  }
  if (renamed.length > 0) done.push(renamedLine(renamed.length, [...new Set(renamed.map((entry) => entry.at.file))].join(", ")));
  const changed = [...texts.keys()];
  await workspace.withHarnessAccess(changed, async () => {
    for (const [file, text] of texts) await workspace.write(file, text);
  });
  return { done, changed };
}
