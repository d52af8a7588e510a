#!/usr/bin/env node
// `npm run build`: src/ to lib/ (the service and the CLI), and the dashboard's browser code and style
// sheet to lib/dashboard-assets/. esbuild transpiles each file on its own, in well under a second:
// type-checking is `npm run typecheck`'s job (npm test runs it), not a fresh clone's first start.
import { build } from "esbuild";
import { copyFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The Action is bundled on its own into dist/ (build-action.mjs); the dashboard's client just below.
const NOT_IN_LIB = new Set(["src/action", "src/dashboard-client"]);

function sources(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return NOT_IN_LIB.has(relative) ? [] : sources(relative);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

await build({
  absWorkingDir: root,
  entryPoints: sources("src"),
  outbase: "src",
  outdir: "lib",
  platform: "node",
  format: "esm",
  target: "node20.18",
  sourcemap: true,
  tsconfig: "tsconfig.build.json",
  logLevel: "warning",
});

// The dashboard's own code, with Chart.js, served by the app itself: no CDN, so offline installs work
// and the CSP stays 'self'.
await build({
  absWorkingDir: root,
  entryPoints: { app: "src/dashboard-client/main.ts", dashboard: "src/dashboard-client/dashboard.css" },
  outdir: "lib/dashboard-assets",
  bundle: true,
  format: "esm",
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  minify: true,
  legalComments: "eof",
  logLevel: "warning",
});
copyFileSync(path.join(root, "src/dashboard-client/favicon.svg"), path.join(root, "lib/dashboard-assets/favicon.svg"));
