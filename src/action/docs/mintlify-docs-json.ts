import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, printParseErrorCode, type JSONPath, type ParseError } from "jsonc-parser";
import { escapeRegExp } from "../../shared/regexp.js";

/**
 * A Mintlify site's docs.json as Mintlify reads it: any object `{"$ref": "./file.json"}` stands
 * for the content of that file (relative to the file that holds the reference, references inside
 * it followed the same way), so navigation, redirects or a language's menu may live in other
 * files. Every value keeps where it was written (file and JSON path), so an edit changes that
 * file and nothing else.
 */
export interface JsonLocation {
  /** Repository-relative file. */
  file: string;
  path: JSONPath;
}

export interface MintlifyNavigationEntry {
  /** The page as written: a path relative to docs.json's folder, without extension. */
  page: string;
  at: JsonLocation;
}

export interface MintlifyRedirect {
  source: string;
  destination: string;
}

export interface MintlifyConfig {
  configFile: string;
  /** Every page the navigation lists (not OpenAPI operations, not external links). */
  navigation: MintlifyNavigationEntry[];
  redirects: MintlifyRedirect[];
  /** Where the redirects list is (a `$ref` followed); null when the site has none yet. */
  redirectsAt: JsonLocation | null;
  /** OpenAPI specs the navigation names: their operations are pages Mintlify generates. */
  openapi: boolean;
  /** docs.json and every file a `$ref` named, repository-relative. */
  files: string[];
}

export class MintlifyConfigError extends Error {}

/** Keys under which Mintlify's navigation nests (docs.json's navigation schema, and mint.json's). */
const NAVIGATION_KEYS = new Set(["navigation", "pages", "groups", "tabs", "anchors", "dropdowns", "versions", "languages", "products", "menu", "items", "global"]);

/** An OpenAPI operation in a pages list ("GET /users", "openapi.json POST /users", "webhook ..."). */
const OPENAPI_OPERATION = /^(?:\S+\s+)?(?:get|post|put|patch|delete|head|options|trace|webhook)\s+\S/i;

export function readMintlifyConfig(repoRoot: string, configFile: string): MintlifyConfig {
  const files: string[] = [];
  const load = (file: string, seen: string[]): unknown => {
    if (seen.includes(file)) throw new MintlifyConfigError(`${seen.at(-1)}: its $ref to ${file} is circular`);
    const absolute = path.join(repoRoot, file);
    if (!existsSync(absolute)) throw new MintlifyConfigError(`${seen.at(-1) ?? file}: $ref names ${file}, which does not exist`);
    if (!files.includes(file)) files.push(file);
    const errors: ParseError[] = [];
    const value = parse(readFileSync(absolute, "utf8"), errors, { allowTrailingComma: true });
    const first = errors[0];
    if (first) throw new MintlifyConfigError(`${file}: not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset})`);
    return value;
  };

  const config: MintlifyConfig = { configFile, navigation: [], redirects: [], redirectsAt: null, openapi: false, files };
  /** Follows a `$ref` where one stands; the value and where it is written. */
  const deref = (value: unknown, at: JsonLocation, seen: string[]): { value: unknown; at: JsonLocation; seen: string[] } => {
    let current = { value, at, seen };
    while (isObject(current.value) && typeof current.value.$ref === "string") {
      const target = repositoryRelative(current.at.file, current.value.$ref, path.posix.dirname(configFile));
      if (target === null) throw new MintlifyConfigError(`${current.at.file}: $ref ${current.value.$ref} is outside the repository`);
      const next = [...current.seen, current.at.file];
      current = { value: load(target, next), at: { file: target, path: [] }, seen: next };
    }
    return current;
  };

  const walkNavigation = (value: unknown, at: JsonLocation, seen: string[]): void => {
    const here = deref(value, at, seen);
    if (typeof here.value === "string") {
      if (!OPENAPI_OPERATION.test(here.value) && !/^[a-z][a-z0-9+.-]*:/i.test(here.value)) config.navigation.push({ page: here.value, at: here.at });
      else if (OPENAPI_OPERATION.test(here.value)) config.openapi = true;
    } else if (Array.isArray(here.value)) {
      here.value.forEach((item, index) => walkNavigation(item, { file: here.at.file, path: [...here.at.path, index] }, here.seen));
    } else if (isObject(here.value)) {
      for (const [key, child] of Object.entries(here.value)) {
        const childAt = { file: here.at.file, path: [...here.at.path, key] };
        if (key === "openapi") config.openapi = true;
        if (key === "root" && typeof child === "string") config.navigation.push({ page: child, at: childAt });
        else if (NAVIGATION_KEYS.has(key)) walkNavigation(child, childAt, here.seen);
      }
    }
  };

  const root = deref(load(configFile, []), { file: configFile, path: [] }, []);
  if (!isObject(root.value)) throw new MintlifyConfigError(`${configFile}: not a JSON object`);
  const top = root.value;
  if ("navigation" in top) walkNavigation(top.navigation, { file: root.at.file, path: [...root.at.path, "navigation"] }, root.seen);
  // mint.json kept tabs and anchors at the top, beside its navigation.
  for (const key of ["tabs", "anchors"]) if (key in top && !("navigation" in top && isObject(top.navigation))) walkNavigation(top[key], { file: root.at.file, path: [key] }, root.seen);
  if ("openapi" in top) config.openapi = true;
  if ("redirects" in top) {
    const redirects = deref(top.redirects, { file: root.at.file, path: [...root.at.path, "redirects"] }, root.seen);
    if (!Array.isArray(redirects.value)) throw new MintlifyConfigError(`${redirects.at.file}: redirects must be a list`);
    config.redirectsAt = redirects.at;
    for (const item of redirects.value) {
      const entry = deref(item, redirects.at, redirects.seen).value;
      if (isObject(entry) && typeof entry.source === "string" && typeof entry.destination === "string") config.redirects.push({ source: entry.source, destination: entry.destination });
    }
  }
  return config;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A `$ref` target, repository-relative: relative to the file that names it, or with a leading slash to the site's folder; null when it leaves the repository. */
function repositoryRelative(fromFile: string, ref: string, siteDir: string): string | null {
  const target = path.posix.normalize(ref.startsWith("/") ? path.posix.join(siteDir, ref) : path.posix.join(path.posix.dirname(fromFile), ref));
  return target.startsWith("../") || target === ".." ? null : target;
}

/**
 * Whether a Mintlify redirect source matches a site path: literal, or with `:param` segments and a
 * trailing `*` (`/old/:slug*`), as Mintlify's redirects (Next.js-style) match; a fragment or a
 * trailing slash is no part of the match.
 */
export function redirectMatches(source: string, sitePath: string): boolean {
  const clean = (value: string) => `/${value.split("#")[0]!.split("?")[0]!.replace(/^\/+|\/+$/g, "")}`;
  const pattern = clean(source)
    .split("/")
    .map((segment) => {
      const param = /^:[\w-]+(\*|\+)?$/.exec(segment);
      if (param) return param[1] === "*" ? "(?:/.*)?" : "/[^/]+" + (param[1] === "+" ? "(?:/.*)?" : "");
      if (segment === "*") return "(?:/.*)?";
      return segment === "" ? "" : `/${escapeRegExp(segment)}`;
    })
    .join("");
  return new RegExp(`^${pattern || "/"}/?$`, "i").test(clean(sitePath));
}
