import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The tree a run started from, written to a folder of its own, so every check can run on the site
 * before the run exactly as it runs on the site after it (docs/action.md, "Only what the run
 * broke"). Checks read text: pages, configs, sidebars, snippets. Files they only need to exist
 * (images, fonts, archives, anything over 1 MiB) are written empty, so a copy of a large docs
 * repository costs its text, not its media.
 */
export interface StartingTree {
  /** The folder that holds the tree; the repository's root is this folder. */
  root: string;
  /** Removes the folder. */
  remove(): Promise<void>;
}

const MAX_TEXT_BYTES = 1024 * 1024;
/** Content no check reads: written as empty files, present only so links to them resolve. */
const MEDIA = /\.(png|jpe?g|gif|webp|avif|bmp|ico|icns|tiff?|svg|heic|mp4|m4v|mov|webm|ogg|ogv|mp3|wav|flac|aac|m4a|woff2?|ttf|otf|eot|pdf|zip|gz|tgz|bz2|xz|7z|rar|jar|wasm|exe|dll|so|dylib|bin|psd|ai|sketch|fig|mmdb|sqlite|db|parquet|pptx?|docx?|xlsx?|key|numbers)$/i;

interface Entry {
  mode: string;
  type: string;
  sha: string;
  size: number;
  file: string;
}

/** Writes `commit`'s tree of the repository at `repoRoot` into a new temporary folder. */
export async function writeStartingTree(repoRoot: string, commit = "HEAD"): Promise<StartingTree> {
  const root = await mkdtemp(path.join(tmpdir(), "inkwell-before-"));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    const listing = await gitOutput(repoRoot, ["ls-tree", "-r", "-l", "-z", "--full-tree", commit]);
    const entries = listing
      .toString("utf8")
      .split("\0")
      .filter(Boolean)
      .map((line): Entry => {
        const tab = line.indexOf("\t");
        const [mode = "", type = "", sha = "", size = "0"] = line.slice(0, tab).trim().split(/\s+/);
        return { mode, type, sha, size: Number(size) || 0, file: line.slice(tab + 1) };
      });
    const folders = new Set(entries.map((entry) => path.posix.dirname(entry.file)));
    for (const entry of entries) if (entry.type === "commit") folders.add(entry.file);
    for (const folder of [...folders].sort()) await mkdir(path.join(root, folder), { recursive: true });

    const read = entries.filter((entry) => entry.type === "blob" && entry.mode !== "120000" && entry.size <= MAX_TEXT_BYTES && !MEDIA.test(entry.file));
    const wanted = new Set(read);
    await Promise.all(entries.filter((entry) => entry.type === "blob" && !wanted.has(entry)).map((entry) => writeFile(path.join(root, entry.file), "")));
    await catFiles(repoRoot, read, (entry, content) => writeFile(path.join(root, entry.file), content));
    return { root, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

function gitOutput(cwd: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${args[0]} failed: ${Buffer.concat(err).toString("utf8").trim()}`))));
  });
}

/** Each blob's content through one `git cat-file --batch`, in the order asked. */
function catFiles(cwd: string, entries: Entry[], write: (entry: Entry, content: Buffer) => Promise<void>): Promise<void> {
  if (entries.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let buffered: Buffer = Buffer.alloc(0);
    let next = 0;
    const writes: Promise<void>[] = [];
    const err: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.stdout.on("data", (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        const newline = buffered.indexOf(0x0a);
        if (newline < 0) return;
        const header = buffered.subarray(0, newline).toString("utf8").split(" ");
        const size = Number(header[2]);
        if (header[1] !== "blob" || !Number.isFinite(size)) {
          child.kill();
          reject(new Error(`git cat-file answered '${header.join(" ")}' for ${entries[next]?.file ?? "an unknown file"}`));
          return;
        }
        if (buffered.length < newline + 1 + size + 1) return;
        const content = Buffer.from(buffered.subarray(newline + 1, newline + 1 + size));
        buffered = buffered.subarray(newline + 1 + size + 1);
        writes.push(write(entries[next++] as Entry, content));
      }
    });
    child.on("close", (code) => {
      if (code !== 0 && next < entries.length) return reject(new Error(`git cat-file failed: ${Buffer.concat(err).toString("utf8").trim()}`));
      Promise.all(writes).then(() => (next === entries.length ? resolve() : reject(new Error(`git cat-file stopped after ${next} of ${entries.length} files`))), reject);
    });
    child.stdin.end(entries.map((entry) => `${entry.sha}\n`).join(""));
  });
}
