import { parseDocument, Scalar, visit, type Document, type Node, type YAMLMap } from "yaml";

/**
 * Minimal edits of a YAML config file the user wrote (mkdocs.yml): `yaml`'s document API finds
 * where each value is written (its source range), and the edit replaces or inserts those bytes
 * only, so comments, flow or block style, quoting, indentation, custom tags (`!!python/name:`)
 * and long lines stay exactly as they were (docs/architecture.md, "The agent's edits").
 */

export function readYaml(text: string): Document | null {
  const doc = parseDocument(text, { keepSourceTokens: true, logLevel: "silent" });
  return doc.errors.length > 0 ? null : doc;
}

/** The column a node starts at. */
const columnOf = (text: string, offset: number) => offset - (text.lastIndexOf("\n", offset - 1) + 1);
const endOfLine = (text: string, offset: number) => {
  const newline = text.indexOf("\n", offset);
  return newline === -1 ? text.length : newline;
};
/** The line end a file uses. */
export const eolOf = (text: string) => (text.includes("\r\n") ? "\r\n" : "\n");

/** A string written as a scalar of `style`: plain where plain YAML reads it back as the same string, else quoted. */
export function scalarText(value: string, style: Scalar.Type | undefined): string {
  if (style === Scalar.QUOTE_SINGLE) return `'${value.replace(/'/g, "''")}'`;
  if (style === Scalar.QUOTE_DOUBLE) return JSON.stringify(value);
  const plain = readYaml(`k: ${value}\n`);
  const back = plain?.get("k");
  return back === value && !value.includes("#") ? value : JSON.stringify(value);
}

export interface TextEdit {
  offset: number;
  length: number;
  text: string;
}

export function applyTextEdits(text: string, edits: TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, edit.offset) + edit.text + out.slice(edit.offset + edit.length);
  return out;
}

/** The edit that gives a scalar a new string value, in its own quoting. */
export function scalarEdit(node: Scalar, value: string): TextEdit {
  const [start, valueEnd] = node.range as [number, number, number];
  return { offset: start, length: valueEnd - start, text: scalarText(value, node.type) };
}

/** Every string scalar under `node` equal to `value` (a navigation's page entries). */
export function scalarsEqualTo(node: unknown, value: string): Scalar[] {
  const found: Scalar[] = [];
  if (!node) return found;
  visit(node as Node, {
    Scalar(_, scalar) {
      if (scalar.value === value) found.push(scalar);
    },
  });
  return found;
}

/**
 * The edit that adds `key: value` (a nested mapping when `value` is an object) at the end of a
 * mapping, laid out like its last entry: a block mapping gets a new line at its keys' column, a
 * flow mapping `, key: value` before its brace.
 */
export function mapEntryEdit(text: string, map: YAMLMap, key: string, value: string | Record<string, unknown>): TextEdit {
  const eol = eolOf(text);
  const [start, , end] = map.range as [number, number, number];
  if (map.flow) {
    const close = text.lastIndexOf("}", end);
    const empty = map.items.length === 0;
    return { offset: close, length: 0, text: `${empty ? "" : ", "}${flowText(key, value)}` };
  }
  const first = map.items[0]?.key as Node | undefined;
  const column = columnOf(text, first?.range?.[0] ?? start);
  const last = map.items.at(-1);
  const lastEnd = Math.max(...[last?.key, last?.value].map((node) => (node as Node | null | undefined)?.range?.[1] ?? 0), start);
  const at = endOfLine(text, lastEnd);
  return { offset: at, length: 0, text: `${eol}${blockText(key, value, column, eol)}` };
}

/** `key: value` as block YAML at `column` (nested mappings two spaces deeper). */
export function blockText(key: string, value: string | Record<string, unknown>, column: number, eol: string): string {
  const pad = " ".repeat(column);
  if (typeof value === "string") return `${pad}${scalarText(key, undefined)}: ${scalarText(value, undefined)}`;
  return [`${pad}${scalarText(key, undefined)}:`, ...Object.entries(value).map(([k, v]) => blockText(k, v as string | Record<string, unknown>, column + 2, eol))].join(eol);
}

function flowText(key: string, value: string | Record<string, unknown>): string {
  if (typeof value === "string") return `${scalarText(key, undefined)}: ${scalarText(value, undefined)}`;
  return `${scalarText(key, undefined)}: {${Object.entries(value).map(([k, v]) => flowText(k, v as string | Record<string, unknown>)).join(", ")}}`;
}

/** Where a node starts and the column of that line's first character, for a value that replaces it. */
export function nodeStart(text: string, node: Node): { offset: number; column: number } {
  const offset = (node.range as [number, number, number])[0];
  return { offset, column: columnOf(text, offset) };
}

