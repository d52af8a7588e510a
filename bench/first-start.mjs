#!/usr/bin/env node
// A self-hoster's first `npm start`, timed step by step: a fresh clone of this checkout's HEAD,
// `npm start` on a free port and a new data directory, until the server answers /healthz. Once with
// an empty npm cache (a fresh machine: every package downloaded) and once with a warm one (a second
// clone on the same machine). Prints seconds per step. Needs the npm registry.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIMIT_MS = 300_000;

/** Lines of `npm start`'s output that end a step, and what the step is called. */
const STEPS = [
  [/^Installed in /, "install (npm ci)"],
  [/^Built in /, "build (src/ to lib/, dashboard)"],
  [/"msg":"store ready"/, "store ready (PGlite created, migrated)"],
  [/is listening at/, "listening"],
];

async function firstStart(label, npmCache) {
  const work = mkdtempSync(path.join(tmpdir(), "inkwell-first-start-"));
  const clone = path.join(work, "inkwell");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", root, clone]);
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: clone,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: "0", DATA_DIR: path.join(work, "data"), npm_config_cache: npmCache ?? path.join(work, "npm-cache") },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const marks = [];
  let output = "";
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${label}: no server after ${LIMIT_MS / 1000} s:\n${output}`)), LIMIT_MS);
      child.on("close", (code) => reject(new Error(`${label}: npm start ended (exit code ${code}):\n${output}`)));
      const onLine = (line) => {
        for (const [pattern, step] of STEPS) if (pattern.test(line)) marks.push([step, performance.now() - started]);
        const listening = /"url":"(http:[^"]+)".*is listening at/.exec(line);
        if (listening) {
          clearTimeout(timer);
          resolve(listening[1]);
        }
      };
      let pending = "";
      for (const stream of [child.stdout, child.stderr]) {
        stream.on("data", (chunk) => {
          output += chunk;
          pending += chunk;
          const lines = pending.split("\n");
          pending = lines.pop() ?? "";
          lines.forEach(onLine);
        });
      }
    });
    for (;;) {
      const response = await fetch(`${url}/healthz`).catch(() => null);
      if (response?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    marks.push(["answers /healthz", performance.now() - started]);
    return marks;
  } finally {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
    rmSync(work, { recursive: true, force: true });
  }
}

const runs = [
  ["fresh machine (empty npm cache)", await firstStart("cold", undefined)],
  ["second clone (warm npm cache)", await firstStart("warm", execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim())],
];

console.log(`\nFirst \`npm start\` of a fresh clone (${process.version}, HEAD ${execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim()}), seconds since the command:\n`);
console.log(`| step | ${runs.map(([label]) => label).join(" | ")} |`);
console.log(`|---|${runs.map(() => "---|").join("")}`);
for (const step of [...STEPS.map(([, name]) => name), "answers /healthz"]) {
  const cells = runs.map(([, marks]) => marks.find(([name]) => name === step)?.[1]);
  if (cells.every((cell) => cell === undefined)) continue;
  console.log(`| ${step} | ${cells.map((ms) => (ms === undefined ? "" : (ms / 1000).toFixed(1))).join(" | ")} |`);
}
console.log("\nGoal: the server answers within 60 s on a fresh machine.");
