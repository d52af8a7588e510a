import { execFileSync } from "node:child_process";

/** Process-level tests run the compiled server and CLI: make sure lib/ is current. */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/ensure-ready.mjs"], { stdio: "inherit" });
  if (!process.env.TEST_DATABASE_URL) {
    console.log("PostgreSQL half skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it.");
  }
}
