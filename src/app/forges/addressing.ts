import { escapeRegExp } from "../../shared/regexp.js";

/**
 * How a comment on a forge (a GitHub PR or issue comment, a GitLab note) speaks to the agent: the
 * same words on every forge.
 */

/**
 * The text a comment addresses to the agent: after an @mention of the agent's account (the App's
 * slug, the GitLab access token's user) or the command at its start. null when the comment is not for Inkwell.
 */
export function instructionIn(body: string, handle: string, command: string): string | null {
  const trimmed = body.trim();
  if (command && (trimmed === command || trimmed.startsWith(`${command} `) || trimmed.startsWith(`${command}\n`))) {
    return trimmed.slice(command.length).trim() || null;
  }
  const mention = new RegExp(`(^|[^\\w/-])@${escapeRegExp(handle)}(?![\\w-])`, "i");
  if (!mention.test(trimmed)) return null;
  return trimmed.replace(new RegExp(mention.source, "gi"), "$1").replace(/[ \t]{2,}/g, " ").trim() || null;
}

export const MAX_HUNK_LINES = 40;

/**
 * An inline comment's instruction with where it was left: the file, the line and the end of the
 * diff hunk the forge shows above it (the lines the comment is about), so the agent edits there.
 */
export function withLocation(instruction: string, location: { path: string; line: number | null; diffHunk: string }, hunkLines = MAX_HUNK_LINES): string {
  const where = `\`${location.path}\`${location.line === null ? " (a line this branch has since changed)" : ` line ${location.line}`}`;
  if (hunkLines === 0 || location.diffHunk === "") return `Review comment on ${where}:\n${instruction}`;
  const hunk = location.diffHunk.split("\n").slice(-hunkLines).join("\n").replace(/`{3,}/g, "``");
  return `Review comment on ${where}:\n\`\`\`diff\n${hunk}\n\`\`\`\n${instruction}`;
}

/** `@app stop` or `/inkwell stop`: cancel the active run instead of sending a message. */
export const isStopCommand = (instruction: string) => /^(stop|cancel)[.!]?$/i.test(instruction.trim());

/** `/inkwell approve` or `@app approve`: approve the plan the job waits with. */
export const isApproveCommand = (instruction: string) => /^approve[.!]?$/i.test(instruction.trim());
