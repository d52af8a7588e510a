import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linkCheckerPlace, loadLinkChecker, prepareLinkChecker, vendoredLockDir, type ToolArchive } from "../../../../src/action/validation/link-checker.js";
import { writeFakeLinkRot } from "../../../helpers/fake-link-rot.js";

const temp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
const quiet = { info: () => undefined, warning: () => undefined };

/**
 * A pinned lockfile whose one dependency is the stand-in engine as a tarball, so `npm ci` runs for
 * real without the registry. A lockfile's paths are relative to where npm runs (the install's
 * staging directory, two levels under the tool root), so the tarball sits in the tool root.
 */
function localLock(toolRoot: string): { lockDir: string; log: string } {
  const root = temp("inkwell-link-lock-");
  const log = path.join(root, "checks.log");
  writeFakeLinkRot(path.join(root, "engine"), log);
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", toolRoot, path.join(root, "engine")], { encoding: "utf8" }).trim().split("\n").at(-1) as string;
  const tarball = `file:../../${packed}`;
  const integrity = `sha512-${createHash("sha512").update(readFileSync(path.join(toolRoot, packed))).digest("base64")}`;
  const lockDir = path.join(root, "lock");
  mkdirSync(lockDir);
  writeFileSync(path.join(lockDir, "package.json"), JSON.stringify({ name: "lock", private: true, dependencies: { "@mintlify/link-rot": tarball } }));
  writeFileSync(
    path.join(lockDir, "package-lock.json"),
    JSON.stringify({
      name: "lock",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "lock", dependencies: { "@mintlify/link-rot": tarball } },
        "node_modules/@mintlify/link-rot": { version: "0.0.0-test", resolved: tarball, integrity },
      },
    }),
  );
  return { lockDir, log };
}

/** GitHub's Actions cache as a directory of saved copies (the real one is a service this machine cannot reach). */
function folderArchive(): ToolArchive & { saved: string[] } {
  const store = temp("inkwell-archive-");
  const saved: string[] = [];
  return {
    saved,
    async restore(directory, key) {
      if (!existsSync(path.join(store, key))) return false;
      cpSync(path.join(store, key), directory, { recursive: true });
      return true;
    },
    async save(directory, key) {
      cpSync(directory, path.join(store, key), { recursive: true });
      saved.push(key);
    },
  };
}

const site = () => {
  const root = temp("inkwell-link-site-");
  writeFileSync(path.join(root, "docs.json"), "{}");
  writeFileSync(path.join(root, "index.mdx"), "---\ntitle: Home\n---\n\n[Setup](/setup) and [gone](/gone).\n");
  writeFileSync(path.join(root, "setup.mdx"), "---\ntitle: Setup\n---\n");
  return root;
};

describe("the pinned link checker", () => {
  it("the vendored lockfile pins @mintlify/link-rot exactly, and its place is named by the lockfile's hash and the platform", () => {
    const lockDir = vendoredLockDir();
    expect(lockDir).not.toBeNull();
    const lock = JSON.parse(readFileSync(path.join(lockDir as string, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
    const manifest = JSON.parse(readFileSync(path.join(lockDir as string, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(manifest.dependencies["@mintlify/link-rot"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages["node_modules/@mintlify/link-rot"]?.version).toBe(manifest.dependencies["@mintlify/link-rot"]);
    const place = linkCheckerPlace("/opt/tools", lockDir as string);
    expect(place.key).toMatch(new RegExp(`^inkwell-link-checker-${process.platform}-${process.arch}-[0-9a-f]{16}$`));
    expect(place.directory).toBe(path.join("/opt/tools", "inkwell-link-checker", place.key));
  });

  it("installs from the lockfile once, saves it to the Actions cache, then comes from the tool cache, and another runner restores it", async () => {
    const toolRoot = temp("inkwell-tools-");
    const { lockDir, log } = localLock(toolRoot);
    const archive = folderArchive();
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };

    const first = await prepareLinkChecker({ toolRoot, archive, env, timeoutMs: 60_000, log: quiet, lockDir });
    expect(first.source).toBe("installed");
    await first.saving;
    expect(archive.saved).toEqual([linkCheckerPlace(toolRoot, lockDir).key]);
    expect(await first.checker.check(site())).toEqual([{ file: "index.mdx", link: "/gone" }]);

    const again = await prepareLinkChecker({ toolRoot, archive, env, timeoutMs: 60_000, log: quiet, lockDir });
    expect(again).toMatchObject({ source: "tool cache", saving: null });

    const otherRunner = await prepareLinkChecker({ toolRoot: temp("inkwell-tools-"), archive, env, timeoutMs: 60_000, log: quiet, lockDir });
    expect(otherRunner).toMatchObject({ source: "actions cache", saving: null });
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("an install that fails leaves nothing half-made behind and says why", async () => {
    const lockDir = temp("inkwell-bad-lock-");
    writeFileSync(path.join(lockDir, "package.json"), JSON.stringify({ name: "x", private: true, dependencies: { "@mintlify/link-rot": "1.0.0" } }));
    // A lockfile npm cannot read: it fails before asking any registry (a version the registry lacks
    // made the test wait on the network: 70 s under Node 24 here).
    writeFileSync(path.join(lockDir, "package-lock.json"), '{"name":"x","lockfileVersion":3, not json');
    const toolRoot = temp("inkwell-tools-");
    await expect(prepareLinkChecker({ toolRoot, archive: null, env: { PATH: process.env.PATH }, timeoutMs: 60_000, log: quiet, lockDir })).rejects.toThrow(/npm ci --ignore-scripts .* failed \(exit \d+\)/);
    expect(existsSync(linkCheckerPlace(toolRoot, lockDir).directory)).toBe(false);
  });

  it("refuses an engine without the API it was pinned for", async () => {
    const directory = temp("inkwell-odd-engine-");
    const engine = path.join(directory, "node_modules", "@mintlify", "link-rot");
    mkdirSync(engine, { recursive: true });
    writeFileSync(path.join(engine, "package.json"), JSON.stringify({ name: "@mintlify/link-rot", version: "9.9.9", type: "module", main: "index.js" }));
    writeFileSync(path.join(engine, "index.js"), "export const somethingElse = 1;\n");
    await expect(loadLinkChecker(directory, quiet)).rejects.toThrow("@mintlify/link-rot 9.9.9 has no buildGraph");
  });
});
