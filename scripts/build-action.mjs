#!/usr/bin/env node
// Bundles src/action/main.ts into dist/index.js (what action.yml runs), and what only some runs
// need (GitHub's cache client) into dist/chunks/, loaded when a run asks for it. With --check,
// fails when the committed dist/ differs from a fresh build, so dist/ never drifts from src/action/.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist");
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [path.join(root, "src", "action", "main.ts")],
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  outdir,
  entryNames: "index",
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  write: false,
  legalComments: "none",
  // Keeps the committed bundle under the 3 MB budget and quick to load (cold start).
  minify: true,
  metafile: true,
  // jsonc-parser's `main` is a UMD build whose require("./impl/…") calls esbuild cannot follow; its ES module build bundles whole.
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
  // Bundled CommonJS dependencies call require(); ESM output needs one.
  // The Action tells the service its release at claim (src/action/action-version.ts).
  define: { __INKWELL_ACTION_VERSION__: JSON.stringify(JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version) },
  banner: { js: "import { createRequire as __inkwellCreateRequire } from 'node:module'; const require = __inkwellCreateRequire(import.meta.url);" },
  logLevel: "warning",
});

// The Action must never carry the service: no probot, nothing from src/app.
const forbidden = Object.keys(result.metafile.inputs).filter((input) => /node_modules\/probot\/|^src\/app\//.test(input));
if (forbidden.length > 0) {
  console.error(`The Action bundle pulls in service code: ${forbidden.slice(0, 5).join(", ")}`);
  process.exit(1);
}

const fresh = new Map(result.outputFiles.map((file) => [path.relative(outdir, file.path), file]));
const committed = () => [...listFiles(outdir)].filter((file) => file.endsWith(".js"));
if (check) {
  const stale = [...fresh].filter(([name, file]) => !existsSync(path.join(outdir, name)) || readFileSync(path.join(outdir, name), "utf8") !== file.text);
  const extra = committed().filter((name) => !fresh.has(name));
  if (stale.length > 0 || extra.length > 0) {
    console.error(`dist/ is out of date with src/action (${[...stale.map(([name]) => name), ...extra].join(", ")}): run \`npm run build:action\` and commit dist/.`);
    process.exit(1);
  }
} else {
  for (const name of committed()) if (!fresh.has(name)) rmSync(path.join(outdir, name));
  for (const [name, file] of fresh) {
    mkdirSync(path.dirname(path.join(outdir, name)), { recursive: true });
    writeFileSync(path.join(outdir, name), file.contents);
  }
}

function* listFiles(dir, prefix = "") {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) yield* listFiles(path.join(dir, entry.name), path.posix.join(prefix, entry.name));
    else yield path.posix.join(prefix, entry.name);
  }
}
