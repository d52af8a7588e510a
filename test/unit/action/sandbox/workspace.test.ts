import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { globToRegExp } from "../../../../src/shared/glob.js";
import { DocsWorkspace, ToolError } from "../../../../src/action/sandbox/workspace.js";

let repo: string;
let ws: DocsWorkspace;

beforeEach(() => {
  const root = mkdtempSync(path.join(tmpdir(), "inkwell-ws-"));
  repo = path.join(root, "repo");
  mkdirSync(path.join(repo, "docs", "guides"), { recursive: true });
  mkdirSync(path.join(repo, ".github", "workflows"), { recursive: true });
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  writeFileSync(path.join(repo, "docs", "index.mdx"), "# Home\n\nWelcome.\nWelcome.\n");
  writeFileSync(path.join(repo, "docs", "guides", "webhooks.md"), "# Webhooks\n\nRetry policy: none.\n");
  writeFileSync(path.join(root, "secret.txt"), "outside");
  writeFileSync(path.join(repo, "package.json"), "{}");
  ws = new DocsWorkspace(repo, "docs", { maxFileBytes: 1024 * 1024, maxRunBytes: 3 * 1024 * 1024 });
});

const refused = async (promise: Promise<unknown>, message: RegExp) => {
  await expect(promise).rejects.toBeInstanceOf(ToolError);
  await expect(promise).rejects.toThrow(message);
};

describe("the agent's file tools are confined in code", () => {
  it("refuses paths outside the docs directory and the repository", async () => {
    await refused(ws.write("../outside.md", "x"), /outside the repository/);
    await refused(ws.write("docs/../../outside.md", "x"), /outside the repository/);
    await refused(ws.write("/etc/passwd", "x"), /relative to the repository root/);
    await refused(ws.write("package.json", "{}"), /outside the docs directory/);
    await refused(ws.read("../secret.txt"), /outside the repository/);
    await refused(ws.write("docs\\..\\..\\x.md", "x"), /outside the repository/);
    expect(existsSync(path.join(repo, "..", "outside.md"))).toBe(false);
  });

  it("refuses .git/ and .github/ even inside the docs directory or with other casing", async () => {
    const everything = new DocsWorkspace(repo, ".");
    await refused(everything.write(".github/workflows/x.yml", "on: push"), /\.github\/ are off limits/);
    await refused(everything.write(".GitHub/workflows/x.yml", "on: push"), /off limits/);
    await refused(everything.write(".git/config", "x"), /off limits/);
    await refused(everything.write("docs/.git/hooks/pre-commit", "x"), /off limits/);
    expect(existsSync(path.join(repo, ".github", "workflows", "x.yml"))).toBe(false);
  });

  it("never follows a symlink, to a file or a directory, existing or not", async () => {
    symlinkSync(path.join(repo, "..", "secret.txt"), path.join(repo, "docs", "link.md"));
    symlinkSync(path.join(repo, ".."), path.join(repo, "docs", "up"));
    await refused(ws.read("docs/link.md"), /symbolic links/);
    await refused(ws.write("docs/link.md", "pwned"), /symbolic links/);
    await refused(ws.write("docs/up/new.md", "pwned"), /symbolic links/);
    await refused(ws.read("docs/up/secret.txt"), /symbolic links/);
    expect(readFileSync(path.join(repo, "..", "secret.txt"), "utf8")).toBe("outside");
    expect(existsSync(path.join(repo, "..", "new.md"))).toBe(false);
  });

  it("caps bytes per file and per run", async () => {
    await refused(ws.write("docs/huge.md", "x".repeat(50 * 1024 * 1024)), /over the 1048576-byte limit per file/);
    for (let i = 0; i < 3; i++) await ws.write(`docs/part-${i}.md`, "y".repeat(900 * 1024));
    await refused(ws.write("docs/part-3.md", "y".repeat(900 * 1024)), /limit for this run/);
    expect(existsSync(path.join(repo, "docs", "huge.md"))).toBe(false);
  });

  it("edits exactly one occurrence and says how many there were otherwise", async () => {
    await ws.edit("docs/guides/webhooks.md", "Retry policy: none.", "Retry policy: 3 attempts.");
    expect(await ws.read("docs/guides/webhooks.md")).toContain("3 attempts");
    await refused(ws.edit("docs/index.mdx", "Welcome.", "Hi."), /occurs 2 times/);
    await refused(ws.edit("docs/index.mdx", "Absent", "Hi."), /occurs 0 times/);
  });

  it("in a CRLF file, matches text written with LF and keeps every line end CRLF", async () => {
    const crlf = "# Setup\r\n\r\nStep one.\r\nStep two.\r\n\r\nDone.  \r\n";
    writeFileSync(path.join(repo, "docs", "setup.md"), crlf);
    await ws.edit("docs/setup.md", "Step one.\nStep two.", "Step one.\nStep one and a half.\nStep two.");
    expect(readFileSync(path.join(repo, "docs", "setup.md"), "utf8")).toBe("# Setup\r\n\r\nStep one.\r\nStep one and a half.\r\nStep two.\r\n\r\nDone.  \r\n");
  });

  it("a whole-file write of a page keeps the lines it did not change byte for byte", async () => {
    writeFileSync(path.join(repo, "docs", "page.md"), "---\r\ntitle: \"Page\"\r\n---\r\n\r\nFirst.   \r\nSecond.\r\n");
    await ws.write("docs/page.md", "---\ntitle: Page\n---\n\nFirst.\nSecond, revised.\n");
    expect(readFileSync(path.join(repo, "docs", "page.md"), "utf8")).toBe("---\r\ntitle: \"Page\"\r\n---\r\n\r\nFirst.   \r\nSecond, revised.\r\n");
  });

  it("reads ranges, lists with globs, searches, moves and deletes, and records what changed", async () => {
    expect(await ws.read("docs/index.mdx", { startLine: 3, endLine: 3 })).toBe("Welcome.");
    expect(await ws.list()).toEqual(["docs/guides/webhooks.md", "docs/index.mdx"]);
    expect(await ws.list("*.mdx")).toEqual(["docs/index.mdx"]);
    expect(await ws.search("retry", { glob: "docs/**/*.md" })).toEqual(["docs/guides/webhooks.md:3: Retry policy: none."]);
    await refused(ws.search("("), /Invalid regular expression/);
    await ws.move("docs/guides/webhooks.md", "docs/guides/events.md");
    await ws.write("docs/new.md", "# New\n");
    await ws.delete("docs/new.md");
    expect(await ws.list()).toEqual(["docs/guides/events.md", "docs/index.mdx"]);
    expect(ws.changedPaths()).toEqual(["docs/guides/events.md", "docs/guides/webhooks.md", "docs/new.md"]);
    await refused(ws.move("docs/index.mdx", "docs/guides/events.md"), /already exists/);
    await refused(ws.delete("docs/missing.md"), /no such file/);
  });
});

describe("globs", () => {
  it.each([
    ["**/*.md", "docs/a/b.md", true],
    ["**/*.md", "b.md", true],
    ["docs/*.md", "docs/a/b.md", false],
    ["*.{md,mdx}", "docs/x.mdx", true],
    ["docs/?.md", "docs/a.md", true],
    ["guide.md", "docs/guide.md", true],
    ["src/{?,x}/a.ts", "src/b/a.ts", true],
    ["src/{a{b,c}.ts", "src/a{b.ts", true],
  ])("%s ~ %s → %s", (glob, file, expected) => {
    expect(globToRegExp(glob).test(file)).toBe(expected);
  });
});
