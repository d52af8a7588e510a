import { findNodeAtLocation, parseTree, type JSONPath, type Node } from "jsonc-parser";

/**
 * Minimal edits of a JSON (or JSONC) config file the user wrote: only the bytes an edit needs
 * change; the rest of the file (order, indentation, inline or multi-line lists, line ends,
 * comments) stays as it is (docs/architecture.md, "The agent's edits"). jsonc-parser finds where
 * each value is written; the new text is laid out like its neighbours.
 */

interface Layout {
  eol: string;
  /** One level of indentation: the file's tab or its number of spaces. */
  unit: string;
}

function layoutOf(text: string): Layout {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((match) => match[1] as string);
  if (indents.some((indent) => indent.startsWith("\t"))) return { eol, unit: "\t" };
  const widths = indents.map((indent) => indent.length).filter((width) => width > 0);
  return { eol, unit: " ".repeat(widths.length ? Math.min(...widths) : 2) };
}

/** The whitespace a line starts with, when `offset` is the first thing on its line; null when something comes before it. */
function lineIndent(text: string, offset: number): string | null {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(start, offset);
  return /^[ \t]*$/.test(before) ? before : null;
}

/** A value as its neighbours are written: multi-line at `indent` (nested one unit deeper), or inline. */
function render(value: unknown, layout: Layout, indent: string | null): string {
  if (indent === null) return inline(value);
  return JSON.stringify(value, null, layout.unit).split("\n").join(`${layout.eol}${indent}`);
}

/** One line, with a space after each comma and colon, as hand-written inline JSON is. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (value && typeof value === "object") return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`).join(", ")}}`;
  return JSON.stringify(value) ?? "null";
}

function nodeAt(text: string, path: JSONPath): Node | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  return root && (path.length === 0 ? root : findNodeAtLocation(root, path));
}

/** Where a new last member of a list or object goes, and how it is laid out. */
function insertion(text: string, container: Node, layout: Layout, member: (indent: string | null) => string): string {
  const children = container.children ?? [];
  const last = children.at(-1);
  if (last) {
    const indent = lineIndent(text, last.offset);
    const end = last.offset + last.length;
    const separator = indent === null ? " " : `${layout.eol}${indent}`;
    return `${text.slice(0, end)},${separator}${member(indent)}${text.slice(end)}`;
  }
  // An empty list or object: its members go one level inside its own line's indentation.
  const lineStart = text.lastIndexOf("\n", container.offset - 1) + 1;
  const ownIndent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
  const inner = `${ownIndent}${layout.unit}`;
  const close = container.offset + container.length - 1;
  return `${text.slice(0, container.offset + 1)}${layout.eol}${inner}${member(inner)}${layout.eol}${ownIndent}${text.slice(close)}`;
}

/**
 * Sets the value at `path`: an existing value is replaced in its own bytes; a property that is not
 * there yet is added after the object's last one, laid out like it. Throws when the parent is missing.
 */
export function setJsonValue(text: string, path: JSONPath, value: unknown): string {
  const layout = layoutOf(text);
  const existing = nodeAt(text, path);
  if (existing) {
    const indent = lineIndent(text, existing.offset) ?? (existing.type === "object" || existing.type === "array" ? null : "");
    return `${text.slice(0, existing.offset)}${render(value, layout, indent)}${text.slice(existing.offset + existing.length)}`;
  }
  const parent = nodeAt(text, path.slice(0, -1));
  const key = path.at(-1);
  if (!parent || parent.type !== "object" || typeof key !== "string") throw new Error(`cannot set ${JSON.stringify(path)}: its parent is not an object`);
  return insertion(text, parent, layout, (indent) => `${JSON.stringify(key)}: ${render(value, layout, indent)}`);
}

/** Appends `value` to the list at `path` (the root list for `[]`), laid out like its last member. */
export function appendJsonValue(text: string, path: JSONPath, value: unknown): string {
  const layout = layoutOf(text);
  const list = nodeAt(text, path);
  if (!list || list.type !== "array") throw new Error(`cannot append to ${JSON.stringify(path)}: not a list`);
  return insertion(text, list, layout, (indent) => render(value, layout, indent));
}
