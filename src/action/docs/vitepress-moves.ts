import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { escapeRegExp } from "../../shared/regexp.js";
import type { DocsWorkspace } from "../sandbox/workspace.js";
import type { DocsProject } from "./framework.js";
import { renamedLine, type RedirectOutcome } from "./redirects.js";
import { siteModel } from "./site-model.js";

const NO_REDIRECTS = "VitePress has no redirects (its rewrites map files to URLs), so the old URL now answers 404";
const CONFIG_FILE = /\.(?:[cm]?[jt]s)$/;

/**
 * VitePress: its navigation is code (`themeConfig.sidebar` and `nav`, often split across locale
 * config files), so a moved page's entries are renamed where they name it literally: a `link:`
 * string equal to its URL (with or without `.md`/`.html`, as VitePress accepts), or to its URL
 * less a `base:` the same file declares, the way VitePress joins a sidebar group's base with its
 * items' links. Each edit is that string and nothing else. There is no redirect to add.
 */
export async function vitepressMove(workspace: DocsWorkspace, project: DocsProject, from: string, to: string): Promise<RedirectOutcome> {
  const model = siteModel(workspace.repoRoot, project);
  const url = (file: string) => `/${model.rewrite ? model.rewrite.toUrl(file) : path.posix.relative(model.siteDir, file).replace(/\.md$/, "")}`.replace(/(^|\/)index$/, "$1");
  const [oldUrl, newUrl] = [url(from), url(to)];
  const texts = new Map<string, string>();
  let renamed = 0;
  for (const file of configFiles(workspace.repoRoot, project)) {
    const text = readFileSync(path.join(workspace.repoRoot, file), "utf8");
    const bases = [...text.matchAll(/\bbase\s*:\s*(['"`])([^'"`]*)\1/g)].map((match) => match[2] as string);
    // Each way the file may name the page, with how to name the new one: absolute, then relative to each base.
    const names: [string, string][] = [[oldUrl, newUrl], ...bases.filter((base) => base.startsWith("/") && oldUrl.startsWith(base) && newUrl.startsWith(base)).map((base) => [oldUrl.slice(base.length), newUrl.slice(base.length)] as [string, string])];
    let edited = text;
    for (const [oldName, newName] of names.filter(([oldName]) => oldName !== "")) {
      const literal = new RegExp(`(\\blink\\s*:\\s*)(['"\`])${escapeRegExp(oldName)}(\\.md|\\.html)?\\2`, "g");
      edited = edited.replace(literal, (_, key: string, quote: string, suffix: string | undefined) => {
        renamed++;
        return `${key}${quote}${newName}${suffix ?? ""}${quote}`;
      });
    }
    if (edited !== text) texts.set(file, edited);
  }
  if (texts.size === 0) return { none: NO_REDIRECTS };
  const changed = [...texts.keys()];
  await workspace.withHarnessAccess(changed, async () => {
    for (const [file, text] of texts) await workspace.write(file, text);
  });
  return { done: [renamedLine(renamed, changed.join(", ")), `added no redirect: ${NO_REDIRECTS}`], changed };
}

/** The config and the files beside it that may hold its navigation: `.vitepress/` (theme aside) and the locale folders' config files. */
function configFiles(repoRoot: string, project: DocsProject): string[] {
  const found = new Set(project.configFile ? [project.configFile] : []);
  const vitepressDir = path.posix.join(project.docsDir, ".vitepress");
  const scan = (dir: string, depth: number) => {
    if (!existsSync(path.join(repoRoot, dir))) return;
    for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const file = path.posix.join(dir, entry.name);
      if (entry.isDirectory() && depth > 0 && !["node_modules", "theme", "public", "dist", "cache"].includes(entry.name) && !entry.name.startsWith(".")) scan(file, depth - 1);
      else if (entry.isFile() && CONFIG_FILE.test(entry.name) && !entry.name.endsWith(".d.ts")) found.add(file);
    }
  };
  scan(vitepressDir, 2);
  // Locale configs (`<lang>/config.ts`) and a config split beside the docs (`config.ts`).
  for (const dir of [project.docsDir, ...readdirSync(path.join(repoRoot, project.docsDir), { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules").map((entry) => path.posix.join(project.docsDir, entry.name))]) {
    for (const name of ["config.ts", "config.mts", "config.js", "config.mjs"]) if (existsSync(path.join(repoRoot, dir, name))) found.add(path.posix.join(dir, name));
  }
  return [...found].filter((file) => /\b(?:sidebar|nav|link)\b/.test(readFileSync(path.join(repoRoot, file), "utf8")));
}
