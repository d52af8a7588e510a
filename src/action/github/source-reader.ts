import type { SourceEntry, SourceReader } from "../sandbox/source-repository.js";
import { createOctokit } from "./pull-request.js";

/** Reads a repository at one commit through GitHub's git data API with a read-only token: its tree once, then blobs as asked. */
export function githubSourceReader(source: { repository: string; sha: string; token: string }, options: { baseUrl?: string; fetch?: typeof fetch }): SourceReader {
  const octokit = createOctokit(source.token, options);
  const [owner = "", repo = ""] = source.repository.split("/");
  return {
    async tree() {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", { owner, repo, tree_sha: source.sha, recursive: "1" });
      // Mode 100644/100755 are files; 120000 symlinks and 160000 submodules are never followed.
      const entries: SourceEntry[] = data.tree
        .filter((item) => item.type === "blob" && (item.mode === "100644" || item.mode === "100755") && item.path && item.sha)
        .map((item) => ({ path: item.path as string, sha: item.sha as string, size: item.size ?? 0 }));
      return { entries, truncated: data.truncated };
    },
    async blob(sha) {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", { owner, repo, file_sha: sha });
      return Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8");
    },
  };
}
