import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { detectDocsProject, docusaurusDocIds, listPageFiles, vitepressConfigFiles, type DocsProject } from "../../src/action/docs/framework.js";
import { siteModel, vitepressBases, vitepressUrl } from "../../src/action/docs/site-model.js";
import { safeDecode } from "../../src/action/docs/anchors.js";
import { analyzePage } from "../../src/action/validation/page.js";
import { escapeRegExp } from "../../src/shared/regexp.js";

/**
 * What a scripted agent does on a real site of bench/real-docs, chosen from the site itself rather
 * than written per site: the folder where the site's own writers link to headings of other pages
 * (their links, copied verbatim, are the ground truth for anchors: the framework built them), a
 * page there that the navigation lists on a line of its own (so a new page is listed beside it as
 * a writer would), and a page nobody links to (so a move needs no link edits, only config edits).
 */
export const CORPUS = path.resolve("bench", "real-docs", "corpus.tar.gz");

export interface Source {
  name: string;
  framework: string;
  /** A held-out site (bench/real-docs/README.md): measured by the bench's first run, not a tuning site. */
  heldOut?: string;
}
/**
 * The sites the every-site scenario drives through the real Action: the tuning sites. Held-out sites
 * are the bench's to measure on their first run; a test over them would turn them into tuning data.
 */
export const corpusSources = () => (JSON.parse(readFileSync(path.resolve("bench", "real-docs", "sources.json"), "utf8")) as Source[]).filter((source) => !source.heldOut);

export function extractSite(site: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "inkwell-real-site-"));
  execFileSync("tar", ["-xzf", CORPUS, "-C", dir, `${site}/`]);
  return path.join(dir, site);
}

export interface NavigationLine {
  file: string;
  /** The lines that list the page (one entry: a line, or a VitePress `{ text, link }` object over several), and the text in them that names it. */
  block: string;
  token: string;
  /** How the same entry names the new page. */
  newToken: string;
}

export interface SitePlan {
  project: DocsProject;
  /** Where the new page goes: beside `neighbour`, in its folder and with its extension. */
  newPage: string;
  neighbour: string;
  /** The line that lists `neighbour` in the navigation; null where the navigation is generated. */
  navigation: NavigationLine | null;
  /** Links written by the site's writers, in pages of the new page's folder, to headings of other pages. */
  headingLinks: string[];
  /** How an existing page of the folder links to the new page. */
  linkToNewPage: string;
  /** A listed page no other page links to, and where it moves. */
  move: { from: string; to: string } | null;
}

