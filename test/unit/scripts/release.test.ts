import { spawnSync, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

// scripts/release.mjs in a temporary git repository holding what it needs (itself, the Action's
// sources, its build script, dist/, package.json, a CHANGELOG): never /work/main's own tags.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Release Test",
  GIT_AUTHOR_EMAIL: "release@example.com",
  GIT_COMMITTER_NAME: "Release Test",
  GIT_COMMITTER_EMAIL: "release@example.com",
};
const today = () => new Date().toISOString().slice(0, 10);
const CHANGELOG = `# Changelog\n\n## [Unreleased]\n\n### Added\n\n- Something new.\n\n## [0.9.0] - 2026-01-02\n\n### Added\n\n- The start.\n`;

let repo: string;
let base: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env, encoding: "utf8" }).trim();
const release = (...args: string[]) => spawnSync(process.execPath, ["scripts/release.mjs", ...args], { cwd: repo, env, encoding: "utf8" });
const tags = () => git("tag", "-l").split("\n").filter(Boolean).sort();
const setVersion = (version: string) => {
  const pkg = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8"));
  writeFileSync(path.join(repo, "package.json"), `${JSON.stringify({ ...pkg, version }, null, 2)}\n`);
};

beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), "inkwell-release-"));
  for (const entry of ["scripts/release.mjs", "scripts/build-action.mjs", "src/action", "src/shared", "dist", "package.json"]) {
    cpSync(path.join(root, entry), path.join(repo, entry), { recursive: true });
  }
  symlinkSync(path.join(root, "node_modules"), path.join(repo, "node_modules"));
  writeFileSync(path.join(repo, ".gitignore"), "node_modules\n");
  writeFileSync(path.join(repo, "CHANGELOG.md"), CHANGELOG);
  setVersion("1.0.0");
  // dist/ as this copy's src/action builds it (whatever state the main checkout is in).
  execFileSync("npm", ["run", "-s", "build:action"], { cwd: repo, env, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  base = git("rev-parse", "HEAD");
}, 120_000);

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

beforeEach(() => {
  git("reset", "-q", "--hard", base);
  git("clean", "-q", "-fdx", "-e", "node_modules");
  for (const tag of tags()) git("tag", "-d", tag);
});

describe("npm run release", () => {
  it("needs one version and knows only its flags", () => {
    expect(release().status).toBe(2);
    expect(release("1.0").status).toBe(2);
    expect(release("1.0.0", "--force").status).toBe(2);
    expect(release("1.0.0", "2.0.0").stderr).toMatch(/usage: npm run release -- <version>/);
  });

  it("refuses a working tree that is not clean", () => {
    writeFileSync(path.join(repo, "stray.txt"), "x");
    const result = release("1.0.0", "--from-unreleased", "--dry-run");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/working tree is not clean[\s\S]*stray\.txt/);
    rmSync(path.join(repo, "stray.txt"));
    writeFileSync(path.join(repo, "CHANGELOG.md"), `${CHANGELOG}\nedited\n`);
    expect(release("1.0.0", "--from-unreleased").stderr).toMatch(/not clean[\s\S]*CHANGELOG\.md/);
    expect(tags()).toEqual([]);
  });

  it("refuses a version package.json does not have", () => {
    const result = release("1.1.0", "--from-unreleased");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/package\.json's version is 1\.0\.0, not 1\.1\.0/);
    expect(tags()).toEqual([]);
  });

  it("refuses without a CHANGELOG section, unless asked to turn Unreleased into it", () => {
    const result = release("1.0.0");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/no section for 1\.0\.0[\s\S]*--from-unreleased/);
    writeFileSync(path.join(repo, "CHANGELOG.md"), CHANGELOG.replace("- Something new.\n", ""));
    git("commit", "-q", "-am", "empty unreleased");
    expect(release("1.0.0", "--from-unreleased").stderr).toMatch(/Unreleased section is missing or empty/);
    expect(tags()).toEqual([]);
  });

  it("refuses a tag that exists", () => {
    git("tag", "v1.0.0");
    const result = release("1.0.0", "--from-unreleased");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/tag v1\.0\.0 exists already/);
  });

  it("refuses when dist/ is not what src/action builds", () => {
    writeFileSync(path.join(repo, "dist", "index.js"), `${readFileSync(path.join(repo, "dist", "index.js"), "utf8")}\n// stale\n`);
    git("commit", "-q", "-am", "stale dist");
    const result = release("1.0.0", "--from-unreleased");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/dist\/ is not in step with src\/action[\s\S]*npm run build:action/);
    expect(tags()).toEqual([]);
  }, 60_000);

  it("prints its plan on a dry run and changes nothing", () => {
    const result = release("1.0.0", "--from-unreleased", "--dry-run");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`move CHANGELOG.md's Unreleased section to "## [1.0.0] - ${today()}"`);
    expect(result.stdout).toContain("create the annotated tag v1.0.0");
    expect(result.stdout).toContain("move the major tag v1 to v1.0.0 (force)");
    expect(result.stdout).toContain("git push --force origin v1");
    expect(tags()).toEqual([]);
    expect(git("rev-parse", "HEAD")).toBe(base);
    expect(git("status", "--porcelain")).toBe("");
  }, 60_000);

  it("tags the release, moves the major tag with each release, and never moves it back", () => {
    const first = release("1.0.0", "--from-unreleased");
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const changelog = readFileSync(path.join(repo, "CHANGELOG.md"), "utf8");
    expect(changelog).toContain(`## [Unreleased]\n\n## [1.0.0] - ${today()}\n\n### Added\n\n- Something new.`);
    expect(git("log", "-1", "--format=%s")).toBe("Release 1.0.0");
    expect(git("cat-file", "-t", "v1.0.0")).toBe("tag");
    expect(git("rev-parse", "v1^{commit}")).toBe(git("rev-parse", "v1.0.0^{commit}"));
    expect(git("status", "--porcelain")).toBe("");

    // The next release, its section written by hand.
    setVersion("1.1.0");
    writeFileSync(path.join(repo, "CHANGELOG.md"), changelog.replace("## [Unreleased]\n", `## [Unreleased]\n\n## [1.1.0] - ${today()}\n\n### Fixed\n\n- A thing.\n`));
    execFileSync("npm", ["run", "-s", "build:action"], { cwd: repo, env, stdio: "pipe" });
    git("commit", "-q", "-am", "1.1.0");
    const second = release("1.1.0");
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
    expect(git("rev-parse", "v1^{commit}")).toBe(git("rev-parse", "HEAD"));
    expect(git("rev-parse", "v1.0.0^{commit}")).not.toBe(git("rev-parse", "HEAD"));
    expect(tags()).toEqual(["v1", "v1.0.0", "v1.1.0"]);

    // A fix of 1.0 released from an older commit must not take v1 back.
    git("checkout", "-q", "-b", "fix", "v1.0.0");
    setVersion("1.0.1");
    writeFileSync(path.join(repo, "CHANGELOG.md"), changelog.replace("## [Unreleased]\n", `## [Unreleased]\n\n## [1.0.1] - ${today()}\n\n### Fixed\n\n- Backport.\n`));
    git("commit", "-q", "-am", "1.0.1");
    const backport = release("1.0.1");
    expect(backport.status).toBe(1);
    expect(backport.stderr).toMatch(/v1 points at a commit that is not behind HEAD/);
    git("checkout", "-q", "main");
  }, 120_000);
});
