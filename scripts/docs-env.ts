// `npm run docs:env`: rewrites README.md's environment reference (between the env-reference
// markers) from the config schema in src/app/config.ts. With --check, only says whether it is
// up to date (exit 1 when not). Run through scripts/run-ts.mjs, from the repository's root.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { envSchema } from "../src/app/config.js";
import { renderEnvReference, replaceEnvReference } from "../src/app/config-reference.js";

const readmePath = path.resolve(process.cwd(), "README.md");
const readme = readFileSync(readmePath, "utf8");
const updated = replaceEnvReference(readme, renderEnvReference(envSchema));

if (process.argv.includes("--check")) {
  if (updated !== readme) {
    console.error("README.md's environment reference is out of date with src/app/config.ts: run `npm run docs:env`.");
    process.exit(1);
  }
  console.log("README.md's environment reference is up to date.");
} else if (updated === readme) {
  console.log("README.md's environment reference was already up to date.");
} else {
  writeFileSync(readmePath, updated);
  console.log(`Rewrote the environment reference in ${readmePath} (${Object.keys(envSchema.shape).length} variables).`);
}
