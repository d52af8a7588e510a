import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeStartingTree } from "../../../../src/action/validation/starting-tree.js";
import { writeRepo } from "../../../helpers/temp-repo.js";

describe("writeStartingTree", () => {
  it("writes the committed tree's text, media as empty files, and not the working tree's edits", async () => {
    const root = writeRepo({
      "docs/guide.mdx": "# Guide\n",
      "docs/ünïcode name.md": "# Ü\n",
      ".mintignore": "drafts/\n",
      "images/logo.png": "\x89PNG not really",
      "big.json": `${"x".repeat(1024 * 1024 + 1)}`,
    });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe" });
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "site");
    writeFileSync(path.join(root, "docs/guide.mdx"), "# Edited by the run\n");
    writeFileSync(path.join(root, "docs/new.mdx"), "# New\n");

    const tree = await writeStartingTree(root);
    try {
      expect(readFileSync(path.join(tree.root, "docs/guide.mdx"), "utf8")).toBe("# Guide\n");
      expect(readFileSync(path.join(tree.root, "docs/ünïcode name.md"), "utf8")).toBe("# Ü\n");
      expect(readFileSync(path.join(tree.root, ".mintignore"), "utf8")).toBe("drafts/\n");
      expect(statSync(path.join(tree.root, "images/logo.png")).size).toBe(0);
      expect(statSync(path.join(tree.root, "big.json")).size).toBe(0);
      expect(existsSync(path.join(tree.root, "docs/new.mdx"))).toBe(false);
    } finally {
      await tree.remove();
    }
    expect(existsSync(tree.root)).toBe(false);
  });

  it("fails with git's reason, leaving nothing behind, outside a repository", async () => {
    const root = writeRepo({ "a.md": "# A\n" });
    await expect(writeStartingTree(root)).rejects.toThrow(/git ls-tree failed/);
  });
});
