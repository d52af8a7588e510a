// `npm run docs:generate`: rewrites the manual's generated sections from their sources: the
// environment reference in docs/configuration.md (the config schema, src/app/config.ts) and the
// command list in docs/cli.md (the CLI's usage lines, src/cli/commands/command-usage.ts). With
// --check, only says whether they are up to date (exit 1 when not). Run through scripts/run-ts.mjs,
// from the repository's root.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { envSchema } from "../src/app/config.js";
import { renderEnvReference, replaceEnvReference } from "../src/app/config-reference.js";
import { COMMAND_REFERENCE, renderCommandReference } from "../src/cli/commands/command-reference.js";
import { replaceMarkedSection } from "../src/shared/marked-section.js";

const SECTIONS = [
  { page: "docs/configuration.md", source: "src/app/config.ts", rewrite: (text: string) => replaceEnvReference(text, renderEnvReference(envSchema)) },
  { page: "docs/cli.md", source: "src/cli/commands/command-usage.ts", rewrite: (text: string) => replaceMarkedSection(text, COMMAND_REFERENCE, renderCommandReference()) },
];

let stale = 0;
for (const { page, source, rewrite } of SECTIONS) {
  const file = path.resolve(process.cwd(), page);
  const text = readFileSync(file, "utf8");
  const updated = rewrite(text);
  if (updated === text) console.log(`${page} is up to date with ${source}.`);
  else if (process.argv.includes("--check")) {
    console.error(`${page} is out of date with ${source}: run \`npm run docs:generate\`.`);
    stale++;
  } else {
    writeFileSync(file, updated);
    console.log(`Rewrote ${page}'s generated section from ${source}.`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
