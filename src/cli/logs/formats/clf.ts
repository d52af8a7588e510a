import { quote, skip, type Skipped } from "../fields.js";

/** What nginx and Apache text logs share: quoted fields, their escapes, and the request line. */

/**
 * A double-quoted field's content (no capture group): Apache escapes `"` and `\` inside it with a
 * backslash. Written as runs between escapes, which a regular expression engine takes a run at a
 * time rather than a character at a time through an alternation.
 */
export const QUOTED_CONTENT = String.raw`[^"\\]*(?:\\.[^"\\]*)*`;
const REQUEST_LINE = /^([A-Z]+) (\S+)(?: HTTP\/\d(?:\.\d)?)?$/;
// Apache escapes `"` and `\` with a backslash; both servers write other bytes as \xHH, which together may spell UTF-8.
const LOG_ESCAPE = /((?:\\x[\da-fA-F]{2})+)|\\(.)/g;

export function readRequestLine(request: string): { method: string; target: string } | Skipped {
  if (request === "-") return skip("malformed", "no request line (-)");
  const [, method, target] = REQUEST_LINE.exec(request) ?? [];
  if (method === undefined || target === undefined) return skip("malformed", `request line ${quote(request)} is not METHOD TARGET HTTP/x.y`);
  return { method, target };
}

export function unescapeLogField(field: string): string {
  if (!field.includes("\\")) return field;
  return field.replace(LOG_ESCAPE, (_, hexRun: string | undefined, char: string | undefined) =>
    hexRun === undefined ? (char ?? "") : Buffer.from(hexRun.replaceAll("\\x", ""), "hex").toString("utf8"),
  );
}

/** A logged value, unescaped; `-` and empty mean the request had none. */
export function dashAsMissing(field: string | undefined): string | undefined {
  const value = field === undefined ? undefined : unescapeLogField(field);
  return value === "-" || value === "" ? undefined : value;
}
