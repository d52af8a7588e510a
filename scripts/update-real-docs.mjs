#!/usr/bin/env node
// node scripts/update-real-docs.mjs — rebuilds bench/real-docs/corpus.tar.gz from
// bench/real-docs/sources.json: for each source, the files under `root` (or only its `include`
// paths) of `repo` at the pinned `commit`, in a folder named after the source. Text files (by
// extension, up to 1 MiB) are kept verbatim; every other file is kept as an EMPTY file at its path,
// so links to images and downloads still resolve. See bench/real-docs/README.md.
//
// Where the repositories come from: `git clone --filter=blob:none --no-checkout https://github.com/<repo>`,
// then only the blobs of the text files are fetched (in one request). REAL_DOCS_GIT_BASE replaces
// `https://github.com/`: a URL (`file:///srv/git/`, `https://git.example/`) is cloned the same way
// as `<base><owner>/<name>`; a local directory is read in place, without a clone, as a git directory
// found at `<base>/<owner>+<name>/repo` (the layout of `fetch` mirrors, bare or with a `.git`
// inside), `<base>/<owner>+<name>`, `<base>/<owner>/<name>.git` or `<base>/<owner>/<name>`.
//
// Flags:
//   --bump           first move every pin (or those named by --only) to the newest commit of the
//                    default branch (the mirror's HEAD) and set fetchedAt to today, then rebuild
//   --only a,b       with --bump: bump only these sources (the archive always holds every source)
//   --check          rebuild into a temporary file and fail unless it equals the committed archive
//   --out FILE       write the archive somewhere else
//   --sources FILE   read another sources.json
//   --stage DIR      keep the staged tree in DIR (emptied first) instead of a temporary directory
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
  return value;
};
const SOURCES = path.resolve(option("--sources") ?? path.join(ROOT, "bench/real-docs/sources.json"));
const OUT = path.resolve(option("--out") ?? path.join(ROOT, "bench/real-docs/corpus.tar.gz"));
const ONLY = option("--only")?.split(",").filter(Boolean);
const STAGE = option("--stage");
const BASE = process.env.REAL_DOCS_GIT_BASE || "https://github.com/";

/** Kept verbatim when at most MAX_TEXT bytes. Everything else (including .svg) becomes an empty file. */
const TEXT_EXTENSIONS = new Set([".md", ".mdx", ".json", ".yml", ".yaml", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".txt", ".css", ".scss", ".html"]);
const MAX_TEXT = 1024 * 1024;
/** A file without an extension (CNAME, LICENSE, .gitignore, .mintignore) is kept when this small and text. */
const MAX_BARE = 64 * 1024;
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

function git(gitDir, gitArgs, { input, allowFail = false } = {}) {
  const result = spawnSync("git", gitDir ? [`--git-dir=${gitDir}`, ...gitArgs] : gitArgs, {
    input,
    maxBuffer: 1 << 30,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
  });
  if (result.error) throw result.error;
  if (result.status !== 0 && !allowFail) {
    throw new Error(`git ${gitArgs.slice(0, 3).join(" ")} failed (${result.status}): ${result.stderr.toString().trim()}`);
  }
  return result;
}

const isUrl = (base) => /^[a-z][a-z0-9+.-]*:\/\//i.test(base) || /^[^/]+@[^/]+:/.test(base);
const withSlash = (base) => (base.endsWith("/") || base.endsWith(":") ? base : `${base}/`);

/** The git directory of a local mirror of owner/name under BASE, or a reason it was not found. */
function localGitDir(repo) {
  const [owner, name] = repo.split("/");
  const flat = path.join(BASE, `${owner}+${name}`);
  const candidates = [
    path.join(flat, "repo", ".git"),
    path.join(flat, "repo"),
    path.join(flat, ".git"),
    flat,
    path.join(BASE, owner, `${name}.git`),
    path.join(BASE, owner, name, ".git"),
    path.join(BASE, owner, name),
  ];
  const found = candidates.find((dir) => existsSync(path.join(dir, "HEAD")) && existsSync(path.join(dir, "objects")));
  if (!found) throw new Error(`${repo}: no git directory under ${BASE} (looked for ${candidates.map((c) => path.relative(BASE, c)).join(", ")})`);
  return found;
}

/** A git directory holding source.commit: the local mirror itself, or a blob-less clone in work. */
function obtain(source, work) {
  if (!isUrl(BASE)) {
    const gitDir = localGitDir(source.repo);
    if (git(gitDir, ["cat-file", "-e", `${source.commit}^{commit}`], { allowFail: true }).status !== 0) {
      const head = git(gitDir, ["rev-parse", "HEAD"]).stdout.toString().trim();
      throw new Error(`${source.name}: ${gitDir} lacks commit ${source.commit} (its HEAD is ${head}); refresh the mirror or run with --bump`);
    }
    return { gitDir, remote: false };
  }
  const url = `${withSlash(BASE)}${source.repo}`;
  const dir = path.join(work, "clones", source.name);
  git(null, ["clone", "--quiet", "--filter=blob:none", "--no-checkout", "--single-branch", url, dir]);
  const gitDir = path.join(dir, ".git");
  if (git(gitDir, ["cat-file", "-e", `${source.commit}^{commit}`], { allowFail: true }).status !== 0) {
    git(gitDir, ["fetch", "--quiet", "--no-tags", "--filter=blob:none", "origin", source.commit]);
  }
  return { gitDir, remote: true };
}

