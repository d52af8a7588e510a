import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

declare const __INKWELL_ACTION_VERSION__: string | undefined;

/**
 * The Action's release: written into the bundle from package.json when dist/ is built, read from
 * package.json when the Action runs from source (tests).
 */
export function actionVersion(): string {
  if (typeof __INKWELL_ACTION_VERSION__ === "string") return __INKWELL_ACTION_VERSION__;
  // From source, next to src/; a bench that bundles the source elsewhere runs from the checkout.
  const candidates = [fileURLToPath(new URL("../../package.json", import.meta.url)), path.resolve("package.json")];
  const file = candidates.find((candidate) => existsSync(candidate)) ?? (candidates[1] as string);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}
