#!/usr/bin/env node
// Runs a TypeScript script (a benchmark that reuses the test helpers) by bundling it with esbuild,
// dependencies left external, into node_modules/.cache and importing it.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = process.argv[2];
if (!entry) {
  console.error("usage: node scripts/run-ts.mjs <file.ts> [args…]");
  process.exit(2);
}
const outdir = path.join(root, "node_modules", ".cache", "inkwell-run-ts");
mkdirSync(outdir, { recursive: true });
const outfile = path.join(outdir, `${path.basename(entry, ".ts")}.mjs`);
await build({ entryPoints: [path.resolve(entry)], bundle: true, packages: "external", platform: "node", format: "esm", target: "node20", outfile, logLevel: "warning" });
await import(pathToFileURL(outfile).href);
