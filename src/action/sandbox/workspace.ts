import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { globToRegExp } from "../../shared/glob.js";
import { preserveUntouched } from "./minimal-diff.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";

/** A refusal or failure the agent sees as the tool's result, and can act on. */
export class ToolError extends Error {}

export interface WorkspaceLimits {
  /** Largest file the agent may write or read whole. */
  maxFileBytes: number;
  /** Total bytes the agent may write in one run. */
  maxRunBytes: number;
}

export const DEFAULT_LIMITS: WorkspaceLimits = { maxFileBytes: 1024 * 1024, maxRunBytes: 20 * 1024 * 1024 };

const FORBIDDEN_SEGMENTS = new Set([".git", ".github"]);
const SKIPPED_DIRECTORIES = new Set([".git", ".github", "node_modules"]);

/**
 * A path the model gave, checked and normalized: relative to the repository root, no `..` escape,
 * nothing under .git/ or .github/. The one rule for the docs workspace and a source repository.
 */
export function repositoryPath(relative: string): string {
  if (typeof relative !== "string" || relative.trim() === "" || relative.includes("\0")) throw new ToolError("A non-empty path is required");
  const slashed = relative.trim().replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) throw new ToolError(`${relative}: paths are relative to the repository root`);
  const normalized = withoutTrailingSlashes(path.posix.normalize(slashed));
  if (normalized === ".." || normalized.startsWith("../")) throw new ToolError(`${relative}: outside the repository`);
  if (normalized.split("/").some((s) => FORBIDDEN_SEGMENTS.has(s.toLowerCase()))) throw new ToolError(`${relative}: .git/ and .github/ are off limits`);
  return normalized;
}

/** Lines of `text` from `startLine` to `endLine` (1-based, inclusive); all of it without a range. */
export function lineRange(text: string, range: { startLine?: number | undefined; endLine?: number | undefined }): string {
  if (range.startLine === undefined && range.endLine === undefined) return text;
  const lines = text.split("\n");
  const start = Math.max(1, range.startLine ?? 1);
  const end = Math.min(lines.length, range.endLine ?? lines.length);
  return lines.slice(start - 1, end).join("\n");
}

