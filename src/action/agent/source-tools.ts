import { z } from "zod";
import type { AgentTools } from "./agent-loop.js";
import type { ClaimResponse } from "../../shared/runner-schemas.js";
import { githubSourceReader } from "../github/source-reader.js";
import { SourceRepository } from "../sandbox/source-repository.js";
import { capRead, defineTool, listAnswer, MAX_HITS, searchAnswer, toolGuard, type ToolStats } from "./tools.js";

/**
 * Read-only tools over the code repository whose merge started the job, at the merge commit.
 * Only reads exist: the docs tools write to the docs checkout, and nothing writes here.
 */
export function createSourceTools(source: SourceRepository, stats: ToolStats, onCall?: (name: string) => void): AgentTools {
  const guarded = toolGuard(stats, onCall);
  const where = `${source.name} at ${source.sha.slice(0, 12)}`;
  return {
    list_source_files: defineTool({
      description: `List files of the code repository ${where} (read-only), optionally filtered by a glob such as src/**/*.ts.`,
      inputSchema: z.object({ glob: z.string().max(200).optional() }),
      execute: guarded("list_source_files", async ({ glob }: { glob?: string }) => {
        const { paths, truncated } = await source.list(glob);
        return listAnswer(paths, truncated ? "\n(GitHub listed only part of this large repository: narrow with a glob or read paths you know.)" : "");
      }),
    }),
    read_source_file: defineTool({
      description: `Read a file of the code repository ${where} (read-only), or a range of its lines (1-based, inclusive).`,
      inputSchema: z.object({ path: z.string().min(1).max(500), startLine: z.int().min(1).optional(), endLine: z.int().min(1).optional() }),
      execute: guarded("read_source_file", async ({ path, startLine, endLine }: { path: string; startLine?: number; endLine?: number }) =>
        capRead(await source.read(path, { startLine, endLine })),
      ),
    }),
    search_source: defineTool({
      description: `Search the code repository ${where} (read-only) with a regular expression (case-insensitive); answers path:line: text. Optional glob filter.`,
      inputSchema: z.object({ pattern: z.string().min(1).max(500), glob: z.string().max(200).optional() }),
      execute: guarded("search_source", async ({ pattern, glob }: { pattern: string; glob?: string }) => {
        const { hits, stoppedAt } = await source.search(pattern, { glob, limit: MAX_HITS });
        return searchAnswer(hits, stoppedAt ? `\n… stopped before ${stoppedAt}: this search would read too much of the repository; narrow it with a glob.` : "");
      }),
    }),
  };
}

/** The source tools of a job started by a merge (none for other jobs), reading through the claim's read-only token. */
export function sourceToolsFor(source: ClaimResponse["source"], stats: ToolStats, onCall: (name: string) => void, api: { baseUrl?: string; fetch?: typeof fetch | undefined }): AgentTools {
  if (!source) return {};
  const reader = githubSourceReader({ repository: source.repository, sha: source.sha, token: source.token.value }, { ...(api.baseUrl ? { baseUrl: api.baseUrl } : {}), ...(api.fetch ? { fetch: api.fetch } : {}) });
  return createSourceTools(new SourceRepository(source.repository, source.sha, reader), stats, onCall);
}
