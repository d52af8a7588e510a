// `npm run docs:env`: rewrites docs/configuration.md's environment reference (between the env-reference
// markers) from the config schema in src/app/config.ts. With --check, only says whether it is
// up to date (exit 1 when not). Run through scripts/run-ts.mjs, from the repository's root.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { envSchema } from "../src/app/config.js";
import { renderEnvReference, replaceEnvReference } from "../src/app/config-reference.js";

const pagePath = path.resolve(process.cwd(), "docs", "configuration.md");
const page = readFileSync(pagePath, "utf8");
const updated = replaceEnvReference(page, renderEnvReference(envSchema));

if (process.argv.includes("--check")) {
  if (updated !== page) {
    console.error("docs/configuration.md's environment reference is out of date with src/app/config.ts: run `npm run docs:env`.");
    process.exit(1);
  }
  console.log("docs/configuration.md's environment reference is up to date.");
} else if (updated === page) {
  console.log("docs/configuration.md's environment reference was already up to date.");
} else {
  writeFileSync(pagePath, updated);
  console.log(`Rewrote the environment reference in ${pagePath} (${Object.keys(envSchema.shape).length} variables).`);
}
