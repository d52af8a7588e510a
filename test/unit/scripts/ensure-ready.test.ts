import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectedPackages, installCommand, installProgress } from "../../../scripts/ensure-ready.mjs";

describe("what a fresh clone installs", () => {
  const lockMtime = 1_000;

  it("npm start installs the service's dependencies only; the tests install every one", () => {
    expect(installCommand({ lockMtime, installed: null, withDev: false })?.slice(0, 2)).toEqual(["ci", "--omit=dev"]);
    expect(installCommand({ lockMtime, installed: null, withDev: true })?.slice(0, 2)).toEqual(["ci", "--include=dev"]);
  });

  it("a lockfile newer than the install reinstalls from it", () => {
    const installed = { mtime: lockMtime - 1, hasDev: true };
    expect(installCommand({ lockMtime, installed, withDev: false })?.[0]).toBe("ci");
    expect(installCommand({ lockMtime, installed, withDev: true })?.[0]).toBe("ci");
  });

  it("after npm start, the tests add the development dependencies in place, leaving the lockfile and a running server's modules alone", () => {
    const command = installCommand({ lockMtime, installed: { mtime: lockMtime + 1, hasDev: false }, withDev: true });
    expect(command).toEqual(expect.arrayContaining(["install", "--include=dev", "--no-save"]));
    expect(command).not.toContain("ci");
  });

  it("an install in step with the lockfile is left alone, and npm start never takes development dependencies away", () => {
    expect(installCommand({ lockMtime, installed: { mtime: lockMtime, hasDev: true }, withDev: true })).toBeNull();
    expect(installCommand({ lockMtime, installed: { mtime: lockMtime, hasDev: true }, withDev: false })).toBeNull();
    expect(installCommand({ lockMtime, installed: { mtime: lockMtime, hasDev: false }, withDev: false })).toBeNull();
  });

  it("progress counts the top-level packages this machine installs: not dev ones for npm start, not other platforms' binaries", () => {
    const lock = {
      packages: {
        "": {},
        "node_modules/zod": {},
        "node_modules/@scope/tool": {},
        "node_modules/vitest": { dev: true },
        "node_modules/zod/node_modules/nested": {},
        "node_modules/@esbuild/linux-x64": { os: ["linux"], cpu: ["x64"] },
        "node_modules/@esbuild/darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
        "node_modules/lightningcss-linux-x64-musl": { os: ["linux"], cpu: ["x64"], libc: ["musl"], dev: true },
        "node_modules/lightningcss-linux-x64-gnu": { os: ["linux"], cpu: ["x64"], libc: ["glibc"], dev: true },
      },
    };
    const linux = { platform: "linux", arch: "x64", libc: "glibc" };
    expect(expectedPackages(lock, { withDev: false, ...linux })).toBe(3);
    expect(expectedPackages(lock, { withDev: true, ...linux })).toBe(5);
    expect(expectedPackages(lock, { withDev: true, platform: "darwin", arch: "arm64", libc: undefined })).toBe(4);
  });

  it("once every package is in node_modules, the progress line says what npm is still doing instead of a count that looks stuck", () => {
    expect(installProgress(120, 376)).toBe("120 of 376 packages in node_modules");
    expect(installProgress(376, 376)).toBe("all 376 packages in node_modules; npm is linking them and running their install scripts");
    // npm may briefly hold more (a package's own nested copy hoisted for a moment): never "380 of 376".
    expect(installProgress(380, 376)).toMatch(/^all 376 packages/);
  });
});

/** Bare package names a JavaScript or TypeScript file imports at run time (type-only imports are erased in lib/). */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const statements = /(?:^|[\n;])\s*(?:import|export)\s+(?!type\b)[^"';]*?\bfrom\s*["']([^"']+)["']|(?:^|[\n;])\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
  const specifiers = [...text.matchAll(statements)].map((match) => (match[1] ?? match[2] ?? match[3]) as string);
  return specifiers
    .filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"))
    .map((specifier) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/"));
}

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("npm start's install (production dependencies only)", () => {
  it("holds every package the service, the CLI, the build and the dashboard's bundle import", () => {
    const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
    const needed = [
      ...files("lib", /\.js$/).filter((file) => !file.includes("dashboard-assets")),
      ...files("src/dashboard-client", /\.ts$/),
      "scripts/start.mjs",
      "scripts/ensure-ready.mjs",
      "scripts/build.mjs",
      "bin/inkwell.js",
    ].flatMap((file) => importedPackages(file).map((name) => ({ file, name })));
    expect(needed.map(({ name }) => name)).toEqual(expect.arrayContaining(["zod", "esbuild", "chart.js"]));
    expect(needed.filter(({ name }) => !Object.hasOwn(manifest.dependencies, name))).toEqual([]);
  });
});
