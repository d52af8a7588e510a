import path from "node:path";
import { isMap, isScalar, isSeq, type Scalar, type YAMLMap } from "yaml";
import type { DocsWorkspace } from "../sandbox/workspace.js";
import type { DocsProject } from "./framework.js";
import { appendJsonValue } from "./json-edits.js";
import { applyTextEdits, blockText, eolOf, mapEntryEdit, nodeStart, readYaml, scalarEdit, scalarsEqualTo, scalarText, type TextEdit } from "./yaml-edits.js";
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
  if (!list) {
    // The list kept in a JSON file the config loads (`const redirects = require("./redirects.json")`): appended there, in place.
    const required = /\b(?:require\(\s*|from\s+)['"`](\.{1,2}\/[^'"`]+\.json)['"`]/g;
    const file = [...config.matchAll(required)].map((match) => path.posix.normalize(path.posix.join(path.posix.dirname(configFile), match[1] as string))).find((candidate) => /redirect/i.test(candidate));
    if (file) {
      return workspace.withHarnessAccess([file], async () => {
        const text = await workspace.read(file);
        await workspace.write(file, appendJsonValue(text, [], { from: oldRoute, to: newRoute }));
        return { done: [`added a redirect ${oldRoute} → ${newRoute} to ${file}`], changed: [file] };
      });
    }
    return { none: `${configFile} has no literal \`redirects: [\` list for the client redirects plugin to add ${oldRoute} → ${newRoute} to` };
  }
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
  const text = await workspace.read(file);
  const doc = readYaml(text);
  if (!doc) return { none: `${file} could not be read as YAML to add a redirect` };
  const [oldPath, newPath] = [from, to].map((page) => path.posix.relative(project.docsDir, page)) as [string, string];
  const edits: TextEdit[] = scalarsEqualTo(doc.get("nav", true), oldPath).map((scalar) => scalarEdit(scalar, newPath));
  const renamed = edits.length;
  const plugins = doc.get("plugins", true);
  const entries = isSeq(plugins) ? plugins.items : [];
  const plugin = entries.find((item) => (isScalar(item) && item.value === "redirects") || (isMap(item) && item.has("redirects")));
  const done: string[] = [];
  if (!plugin) {
    if (edits.length > 0) await workspace.write(file, applyTextEdits(text, edits));
    return { none: `mkdocs.yml does not enable the redirects plugin (mkdocs-redirects), so the old page's URL now answers 404 (redirect ${oldPath} to ${newPath})` };
  }
  const maps = { [oldPath]: newPath };
  if (isScalar(plugin)) {
    // `- redirects` becomes `- redirects:` with the map below it (or `{redirects: …}` in a flow list).
    const { column } = nodeStart(text, plugin);
    const eol = eolOf(text);
    const replacement = isSeq(plugins) && plugins.flow ? `{redirects: {redirect_maps: {${scalarText(oldPath, undefined)}: ${scalarText(newPath, undefined)}}}}` : `redirects:${eol}${blockText("redirect_maps", maps, column + 2, eol)}`;
    edits.push({ ...scalarEdit(plugin as Scalar, ""), text: replacement });
  } else {
    const settings = (plugin as YAMLMap).get("redirects", true);
    const existing = isMap(settings) ? settings.get("redirect_maps", true) : null;
    if (isMap(existing)) edits.push(mapEntryEdit(text, existing, oldPath, newPath));
    else if (isMap(settings)) edits.push(mapEntryEdit(text, settings, "redirect_maps", maps));
    else {
      // `- redirects:` with nothing under it.
      const key = (plugin as YAMLMap).items[0]?.key as Scalar;
      const eol = eolOf(text);
      const at = (key.range as [number, number, number])[1];
      const colon = text.indexOf(":", at) + 1;
      edits.push({ offset: colon, length: 0, text: `${eol}${blockText("redirect_maps", maps, nodeStart(text, key).column + 2, eol)}` });
    }
  }
  await workspace.write(file, applyTextEdits(text, edits));
  done.push(`added a redirect ${oldPath} → ${newPath} to ${file} (redirect_maps)`);
  if (renamed > 0) done.push(renamedLine(renamed, file));
  return { done, changed: [file] };
}

export const renamedLine = (count: number, where: string) => `renamed ${count} navigation entr${count === 1 ? "y" : "ies"} in ${where}`;
