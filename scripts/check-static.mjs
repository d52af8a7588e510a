#!/usr/bin/env node
// The checks `npm test` runs before vitest, side by side: eslint and the import layers (`npm run
// lint`), both type-checks (`npm run typecheck`) and the dist/ freshness check (`npm run
// check:dist`). Each is a process of its own, so on two cores they take as long as the slowest
// (the type-check), not the sum. A check's output is printed whole when it ends, never interleaved;
// the exit code is the first failure's.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(ROOT, "node_modules", ".bin", name);

const STATIC_CHECKS = [
  { name: "eslint", command: bin("eslint"), args: ["."] },
  { name: "import layers", command: process.execPath, args: ["scripts/check-import-cycles.mjs"] },
  { name: "tsc (service, Action, CLI, tests)", command: bin("tsc"), args: ["-p", "tsconfig.json"] },
  { name: "tsc (dashboard client)", command: bin("tsc"), args: ["-p", "src/dashboard-client"] },
  { name: "dist/ in step with src/action", command: process.execPath, args: ["scripts/build-action.mjs", "--check"] },
];

function runCheck(check) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(check.command, check.args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ check, code: 1, output: `${output}${error.message}\n`, ms: performance.now() - started }));
    child.on("close", (code) => resolve({ check, code: code ?? 1, output, ms: performance.now() - started }));
  });
}

const results = await Promise.all(
  STATIC_CHECKS.map((check) =>
    runCheck(check).then((result) => {
      const seconds = (result.ms / 1000).toFixed(1);
      if (result.code === 0) console.log(`✓ ${check.name} (${seconds} s)`);
      else console.log(`✗ ${check.name} failed (${seconds} s):\n${result.output.trimEnd()}`);
      return result;
    }),
  ),
);
const failed = results.find((result) => result.code !== 0);
process.exitCode = failed ? failed.code : 0;
