import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The `uses:` of the workflow the Setup tab shows, and where it came from: INKWELL_ACTION_REF, the
 * checkout's origin, or nothing (a placeholder the operator must replace by setting the variable).
 */
export interface ActionReference {
  uses: string;
  source: "configured" | "checkout" | "unknown";
}

/** What stands in the workflow when no repository is known, as in examples/inkwell-workflow.yml. */
export const PLACEHOLDER_REPOSITORY = "your-org/inkwell";

/**
 * Where docs repositories take the Action from. The Action is this repository at a release
 * (scripts/release.mjs tags `v<version>` and moves `v<major>`), so a reference is a repository and
 * a ref: INKWELL_ACTION_REF as given (`owner/repo@ref`; a bare `owner/repo` gets `@v<major>`), else
 * the checkout's own `origin` on this GitHub at `v<major>`, the tag that follows this server's
 * major version. The Action's major version must match the service's, hence the server's.
 */
export function actionReference(options: { configured: string | undefined; version: string; githubServerUrl: string; originUrl: () => string | null }): ActionReference {
  const majorTag = `v${options.version.split(".")[0]}`;
  if (options.configured) return { uses: options.configured.includes("@") ? options.configured : `${options.configured}@${majorTag}`, source: "configured" };
  const origin = options.originUrl();
  const repository = origin ? repositoryOn(origin, new URL(options.githubServerUrl).host) : null;
  return repository ? { uses: `${repository}@${majorTag}`, source: "checkout" } : { uses: `${PLACEHOLDER_REPOSITORY}@${majorTag}`, source: "unknown" };
}

/** `owner/repo` of a git remote URL (https, ssh or scp-like) on `host`, or null for any other host. */
export function repositoryOn(remoteUrl: string, host: string): string | null {
  const scpLike = /^[\w.-]+@([^:/]+):([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(remoteUrl);
  if (scpLike) return scpLike[1] === host ? (scpLike[2] ?? null) : null;
  if (!URL.canParse(remoteUrl)) return null;
  const url = new URL(remoteUrl);
  const path = /^\/([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url.pathname)?.[1];
  return url.host === host && path ? path : null;
}

/** The `origin` remote of the git checkout at `dir`, or null (no git, no checkout, as in the container image). */
export function checkoutOriginUrl(dir: string): string | null {
  // Only this directory's own repository, never one it happens to sit inside.
  if (!existsSync(path.join(dir, ".git"))) return null;
  try {
    return execFileSync("git", ["-C", dir, "config", "--get", "remote.origin.url"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5000 }).trim() || null;
  } catch {
    return null;
  }
}
