import { MAX_PROMPT_CHARS } from "../../shared/api-schemas.js";
import { globToRegExp } from "../../shared/glob.js";
import { forgeWords, type ForgeName } from "../../shared/forge-words.js";

const MAX_DESCRIPTION_CHARS = 4_000;
/** The changed-files list stays within this much of the prompt, however many files a merge touches. */
const MAX_LISTED_CHARS = 8_000;

/** A file a change request (or a merge) changed, as either forge lists it. */
export interface ChangeRequestFile {
  path: string;
  status: string;
  additions: number;
  deletions: number;
  patch?: string;
  previousPath?: string;
}

/** Whether any changed file matches one of the globs (no globs: every merge counts). */
export function touchesPaths(files: ChangeRequestFile[], globs: string[] | undefined): boolean {
  if (!globs || globs.length === 0) return true;
  const patterns = globs.map(globToRegExp);
  return files.some((file) => patterns.some((pattern) => pattern.test(file.path) || (file.previousPath !== undefined && pattern.test(file.previousPath))));
}

/**
 * The instruction a merge gives the docs agent: what changed (title, description, the changed
 * files, as much of the diff as fits in a prompt), where to read the code, and that changing
 * nothing is a fine answer when the change needs no docs.
 */
/** What the instruction says of a merge, on either forge. */
export interface MergeFacts {
  author: string;
  repo: string;
  baseRef: string;
  number: number;
  title: string;
  url: string;
  mergeSha: string;
  body: string;
}

/**
 * `source`: the source's forge, in whose words the instruction speaks, and whether the run may read
 * the source at the merge commit (GitHub's, through the App); a source the run cannot read (a
 * GitLab source project, from the docs project's pipeline) is worked on from the description, the
 * files and the diff alone.
 */
export function mergeInstruction(merge: MergeFacts, files: ChangeRequestFile[], standing: string | undefined, maxChars = MAX_PROMPT_CHARS, source: { forge: ForgeName; readable: boolean } = { forge: "github", readable: true }): string {
  const { forge, readable } = source;
  const description = merge.body.trim() ? merge.body.trim().slice(0, MAX_DESCRIPTION_CHARS) : "(no description)";
  const listed: string[] = [];
  let listedChars = 0;
  for (const f of files) {
    const line = `- ${f.status} ${f.previousPath ? `${f.previousPath} → ` : ""}${f.path} (+${f.additions} −${f.deletions})`;
    if (listedChars + line.length > MAX_LISTED_CHARS) break;
    listed.push(line);
    listedChars += line.length + 1;
  }
  if (files.length > listed.length) listed.push(`- … and ${files.length - listed.length} more files (list_source_files shows them all)`);
  const head = [
    `A ${forgeWords(forge).change} opened by @${merge.author} was merged into ${merge.repo} (${merge.baseRef}): ${forgeWords(forge).changeMark}${merge.number} "${merge.title}"`,
    `${merge.url} (merge commit ${merge.mergeSha.slice(0, 12)})`,
    "",
    "Its description:",
    "<description>",
    description,
    "</description>",
    "",
    `Changed files (${files.length}):`,
    ...listed,
  ].join("\n");
  const tail = [
    "",
    readable
      ? `Update the documentation where this change affects what readers do or see. Read the code at the merge commit with list_source_files, read_source_file and search_source (read-only: ${merge.repo} cannot be changed from here).`
      : `Update the documentation where this change affects what readers do or see. ${merge.repo}'s code cannot be read from here: work from the description, the changed files and the diff above.`,
    "If nothing in the docs needs to change, change no file and say why in your final answer.",
    ...(standing ? ["", standing] : []),
  ].join("\n");
  const budget = Math.max(0, maxChars - head.length - tail.length - 200);
  return `${head}\n\n${diffWithin(files, budget, readable)}${tail}`;
}

/** Whole file patches in order while they fit, then a line naming the ones left out. */
function diffWithin(files: ChangeRequestFile[], budget: number, readable: boolean): string {
  const parts: string[] = [];
  const left: string[] = [];
  let used = 0;
  for (const file of files) {
    if (file.patch === undefined) continue;
    const part = `--- ${file.previousPath ?? file.path}\n+++ ${file.path}\n${file.patch.replace(/`{3,}/g, "``")}\n`;
    if (used + part.length > budget) left.push(file.path);
    else {
      parts.push(part);
      used += part.length;
    }
  }
  if (parts.length === 0 && left.length === 0) return "";
  const leftOut = `${left.slice(0, 20).join(", ")}${left.length > 20 ? ", …" : ""}`;
  const omitted = left.length ? `The diff of ${left.length} more file(s) did not fit${readable ? `: read them with read_source_file (${leftOut})` : ` (${leftOut})`}.\n` : "";
  return `${parts.length ? `The diff:\n\`\`\`diff\n${parts.join("")}\`\`\`\n` : ""}${omitted}`;
}

/** An issue as the agent's instruction: its title, link and text, and the comment that asked, if one did. */
export function issueInstruction(issue: { repo: string; issueNumber: number; title: string; url: string; body: string }, request: string | null): string {
  const text = [
    `Resolve issue #${issue.issueNumber} of ${issue.repo} in the docs: "${issue.title}"`,
    issue.url,
    "",
    "<issue>",
    issue.body.trim() || "(no description)",
    "</issue>",
    ...(request ? ["", "Asked in a comment:", request] : []),
  ].join("\n");
  return text.length > MAX_PROMPT_CHARS ? `${text.slice(0, MAX_PROMPT_CHARS - 1)}…` : text;
}
