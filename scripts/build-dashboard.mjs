#!/usr/bin/env node
// Bundles the dashboard's browser code (with Chart.js) and style sheet into lib/dashboard-assets/,
// served by the app itself: no CDN, so offline installs work and the CSP stays 'self'.
import { build } from "esbuild";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
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