function newestCommit(source) {
  if (!isUrl(BASE)) return git(localGitDir(source.repo), ["rev-parse", "HEAD"]).stdout.toString().trim();
  const line = git(null, ["ls-remote", `${withSlash(BASE)}${source.repo}`, "HEAD"]).stdout.toString().trim();
  const commit = line.split(/\s/)[0];
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`${source.repo}: ls-remote gave ${JSON.stringify(line)}`);
  return commit;
}

/** Every entry of the commit's tree: { mode, type, oid, path }. */
function listTree(gitDir, commit) {
  const out = git(gitDir, ["ls-tree", "-r", "-z", "--full-tree", commit]).stdout.toString("utf8");
  return out.split("\0").filter(Boolean).map((record) => {
    const tab = record.indexOf("\t");
    const [mode, type, oid] = record.slice(0, tab).split(" ");
    return { mode, type, oid, path: record.slice(tab + 1) };
  });
}

/** The entries under the source's root (and include paths), with their path relative to the root. */
function select(source, entries) {
  const root = source.root === "." || source.root === "" ? "" : source.root.replace(/^\.\/|\/$/g, "");
  const include = source.include?.map((p) => p.replace(/^\.\/|\/$/g, ""));
  const picked = [];
  let skipped = 0;
  for (const entry of entries) {
    if (root && !entry.path.startsWith(`${root}/`)) continue;
    const rel = root ? entry.path.slice(root.length + 1) : entry.path;
    if (include && !include.some((p) => rel === p || rel.startsWith(`${p}/`))) continue;
    const parts = rel.split("/");
    if (parts.some((part) => SKIPPED_DIRS.has(part)) || entry.type === "commit") {
      skipped += 1;
      continue;
    }
    if (parts.some((part) => part === "" || part === "." || part === "..")) throw new Error(`${source.name}: unsafe path ${JSON.stringify(entry.path)}`);
    picked.push({ ...entry, rel });
  }
  return { picked, skipped };
}

/** "text" (kept up to MAX_TEXT), "bare" (no extension: kept when small and text) or "empty". */
function kind(entry) {
  if (entry.mode === "120000") return "empty"; // a symlink: its blob is the target, not content
  const ext = path.extname(path.basename(entry.rel)).toLowerCase();
  if (TEXT_EXTENSIONS.has(ext)) return "text";
  return ext === "" ? "bare" : "empty";
}

