import { readFileSync } from "node:fs";
import { packageUrl } from "./package-root.js";

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(packageUrl("package.json"), "utf8")) as { version: string }).version;
  return cached;
}
