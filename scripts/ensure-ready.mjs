#!/usr/bin/env node
// Makes `npm start` and `npm test` work on a fresh clone: installs from the lockfile when
// node_modules is missing or older than it, and builds src/ to lib/ when lib/ is stale.
// Uses nothing but Node itself, since it runs before dependencies exist.
//
// `npm start` needs only the production dependencies (about half of them: esbuild and Chart.js,
// which build lib/, are among them), so a first start installs those alone; the tests' run adds the
// development ones later, in place, without removing what a running server has loaded.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * The npm command that brings node_modules in step with the lockfile, or null when it already is.
 * `installed` is npm's record of what it installed (node_modules/.package-lock.json), or null.
 */
export function installCommand({ lockMtime, installed, withDev }) {
  if (!installed || installed.mtime < lockMtime) {
    return withDev ? ["ci", "--include=dev", "--no-audit", "--no-fund"] : ["ci", "--omit=dev", "--no-audit", "--no-fund"];
  }
  if (withDev && !installed.hasDev) return ["install", "--include=dev", "--no-save", "--no-audit", "--no-fund"];
  return null;
}

/** The top-level packages the lockfile installs on this machine: what progress counts towards. */
export function expectedPackages(lock, { withDev, platform = process.platform, arch = process.arch, libc = currentLibc() }) {
  const fits = (list, value) => !list || list.includes(value);
  return Object.entries(lock.packages ?? {}).filter(
    ([key, entry]) =>
      /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) &&
      (withDev || !entry.dev) &&
      fits(entry.os, platform) &&
      fits(entry.cpu, arch) &&
      fits(entry.libc, libc),
  ).length;
}

/**
 * The progress line's words while npm installs. npm puts every package in node_modules first and
 * then links them and runs their install scripts (esbuild's, for one) for a while with nothing new
 * to count: the line says so, rather than a count that looks stuck.
 */
export function installProgress(installed, total) {
  return installed < total ? `${installed} of ${total} packages in node_modules` : `all ${total} packages in node_modules; npm is linking them and running their install scripts`;
}

function currentLibc() {
  return process.platform === "linux" ? (process.report.getReport().header.glibcVersionRuntime ? "glibc" : "musl") : undefined;
}

function installedPackages() {
  const dir = path.join(root, "node_modules");
  if (!existsSync(dir)) return 0;
  let count = 0;
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(".")) continue;
    count += entry.startsWith("@") ? readdirSync(path.join(dir, entry)).length : 1;
  }
  return count;
}

function readInstalled() {
  const file = path.join(root, "node_modules", ".package-lock.json");
  if (!existsSync(file)) return null;
  const packages = Object.values(JSON.parse(readFileSync(file, "utf8")).packages ?? {});
  return { mtime: mtime(file), hasDev: packages.some((entry) => entry.dev) };
}

/**
 * Runs a child with its output passed through, and, while it is quiet, a line that says it is
 * still working: redrawn in place on a terminal, every ten seconds in a log file.
 */
function runWithProgress(command, args, describe) {
  const terminal = Boolean(process.stdout.isTTY);
  const started = performance.now();
  let drawn = false;
  const clear = () => {
    if (drawn) process.stdout.write("\r\x1b[K");
    drawn = false;
  };
  const tick = () => {
    const line = `  ${describe()}, ${Math.round((performance.now() - started) / 1000)} s`;
    if (terminal) {
      process.stdout.write(`\r\x1b[K${line}`);
      drawn = true;
    } else console.log(line);
  };
  const timer = setInterval(tick, terminal ? 250 : 10_000);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    for (const [stream, target] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      stream.on("data", (chunk) => {
        clear();
        target.write(chunk);
      });
    }
    child.on("error", (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearInterval(timer);
      clear();
      if (code === 0) resolve();
      else reject(new Error(`\`${command} ${args.join(" ")}\` failed (${signal ?? `exit code ${code}`}); its output is above.`));
    });
  });
}

function runNode(script) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, script)], { cwd: root, stdio: "inherit" });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${script} failed (exit code ${code}); its output is above.`))));
  });
}

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** `withDev`: the tests' and benchmarks' tools too, not only what the service needs. */
export async function ensureReady({ withDev }) {
  const lockFile = path.join(root, "package-lock.json");
  const args = installCommand({ lockMtime: mtime(lockFile), installed: readInstalled(), withDev });
  if (args) {
    const started = performance.now();
    const total = expectedPackages(JSON.parse(readFileSync(lockFile, "utf8")), { withDev });
    const what = args[0] === "ci" ? (withDev ? "every dependency" : "the service's dependencies") : "the development dependencies";
    console.log(`Installing ${what} from package-lock.json (npm ${args.join(" ")})…`);
    await runWithProgress(npm, args, () => installProgress(installedPackages(), total));
    console.log(`Installed in ${seconds(started)}.`);
  }

  const stamp = path.join(root, "lib", ".build-stamp");
  const sources = Math.max(newest(path.join(root, "src")), mtime(path.join(root, "tsconfig.json")), mtime(path.join(root, "tsconfig.build.json")));
  if (mtime(stamp) < sources) {
    const started = performance.now();
    console.log("Building src/ to lib/ and the dashboard's assets…");
    await runNode("scripts/build.mjs");
    writeFileSync(stamp, new Date().toISOString());
    console.log(`Built in ${seconds(started)}.`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await ensureReady({ withDev: true });
}