/** A search's pattern: a case-insensitive regular expression, or a refusal the model can act on. */
export function searchPattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "i");
  } catch (error) {
    throw new ToolError(`Invalid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Adds a file's matching lines as `path:line: text`; true once `limit` hits are in. */
export function collectHits(regex: RegExp, file: string, lines: string[], hits: string[], limit: number): boolean {
  for (let i = 0; i < lines.length; i++) {
    if (!regex.test(lines[i] as string)) continue;
    hits.push(`${file}:${i + 1}: ${(lines[i] as string).slice(0, 300)}`);
    if (hits.length >= limit) return true;
  }
  return false;
}

/**
 * The only way the agent touches files. Every path is checked in code: relative to the
 * repository, inside the docs directory, no `..` escape, nothing under .git/ or .github/, no
 * symlink anywhere on the way, and size caps per file and per run.
 */
export class DocsWorkspace {
  readonly #docsRoot: string;
  readonly #changed = new Set<string>();
  #written = 0;
  #files: string[] | null = null;
  readonly #contents = new Map<string, string[] | null>();

  readonly #extraFiles: Set<string>;

  /** `extraFiles`: repository-relative files outside the docs directory the agent may also edit (navigation). */
  constructor(
    readonly repoRoot: string,
    readonly docsDir: string,
    readonly limits: WorkspaceLimits = DEFAULT_LIMITS,
    extraFiles: string[] = [],
  ) {
    this.#docsRoot = path.resolve(repoRoot, docsDir);
    this.#extraFiles = new Set(extraFiles.map((file) => path.posix.normalize(file)));
  }

  /**
   * Lets the harness itself (not the agent's tools) read and write `files` outside the docs
   * directory for the length of `work`: the framework's config, where a redirect goes. The files
   * get every other check, and their changes are recorded like the agent's.
   */
  async withHarnessAccess<T>(files: string[], work: () => Promise<T>): Promise<T> {
    const added = files.map((file) => path.posix.normalize(file)).filter((file) => !this.#extraFiles.has(file));
    for (const file of added) this.#extraFiles.add(file);
    try {
      return await work();
    } finally {
      for (const file of added) this.#extraFiles.delete(file);
    }
  }

  /** Repository-relative paths written, edited, moved or deleted in this run. */
  changedPaths(): string[] {
    return [...this.#changed].sort();
  }

  /** Checks a repository-relative path and returns its absolute form. */
  async resolve(relative: string): Promise<{ absolute: string; relative: string }> {
    const normalized = repositoryPath(relative);
    const absolute = path.resolve(this.repoRoot, normalized);
    const extra = this.#extraFiles.has(normalized);
    const root = extra ? path.resolve(this.repoRoot) : this.#docsRoot;
    const inside = path.relative(root, absolute);
    if (inside.startsWith("..") || path.isAbsolute(inside)) throw new ToolError(`${relative}: outside the docs directory (${this.docsDir})`);
    // No symlink anywhere from the root down, whether it exists yet or not.
    let current = root;
    for (const part of inside === "" ? [] : inside.split(path.sep)) {
      current = path.join(current, part);
      const stat = await lstat(current).catch(() => null);
      if (!stat) break;
      if (stat.isSymbolicLink()) throw new ToolError(`${relative}: symbolic links are not followed`);
    }
    return { absolute, relative: path.relative(this.repoRoot, absolute).split(path.sep).join("/") };
  }

  async read(relative: string, range: { startLine?: number; endLine?: number } = {}): Promise<string> {
    const { absolute } = await this.resolve(relative);
    const stat = await lstat(absolute).catch(() => null);
    if (!stat?.isFile()) throw new ToolError(`${relative}: no such file`);
    if (stat.size > this.limits.maxFileBytes) throw new ToolError(`${relative}: larger than ${this.limits.maxFileBytes} bytes`);
    return lineRange(await readFile(absolute, "utf8"), range);
  }

  async write(relative: string, content: string): Promise<void> {
    const target = await this.resolve(relative);
    const bytes = Buffer.byteLength(content);
    if (bytes > this.limits.maxFileBytes) throw new ToolError(`${relative}: ${bytes} bytes is over the ${this.limits.maxFileBytes}-byte limit per file`);
    if (this.#written + bytes > this.limits.maxRunBytes) throw new ToolError(`writing ${relative} would pass the ${this.limits.maxRunBytes}-byte limit for this run`);
    const existing = await lstat(target.absolute).catch(() => null);
    if (existing && !existing.isFile()) throw new ToolError(`${relative}: not a regular file`);
    await mkdir(path.dirname(target.absolute), { recursive: true });
    const final = existing ? preserveUntouched(await readFile(target.absolute, "utf8"), content) : content;
    await writeFile(target.absolute, final, "utf8");
    this.#written += bytes;
    this.#touch(target.relative, existing ? "kept" : "added");
  }

  /**
   * Replaces exactly one occurrence of `find`; zero or several are refused, saying how many. In a
   * file with CRLF line ends, `find` written with LF matches too (the model sees lines, not bytes),
   * and the file keeps its line ends.
   */
  async edit(relative: string, find: string, replace: string): Promise<void> {
    if (!find) throw new ToolError("The text to find must not be empty");
    const text = await this.read(relative);
    const exact = text.split(find).length - 1;
    const lf = (value: string) => value.replace(/\r\n/g, "\n");
    const loose = exact === 0 && text.includes("\r\n") ? lf(text).split(lf(find)).length - 1 : 0;
    const count = exact || loose;
    if (count !== 1) throw new ToolError(`${relative}: the text to replace occurs ${count} times; it must occur exactly once (include more context)`);
    await this.write(relative, exact === 1 ? text.replace(find, () => replace) : lf(text).replace(lf(find), () => lf(replace)));
  }

  async move(from: string, to: string): Promise<void> {
    const source = await this.resolve(from);
    const target = await this.resolve(to);
    const stat = await lstat(source.absolute).catch(() => null);
    if (!stat?.isFile()) throw new ToolError(`${from}: no such file`);
    if (await lstat(target.absolute).catch(() => null)) throw new ToolError(`${to}: already exists`);
    await mkdir(path.dirname(target.absolute), { recursive: true });
    await rename(source.absolute, target.absolute);
    this.#touch(source.relative, "removed");
    this.#touch(target.relative, "added");
  }

  async delete(relative: string): Promise<void> {
    const target = await this.resolve(relative);
    const stat = await lstat(target.absolute).catch(() => null);
    if (!stat?.isFile()) throw new ToolError(`${relative}: no such file`);
    await rm(target.absolute);
    this.#touch(target.relative, "removed");
  }

  /** Repository-relative files of the docs directory, optionally filtered by a glob. */
  async list(glob?: string): Promise<string[]> {
    this.#files ??= [...new Set([...(await this.#walk(this.#docsRoot)), ...[...this.#extraFiles].filter((file) => existsSync(path.join(this.repoRoot, file)))])].sort();
    if (!glob) return this.#files;
    const pattern = globToRegExp(glob);
    return this.#files.filter((file) => pattern.test(file));
  }

  /** Lines matching a regular expression, as `path:line: text`, at most `limit` of them. */
  async search(pattern: string, options: { glob?: string; limit?: number } = {}): Promise<string[]> {
    const regex = searchPattern(pattern);
    const limit = options.limit ?? 200;
    const hits: string[] = [];
    const files = await this.list(options.glob);
    // Read what is not cached yet in parallel batches: the first search of a big repo is I/O bound.
    const uncached = files.filter((file) => !this.#contents.has(file));
    for (let i = 0; i < uncached.length; i += 64) await Promise.all(uncached.slice(i, i + 64).map((file) => this.#lines(file)));
    for (const file of files) {
      const lines = await this.#lines(file);
      if (lines && collectHits(regex, file, lines, hits, limit)) return hits;
    }
    return hits;
  }

  /** Lines of a listed file, cached for searches: the agent is the only writer during a run. */
  async #lines(file: string): Promise<string[] | null> {
    const cached = this.#contents.get(file);
    if (cached !== undefined) return cached;
    const absolute = path.join(this.repoRoot, file);
    const stat = await lstat(absolute).catch(() => null);
    const lines = stat && stat.size <= this.limits.maxFileBytes ? (await readFile(absolute, "utf8")).split("\n") : null;
    this.#contents.set(file, lines);
    return lines;
  }

  /** Keeps the cached listing in step with the agent's own changes, so listing stays cheap on big repos. */
  #touch(relative: string, change: "added" | "removed" | "kept") {
    this.#changed.add(relative);
    this.#contents.delete(relative);
    if (!this.#files || change === "kept") return;
    let low = 0;
    let high = this.#files.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#files[middle] as string) < relative) low = middle + 1;
      else high = middle;
    }
    const present = this.#files[low] === relative;
    if (change === "added" && !present) this.#files.splice(low, 0, relative);
    if (change === "removed" && present) this.#files.splice(low, 1);
  }

  async #walk(directory: string): Promise<string[]> {
    const out: string[] = [];
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name.toLowerCase())) out.push(...(await this.#walk(full)));
      } else if (entry.isFile()) {
        out.push(path.relative(this.repoRoot, full).split(path.sep).join("/"));
      }
    }
    return out.sort();
  }
}
