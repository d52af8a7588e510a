import path from "node:path";
import { isMap, isScalar, isSeq, parseDocument, type YAMLMap } from "yaml";
import type { DocsWorkspace } from "../sandbox/workspace.js";
import type { DocsProject } from "./framework.js";
import { docusaurusRoute, docusaurusRouteBase, frontmatterOf } from "./site-routes.js";

/** What keeping a moved page's old URL working did: the lines for the tool's answer and the files it changed, or why it could not. */
export type RedirectOutcome = { done: string[]; changed: string[] } | { none: string };

/**
 * Docusaurus: a `{ from, to }` entry in the `redirects` of `@docusaurus/plugin-client-redirects`
 * in the site's config, when the site uses that plugin with a literal `redirects: [` list (config
 * is code: anything else is left to a person, and the PR says so). The page's old and new routes
 * come from the docs plugin's rules, so a page with an absolute slug needs none.
 */
export async function docusaurusRedirect(workspace: DocsWorkspace, project: DocsProject, from: string, to: string): Promise<RedirectOutcome> {
  const configFile = project.configFile;
  if (!configFile) return { none: "the Docusaurus config was not found" };
  return workspace.withHarnessAccess([configFile], () => addDocusaurusRedirect(workspace, project, configFile, from, to));
}

async function addDocusaurusRedirect(workspace: DocsWorkspace, project: DocsProject, configFile: string, from: string, to: string): Promise<RedirectOutcome> {
  const config = await workspace.read(configFile);
  const routeBase = docusaurusRouteBase(config);
  const front = frontmatterOf(await workspace.read(to));
  const [oldRoute, newRoute] = [from, to].map((file) => `/${docusaurusRoute(path.posix.relative(project.docsDir, file), front, routeBase)}`);
  if (oldRoute === newRoute) return { done: [], changed: [] };
  if (!config.includes("@docusaurus/plugin-client-redirects")) {
    return { none: `the site does not use @docusaurus/plugin-client-redirects, so ${oldRoute} now answers 404 (add the plugin and a redirect to ${newRoute})` };
  }
  const list = /\bredirects\s*:\s*\[/.exec(config);
  if (!list) return { none: `${configFile} has no literal \`redirects: [\` list for the client redirects plugin to add ${oldRoute} → ${newRoute} to` };
  const at = list.index + list[0].length;
  const indent = /\n([ \t]*)[^\n]*$/.exec(config.slice(0, list.index))?.[1] ?? "";
  const entry = `\n${indent}  { from: ${JSON.stringify(oldRoute)}, to: ${JSON.stringify(newRoute)} },`;
  await workspace.write(configFile, config.slice(0, at) + entry + config.slice(at));
  return { done: [`added a redirect ${oldRoute} → ${newRoute} to ${configFile}`], changed: [configFile] };
}

/**
 * MkDocs: an entry in `redirect_maps` of the `redirects` plugin (mkdocs-redirects) in mkdocs.yml,
 * paths relative to `docs_dir`, edited in place so the file's comments and layout stay.
 */
export async function mkdocsRedirect(workspace: DocsWorkspace, project: DocsProject, from: string, to: string): Promise<RedirectOutcome> {
  const file = project.configFile ?? "mkdocs.yml";
  return workspace.withHarnessAccess([file], () => addMkdocsRedirect(workspace, project, file, from, to));
}

async function addMkdocsRedirect(workspace: DocsWorkspace, project: DocsProject, file: string, from: string, to: string): Promise<RedirectOutcome> {
  const doc = parseDocument(await workspace.read(file));
  if (doc.errors.length > 0) return { none: `${file} could not be read as YAML to add a redirect` };
  const plugins = doc.get("plugins");
  const entries = isSeq(plugins) ? plugins.items : [];
  const plugin = entries.find((item) => (isScalar(item) && item.value === "redirects") || (isMap(item) && item.has("redirects")));
  const [oldPath, newPath] = [from, to].map((page) => path.posix.relative(project.docsDir, page));
  if (!plugin || !isSeq(plugins)) return { none: `mkdocs.yml does not enable the redirects plugin (mkdocs-redirects), so the old page's URL now answers 404 (redirect ${oldPath} to ${newPath})` };
  let settings: YAMLMap;
  if (isScalar(plugin)) {
    settings = doc.createNode({ redirect_maps: {} }) as YAMLMap;
    plugins.items[plugins.items.indexOf(plugin)] = doc.createNode({ redirects: settings });
  } else {
    const existing = (plugin as YAMLMap).get("redirects");
    settings = isMap(existing) ? existing : (doc.createNode({ redirect_maps: {} }) as YAMLMap);
    (plugin as YAMLMap).set("redirects", settings);
  }
  const maps = settings.get("redirect_maps");
  if (isMap(maps)) maps.set(oldPath, newPath);
  else settings.set("redirect_maps", doc.createNode({ [oldPath as string]: newPath }));
  await workspace.write(file, doc.toString());
  return { done: [`added a redirect ${oldPath} → ${newPath} to ${file} (redirect_maps)`], changed: [file] };
}
