#!/usr/bin/env node
import { existsSync } from "node:fs";

const cli = new URL("../lib/cli/main.js", import.meta.url);
if (!existsSync(cli)) {
  console.error("inkwell: the CLI is not built yet. Run `npm run build` (or `npm start` once) in the Inkwell directory.");
  process.exit(1);
}
await import(cli.href);
