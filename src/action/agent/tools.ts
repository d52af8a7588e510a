import { z } from "zod";
import type { AgentTool, AgentTools } from "./agent-loop.js";
import type { DocsProject } from "../docs/framework.js";
import { followPageMove } from "../docs/moves.js";
import { ToolError, type DocsWorkspace } from "../sandbox/workspace.js";

const READ_LIMIT_CHARS = 60_000;

/** Why each file changed, in the agent's words: goes into the commit message and the PR body. */
export class ChangeJournal {
  readonly #reasons = new Map<string, string[]>();

  note(file: string, reason: string): void {
    const reasons = this.#reasons.get(file) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    this.#reasons.set(file, reasons);
  }

  reasonsFor(file: string): string[] {
    return this.#reasons.get(file) ?? [];
  }
}

export interface ToolStats {
  calls: number;
  failures: number;
  /** Time spent inside the tools (the harness's own cost, no model time). */
  totalMs: number;
}

const reason = z.string().trim().min(1).max(500).describe("Why this change: one sentence, shown per file in the pull request.");
const filePath = z.string().min(1).max(500).describe("Path relative to the repository root, e.g. docs/guides/setup.mdx");

/**
 * The agent's tools. They are thin: every rule (confinement, size caps, exact-match edits) lives in
 * DocsWorkspace, so it holds whatever the model asks. A refusal comes back as the tool's result,
 * starting with "Error:", so the model can correct itself.
 */
/** Wraps a tool's action: counted and timed in `stats`, and a refusal or failure answered as "Error: …" text. */
export function toolGuard(stats: ToolStats, onCall?: (name: string) => void) {
  return <T>(name: string, action: (input: T) => Promise<string>) =>
    async (input: T): Promise<string> => {
      const started = performance.now();
      stats.calls++;
      try {
        return await action(input);
      } catch (error) {
        stats.failures++;
        if (error instanceof ToolError) return `Error: ${error.message}`;
        return `Error: ${name} failed: ${error instanceof Error ? error.message : String(error)}`;
      } finally {
        stats.totalMs += performance.now() - started;
        onCall?.(name);
      }
    };
}

export const defineTool = <S extends z.ZodType>(definition: { description: string; inputSchema: S; execute: (input: z.output<S>) => Promise<string> }): AgentTool => definition as AgentTool;

const MAX_LISTED = 2_000;
export const MAX_HITS = 200;

/** A listing's answer: at most MAX_LISTED paths, saying how many more; `note` after it. */
export function listAnswer(files: string[], note = ""): string {
  if (files.length === 0) return `No files match.${note}`;
  const shown = files.slice(0, MAX_LISTED);
  return shown.join("\n") + (files.length > shown.length ? `\n… and ${files.length - shown.length} more: narrow the glob.` : "") + note;
}

/** A search's answer (at most MAX_HITS hits were asked for); `note` after it. */
export function searchAnswer(hits: string[], note = ""): string {
  if (hits.length === 0) return `No matches.${note}`;
  return hits.join("\n") + (hits.length === MAX_HITS ? `\n… stopped at ${MAX_HITS} matches: narrow the search.` : "") + note;
}

/** Answers a read with at most READ_LIMIT_CHARS characters, saying how to read the rest. */
export const capRead = (text: string) => (text.length <= READ_LIMIT_CHARS ? text : `${text.slice(0, READ_LIMIT_CHARS)}\n… truncated at ${READ_LIMIT_CHARS} characters: read the rest with startLine/endLine.`);

export function createDocsTools(workspace: DocsWorkspace, project: DocsProject, journal: ChangeJournal, stats: ToolStats, onCall?: (name: string) => void): AgentTools {
  const guarded = toolGuard(stats, onCall);
  return {
    list_files: defineTool({
      description: "List files of the docs directory (and navigation files), optionally filtered by a glob such as **/*.mdx or guides/*.",
      inputSchema: z.object({ glob: z.string().max(200).optional() }),
      execute: guarded("list_files", async ({ glob }: { glob?: string }) => {
        return listAnswer(await workspace.list(glob));
      }),
    }),
    read_file: defineTool({
      description: "Read a file, or a range of its lines (1-based, inclusive).",
      inputSchema: z.object({ path: filePath, startLine: z.int().min(1).optional(), endLine: z.int().min(1).optional() }),
      execute: guarded("read_file", async ({ path, startLine, endLine }: { path: string; startLine?: number; endLine?: number }) => {
        return capRead(await workspace.read(path, { startLine, endLine }));
      }),
    }),
    search_text: defineTool({
      description: "Search file contents with a regular expression (case-insensitive); answers path:line: text. Optional glob filter.",
      inputSchema: z.object({ pattern: z.string().min(1).max(500), glob: z.string().max(200).optional() }),
      execute: guarded("search_text", async ({ pattern, glob }: { pattern: string; glob?: string }) => {
        return searchAnswer(await workspace.search(pattern, { glob, limit: MAX_HITS }));
      }),
    }),
    write_file: defineTool({
      description: "Create a file or replace its whole content.",
      inputSchema: z.object({ path: filePath, content: z.string(), reason }),
      execute: guarded("write_file", async ({ path, content, reason }: { path: string; content: string; reason: string }) => {
        await workspace.write(path, content);
        journal.note((await workspace.resolve(path)).relative, reason);
        return `Wrote ${path} (${Buffer.byteLength(content)} bytes).`;
      }),
    }),
    edit_file: defineTool({
      description: "Replace one exact occurrence of `find` with `replace` in a file. Fails if `find` occurs zero or several times: include enough context to make it unique.",
      inputSchema: z.object({ path: filePath, find: z.string().min(1), replace: z.string(), reason }),
      execute: guarded("edit_file", async ({ path, find, replace, reason }: { path: string; find: string; replace: string; reason: string }) => {
        await workspace.edit(path, find, replace);
        journal.note((await workspace.resolve(path)).relative, reason);
        return `Edited ${path}.`;
      }),
    }),
    move_file: defineTool({
      description: "Move or rename a file. A redirect from the old URL is added where the framework has one (Mintlify docs.json, Docusaurus client redirects plugin, MkDocs redirects plugin) and navigation entries naming the page are renamed (Mintlify, MkDocs nav, VitePress sidebar links); the answer says when no redirect was possible.",
      inputSchema: z.object({ from: filePath, to: filePath, reason }),
      execute: guarded("move_file", async ({ from, to, reason }: { from: string; to: string; reason: string }) => {
        const source = await workspace.resolve(from);
        const target = await workspace.resolve(to);
        await workspace.move(from, to);
        journal.note(source.relative, `moved to ${target.relative}: ${reason}`);
        journal.note(target.relative, reason);
        const followed = await followPageMove(workspace, project, source.relative, target.relative);
        if ("none" in followed) {
          journal.note(target.relative, `no redirect from its old URL: ${followed.none}`);
          return `Moved ${from} to ${to}. No redirect was added: ${followed.none}.`;
        }
        for (const file of followed.changed) journal.note(file, `follows the move of ${source.relative} to ${target.relative}`);
        return [`Moved ${from} to ${to}.`, ...followed.done.map((line) => `Also ${line}.`)].join(" ");
      }),
    }),
    delete_file: defineTool({
      description: "Delete a file.",
      inputSchema: z.object({ path: filePath, reason }),
      execute: guarded("delete_file", async ({ path, reason }: { path: string; reason: string }) => {
        const target = await workspace.resolve(path);
        await workspace.delete(path);
        journal.note(target.relative, reason);
        return `Deleted ${path}.`;
      }),
    }),
  };
}