const stem = (file: string) => file.replace(/\.mdx?$/, "");
const withoutCode = (text: string) => text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
/** Markdown links and Markdown-ish hrefs with an anchor, to another page. */
const anchoredLinks = (text: string) => [...withoutCode(text).matchAll(/\]\(([^)\s#]+#[^)\s]+)\)/g)].map((match) => match[1] as string).filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
/** Headings with code, punctuation or letters outside Latin first, as the issue names them. */
const interesting = (link: string) => /[^\p{ASCII}]|%[0-9a-f]{2}/iu.test(link) ? 0 : /[-_].*[-_]/.test(link.split("#")[1] ?? "") ? 1 : 2;

export async function planSite(siteDir: string): Promise<SitePlan> {
  const project = detectDocsProject(siteDir);
  const model = siteModel(siteDir, project);
  const pages = listPageFiles(siteDir, project.docsDir, project.pageExtensions).filter((file) => model.isPage(file) && !/(^|\/)(index|README)\.mdx?$/i.test(file));
  const docIds = project.framework === "docusaurus" ? new Map([...docusaurusDocIds(siteDir, project)].map(([id, file]) => [file, id])) : new Map<string, string>();
  const texts = new Map(pages.map((file) => [file, readFileSync(path.join(siteDir, file), "utf8")]));
  const navFiles = project.framework === "vitepress" ? vitepressConfigFiles(siteDir, project) : project.navigationFiles.slice(0, 1);

  /** The ways a navigation file may name a page, each with how it would name another. */
  const namings = (navFile: string, navText: string): ((file: string) => string)[] => {
    if (project.framework === "vitepress") {
      const url = (file: string) => vitepressUrl(model, file);
      const bases = vitepressBases(navText).filter((base) => base.startsWith("/"));
      return [url, ...bases.map((base) => (file: string) => (url(file).startsWith(base) ? url(file).slice(base.length) : ""))];
    }
    const relativeTo = (from: string, keep: boolean) => (file: string) => (keep ? path.posix.relative(from, file) : stem(path.posix.relative(from, file)));
    const docId = (file: string) => docIds.get(stem(file)) ?? docIds.get(file) ?? stem(path.posix.relative(project.docsDir, file)).split("/").map((part) => part.replace(/^\d+[-_.]/, "")).join("/");
    return [...(docIds.size ? [docId] : []), relativeTo(path.posix.dirname(navFile), false), relativeTo(path.posix.dirname(navFile), true), relativeTo(project.docsDir, false), relativeTo(project.docsDir, true)];
  };

  const lineFor = (file: string, newFile = file): NavigationLine | null => {
    for (const navFile of navFiles) {
      const navText = readFileSync(path.join(siteDir, navFile), "utf8");
      const lines = navText.split("\n");
      for (const name of namings(navFile, navText)) {
        const token = name(file);
        if (!token || token.startsWith("..") || navText.split(token).length !== 2) continue;
        const quoted = new RegExp(`(^|["'\`\\s(/])${escapeRegExp(token)}(\\.md|\\.html)?(["'\`)\\s,]|$)`);
        const at = lines.findIndex((line) => quoted.test(line));
        if (at < 0) continue;
        const line = lines[at] as string;
        if (/^\s*(?:-\s|"|')/.test(line) || /^\s*\{.*\blink\s*:.*\}\s*,?\s*$/.test(line)) return { file: navFile, block: line, token, newToken: name(newFile) };
        // A VitePress item written over several lines: `{`, its `text` and `link`, `},`.
        if (/^\s*link\s*:/.test(line) && /^\s*\{\s*$/.test(lines[at - 2] ?? "") && /^\s*\},?\s*$/.test(lines[at + 1] ?? "")) return { file: navFile, block: lines.slice(at - 2, at + 2).join("\n"), token, newToken: name(newFile) };
      }
    }
    return null;
  };

  // The folder whose pages link to other pages' headings the most interesting way.
  const candidates = pages
    .flatMap((file) => anchoredLinks(texts.get(file) as string).filter((link) => !link.startsWith("#")).map((link) => ({ file, link })))
    .sort((a, b) => interesting(a.link) - interesting(b.link));
  const folderOf = (file: string) => path.posix.dirname(file);
  const withNeighbour = candidates.find(({ file }) => pages.some((page) => folderOf(page) === folderOf(file) && lineFor(page))) ?? candidates[0];
  const folder = withNeighbour ? folderOf(withNeighbour.file) : folderOf(pages.find((page) => lineFor(page)) ?? (pages[0] as string));
  const inFolder = pages.filter((page) => folderOf(page) === folder);
  const neighbour = inFolder.find((page) => lineFor(page)) ?? (inFolder[0] as string);
  // A writer's link is ground truth only where the framework checks anchors; a heading the link names is read to be sure.
  const written = [...new Set(candidates.filter(({ file, link }) => folderOf(file) === folder && namesAHeading(siteDir, model.siteDir, file, link)).map(({ link }) => link))].slice(0, 3);
  const headingLinks = written.length ? written : await headingsOfFolder(inFolder, neighbour, texts, project, model);

  const extension = path.posix.extname(neighbour);
  const newPage = path.posix.join(folder, `inkwell-new-page${extension}`);
  const linkToNewPage = project.framework === "mintlify" ? `/${stem(path.posix.relative(model.siteDir, newPage))}` : `./inkwell-new-page${extension}`;

  // Linked by its whole path (absolute links), by `../folder/name` (relative), or by its name from its own folder.
  const linkedAnywhere = (file: string) => {
    const name = path.posix.basename(stem(file));
    const whole = stem(path.posix.relative(model.siteDir, file));
    const relative = `../${path.posix.basename(folderOf(file))}/${name}`;
    const byName = new RegExp(`\\]\\((?:\\./)?${escapeRegExp(name)}(?:\\.mdx?|\\.html)?[)#]|['"](?:\\./)?${escapeRegExp(name)}(?:\\.mdx?)?['"]`);
    return [...texts.entries()].some(([other, text]) => other !== file && (text.includes(whole) || text.includes(relative) || (folderOf(other) === folderOf(file) && byName.test(text))));
  };
  const unlinked = pages.filter((page) => page !== neighbour && !linkedAnywhere(page) && existsSync(path.join(siteDir, page)));
  // A page of the site, not a repository file such as AGENTS.md that happens to be in the site's folder.
  const lowercase = unlinked.filter((page) => /^[a-z0-9]/.test(path.posix.basename(page)));
  const movable = lowercase.find((page) => lineFor(page)) ?? lowercase[0] ?? unlinked[0];
  const move = movable ? { from: movable, to: path.posix.join(folderOf(movable), `moved-${path.posix.basename(movable)}`) } : null;
  return { project, newPage, neighbour, navigation: lineFor(neighbour, newPage), headingLinks, linkToNewPage, move };
}

/** The navigation entry for the new page: the neighbour's with its name swapped for the new page's, written before it (no trailing comma to move). */
export function navigationEdit(plan: SitePlan): { path: string; find: string; replace: string } | null {
  const { navigation } = plan;
  if (!navigation) return null;
  let added = navigation.block.replace(navigation.token, navigation.newToken);
  if (/^\s*["']/.test(added) && !/,\s*$/.test(added)) added = `${added.trimEnd()},`;
  if (/\}\s*$/.test(added) && !added.includes("\n")) added = `${added.trimEnd()},`;
  if (/\n\s*\}\s*$/.test(added)) added = `${added.trimEnd()},`;
  return { path: navigation.file, find: navigation.block, replace: `${added}\n${navigation.block}` };
}

/** Whether a link's anchor names a heading of its target as the heading reads (letters and digits compared, so no slug function decides). */
function namesAHeading(siteDir: string, siteRoot: string, from: string, link: string): boolean {
  const [target, anchor] = link.split("#") as [string, string];
  const base = target.startsWith("/") ? path.posix.join(siteRoot, target) : path.posix.join(path.posix.dirname(from), target);
  const bare = base.replace(/\.(mdx?|html)$/, "");
  const file = [`${bare}.mdx`, `${bare}.md`, `${bare}/index.mdx`, `${bare}/index.md`].find((candidate) => existsSync(path.join(siteDir, candidate)));
  if (!file) return false;
  const letters = (text: string) => safeDecode(text).toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const wanted = letters(anchor);
  return readFileSync(path.join(siteDir, file), "utf8").split("\n").some((line) => {
    const heading = /^#{1,6}\s+(.*?)\s*(?:\{#([^}]+)\})?\s*$/.exec(line);
    return heading !== null && (letters(heading[1] as string) === wanted || letters(heading[2] ?? "") === wanted);
  });
}


/**
 * For a site whose writers never link to another page's heading (Mintlify's help-center template):
 * the ids Inkwell's page analysis gives a page of the folder, longest first (the ones with the most
 * words and punctuation in their heading), linked as the framework links pages.
 */
async function headingsOfFolder(inFolder: string[], neighbour: string, texts: Map<string, string>, project: DocsProject, model: ReturnType<typeof siteModel>): Promise<string[]> {
  for (const file of inFolder.filter((page) => page !== neighbour)) {
    const { anchors } = await analyzePage(file, texts.get(file) as string, project.framework, model.slugOptions);
    const target = project.framework === "mintlify" ? `/${stem(path.posix.relative(model.siteDir, file))}` : `./${path.posix.basename(file)}`;
    const longest = [...anchors].sort((a, b) => b.length - a.length).slice(0, 3);
    if (longest.length) return longest.map((anchor) => `${target}#${anchor}`);
  }
  return [];
}
