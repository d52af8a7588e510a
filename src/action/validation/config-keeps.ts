import { parse as parseYaml } from "yaml";
import { mintlifyNavigationPages, navigationPages, type DocsProject } from "../docs/framework.js";
import { readMintlifyConfig } from "../docs/mintlify-docs-json.js";
import { mkdocsPlugins } from "../docs/mkdocs-config.js";
import { frameworkConfig } from "../docs/site-routes.js";
import { siteModel } from "../docs/site-model.js";
import type { ChangedFile } from "../git.js";

/**
 * What a site's config promised its readers before the run: every redirect source (an old URL that
 * keeps working) and every page its navigation listed. The gate checks on every round that the
 * change kept them (docs/action.md): a config rewritten wholesale, a `$ref` replaced by a list, a
 * navigation entry dropped, are refused, whoever made them.
 */
export interface ConfigPromises {
  /** Where the redirects are written, for the message. */
  redirectsFile: string | null;
  redirectSources: string[];
  /** Pages the navigation lists, repository-relative, as navigationPages gives them. */
  navigation: string[];
  /** Why the config could not be read, when it could not. */
  unreadable?: string;
}

export function configPromises(repoRoot: string, project: DocsProject): ConfigPromises {
  const empty: ConfigPromises = { redirectsFile: null, redirectSources: [], navigation: [] };
  try {
    const nav = project.navigationFiles[0];
    if (project.framework === "mintlify" && nav) {
      const config = readMintlifyConfig(repoRoot, nav);
      return { redirectsFile: config.redirectsAt?.file ?? nav, redirectSources: config.redirects.map((redirect) => redirect.source), navigation: mintlifyNavigationPages(config) };
    }
    const navigation = navigationPages(repoRoot, project) ?? [];
    if (project.framework === "mkdocs") {
      const file = project.configFile ?? "mkdocs.yml";
      const config = parseYaml(frameworkConfig(repoRoot, project), { logLevel: "silent" }) as { plugins?: unknown } | null;
      const redirectMaps = mkdocsPlugins(config?.plugins).get("redirects")?.redirect_maps;
      return { redirectsFile: file, redirectSources: Object.keys(redirectMaps && typeof redirectMaps === "object" ? redirectMaps : {}), navigation };
    }
    if (project.framework === "docusaurus" && project.configFile) {
      return { redirectsFile: project.configFile, redirectSources: [...siteModel(repoRoot, project).redirectSources], navigation };
    }
    return { ...empty, navigation };
  } catch (error) {
    // Unreadable before the run, it promised nothing the gate can hold it to; unreadable after, that is the problem.
    return { ...empty, unreadable: error instanceof Error ? error.message.split("\n")[0] : String(error) };
  }
}

/** What the change dropped of what the config promised: redirects gone, navigation entries of pages that still exist (or moved) no longer listed. */
export function brokenPromises(before: ConfigPromises, after: ConfigPromises, branchChanges: ChangedFile[], project: DocsProject, exists: (file: string) => boolean): string[] {
  if (after.unreadable && !before.unreadable) return [`${project.navigationFiles[0] ?? "the config"}: cannot be read (${after.unreadable}), so the site's redirects and navigation are not kept: fix it`];
  const problems: string[] = [];
  const sources = new Set(after.redirectSources);
  for (const source of before.redirectSources) {
    if (!sources.has(source)) problems.push(`${after.redirectsFile ?? before.redirectsFile}: the redirect from ${source} is gone: keep every redirect the site had (move_file adds the new ones)`);
  }
  const listed = new Set(after.navigation.map(stem));
  const movedTo = new Map(branchChanges.filter((change) => change.status === "renamed" && change.from).map((change) => [stem(change.from as string), stem(change.path)]));
  const nav = project.navigationFiles[0] ?? "the navigation";
  for (const entry of new Set(before.navigation.map(stem))) {
    const now = movedTo.get(entry) ?? entry;
    const stillThere = project.pageExtensions.some((ext) => exists(`${now}${ext}`)) || exists(now);
    if (stillThere && !listed.has(now)) problems.push(`${nav}: no longer lists '${entry}', a page that is still there: keep every navigation entry of a page that stays`);
  }
  return problems;
}

const stem = (file: string) => file.replace(/\.mdx?$/, "").replace(/^\/+/, "");
