import { readFileSync } from "node:fs";

declare const __INKWELL_ACTION_VERSION__: string | undefined;

/**
 * The Action's release: written into the bundle from package.json when dist/ is built, read from
 * package.json when the Action runs from source (tests).
 */
export function actionVersion(): string {
  if (typeof __INKWELL_ACTION_VERSION__ === "string") return __INKWELL_ACTION_VERSION__;
  return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
}