/** oid → size, or null for a blob the git directory lacks (a mirror leaves out files of 4 MiB and more). */
function sizes(gitDir, oids) {
  if (oids.length === 0) return new Map();
  const out = git(gitDir, ["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], { input: `${oids.join("\n")}\n` }).stdout.toString();
  const map = new Map();
  for (const line of out.split("\n").filter(Boolean)) {
    const [oid, type, size] = line.split(" ");
    map.set(oid, type === "missing" ? null : Number(size));
  }
  return map;
}

/** oid → contents, read in one `git cat-file --batch`. */
function contents(gitDir, oids) {
  const map = new Map();
  if (oids.length === 0) return map;
  const out = git(gitDir, ["cat-file", "--batch"], { input: `${oids.join("\n")}\n` }).stdout;
  let at = 0;
  while (at < out.length) {
    const newline = out.indexOf(10, at);
    const [oid, type, size] = out.subarray(at, newline).toString().split(" ");
    if (type === "missing") throw new Error(`blob ${oid} is missing`);
    const start = newline + 1;
    map.set(oid, out.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return map;
}

function isText(buffer) {
  if (buffer.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(buffer);
    return true;
  } catch {
    return false;
  }
}

/** Stages one source under stage/<name>/ and returns its counts. */
function stageSource(source, stage, work) {
  const { gitDir, remote } = obtain(source, work);
  const { picked, skipped } = select(source, listTree(gitDir, source.commit));
  if (picked.length === 0) throw new Error(`${source.name}: nothing under ${source.root} at ${source.commit}`);
  const candidates = picked.filter((entry) => kind(entry) !== "empty");
  const oids = [...new Set(candidates.map((entry) => entry.oid))];
  if (remote && oids.length > 0) {
    // One request for every candidate blob, rather than one lazy fetch per blob.
    git(gitDir, ["-c", "fetch.negotiationAlgorithm=noop", "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none", "--stdin", "origin"], { input: `${oids.join("\n")}\n` });
  }
  const size = sizes(gitDir, oids);
  const missing = oids.filter((oid) => size.get(oid) === null);
  const wanted = candidates.filter((entry) => {
    const bytes = size.get(entry.oid);
    return bytes !== null && bytes <= (kind(entry) === "text" ? MAX_TEXT : MAX_BARE);
  });
  const body = contents(gitDir, [...new Set(wanted.map((entry) => entry.oid))]);
  const counts = { name: source.name, text: 0, emptied: 0, bytes: 0, pages: 0, skipped, missing: missing.length };
  for (const entry of picked) {
    let data = body.get(entry.oid);
    if (data && kind(entry) === "bare" && !isText(data)) data = undefined;
    const file = path.join(stage, source.name, ...entry.rel.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, data ?? Buffer.alloc(0));
    if (data) {
      counts.text += 1;
      counts.bytes += data.length;
    }
    else counts.emptied += 1;
    if (/\.mdx?$/i.test(entry.rel)) counts.pages += 1;
  }
  if (missing.length > 0) {
    console.warn(`  ${source.name}: ${missing.length} blob(s) absent from ${gitDir}; emptied (a mirror omits files of 4 MiB and more)`);
  }
  return counts;
}

/** tar (sorted, fixed mtime and owner) | gzip -n > out: the same tree gives the same bytes. */
async function writeArchive(stage, names, out) {
  const tmp = `${out}.tmp-${process.pid}`;
  const file = createWriteStream(tmp);
  const env = { ...process.env, LC_ALL: "C", TZ: "UTC" };
  const tar = spawn("tar", ["--create", "--file=-", "--format=gnu", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "--mode=u=rwX,go=rX", "-C", stage, "--", ...names], { env, stdio: ["ignore", "pipe", "inherit"] });
  const gzip = spawn("gzip", ["-n", "-9"], { env, stdio: ["pipe", "pipe", "inherit"] });
  tar.stdout.pipe(gzip.stdin);
  gzip.stdout.pipe(file);
  const exited = (child, label) => new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${label} exited with ${code}`))));
  });
  await Promise.all([exited(tar, "tar"), exited(gzip, "gzip"), new Promise((resolve, reject) => file.on("close", resolve).on("error", reject))]);
  renameSync(tmp, out);
}

const sources = JSON.parse(readFileSync(SOURCES, "utf8"));
const names = sources.map((s) => s.name);
if (new Set(names).size !== names.length) throw new Error("source names must be unique");
for (const s of sources) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(s.name)) throw new Error(`bad name ${JSON.stringify(s.name)}`);
  if (!/^[0-9a-f]{40}$/.test(s.commit)) throw new Error(`${s.name}: commit must be 40 hex digits`);
}
if (ONLY) for (const n of ONLY) if (!names.includes(n)) throw new Error(`--only: no source named ${n}`);

if (flag("--bump")) {
  const today = new Date().toISOString().slice(0, 10);
  for (const source of sources) {
    if (ONLY && !ONLY.includes(source.name)) continue;
    const commit = newestCommit(source);
    if (commit !== source.commit) {
      console.log(`${source.name}: ${source.commit.slice(0, 12)} → ${commit.slice(0, 12)}`);
      source.commit = commit;
      source.fetchedAt = today;
    }
  }
  writeFileSync(SOURCES, `${JSON.stringify(sources, null, 2)}\n`);
}

const work = mkdtempSync(path.join(os.tmpdir(), "real-docs-"));
const stage = STAGE ? path.resolve(STAGE) : path.join(work, "stage");
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
try {
  const rows = [];
  for (const source of sources) {
    const started = Date.now();
    const counts = stageSource(source, stage, work);
    rows.push(counts);
    console.log(`${source.name.padEnd(22)} ${source.commit.slice(0, 12)}  text ${String(counts.text).padStart(5)}  emptied ${String(counts.emptied).padStart(5)}  ${String(counts.bytes).padStart(10)} bytes  pages ${String(counts.pages).padStart(5)}${counts.skipped ? `  skipped ${counts.skipped}` : ""}  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  const total = rows.reduce((sum, r) => ({ text: sum.text + r.text, emptied: sum.emptied + r.emptied, bytes: sum.bytes + r.bytes, pages: sum.pages + r.pages }), { text: 0, emptied: 0, bytes: 0, pages: 0 });
  console.log(`${"total".padEnd(22)} ${"".padEnd(12)}  text ${String(total.text).padStart(5)}  emptied ${String(total.emptied).padStart(5)}  ${String(total.bytes).padStart(10)} bytes  pages ${String(total.pages).padStart(5)}`);
  const target = flag("--check") ? path.join(work, "check.tar.gz") : OUT;
  mkdirSync(path.dirname(target), { recursive: true });
  await writeArchive(stage, [...names].sort(), target);
  const size = statSync(target).size;
  if (flag("--check")) {
    const same = existsSync(OUT) && readFileSync(OUT).equals(readFileSync(target));
    console.log(`${path.relative(ROOT, OUT)}: ${same ? "up to date" : "DIFFERS from a fresh build"} (${size} bytes rebuilt)`);
    if (!same) process.exitCode = 1;
  }
  else console.log(`wrote ${path.relative(ROOT, OUT)}: ${size} bytes (${(size / 1024 / 1024).toFixed(2)} MiB)`);
}
finally {
  rmSync(work, { recursive: true, force: true });
}
