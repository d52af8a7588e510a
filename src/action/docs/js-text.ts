import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * JavaScript read as text, the way the engine reads its literals: sites' configs and pages' `import`s
 * are code the gate never runs, so what a string literal says is decoded here.
 */

/**
 * The value of a JavaScript string literal's body (between its quotes), escapes decoded as ECMA-262
 * defines them (String Literals, "Static Semantics: SV"): `\n`, `\t`, `\b`, `\f`, `\v`, `\r`, `\0`,
 * `\xHH`, `\uHHHH`, `\u{…}`, a backslash before a line terminator is nothing (LineContinuation),
 * and any other character after a backslash is that character (NonEscapeCharacter: `\_` is `_`).
 */
export function decodeJsString(body: string): string {
  const simple: Record<string, string> = { n: "\n", t: "\t", b: "\b", f: "\f", v: "\v", r: "\r" };
  return body.replace(/\\(u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|0(?![0-9])|\r\n|[\s\S])/g, (all, escape: string, braced?: string, unicode?: string, hex?: string) => {
    if (braced !== undefined) return String.fromCodePoint(Number.parseInt(braced, 16));
    if (unicode !== undefined) return String.fromCharCode(Number.parseInt(unicode, 16));
    if (hex !== undefined) return String.fromCharCode(Number.parseInt(hex, 16));
    if (escape === "0") return "\0";
    if (/^(\r\n|[\n\r\u2028\u2029])$/.test(escape)) return "";
    return simple[escape] ?? escape;
  });
}

/** A quoted JavaScript string literal (`'…'` or `"…"`, escapes allowed): use with the `g` flag; group 2 is its body. */
export const JS_STRING = String.raw`(["'])((?:\\[\s\S]|(?!\1)[^\\\n])*)\1`;

/** The local modules a JavaScript/TypeScript module imports (`./x`, `../x`), as written. */
function localImports(text: string): string[] {
  const specifiers: string[] = [];
  for (const match of text.matchAll(new RegExp(String.raw`(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*${JS_STRING}`, "g"))) {
    const specifier = decodeJsString(match[2] ?? "");
    if (/^\.{1,2}\//.test(specifier)) specifiers.push(specifier);
  }
  return specifiers;
}

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * A config module and the local modules it imports, transitively (what a bundler such as the one
 * VitePress loads its config with would read), as repository-relative paths with their text.
 * A module that cannot be found is left out.
 */
export function moduleWithLocalImports(repoRoot: string, file: string): { file: string; text: string }[] {
  const read: { file: string; text: string }[] = [];
  const seen = new Set<string>();
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    if (seen.has(current)) continue;
    seen.add(current);
    let text: string;
    try {
      text = readFileSync(path.join(repoRoot, current), "utf8");
    } catch {
      continue;
    }
    read.push({ file: current, text });
    for (const specifier of localImports(text)) {
      const base = path.posix.join(path.posix.dirname(current), specifier);
      // TypeScript's ESM style names the .js a .ts compiles to.
      const stem = base.replace(/\.[mc]?js$/, "");
      const candidates = [base, ...[".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"].flatMap((ext) => [`${stem}${ext}`, `${base}${ext}`]), ...["ts", "js", "mts", "mjs"].map((ext) => `${base}/index.${ext}`)];
      const found = candidates.find((candidate) => isFile(path.join(repoRoot, candidate)));
      if (found) queue.push(found);
    }
  }
  return read;
}
