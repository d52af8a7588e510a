import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isMap, isScalar, parseDocument, type Document, type YAMLMap } from "yaml";

/**
 * MkDocs' config as MkDocs reads it (mkdocs 1.6): `mkdocs.yml`, else `mkdocs.yaml`, in the folder it
 * runs in (config/base.py `_open_config_file`); a config may name a parent with `INHERIT`, read
 * relative to it and deep-merged under it (utils/yaml.py `yaml_load` with mergedeep's default
 * REPLACE strategy: mappings merge key by key, anything else is replaced by the child's value).
 */
const DEFAULT_NAMES = ["mkdocs.yml", "mkdocs.yaml"];
const MAX_INHERIT_DEPTH = 8;

/**
 * The config MkDocs builds the site of `dir` from, relative to `dir`. Without `mkdocs.yml` or
 * `mkdocs.yaml`, a site built with `mkdocs build -f FILE` keeps its config under another name:
 * the YAML files of the folder whose merged config has `site_name` (the one setting MkDocs
 * requires) and that no other such file inherits from; of those, one with `site_url` (the published
 * site's, where an offline build leaves it out), then the first by name.
 */
export function findMkdocsConfig(dir: string): string | undefined {
  const named = DEFAULT_NAMES.find((name) => existsSync(path.join(dir, name)));
  if (named) return named;
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).sort();
  } catch {
    return undefined;
  }
  const configs = names.flatMap((name) => {
    const text = readFileSync(path.join(dir, name), "utf8");
    if (!/^(?:site_name|INHERIT)\s*:/m.test(text)) return [];
    const merged = mergedConfig(dir, name);
    return merged?.get("site_name") ? [{ name, merged, parents: merged.parents }] : [];
  });
  const inherited = new Set(configs.flatMap((config) => config.parents));
  const leaves = configs.filter((config) => !inherited.has(config.name));
  return (leaves.find((config) => config.merged.get("site_url")) ?? leaves[0])?.name;
}

interface MergedConfig {
  document: Document;
  /** The files it inherits from, nearest first, relative to the folder of the first file. */
  parents: string[];
  get(key: string): unknown;
}

function mergedConfig(baseDir: string, file: string, depth = 0): MergedConfig | null {
  let document: Document;
  try {
    document = parseDocument(readFileSync(path.join(baseDir, file), "utf8"), { logLevel: "silent", customTags: [] });
  } catch {
    return null;
  }
  const contents = document.contents;
  const get = (key: string) => (isMap(document.contents) ? (document.contents as YAMLMap).get(key) : undefined);
  if (!isMap(contents)) return { document, parents: [], get };
  const inherit = contents.get("INHERIT");
  if (typeof inherit !== "string" || depth >= MAX_INHERIT_DEPTH) return { document, parents: [], get };
  const parentFile = path.posix.normalize(path.posix.join(path.posix.dirname(file), inherit));
  const parent = existsSync(path.join(baseDir, parentFile)) ? mergedConfig(baseDir, parentFile, depth + 1) : null;
  contents.delete("INHERIT");
  if (!parent || !isMap(parent.document.contents)) return { document, parents: [parentFile], get };
  mergeInto(parent.document.contents as YAMLMap, contents);
  const parentGet = (key: string) => (parent.document.contents as YAMLMap).get(key);
  return { document: parent.document, parents: [parentFile, ...parent.parents], get: parentGet };
}

/** mergedeep's REPLACE strategy on YAML nodes, so tags (`!!python/name:…`) stay as written. */
function mergeInto(into: YAMLMap, from: YAMLMap): void {
  for (const pair of from.items) {
    const key = isScalar(pair.key) ? pair.key.value : pair.key;
    const existing = into.items.find((candidate) => (isScalar(candidate.key) ? candidate.key.value : candidate.key) === key);
    if (existing && isMap(existing.value) && isMap(pair.value)) mergeInto(existing.value, pair.value);
    else if (existing) existing.value = pair.value;
    else into.items.push(pair);
  }
}

/**
 * The text of an MkDocs config with its `INHERIT` chain merged in, as MkDocs sees it; the file's own
 * text when it inherits nothing. `file` is repository-relative.
 */
export function mkdocsConfigText(repoRoot: string, file: string): string {
  const text = readFileSync(path.join(repoRoot, file), "utf8");
  if (!/^INHERIT\s*:/m.test(text)) return text;
  return mergedConfig(repoRoot, file)?.document.toString() ?? text;
}

/** The files an MkDocs config inherits from, nearest first, repository-relative. */
export function mkdocsParentConfigs(repoRoot: string, file: string): string[] {
  const text = readFileSync(path.join(repoRoot, file), "utf8");
  return /^INHERIT\s*:/m.test(text) ? (mergedConfig(repoRoot, file)?.parents ?? []) : [];
}

/**
 * MkDocs' `plugins` by name with their options: written as a list of names and `{name: options}`
 * items, or as a mapping of name to options (config_options.Plugins accepts both); `material/blog`
 * is Material's `blog`.
 */
export function mkdocsPlugins(plugins: unknown): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  const add = (name: string, options: unknown) => found.set(name.replace(/^material\//, ""), options && typeof options === "object" && !Array.isArray(options) ? (options as Record<string, unknown>) : {});
  if (Array.isArray(plugins)) {
    for (const item of plugins) {
      if (typeof item === "string") add(item, {});
      else if (item && typeof item === "object") for (const [name, options] of Object.entries(item)) add(name, options);
    }
  } else if (plugins && typeof plugins === "object") {
    for (const [name, options] of Object.entries(plugins)) add(name, options);
  }
  return found;
}

/**
 * Python's `fnmatch.fnmatchcase` pattern as a regular expression (fnmatch.translate: `*` is any
 * run of characters, `/` included; `?` one; `[…]` a class, `[!…]` its complement).
 */
export function fnmatchPattern(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const character = pattern[i] as string;
    if (character === "*") source += ".*";
    else if (character === "?") source += ".";
    else if (character === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) source += "\\[";
      else {
        const inner = pattern.slice(i + 1, end);
        source += `[${inner.startsWith("!") ? `^${inner.slice(1)}` : inner.replace(/^\^/, "\\^")}]`.replace(/\\(?![\]^-])/g, "\\\\");
        i = end;
      }
    } else source += character.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^(?:${source})$`, "s");
}
