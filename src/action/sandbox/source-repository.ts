import { globToRegExp } from "../../shared/glob.js";
import { collectHits, lineRange, repositoryPath, searchPattern, ToolError } from "./workspace.js";

/** One file of the tree at the commit, as GitHub's trees API lists it. */
export interface SourceEntry {
  path: string;
  /** The blob: content-addressed, so what is read is exactly the commit's. */
  sha: string;
  size: number;
}

/** The two reads the source tools need; nothing that writes exists here. */
export interface SourceReader {
  /** Regular files of the commit's tree (no symlinks, no submodules); `truncated` when GitHub cut the listing. */
  tree(): Promise<{ entries: SourceEntry[]; truncated: boolean }>;
  blob(sha: string): Promise<Buffer>;
}

export interface SourceLimits {
  /** Largest file read whole or searched. */
  maxFileBytes: number;
  /** Bytes one search may fetch (files not fetched before): a broad search over a big repository stops, asking for a glob. */
  maxSearchBytes: number;
  /**
   * Files one search may fetch: each is a request against the installation's hourly GitHub quota,
   * which the whole organisation's installation shares.
   */
  maxSearchFetches: number;
}

export const DEFAULT_SOURCE_LIMITS: SourceLimits = { maxFileBytes: 1024 * 1024, maxSearchBytes: 24 * 1024 * 1024, maxSearchFetches: 300 };

const SKIPPED_DIRECTORIES = new Set(["node_modules", "vendor", "dist"]);

/**
 * A code repository at one commit, read through a token that can only read it: list, read and
 * search, with the docs workspace's path rules (`repositoryPath`) and size caps. There is no write
 * method, so no tool can change the repository.
 */
export class SourceRepository {
  #entries: Promise<{ byPath: Map<string, SourceEntry>; paths: string[]; truncated: boolean }> | null = null;
  readonly #texts = new Map<string, string | null>();

  constructor(
    readonly name: string,
    readonly sha: string,
    private readonly reader: SourceReader,
    readonly limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
  ) {}

  async list(glob?: string): Promise<{ paths: string[]; truncated: boolean }> {
    const { paths, truncated } = await this.#tree();
    if (!glob) return { paths, truncated };
    const pattern = globToRegExp(glob);
    return { paths: paths.filter((file) => pattern.test(file)), truncated };
  }

  async read(relative: string, range: { startLine?: number | undefined; endLine?: number | undefined } = {}): Promise<string> {
    const file = repositoryPath(relative);
    const entry = (await this.#tree()).byPath.get(file);
    if (!entry) throw new ToolError(`${relative}: no such file in ${this.name} at ${this.sha.slice(0, 12)}`);
    if (entry.size > this.limits.maxFileBytes) throw new ToolError(`${relative}: larger than ${this.limits.maxFileBytes} bytes`);
    const text = await this.#text(entry);
    if (text === null) throw new ToolError(`${relative}: a binary file`);
    return lineRange(text, range);
  }

  /** Matching lines as `path:line: text`; a search that would fetch more than the cap stops early and says so. */
  async search(pattern: string, options: { glob?: string | undefined; limit?: number } = {}): Promise<{ hits: string[]; stoppedAt: string | null }> {
    const regex = searchPattern(pattern);
    const limit = options.limit ?? 200;
    const { byPath } = await this.#tree();
    const files = (await this.list(options.glob)).paths.map((file) => byPath.get(file) as SourceEntry).filter((entry) => entry.size <= this.limits.maxFileBytes);
    const hits: string[] = [];
    let fetchedBytes = 0;
    let fetchedFiles = 0;
    for (let i = 0; i < files.length; i += 16) {
      const batch = files.slice(i, i + 16);
      const uncached = batch.filter((entry) => !this.#texts.has(entry.path));
      const cost = uncached.reduce((sum, entry) => sum + entry.size, 0);
      if (fetchedBytes + cost > this.limits.maxSearchBytes || fetchedFiles + uncached.length > this.limits.maxSearchFetches) return { hits, stoppedAt: batch[0]?.path ?? null };
      fetchedBytes += cost;
      fetchedFiles += uncached.length;
      const texts = await Promise.all(batch.map((entry) => this.#text(entry)));
      for (const [j, text] of texts.entries()) {
        if (text !== null && collectHits(regex, (batch[j] as SourceEntry).path, text.split("\n"), hits, limit)) return { hits, stoppedAt: null };
      }
    }
    return { hits, stoppedAt: null };
  }

  #tree() {
    this.#entries ??= this.reader.tree().then(({ entries, truncated }) => {
      const kept = entries.filter((entry) => {
        try {
          return repositoryPath(entry.path) === entry.path && !entry.path.split("/").some((part) => SKIPPED_DIRECTORIES.has(part));
        } catch {
          return false;
        }
      });
      kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { byPath: new Map(kept.map((entry) => [entry.path, entry])), paths: kept.map((entry) => entry.path), truncated };
    });
    return this.#entries;
  }

  async #text(entry: SourceEntry): Promise<string | null> {
    const cached = this.#texts.get(entry.path);
    if (cached !== undefined) return cached;
    const bytes = await this.reader.blob(entry.sha);
    const text = bytes.includes(0) ? null : bytes.toString("utf8");
    this.#texts.set(entry.path, text);
    return text;
  }
}
