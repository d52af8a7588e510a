#!/usr/bin/env node
// Bundles src/action/main.ts into dist/index.js (what action.yml runs). With --check, fails
// when the committed dist/ differs from a fresh build, so dist/ never drifts from src/action/.
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outfile = path.join(root, "dist", "index.js");
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [path.join(root, "src", "action", "main.ts")],
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  outfile,
  write: !check,
  legalComments: "none",
  // Keeps the committed bundle under the 3 MB budget and quick to load (cold start).
  minify: true,
  metafile: true,
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

if (check) {
  const fresh = result.outputFiles?.[0]?.text ?? "";
  const committed = existsSync(outfile) ? readFileSync(outfile, "utf8") : "";
  if (fresh !== committed) {
    console.error("dist/index.js is out of date with src/action: run `npm run build:action` and commit dist/.");
    process.exit(1);
  }
}
