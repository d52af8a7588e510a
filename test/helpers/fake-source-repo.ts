import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@acme.test", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@acme.test" } }).trim();

/** A real git repository standing in for a code repository on GitHub: each `commit` is a merge's commit. */
export function sourceRepository() {
  const dir = mkdtempSync(path.join(tmpdir(), "inkwell-source-"));
  git(dir, "init", "--quiet", "--initial-branch=main");
  return {
    dir,
    /** Writes the files and commits them; returns the commit's sha and its diff as GitHub's pull request files list. */
    commit(files: Record<string, string>, message: string) {
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), content);
      }
      git(dir, "add", ".");
      git(dir, "commit", "--quiet", "-m", message);
      const sha = git(dir, "rev-parse", "HEAD");
      const parent = git(dir, "rev-list", "--max-count=1", "--skip=1", "HEAD");
      const changed = parent ? git(dir, "diff", "--numstat", parent, sha).split("\n").filter(Boolean) : [];
      const pullFiles = changed.map((line) => {
        const [additions, deletions, filename] = line.split("\t") as [string, string, string];
        const patch = git(dir, "diff", parent, sha, "--", filename).split("\n").slice(4).join("\n");
        return { sha, filename, status: Number(deletions) === 0 && !git(dir, "ls-tree", parent, filename) ? "added" : "modified", additions: Number(additions), deletions: Number(deletions), changes: Number(additions) + Number(deletions), patch };
      });
      return { sha, pullFiles };
    },
  };
}

/**
 * GitHub's git data API over that repository (trees and blobs, GitHub's shapes) for one
 * installation token, which can only read: any other method answers 403 as GitHub does for a
 * token without write permission, and is recorded in `writes`.
 */
export function sourceRoutes(repository: string, dir: string, token: string) {
  const writes: Array<{ method: string; path: string }> = [];
  const reads: string[] = [];
  const prefix = `/repos/${repository}/`;
  const handle = (method: string, pathname: string, authorization: string | undefined, reply: (status: number, body: unknown) => void): boolean => {
    if (!pathname.startsWith(prefix)) return false;
    if (authorization !== `token ${token}`) return reply(404, { message: "Not Found" }), true;
    if (method !== "GET") {
      writes.push({ method, path: pathname });
      return reply(403, { message: "Resource not accessible by integration", documentation_url: "https://docs.github.com/rest", status: "403" }), true;
    }
    reads.push(pathname);
    let match: RegExpExecArray | null;
    if ((match = /^git\/trees\/([0-9a-f]{40})$/.exec(pathname.slice(prefix.length)))) {
      const tree = git(dir, "ls-tree", "-r", "-l", match[1] as string)
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [meta, file] = line.split("\t") as [string, string];
          const [mode, type, sha, size] = meta.split(/\s+/) as [string, string, string, string];
          return { path: file, mode, type, sha, size: Number(size), url: `https://api.github.com${prefix}git/blobs/${sha}` };
        });
      return reply(200, { sha: match[1], url: `https://api.github.com${pathname}`, tree, truncated: false }), true;
    }
    if ((match = /^git\/blobs\/([0-9a-f]{40})$/.exec(pathname.slice(prefix.length)))) {
      const content = execFileSync("git", ["cat-file", "blob", match[1] as string], { cwd: dir });
      return reply(200, { sha: match[1], node_id: "B_1", size: content.length, url: `https://api.github.com${pathname}`, content: content.toString("base64"), encoding: "base64" }), true;
    }
    return reply(404, { message: "Not Found" }), true;
  };
  return { handle, writes, reads };
}
