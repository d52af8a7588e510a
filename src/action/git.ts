import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { withoutTrailingSlashes } from "../shared/trailing-slashes.js";

const run = promisify(execFile);

export interface GitIdentity {
  name: string;
  email: string;
}

export type FileStatus = "added" | "modified" | "deleted" | "renamed";
export interface ChangedFile {
  path: string;
  status: FileStatus;
  /** For renames, where the file was. */
  from?: string;
}

export interface GitOptions {
  /** Where the repository is (GITHUB_WORKSPACE); cloned there when it is not a checkout yet. */
  directory: string;
  /** e.g. https://github.com/acme/docs.git, or a local path in tests. */
  remoteUrl: string;
  /** GITHUB_SERVER_URL: the token is sent only to this host. */
  serverUrl: string;
  /** The App's repository token (GitLab: the job's CI_JOB_TOKEN); sent as an HTTP header, never written to disk or logs. */
  token: string;
  /** The basic-auth user the forge expects with that token (default GitHub's `x-access-token`; GitLab's `gitlab-ci-token`). */
  user?: string;
}

/**
 * Real git, run as a child process. The token goes in per-command config (`-c`), replacing any
 * header actions/checkout persisted, so pushes come from the App and nothing is left in .git/config.
 */
export class GitRepository {
  constructor(private readonly options: GitOptions) {}

  get directory(): string {
    return this.options.directory;
  }

  async git(args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
    const header = `AUTHORIZATION: basic ${Buffer.from(`${this.options.user ?? "x-access-token"}:${this.options.token}`).toString("base64")}`;
    const scope = `http.${withoutTrailingSlashes(this.options.serverUrl)}/.extraheader`;
    const auth = ["-c", `${scope}=`, "-c", `${scope}=${header}`];
    try {
      const { stdout } = await run("git", [...auth, ...args], {
        cwd: this.options.directory,
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", ...extraEnv },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim() ?? "";
      throw new Error(`git ${args[0]} failed: ${stderr.replaceAll(this.options.token, "***") || (error as Error).message}`);
    }
  }

  /**
   * Puts the job branch in the working tree: the existing remote branch when there is one (so
   * follow-ups continue the same PR), else a new branch from the base's tip, fetched shallow.
   * Returns the base branch.
   */
  async checkoutJobBranch(branch: string, baseRef: string | null): Promise<{ base: string; branchExisted: boolean }> {
    if (!existsSync(path.join(this.options.directory, ".git"))) {
      await this.git(["init", "--quiet"]);
      await this.git(["remote", "add", "origin", this.options.remoteUrl]);
    }
    const base = baseRef ?? (await this.defaultBranch());
    const branchExisted = (await this.git(["ls-remote", "--heads", "origin", `refs/heads/${branch}`])).trim() !== "";
    const refspecs = [`+refs/heads/${base}:refs/remotes/origin/${base}`];
    if (branchExisted) refspecs.push(`+refs/heads/${branch}:refs/remotes/origin/${branch}`);
    // A new branch needs only the base's tip; a follow-up needs the history back to where its branch left the base.
    await this.git(["fetch", "--quiet", "--no-tags", ...(branchExisted ? [] : ["--depth=1"]), "origin", ...refspecs]);
    await this.git(["checkout", "--quiet", "--force", "-B", branch, `refs/remotes/origin/${branchExisted ? branch : base}`]);
    await this.git(["clean", "--quiet", "-fd"]);
    return { base, branchExisted };
  }

  async defaultBranch(): Promise<string> {
    const out = await this.git(["ls-remote", "--symref", "origin", "HEAD"]);
    const match = /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(out);
    if (!match?.[1]) throw new Error("could not tell the repository's default branch (the remote has no HEAD)");
    return match[1];
  }

  /** Stages exactly these paths (deletions included) and commits them; false when nothing differs. */
  async commit(paths: string[], message: string, author: GitIdentity): Promise<boolean> {
    if (paths.length === 0) return false;
    await this.#stage(paths);
    const staged = (await this.git(["diff", "--cached", "--name-only"])).trim();
    if (!staged) return false;
    const identity = { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_COMMITTER_NAME: author.name, GIT_COMMITTER_EMAIL: author.email };
    await this.git(["commit", "--quiet", "--no-verify", "-m", message], identity);
    return true;
  }

  async push(branch: string): Promise<void> {
    await this.git(["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
  }

  /** Files the branch's commits change against its base, as the PR shows them. */
  changedFiles(base: string): Promise<ChangedFile[]> {
    return this.#diff(["-M", `refs/remotes/origin/${base}...HEAD`]);
  }

  /** Stages `paths` and answers what the index changes against the base: the branch as it would be after a commit. */
  async stagedChanges(base: string, paths: string[]): Promise<ChangedFile[]> {
    await this.#stage(paths);
    return this.#diff(["--cached", "-M", `refs/remotes/origin/${base}`]);
  }

  /** `git add` for what exists, `git rm --cached` for what was deleted (add fails on a path already staged as gone). */
  async #stage(paths: string[]): Promise<void> {
    const present = paths.filter((file) => existsSync(path.join(this.options.directory, file)));
    const gone = paths.filter((file) => !present.includes(file));
    if (present.length > 0) await this.git(["add", "--", ...present]);
    if (gone.length > 0) await this.git(["rm", "--cached", "--quiet", "--ignore-unmatch", "--", ...gone]);
  }

  async #diff(args: string[]): Promise<ChangedFile[]> {
    const out = await this.git(["diff", "--name-status", "-z", ...args]);
    const fields = out.split("\0").filter(Boolean);
    const files: ChangedFile[] = [];
    for (let i = 0; i < fields.length; ) {
      const code = fields[i++] as string;
      if (code.startsWith("R")) {
        const from = fields[i++] as string;
        files.push({ path: fields[i++] as string, status: "renamed", from });
      } else {
        const status: FileStatus = code === "A" ? "added" : code === "D" ? "deleted" : "modified";
        files.push({ path: fields[i++] as string, status });
      }
    }
    return files;
  }

  /** Full messages of the branch's own commits, oldest first. */
  async commitMessages(base: string): Promise<string[]> {
    const out = await this.git(["log", "--reverse", "--format=%B%x00", `refs/remotes/origin/${base}..HEAD`]);
    return out
      .split("\0")
      .map((message) => message.trim())
      .filter(Boolean);
  }
}
