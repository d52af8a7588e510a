#!/usr/bin/env node
// Makes `npm start` and `npm test` work on a fresh clone: installs from the lockfile when
// node_modules is missing or older than it, and compiles src/ to lib/ when lib/ is stale.
// Uses nothing but Node itself, since it runs before dependencies exist.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const installed = path.join(root, "node_modules", ".package-lock.json");
if (mtime(installed) < mtime(path.join(root, "package-lock.json"))) {
  console.log("Installing dependencies from package-lock.json (npm ci)…");
  execFileSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
}

const stamp = path.join(root, "lib", ".build-stamp");
const sources = Math.max(newest(path.join(root, "src")), mtime(path.join(root, "tsconfig.json")), mtime(path.join(root, "tsconfig.build.json")));
if (mtime(stamp) < sources) {
  console.log("Compiling src/ to lib/…");
  execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  console.log("Bundling the dashboard's assets…");
  execFileSync(process.execPath, [path.join(root, "scripts", "build-dashboard.mjs")], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, ["-e", `require("fs").writeFileSync(${JSON.stringify(stamp)}, new Date().toISOString())`]);
}
