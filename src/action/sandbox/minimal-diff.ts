import { diffArrays } from "diff";
import { parse as parseYaml } from "yaml";

/** A line without its end: `\n`, `\r\n` or nothing for a last line with no newline. */
interface Line {
  text: string;
  end: string;
}

function splitLines(content: string): Line[] {
  const lines: Line[] = [];
  const pattern = /([^\r\n]*)(\r\n|\n|\r(?!\n)|$)/g;
  for (const match of content.matchAll(pattern)) {
    if (match[0] === "" && match.index === content.length) break;
    lines.push({ text: match[1] ?? "", end: match[2] ?? "" });
  }
  return lines;
}

/** What makes two lines the same line to a reader: the words, not the trailing blanks or the line end. */
const sameLine = (a: Line, b: Line) => a.text.trimEnd() === b.text.trimEnd();

/** The line end most of the file uses (a file keeps its own). */
function usualEnd(lines: Line[]): string {
  let crlf = 0;
  let lf = 0;
  for (const line of lines) {
    if (line.end === "\r\n") crlf++;
    else if (line.end === "\n") lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

const FRONTMATTER = /^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/;

/**
 * The new content of an existing file, made to touch only what the edit changed (docs/architecture.md,
 * "The agent's edits"): every line the model left alone (the same words; trailing blanks and line
 * ends are not words) keeps its original bytes, new lines take the file's own line ends, and a
 * frontmatter block that means the same (same keys and values, in any order or quoting) stays as
 * it was. So a rewrite of a page that changes one paragraph shows one paragraph in the diff.
 */
export function preserveUntouched(original: string, proposed: string): string {
  if (original === proposed || original === "") return proposed;
  const keptFrontmatter = sameFrontmatter(original, proposed);
  const before = keptFrontmatter ? original.slice(keptFrontmatter.original.length) : original;
  const after = keptFrontmatter ? proposed.slice(keptFrontmatter.proposed.length) : proposed;
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const end = usualEnd(splitLines(original));
  const out: Line[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  for (const change of diffArrays(oldLines, newLines, { comparator: sameLine })) {
    const count = change.count ?? change.value.length;
    if (change.removed) {
      oldIndex += count;
      continue;
    }
    if (change.added) {
      for (const line of newLines.slice(newIndex, newIndex + count)) out.push({ text: line.text, end });
      newIndex += count;
      continue;
    }
    for (const kept of oldLines.slice(oldIndex, oldIndex + count)) out.push({ text: kept.text, end: kept.end || end });
    oldIndex += count;
    newIndex += count;
  }
  // Whether the file ends with a newline is the file's, not the model's, to decide.
  const last = out.at(-1);
  if (last) last.end = /\r?\n$|\r$/.test(original) ? (oldLines.at(-1)?.end || end) : "";
  return (keptFrontmatter?.original ?? "") + out.map((line) => line.text + line.end).join("");
}

function sameFrontmatter(original: string, proposed: string): { original: string; proposed: string } | null {
  const a = FRONTMATTER.exec(original)?.[0];
  const b = FRONTMATTER.exec(proposed)?.[0];
  if (!a || !b) return null;
  try {
    const strip = (block: string) => block.replace(/^---\r?\n/, "").replace(/\r?\n---(?:\r?\n)?$/, "");
    return JSON.stringify(sortKeys(parseYaml(strip(a)))) === JSON.stringify(sortKeys(parseYaml(strip(b)))) ? { original: a, proposed: b } : null;
  } catch {
    return null;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).sort(([x], [y]) => x.localeCompare(y)).map(([k, v]) => [k, sortKeys(v)]));
  return value;
}
