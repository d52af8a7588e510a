import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { writePgliteTemplates } from "./pglite-template.js";

/**
 * Once per run, before any worker starts: lib/ current for the process-level tests (they run the
 * compiled server and CLI), and the PGlite templates every test store starts from.
 */
export default async function setup(): Promise<() => void> {
  execFileSync(process.execPath, ["scripts/ensure-ready.mjs"], { stdio: "inherit" });
  if (!process.env.TEST_DATABASE_URL) {
    console.log("PostgreSQL half skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it.");
  }
  // Workers are started after this and inherit the environment.
  const templates = await writePgliteTemplates();
  Object.assign(process.env, templates);
  return () => {
    for (const file of Object.values(templates)) rmSync(path.dirname(file), { recursive: true, force: true });
  };
}
